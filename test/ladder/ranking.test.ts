// Ranking that reads the body (issue 11): fielded relevance, body candidates, the seed's branch kept
// beside the union's, the subject of a small wiki never dropped, acronyms the wiki spells out,
// pseudo-relevance feedback, and open captures that record a gap instead of covering it. Real files
// in temp folders, asked through the CLI's own session code.
import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { askQuestion, openAskSession } from '../../src/answer/ask.js';
import { openWorkspace } from '../../src/config/workspace.js';
import { AcronymCollector, longFormOf } from '../../src/ladder/acronyms.js';
import { LADDER } from '../../src/ladder/ladder.js';
import type { Trace } from '../../src/answer/trace.js';
import { makeWiki, page } from '../helpers/wiki-fixture.js';

const made: string[] = [];
afterAll(() => Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 5 }))));

async function ask(files: Record<string, string>, question: string): Promise<Trace> {
  const root = await makeWiki(files);
  made.push(root);
  const session = await openAskSession(await openWorkspace({ cwd: root, wikiFlag: root }));
  return askQuestion(session, question);
}

const filler = (topic: string, n: number) =>
  Object.fromEntries(
    Array.from({ length: n }, (_, i) => [
      `notes/${topic}-${i}.md`,
      page({ title: `${topic} note ${i}`, type: 'notes', body: `Routine ${topic} observations, batch ${i}, nothing unusual.` }),
    ]),
  );

describe('ranking that reads the body', () => {
  it('a question in everyday words reaches the page whose body says it, marked as a body candidate; the seed branch is kept', async () => {
    const trace = await ask(
      {
        'concepts/cathodic-protection.md': page({
          title: 'Cathodic protection',
          type: 'concepts',
          extra: 'summary: Protecting steel structures in seawater with anodes.\n',
          body: 'Sacrificial anodes of zinc or aluminium are bolted to the jacket of an offshore platform.\nThe anodes corrode instead of the steel, so the structure stops rusting underwater.\n',
        }),
        ...filler('weather', 6),
      },
      'How do lumps of zinc bolted onto an underwater platform stop it rusting?',
    );
    expect(trace.seed_branch).toBe('cold');
    expect(trace.candidates[0]).toMatchObject({ path: 'concepts/cathodic-protection.md', source: 'body' });
    expect(trace.candidates[0]!.matched.map((m) => m.field)).toContain('body');
    expect(trace.branch).toBe('inline');
    expect(trace.read[0]).toBe('concepts/cathodic-protection.md');
  });

  it('candidates come best first: a page whose title names the asked designation outranks its sibling that mentions it in passing', async () => {
    const trace = await ask(
      {
        'standards/api-rp-580.md': page({
          title: 'API RP 580 — Risk-Based Inspection',
          type: 'standards',
          body: 'RP 580 sets the principles of risk-based inspection; API RP 581 gives the quantitative method. See API RP 581 for inspection effectiveness and probability of failure.\n',
        }),
        'standards/api-rp-581.md': page({
          title: 'API RP 581 — RBI Methodology',
          type: 'standards',
          body: 'Inspection effectiveness is graded A to E and lowers the probability of failure.\n',
        }),
      },
      'In API RP 581, how is inspection effectiveness graded?',
    );
    expect(trace.candidates.map((c) => c.path)).toEqual(['standards/api-rp-581.md', 'standards/api-rp-580.md']);
    expect(trace.candidates[0]!.score!).toBeGreaterThan(trace.candidates[1]!.score!);
    expect(trace.signal_terms).toContainEqual(expect.objectContaining({ term: 'API RP 581', kind: 'proper-noun' }));
  });

  it('the seed’s title rule: a last word of four letters or more may start a longer title word, a shorter one may not', async () => {
    const files = {
      'concepts/configuration.md': page({ title: 'Configuration reference', type: 'concepts', body: 'Every option with its default.\n' }),
      'concepts/configurator.md': page({ title: 'Configurator', type: 'concepts', body: 'A tool that writes options.\n' }),
      'concepts/conflicts.md': page({ title: 'Conflicts', type: 'concepts', body: 'Merge conflicts in generated files.\n' }),
      'concepts/rapid.md': page({ title: 'Rapid prototyping', type: 'concepts', body: 'Prototypes first.\n' }),
    };
    const titled = (trace: Trace) =>
      trace.candidates
        .filter((c) => c.matched.some((m) => m.field === 'title'))
        .map((c) => c.path)
        .sort();
    expect(titled(await ask(files, 'Where is the config kept?'))).toEqual(['concepts/configuration.md', 'concepts/configurator.md']);
    expect(titled(await ask(files, 'Which api is it?'))).toEqual([]);
  });

  it(`at most ${LADDER.BODY_CANDIDATES} pages join through their body alone`, async () => {
    const files = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [
        `notes/n${i}.md`,
        page({ title: `Note ${i}`, type: 'notes', body: `The flange gasket leaked during test ${i}.\n` }),
      ]),
    );
    const trace = await ask(files, 'why do gaskets leak at flanges?');
    expect(trace.candidates.filter((c) => c.source === 'body').length).toBeLessThanOrEqual(LADDER.BODY_CANDIDATES);
    expect(trace.candidates.length).toBeGreaterThan(0);
  });

  it('on a 12-page wiki the subject on 4 pages is never dropped as too common', async () => {
    const jina = (i: number, body: string) => [
      `tools/jina-${i}.md`,
      page({ title: `Jina Reader ${['setup', 'rate limits', 'caching', 'errors'][i]}`, type: 'tools', body }),
    ];
    const trace = await ask(
      {
        ...Object.fromEntries([
          jina(0, 'Install the Jina Reader client.'),
          jina(1, 'The free tier of Jina Reader allows 20 requests per minute.'),
          jina(2, 'Fetched pages are cached for one hour.'),
          jina(3, 'A 429 means you hit the rate limit.'),
        ]),
        ...filler('misc', 8),
      },
      'What is the free tier rate limit of Jina Reader?',
    );
    expect(trace.signal_terms).toContainEqual(expect.objectContaining({ term: 'Jina Reader' }));
    expect(trace.signal_terms.find((t) => t.term === 'Jina Reader')!.gate).toBeUndefined();
    expect(trace.dropped_terms.map((d) => d.term)).not.toContain('Jina Reader');
    expect(trace.candidates[0]!.path).toBe('tools/jina-1.md');
  });

  it('an ordinary word on most pages ranks by its rarity but does not open the gate, and the trace says so', async () => {
    const trace = await ask(
      { ...filler('widget', 20), 'guides/calibrate.md': page({ title: 'Calibrate the sensor', type: 'guides', body: 'Calibrate the widget sensor weekly.' }) },
      'how do I calibrate a widget?',
    );
    const widget = trace.signal_terms.find((t) => t.term === 'widget')!;
    expect(widget.gate).toBe(false);
    expect(widget.note).toMatch(/too common to name pages here: matches \d+ of 21 pages/);
    expect(trace.candidates[0]!.path).toBe('guides/calibrate.md');
  });

  it('a question naming something no page mentions stays cold, whatever ordinary words it shares', async () => {
    const trace = await ask(
      {
        'ops/host-inventory.md': page({
          title: 'Host inventory',
          type: 'ops',
          extra: 'summary: Which machines we run.\n',
          body: 'Our database servers run on three hosts; certificates are renewed by the platform team.',
        }),
      },
      'How do we rotate the TLS certificates on the servers?',
    );
    expect(trace.branch).toBe('cold');
    expect(trace.outcome).toBe('cold');
  });
});

