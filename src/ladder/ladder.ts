// Steps A and B of the read protocol: orient on the catalog, extract signal terms, expand them with
// the wiki's own vocabulary, count candidates and branch: 0 → cold (F), 1..inlineMax → inline (C),
// more → explore (E).
//
// The seed's gate (a term in a title, tag or summary) still makes candidates and is still counted
// (`seedBranch`). A question in everyday words rarely meets the wiki's title words, so the page body
// may also make candidates: at most LADDER.BODY_CANDIDATES pages the fielded relevance score ranks
// highest, each above a floor relative to the best score. Every candidate, however found, is ranked by that
// score, best first, and the branch comes from the size of the union.
import { type DroppedTerm, STRICT_KINDS, type SignalTerm, builtinStopwords, extractSignalTerms, isOwnTerm, isRewording } from './signal-terms.js';
import type { WikiCatalog, WikiEntry } from './catalog.js';
import type { PageScores } from './relevance.js';
import { type Candidate, type TermMatch, compareGateCandidates, documentFrequency, findCandidates } from './candidates.js';
import { foldWord, foldedWords, lowerWords, termPattern } from './text-match.js';
import { defineKnobs } from './tuning.js';

export type Branch = 'inline' | 'explore' | 'cold' | 'unconfigured';

export interface LadderOptions {
  /** Candidate counts up to this are read inline; above it, explored. */
  inlineMax: number;
  /** Extra stopwords from the config. */
  stopwords: readonly string[];
  /** An ordinary word matching more than this share of the wiki's pages is too common to open the gate. */
  commonTermRatio: number;
}

export interface RankedCandidate extends Candidate {
  /** Fielded relevance (BM25F) of the page for this question. */
  score: number;
  /** How the page became a candidate: the seed's gate, or its body ranked among the best. */
  source: 'gate' | 'body';
}

export interface LadderResult {
  /** Index files a reader would open in step A. */
  oriented: string[];
  terms: SignalTerm[];
  dropped: DroppedTerm[];
  /** Best first. */
  candidates: RankedCandidate[];
  /** Open captures that match: the question was asked before and is still open (never coverage). */
  askedBefore: string[];
  branch: Exclude<Branch, 'unconfigured'>;
  /** The branch the seed's gate alone would have taken. */
  seedBranch: Exclude<Branch, 'unconfigured'>;
}

/**
 * The ladder's constants and rules. Weights rank a query word by where it came from: the question's
 * own words count fully, names and identifiers a little more; the wiki's vocabulary and feedback
 * from the best pages count less, so they reorder pages without outvoting the question.
 */
export const LADDER = defineKnobs('ladder/ladder', {
  ALWAYS_SPECIFIC: { value: 3, off: 0, means: 'terms on at most this many pages are never too common' },
  BODY_CANDIDATES: { value: 5, off: 0, means: 'at most this many pages join the candidates by their body alone' },
  BODY_SCORE_FLOOR: { value: 0.5, off: 0, means: "a body candidate scores at least this share of the best page's score" },
  STRICT_WEIGHT: { value: 1.5, off: 1, means: 'ranking weight of names, identifiers, versions, code and quotes' },
  EXPANDED_WEIGHT: { value: 0.6, off: 1, means: "ranking weight of the wiki's vocabulary and proposed terms" },
  BODY_EVIDENCE: { value: 2, off: 0, means: 'distinct words of the question a page holds to join by its body or lend feedback' },
  FEEDBACK_WEIGHT: { value: 0.1, off: 1, means: 'ranking weight of feedback words' },
  TITLE_NAME_BONUS: { value: 0.3, off: 0, means: 'bonus per unit of rarity for a term a title holds whole' },
  FEEDBACK_PAGES: { value: 3, off: 0, means: 'pseudo-relevance feedback: words from the best few pages of a first pass' },
  FEEDBACK_WORDS: { value: 4, off: 0, means: 'pseudo-relevance feedback: at most this many words' },
  FEEDBACK_AGREEMENT: { value: true, off: false, means: 'a feedback word must come from two of those pages (or the only one)' },
  RAREST_OPENS_GATE: { value: true, off: false, means: 'a question of only common words lets its rarest open the gate' },
  UNKNOWN_SUBJECT: { value: true, off: false, means: 'names no page holds: no body candidates from ordinary words' },
  TAG_SYNONYMS: { value: true, off: false, means: "schema.md's tag synonyms expand terms" },
  ACRONYM_EXPANSION: { value: true, off: false, means: 'acronyms the wiki spells out expand to their long form and back' },
  PHRASE_EXPANSION: { value: true, off: false, means: "an alias or link text wholly in the question adds its page's title" },
});

