// The eval's model stand-in for step B: it proposes the titles of lunr's first pages over the real
// OpenAI chat protocol, and the ladder takes them as proposed terms through the real client.
import { afterEach, describe, expect, it } from 'vitest';
import { askQuestion, openAskSession } from '../../src/answer/ask.js';
import { openWorkspace } from '../../src/config/workspace.js';
import { buildBaseline } from '../../eval/baseline.js';
import { type ProposalRun, startProposals, titleAsTerm } from '../../eval/proposals.js';
import { makeWiki, page } from '../helpers/wiki-fixture.js';

describe('titles as proposed terms', () => {
  it('drops parenthetical qualifiers and characters the proposal parser refuses', () => {
    expect(titleAsTerm('Sorting Effect (Compensation)')).toBe('Sorting Effect');
    expect(titleAsTerm('std: Iterator Adapter Catalog')).toBe('std Iterator Adapter Catalog');
    expect(titleAsTerm('thread_local!')).toBe('thread local');
  });

  it('gives no term for a title longer than a proposal may be, or one with no letters or digits', () => {
    expect(titleAsTerm('Holding Collection Element References Across Mutation')).toBeUndefined();
    expect(titleAsTerm('(draft)')).toBeUndefined();
  });
});

describe('the proposal stand-in', () => {
  let run: ProposalRun | undefined;
  afterEach(() => run?.close());

  it('proposes the titles of the pages lunr ranks first, and the trace marks them proposed', async () => {
    const wiki = await makeWiki({
      'concepts/anchoring.md': page({
        title: 'Anchoring and Adjustment (Heuristic)',
        type: 'concepts',
        body: 'Estimates start from an initial value, the anchor, and adjust too little. A random number from a wheel pulled guesses toward it.',
      }),
      'concepts/sunk-cost.md': page({ title: 'Sunk Cost Effect', type: 'concepts', body: 'People keep investing because of what they already spent.' }),
    });
    const opened = await openAskSession(await openWorkspace({ cwd: wiki, wikiFlag: wiki }));
    const catalog = opened.catalog!;
    run = await startProposals(await buildBaseline(catalog), new Map(catalog.entries.map((e) => [e.path, e.title])));
    const trace = await askQuestion({ ...opened, providers: run.providers }, 'Why does a random number from a wheel pull my guess?');

    expect(run.problems()).toEqual([]);
    expect(run.requests()).toBe(1);
    expect(trace.signal_terms).toEqual(
      expect.arrayContaining([expect.objectContaining({ term: 'Anchoring and Adjustment', kind: 'proposed', via: 'proposed by openai:stand-in' })]),
    );
    expect(trace.signal_terms.map((t) => t.term)).not.toContain('Sunk Cost Effect');
    expect(trace.candidates[0]!.path).toBe('concepts/anchoring.md');
  });
});
