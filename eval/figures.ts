// The figures of an eval run, per question type and overall, and the targets they are held to.
// Definitions follow /work/shared/eval-dev/score.mjs: covered figures (expected page candidate /
// read / cited, all expected read, answered) over the covered questions of a row, flagged over its
// uncovered ones, medians of distinct pages read and cited over all questions of the row. On
// eval-dev the shared figures were checked equal to score.mjs's on the same results file:
//   npm run eval -- --bank ../shared/eval-dev/eng-standards/questions.jsonl \
//     --wiki ../shared/eval-dev/eng-standards/wiki --results /tmp/evaldev.jsonl --json
//   node /work/shared/eval-dev/score.mjs /work/shared/eval-dev/eng-standards/questions.jsonl /tmp/evaldev.jsonl --json
// (exp. read, exp. cited, answered, flagged, med read, med cited, exp. candidate, all exp. read:
// equal on every row). Pages are counted by path; eval-dev has no two pages with one file stem, so
// path and slug counts agree.
import { type Trace, isWikiCitation } from '../src/answer/trace.js';
import { builtinStopwords } from '../src/ladder/signal-terms.js';
import { foldWord, lowerWords } from '../src/ladder/text-match.js';
import { type BankQuestion, firstExpectedRank, isExpected, normalisePath } from './bank.js';

export interface QuestionResult {
  q: BankQuestion;
  trace: Trace;
  /** lunr's ranking for the question, best first. */
  baseline: string[];
  ms: number;
  /** Why the verdict contradicts its own answer (./contradictions.ts), if it does. */
  contradiction?: string;
}

export interface Ratio {
  n: number;
  of: number;
  rate: number | null;
}

export interface Recall {
  at1: Ratio;
  at5: Ratio;
  at10: Ratio;
}

export interface Row {
  scope: string;
  questions: number;
  expected_candidate: Ratio;
  expected_read: Ratio;
  expected_read_top5: Ratio;
  all_expected_read: Ratio;
  expected_cited: Ratio;
  citation_precision: Ratio;
  answered: Ratio;
  /** Covered questions answered with an expected page among the citations: what the asker feels. */
  answered_cited: Ratio;
  flagged: Ratio;
  /** Questions (covered or not) whose verdict its own answer contradicts. */
  contradictions: Ratio;
  /** Of the answered & cited answers, the mean share of the bank's gold facts their quotes state (goldFactShare). */
  gold_facts: Ratio;
  median_pages_read: number | null;
  median_pages_cited: number | null;
  recall: Recall;
  lunr_recall: Recall;
}

export const citedPages = (t: Trace): string[] => [...new Set(t.citations.filter(isWikiCitation).map((c) => normalisePath(c.path)))];
export const readPages = (t: Trace): string[] => [...new Set(t.read.map(normalisePath))];
export const candidatePaths = (t: Trace): string[] => t.candidates.map((c) => c.path);
export const isFlagged = (t: Trace): boolean => t.outcome === 'gap' || t.outcome === 'cold';

/** Content words of a text: folded, stopwords and bare numbers left out. */
function contentWords(text: string): Set<string> {
  const stopwords = builtinStopwords();
  return new Set(
    lowerWords(text)
      .filter((w) => !stopwords.has(w) && !/^\d+$/.test(w))
      .map(foldWord),
  );
}

/**
 * The gold-fact proxy: the share of a question's gold facts (written with the bank, never shown to
 * the steward) that its quotes state, a fact counting as stated when half its content words are in
 * the quotes. A lexical proxy for "would the asker learn what they asked", read beside the rates.
 */
export function goldFactShare(r: QuestionResult): number | null {
  const facts = Array.isArray(r.q.raw.gold_facts) ? r.q.raw.gold_facts.filter((f): f is string => typeof f === 'string') : [];
  if (facts.length === 0) return null;
  const quoted = contentWords(r.trace.citations.flatMap((c) => (isWikiCitation(c) ? [c.quote] : [])).join(' '));
  const stated = facts.filter((fact) => {
    const words = [...contentWords(fact)];
    return words.length > 0 && words.filter((w) => quoted.has(w)).length * 2 >= words.length;
  });
  return stated.length / facts.length;
}

function goldFacts(rs: readonly QuestionResult[]): Ratio {
  const shares = rs.map(goldFactShare).filter((x): x is number => x !== null);
  return ratio(
    shares.reduce((s, x) => s + x, 0),
    shares.length,
  );
}

const ratio = (n: number, of: number): Ratio => ({ n, of, rate: of === 0 ? null : n / of });
const share = (rs: readonly QuestionResult[], test: (r: QuestionResult) => boolean): Ratio => ratio(rs.filter(test).length, rs.length);

function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function recallOf(covered: readonly QuestionResult[], ranking: (r: QuestionResult) => readonly string[]): Recall {
  const ranks = covered.map((r) => firstExpectedRank(r.q, ranking(r)));
  const at = (k: number) => ratio(ranks.filter((p) => p !== undefined && p < k).length, ranks.length);
  return { at1: at(1), at5: at(5), at10: at(10) };
}

