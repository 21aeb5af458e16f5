import { describe, expect, it } from 'vitest';
import { enforceCiteContract } from '../../src/answer/cite-contract.js';
import { EXCERPT_CHARS, HEAD_PAGES, TAIL_LINE_CHARS, cutLine, excerptCap, excerptTerms, pageExcerpt, rankedExcerpt } from '../../src/answer/model/excerpt.js';
import { pageBlock } from '../../src/answer/model/model-answerer.js';
import { termPattern } from '../../src/ladder/text-match.js';

const filler = Array.from({ length: 60 }, (_, i) => `Filler paragraph ${i} about unrelated matters of the deployment schedule.\n`);
const page = [
  '---',
  'title: Retries',
  '---',
  '# Retries',
  '',
  'Retries are how a client recovers from a fault.',
  '',
  ...filler,
  '## Backoff',
  '',
  'Jittered backoff doubles the wait each attempt.',
  '',
].join('\n');
const terms = [{ pattern: termPattern('backoff'), strict: false, weight: 1 }];

describe('page excerpts', () => {
  it('sends the lead and the matched part at their own line numbers, marks what is left out, never the frontmatter', () => {
    const { lines, whole } = pageExcerpt(page, terms, excerptCap(HEAD_PAGES - 1));
    expect(whole).toBe(false);
    const sent = lines.flatMap((l) => ('line' in l ? [l] : []));
    const text = page.split('\n');
    for (const l of sent) expect(l.text).toBe(text[l.line - 1]);
    expect(sent.map((l) => l.text)).toEqual(expect.arrayContaining(['# Retries', 'Retries are how a client recovers from a fault.', '## Backoff']));
    expect(sent.some((l) => l.line <= 3)).toBe(false);
    expect(lines.some((l) => 'skipped' in l)).toBe(true);
  });

  it('the cite contract checks a quote from a part not sent against the page itself', () => {
    const sent = new Set(pageExcerpt(page, terms, excerptCap(HEAD_PAGES - 1)).lines.flatMap((l) => ('line' in l ? [l.line] : [])));
    const elided = page.split('\n').findIndex((t, i) => t.startsWith('Filler paragraph 30') && !sent.has(i + 1)) + 1;
    expect(elided).toBeGreaterThan(0);
    const pagesRead = new Map([['retries.md', page]]);
    const quote = 'Filler paragraph 30 about unrelated matters of the deployment schedule.';
    const kept = enforceCiteContract([{ text: 'x', citations: [{ path: 'retries.md', lines: [elided, elided], quote }] }], {
      pagesRead,
      searchUrls: new Set(),
    });
    expect(kept.violations).toEqual([]);
    const made = enforceCiteContract(
      [{ text: 'x', citations: [{ path: 'retries.md', lines: [elided, elided], quote: 'Filler paragraph 30 says retries never stop.' }] }],
      {
        pagesRead,
        searchUrls: new Set(),
      },
    );
    expect(made.claims).toEqual([]);
  });

  it('a page whose body is little more than its excerpt is sent whole, minus the frontmatter', () => {
    const small = '---\ntitle: T\n---\n# T\n\nBackoff waits.\n\nOther text here.\n';
    const { lines, whole } = pageExcerpt(small, terms);
    expect(whole).toBe(true);
    expect(lines[0]).toEqual({ line: 4, text: '# T' });
  });
});