const weightOf = (term: SignalTerm): number =>
  term.kind === 'feedback' ? LADDER.FEEDBACK_WEIGHT : isRewording(term) ? LADDER.EXPANDED_WEIGHT : STRICT_KINDS.has(term.kind) ? LADDER.STRICT_WEIGHT : 1;

const branchOf = (count: number, inlineMax: number): Exclude<Branch, 'unconfigured'> => (count === 0 ? 'cold' : count <= inlineMax ? 'inline' : 'explore');

/** Signal terms a model proposed for the question (step B), and which model. */
export interface ProposedTerms {
  terms: readonly string[];
  by: string;
}

export function runLadder(catalog: WikiCatalog, question: string, options: LadderOptions, proposed?: ProposedTerms): LadderResult {
  const { terms: extracted, dropped } = extractSignalTerms(question, options.stopwords);
  // The model's terms are counted like the question's own (too-common ones rank without opening
  // the gate), weighted as the wiki's vocabulary is, and marked with where they came from.
  extracted.push(...proposedTerms(extracted, proposed));
  const n = catalog.entries.length;
  // Names, identifiers, versions and quotes are the question's subject: never too common. An
  // ordinary word on a large share of the pages names none of them: it stays in the ranking, where
  // its rarity weighs it, but does not open the gate.
  const limit = Math.max(LADDER.ALWAYS_SPECIFIC, Math.floor(options.commonTermRatio * n));
  // Pages each common word matches (strict kinds are never counted: they are never too common).
  const common = new Map<SignalTerm, number>();
  for (const t of extracted) {
    if (STRICT_KINDS.has(t.kind)) continue;
    const pages = documentFrequency(catalog, termPattern(t.term));
    if (pages > limit) {
      common.set(t, pages);
      t.gate = false;
      t.note = `too common to name pages here: matches ${pages} of ${n} pages (limit ${limit}); ranked by its rarity`;
    }
  }
  // A question made only of common words lets its rarest one open the gate rather than asking nothing.
  if (LADDER.RAREST_OPENS_GATE && common.size === extracted.length && extracted.length > 0) {
    const rarest = [...common].reduce((a, b) => (b[1] < a[1] ? b : a))[0];
    delete rarest.gate;
    delete rarest.note;
  }
  let terms = [...extracted, ...expandTerms(catalog, question, extracted, options.stopwords)];
  const gateTerms = terms.filter((t) => t.gate !== false);
  const gate = findCandidates(catalog, gateTerms);

  let scores = catalog.relevance.score(queryWords(terms));
  const feedback = feedbackTerms(catalog, scores, terms, options.stopwords, limit);
  if (feedback.length > 0) {
    terms = [...terms, ...feedback];
    scores = catalog.relevance.score(queryWords(terms));
  }
  for (const t of terms) t.weight = weightOf(t);

  const ranked = rankCandidates(catalog, gate, scores, terms);
  const isCapture = (path: string) => catalog.byPath.get(path)!.openCapture;
  const candidates = ranked.filter((c) => !isCapture(c.path));
  return {
    // Step A orients on the index files: the pages the gate found there, else whatever was found.
    oriented: orientedFiles(catalog, candidates.some((c) => c.source === 'gate') ? candidates.filter((c) => c.source === 'gate') : candidates),
    terms,
    dropped,
    candidates,
    askedBefore: ranked.filter((c) => isCapture(c.path)).map((c) => c.path),
    branch: branchOf(candidates.length, options.inlineMax),
    seedBranch: branchOf(gate.filter((c) => !isCapture(c.path)).length, options.inlineMax),
  };
}

