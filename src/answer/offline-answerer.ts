// The embedded answerer: no network, no keys. It reads the candidates in rank order up to a page
// budget, cuts them into sentences (src/answer/passages.ts), scores each sentence by the
// question's terms it states, and answers with whole sentences quoted and cited: first the best
// sentence of the best-ranked page that speaks to the question, then sentences that add terms not
// yet quoted. Coverage is decided deterministically on the pages quoted (`judgeCoverage`).
import { type SignalTerm, STRICT_KINDS, isOwnTerm, isRewording } from '../ladder/signal-terms.js';
import { type FoldedText, foldText, foldedWords, termPattern } from '../ladder/text-match.js';
import type { AnswerRequest, Answerer, Claim, DraftAnswer } from './answerer.js';
import { quoteHolds } from './cite-contract.js';
import { type PageSentences, type Sentence, splitSentences, textHasTerm } from './passages.js';
import type { Section } from './sections.js';
import { defineKnobs } from '../ladder/tuning.js';

/**
 * The answerer's constants and rules (see tuning.ts). Term weights count an ordinary word of the
 * question as 1.
 */
export const ANSWERER = defineKnobs('answer/offline-answerer', {
  OFFLINE_READ_BUDGET: {
    value: 10,
    off: Number.POSITIVE_INFINITY,
    means: 'pages read per question, best-ranked first: those that answer and a few that add missing terms',
  },
  MAX_CLAIMS: { value: 4, off: Number.POSITIVE_INFINITY, means: 'quotes per answer: one lead and a few that add what it lacks' },
  MAX_CITED_PAGES: { value: 5, off: Number.POSITIVE_INFINITY, means: 'pages quoted per answer (more is a reading list)' },
  EXPANDED_WEIGHT: { value: 0.5, off: 1, means: 'weight of terms the ladder added (a page title, a tag synonym)' },
  // A sentence under a heading (or on a page titled) with the question's terms is about them even
  // when it does not repeat them; on the page about "API 570" the sentence about corrosion rates
  // beats the one that says "API 570".
  HEADING_SHARE: {
    value: 0.5,
    off: 0,
    means: "share of a term the sentence's heading or page title carries (a title's name counts at it even when repeated)",
  },
  LEAD_BONUS: { value: 0.5, off: 0, means: "bonus for the page's lead (first prose sentence, bold lead, summary)" },
  PHRASE_BONUS: { value: 0.5, off: 0, means: "bonus per pair of the question's words side by side in its order" },
  MIN_RELEVANCE: { value: 1, off: 0, means: 'least relevance for a sentence to be quoted (one ordinary word)' },
  NEW_PAGE_RELEVANCE: { value: 2, off: 0, means: 'least relevance for a sentence to bring a new page into the answer' },
  // Citing whatever shares a word made answers that cite three pages to be right about one.
  COVER_RANKS: {
    value: 3,
    off: Number.POSITIVE_INFINITY,
    means: 'another page is quoted, and coverage judged, only among the best-ranked few and the pages quoted',
  },
  NEW_PAGE_GAIN: { value: 2, off: 0, means: 'another page is quoted only when it adds this much the answer lacks' },
  RANK_DISCOUNT: { value: 0.1, off: 0, means: 'a lower-ranked page must add this much more per rank to win a quote' },
  // A tie the ranking cannot break: each tied page is quoted beside the lead rather than only the
  // page that won by a hair. Any share from 0.90 to 0.98 moves answered & cited by at most 2 on a
  // bank, and 0.90 costs 2–6 of citation precision
  // (`npm run eval -- --sweep answer/offline-answerer.TIE_SHARE=0.9,0.94,0.96,0.98`).
  TIE_SHARE: { value: 0.96, off: Number.POSITIVE_INFINITY, means: "pages within this share of the best page's score each lend a quote" },
  WORDS_PER_TOLERATED_MISS: {
    value: 3,
    off: Number.POSITIVE_INFINITY,
    means: 'of the ordinary words, one in this many may be missing and the question still covered',
  },
  SPECIFIC_TERMS_REQUIRED: { value: true, off: false, means: 'every specific term must be in the pages judged for the question to be covered' },
  HELD_SPECIFIC_TERMS: { value: true, off: false, means: 'a specific term its page holds in code or tables counts as said by citing the page' },
  ROWS_NEVER_LEAD: { value: true, off: false, means: 'a table row neither leads nor brings a page of its own into the answer' },
  TITLED_PAGE_LEAD: { value: true, off: false, means: 'with no sentence fit to quote, the lead of the first page holding a term' },
});