describe('excerpts by rank', () => {
  const long = `Backoff ${'waits longer after each failed attempt and '.repeat(8)}then gives up.`;
  const linked = [
    '# Retries',
    '',
    'See [[Retry Policy|the retry policy]] for **how long** a client waits.',
    '',
    '```sh',
    '# retries **stay** as written',
    '```',
    '',
  ];
  const ranked = ['---', 'title: Retries', '---', ...linked, ...filler, '## Limits', '', long, ''].join('\n');
  const cite = (page: string, line: number, quote: string) =>
    enforceCiteContract([{ text: 'x', citations: [{ path: 'r.md', lines: [line, line], quote }] }], {
      pagesRead: new Map([['r.md', page]]),
      searchUrls: new Set(),
    });

  it('gives the best-ranked pages the largest caps, falling with rank to a floor', () => {
    const caps = Array.from({ length: HEAD_PAGES }, (_, rank) => excerptCap(rank));
    expect(caps[0]).toBe(EXCERPT_CHARS);
    for (let r = 1; r < caps.length; r++) expect(caps[r]).toBeLessThanOrEqual(caps[r - 1]!);
    expect(caps.at(-1)).toBeGreaterThan(0);
  });

  it('sends lines as a reader sees them, code as written, and a quote copied from them verifies at the real line', () => {
    const { lines } = rankedExcerpt(ranked, terms, 0);
    const sent = new Map(lines.flatMap((l) => ('line' in l ? [[l.line, l.text] as const] : [])));
    expect(sent.get(6)).toBe('See the retry policy for how long a client waits.');
    expect(sent.get(9)).toBe('# retries **stay** as written');
    expect([...sent.values()]).not.toContain('');
    expect(cite(ranked, 6, sent.get(6)!).violations).toEqual([]);
  });

  it('sends a page ranked past the head as its best line, cut at a word and said to be cut; a quote from it verifies', () => {
    const { lines } = rankedExcerpt(ranked, terms, HEAD_PAGES);
    expect(lines).toHaveLength(1);
    const [line] = lines as Array<{ line: number; text: string; cut?: true }>;
    const real = ranked.split('\n').indexOf(long) + 1;
    expect(line).toMatchObject({ line: real, cut: true });
    expect(line!.text.length).toBeLessThanOrEqual(TAIL_LINE_CHARS);
    expect(long.startsWith(line!.text) && long[line!.text.length]).toBe(' ');
    const block = pageBlock('r.md', lines);
    expect(block).toContain(`${real}| ${line!.text} …\n`);
    // The model copies the line as sent, its cut mark included: the contract reads it as an elision.
    expect(cite(ranked, real, `${line!.text} …`).violations).toEqual([]);
  });

  it("weighs a term by how rare it is among the page's parts: the part holding the one term few parts hold beats parts holding two they all share", () => {
    const shared = ['deployment', 'schedule', 'backoff'].map((t) => ({ pattern: termPattern(t), strict: false, weight: 1 }));
    const { lines } = pageExcerpt(page, shared, excerptCap(5));
    const sent = lines.flatMap((l) => ('line' in l ? [l.text] : []));
    expect(sent).toContain('Jittered backoff doubles the wait each attempt.');
    // Every filler holds both shared terms, more than the backoff part's one: counted alike, they would fill the cap.
    expect(sent.filter((t) => t.startsWith('Filler')).length).toBeLessThan(filler.length);
  });

  it('weighs a term by how rare it is among the candidate pages: a tail page goes as the line holding its distinctive word', () => {
    const tail = ['---', 'title: T', '---', '# T', '', 'Retries and timeouts are everywhere.', '', 'Backoff is jittered here.', ''].join('\n');
    const others = ['Retries and timeouts.', 'Timeouts and retries.', 'Retries, timeouts.'];
    const question = ['retries', 'timeouts', 'backoff'].map((term) => ({ term, kind: 'word' as const }));
    const [retries, , backoff] = excerptTerms(question, [tail, ...others]);
    expect(backoff!.weight).toBeGreaterThan(retries!.weight);
    expect(rankedExcerpt(tail, excerptTerms(question, [tail, ...others]), HEAD_PAGES).lines).toEqual([{ line: 8, text: 'Backoff is jittered here.' }]);
    // Without the candidates to compare against, every term weighs the same and the line holding two wins.
    expect(rankedExcerpt(tail, excerptTerms(question), HEAD_PAGES).lines).toEqual([{ line: 6, text: 'Retries and timeouts are everywhere.' }]);
  });

  it('marks lines left out with one short marker', () => {
    expect(pageBlock('r.md', [{ line: 4, text: '# T' }, { skipped: [5, 9] }, { line: 10, text: 'x' }])).toBe('<page path="r.md">\n4| # T\n…\n10| x\n</page>');
  });

  it('cuts a line with no space before the limit at the limit', () => {
    expect(cutLine(3, 'x'.repeat(50), 10)).toEqual({ line: 3, text: 'x'.repeat(10), cut: true });
    expect(cutLine(3, 'short', 10)).toEqual({ line: 3, text: 'short' });
  });
});
