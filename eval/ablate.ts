// `npm run eval -- --ablate`: every knob of the ladder and the offline answerer (src/ladder/tuning.ts)
// turned off in turn, the development banks asked again each time, and the change in each figure
// written to eval/ABLATIONS.md with the verdict the project's rule gives it:
//   - a knob goes when turning it off costs the macro average less than 2 questions on every figure
//     (it does not help);
//   - a knob goes when keeping it costs any one bank more than 2 questions on a figure (it hurts
//     somewhere);
//   - otherwise it stays.
// Figures are counted in questions (precision as its share of the bank's covered questions, the
// gold-fact proxy as the sum of its shares), so a change of 2 means two askers.
import { type KnobInfo, allKnobs, withKnobs, withKnobsOff } from '../src/ladder/tuning.js';
import type { QuestionResult, Row } from './figures.js';
import { rowOf } from './figures.js';

/** The figures a knob is judged on, each read from a bank's overall row as a count of questions. */
export const ABLATION_FIGURES: ReadonlyArray<{ name: string; count: (row: Row, covered: number) => number }> = [
  { name: 'read', count: (r) => r.expected_read.n },
  { name: 'read@5', count: (r) => r.expected_read_top5.n },
  { name: 'cited', count: (r) => r.expected_cited.n },
  { name: 'ans+cited', count: (r) => r.answered_cited.n },
  { name: 'precision', count: (r, covered) => (r.citation_precision.rate ?? 0) * covered },
  { name: 'flagged', count: (r) => r.flagged.n },
  { name: 'gold', count: (r) => r.gold_facts.n },
  { name: 'R@1', count: (r) => r.recall.at1.n },
  { name: 'R@10', count: (r) => r.recall.at10.n },
];

/** What an asker sees of one answer: its outcome, its quotes and the pages they cite, and the first ten candidates. */
const answerSeen = (r: QuestionResult): string => JSON.stringify([r.trace.outcome, r.trace.citations, r.trace.candidates.slice(0, 10).map((c) => c.path)]);

/** A bank's figures, in ABLATION_FIGURES order. */
export function figuresOf(results: readonly QuestionResult[]): number[] {
  const overall = rowOf('overall', results);
  const covered = results.filter((r) => !r.q.uncovered).length;
  return ABLATION_FIGURES.map((f) => f.count(overall, covered));
}

/**
 * The module-level constants of the ladder and the answerer that are not knobs, and why: the parts
 * of a rule that a knob turns off whole, the definitions the rules are written in, and mechanics
 * (caches, threads, character classes) that leave every answer as it is. The ablation test fails on
 * a constant that is neither a knob nor listed here.
 */
