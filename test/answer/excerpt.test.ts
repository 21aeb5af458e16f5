import { describe, expect, it } from 'vitest';
import { enforceCiteContract } from '../../src/answer/cite-contract.js';
import { pageExcerpt } from '../../src/answer/model/excerpt.js';
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
    const { lines, whole } = pageExcerpt(page, terms);
    expect(whole).toBe(false);
    const sent = lines.flatMap((l) => ('line' in l ? [l] : []));
    const text = page.split('\n');
    for (const l of sent) expect(l.text).toBe(text[l.line - 1]);
    expect(sent.map((l) => l.text)).toEqual(expect.arrayContaining(['# Retries', 'Retries are how a client recovers from a fault.', '## Backoff']));
    expect(sent.some((l) => l.line <= 3)).toBe(false);
    expect(lines.some((l) => 'skipped' in l)).toBe(true);
  });

  it('the cite contract checks a quote from a part not sent against the page itself', () => {
    const sent = new Set(pageExcerpt(page, terms).lines.flatMap((l) => ('line' in l ? [l.line] : [])));
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
