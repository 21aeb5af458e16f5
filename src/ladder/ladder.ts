// Steps A and B of the read protocol: orient on the catalog, extract signal terms, drop those too
// common in this wiki to carry signal, expand with the wiki's own vocabulary, count candidates by
// the seed's rule and branch: 0 → cold (F), 1..inlineMax → inline (C), more → explore (E).
import { BUILTIN_STOPWORDS, type DroppedTerm, type SignalTerm, extractSignalTerms } from './signal-terms.js';
import type { WikiCatalog, WikiEntry } from './catalog.js';
import { type Candidate, documentFrequency, findCandidates } from './candidates.js';
import { foldedWords, termPattern } from './text-match.js';

export type Branch = 'inline' | 'explore' | 'cold' | 'unconfigured';

export interface LadderOptions {
  /** Candidate counts up to this are read inline; above it, explored. */
  inlineMax: number;
  /** Extra stopwords from the config. */
  stopwords: readonly string[];
  /** A term matching more than this share of the wiki's pages carries no signal and is dropped. */
  commonTermRatio: number;
}

export interface LadderResult {
  /** Index files a reader would open in step A. */
  oriented: string[];
  terms: SignalTerm[];
  dropped: DroppedTerm[];
  candidates: Candidate[];
  branch: Exclude<Branch, 'unconfigured'>;
}

/** Terms matching at most this many pages are never "too common", however small the wiki. */
const ALWAYS_SPECIFIC = 3;

export function runLadder(catalog: WikiCatalog, question: string, options: LadderOptions): LadderResult {
  const { terms: extracted, dropped } = extractSignalTerms(question, options.stopwords);
  const n = catalog.entries.length;
  const limit = Math.max(ALWAYS_SPECIFIC, Math.floor(options.commonTermRatio * n));
  const frequency = new Map(extracted.map((t) => [t.term, documentFrequency(catalog, termPattern(t.term))]));
  let terms = extracted.filter((t) => frequency.get(t.term)! <= limit);
  for (const t of extracted) {
    if (!terms.includes(t)) dropped.push({ term: t.term, reason: `too common in this wiki: matches ${frequency.get(t.term)} of ${n} pages (limit ${limit})` });
  }
  // A question made only of common terms keeps its rarest one rather than asking nothing.
  if (terms.length === 0 && extracted.length > 0) {
    const rarest = [...extracted].sort((a, b) => frequency.get(a.term)! - frequency.get(b.term)!)[0]!;
    terms = [rarest];
    dropped.splice(dropped.findIndex((d) => d.term === rarest.term), 1);
  }
  terms = [...terms, ...expandTerms(catalog, question, terms, options.stopwords)];
  const candidates = findCandidates(catalog, terms);
  const branch = candidates.length === 0 ? 'cold' : candidates.length <= options.inlineMax ? 'inline' : 'explore';
  return { oriented: orientedFiles(catalog, candidates), terms, dropped, candidates, branch };
}

/**
 * Expansion from the wiki's own vocabulary, each visible in the trace:
 * - a schema tag synonym of a term adds the other tag;
 * - an alias, a heading, or the text of a link to a page, whose every content word is in the
 *   question (two words at least), adds that page's title as a term that stands for that page —
 *   unless more than three pages share that phrase, which then names none of them.
 */
function expandTerms(catalog: WikiCatalog, question: string, terms: readonly SignalTerm[], extraStopwords: readonly string[]): SignalTerm[] {
  const added: SignalTerm[] = [];
  const has = new Set(terms.map((t) => foldedWords(t.term).join(' ')));
  const add = (term: string, via: string, page?: string) => {
    const key = foldedWords(term).join(' ');
    if (key === '' || has.has(key)) return;
    has.add(key);
    added.push({ term, kind: 'expanded', via, ...(page ? { page } : {}) });
  };
  for (const [a, b] of catalog.schema?.synonyms ?? []) {
    if (has.has(foldedWords(a).join(' '))) add(b, `schema.md tag synonym of '${a}'`);
    else if (has.has(foldedWords(b).join(' '))) add(a, `schema.md tag synonym of '${b}'`);
  }
  const stop = stopwordSet(extraStopwords);
  const asked = new Set(contentWords(question, stop));
  const phrases = vocabularyPhrases(catalog, extraStopwords);
  for (const { entry, phrase, kind, words, key } of phrases.list) {
    // A phrase many pages share ("Failure modes" as a heading everywhere) names none of them.
    if (phrases.pagesWith.get(key)! > ALWAYS_SPECIFIC || !words.every((w) => asked.has(w))) continue;
    add(entry.title, `${kind} "${phrase}" of ${entry.path}`, entry.path);
  }
  return added;
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

const stopwordSets = new Map<string, Set<string>>();
function stopwordSet(extra: readonly string[]): Set<string> {
  const key = extra.join('\u0000');
  let set = stopwordSets.get(key);
  if (!set) stopwordSets.set(key, (set = new Set([...BUILTIN_STOPWORDS, ...extra.map((w) => w.toLowerCase())])));
  return set;
}

const contentWords = (text: string, stop: ReadonlySet<string>): string[] =>
  foldedWords(text.replace(/[\p{L}\p{N}']+/gu, (w) => (stop.has(w.toLowerCase()) ? ' ' : w)));

interface VocabularyPhrase {
  entry: WikiEntry;
  phrase: string;
  kind: 'alias' | 'heading' | 'link text';
  /** Distinct folded content words of the phrase. */
  words: string[];
  /** The words, sorted and joined: phrases with the same key say the same thing. */
  key: string;
}

interface Vocabulary {
  list: VocabularyPhrase[];
  /** How many pages carry each phrase key. */
  pagesWith: Map<string, number>;
}

/** Every alias, heading and link text of the wiki, folded once per catalog (not per question). */
const phraseCache = new WeakMap<WikiCatalog, Map<string, Vocabulary>>();
function vocabularyPhrases(catalog: WikiCatalog, extraStopwords: readonly string[]): Vocabulary {
  let byStopwords = phraseCache.get(catalog);
  if (!byStopwords) phraseCache.set(catalog, (byStopwords = new Map()));
  const key = extraStopwords.join('\u0000');
  const cached = byStopwords.get(key);
  if (cached) return cached;
  const stop = stopwordSet(extraStopwords);
  const phrases: VocabularyPhrase[] = [];
  const pagesWith = new Map<string, number>();
  for (const entry of catalog.entries) {
    const seen = new Set<string>();
    const add = (phrase: string, kind: VocabularyPhrase['kind']) => {
      const words = [...new Set(contentWords(phrase, stop))];
      const id = [...words].sort().join(' ');
      // Each page is expanded at most once per phrase set; one-word phrases never expand.
      if (words.length < 2 || seen.has(id)) return;
      seen.add(id);
      pagesWith.set(id, (pagesWith.get(id) ?? 0) + 1);
      phrases.push({ entry, phrase, kind, words, key: id });
    };
    for (const p of entry.aliases) add(p, 'alias');
    for (const p of entry.headings) add(p, 'heading');
    for (const p of entry.linkTexts) add(p, 'link text');
  }
  const vocabulary = { list: phrases, pagesWith };
  byStopwords.set(key, vocabulary);
  return vocabulary;
}
