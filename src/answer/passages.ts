// Pages cut into sentences that remember their line numbers, so a quote is always a whole sentence
// cited at the lines it came from; and whether a text holds a term. The page is read as sections of
// blocks (sections.ts); a paragraph's hard-wrapped lines are joined before it is split into
// sentences. What only points elsewhere or lays things out (frontmatter, headings, code, tables'
// headers and rules, link lists, sources, timestamps, list introductions) is never a sentence to
// quote. Quotes are readable text (markdown/readable-text.ts), the form the cite contract compares
// quote and page in.
import { type FoldedText, type TermPattern, containsWords, foldText } from '../ladder/text-match.js';
import { ELLIPSIS } from '../markdown/bound.js';
import { codeSpans, replaceCodeSpans } from '../markdown/code.js';
import { linksIn, withoutLinks } from '../markdown/links.js';
import { pyRStrip } from '../markdown/py-strip.js';
import { readableText } from '../markdown/readable-text.js';
import { type QuotableBlock, type Section, readSections } from './sections.js';

/** A quote spans at most this many lines of the page (the cite contract's limit too). */
export const MAX_QUOTE_LINES = 2;
/**
 * A quote stops after this many characters (at a word): a "sentence" of a whole unbroken page
 * line can run to megabytes. Above the longest sentence quoted from the eval wikis (750).
 */
export const MAX_QUOTE_CHARS = 800;
/** Fewer words than this is a label or a fragment ("Scope.", "See below."), not a statement. */
const MIN_SENTENCE_WORDS = 3;
/** A block whose words are at least this share link text is a link list ("See also", "Related: …"). */
const LINK_SHARE = 0.5;

export interface Sentence {
  path: string;
  /** 1-based first and last line of the sentence in the page file. */
  start: number;
  end: number;
  /** The whole sentence as readable text. */
  text: string;
  /** What is quoted: the whole sentence within two lines; a longer one's first two lines and "…". */
  quote: string;
  folded: FoldedText;
  section: Section;
  /** The page's title, folded: it heads every sentence of the page. */
  title: FoldedText;
  /** The page's lead: its first prose sentence, a sentence led by bold text, or a summary's first. */
  lead: boolean;
  /** 0-based position in the page, for stable ties. */
  order: number;
  /** A table's body row (its cells as the text): a fact without its column names. */
  row: boolean;
}

export interface PageSentences {
  path: string;
  title: string;
  sections: Section[];
  /** Quotable sentences only, in page order. */
  sentences: Sentence[];
}

/** The text cut to at most `limit` characters, at its last space when there is one in the second half, never inside a surrogate pair. */
export function atWord(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const space = text.lastIndexOf(' ', limit);
  if (space > limit / 2) return text.slice(0, space);
  const high = text.charCodeAt(limit - 1);
  return text.slice(0, high >= 0xd800 && high <= 0xdbff ? limit - 1 : limit);
}

/** Readable text cut short: its trailing punctuation and spaces (readable text has only single spaces) dropped, then "…". */
const elided = (text: string): string => `${pyRStrip(text, ' ,;:–—-')}${ELLIPSIS}`;

// ---------------------------------------------------------------------------------------------
// Sentences

/** A line labelled as a pointer: "Sources: …", "See also: …", "Related: …". */
const REFERENCE_LABEL =
  /^(?:sources?|references?|refs?|see also|related(?: pages| notes| reading)?|links|backlinks|further reading|cited (?:in|by)|citations?|bibliography)\s*:/i;
/** A transcript or log timestamp at the start of a block: `[00:12:34]`, `(1:02)`, `12:30 —`. */
const TIMESTAMP = /^[[(]?\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?[\])]?(?=$|[\s\-–—:|])/;
/** `**key:** value` pairs: a metadata line, not prose. */
const LABEL_PAIR = /(?:\*\*|__)[^*_\n]{1,40}:(?:\*\*|__)/g;