export const NOT_KNOBS: Readonly<Record<string, string>> = {
  'ladder/catalog-cache.SETTLING_NS':
    "not a ranking choice: how long after its last change a file's size and times key it (the file systems' time-stamp granularity)",
  'ladder/catalog-cache.UNSETTLED_KEY': "not a ranking choice: the snapshot's key for a file to read again, one no file has",
  'ladder/catalog-cache.SNAPSHOT_SCHEMA': "not a ranking choice: the snapshot's layout version, bumped when the layout changes",
  'ladder/snapshot-file.MAX_SNAPSHOT_BYTES': 'not a ranking choice: the largest snapshot read, so a planted huge file is never read',
  'ladder/snapshot-file.MAGIC': "not a ranking choice: the snapshot file's first bytes, which say what it is",
  'ladder/snapshot-file.HEADER_AT': "not a ranking choice: where the snapshot's header starts, after the magic and its length",
  'ladder/snapshot-file.SHORT_FIELD_COUNT': "not a ranking choice: how many short fields each entry's kept counts hold (the ranking's own list)",
  'ladder/snapshot-file.READ_FLAGS': 'not a ranking choice: how a snapshot file is opened (no symbolic link followed, no FIFO waited on)',
  'ladder/snapshot-file.HEAD_ARRAYS': "not a ranking choice: the typed arrays of the snapshot's head (what a load over unchanged files reads) and their order",
  'ladder/snapshot-file.NEWLINE': "not a ranking choice: what ends each page's line in the snapshot",
  'ladder/snapshot-file.NO_BODY': 'not a ranking choice: the body counts kept for a page that could not be read (none)',
  'ladder/snapshot-file.REST_ARRAYS': "not a ranking choice: the typed arrays of the snapshot's rest (what a load that reads some pages reads) and their order",
  'ladder/relevance.NAMING_FIELDS': 'definition: the fields that name a page, for how common a word is as a name (the feedback rule that uses it is a knob)',
  'ladder/acronyms.DEFINITION': 'part of `ladder/ladder.ACRONYM_EXPANSION`: how a page spells out an acronym, "long form (ACR)"',
  'ladder/ladder.QUESTION_WORD': "part of `ladder/ladder.ACRONYM_EXPANSION`: a question's whole words, hyphenated words kept whole",
  'ladder/ladder.WRITTEN_AS_ACRONYM': 'part of `ladder/ladder.ACRONYM_EXPANSION`: a question word written as an acronym',
  'ladder/signal-terms.STRICT_KINDS': 'definition: the term kinds that name something specific (their weight and the coverage rule are knobs)',
  'ladder/signal-terms.QUESTION_WORDS': 'part of `ladder/signal-terms.QUESTION_WORDS` (the knob): the words themselves',
  'ladder/signal-terms.LIBRARY_STOPWORDS': "definition: the stopword libraries' lists",
  'ladder/signal-terms.WITH_QUESTION_WORDS': 'part of `ladder/signal-terms.QUESTION_WORDS`: the stopwords with the question words',
  'ladder/signal-terms.WITHOUT_QUESTION_WORDS': 'part of `ladder/signal-terms.QUESTION_WORDS`: the stopwords without them',
  'ladder/signal-terms.CONTRACTION': 'part of `ladder/signal-terms.CONTRACTIONS`: the endings of a contraction',
  'ladder/signal-terms.NUMBER_NAMERS': 'part of `ladder/signal-terms.NUMBER_NAMERS` (the knob): the naming words',
  'ladder/signal-terms.VERSION': 'part of `ladder/signal-terms.VERSIONS`: what a version number looks like',
  'ladder/signal-terms.IDENTIFIER': 'part of `ladder/signal-terms.IDENTIFIERS`: what an identifier looks like',
  'ladder/signal-terms.ACRONYM': 'part of `ladder/signal-terms.ACRONYMS`: an all-capital word',
  'ladder/signal-terms.CAPITALISED': 'part of `ladder/signal-terms.PROPER_NOUNS`: a capitalised word or a name with inner capitals',
  'ladder/signal-terms.SENTENCE_END': 'part of `ladder/signal-terms.PROPER_NOUNS`: where a sentence ends (a capital after it is grammar)',
  'ladder/signal-terms.ABBREVIATION': 'part of `ladder/signal-terms.ABBREVIATIONS`: a lowercase abbreviation written with dots',
  'ladder/signal-terms.DESIGNATION': 'part of `ladder/signal-terms.DESIGNATIONS`: what a designation looks like',
  'ladder/signal-terms.TRIM': "mechanics: the punctuation around a question's token",
  'ladder/signal-terms.HAN_OR_KANA': 'mechanics: Chinese and Japanese text, which has no spaces (no dev bank has any)',
  'ladder/signal-terms.HIRAGANA_RUN': 'mechanics: where Japanese text is cut into words (no dev bank has any)',
  'ladder/text-match.BRITISH_ENDINGS': 'part of `ladder/text-match.BRITISH_SPELLING`: the endings folded',
  'ladder/text-match.WORD': 'definition: a word is a run of letters and digits',
  'ladder/text-match.ASCII_WORD': 'mechanics: the words the English stemmer folds',
  'ladder/text-match.NO_SPACE_SCRIPT': 'mechanics: scripts written without spaces, matched anywhere in a field (no dev bank has any)',
  'ladder/text-match.ASCII_TEXT': 'mechanics: the fast path for ASCII text (the same words as the general path)',
  'ladder/text-match.ASCII_WORDS': 'mechanics: the fast path for ASCII text (the same words as the general path)',
  'ladder/text-match.STEMS': 'mechanics: a memo of folded words',
  'ladder/text-match.STEM_CACHE_LIMIT': 'mechanics: the size of that memo',
  'ladder/text-match.FOLDED': 'mechanics: a memo of folded short texts',
  'ladder/text-match.FOLDED_TEXT_LIMIT': 'mechanics: which texts that memo keeps',
  'ladder/word-ids.WORD_RUN': 'mechanics: the same words as `ladder/text-match.WORD`, counted without strings',
  'ladder/word-ids.WORD_CHAR': 'mechanics: the same words as `ladder/text-match.WORD`, counted without strings',
  'ladder/word-ids.ASCII_WORD_CHAR': 'mechanics: the same words as `ladder/text-match.WORD`, counted without strings',
  'ladder/relevance.LENGTH_NORMALISATION': "definition: stock BM25's b in every field (per-field values earned nothing)",
  'ladder/relevance.FIELDS': 'definition: the fields a page is scored on (their weights are a knob)',
  'ladder/relevance.SHORT_FIELDS': 'definition: the fields other than the body',
  'ladder/candidates.KEPT_MATCHES': 'mechanics: a memory bound on matches kept per question, far above any wiki measured',
  'ladder/catalog-pages.MIN_PAGES_PER_CHUNK': 'mechanics: when the catalog is read by worker threads (the catalog is the same)',
  'ladder/catalog-pages.MAX_CHUNKS': 'mechanics: how many worker threads read the catalog (the catalog is the same)',
  'ladder/catalog-pages.MAIN_THREAD_SHARE': "mechanics: the main thread's share of pages while workers read the rest",
  'ladder/catalog-pages.WORKERS_ENV': 'mechanics: the variable that forces worker threads on or off',
  'ladder/catalog-pages.WORKER_URL': "mechanics: the worker thread's module",
  'ladder/catalog.PAGE_TEXT_CACHE_CHARS': 'mechanics: how much page text a session keeps in memory',
  'answer/offline-answerer.PREPARED_PAGE_LIMIT': 'mechanics: how many prepared pages a session keeps',
};

