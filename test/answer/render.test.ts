// The answer as text: quotes, then where to read more, then exactly what the trace says is missing.
import { describe, expect, it } from 'vitest';
import type { Claim } from '../../src/answer/answerer.js';
import { type RenderInput, renderAnswer, traceSummary } from '../../src/answer/render.js';
import type { Trace } from '../../src/answer/trace.js';

const claim = (path: string, line: number, quote: string, heading: string, headingLine: number): Claim => ({
  text: quote,
  citations: [{ path, lines: [line, line], quote }],
  section: { path, heading, line: headingLine },
});
const claims = [
  claim('how-to/keys.md', 18, 'Create the new key first.', 'Rotating keys', 16),
  claim('how-to/keys.md', 19, 'Then revoke the old one.', 'Rotating keys', 16),
  claim('concepts/keys.md', 7, 'Keys sign every request.', 'Keys', 5),
];
const input = (over: Partial<RenderInput>): RenderInput => ({ outcome: 'answered', branch: 'inline', claims, missing: [], terms: ['rotate', 'keys'], ...over });

describe('renderAnswer', () => {
  it('lists the quotes, then the sections they came from through the caller’s citation renderer', () => {
    const link = (c: { path: string; lines: [number, number] }) => `[${c.path}#L${c.lines[0]}](https://example.test/${c.path}#L${c.lines[0]})`;
    expect(renderAnswer(input({}), link)).toBe(
      [
        'From the wiki:',
        '',
        '- “Create the new key first.” — [how-to/keys.md#L18](https://example.test/how-to/keys.md#L18)',
        '- “Then revoke the old one.” — [how-to/keys.md#L19](https://example.test/how-to/keys.md#L19)',
        '- “Keys sign every request.” — [concepts/keys.md#L7](https://example.test/concepts/keys.md#L7)',
        '',
        '**Read more:** Rotating keys ([how-to/keys.md#L16](https://example.test/how-to/keys.md#L16)); Keys ([concepts/keys.md#L5](https://example.test/concepts/keys.md#L5)).',
      ].join('\n'),
    );
  });

  it('names a section in "Read more" as inert text, whatever its page calls it (a frontmatter title is not read as markdown)', () => {
    const hostile = '<img src=https://evil.example/t.png> [x](javascript:alert(1)) </details> !![p](https://evil.example/p)';
    const answer = renderAnswer(input({ claims: [claim('how-to/keys.md', 18, 'Create the new key first.', hostile, 1)] }));
    const readMore = answer.split('\n').find((l) => l.startsWith('**Read more:**'))!;
    expect(readMore).not.toMatch(/<img|<\/details>|!\[|\]\(javascript/);
    expect(readMore).toMatch(/^\*\*Read more:\*\* \S.* \(`how-to\/keys\.md` line 1\)\.$/);
  });

  it('says what is missing exactly as given, and nothing when nothing is', () => {
    expect(renderAnswer(input({}))).not.toContain('Not in');
    expect(renderAnswer(input({ outcome: 'gap', missing: ['--max-citations', 'rotate'] }))).toMatch(/\*\*Not in the wiki:\*\* `--max-citations`, `rotate`\.$/);
    // Answered with an ordinary word the coverage rule tolerates: absent from the pages quoted, not from the wiki.
    expect(renderAnswer(input({ missing: ['long'] }))).toMatch(/\*\*Not in the best-matching pages:\*\* `long`\.$/);
    // A gap's term that another page read holds is not "not in the wiki": it is not in the best-matching pages.
    const gap = renderAnswer(input({ outcome: 'gap', missing: ['--max-citations', 'quarterly'], missingElsewhere: ['quarterly'] }));
    expect(gap).toMatch(/\*\*Not in the wiki:\*\* `--max-citations`\.\n\*\*Not in the best-matching pages:\*\* `quarterly`\.$/);
    expect(renderAnswer(input({ outcome: 'gap', missing: ['quarterly'], missingElsewhere: ['quarterly'] }))).not.toContain('Not in the wiki');
  });

  it('says so when matching pages answer nothing', () => {
    expect(renderAnswer(input({ outcome: 'gap', claims: [], missing: ['quote'] }))).toBe(
      'The wiki has pages that match this question, but none of them answers it.\n\n**Not in the wiki:** `quote`.',
    );
  });

  it('never shows raw wikilinks or link targets, even in a claim written elsewhere', () => {
    const raw: Claim = {
      text: 'See [[runbooks/deploy|the deploy runbook]] and [approvals](approvals.md).',
      citations: [{ path: 'a.md', lines: [1, 1], quote: 'x' }],
    };
    const answer = renderAnswer(input({ claims: [raw] }));
    expect(answer).toContain("- See the deploy runbook and approvals. (the answerer's words)");
    expect(answer).not.toMatch(/\[\[|\]\(/);
  });
});

describe('traceSummary coverage line', () => {
  const trace = (coverage: Trace['coverage']) =>
    ({
      ...(JSON.parse('{}') as Trace),
      branch: 'inline',
      outcome: 'answered',
      answerer: 'offline',
      oriented: [],
      signal_terms: [],
      dropped_terms: [],
      candidates: [],
      read: [],
      unread: [],
      citations: [],
      missing: coverage.missing,
      violations: [],
      web_searches: [],
      provider_calls: [],
      tokens: { input: 0, output: 0 },
      notes: [],
      coverage,
      timings_ms: { load: 0, ladder: 0, answer: 0 },
    }) as Trace;
  const line = (coverage: Trace['coverage']) => traceSummary(trace(coverage)).find((l) => l.startsWith('- Coverage'));
  it('agrees with the answer about what is missing', () => {
    expect(line({ covered: true, found: ['cached'], missing: [] })).toBe('- Coverage: covered, nothing missing');
    expect(line({ covered: true, found: ['cached'], missing: ['long'] })).toBe(
      '- Coverage: covered; not in the best-matching pages (within tolerance): `long`',
    );
    expect(line({ covered: false, found: [], missing: ['rotate'] })).toBe('- Coverage: not covered; missing `rotate`');
  });
});
