// Fielded relevance (BM25F): how well a page's title, aliases, tags, summary, headings, the texts of
// links pointing at it and its body match a weighted bag of query words. Statistics (document
// frequencies, average field lengths) come from the catalog, and each (word, page) pair's weighted,
// length-normalised frequency is computed once at load, so a question costs one pass over the
// postings of its own words.
import { BUILTIN_STOPWORDS } from './signal-terms.js';
import { foldWord, forEachLowerWord } from './text-match.js';

export const FIELDS = ['title', 'aliases', 'tags', 'summary', 'headings', 'links', 'body'] as const;
export type Field = (typeof FIELDS)[number];

/**
 * How much one occurrence in each field counts against one in the body. A title or alias names the
 * page; tags and link texts are what others call it; headings and summary say what it covers.
 */
export const FIELD_WEIGHTS: Readonly<Record<Field, number>> = { title: 6, aliases: 5, tags: 3, summary: 3, headings: 2, links: 2, body: 1 };
/**
 * Length normalisation per field (BM25's b): long bodies are not better for being long, while
 * titles and tags are short by nature and barely normalised.
 */
const LENGTH_NORMALISATION: Readonly<Record<Field, number>> = { title: 0.3, aliases: 0.3, tags: 0.2, summary: 0.5, headings: 0.5, links: 0.5, body: 0.75 };
/**
 * BM25's saturation: the tenth mention of a word adds little over the third. Higher than the
 * textbook 1.2 because fields are summed first: a word in the title and the body should not saturate
 * at once (measured on both banks: recall@5 and @10 rise, @1 holds).
 */
const K1 = 2;

export type FieldTexts = Readonly<Record<Field, readonly string[]>>;

interface Posting {
  entry: number;
  /** Σ over fields of weight × frequency ÷ length normalisation. */
  pseudoFrequency: number;
}

export interface RelevanceIndex {
  size: number;
  /** Pages holding the folded word in any field. */
  documentFrequency(word: string): number;
  /** Inverse document frequency of a folded word (0 for a word no page holds). */
  idf(word: string): number;
  /** Scores every page holding any query word; weights multiply each word's contribution. */
  score(query: ReadonlyMap<string, number>): Map<number, number>;
  /** Whether any page holds every one of these folded words (in any fields). */
  anyPageHoldsAll(words: readonly string[]): boolean;
  /** Which of these folded words the page holds in any field. */
  wordsIn(entry: number, words: readonly string[]): string[];
}

/** Builds the index from each page's field texts, in entry order. */
export function buildRelevanceIndex(pages: readonly FieldTexts[]): RelevanceIndex {
  // Pass 1: each field's word counts and length per page (the body is counted, never kept as words).
  const counted = pages.map((page) => {
    const out = {} as Record<Field, { counts: Map<string, number>; length: number }>;
    for (const field of FIELDS) {
      const counts = new Map<string, number>();
      let length = 0;
      const count = (word: string) => {
        length++;
        // Stopwords never reach a query (extraction drops them): counted in the length, not indexed.
        if (BUILTIN_STOPWORDS.has(word)) return;
        const folded = foldWord(word);
        counts.set(folded, (counts.get(folded) ?? 0) + 1);
      };
      for (const text of page[field]) forEachLowerWord(text, count);
      out[field] = { counts, length };
    }
    return out;
  });
  const averageLength = {} as Record<Field, number>;
  for (const field of FIELDS) {
    const total = counted.reduce((sum, f) => sum + f[field].length, 0);
    averageLength[field] = counted.length === 0 ? 1 : Math.max(1, total / counted.length);
  }
  // Pass 2: one posting per (word, page) with the fields' weighted, length-normalised frequencies.
  const postings = new Map<string, Posting[]>();
  counted.forEach((fields, entry) => {
    const weighted = new Map<string, number>();
    for (const field of FIELDS) {
      const { counts, length } = fields[field];
      if (length === 0) continue;
      const b = LENGTH_NORMALISATION[field];
      const share = FIELD_WEIGHTS[field] / (1 - b + (b * length) / averageLength[field]);
      for (const [word, count] of counts) weighted.set(word, (weighted.get(word) ?? 0) + count * share);
    }
    for (const [word, pseudoFrequency] of weighted) {
      const list = postings.get(word);
      if (list) list.push({ entry, pseudoFrequency });
      else postings.set(word, [{ entry, pseudoFrequency }]);
    }
  });
  const n = pages.length;
  const idf = (word: string) => {
    const df = postings.get(word)?.length ?? 0;
    return df === 0 ? 0 : Math.log(1 + (n - df + 0.5) / (df + 0.5));
  };
  return {
    size: n,
    documentFrequency: (word) => postings.get(word)?.length ?? 0,
    idf,
    score(query) {
      const scores = new Map<number, number>();
      for (const [word, weight] of query) {
        const list = postings.get(word);
        if (!list || weight <= 0) continue;
        const w = weight * idf(word);
        for (const { entry, pseudoFrequency } of list) {
          scores.set(entry, (scores.get(entry) ?? 0) + (w * pseudoFrequency) / (K1 + pseudoFrequency));
        }
      }
      return scores;
    },
    anyPageHoldsAll(words) {
      const lists = words.map((w) => postings.get(w) ?? []).sort((a, b) => a.length - b.length);
      if (lists.length === 0 || lists[0]!.length === 0) return false;
      const rest = lists.slice(1).map((list) => new Set(list.map((p) => p.entry)));
      return lists[0]!.some((p) => rest.every((set) => set.has(p.entry)));
    },
    wordsIn: (entry, words) => words.filter((word) => postings.get(word)?.some((p) => p.entry === entry)),
  };
}