export interface WeightedTerm {
  term: SignalTerm;
  pattern: ReturnType<typeof termPattern>;
  strict: boolean;
  weight: number;
  /** Counts toward coverage: the question's own terms, not the ladder's additions or too-common words. */
  required: boolean;
}

/**
 * The question's terms with their weights; `required` marks those coverage is judged on. Words the
 * ladder borrowed from the best pages (pseudo-relevance feedback) rank pages; they are not the
 * question's and choose no sentence.
 */
export function weighTerms(terms: readonly SignalTerm[]): WeightedTerm[] {
  return terms
    .filter((term) => term.kind !== 'feedback')
    .map((term) => {
      const strict = STRICT_KINDS.has(term.kind);
      const common = term.gate === false;
      return { term, pattern: termPattern(term.term), strict, weight: isRewording(term) ? ANSWERER.EXPANDED_WEIGHT : 1, required: isOwnTerm(term) && !common };
    });
}

export interface Coverage {
  covered: boolean;
  found: string[];
  missing: string[];
  /** Of `missing`, the terms some other page read does hold: not in the best-matching pages, but not absent from the wiki either. */
  elsewhere: string[];
}

/**
 * The coverage rule, judged on the pages the answer quotes and the best-ranked few (terms
 * scattered over every page read do not make an answer): every specific term (identifier, version, name, code, quote) must be
 * there; of the ordinary words, one in three (rounded down) may be missing, since questions word
 * things differently from pages. `missing` lists exactly the required terms absent from them.
 */
export function judgeCoverage(terms: readonly WeightedTerm[], judgedPages: readonly FoldedText[], otherPagesRead: readonly FoldedText[] = []): Coverage {
  const required = terms.filter((w) => w.required);
  const found = required.filter((w) => judgedPages.some((p) => textHasTerm(p, w.pattern, w.strict)));
  const missing = required.filter((w) => !found.includes(w));
  const tolerated = Math.floor(required.filter((w) => !w.strict).length / ANSWERER.WORDS_PER_TOLERATED_MISS);
  return {
    covered: judgedPages.length > 0 && (!ANSWERER.SPECIFIC_TERMS_REQUIRED || missing.every((w) => !w.strict)) && missing.length <= tolerated,
    found: found.map((w) => w.term.term),
    missing: missing.map((w) => w.term.term),
    elsewhere: missing.filter((w) => otherPagesRead.some((p) => textHasTerm(p, w.pattern, w.strict))).map((w) => w.term.term),
  };
}

/** Pages prepared once per session: a batch asks about the same pages again and again. */
interface PreparedPage {
  text: string;
  lines: string[];
  folded: FoldedText;
  page: PageSentences;
}
const PREPARED_PAGE_LIMIT = 20_000;

/** A sentence weighed against the question. */
export interface ScoredSentence {
  sentence: Sentence;
  /** Rank of its page (0 = best). */
  rank: number;
  /** Indices of the terms the sentence itself contains. */
  present: number[];
  /** Indices of the names and identifiers its page's title carries: quoting the page says them. */
  titled: number[];
  /**
   * Indices of the specific terms its page holds anywhere, code and tables included (a pasted
   * error message is usually in a code block, which is never quoted): citing the page shows them.
   */
  held: number[];
  /** Is it about the question? Term weights it carries, plus a share of those its heading or title carries. */
  relevance: number;
  /** Which sentence to quote: see `scoreSentence`. */
  score: number;
}

/**
 * Weighs one sentence. Relevance (is it about the question?): the weight of the distinct terms it
 * contains (each once, however often repeated; a page's lead also counts its title's terms), plus
 * a share of those its heading or its page's title name that it does not repeat. Score (which
 * sentence to quote?): the weight of the distinct terms it contains, except that a name the page's
 * title carries counts at the heading share only, whether or not the sentence repeats it (the page
 * is about it: the sentence that adds the rest of the question wins); plus the heading share of
 * the terms its own section heading adds; plus the phrase and lead bonuses.
 */