/** A sentence ends at . ! or ? (closing marks may follow) before whitespace and a capital, digit or opening mark. */
const BOUNDARY = /[.!?][)\]"'”’*_]*\s+(?=[\p{Lu}\p{N}`*_"“‘'([<])/gu;
/** Words whose trailing period is not a sentence end. */
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|vs|cf|approx|ca|fig|figs|eq|eqs|sec|vol|al|dr|mr|mrs|ms|inc|ltd|corp|jr|sr|incl|resp|u\.s)$/iu;
/** An initial ("J. Smith", "Plan B. Then") is not a sentence end either. */
const INITIAL = /(?:^|[\s(])\p{Lu}$/u;

const wordCount = (text: string) => (text.match(/[\p{L}\p{N}]+/gu) ?? []).length;

/** Share of a block's words that are link text (wikilinks, markdown links, bare URLs). */
function linkShare(raw: string, total: number): number {
  if (total === 0) return 0;
  let linked = 0;
  for (const link of linksIn(raw)) linked += wordCount(readableText(link));
  return linked / total;
}

/** Why a block is never quoted, or undefined when it may be. */
function blockExclusion({ section }: QuotableBlock, joined: string, readable: string): string | undefined {
  if (section.reference) return 'reference section';
  if (readable === '') return 'empty';
  if (REFERENCE_LABEL.test(readable)) return 'reference line';
  if (TIMESTAMP.test(readable)) return 'timestamp';
  if ((joined.match(LABEL_PAIR) ?? []).length >= 2) return 'metadata';
  if (linkShare(joined, wordCount(readable)) >= LINK_SHARE) return 'link list';
  return undefined;
}

/**
 * A sentence wholly in bold that opens a list item ("- **Issue titles, bodies and comments.** They
 * may …") labels the one after it, as does a short one in a paragraph ("**Note.**"); a longer
 * bold sentence in a paragraph is a statement (a bold lead).
 */
const BOLD_LABEL = /^(\*\*|__)(?:(?!\1)[^\n])+\1$/;
const BOLD_LABEL_WORDS = 4;
const ITEM_LABEL_WORDS = 12;

/** Beside a link, at most this many words of its own: "The rules are explained in [Cite contract]." */
const POINTER_WORDS = 5;

/** A sentence that sends the reader elsewhere: "See [X].", "Details are in [X].", "For …, see [X]." */
function isPointer(raw: string, readable: string): boolean {
  if (linksIn(raw).length === 0) return false;
  const own = wordCount(readableText(withoutLinks(raw)));
  return own <= POINTER_WORDS || /(?:^|[,;:(—–-]\s*)see\b/i.test(readable);
}

/** "; see [X]", " — see [X]": after a semicolon or a dash, a pointer added to a statement. */
const POINTER_TAIL = /\s*(?:;|\s[—–-])\s*see\b/i;

/**
 * "Mesh decimation reduces triangle count; see [X] and [Y].": the statement, without the pointer
 * that follows it, when the pointer holds the links and the statement none (then the statement is
 * what the sentence says, and it is quoted alone).
 */
function withoutPointerTail(raw: string): string {
  const tail = POINTER_TAIL.exec(raw);
  if (!tail || linksIn(raw.slice(tail.index)).length === 0 || linksIn(raw.slice(0, tail.index)).length > 0) return raw;
  return raw.slice(0, tail.index);
}

/** Where each sentence of a block starts and ends in the block's joined text. */
function sentenceSpans(joined: string, item: boolean): Array<[number, number]> {
  const code = codeSpans(joined);
  const spans: Array<[number, number]> = [];
  let from = 0;
  for (const m of joined.matchAll(BOUNDARY)) {
    const cut = m.index + m[0].trimEnd().length;
    if (code.some(({ start, end }) => m.index >= start && m.index < end)) continue;
    const word = pyRStrip(joined.slice(from, m.index), '*_`');
    if (joined[m.index] === '.' && (ABBREVIATION.test(word) || INITIAL.test(word))) continue;
    spans.push([from, cut]);
    from = m.index + m[0].length;
  }
  spans.push([from, joined.length]);
  // A label ("**CML selection.**", "Note.") belongs to the sentence it introduces.
  const merged: Array<[number, number]> = [];
  for (let k = 0; k < spans.length; k++) {
    const [a, b] = spans[k]!;
    const span = joined.slice(a, b).trim();
    const words = wordCount(readableText(span));
    const label = BOLD_LABEL.test(span) && words <= (item && k === 0 ? ITEM_LABEL_WORDS : BOLD_LABEL_WORDS);
    if (k + 1 < spans.length && (words < MIN_SENTENCE_WORDS || label)) {
      spans[k + 1] = [a, spans[k + 1]![1]];
      continue;
    }
    merged.push([a, b]);
  }
  return merged.filter(([a, b]) => joined.slice(a, b).trim() !== '');
}

/** The page's sections and quotable sentences. */
export function splitSentences(path: string, text: string): PageSentences {
  const lines = text.split('\n');
  const { blocks, sections, title } = readSections(path, text, lines);
  const sentences: Sentence[] = [];
  const titleFolded = foldText(title);
  let leadTaken = false;
  const summaryOpened = new Set<Section>();
  for (const quotable of blocks) {
    const { block, section } = quotable;
    const joined = block.text;
    const readable = readableText(joined);
    const excluded = blockExclusion(quotable, joined, readable);
    if (excluded) continue;
    // The block's k-th line of text is the page's line block.line + k.
    const lineStarts: number[] = [];
    let offset = 0;
    for (const line of joined.split('\n')) {
      lineStarts.push(offset);
      offset += line.length + 1;
    }
    const lineAt = (pos: number) => {
      let k = 0;
      while (k + 1 < lineStarts.length && lineStarts[k + 1]! <= pos) k++;
      return k;
    };
    const prose = block.kind !== 'item';
    sentenceSpans(joined, block.kind === 'item').forEach(([a, b], k) => {
      const raw = withoutPointerTail(joined.slice(a, b).trim());
      const start = a + (joined.slice(a, b).length - joined.slice(a, b).trimStart().length);
      const sentenceText = readableText(raw);
      // Too short to state anything, a command alone (nothing but code), a list's introduction, or a pointer to another page.
      const commandAlone = wordCount(replaceCodeSpans(sentenceText, () => ' ')) < 2;
      if (wordCount(sentenceText) < MIN_SENTENCE_WORDS || commandAlone || /[:：]$/.test(sentenceText) || isPointer(raw, sentenceText)) return;
      const first = lineAt(start);
      const last = lineAt(start + raw.length - 1);
      let quote = sentenceText;
      if (last - first + 1 > MAX_QUOTE_LINES) {
        const cut = lineStarts[first + MAX_QUOTE_LINES]! - 1;
        quote = elided(readableText(joined.slice(start, cut)));
      }
      if (quote.length > MAX_QUOTE_CHARS) quote = elided(atWord(quote, MAX_QUOTE_CHARS));
      const boldLead = k === 0 && block.kind === 'paragraph' && /^(?:\*\*|__)/.test(raw);
      const summaryLead = section.summary && !summaryOpened.has(section);
      const firstProse = prose && !leadTaken;
      if (prose) leadTaken = true;
      if (section.summary) summaryOpened.add(section);
      sentences.push({
        path,
        start: block.line + first,
        end: block.line + last,
        text: sentenceText,
        quote,
        folded: foldText(sentenceText),
        section,
        title: titleFolded,
        lead: firstProse || boldLead || summaryLead,
        order: sentences.length,
        row: block.kind === 'table-row',
      });
    });
  }
  return { path, title, sections, sentences };
}

// ---------------------------------------------------------------------------------------------
// Term matching

/** A term is in a text when its words appear whole (folded), or, for identifiers, its exact spelling does. */
export function textHasTerm(folded: FoldedText, pattern: TermPattern, strict: boolean): boolean {
  return containsWords(folded, pattern) || (strict && pattern.raw.length > 1 && folded.raw.includes(pattern.raw));
}