/** The mean over the banks of one figure's gains. */
const macroGain = (gains: readonly (readonly number[])[], figure: number): number => gains.reduce((s, g) => s + g[figure]!, 0) / gains.length;

/** Questions' worth a knob must earn (on the macro) and may cost (on any bank). */
const MARGIN = 2;

export interface KnobAblation {
  knob: KnobInfo;
  /** Per bank, per figure: the value with the knob on minus the value with it off (positive: the knob helps). */
  gains: number[][];
  /** Per bank: questions whose outcome, quotes, citations or first ten candidates the knob changes. */
  changed: number[];
}

/** A knob that changes fewer answers than this on every bank is not measured by the banks: its verdict says so. */
const MEASURED = 2;

export interface Verdict {
  keep: boolean;
  why: string;
}

export function verdictOf(gains: readonly (readonly number[])[], banks: readonly string[], changed?: readonly number[]): Verdict {
  if (changed && changed.every((n) => n < MEASURED)) return { keep: true, why: `unmeasured: changes ${changed.reduce((s, n) => s + n, 0)} answers in all` };
  const macro = ABLATION_FIGURES.map((_, f) => macroGain(gains, f));
  const hurts = gains.flatMap((g, b) => g.flatMap((gain, f) => (gain < -MARGIN ? [`${banks[b]} ${ABLATION_FIGURES[f]!.name} ${fmt(gain)}`] : [])));
  if (hurts.length > 0) return { keep: false, why: `hurts: ${hurts.join(', ')}` };
  const earns = macro.flatMap((m, f) => (m >= MARGIN ? [`${ABLATION_FIGURES[f]!.name} ${fmt(m)}`] : []));
  if (earns.length === 0) return { keep: false, why: 'does not help (under 2 questions on every macro figure)' };
  return { keep: true, why: `earns ${earns.join(', ')}` };
}

const fmt = (x: number): string =>
  Math.abs(x) < 0.05 ? '0' : `${x > 0 ? '+' : ''}${Number.isInteger(Math.round(x * 10) / 10) ? Math.round(x) : x.toFixed(1)}`;
