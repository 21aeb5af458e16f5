// One line per bank and the macro average over the development banks, each bank weighing the same:
// the figures a change to the ladder or the answerer is judged by, side by side with lunr's.
import type { QuestionResult, Ratio, Row } from './figures.js';

export interface BankSummary {
  bank: string;
  questions: number;
  pages: number;
  answered_cited: number | null;
  read: number | null;
  read_top5: number | null;
  cited: number | null;
  citation_precision: number | null;
  flagged: number | null;
  /** Questions whose verdict their own answer contradicts (a count: the target is 0). */
  contradictions: number;
  /** The gold-fact proxy over answered & cited answers (figures.ts goldFactShare). */
  gold_facts: number | null;
  paraphrase_read: number | null;
  recall: { at1: number | null; at5: number | null; at10: number | null };
  lunr_recall: { at1: number | null; at5: number | null; at10: number | null };
  median_pages_read: number | null;
  /** Shares of all questions by branch. */
  branch_mix: { cold: number; inline: number; explore: number };
  /** Share of the covered questions that take the inline branch (1–5 candidates). */
  covered_inline: number | null;
}

/** Questions per branch, and the share of the covered ones that go inline. */
export interface Branches {
  cold: number;
  inline: number;
  explore: number;
  coveredInline: number | null;
}

export function branchesOf(results: readonly QuestionResult[]): Branches {
  const count = (branch: string) => results.filter((r) => r.trace.branch === branch).length;
  const covered = results.filter((r) => !r.q.uncovered);
  return {
    cold: count('cold'),
    inline: count('inline'),
    explore: count('explore'),
    coveredInline: covered.length === 0 ? null : covered.filter((r) => r.trace.branch === 'inline').length / covered.length,
  };
}

const rateOf = (r: Ratio | undefined): number | null => r?.rate ?? null;

export function summaryOf(bank: string, pages: number, rows: readonly Row[], branches: Branches): BankSummary {
  const overall = rows[0]!;
  const paraphrase = rows.slice(3).find((r) => r.scope === 'paraphrase');
  const total = Math.max(1, branches.cold + branches.inline + branches.explore);
  return {
    bank,
    questions: overall.questions,
    pages,
    answered_cited: rateOf(overall.answered_cited),
    read: rateOf(overall.expected_read),
    read_top5: rateOf(overall.expected_read_top5),
    cited: rateOf(overall.expected_cited),
    citation_precision: rateOf(overall.citation_precision),
    flagged: rateOf(overall.flagged),
    contradictions: overall.contradictions.n,
    gold_facts: rateOf(overall.gold_facts),
    paraphrase_read: rateOf(paraphrase?.expected_read),
    recall: { at1: overall.recall.at1.rate, at5: overall.recall.at5.rate, at10: overall.recall.at10.rate },
    lunr_recall: { at1: overall.lunr_recall.at1.rate, at5: overall.lunr_recall.at5.rate, at10: overall.lunr_recall.at10.rate },
    median_pages_read: overall.median_pages_read,
    branch_mix: { cold: branches.cold / total, inline: branches.inline / total, explore: branches.explore / total },
    covered_inline: branches.coveredInline,
  };
}

/** The mean of the figures that every bank has (a bank without a figure, e.g. no paraphrases, is left out of that mean). */
function mean(values: ReadonlyArray<number | null>): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : known.reduce((s, v) => s + v, 0) / known.length;
}

export function macroOf(banks: readonly BankSummary[]): BankSummary {
  const of = (pick: (b: BankSummary) => number | null) => mean(banks.map(pick));
  return {
    bank: `macro (${banks.length} banks)`,
    questions: banks.reduce((s, b) => s + b.questions, 0),
    pages: banks.reduce((s, b) => s + b.pages, 0),
    answered_cited: of((b) => b.answered_cited),
    read: of((b) => b.read),
    read_top5: of((b) => b.read_top5),
    cited: of((b) => b.cited),
    citation_precision: of((b) => b.citation_precision),
    flagged: of((b) => b.flagged),
    contradictions: banks.reduce((s, b) => s + b.contradictions, 0),
    gold_facts: of((b) => b.gold_facts),
    paraphrase_read: of((b) => b.paraphrase_read),
    recall: { at1: of((b) => b.recall.at1), at5: of((b) => b.recall.at5), at10: of((b) => b.recall.at10) },
    lunr_recall: { at1: of((b) => b.lunr_recall.at1), at5: of((b) => b.lunr_recall.at5), at10: of((b) => b.lunr_recall.at10) },
    median_pages_read: of((b) => b.median_pages_read),
    branch_mix: {
      cold: of((b) => b.branch_mix.cold) ?? 0,
      inline: of((b) => b.branch_mix.inline) ?? 0,
      explore: of((b) => b.branch_mix.explore) ?? 0,
    },
    covered_inline: of((b) => b.covered_inline),
  };
}
