// Which entries hold a folded word in some of their fields, as compressed rows over the words in
// sorted order (the words a prefix starts are one run, found by binary search), built once per load
// and kept in the catalog's snapshot. Two serve the ladder: the words of titles, summaries and tags
// (step B's first cut, so a term is matched against a handful of entries instead of all of them),
// and the words of aliases and link texts (the entries whose phrases a question may spell out).
import { lowerBound } from './sorted-search.js';
import { type TermPattern, foldedWords } from './text-match.js';
import type { WikiEntry } from './wiki-entry.js';

/** Entries holding words[w] are entries[offsets[w] … offsets[w + 1]), ascending; words ascend. */
export interface WordIndex {
  words: readonly string[];
  offsets: Int32Array<ArrayBuffer>;
  entries: Int32Array<ArrayBuffer>;
}

/** The folded words of an entry's title, summary and tags. */
export const nameWords = (entry: WikiEntry): string[] => [
  ...entry.folded.title.words,
  ...entry.folded.summary.words,
  ...entry.tags.flatMap((t) => foldedWords(t)),
];

/** The folded words of an entry's aliases and the texts of links to it. */
export const phraseWords = (entry: WikiEntry): string[] => [...entry.aliases, ...entry.linkTexts].flatMap((t) => foldedWords(t));

export function buildWordIndex(entries: readonly WikiEntry[], wordsOf: (entry: WikiEntry, position: number) => readonly string[]): WordIndex {
  const byWord = new Map<string, number[]>();
  entries.forEach((entry, i) => {
    for (const word of new Set(wordsOf(entry, i))) {
      const list = byWord.get(word);
      if (list) list.push(i);
      else byWord.set(word, [i]);
    }
  });
  const words = [...byWord.keys()].sort();
  const offsets = new Int32Array(words.length + 1);
  words.forEach((word, w) => (offsets[w + 1] = offsets[w]! + byWord.get(word)!.length));
  const held = new Int32Array(offsets[words.length]!);
  words.forEach((word, w) => held.set(byWord.get(word)!, offsets[w]!));
  return { words, offsets, entries: held };
}

/**
 * The index `kept` with the entries at the positions of `rebuilt` holding the words given there
 * instead of what they held: what buildWordIndex gives over the same entries, without going
 * through every entry's words (a load that rebuilt a few entries of thousands).
 */
export function patchedWordIndex(kept: WordIndex, rebuilt: ReadonlyMap<number, readonly string[]>): WordIndex {
  // Each word's rebuilt holders, ascending.
  const added = new Map<string, number[]>();
  for (const at of [...rebuilt.keys()].sort((a, b) => a - b)) {
    for (const word of new Set(rebuilt.get(at))) {
      const list = added.get(word);
      if (list) list.push(at);
      else added.set(word, [at]);
    }
  }
  const keptAt = new Map(kept.words.map((word, w) => [word, w]));
  const rows: Array<[string, number[]]> = [];
  for (const word of [...new Set([...kept.words, ...added.keys()])].sort()) {
    const w = keptAt.get(word);
    const held: number[] = [];
    if (w !== undefined) for (let k = kept.offsets[w]!; k < kept.offsets[w + 1]!; k++) if (!rebuilt.has(kept.entries[k]!)) held.push(kept.entries[k]!);
    const merged = added.has(word) ? [...held, ...added.get(word)!].sort((a, b) => a - b) : held;
    if (merged.length > 0) rows.push([word, merged]);
  }
  const offsets = new Int32Array(rows.length + 1);
  rows.forEach(([, held], w) => (offsets[w + 1] = offsets[w]! + held.length));
  const entries = new Int32Array(offsets[rows.length]!);
  rows.forEach(([, held], w) => entries.set(held, offsets[w]!));
  return { words: rows.map(([word]) => word), offsets, entries };
}

/** Each of `count` entries' words in the index (distinct, in the index's order), by position: the index read back. */
export function wordsByEntry({ words, offsets, entries }: WordIndex, count: number): string[][] {
  const byEntry = Array.from({ length: count }, (): string[] => []);
  for (let w = 0; w < words.length; w++) for (let k = offsets[w]!; k < offsets[w + 1]!; k++) byEntry[entries[k]!]!.push(words[w]!);
  return byEntry;
}

/** Whether a kept index is well formed over `count` entries (untrusted: a snapshot is read from disk). */
export function wordIndexHolds({ words, offsets, entries }: WordIndex, count: number): boolean {
  if (offsets.length !== words.length + 1 || offsets[0] !== 0 || offsets[words.length] !== entries.length) return false;
  for (let w = 0; w < words.length; w++) {
    if (offsets[w + 1]! < offsets[w]! || (w > 0 && !(words[w - 1]! < words[w]!))) return false;
    for (let k = offsets[w]!; k < offsets[w + 1]!; k++) {
      const entry = entries[k]!;
      if (entry < 0 || entry >= count || (k > offsets[w]! && entry <= entries[k - 1]!)) return false;
    }
  }
  return true;
}

/**
 * The entries that may match a term (a superset, in entry order): those holding every word of it,
 * the last word (of four letters or more) as the start of a word. A term with no words, or in a
 * script written without spaces, may match any entry.
 */
export function entriesThatMayMatch(index: WordIndex, all: readonly WikiEntry[], pattern: TermPattern): readonly WikiEntry[] {
  if (pattern.noSpaceScript || pattern.words.length === 0) return all;
  const { words, offsets, entries } = index;
  let hits: Set<number> | undefined;
  pattern.words.forEach((word, i) => {
    const prefix = i === pattern.words.length - 1 && word.length >= 4;
    const here = new Set<number>();
    for (let w = positionOf(index, word); w < words.length && (prefix ? words[w]!.startsWith(word) : words[w] === word); w++) {
      for (let k = offsets[w]!; k < offsets[w + 1]!; k++) here.add(entries[k]!);
      if (!prefix) break;
    }
    hits = hits ? new Set([...hits].filter((e) => here.has(e))) : here;
  });
  return [...hits!].sort((a, b) => a - b).map((i) => all[i]!);
}

/** Where `word` is, or would be, among the index's words. */
const positionOf = ({ words }: WordIndex, word: string): number => lowerBound(0, words.length, (k) => words[k]! < word);

/** The entries (by position, ascending) holding the folded word. */
export function entriesHolding(index: WordIndex, word: string): Int32Array {
  const at = positionOf(index, word);
  return index.words[at] === word ? index.entries.subarray(index.offsets[at]!, index.offsets[at + 1]!) : new Int32Array(0);
}