/** Each folded word of the terms with the highest weight any term gives it. */
function queryWords(terms: readonly SignalTerm[]): Map<string, number> {
  const words = new Map<string, number>();
  for (const term of terms) {
    const weight = weightOf(term);
    for (const word of foldedWords(term.term)) words.set(word, Math.max(words.get(word) ?? 0, weight));
  }
  return words;
}

/** The gate's candidates plus the best body matches, ranked by score, best first. */
function rankCandidates(catalog: WikiCatalog, gate: readonly Candidate[], scores: PageScores, terms: readonly SignalTerm[]): RankedCandidate[] {
  // A term the page's title or an alias holds whole (the seed's title rule) names the page: that
  // counts beyond the words' separate hits, in proportion to how rare the term's words are.
  const naming = new Map(terms.map((t) => [t.term, weightOf(t) * foldedWords(t.term).reduce((sum, w) => sum + catalog.relevance.idf(w), 0)]));
  const named = (c: Candidate) =>
    [...new Set(c.matched.filter((m) => m.field === 'title').map((m) => m.term))].reduce((sum, term) => sum + (naming.get(term) ?? 0), 0);
  const ranked: RankedCandidate[] = gate.map((c) => ({
    ...c,
    score: scores.of(catalog.indexOf(c.path)) + LADDER.TITLE_NAME_BONUS * named(c),
    source: 'gate',
  }));
  const inGate = new Set(gate.map((c) => c.path));
  let best = 0;
  for (let k = 0; k < scores.size; k++) best = Math.max(best, scores.of(scores.page(k)));
  for (const c of ranked) best = Math.max(best, c.score);
  const above: Array<[number, number]> = [];
  for (let k = 0; k < scores.size; k++) {
    const entry = scores.page(k);
    const score = scores.of(entry);
    if (score >= LADDER.BODY_SCORE_FLOOR * best && !inGate.has(catalog.entries[entry]!.path)) above.push([entry, score]);
  }
  // A question that names things (names, identifiers, versions, code, quotes) none of which any
  // page mentions is about something this wiki does not know: sharing ordinary words with it
  // ("database", "servers") does not make a page a candidate.
  const names = terms
    .filter((t) => STRICT_KINDS.has(t.kind))
    .map((t) => foldedWords(t.term))
    .filter((w) => w.length > 0);
  const unknownSubject = LADDER.UNKNOWN_SUBJECT && names.length > 0 && !names.some((name) => catalog.relevance.anyPageHoldsAll(name));
  const enough = hasEvidence(catalog, terms);
  const body: Array<[number, number]> = [];
  if (!unknownSubject) {
    // Best first, until enough have the evidence (on a large wiki thousands of pages score).
    for (const pair of above.sort((a, b) => b[1] - a[1] || a[0] - b[0])) {
      if (body.length === LADDER.BODY_CANDIDATES) break;
      if (enough(pair[0])) body.push(pair);
    }
  }
  for (const [entry, score] of body) {
    const page = catalog.entries[entry]!;
    // The terms the page holds, as the trace names them (every word of the term, in any field).
    const matched: TermMatch[] = terms
      .filter((t) => {
        const words = foldedWords(t.term);
        return words.length > 0 && catalog.relevance.wordsIn(entry, words).length === words.length;
      })
      .map((t) => ({ term: t.term, field: 'body' }));
    ranked.push({ path: page.path, title: page.title, matched, score, source: 'body' });
  }
  // Equal scores keep the gate's own order (distinct terms matched, then shorter titles).
  return ranked.sort((a, b) => b.score - a.score || compareGateCandidates(a, b));
}

