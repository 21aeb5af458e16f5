// Links in markdown: `[text](target)` links, `[[wikilinks]]`, and every kind of link a sentence may
// hold (for telling a pointer to another page from a statement).
//
// Markdown links are found as upstream finds them, with the regular expression
// `\[[^\]]*\]\(([^)\s]+)\)` applied left to right, but in one pass. The expression backtracks: on
// a page of many `[` with no `]`, or of `[](` repeated with no `)`, each `[` rescans the rest of
// the page, and a 300 KB page took minutes. This scanner gives the same matches (start, text,
// target) in time linear in the page.
import { blankCode } from './code.js';

export interface MarkdownLink {
  /** Offset of the link's `[` (the first `[` the expression would start from). */
  index: number;
  /** Between the brackets, as the expression captures it. */
  text: string;
  /** Between the parentheses: no white space, no `)`. */
  target: string;
}

/** `\s` of the expression: ASCII white space, the Unicode space separators, line and paragraph separators, and the BOM. */
const isSpace = (c: number): boolean =>
  c === 32 ||
  (c >= 9 && c <= 13) ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;

/** Every markdown link in `text`, in order, as the expression matches them. */
export function markdownLinks(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  const n = text.length;
  // The expression tries each `[` in turn; all those before the next `]` meet that `]` and stand or
  // fall with it, so the first of them is where a match starts. Brackets are found by indexOf: a
  // page is mostly text between them.
  let open = -1;
  let nextOpen = text.indexOf('[');
  let close = text.indexOf(']');
  // A target run that ended without `)`: any run starting inside it ends there too, and fails.
  let failedRunStart = -1;
  let failedRunEnd = -1;
  while (close >= 0) {
    if (nextOpen >= 0 && nextOpen < close) {
      if (open < 0) open = nextOpen;
      nextOpen = text.indexOf('[', nextOpen + 1);
      continue;
    }
    const start = open;
    open = -1;
    let resume = close + 1;
    const from = close + 2;
    if (start >= 0 && text.charCodeAt(close + 1) === 40 /* ( */ && !(from >= failedRunStart && from <= failedRunEnd)) {
      let end = from;
      while (end < n && text.charCodeAt(end) !== 41 /* ) */ && !isSpace(text.charCodeAt(end))) end++;
      if (end === from || end === n || text.charCodeAt(end) !== 41) [failedRunStart, failedRunEnd] = [from, end];
      else {
        links.push({ index: start, text: text.slice(start + 1, close), target: text.slice(from, end) });
        resume = end + 1;
        if (nextOpen >= 0 && nextOpen < resume) nextOpen = text.indexOf('[', resume);
      }
    }
    close = text.indexOf(']', resume);
  }
  return links;
}

export interface Wikilink {
  /** The target as written: `slug` or `path/slug`, without `#heading` or `|text`. */
  target: string;
  /** The `|text` part, when there is one. */
  text?: string;
}

const WIKILINK = /!?\[\[([^[\]\n|#]*)(?:#[^[\]\n|]*)?(?:\|([^[\]\n]*))?\]\]/g;

/** Every Obsidian `[[…]]` (and `![[…]]` embed) in `markdown` outside code, in order; `[[#heading]]`, the page itself, is none. */
export function findWikilinks(markdown: string): Wikilink[] {
  if (!markdown.includes('[[')) return [];
  const links: Wikilink[] = [];
  for (const m of blankCode(markdown).matchAll(WIKILINK)) {
    const target = m[1]!.trim();
    if (target === '') continue;
    const text = m[2]?.trim();
    links.push(text ? { target, text } : { target });
  }
  return links;
}

/**
 * Any link in inline markdown: a wikilink or embed, a markdown link or image, an autolink, a bare
 * URL. Bracketed text holds no bracket and a target no nested parentheses past one level: each
 * start then looks only as far as the next one.
 */
const ANY_LINK = /!?\[\[[^[\]]*\]\](?:\([^()\s]*\))?|!?\[[^[\]]*\]\((?:[^()]|\([^()]*\))*\)|<https?:[^<>]*>|https?:\/\/\S+/g;

/** Every link of inline markdown, as written, in order. */
export const linksIn = (text: string): string[] => text.match(ANY_LINK) ?? [];

/** Inline markdown with each link replaced by a space: the words of its own. */
export const withoutLinks = (text: string): string => text.replace(ANY_LINK, ' ');
