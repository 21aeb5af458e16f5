// Step B: which pages a signal term matches, by the seed's three rules, and in what order.
import { compareCodePoints, codePointLength } from '../wiki/python-compat.js';
import type { WikiCatalog, WikiEntry } from './catalog.js';
import { type TermPattern, containsWords, tagEquals, termPattern, titleContains } from './text-match.js';

/** `body`: a body candidate's words, found by the ranking rather than the seed's gate. */
export type MatchField = 'title' | 'tag' | 'summary' | 'body';

export interface TermMatch {
  term: string;
  field: MatchField;
}

export interface Candidate {
  path: string;
  title: string;
  matched: TermMatch[];
}

/**
 * The seed's rule for one term and one page: the title contains it (case-insensitive, from a word
 * start), a tag equals it (case-insensitive, `#` ignored), or the summary contains it as whole words.
 */
export function matchFields(entry: WikiEntry, pattern: TermPattern): MatchField[] {
  const fields: MatchField[] = [];
  // Without spaces there are no word boundaries: a title written whole inside the question's run
  // is as good a match as the run inside the title.
  const titleInsideTerm = pattern.noSpaceScript && entry.folded.title.raw.length >= 2 && pattern.raw.includes(entry.folded.title.raw);
  if (titleInsideTerm || titleContains(entry.folded.title, pattern)) fields.push('title');
  if (entry.tags.some((tag) => tagEquals(tag, pattern))) fields.push('tag');
  if (containsWords(entry.folded.summary, pattern)) fields.push('summary');
  return fields;
}

/** The pages a term matches, in entry order, each with the fields it matches in. */
type TermMatches = ReadonlyArray<readonly [WikiEntry, readonly MatchField[]]>;

/**
 * Matches a catalog keeps (a batch asks about the same words again and again), counted in matched
 * pages over all terms kept: past it, the store starts afresh.
 */
const KEPT_MATCHES = 1_000_000;
const keptMatches = new WeakMap<WikiCatalog, { terms: Map<string, TermMatches>; size: number }>();

/**
 * The pages a term matches by the seed's rules, worked out once per catalog and term (the catalog
 * does not change; a term's pattern depends only on its normalised text, `pattern.raw`).
 */
function termMatches(catalog: WikiCatalog, pattern: TermPattern): TermMatches {
  let kept = keptMatches.get(catalog);
  if (!kept) keptMatches.set(catalog, (kept = { terms: new Map(), size: 0 }));
  let matches = kept.terms.get(pattern.raw);
  if (matches === undefined) {
    matches = catalog.mayMatch(pattern).flatMap((entry) => {
      const fields = matchFields(entry, pattern);
      return fields.length > 0 ? [[entry, fields] as const] : [];
    });
    if (kept.size + matches.length > KEPT_MATCHES) [kept.terms, kept.size] = [new Map(), 0];
    kept.terms.set(pattern.raw, matches);
    kept.size += matches.length;
  }
  return matches;
}

/** How many pages a term matches: the corpus statistic behind the "too common" rule. */
export function documentFrequency(catalog: WikiCatalog, pattern: TermPattern): number {
  return termMatches(catalog, pattern).length;
}

export interface CandidateTerm {
  term: string;
  /** An expanded term stands for this one page: it matches that page's title and no other page. */
  page?: string;
}

/**
 * The seed's order among candidates: distinct terms matched desc, (term, field) hits desc, title
 * length asc, title, path. The ranking orders by relevance; this settles its ties.
 */
export function compareGateCandidates(a: Candidate, b: Candidate): number {
  const distinct = (c: Candidate) => new Set(c.matched.map((m) => m.term)).size;
  return (
    distinct(b) - distinct(a) ||
    b.matched.length - a.matched.length ||
    codePointLength(a.title) - codePointLength(b.title) ||
    compareCodePoints(a.title.toLowerCase(), b.title.toLowerCase()) ||
    compareCodePoints(a.path, b.path)
  );
}

/**
 * Every page matched by any term (the ladder ranks them), each with its matches in term order. A
 * term is tried only on the entries that may match it, not on every entry another term reached.
 */
export function findCandidates(catalog: WikiCatalog, terms: readonly CandidateTerm[]): Candidate[] {
  const matches = new Map<WikiEntry, TermMatch[]>();
  const add = (entry: WikiEntry, term: string, fields: readonly MatchField[]) => {
    if (fields.length === 0) return;
    const list = matches.get(entry) ?? [];
    for (const field of fields) list.push({ term, field });
    matches.set(entry, list);
  };
  for (const { term, page } of terms) {
    if (page !== undefined) add(catalog.byPath.get(page)!, term, ['title']);
    else {
      for (const [entry, fields] of termMatches(catalog, termPattern(term))) add(entry, term, fields);
    }
  }
  return [...matches].map(([entry, matched]) => ({ path: entry.path, title: entry.title, matched }));
}