/** The k best (entry, score) pairs, best first (ties: earlier entry), in one pass. */
function topScores(scores: PageScores, k: number): Array<[number, number]> {
  const top: Array<[number, number]> = [];
  for (let i = 0; i < scores.size; i++) {
    const entry = scores.page(i);
    const score = scores.of(entry);
    if (top.length === k && score <= top[k - 1]![1]) continue;
    let at = top.length;
    while (at > 0 && (top[at - 1]![1] < score || (top[at - 1]![1] === score && top[at - 1]![0] > entry))) at--;
    top.splice(at, 0, [entry, score]);
    if (top.length > k) top.pop();
  }
  return top;
}

/**
 * One ordinary word in common ("home") is no evidence that a page is about the question: a page
 * joins by its body, or lends feedback words, only when it holds LADDER.BODY_EVIDENCE of the question's own
 * words (all of them when the question has fewer).
 */
function hasEvidence(catalog: WikiCatalog, terms: readonly SignalTerm[]): (entry: number) => boolean {
  const own = [...new Set(terms.filter(isOwnTerm).flatMap((t) => foldedWords(t.term)))];
  const needed = Math.min(LADDER.BODY_EVIDENCE, own.length);
  return (entry) => catalog.relevance.wordsIn(entry, own).length >= needed;
}

/**
 * Pseudo-relevance feedback: the words the best pages of a first pass are named and sectioned by
 * (titles, aliases, tags, summaries, headings), rarer than the question's own, weighted by how well
 * those pages scored; a word that names more than `limit` pages (the "too common" limit) is left
 * out. They bridge a question in everyday words to the wiki's own terms.
 */
function feedbackTerms(catalog: WikiCatalog, scores: PageScores, terms: readonly SignalTerm[], extraStopwords: readonly string[], limit: number): SignalTerm[] {
  if (LADDER.FEEDBACK_PAGES === 0) return [];
  const enough = hasEvidence(catalog, terms);
  const top = topScores(scores, LADDER.FEEDBACK_PAGES).filter(([entry]) => enough(entry));
  if (top.length === 0) return [];
  const best = top[0]![1];
  const asked = new Set(terms.flatMap((t) => foldedWords(t.term)));
  const stop = stopwordSet(extraStopwords);
  const strength = new Map<string, { value: number; word: string; pages: Set<string> }>();
  for (const [entry, score] of top) {
    const page = catalog.entries[entry]!;
    const seen = new Set<string>();
    for (const word of [page.title, ...page.aliases, ...page.tags, page.summary, ...page.headings].flatMap(lowerWords)) {
      const folded = foldWord(word);
      if (seen.has(folded) || asked.has(folded) || word.length < 3 || /^\d+$/.test(word) || stop.has(word)) continue;
      // A word that names sections of many pages ("Related", "Practitioner notes") is the wiki's
      // layout, not the question's subject: too common by the rule the question's own words follow.
      if (catalog.relevance.namingFrequency(folded) > limit) continue;
      seen.add(folded);
      const s = strength.get(folded) ?? { value: 0, word, pages: new Set<string>() };
      s.value += (score / best) * catalog.relevance.idf(folded);
      s.pages.add(page.path);
      strength.set(folded, s);
    }
  }
  return [...strength.values()]
    .filter((s) => !LADDER.FEEDBACK_AGREEMENT || s.pages.size >= 2 || top.length === 1)
    .sort((a, b) => b.value - a.value || (a.word < b.word ? -1 : 1))
    .slice(0, LADDER.FEEDBACK_WORDS)
    .map((s) => ({ term: s.word, kind: 'feedback' as const, via: `pseudo-relevance feedback from ${[...s.pages].join(', ')}` }));
}

/** The key two terms saying the same words share. */
const termKey = (text: string): string => foldedWords(text).join(' ');

/**
 * Terms added to `terms`, each only when no term so far (given or added) says the same words:
 * `has` tells whether one does, `add` adds a term that does not.
 */
function termAdder(terms: readonly SignalTerm[]): { added: SignalTerm[]; has(text: string): boolean; add(term: SignalTerm): void } {
  const keys = new Set(terms.map((t) => termKey(t.term)));
  const added: SignalTerm[] = [];
  return {
    added,
    has: (text) => keys.has(termKey(text)),
    add(term) {
      const key = termKey(term.term);
      if (key === '' || keys.has(key)) return;
      keys.add(key);
      added.push(term);
    },
  };
}

