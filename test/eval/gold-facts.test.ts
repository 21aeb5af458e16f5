// The gold-fact proxy: how much of what the bank's author says answers a question an answer quotes.
import { describe, expect, it } from 'vitest';
import { type QuestionResult, goldFactShare } from '../../eval/figures.js';

const result = (facts: unknown, quotes: string[]): QuestionResult =>
  ({
    q: { id: 'q', question: 'q?', type: 'lexical', expected: ['p'], uncovered: false, raw: { gold_facts: facts } },
    trace: { citations: quotes.map((quote, i) => ({ path: `p${i}.md`, lines: [1, 1], quote })) },
    baseline: [],
    ms: 0,
  }) as unknown as QuestionResult;

describe('the gold-fact proxy', () => {
  const facts = ['Specific difficult goals outperform vague goals.', 'Goals work through direction, effort, persistence and strategy.'];

  it('counts a fact stated when half its content words are quoted, folded as matching folds them', () => {
    expect(goldFactShare(result(facts, ['Specific, difficult goals outperformed "do your best" goals in most studies.']))).toBe(0.5);
    expect(goldFactShare(result(facts, ['Difficult goals outperform.', 'They act through effort and persistence.']))).toBe(1);
  });

  it('gives nothing for quotes that share only stopwords or numbers with the facts', () => {
    expect(goldFactShare(result(['There are 4 of them.'], ['There were 4 in all, and of them …']))).toBe(0);
  });

  it('has no share for a question without gold facts (our own bank)', () => {
    expect(goldFactShare(result(undefined, ['anything']))).toBeNull();
    expect(goldFactShare(result([], ['anything']))).toBeNull();
  });
});