export function scoreSentence(
  sentence: Sentence,
  terms: readonly WeightedTerm[],
  rank = 0,
  held: number[] = [],
  phrases: readonly string[] = [],
  has: TermLookup = termLookup(terms),
): ScoredSentence {
  const present: number[] = [];
  const titled: number[] = [];
  let relevance = 0;
  let score = 0;
  // A page's top section and its H1 are headed by the title itself.
  const ownHeading = sentence.section.level > 1;
  terms.forEach((t, k) => {
    const inTitle = has(sentence.title, k);
    // The page's subject: a name or identifier its title carries ("API 570"). An everyday word in a
    // title ("rating" in a standard's long title) does not make every sentence about it.
    const subject = inTitle && (t.strict || isRewording(t.term));
    const said = textHasTerm(sentence.folded, t.pattern, t.strict);
    // The lead speaks for the title ("Index builder" → "`wiki-steward index` regenerates …"): it is
    // about the title's terms, though it scores only the words it says.
    const inSentence = said || (sentence.lead && sentence.section.level <= 1 && inTitle);
    // A heading that restates the page's subject ("How API 570 gates …" on the API 570 page) says nothing new.
    const inHeading = ownHeading && !subject && has(sentence.section.folded, k);
    if (inSentence) present.push(k);
    if (subject) titled.push(k);
    relevance += inSentence ? t.weight : inTitle || inHeading ? ANSWERER.HEADING_SHARE * t.weight : 0;
    score += (subject || (inTitle && !said) ? ANSWERER.HEADING_SHARE * t.weight : said ? t.weight : 0) + (inHeading ? ANSWERER.HEADING_SHARE * t.weight : 0);
  });
  score += ANSWERER.PHRASE_BONUS * phrases.filter((p) => sentence.folded.joined.includes(p)).length;
  if (sentence.lead) score += ANSWERER.LEAD_BONUS;
  return { sentence, rank, present, titled, held, relevance, score };
}

/** Whether a folded text holds the k-th term. */
export type TermLookup = (text: FoldedText, k: number) => boolean;

/**
 * A TermLookup that remembers its answers per text: a page's title and a section's heading are
 * shared by all their sentences, so each is searched once per term, not once per sentence.
 */
export function termLookup(terms: readonly WeightedTerm[]): TermLookup {
  const known = new WeakMap<FoldedText, Int8Array>(); // per term: 0 not yet asked, 1 holds, 2 does not
  return (text, k) => {
    let row = known.get(text);
    if (!row) known.set(text, (row = new Int8Array(terms.length)));
    if (row[k] === 0) row[k] = textHasTerm(text, terms[k]!.pattern, terms[k]!.strict) ? 1 : 2;
    return row[k] === 1;
  };
}

/**
 * Pairs of adjacent question words that belong to two different terms (" corros rate "), as
 * folded-text needles; a pair inside one term (a name like "API 570") is that term's own match.
 */
export function questionPhrases(question: string, terms: readonly WeightedTerm[]): string[] {
  const words = foldedWords(question);
  const owner = (w: string) => terms.findIndex((t) => !isRewording(t.term) && t.pattern.words.length === 1 && t.pattern.words[0] === w);
  const phrases = new Set<string>();
  for (let i = 0; i + 1 < words.length; i++) {
    const [a, b] = [owner(words[i]!), owner(words[i + 1]!)];
    const needle = ` ${words[i]} ${words[i + 1]} `;
    const named = terms.some((t) => t.pattern.words.length > 1 && ` ${t.pattern.words.join(' ')} `.includes(needle));
    if (a >= 0 && b >= 0 && a !== b && !named) phrases.add(needle);
  }
  return [...phrases];
}

export class OfflineAnswerer implements Answerer {
  readonly name = 'offline';
  private readonly prepared = new Map<string, PreparedPage>();

  private prepare(path: string, text: string): PreparedPage {
    const cached = this.prepared.get(path);
    if (cached && cached.text === text) return cached;
    const page = { text, lines: text.split('\n'), folded: foldText(text), page: splitSentences(path, text) };
    if (this.prepared.size >= PREPARED_PAGE_LIMIT) this.prepared.clear();
    this.prepared.set(path, page);
    return page;
  }

  get pageLimit(): number {
    return ANSWERER.OFFLINE_READ_BUDGET;
  }

