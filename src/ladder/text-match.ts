// How words are compared everywhere in the ladder: Unicode-normalised, lowercased, split into
// letter/digit runs, and English words folded by the Porter stemmer (so "hooks", "hooked" and
// "hook" meet). Words in other scripts are compared as written; runs of CJK ideographs, which have
// no spaces between words, match anywhere inside a field.
import { stemmer } from 'stemmer';
import { defineKnobs } from './tuning.js';

const WORD = /[\p{L}\p{N}]+/gu;
const ASCII_WORD = /^[a-z]+$/;
const NO_SPACE_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

/** ASCII text is its own NFKC form, and its words are ASCII letter and digit runs: the fast path. */
const ASCII_TEXT = /^[\x00-\x7f]*$/;
const ASCII_WORDS = /[a-z0-9]+/g;

export const normalize = (text: string): string => (ASCII_TEXT.test(text) ? text : text.normalize('NFKC')).toLowerCase();

const STEMS = new Map<string, string>();
const STEM_CACHE_LIMIT = 200_000;

/**
 * British spellings by their regular endings, in American form before stemming, so a question and a
 * page that spell a word differently meet ("colour" = "color", "centre" = "center",
 * "organisation" = "organization", "analyse" = "analyze"). Only endings no other English word
 * shares, and long enough stems ("hour", "your" and "four" keep their spelling).
 */
const BRITISH_ENDINGS: ReadonlyArray<[RegExp, string]> = [
  [/isation(s?)$/, 'ization$1'],
  [/^(\w{3,})our(s|ed|ing|ful|less|able|ite|ites)?$/, '$1or$2'],
  [/^(\w{2,})tre(s?)$/, '$1ter$2'],
  [/yse(s|d)?$/, 'yze$1'],
  [/ysing$/, 'yzing'],
];
const americanSpelling = (word: string): string =>
  FOLDING.BRITISH_SPELLING ? BRITISH_ENDINGS.reduce((w, [ending, american]) => w.replace(ending, american), word) : word;

const FOLDED = new Map<string, readonly string[]>();
const FOLDING = defineKnobs(
  'ladder/text-match',
  {
    STEMMING: { value: true, off: false, means: 'English words folded by the Porter stemmer' },
    BRITISH_SPELLING: { value: true, off: false, means: 'British spellings folded to American before stemming' },
  },
  () => {
    STEMS.clear();
    FOLDED.clear();
  },
);

/** Folds one lowercased word: Porter stem for English words (memoised), as written otherwise. */
export function foldWord(word: string): string {
  if (word.length <= 2 || !ASCII_WORD.test(word)) return word;
  let stem = STEMS.get(word);
  if (stem === undefined) {
    stem = FOLDING.STEMMING ? stemmer(americanSpelling(word)) : americanSpelling(word);
    if (STEMS.size < STEM_CACHE_LIMIT) STEMS.set(word, stem);
  }
  return stem;
}

/** The lowercased words of a text, in order: runs of letters and digits, NFKC-normalised. */
export const lowerWords = (text: string): string[] => normalize(text).match(ASCII_TEXT.test(text) ? ASCII_WORDS : WORD) ?? [];

/** Short texts (terms, tags, titles) are folded again and again: their words are memoised. */
const FOLDED_TEXT_LIMIT = 120;

/** The folded words of a text, in order. */
export function foldedWords(text: string): readonly string[] {
  if (text.length > FOLDED_TEXT_LIMIT) return lowerWords(text).map(foldWord);
  let words = FOLDED.get(text);
  if (words === undefined) {
    words = lowerWords(text).map(foldWord);
    if (FOLDED.size < STEM_CACHE_LIMIT) FOLDED.set(text, words);
  }
  return words;
}

/** A text prepared once for many term lookups. */
export interface FoldedText {
  words: readonly string[];
  /** `' ' + words.join(' ') + ' '`: contiguous word sequences become substring checks. */
  joined: string;
  /** The normalised raw text, for identifiers and no-space scripts. */
  raw: string;
}

export function foldText(text: string): FoldedText {
  const words = foldedWords(text);
  return { words, joined: ` ${words.join(' ')} `, raw: normalize(text) };
}

/** A signal term prepared for matching. */
export interface TermPattern {
  /** Folded words of the term. */
  words: readonly string[];
  /** Normalised text of the term as written (`@actions/core`, `kc_db_url`). */
  raw: string;
  /** The term is written in a script without spaces: match it as a plain substring. */
  noSpaceScript: boolean;
  /** ` word word ` as FoldedText.joined holds it: made once, looked for in every page's title and summary. */
  needle: string;
}

export function termPattern(text: string): TermPattern {
  const raw = normalize(text).trim();
  const words = foldedWords(text);
  return { words, raw, noSpaceScript: NO_SPACE_SCRIPT.test(raw), needle: ` ${words.join(' ')} ` };
}

/** The term's words appear in the text as a contiguous run of whole words. */
export function containsWords(text: FoldedText, term: TermPattern): boolean {
  if (term.noSpaceScript) return text.raw.includes(term.raw);
  if (term.words.length === 0) return false;
  return text.joined.includes(term.needle);
}

/**
 * Title rule: a case-insensitive substring that starts at a word boundary. Every word of the term
 * must match whole except the last, which may be the start of a longer word when it has at least
 * four letters ("config" finds "configuration"; "api" does not find "rapid").
 */
export function titleContains(text: FoldedText, term: TermPattern): boolean {
  if (containsWords(text, term)) return true;
  if (term.noSpaceScript || term.words.length === 0) return false;
  const last = term.words[term.words.length - 1]!;
  if (last.length < 4) return false;
  const head = term.words.slice(0, -1);
  const w = text.words;
  outer: for (let i = 0; i + head.length < w.length; i++) {
    for (let k = 0; k < head.length; k++) if (w[i + k] !== head[k]) continue outer;
    if (w[i + head.length]!.startsWith(last)) return true;
  }
  return false;
}

/** Tag rule: exact, case-insensitive, a leading `#` ignored (compared as folded words). */
export function tagEquals(tag: string, term: TermPattern): boolean {
  const words = foldedWords(tag.replace(/^#/, ''));
  return words.length === term.words.length && words.every((w, i) => w === term.words[i]);
}
