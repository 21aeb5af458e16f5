// Fielded relevance (BM25F): how well a page's title, aliases, tags, summary, headings, the texts of
// links pointing at it and its body match a weighted bag of query words. Statistics (document
// frequencies, average field lengths) come from the catalog, and each (word, page) pair's weighted,
// length-normalised frequency is computed once at load, so a question costs one pass over the
// postings of its own words.
import { foldWord } from './text-match.js';
import { WordIds, withRoomFor } from './word-ids.js';

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

/** Pages holding one folded word, in entry order, with Σ over fields of weight × frequency ÷ length normalisation. */
interface Postings {
  entries: number[];
  pseudoFrequencies: number[];
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

/** One field of one page, counted: folded word ids with their occurrences, and its length in words. */
export interface BodyCounts {
  /** Own buffers (never shared), so a worker thread can transfer them. */
  ids: Int32Array<ArrayBuffer>;
  counts: Int32Array<ArrayBuffer>;
  length: number;
}

/**
 * Counts words for the index: page bodies as the catalog reads them (so no body text is kept),
 * then the short fields once every page's title and summary are known, then builds the index.
 */
export class RelevanceCounter {
  /**
   * `stopwords` (the ladder's BUILTIN_STOPWORDS) are counted in lengths, never indexed. Passed in
   * so the catalog's worker bundle leaves out the stopword lists' module (300 KB of the Action's
   * size budget) and takes the words in its start-up data.
   */
  constructor(private readonly stopwords: ReadonlySet<string>) {}

  private readonly ids = new WordIds();
  private readonly foldedIds = new Map<string, number>();
  private readonly foldedWordsById: string[] = [];
  /** Word id → folded id, or -1 for a stopword (never in a query: counted in lengths, not indexed). */
  private readonly folding: number[] = [];
  /** Occurrences per folded id for the text being counted, and which ids it touched. */
  private tally = new Int32Array(1024);
  private readonly touched: number[] = [];

  countBody(text: string): BodyCounts {
    return this.count([text], true);
  }

  private count(texts: readonly string[], skipLinkTargets = false): BodyCounts {
    let length = 0;
    const visit = (id: number) => {
      length++;
      const folded = this.foldedIdOf(id);
      if (folded < 0) return;
      if (this.tally[folded]!++ === 0) this.touched.push(folded);
    };
    for (const text of texts) this.ids.scan(text, visit, skipLinkTargets);
    const ids = Int32Array.from(this.touched);
    const counts = ids.map((id) => this.tally[id]!);
    for (const id of this.touched) this.tally[id] = 0;
    this.touched.length = 0;
    return { ids, counts, length };
  }

  private foldedIdOf(id: number): number {
    let folded = this.folding[id];
    if (folded === undefined) {
      const word = this.ids.word(id);
      folded = this.stopwords.has(word) ? -1 : this.foldedIdFor(foldWord(word));
      this.folding[id] = folded;
    }
    return folded;
  }

  /** The id of a folded word, assigned on first sight. */
  private foldedIdFor(key: string): number {
    let folded = this.foldedIds.get(key);
    if (folded === undefined) {
      folded = this.foldedWordsById.length;
      this.foldedIds.set(key, folded);
      this.foldedWordsById.push(key);
      this.tally = withRoomFor(this.tally, folded);
    }
    return folded;
  }

  /** The folded words counted so far, by folded id (what counted bodies' `ids` refer to). */
  vocabulary(): string[] {
    return [...this.foldedWordsById];
  }

  /**
   * Takes in another counter's vocabulary (bodies counted elsewhere, e.g. in a worker thread):
   * its folded id → this counter's. Words new here get ids in the other's order, so adopting the
   * chunks of a wiki in order assigns the ids that counting its pages here in order would.
   */
  adopt(vocabulary: readonly string[]): Int32Array {
    return Int32Array.from(vocabulary, (word) => this.foldedIdFor(word));
  }

  /** The index over the pages, in entry order: their short fields' texts and their counted bodies. */
  build(pages: ReadonlyArray<{ fields: Readonly<Record<Exclude<Field, 'body'>, readonly string[]>>; body: BodyCounts }>): RelevanceIndex {
    const counted = pages.map((page) => {
      const out = { body: page.body } as Record<Field, BodyCounts>;
      for (const field of FIELDS) if (field !== 'body') out[field] = this.count(page.fields[field]);
      return out;
    });
    const averageLength = {} as Record<Field, number>;
    for (const field of FIELDS) {
      const total = counted.reduce((sum, f) => sum + f[field].length, 0);
      averageLength[field] = counted.length === 0 ? 1 : Math.max(1, total / counted.length);
    }
    // One posting per (word, page) with the fields' weighted, length-normalised frequencies, summed
    // in a dense scratch array (a Map per page cost more than the sums).
    const postingsById: Postings[] = this.foldedWordsById.map(() => ({ entries: [], pseudoFrequencies: [] }));
    const sums = new Float64Array(this.foldedWordsById.length);
    const touched: number[] = [];
    counted.forEach((fields, entry) => {
      for (const field of FIELDS) {
        const { ids, counts, length } = fields[field];
        if (length === 0) continue;
        const b = LENGTH_NORMALISATION[field];
        const share = FIELD_WEIGHTS[field] / (1 - b + (b * length) / averageLength[field]);
        for (let k = 0; k < ids.length; k++) {
          const word = ids[k]!;
          if (sums[word] === 0) touched.push(word);
          sums[word] = sums[word]! + counts[k]! * share;
        }
      }
      for (const word of touched) {
        const list = postingsById[word]!;
        list.entries.push(entry);
        list.pseudoFrequencies.push(sums[word]!);
        sums[word] = 0;
      }
      touched.length = 0;
    });
    return relevanceIndex(pages.length, new Map(this.foldedWordsById.map((word, id) => [word, postingsById[id]!])));
  }
}

function relevanceIndex(n: number, postings: ReadonlyMap<string, Postings>): RelevanceIndex {
  const documentFrequency = (word: string) => postings.get(word)?.entries.length ?? 0;
  const idf = (word: string) => {
    const df = documentFrequency(word);
    return df === 0 ? 0 : Math.log(1 + (n - df + 0.5) / (df + 0.5));
  };
  return {
    size: n,
    documentFrequency,
    idf,
    score(query) {
      const scores = new Map<number, number>();
      for (const [word, weight] of query) {
        const list = postings.get(word);
        if (!list || weight <= 0) continue;
        const w = weight * idf(word);
        list.entries.forEach((entry, k) => {
          const pf = list.pseudoFrequencies[k]!;
          scores.set(entry, (scores.get(entry) ?? 0) + (w * pf) / (K1 + pf));
        });
      }
      return scores;
    },
    anyPageHoldsAll(words) {
      const lists = words.map((w) => postings.get(w)?.entries ?? []).sort((a, b) => a.length - b.length);
      if (lists.length === 0 || lists[0]!.length === 0) return false;
      const rest = lists.slice(1).map((list) => new Set(list));
      return lists[0]!.some((entry) => rest.every((set) => set.has(entry)));
    },
    wordsIn: (entry, words) => words.filter((word) => postings.get(word)?.entries.includes(entry)),
  };
}