describe('the wiki’s own vocabulary', () => {
  it('finds acronyms the wiki spells out, by the letters of the words before them', () => {
    expect(longFormOf('LTCR', 'we compare the long-term corrosion rate')).toBe('long-term corrosion rate');
    expect(longFormOf('BFF', 'the Backend for Frontend')).toBe('Backend for Frontend');
    expect(longFormOf('XYZ', 'nothing that spells it')).toBeUndefined();
    const collector = new AcronymCollector();
    collector.add('The long-term corrosion rate (LTCR) governs.\nSee [link](x.md) (PR).');
    expect([...collector.result()]).toEqual([['ltcr', ['long-term corrosion rate']]]);
    // A wikilink's target never joins the long form of the text it shows, nor a table cell its neighbour's.
    const piped = new AcronymCollector();
    piped.add('Add [[Frame-of-Reference Training|frame-of-reference (FOR) rater training]].\n| Social exchange | theory (ST) |');
    expect([...piped.result()]).toEqual([['for', ['frame-of-reference']]]);
  });

  it('a question using the acronym reaches the page written with the long form, and the trace says where the term came from', async () => {
    const trace = await ask(
      {
        'concepts/glossary.md': page({ title: 'Glossary', type: 'concepts', body: 'The high-temperature hydrogen attack (HTHA) damage mechanism.' }),
        'concepts/hydrogen-damage.md': page({
          title: 'Hydrogen damage in hot service',
          type: 'concepts',
          body: 'High-temperature hydrogen attack forms methane at grain boundaries.',
        }),
        ...filler('misc', 4),
      },
      'What causes HTHA?',
    );
    const expanded = trace.signal_terms.find((t) => t.kind === 'expanded')!;
    expect(expanded).toMatchObject({ term: 'high-temperature hydrogen attack', via: expect.stringContaining("'HTHA'") });
    expect(trace.candidates.map((c) => c.path)).toContain('concepts/hydrogen-damage.md');
  });

  it('only a word written as an acronym stands for one: not a lowercase word, nor part of a hyphenated word', async () => {
    const files = {
      'concepts/rating.md': page({ title: 'Rating training', type: 'concepts', body: 'Frame-of-reference training (FOR) aligns raters.' }),
      'concepts/exchange.md': page({ title: 'Exchange', type: 'concepts', body: 'Social exchange theory (SET) explains reciprocity at work.' }),
      ...filler('misc', 4),
    };
    const ordinary = await ask(files, 'What works for goal-setting when people set goals?');
    expect(ordinary.signal_terms.filter((t) => t.kind === 'expanded' && /spells out/.test(t.via ?? ''))).toEqual([]);
    const written = await ask(files, 'How does SET explain reciprocity?');
    expect(written.signal_terms.find((t) => t.kind === 'expanded')).toMatchObject({ term: 'social exchange theory', via: expect.stringContaining("'SET'") });
  });

  it('headings do not add other pages’ titles to the signal terms', async () => {
    const trace = await ask(
      {
        'tools/jina-reader.md': page({ title: 'Jina Reader', type: 'tools', body: '## Rate limiting\n\nTwenty requests per minute.' }),
        'tools/firecrawl.md': page({ title: 'Firecrawl', type: 'tools', body: '## Rate limiting\n\nBurst limits apply.' }),
      },
      'How does rate limiting work?',
    );
    expect(trace.signal_terms.filter((t) => t.kind === 'expanded')).toEqual([]);
  });

  it('pseudo-relevance feedback terms are weighted below the question’s own and name the pages they came from', async () => {
    const trace = await ask(
      {
        'concepts/xss.md': page({
          title: 'Cross-site scripting',
          type: 'concepts',
          body: '## Token theft\n\nInjected scripts read tokens stored in the browser and send them away.',
        }),
        'concepts/csp.md': page({
          title: 'Content security policy',
          type: 'concepts',
          body: '## Token theft\n\nA strict policy stops injected scripts from loading.',
        }),
        ...filler('misc', 4),
      },
      'how are credentials stolen through injected scripts?',
    );
    const feedback = trace.signal_terms.filter((t) => t.kind === 'feedback');
    expect(feedback.length).toBeGreaterThan(0);
    for (const t of feedback) {
      expect(t.term).toMatch(/^[a-z]+$/);
      expect(t.via).toMatch(/^pseudo-relevance feedback from /);
      expect(t.weight!).toBeLessThan(trace.signal_terms.find((s) => s.term === 'injected')!.weight!);
    }
  });

  it('feedback never takes a word that heads sections on many pages: that is the wiki’s layout, not a subject', async () => {
    // Every page ends with "## Related pages"; the two best pages also share "Token theft".
    const related = (body: string) => `${body}\n\n## Related pages\n\nSee the index.\n`;
    const trace = await ask(
      {
        'concepts/xss.md': page({
          title: 'Cross-site scripting',
          type: 'concepts',
          body: related('## Token theft\n\nInjected scripts read tokens stored in the browser and send them away.'),
        }),
        'concepts/csp.md': page({
          title: 'Content security policy',
          type: 'concepts',
          body: related('## Token theft\n\nA strict policy stops injected scripts from loading.'),
        }),
        ...Object.fromEntries(Object.entries(filler('misc', 10)).map(([path, text]) => [path, related(text)])),
      },
      'how are credentials stolen through injected scripts?',
    );
    const feedback = trace.signal_terms.filter((t) => t.kind === 'feedback').map((t) => t.term);
    expect(feedback).toContain('theft');
    expect(feedback).not.toContain('related');
  });
});