/** The proposal's terms the question does not already have, as `proposed` terms. */
function proposedTerms(terms: readonly SignalTerm[], proposed: ProposedTerms | undefined): SignalTerm[] {
  const adder = termAdder(terms);
  for (const term of proposed?.terms ?? []) adder.add({ term, kind: 'proposed', via: `proposed by ${proposed!.by}` });
  return adder.added;
}

/**
 * Expansion from the wiki's own vocabulary, each visible in the trace:
 * - a schema tag synonym of a term adds the other tag;
 * - an acronym the wiki spells out adds its long form, and a long form adds its acronym;
 * - an alias, or the text of a link to a page, whose every content word is in the question (two
 *   words at least), adds that page's title as a term that stands for that page — unless more than
 *   three pages share that phrase, which then names none of them. Headings do not expand: a heading
 *   names a section, not the page, and already counts in the ranking.
 */
function expandTerms(catalog: WikiCatalog, question: string, terms: readonly SignalTerm[], extraStopwords: readonly string[]): SignalTerm[] {
  const adder = termAdder(terms);
  const add = (term: string, via: string, page?: string) => adder.add({ term, kind: 'expanded', via, ...(page ? { page } : {}) });
  for (const [a, b] of LADDER.TAG_SYNONYMS ? (catalog.schema?.synonyms ?? []) : []) {
    if (adder.has(a)) add(b, `schema.md tag synonym of '${a}'`);
    else if (adder.has(b)) add(a, `schema.md tag synonym of '${b}'`);
  }
  // An acronym the wiki spells out reaches pages written with the long form, and the long form
  // reaches pages that only use the acronym.
  const questionWords = ` ${foldedWords(question).join(' ')} `;
  const asks = (phrase: string) => questionWords.includes(` ${foldedWords(phrase).join(' ')} `);
  const stop = stopwordSet(extraStopwords);
  const writtenAcronyms = acronymsWritten(question);
  for (const [acronym, longForms] of LADDER.ACRONYM_EXPANSION ? catalog.acronyms : []) {
    if (writtenAcronyms.has(acronym)) for (const long of longForms) add(long, `the wiki spells out '${acronym.toUpperCase()}' as '${long}'`);
    else {
      const asked = longForms.find(asks);
      if (asked) add(acronym.toUpperCase(), `the wiki's acronym for '${asked}'`);
    }
  }
  const asked = new Set(contentWords(question, stop));
  const phrases = LADDER.PHRASE_EXPANSION ? questionPhrases(catalog, stop, asked) : { starting: [], pagesWith: new Map<string, number>() };
  for (const { entry, phrase, kind, words, key } of phrases.starting) {
    // A phrase many pages share ("Failure modes" as a heading everywhere) names none of them.
    if (phrases.pagesWith.get(key)! > LADDER.ALWAYS_SPECIFIC || !words.every((w) => asked.has(w))) continue;
    add(entry.title, `${kind} "${phrase}" of ${entry.path}`, entry.path);
  }
  return adder.added;
}

/** A whole word of the question, hyphenated words kept whole: "goal-setting" is one word, not "set". */
const QUESTION_WORD = /[\p{L}\p{N}&]+(?:-[\p{L}\p{N}&]+)*/gu;
const WRITTEN_AS_ACRONYM = /^[\p{Lu}][\p{Lu}\p{N}&]+s?$/u;

/**
 * The question's words written as acronyms (capitals, "API", "FPSOs"), folded as acronym keys are.
 * An ordinary word is never read as one: "for" is not FOR, "set" in "goals people set" not SET;
 * measured on every bank, lowercase acronyms ("ltcr") reached no expected page that capitals miss.
 */
function acronymsWritten(question: string): Set<string> {
  const out = new Set<string>();
  for (const [word] of question.matchAll(QUESTION_WORD)) {
    if (word.includes('-')) continue;
    if (!WRITTEN_AS_ACRONYM.test(word)) continue;
    const key = foldedWords(word.replace(/s$/, '')).join(' ');
    if (key !== '') out.add(key);
  }
  return out;
}