  async answer(request: AnswerRequest): Promise<DraftAnswer> {
    const ranked = [...request.pages.keys()];
    const read = ranked.slice(0, ANSWERER.OFFLINE_READ_BUDGET);
    const unread = [...ranked.slice(ANSWERER.OFFLINE_READ_BUDGET), ...(request.beyond ?? [])].map((path) => ({
      path,
      reason: `beyond the offline read budget of ${ANSWERER.OFFLINE_READ_BUDGET} pages`,
    }));
    const terms = weighTerms(request.terms);
    const pages = new Map(read.map((path) => [path, this.prepare(path, request.pages.get(path)!)]));
    const phrases = questionPhrases(request.question, terms);
    const has = termLookup(terms);
    const scored = read.flatMap((path, rank) => {
      const page = pages.get(path)!;
      const held = terms.flatMap((t, k) => (ANSWERER.HELD_SPECIFIC_TERMS && t.strict && textHasTerm(page.folded, t.pattern, t.strict) ? [k] : []));
      return page.page.sentences.map((s) => scoreSentence(s, terms, rank, held, phrases, has));
    });
    const holds = (s: Sentence) => quoteHolds(pages.get(s.path)!.lines, [s.start, s.end], s.quote);
    const picked = pickSentences(scored, terms, holds, tiedWithBest(read, request.scores));
    // A page found by its title alone: its lead is what it says about the subject.
    if (ANSWERER.TITLED_PAGE_LEAD && picked.length === 0) {
      const named = read.find((path) => terms.some((w) => w.required && textHasTerm(pages.get(path)!.folded, w.pattern, w.strict)));
      const own = scored.filter((x) => x.sentence.path === named && holds(x.sentence));
      const opening = own.find((x) => x.sentence.lead) ?? own[0];
      if (opening) picked.push(opening);
    }
    const claims = picked.map(({ sentence: s }): Claim => ({
      text: s.quote,
      citations: [{ path: s.path, lines: [s.start, s.end], quote: s.quote }],
      section: { path: s.path, heading: s.section.heading, line: s.section.line },
    }));
    // Coverage is judged on the pages quoted and the best-ranked few: what those pages state, whether
    // or not the answer needed a quote from each.
    const judgedPaths = new Set([...picked.map((x) => x.sentence.path), ...read.slice(0, ANSWERER.COVER_RANKS)]);
    const folded = (paths: readonly string[]) => paths.map((path) => pages.get(path)!.folded);
    const coverage = judgeCoverage(terms, folded([...judgedPaths]), folded(read.filter((path) => !judgedPaths.has(path))));
    return {
      claims,
      covered: read.length > 0 && claims.length > 0 && coverage.covered,
      found: coverage.found,
      missing: coverage.missing,
      missingElsewhere: coverage.elsewhere,
      read,
      unread,
      missingAre: 'terms',
    };
  }
}

/** How many of the pages read, best first, tie with the best (1 when it stands alone or scores are unknown). */
export function tiedWithBest(read: readonly string[], scores: ReadonlyMap<string, number> | undefined): number {
  const best = scores?.get(read[0] ?? '');
  if (!scores || best === undefined || best <= 0) return 1;
  let tied = 1;
  while (tied < read.length && (scores.get(read[tied]!) ?? 0) >= ANSWERER.TIE_SHARE * best) tied++;
  return tied;
}

/**
 * The quotes, most relevant first: the best sentence of the best-ranked page that speaks to the
 * question, then the best sentence of each other page among the first `tied` (see ANSWERER.TIE_SHARE), then
 * a greedy cover (each pick the sentence adding the most weight of terms not yet quoted, or of
 * specific terms its page holds in code or tables, a lower-ranked page discounted; a page is
 * quoted only when it adds a term), then, for a one-quote answer, the next best sentence of the
 * same section.
 */