describe('captures record gaps, not coverage', () => {
  it('an open capture of the same question is listed as asked before, never read as coverage: the outcome stays cold', async () => {
    const capture = page({
      title: '"How do I bake sourdough bread?"',
      type: 'queries',
      extra: 'captured_by: wiki-steward\n',
      body: 'A question the wiki had no page for, captured so the next asker finds an answer here.\n\nThe wiki has no page that matches this question (looked for: `bake`, `sourdough`, `bread`).\n',
    });
    const trace = await ask({ 'queries/how-do-i-bake-sourdough-bread.md': capture, ...filler('misc', 3) }, 'How do I bake sourdough bread?');
    expect(trace.asked_before).toEqual(['queries/how-do-i-bake-sourdough-bread.md']);
    expect(trace.answer).toContain('**Asked before, still open:** `queries/how-do-i-bake-sourdough-bread.md`');
    expect(trace.candidates.map((c) => c.path)).not.toContain('queries/how-do-i-bake-sourdough-bread.md');
    expect(trace.outcome).toBe('cold');
  });

  it('once a reviewer writes the answer and deletes captured_by, the page answers the question (its capture tag kept)', async () => {
    // What the capture pull request tells the reviewer: delete the captured_by line; the tags stay as written.
    const answered = page({
      title: '"How do I bake sourdough bread?"',
      type: 'queries',
      body: 'Bake sourdough bread at 250 °C for 20 minutes with steam, then 20 minutes without.\n',
    }).replace('tags: [testing]', 'tags: [capture, cold, testing]');
    const trace = await ask({ 'queries/how-do-i-bake-sourdough-bread.md': answered, ...filler('misc', 3) }, 'How do I bake sourdough bread?');
    expect(trace.asked_before).toBeUndefined();
    expect(trace.outcome).toBe('answered');
    expect(trace.read[0]).toBe('queries/how-do-i-bake-sourdough-bread.md');
  });
});