export function rowOf(scope: string, rs: readonly QuestionResult[]): Row {
  const covered = rs.filter((r) => !r.q.uncovered);
  const uncovered = rs.filter((r) => r.q.uncovered);
  const answeredCovered = covered.filter((r) => r.trace.outcome === 'answered');
  const cited = answeredCovered.flatMap((r) => citedPages(r.trace).map((p) => isExpected(r.q, p)));
  return {
    scope,
    questions: rs.length,
    expected_candidate: share(covered, (r) => candidatePaths(r.trace).some((p) => isExpected(r.q, p))),
    expected_read: share(covered, (r) => readPages(r.trace).some((p) => isExpected(r.q, p))),
    expected_read_top5: share(covered, (r) => r.trace.read.slice(0, 5).some((p) => isExpected(r.q, p))),
    all_expected_read: share(
      covered,
      (r) => r.q.expected.length > 0 && r.q.expected.every((e) => readPages(r.trace).some((p) => isExpected({ ...r.q, expected: [e] }, p))),
    ),
    expected_cited: share(covered, (r) => citedPages(r.trace).some((p) => isExpected(r.q, p))),
    citation_precision: ratio(cited.filter(Boolean).length, cited.length),
    answered: ratio(answeredCovered.length, covered.length),
    answered_cited: share(covered, (r) => r.trace.outcome === 'answered' && citedPages(r.trace).some((p) => isExpected(r.q, p))),
    flagged: share(uncovered, (r) => isFlagged(r.trace)),
    contradictions: share(rs, (r) => r.contradiction !== undefined),
    gold_facts: goldFacts(covered.filter((r) => r.trace.outcome === 'answered' && citedPages(r.trace).some((p) => isExpected(r.q, p)))),
    median_pages_read: median(rs.map((r) => readPages(r.trace).length)),
    median_pages_cited: median(rs.map((r) => citedPages(r.trace).length)),
    recall: recallOf(covered, (r) => candidatePaths(r.trace)),
    lunr_recall: recallOf(covered, (r) => r.baseline),
  };
}

// eval-dev's types in score.mjs's order; any other bank's types in order of appearance.
const SCORE_ORDER = ['lexical', 'paraphrase', 'symptom', 'multi-page', 'fabrication', 'out-of-coverage'];

export function typesOf(rs: readonly QuestionResult[]): string[] {
  const seen = [...new Set(rs.map((r) => r.q.type))];
  return seen.every((t) => SCORE_ORDER.includes(t)) ? SCORE_ORDER.filter((t) => seen.includes(t)) : seen;
}

/** overall, covered, uncovered, then one row per type. */
export function rowsOf(rs: readonly QuestionResult[]): Row[] {
  return [
    rowOf('overall', rs),
    rowOf(
      'covered',
      rs.filter((r) => !r.q.uncovered),
    ),
    rowOf(
      'uncovered',
      rs.filter((r) => r.q.uncovered),
    ),
    ...typesOf(rs).map((t) =>
      rowOf(
        t,
        rs.filter((r) => r.q.type === t),
      ),
    ),
  ];
}

export interface Target {
  figure: string;
  target: string;
  measured: number | null;
  /** The measured value as printed. */
  shown: string;
  met: boolean;
}

export function targetsOf(rows: readonly Row[]): Target[] {
  const overall = rows[0]!;
  const paraphrase = rows.slice(3).find((r) => r.scope === 'paraphrase');
  const at = (figure: string, measured: number | null, op: '≥' | '≤', bound: number, count = false): Target => ({
    figure,
    target: `${op} ${count ? bound : bound.toFixed(2)}`,
    measured,
    shown: measured === null ? '-' : count ? String(measured) : measured.toFixed(2),
    met: measured !== null && (op === '≥' ? measured >= bound : measured <= bound),
  });
  const ours = overall.recall.at1.rate;
  const lunrs = overall.lunr_recall.at1.rate;
  return [
    at('expected page read', overall.expected_read.rate, '≥', 0.95),
    at('expected page among the first 5 read', overall.expected_read_top5.rate, '≥', 0.9),
    at('expected page cited', overall.expected_cited.rate, '≥', 0.85),
    at('citation precision', overall.citation_precision.rate, '≥', 0.6),
    at('covered answered', overall.answered.rate, '≥', 0.85),
    at('uncovered flagged', overall.flagged.rate, '≥', 0.85),
    ...(paraphrase ? [at('paraphrase: expected page read', paraphrase.expected_read.rate, '≥', 0.8)] : []),
    at('median pages read', overall.median_pages_read, '≤', 10, true),
    {
      figure: 'recall@1 (ours vs lunr)',
      target: `≥ ${lunrs === null ? '-' : (lunrs + 0.1).toFixed(3)} (lunr + 0.10) or ≥ 0.95`,
      measured: ours,
      shown: ours === null ? '-' : ours.toFixed(3), // 3 places: the two often agree to 2
      met: ours !== null && lunrs !== null && (ours >= lunrs + 0.1 - 1e-9 || ours >= 0.95),
    },
  ];
}
