// The answer and the trace never contradict each other: the "Not in …" line lists exactly the
// trace's `missing`, appears only when something is missing, and every term it names is really
// absent from the pages the answer quotes.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Answerer } from '../../src/answer/answerer.js';
import { askQuestion, offlineProviders, openAskSession } from '../../src/answer/ask.js';
import { textHasTerm } from '../../src/answer/passages.js';
import { openWorkspace } from '../../src/config/workspace.js';
import { foldText, termPattern } from '../../src/ladder/text-match.js';
import type { Trace, WikiCitation } from '../../src/answer/trace.js';
import { runCli } from '../helpers/cli-in-process.js';
import { makeWiki, page } from '../helpers/wiki-fixture.js';

/** The terms a "**Not in …:**" line of the answer lists, or undefined without that line. */
const listedAs = (answer: string, where: 'the wiki' | 'the best-matching pages'): string[] | undefined =>
  answer
    .split('\n')
    .find((l) => l.startsWith(`**Not in ${where}:**`))
    ?.replace(/^\*\*[^*]+\*\*\s*/, '')
    .replace(/\.$/, '')
    .split(', ')
    .map((m) => m.replace(/^`|`$/g, ''));
/** Both lines together, or undefined when the answer has neither. */
const missingLine = (answer: string): string[] | undefined => {
  const [absent, notBest] = [listedAs(answer, 'the wiki'), listedAs(answer, 'the best-matching pages')];
  return absent || notBest ? [...(absent ?? []), ...(notBest ?? [])] : undefined;
};

describe('the "Not in the wiki" line', () => {
  it('lists exactly trace.missing, only when something is missing, and only terms absent from the pages quoted', async () => {
    const wiki = await makeWiki({
      'concepts/cache.md': page({
        title: 'Fetch cache',
        type: 'concepts',
        body: 'Fetched pages are cached for one day.\n\nThe cache keys join the tenant and the address.',
      }),
      'concepts/retry.md': page({ title: 'Retry budget', type: 'concepts', body: 'Retries stop after three attempts.' }),
      'how-to/rotate.md': page({ title: 'Rotate tokens', type: 'how-to', body: 'Rotate tokens with the admin console every quarter.' }),
    });
    const questions = [
      'How are cache keys built?',
      'How long are fetched pages cached?',
      'How do I set `--max-citations` for the fetch cache?',
      'How do I rotate the retry budget tokens in Kubernetes?',
      'When do retries stop?',
    ];
    let sawAnsweredClean = false;
    let sawAnsweredTolerating = false;
    let sawGap = false;
    for (const question of questions) {
      const run = await runCli(['ask', '--wiki', wiki, '--json', question], wiki);
      expect(run.code, run.stderr).toBe(0);
      const trace = JSON.parse(run.stdout) as Trace;
      if (trace.outcome === 'cold') continue;
      const listed = missingLine(trace.answer);
      if (trace.missing.length === 0) expect(listed, `${question}: no "Not in" line`).toBeUndefined();
      else expect(listed?.sort(), `${question}: the lines list trace.missing`).toEqual([...trace.missing].sort());
      if (trace.outcome === 'answered' && trace.missing.length === 0) sawAnsweredClean = true;
      // "How long are fetched pages cached?": answered, and `long` is said to be absent from the pages quoted, as the trace says.
      if (trace.outcome === 'answered' && trace.missing.length > 0) {
        sawAnsweredTolerating = true;
        expect(trace.answer).toContain('**Not in the best-matching pages:**');
        expect(trace.coverage).toMatchObject({ covered: true, missing: trace.missing });
      }
      if (trace.outcome === 'gap') sawGap = true;
      const quoted = [...new Set(trace.citations.filter((c): c is WikiCitation => 'path' in c).map((c) => c.path))];
      const texts = await Promise.all(quoted.map(async (p) => foldText(await readFile(path.join(wiki, p), 'utf8'))));
      const strict = new Map(trace.signal_terms.map((t) => [t.term, !['word', 'expanded', 'feedback'].includes(t.kind)]));
      // "Not in the wiki" names only terms no page read holds.
      const read = await Promise.all(trace.read.map(async (p) => foldText(await readFile(path.join(wiki, p), 'utf8'))));
      for (const term of listedAs(trace.answer, 'the wiki') ?? []) {
        for (const text of read)
          expect(textHasTerm(text, termPattern(term), strict.get(term) ?? false), `${question}: "${term}" is in a page read`).toBe(false);
      }
      for (const term of trace.missing) {
        for (const text of texts)
          expect(textHasTerm(text, termPattern(term), strict.get(term) ?? false), `${question}: "${term}" is reported missing but is in a quoted page`).toBe(
            false,
          );
      }
    }
    expect(sawAnsweredClean).toBe(true);
    expect(sawAnsweredTolerating).toBe(true);
    expect(sawGap).toBe(true);
  });
});

describe('the answer’s "Not in" lines come from the answerer’s verdict', () => {
  it('a missing term the answerer found in another page read is not said to be absent from the wiki', async () => {
    const wiki = await makeWiki({
      'concepts/cache.md': page({ title: 'Fetch cache', type: 'concepts', body: 'The cache keys join the tenant and the address.' }),
    });
    const quote = 'The cache keys join the tenant and the address.';
    const lines = (await readFile(path.join(wiki, 'concepts/cache.md'), 'utf8')).split('\n');
    const line = lines.indexOf(quote) + 1;
    // A stand-in answerer with a fixed verdict: what ask.ts makes of it is under test.
    const answerer: Answerer = {
      name: 'stand-in',
      answer: async (request) => ({
        claims: [{ text: quote, citations: [{ path: 'concepts/cache.md', lines: [line, line], quote }] }],
        covered: false,
        found: ['cache'],
        missing: ['quarterly', 'fiscal'],
        missingElsewhere: ['quarterly'],
        read: [...request.pages.keys()],
        unread: [],
        missingAre: 'terms',
      }),
    };
    const session = await openAskSession(await openWorkspace({ cwd: wiki, wikiFlag: wiki }), { ...offlineProviders(), answerer });
    const trace = await askQuestion(session, 'Do cache keys rotate quarterly with the fiscal tenant?');
    expect(trace.outcome).toBe('gap');
    expect(trace.missing).toEqual(['quarterly', 'fiscal']);
    expect(listedAs(trace.answer, 'the wiki')).toEqual(['fiscal']);
    expect(listedAs(trace.answer, 'the best-matching pages')).toEqual(['quarterly']);
  });
});