/**
 * What a reader opens in step A: `schema.md`, then the one index file that lists every candidate
 * (a category's `_index.md`, or a per-area `index.<area>.md`), else the root `index.md`, else the
 * root-level index files that list any candidate.
 */
function orientedFiles(catalog: WikiCatalog, candidates: readonly Candidate[]): string[] {
  const files = catalog.layout.tree.files;
  const oriented = files.has('schema.md') ? ['schema.md'] : [];
  const categories = new Set(candidates.map((c) => c.path.split('/')[0]!));
  const categoryIndex = categories.size === 1 ? `${[...categories][0]}/_index.md` : undefined;
  const listers = new Set(candidates.map((c) => catalog.byPath.get(c.path)?.listedIn));
  const lister = listers.size === 1 ? [...listers][0] : undefined;
  if (categoryIndex && files.has(categoryIndex)) oriented.push(categoryIndex);
  else if (lister) oriented.push(lister);
  else if (files.has('index.md')) oriented.push('index.md');
  else {
    const rootIndexes = catalog.indexFiles.filter((f) => !f.includes('/'));
    const used = rootIndexes.filter((f) => listers.has(f));
    oriented.push(...(used.length > 0 ? used : rootIndexes));
  }
  return oriented;
}

const stopwordSets = new WeakMap<ReadonlySet<string>, Map<string, Set<string>>>();
function stopwordSet(extra: readonly string[]): Set<string> {
  const builtin = builtinStopwords();
  let byExtra = stopwordSets.get(builtin);
  if (!byExtra) stopwordSets.set(builtin, (byExtra = new Map()));
  const key = extra.join('\u0000');
  let set = byExtra.get(key);
  if (!set) byExtra.set(key, (set = new Set([...builtin, ...extra.map((w) => w.toLowerCase())])));
  return set;
}

const contentWords = (text: string, stop: ReadonlySet<string>): readonly string[] =>
  foldedWords(text.replace(/[\p{L}\p{N}']+/gu, (w) => (stop.has(w.toLowerCase()) ? ' ' : w)));

interface VocabularyPhrase {
  entry: WikiEntry;
  phrase: string;
  kind: 'alias' | 'link text';
  /** Distinct folded content words of the phrase. */
  words: string[];
  /** The words, sorted and joined: phrases with the same key say the same thing. */
  key: string;
}

/**
 * The aliases and link texts that start with a word of the question (only those can be wholly in
 * it), in the wiki's order (page order, then alias before link text), and how many pages carry each
 * phrase key. Only the pages whose aliases or link texts hold a word of the question are looked at:
 * every page that shares a phrase made of the question's words holds those words, so the counts of
 * such phrases are whole.
 */
function questionPhrases(
  catalog: WikiCatalog,
  stop: ReadonlySet<string>,
  asked: ReadonlySet<string>,
): { starting: VocabularyPhrase[]; pagesWith: Map<string, number> } {
  const holders = new Set<number>();
  for (const word of asked) for (const position of catalog.phraseHolders(word)) holders.add(position);
  const starting: VocabularyPhrase[] = [];
  const pagesWith = new Map<string, number>();
  for (const position of [...holders].sort((a, b) => a - b)) {
    const entry = catalog.entries[position]!;
    const seen = new Set<string>();
    const add = (phrase: string, kind: VocabularyPhrase['kind']) => {
      const words = [...new Set(contentWords(phrase, stop))];
      const key = [...words].sort().join(' ');
      // Each page is expanded at most once per phrase set; one-word phrases never expand.
      if (words.length < 2 || seen.has(key)) return;
      seen.add(key);
      pagesWith.set(key, (pagesWith.get(key) ?? 0) + 1);
      if (asked.has(words[0]!)) starting.push({ entry, phrase, kind, words, key });
    };
    for (const p of entry.aliases) add(p, 'alias');
    for (const p of entry.linkTexts) add(p, 'link text');
  }
  return { starting, pagesWith };
}
