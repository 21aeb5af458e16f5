// Fielded relevance (BM25F): how well a page's title, aliases, tags, summary, headings, the texts of
// links pointing at it and its body match a weighted bag of query words. Statistics (document
// frequencies, average field lengths) come from the catalog, and each (word, page) pair's weighted,
// length-normalised frequency is computed once at load, so a question costs one pass over the
// postings of its own words.
import { foldWord } from './text-match.js';
import { lowerBound } from './sorted-search.js';
import { defineKnobs } from './tuning.js';
import { WordIds, withRoomFor } from './word-ids.js';

export const FIELDS = ['title', 'aliases', 'tags', 'summary', 'headings', 'links', 'body'] as const;
export type Field = (typeof FIELDS)[number];
type ShortField = Exclude<Field, 'body'>;
const SHORT_FIELDS = FIELDS.filter((field): field is ShortField => field !== 'body');

const evenly = (value: number): Readonly<Record<Field, number>> => Object.fromEntries(FIELDS.map((field) => [field, value])) as Record<Field, number>;
/**
 * FIELD_WEIGHTS: how much one occurrence in each field counts against one in the body. A title or
 * alias names the page; tags and link texts are what others call it; headings and summary say what
 * it covers.
 * K1: BM25's saturation: the tenth mention of a word adds little over the third. Higher than the
 * textbook 1.2 because fields are summed first: a word in the title and the body should not
 * saturate at once.
 * Off, each is stock BM25's choice (every field alike, k1 1.2). Length normalisation is stock BM25's
 * b, 0.75, in every field: per-field values earned nothing on the development banks (eval/ABLATIONS.md).
 */
/** BM25's b: how much a field's length beyond the average lowers each of its words' weight. */
const LENGTH_NORMALISATION = 0.75;

const BM25F = defineKnobs('ladder/relevance', {
  FIELD_WEIGHTS: {
    value: { title: 6, aliases: 5, tags: 3, summary: 3, headings: 2, links: 2, body: 1 } as Readonly<Record<Field, number>>,
    off: evenly(1),
    means: 'field weights (title 6, aliases 5, tags and summary 3, headings and links 2, body 1)',
  },
  K1: { value: 2, off: 1.2, means: "BM25's k1 over the summed fields" },
});

/**
 * Every (word, page) posting, grouped by folded word id (compressed rows): the pages holding word w
 * are entries[offsets[w] … offsets[w + 1]), ascending, each with Σ over fields of weight × frequency
 * ÷ length normalisation in pseudoFrequencies. Three typed arrays instead of two JS arrays per word:
 * a 10,000-page wiki has millions of postings, and the garbage collector never walks typed arrays.
 */
export interface Postings {
  offsets: Int32Array;
  entries: Int32Array;
  pseudoFrequencies: Float64Array;
}

export interface RelevanceIndex {
  size: number;
  /** Pages holding the folded word in any field. */
  documentFrequency(word: string): number;
  /** Inverse document frequency of a folded word (0 for a word no page holds). */
  idf(word: string): number;
  /** Scores every page holding any query word; weights multiply each word's contribution. */
  score(query: ReadonlyMap<string, number>): PageScores;
  /** Whether any page holds every one of these folded words (in any fields). */
  anyPageHoldsAll(words: readonly string[]): boolean;
  /** Which of these folded words the page holds in any field. */
  wordsIn(entry: number, words: readonly string[]): string[];
  /** Pages whose title, aliases, tags, summary or headings hold the folded word: how common it is as a name. */
  namingFrequency(word: string): number;
  /** What the index is made of, for the catalog cache to keep (see restoredRelevance). */
  parts(): RelevanceParts;
}

/**
 * What `score` gives: the pages a query's words touched, each with its score, in the order first
 * touched. Typed arrays, not a Map: on a large wiki thousands of pages score, twice a question, and a
 * Map of them was a tenth of what a warm question allocated.
 */
export interface PageScores {
  /** How many pages scored. */
  readonly size: number;
  /** The page's score: 0 for one the query did not touch (a touched page scores above 0). */
  of(entry: number): number;
  /** The k-th page to score (0 ≤ k < size), in the order first touched. */
  page(k: number): number;
}

/** An index as kept: the folded words by id, the postings over them, and each word's naming frequency. */
export interface RelevanceParts {
  vocabulary: readonly string[];
  postings: Postings;
  naming: Int32Array<ArrayBuffer>;
}

/**
 * A page's short fields counted, in SHORT_FIELDS order: field f's words are ids[ends[f - 1] … ends[f])
 * (from 0 for the first) with their occurrences in counts, and lengths[f] is its length in words.
 */
export interface FieldCounts {
  ids: Int32Array<ArrayBuffer>;
  counts: Int32Array<ArrayBuffer>;
  ends: Int32Array<ArrayBuffer>;
  lengths: Int32Array<ArrayBuffer>;
}

