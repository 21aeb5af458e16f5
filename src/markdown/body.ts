// A page's line breaks, its frontmatter block and where its body starts, read as the tools around a
// wiki read them (Jekyll, which GitHub uses, and Obsidian): what ranks, quotes and posts starts there.
// Upstream's scripts find the block their own way (see upstream-dialect.ts); the validator and the
// index builder keep to that.

/** Line breaks as `\n` only: CRLF and a lone CR (a line end to Python's universal newlines, and to GitHub's markdown) become LF. */
export const lfLineBreaks = (text: string): string => (text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text);

export interface BodyStart {
  /** Offset of the body's first character in the page. */
  offset: number;
  /** 1-based line of the body's first line. */
  line: number;
}

export interface FrontmatterBlock {
  /** The lines between the delimiter lines, as written (without the line break before the closing one). */
  block: string;
  body: BodyStart;
}

const DELIMITER = '---';
/** YAML's end-of-document marker closes a block too (Jekyll and pandoc accept it). */
const DOCUMENT_END = '...';

/** A line without the spaces, tabs and carriage return at its end: scanned from the end, never an expression anchored at `$`. */
function withoutTrailingBlanks(text: string, start: number, end: number): string {
  let last = end;
  while (last > start && (text[last - 1] === ' ' || text[last - 1] === '\t' || text[last - 1] === '\r')) last--;
  return text.slice(start, last);
}

/**
 * The frontmatter block at the top of a page: its first line is `---`, and the block closes at the
 * next line that is `---` or `...`, each with nothing after it but spaces or tabs (Jekyll's rule).
 * Undefined when the page opens no block or never closes it. A line ends at `\n`, and a `\r` before
 * it belongs to the line break: a CRLF page has the block and body start of its LF form.
 */
export function frontmatterBlock(text: string): FrontmatterBlock | undefined {
  const firstEnd = lineEnd(text, 0);
  if (withoutTrailingBlanks(text, 0, firstEnd) !== DELIMITER || firstEnd === text.length) return undefined;
  for (let start = firstEnd + 1, line = 2; start <= text.length; start = lineEnd(text, start) + 1, line++) {
    const end = lineEnd(text, start);
    const content = withoutTrailingBlanks(text, start, end);
    if (content === DELIMITER || content === DOCUMENT_END) {
      const block = start === firstEnd + 1 ? '' : text.slice(firstEnd + 1, start - 1);
      return { block: block.endsWith('\r') ? block.slice(0, -1) : block, body: { offset: Math.min(end + 1, text.length), line: line + 1 } };
    }
    if (end === text.length) break;
  }
  return undefined;
}

const lineEnd = (text: string, start: number): number => {
  const end = text.indexOf('\n', start);
  return end < 0 ? text.length : end;
};

/** Where the body starts: after the frontmatter block, else at the top. */
export const bodyStart = (text: string): BodyStart => frontmatterBlock(text)?.body ?? { offset: 0, line: 1 };

/** The page without its frontmatter block. */
export const bodyOf = (text: string): string => text.slice(bodyStart(text).offset);

const OPENER_WITH_LANGUAGE = /^---[ \t]*([A-Za-z][\w-]*)[ \t]*\n/;

/** The language an opening line names (`---js`, `---toml`), as gray-matter reads it: such a block is not YAML. */
export const openerLanguage = (text: string): string | undefined => OPENER_WITH_LANGUAGE.exec(text)?.[1];