export function pickSentences(
  scored: readonly ScoredSentence[],
  terms: readonly WeightedTerm[],
  holds: (s: Sentence) => boolean = () => true,
  tied = 1,
): ScoredSentence[] {
  const eligible = scored.filter((x) => x.relevance >= ANSWERER.MIN_RELEVANCE);
  const checked = new Map<ScoredSentence, boolean>();
  const quotable = (x: ScoredSentence) => {
    let ok = checked.get(x);
    if (ok === undefined) checked.set(x, (ok = holds(x.sentence)));
    return ok;
  };
  // Higher score, then more relevance (the sentence that says the title's terms itself), better rank, earlier in the page.
  const better = (a: ScoredSentence, b: ScoredSentence) =>
    a.score !== b.score
      ? a.score > b.score
      : a.relevance !== b.relevance
        ? a.relevance > b.relevance
        : a.rank !== b.rank
          ? a.rank < b.rank
          : a.sentence.order < b.sentence.order;
  const byBetter = (a: ScoredSentence, b: ScoredSentence) => (better(a, b) ? -1 : better(b, a) ? 1 : 0);
  // The best quotable one: candidates in order, checked until one holds (checking every sentence
  // of a page with a hundred thousand of them, each against its lines, took minutes).
  const bestQuotable = (candidates: ScoredSentence[]): ScoredSentence | undefined => candidates.sort(byBetter).find(quotable);
  const picked: ScoredSentence[] = [];
  const quoted = new Set<number>();
  const pages = new Set<string>();
  const texts = new Set<string>();
  const take = (x: ScoredSentence) => {
    picked.push(x);
    pages.add(x.sentence.path);
    texts.add(x.sentence.text);
    for (const k of [...x.present, ...x.titled, ...x.held]) quoted.add(k);
  };
  // A table row adds to a page already quoted; it neither leads nor brings a page of its own into
  // the answer: without its column names a row matches the question's words more than its meaning.
  const barredRow = (x: ScoredSentence) => ANSWERER.ROWS_NEVER_LEAD && x.sentence.row;
  const open = (x: ScoredSentence) =>
    !picked.includes(x) &&
    !texts.has(x.sentence.text) &&
    (pages.has(x.sentence.path) || (pages.size < ANSWERER.MAX_CITED_PAGES && x.relevance >= ANSWERER.NEW_PAGE_RELEVANCE && !barredRow(x)));

  // The lead claim: the best sentence of the best-ranked page that speaks to the question.
  for (const rank of [...new Set(eligible.map((x) => x.rank))].sort((a, b) => a - b)) {
    const best = bestQuotable(eligible.filter((x) => x.rank === rank && !barredRow(x)));
    if (!best) continue;
    take(best);
    break;
  }
  if (picked.length === 0) return picked;
  const lead = picked[0]!;

  // Pages tied with the best: each says its best sentence, when it has one fit to join the answer.
  for (let rank = 0; rank < tied && picked.length < ANSWERER.MAX_CLAIMS; rank++) {
    const best = bestQuotable(eligible.filter((x) => x.rank === rank && !pages.has(x.sentence.path) && open(x)));
    if (best) take(best);
  }
  // Greedy cover: new terms first, by the value each adds (equal values: the better sentence).
  while (picked.length < ANSWERER.MAX_CLAIMS) {
    const valued: Array<{ x: ScoredSentence; value: number }> = [];
    for (const x of eligible) {
      if (!open(x)) continue;
      const gain = [...new Set([...x.present, ...x.held])].reduce((sum, k) => sum + (quoted.has(k) ? 0 : terms[k]!.weight), 0);
      if (gain < ANSWERER.MIN_RELEVANCE - 1e-9) continue;
      // Another page joins only from the top of the ranking, and only for what the answer lacks.
      if (!pages.has(x.sentence.path) && (x.rank >= ANSWERER.COVER_RANKS || gain < ANSWERER.NEW_PAGE_GAIN - 1e-9)) continue;
      valued.push({ x, value: gain / (1 + ANSWERER.RANK_DISCOUNT * x.rank) });
    }
    valued.sort((a, b) => (Math.abs(a.value - b.value) > 1e-9 ? b.value - a.value : byBetter(a.x, b.x)));
    const best = valued.find((v) => quotable(v.x))?.x;
    if (!best) break;
    take(best);
  }
  // The lead first; then the rest, most relevant first, section by section (the lead's own section
  // first), sentences of one section in page order so that neighbours read as the page wrote them.
  const rest = picked.slice(1).sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
  const sections: Section[] = [];
  for (const x of [lead, ...rest]) if (!sections.includes(x.sentence.section)) sections.push(x.sentence.section);
  return [lead, ...sections.flatMap((section) => rest.filter((x) => x.sentence.section === section).sort((a, b) => a.sentence.order - b.sentence.order))];
}
