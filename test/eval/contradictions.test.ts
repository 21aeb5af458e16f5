// The eval's contradictions figure: a verdict its own answer contradicts.
import { describe, expect, it } from 'vitest';
import { contradictionOf, notInTheWiki } from '../../eval/contradictions.js';
import type { Trace } from '../../src/answer/trace.js';

const trace = (over: Partial<Trace>): Trace =>
  ({
    outcome: 'answered',
    answer: '',
    read: ['a.md', 'b.md'],
    missing: [],
    citations: [],
    signal_terms: [
      { term: 'retry', kind: 'word' },
      { term: 'budget', kind: 'word' },
      { term: 'the', kind: 'word', gate: false },
    ],
    ...over,
  }) as Trace;
const pages = new Map([
  ['a.md', 'The retry budget is three attempts.'],
  ['b.md', 'Backoff doubles each time.'],
]);
const cite = (quote: string) => ({ path: 'a.md', lines: [1, 1] as [number, number], quote });

describe('contradictionOf', () => {
  it('an answer quoting the question’s terms, and a gap naming only what no page read holds, are consistent', () => {
    expect(contradictionOf(trace({ citations: [cite('The retry budget is three attempts.')] }), pages)).toBeUndefined();
    const gap = trace({ outcome: 'gap', missing: ['jitter'], answer: 'x\n\n**Not in the wiki:** `jitter`.' });
    expect(contradictionOf(gap, pages)).toBeUndefined();
  });

  it('finds a gap with nothing missing, a gap naming a term a page read holds, and an answer over unrelated quotes', () => {
    expect(contradictionOf(trace({ outcome: 'gap' }), pages)).toBe('gap with nothing missing');
    const gap = trace({ outcome: 'gap', missing: ['backoff', 'jitter'], answer: '**Not in the wiki:** `backoff`, `jitter`.' });
    expect(contradictionOf(gap, pages)).toMatch(/backoff is not in the wiki, yet a page read holds it/);
    // "the" is too common to count: quoting it is not quoting the question.
    expect(contradictionOf(trace({ citations: [cite('Backoff doubles the wait each time.')] }), pages)).toMatch(/none of the question’s terms/);
    const named = trace({ missing: ['Method G'], citations: [cite('The retry budget is three attempts.')] });
    named.signal_terms.push({ term: 'Method G', kind: 'proper-noun' });
    expect(contradictionOf(named, pages)).toBe('answered while Method G is not found');
    // …unless the quoted page's title names the subject: it heads every sentence of the page.
    expect(contradictionOf(trace({ citations: [cite('Backoff doubles the wait each time.')] }), pages, new Map([['a.md', 'Retry budget']]))).toBeUndefined();
  });

  it('reads the "Not in the wiki" line by the trace’s terms, a term with a comma in it whole', () => {
    const answer = '- quote\n\n**Not in the wiki:** `a`, `["x", "y"]`.\n**Not in the best-matching pages:** `d`.';
    expect(notInTheWiki(answer, ['a', '["x", "y"]', 'd'])).toEqual(['a', '["x", "y"]']);
    expect(notInTheWiki('From the wiki:', ['a'])).toEqual([]);
    // A term inside another listed term is not listed by it.
    expect(notInTheWiki('**Not in the wiki:** `new-contract`.', ['new-contract', 'contract'])).toEqual(['new-contract']);
  });
});
