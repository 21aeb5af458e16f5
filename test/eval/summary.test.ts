// The eval's closing table: one line per bank and the macro average, each bank weighing the same.
import { describe, expect, it } from 'vitest';
import { type BankSummary, macroOf } from '../../eval/summary.js';

const bank = (name: string, questions: number, answeredCited: number, paraphraseRead: number | null, mix: [number, number, number]): BankSummary => ({
  bank: name,
  questions,
  pages: 100,
  answered_cited: answeredCited,
  read: 0.9,
  read_top5: 0.8,
  cited: 0.7,
  citation_precision: 0.6,
  flagged: 0.5,
  gold_facts: 0.5,
  contradictions: 2,
  paraphrase_read: paraphraseRead,
  recall: { at1: 0.4, at5: 0.6, at10: 0.8 },
  lunr_recall: { at1: 0.3, at5: 0.5, at10: 0.7 },
  median_pages_read: 10,
  branch_mix: { cold: mix[0], inline: mix[1], explore: mix[2] },
  covered_inline: mix[1],
});

describe('macroOf', () => {
  it('weighs each bank the same, whatever its size', () => {
    const macro = macroOf([bank('small', 10, 0.9, 0.5, [0, 0.5, 0.5]), bank('large', 1000, 0.3, 0.7, [0, 0, 1])]);
    expect(macro.answered_cited).toBeCloseTo(0.6);
    expect(macro.paraphrase_read).toBeCloseTo(0.6);
    expect(macro.branch_mix).toEqual({ cold: 0, inline: 0.25, explore: 0.75 });
    expect(macro.covered_inline).toBeCloseTo(0.25);
    expect(macro.questions).toBe(1010);
    expect(macro.bank).toBe('macro (2 banks)');
    // A count, summed: the target is none on any bank.
    expect(macro.contradictions).toBe(4);
  });

  it('leaves a bank without a figure out of that figure only', () => {
    const macro = macroOf([bank('a', 10, 0.8, null, [0, 0, 1]), bank('b', 10, 0.4, 0.6, [0, 0, 1])]);
    expect(macro.paraphrase_read).toBeCloseTo(0.6);
    expect(macro.answered_cited).toBeCloseTo(0.6);
  });
});