const shown = (v: unknown): string =>
  typeof v === 'number' ? (v === Number.POSITIVE_INFINITY ? '∞' : String(v)) : typeof v === 'object' ? JSON.stringify(v).replace(/"/g, '') : String(v);

/** Runs every knob off in turn (or those named), `askBanks` giving each bank's results. */
export async function ablate(
  banks: readonly string[],
  askBanks: () => Promise<QuestionResult[][]>,
  only: readonly string[] = [],
  progress: (line: string) => void = () => {},
): Promise<{ base: number[][]; rows: KnobAblation[] }> {
  const baseResults = await askBanks();
  const base = baseResults.map(figuresOf);
  const seen = baseResults.map((results) => results.map(answerSeen));
  progress(`base: ${base.map((b, i) => `${banks[i]} ${b.map((x) => x.toFixed(0)).join('/')}`).join('; ')}`);
  const rows: KnobAblation[] = [];
  for (const knob of allKnobs().filter((k) => only.length === 0 || only.includes(k.id))) {
    const offResults = await withKnobsOff([knob.id], askBanks);
    const off = offResults.map(figuresOf);
    const gains = base.map((b, i) => b.map((x, f) => x - off[i]![f]!));
    const changed = offResults.map((results, i) => results.filter((r, q) => answerSeen(r) !== seen[i]![q]).length);
    rows.push({ knob, gains, changed });
    progress(`${knob.id}: ${verdictOf(gains, banks, changed).why}`);
  }
  return { base, rows };
}

/** eval/ABLATIONS.md: one row per knob, the macro gain of each figure with each bank's beside it, and the verdict. */
export function ablationTable(banks: readonly string[], base: readonly (readonly number[])[], rows: readonly KnobAblation[], command: string): string {
  const head = ['knob', 'value → off', 'answers changed', ...ABLATION_FIGURES.map((f) => f.name), 'verdict'];
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const body = rows.map(({ knob, gains, changed }) => {
    const cells = ABLATION_FIGURES.map((_, f) => `${fmt(macroGain(gains, f))} (${gains.map((g) => fmt(g[f]!)).join(' / ')})`);
    const verdict = verdictOf(gains, banks, changed);
    return line([
      `\`${knob.id}\`: ${knob.means}`,
      `${shown(knob.value)} → ${shown(knob.off)}`,
      changed.join(' / '),
      ...cells,
      `${verdict.keep ? 'keep' : 'goes'}: ${verdict.why}`,
    ]);
  });
  return [
    '# Ablations',
    '',
    `Generated by \`${command}\`; do not edit by hand. Each row turns one knob of the ladder or the offline`,
    'answerer off (a rule disabled, a weight or bonus neutral, a threshold set to let everything through)',
    'and asks every development bank again. A cell is what the knob earns in questions: the figure with it',
    `on minus the figure with it off, as the macro mean and then per bank (${banks.join(' / ')}); precision`,
    "is counted as its share of a bank's covered questions, and gold (the share of the bank's gold facts an answered",
    '& cited answer quotes, eval/figures.ts) as the sum of its shares. A knob stays when it earns the macro 2',
    'questions on some figure and costs no bank more than 2 on any. "Answers changed" counts the questions',
    'whose outcome, quotes, citations or first ten candidates differ with the knob off; a knob that changes fewer',
    'than 2 on every bank is not measured by these banks (a case none of their questions has, such as',
    'versions or Japanese text): it stays, held by its unit tests, and its verdict says "unmeasured".',
    '',
    `Figures with every knob on: ${banks.map((b, i) => `${b} ${ABLATION_FIGURES.map((f, k) => `${f.name} ${Math.round(base[i]![k]!)}`).join(', ')}`).join('; ')}.`,
    '',
    line(head),
    line(head.map(() => '---')),
    ...body,
    '',
    '## Constants that are not knobs',
    '',
    'Parts of a rule a knob turns off whole, the definitions the rules are written in, and mechanics that',
    'leave every answer as it is (listed in `eval/ablate.ts`; a test fails on a constant that is neither).',
    '',
    ...Object.entries(NOT_KNOBS).map(([id, why]) => `- \`${id}\`: ${why}`),
    '',
  ].join('\n');
}

/** One value of a swept knob: each bank's figures with the knob at it. */
/**
 * What turning a set of knobs off costs, against the figures with all on (per bank, per figure):
 * each macro figure (over the first `macroBanks` banks) that loses MARGIN questions or more, and
 * each bank's figure that loses more than MARGIN. Empty when the set can go.
 */
export function costsOfGoing(
  base: readonly (readonly number[])[],
  off: readonly (readonly number[])[],
  banks: readonly string[],
  macroBanks: number,
): string[] {
  const costs = base.map((b, i) => b.map((x, f) => x - off[i]![f]!));
  const macro = ABLATION_FIGURES.map((_, f) => macroGain(costs.slice(0, macroBanks), f));
  return [
    ...macro.flatMap((m, f) => (m >= MARGIN ? [`macro ${ABLATION_FIGURES[f]!.name} ${fmt(-m)}`] : [])),
    ...costs.flatMap((c, b) => c.flatMap((cost, f) => (cost > MARGIN ? [`${banks[b]} ${ABLATION_FIGURES[f]!.name} ${fmt(-cost)}`] : []))),
  ];
}

/**
 * Backward elimination: the knobs one ablation at a time calls idle can still matter together. Each
 * candidate in turn is turned off with those already let go, and goes too when the whole set still
 * costs the macro under MARGIN questions on every figure and no bank (the guard banks, such as our
 * own, included) more than MARGIN on any. Returns the knobs that can go together and, for each one
 * kept, what it would cost.
 */
export async function prune(
  banks: readonly string[],
  macroBanks: number,
  askBanks: () => Promise<QuestionResult[][]>,
  candidates: readonly string[],
  progress: (line: string) => void = () => {},
): Promise<{ gone: string[]; kept: Array<{ id: string; why: string }> }> {
  const base = (await askBanks()).map(figuresOf);
  const gone: string[] = [];
  const kept: Array<{ id: string; why: string }> = [];
  for (const id of candidates) {
    const why = costsOfGoing(base, (await withKnobsOff([...gone, id], askBanks)).map(figuresOf), banks, macroBanks);
    if (why.length === 0) gone.push(id);
    else kept.push({ id, why: why.join(', ') });
    progress(`${id}: ${why.length === 0 ? 'goes' : `stays (with ${gone.length} gone, off costs ${why.join(', ')})`}`);
  }
  return { gone, kept };
}

export interface SweepPoint {
  value: number;
  figures: number[][];
}

/**
 * Leave one out, on answered & cited: for each bank, the value the other banks together do best
 * with, and how many questions that value loses on the bank left out against its own best value.
 * A constant generalises when the loss is at most 1 on every bank.
 */
export function leaveOneOut(points: readonly SweepPoint[], banks: readonly string[]): Array<{ bank: string; chosen: number; loss: number }> {
  const figure = ABLATION_FIGURES.findIndex((f) => f.name === 'ans+cited');
  return banks.map((bank, held) => {
    const others = (p: SweepPoint) => p.figures.reduce((s, f, b) => (b === held ? s : s + f[figure]!), 0);
    const chosen = points.reduce((best, p) => (others(p) > others(best) ? p : best));
    const bestHere = Math.max(...points.map((p) => p.figures[held]![figure]!));
    return { bank, chosen: chosen.value, loss: bestHere - chosen.figures[held]![figure]! };
  });
}

/** `--sweep ID=V,V,…`: the figures of every bank at each value, then the leave-one-out check. */
export async function sweep(banks: readonly string[], askBanks: () => Promise<QuestionResult[][]>, id: string, values: readonly number[]): Promise<string> {
  const points: SweepPoint[] = [];
  for (const value of values) points.push({ value, figures: (await withKnobs(new Map([[id, value]]), askBanks)).map(figuresOf) });
  const head = ['value', ...banks.map((b) => `${b}: ${ABLATION_FIGURES.map((f) => f.name).join('/')}`)];
  const rows = points.map((p) => [String(p.value), ...p.figures.map((f) => f.map((x) => Math.round(x)).join('/'))]);
  const loo = leaveOneOut(points, banks).map((l) => `  ${l.bank}: the other banks choose ${l.chosen}, which loses ${l.loss} ans+cited here`);
  return [`${id}`, ...[head, ...rows].map((r) => r.join('  ')), 'leave one out (ans+cited):', ...loo].join('\n');
}