/** One field of one page, counted: folded word ids with their occurrences, and its length in words. */
export interface BodyCounts {
  /** Own buffers when counted (a worker thread transfers them); a kept snapshot's are views of its file. */
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
   * `stopwords` (the ladder's builtinStopwords()) are counted in lengths, never indexed. Passed in
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
  /** Words seen by the current tally (stopwords included: they count in lengths). */
  private seen = 0;
  /** Tallies one word, by id (a field, not a closure per text: it is called for every word of every page). */
  private readonly tallyWord = (id: number): void => {
    this.seen++;
    const folded = this.foldedIdOf(id);
    if (folded < 0) return;
    if (this.tally[folded]!++ === 0) this.touched.push(folded);
  };

  countBody(text: string): BodyCounts {
    const length = this.tallyWords([text], true);
    const ids = Int32Array.from(this.touched);
    const counts = ids.map((id) => this.tally[id]!);
    this.clearTally();
    return { ids, counts, length };
  }

  /** Counts a page's short fields (title, aliases, tags, summary, headings, link texts), field by field. */
  countFields(fields: Readonly<Record<ShortField, readonly string[]>>): FieldCounts {
    const ids: number[] = [];
    const counts: number[] = [];
    const ends = new Int32Array(SHORT_FIELDS.length);
    const lengths = new Int32Array(SHORT_FIELDS.length);
    SHORT_FIELDS.forEach((field, f) => {
      lengths[f] = this.tallyWords(fields[field], false);
      for (const id of this.touched) {
        ids.push(id);
        counts.push(this.tally[id]!);
      }
      this.clearTally();
      ends[f] = ids.length;
    });
    return { ids: Int32Array.from(ids), counts: Int32Array.from(counts), ends, lengths };
  }

  /** Tallies the texts' folded words into `tally` / `touched`; returns how many words they have. */
  private tallyWords(texts: readonly string[], skipLinkTargets: boolean): number {
    this.seen = 0;
    for (const text of texts) this.ids.scan(text, this.tallyWord, skipLinkTargets);
    return this.seen;
  }

  private clearTally(): void {
    for (const id of this.touched) this.tally[id] = 0;
    this.touched.length = 0;
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

  /**
   * Ids counted by another counter over `vocabulary` (a kept snapshot's) as this counter's: each
   * word gets its id here on first sight, so only the words still in use are carried over.
   */
  remapper(vocabulary: readonly string[]): (ids: Int32Array) => Int32Array<ArrayBuffer> {
    const here = new Int32Array(vocabulary.length).fill(-1);
    // A plain loop: a callback per id costs more than the lookup (millions of ids on a large wiki).
    return (ids) => {
      const out = new Int32Array(ids.length);
      for (let k = 0; k < ids.length; k++) {
        const id = ids[k]!;
        if (here[id]! < 0) here[id] = this.foldedIdFor(vocabulary[id]!);
        out[k] = here[id]!;
      }
      return out;
    };
  }

  /** The index over the pages, in entry order: their short fields and bodies, counted by this counter. */
  build(pages: ReadonlyArray<{ fields: FieldCounts; body: BodyCounts }>): RelevanceIndex {
    const n = pages.length;
    const average = (total: number) => (n === 0 ? 1 : Math.max(1, total / n));
    const shareOf = (weight: number, length: number, averageLength: number) =>
      weight / (1 - LENGTH_NORMALISATION + (LENGTH_NORMALISATION * length) / averageLength);
    const shortAverages = SHORT_FIELDS.map((_, f) => average(pages.reduce((sum, page) => sum + page.fields.lengths[f]!, 0)));
    const bodyAverage = average(pages.reduce((sum, page) => sum + page.body.length, 0));
    // Postings come out page by page, then a counting sort by word groups them, keeping each word's
    // pages in entry order. A page's posting of a word is made where the word is first met, and the
    // word's later fields add to it there (`slot`): each sum takes its fields in the same order.
    const vocabularySize = this.foldedWordsById.length;
    const slot = new Int32Array(vocabularySize).fill(-1);
    // At most one posting per word counted in a field of a page: room for all of them at once.
    const room = pages.reduce((sum, page) => sum + page.fields.ids.length + page.body.ids.length, 0);
    const words = new Int32Array(room);
    const entries = new Int32Array(room);
    const frequencies = new Float64Array(room);
    let size = 0;
    const add = (ids: Int32Array, counts: Int32Array, from: number, to: number, share: number, entry: number) => {
      for (let k = from; k < to; k++) {
        const word = ids[k]!;
        const amount = counts[k]! * share;
        const at = slot[word]!;
        if (at >= 0) frequencies[at] = frequencies[at]! + amount;
        else {
          slot[word] = size;
          words[size] = word;
          entries[size] = entry;
          frequencies[size++] = amount;
        }
      }
    };
    const weights = SHORT_FIELDS.map((field) => BM25F.FIELD_WEIGHTS[field]);
    const bodyWeight = BM25F.FIELD_WEIGHTS.body;
    for (let entry = 0; entry < n; entry++) {
      const { fields, body } = pages[entry]!;
      const first = size;
      for (let f = 0; f < SHORT_FIELDS.length; f++) {
        if (fields.lengths[f] === 0) continue;
        add(fields.ids, fields.counts, f === 0 ? 0 : fields.ends[f - 1]!, fields.ends[f]!, shareOf(weights[f]!, fields.lengths[f]!, shortAverages[f]!), entry);
      }
      if (body.length > 0) add(body.ids, body.counts, 0, body.ids.length, shareOf(bodyWeight, body.length, bodyAverage), entry);
      for (let k = first; k < size; k++) slot[words[k]!] = -1;
    }
    const offsets = new Int32Array(vocabularySize + 1);
    for (let k = 0; k < size; k++) offsets[words[k]! + 1]!++;
    for (let w = 0; w < vocabularySize; w++) offsets[w + 1]! += offsets[w]!;
    const next = offsets.slice(0, vocabularySize);
    const postings: Postings = { offsets, entries: new Int32Array(size), pseudoFrequencies: new Float64Array(size) };
    for (let k = 0; k < size; k++) {
      const at = next[words[k]!]!++;
      postings.entries[at] = entries[k]!;
      postings.pseudoFrequencies[at] = frequencies[k]!;
    }
    return relevanceIndex(pages.length, this.foldedWordsById, this.foldedIds, postings, namingFrequencies(pages, vocabularySize));
  }
}

/** The fields that name a page (what it is called and what it covers): all but link texts and the body. */
const NAMING_FIELDS = SHORT_FIELDS.map((field, f) => [field, f] as const).filter(([field]) => field !== 'links');

/** Folded id → how many pages hold the word in a naming field. */
function namingFrequencies(pages: ReadonlyArray<{ fields: FieldCounts }>, vocabularySize: number): Int32Array<ArrayBuffer> {
  const naming = new Int32Array(vocabularySize);
  const lastPage = new Int32Array(vocabularySize).fill(-1);
  pages.forEach(({ fields: { ids, ends } }, entry) => {
    for (const [, f] of NAMING_FIELDS) {
      for (let k = f === 0 ? 0 : ends[f - 1]!; k < ends[f]!; k++) {
        const id = ids[k]!;
        if (lastPage[id] === entry) continue;
        lastPage[id] = entry;
        naming[id]!++;
      }
    }
  });
  return naming;
}

/** The index `parts()` gave, over `n` pages: the same answers to every question. */
export function restoredRelevance(n: number, { vocabulary, postings, naming }: RelevanceParts): RelevanceIndex {
  return relevanceIndex(n, vocabulary, new Map(vocabulary.map((word, id) => [word, id])), postings, naming);
}

function relevanceIndex(
  n: number,
  vocabulary: readonly string[],
  wordIds: ReadonlyMap<string, number>,
  postings: Postings,
  naming: Int32Array<ArrayBuffer>,
): RelevanceIndex {
  const { offsets, entries, pseudoFrequencies } = postings;
  /** The postings range [from, to) of a folded word (empty for a word no page holds). */
  const range = (word: string): [number, number] => {
    const id = wordIds.get(word);
    return id === undefined ? [0, 0] : [offsets[id]!, offsets[id + 1]!];
  };
  const documentFrequency = (word: string) => {
    const [from, to] = range(word);
    return to - from;
  };
  const idf = (word: string) => {
    const df = documentFrequency(word);
    return df === 0 ? 0 : Math.log(1 + (n - df + 0.5) / (df + 0.5));
  };
  /** Whether a page holds the word: a binary search of the word's (ascending) pages. */
  const holds = (entry: number, word: string) => {
    const id = wordIds.get(word);
    if (id === undefined) return false;
    const to = offsets[id + 1]!;
    const at = lowerBound(offsets[id]!, to, (k) => entries[k]! < entry);
    return at < to && entries[at] === entry;
  };
  return {
    size: n,
    documentFrequency,
    idf,
    score(query) {
      const values = new Float64Array(n);
      const order = new Int32Array(n);
      let size = 0;
      for (const [word, weight] of query) {
        const [from, to] = range(word);
        if (from === to || weight <= 0) continue;
        const w = weight * idf(word);
        for (let k = from; k < to; k++) {
          const entry = entries[k]!;
          const pf = pseudoFrequencies[k]!;
          if (values[entry] === 0) order[size++] = entry;
          values[entry] = values[entry]! + (w * pf) / (BM25F.K1 + pf);
        }
      }
      return {
        size,
        of: (entry) => values[entry] ?? 0,
        page: (k) => order[k]!,
      };
    },
    anyPageHoldsAll(words) {
      if (words.length === 0) return false;
      const [rarest, ...rest] = [...words].sort((a, b) => documentFrequency(a) - documentFrequency(b));
      const [from, to] = range(rarest!);
      for (let k = from; k < to; k++) if (rest.every((word) => holds(entries[k]!, word))) return true;
      return false;
    },
    wordsIn: (entry, words) => words.filter((word) => holds(entry, word)),
    namingFrequency(word) {
      const id = wordIds.get(word);
      return id === undefined ? 0 : naming[id]!;
    },
    parts: () => ({ vocabulary, postings, naming }),
  };
}
