// Inline markdown as the text a reader sees: the one rendering of markup as text. The answerer stores
// its quotes in it and the cite contract compares quote and page after it, so both sides of every
// comparison are read the same way.
//
// Page text is untrusted: no expression here may rescan the rest of the page from each of many
// starts (a page of 300,000 `[` took minutes). Bracketed text never holds a bracket and a link's
// target stops at the next `(`: each start then looks only as far as the next start. Code spans are
// paired in one pass (code.ts).
import { atxHeading, isPipedRow, isTableRule, listItemContent, quoteContent } from './blocks.js';
import { replaceCodeSpans } from './code.js';

const CODE_PLACEHOLDER = /\u0000(\d+)\u0000/g;
/** A backslash before ASCII punctuation makes it a literal character (CommonMark). */
const ESCAPED_PUNCTUATION = /\\[!-/:-@[-`{-~]/g;
const ESCAPE_PLACEHOLDER = /\u0001(\d+)\u0001/g;
/** The characters the placeholders are made of: one the text holds itself is kept aside as an escape is. */
const PLACEHOLDER_CHARACTER = /[\u0000\u0001]/g;
/** An Obsidian callout's type at the start of a blockquote: `> [!note] Title`, `> [!tip]-`. */
const CALLOUT_TYPE = /^\[![\w-]+\][+-]?[ \t]*/;

/** A character some rule below acts on (code, escapes, HTML, links, emphasis, comments, quotes, headings, tables, entities). */
const MARKUP_CHARACTER = /[`\\<>[\]!*_~=%&|#]/;
/** A line that opens with a list marker (blocks.ts' LIST_MARKER), the one rule that needs none of those characters. */
const LIST_MARKER_LINE = /(?:^|\n)[^\S\n]*(?:[-+]|\d{1,9}[.)])[^\S\n]/;

/** `[[target|text]]` → text; `[[folder/target#heading]]` → target (`[[#heading]]` → heading). */
function wikilinkText(target: string, alias: string | undefined): string {
  if (alias !== undefined && alias.trim() !== '') return alias.trim();
  const [page = '', heading = ''] = target.split('#');
  if (page.trim() === '') return heading.trim();
  return page.trim().split('/').at(-1)!.replace(/\.md$/i, '');
}

/** A line without its block markers: blockquote `>` and callout type, heading marks, list marker; a table row as its cells. */
function lineText(line: string): string {
  if (isTableRule(line)) return '';
  const unquoted = quoteContent(line);
  const inner = unquoted === undefined ? line : unquoted.replace(CALLOUT_TYPE, '');
  const unmarked = atxHeading(inner)?.text ?? inner;
  const text = listItemContent(unmarked) ?? unmarked;
  if (!isPipedRow(text)) return text;
  return text
    .trim()
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim())
    .filter((cell) => cell !== '')
    .join(' · ');
}

/**
 * Markup rendered as the text a reader sees: wikilinks and links become their text, embeds
 * (`![[image.png]]`) and comments (HTML, Obsidian `%% … %%`) go, emphasis and highlights are
 * dropped, backslash escapes give their character, inline code keeps its backticks, HTML tags go,
 * list markers, heading marks, blockquote `>` and callout types (`> [!note]`) are stripped line by
 * line, table rows become their cells, and whitespace is squashed to single spaces. Applied the
 * same way to quotes and to page lines.
 */
export function readableText(text: string): string {
  // Most sentences hold no markup: then the rules below would change nothing but the whitespace.
  if (!MARKUP_CHARACTER.test(text) && !LIST_MARKER_LINE.test(text)) return text.replace(/\s+/g, ' ').trim();
  const code: string[] = [];
  const escaped: string[] = [];
  // A placeholder's own characters in the text (`\u00010\u0001` as written) would read as a
  // placeholder: each is set aside first, as an escape is, and put back as it was.
  const unplaced = text.replace(PLACEHOLDER_CHARACTER, (c) => `\u0001${escaped.push(c) - 1}\u0001`);
  let s = replaceCodeSpans(unplaced, (span) => `\u0000${code.push(span.replace(/\s+/g, ' ')) - 1}\u0000`)
    // `\_` is a literal `_`: kept out of the way of the emphasis and link rules and put back as
    // written, so the text reads the same in markdown and a second reading changes nothing.
    .replace(ESCAPED_PUNCTUATION, (escape) => `\u0001${escaped.push(escape) - 1}\u0001`);
  s = s.split('\n').map(lineText).join('\n');
  s = withoutDelimited(withoutDelimited(s, '<!--', '-->'), '%%', '%%')
    .replace(/<((?:https?|mailto):[^<>\s]+)>/gi, '$1')
    .replace(/<\/?[A-Za-z][\w-]*(?:\s[^<>]*)?\/?>/g, ' ')
    .replace(/!\[\[[^[\]]*\]\]/g, ' ')
    .replace(/\[\[([^[\]|]*?)(?:\|([^[\]]*))?\]\](?:\([^()\s]*\))?/g, (_m, target: string, alias: string | undefined) => wikilinkText(target, alias))
    .replace(/!\[([^[\]]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g, '$1')
    .replace(/\[([^[\]]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g, '$1')
    .replace(/\[\^[^[\]\s]+\]/g, '')
    .replace(/\[([^[\]]+)\]\[[^[\]]*\]/g, '$1')
    .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, '$1')
    .replace(/(?<!\w)__(?=\S)([\s\S]*?\S)__(?!\w)/g, '$1')
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1')
    .replace(/(?<!\*)\*(?=[^\s*])([^*]*?[^\s*])\*(?!\*)/g, '$1')
    .replace(/(?<![\w_])_(?=[^\s_])([^_]*?[^\s_])_(?![\w_])/g, '$1')
    .replace(/==(?=[^\s=])([^=]*?[^\s=])==/g, '$1')
    // Emphasis left unpaired (a quote cut inside a bold run) reads as noise, not text.
    .replace(/\*\*|(?<![\w_])__|__(?![\w_])|~~/g, '')
    .replace(/&nbsp;|&#160;/g, ' ');
  s = s.replace(CODE_PLACEHOLDER, (_m, i: string) => code[Number(i)]!).replace(ESCAPE_PLACEHOLDER, (_m, i: string) => escaped[Number(i)]!);
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * Comments out (`<!-- … -->`, Obsidian's `%% … %%`), each a space; one left open runs to the end
 * and stays, as `<!--[\s\S]*?-->` would leave it, but without rescanning the page from every opening.
 */
function withoutDelimited(text: string, opening: string, closing: string): string {
  if (!text.includes(opening)) return text;
  let out = '';
  let at = 0;
  for (let open = text.indexOf(opening); open >= 0; open = text.indexOf(opening, at)) {
    const close = text.indexOf(closing, open + opening.length);
    if (close < 0) break;
    out += `${text.slice(at, open)} `;
    at = close + closing.length;
  }
  return out + text.slice(at);
}
