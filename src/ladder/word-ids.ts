// Words as small integers, assigned as text is scanned. The catalog reads every page body at load:
// a string per word occurrence (tens of millions on a large wiki) cost more in allocation and
// garbage collection than the counting itself, so a word already seen is recognised in place,
// by a hash of its lowercased characters and a character comparison, with no string made.
import { normalize } from './text-match.js';

const WORD_RUN = /[\p{L}\p{N}]+/gu;
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
/** ASCII letters and digits, by char code. */
const ASCII_WORD_CHAR = Uint8Array.from({ length: 128 }, (_, c) => Number((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)));
/** Whether the character at `i` (a code unit ≥ 128, or a surrogate pair) is a letter or digit. */
const isWordAt = (text: string, i: number): boolean => {
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII_WORD_CHAR[c] === 1;
  return WORD_CHAR.test(String.fromCodePoint(text.codePointAt(i)!));
};
/**
 * Where a markdown link's `(target)` starting at `open` ends: past its `)` when no white space
 * comes first, else the white space or the end of the text where the target failed (negative, so
 * the caller can tell; a later `(` before that point fails there too, without scanning again).
 */
function linkTargetEnd(text: string, open: number): number {
  for (let k = open + 1; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 41) return k + 1;
    if (c <= 32) return -k;
  }
  return -text.length;
}
/** `array`, or a copy twice its length when `index` is past its end: dense per-id tables grow by doubling. */
export const withRoomFor = (array: Int32Array<ArrayBuffer>, index: number): Int32Array<ArrayBuffer> => {
  if (index < array.length) return array;
  const grown = new Int32Array(array.length * 2);
  grown.set(array);
  return grown;
};

const lower = (c: number) => (c >= 65 && c <= 90 ? c + 32 : c);
const step = (hash: number, c: number) => (Math.imul(hash, 31) + c) | 0;

export class WordIds {
  private readonly words: string[] = [];
  /** Each word's hash, by id. */
  private hashes = new Int32Array(1024);
  /**
   * Open-addressed table of id + 1 (0: empty slot), probed linearly from a word's hash: a typed
   * array lookup per word occurrence costs a fraction of a Map's.
   */
  private table = new Int32Array(4096);

  /** The lowercased word behind an id. */
  word(id: number): string {
    return this.words[id]!;
  }

  get size(): number {
    return this.words.length;
  }

  /**
   * Visits the id of each lowercased word of a text, in order: the words of `lowerWords` (runs of
   * letters and digits, NFKC-normalised), each as its id. A run with non-ASCII letters is
   * normalised on its own and split again, which gives the words of normalising the whole text. With `skipLinkTargets`, the target of a
   * markdown link (`](target)`) is passed over: a link's words count, its file name does not.
   */
  scan(text: string, visit: (id: number) => void, skipLinkTargets = false): void {
    const n = text.length;
    let i = 0;
    // A `(` before this offset starts no link target: the run it would start was already found
    // to end in white space or at the end (`[](` repeated would rescan the rest from each one).
    let noTargetBefore = 0;
    while (i < n) {
      let c = text.charCodeAt(i);
      if (c < 128 && !ASCII_WORD_CHAR[c]) {
        i++;
        if (skipLinkTargets && c === 93 && text.charCodeAt(i) === 40 && i >= noTargetBefore) {
          const end = linkTargetEnd(text, i);
          if (end > 0) i = end;
          else noTargetBefore = -end;
        }
        continue;
      }
      if (c >= 128 && !isWordAt(text, i)) {
        i += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
        continue;
      }
      // A run of letters and digits: ASCII ones hashed as they pass; a non-ASCII one sends the
      // whole run through normalisation.
      const start = i;
      let hash = 0;
      while (i < n && (c = text.charCodeAt(i)) < 128 && ASCII_WORD_CHAR[c]) {
        hash = step(hash, lower(c));
        i++;
      }
      if (i < n && c >= 128 && isWordAt(text, i)) {
        while (i < n && isWordAt(text, i)) i += text.charCodeAt(i) >= 0xd800 && text.charCodeAt(i) <= 0xdbff ? 2 : 1;
        for (const part of normalize(text.slice(start, i)).match(WORD_RUN) ?? []) visit(this.idOf(part));
      } else visit(this.idOfRun(text, start, i, hash));
    }
  }

  /** The id of a lowercased word, assigned on first sight. */
  idOf(word: string): number {
    let hash = 0;
    for (let i = 0; i < word.length; i++) hash = step(hash, word.charCodeAt(i));
    const mask = this.table.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.table[slot]! - 1;
      if (id < 0) return this.add(slot, hash, word);
      if (this.hashes[id] === hash && this.words[id] === word) return id;
    }
  }

  /** The id of the ASCII run text[start, end) lowercased, hashed as it was scanned (no string made for a known word). */
  private idOfRun(text: string, start: number, end: number, hash: number): number {
    const mask = this.table.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.table[slot]! - 1;
      if (id < 0) return this.add(slot, hash, text.slice(start, end).toLowerCase());
      if (this.hashes[id] === hash && this.sameRun(id, text, start, end)) return id;
    }
  }

  private sameRun(id: number, text: string, start: number, end: number): boolean {
    const word = this.words[id]!;
    if (word.length !== end - start) return false;
    for (let k = 0; k < word.length; k++) if (word.charCodeAt(k) !== lower(text.charCodeAt(start + k))) return false;
    return true;
  }

  /** Stores a new word in the empty slot its probe reached, growing the table past half full. */
  private add(slot: number, hash: number, word: string): number {
    const id = this.words.length;
    this.words.push(word);
    this.hashes = withRoomFor(this.hashes, id);
    this.hashes[id] = hash;
    this.table[slot] = id + 1;
    if (this.words.length * 2 > this.table.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2);
    const mask = table.length - 1;
    for (let id = 0; id < this.words.length; id++) {
      let slot = this.hashes[id]! & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = id + 1;
    }
    this.table = table;
  }
}
