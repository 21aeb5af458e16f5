// The blocks of a markdown page as CommonMark reads them, with GitHub's tables: headings (ATX and
// setext), paragraphs, list items, blockquotes and table rows, each with its first line. Code (fenced
// or indented), HTML comment blocks, thematic breaks and table rules hold nothing to read and make no
// block. Containers are read one level deep: a list item or a blockquote is one block of its lines
// (lazy continuation lines included), not parsed again inside. What ranks (a page's headings) and
// what is quoted (its sections and sentences) are read here, so the two always agree.
import { CODE_INDENT, MAX_MARKER_INDENT, closesFence, fenceOpening, indentation } from './code.js';
import { pyRStrip } from './py-strip.js';

export type BlockKind = 'heading' | 'paragraph' | 'item' | 'quote' | 'table-header' | 'table-row';

export interface Block {
  kind: BlockKind;
  /**
   * The text without block markers (`#`s, list marker, `>`): one line of text per line of the page,
   * joined by `\n`, each trimmed; a heading's on one line; a table row's as written.
   */
  text: string;
  /** 1-based line of the block's first line. */
  line: number;
  /** A heading's level (1–6); 0 for other blocks. */
  level: number;
}

const MAX_HEADING_LEVEL = 6;
const isBlankLine = (line: string): boolean => /^[ \t]*$/.test(line);
const trimSpaces = (text: string): string => pyRStrip(text, ' \t').replace(/^[ \t]+/, '');

/**
 * An ATX heading line (`## Text ##`): its level and text, or undefined. Up to three columns of
 * indentation, one to six `#`s, then a space, a tab or the line's end; a closing run of `#`s counts
 * only after a space or tab (`# C#` is "C#"). Read from the ends of the line, never by an expression
 * that rescans a long run of `#`s or spaces from each of its characters.
 */
export function atxHeading(line: string): { level: number; text: string } | undefined {
  const { columns, end } = indentation(line);
  if (columns > MAX_MARKER_INDENT || line[end] !== '#') return undefined;
  let level = 0;
  while (level <= MAX_HEADING_LEVEL && line[end + level] === '#') level++;
  const rest = line.slice(end + level);
  if (level > MAX_HEADING_LEVEL || (rest !== '' && rest[0] !== ' ' && rest[0] !== '\t')) return undefined;
  const text = pyRStrip(rest, ' \t');
  const open = pyRStrip(text, '#');
  const closed = open.length < text.length && (open === '' || open.endsWith(' ') || open.endsWith('\t'));
  return { level, text: trimSpaces(closed ? open : text) };
}

/** The level a setext underline gives the paragraph above it (`===` 1, `---` 2), or undefined. */
function setextLevel(line: string): 1 | 2 | undefined {
  const { columns, end } = indentation(line);
  const marker = line[end];
  if (columns > MAX_MARKER_INDENT || (marker !== '=' && marker !== '-')) return undefined;
  let length = 0;
  while (line[end + length] === marker) length++;
  if (!isBlankLine(line.slice(end + length))) return undefined;
  return marker === '=' ? 1 : 2;
}

/** `***`, `- - -`, `___`: three or more of one of `-*_`, with spaces or tabs between. */
function isThematicBreak(line: string): boolean {
  const { columns, end } = indentation(line);
  const marker = line[end];
  if (columns > MAX_MARKER_INDENT || (marker !== '-' && marker !== '*' && marker !== '_')) return false;
  let count = 0;
  for (let k = end; k < line.length; k++) {
    if (line[k] === marker) count++;
    else if (line[k] !== ' ' && line[k] !== '\t') return false;
  }
  return count >= 3;
}

/** A table's rule line, tested on the trimmed line (white space at both ends made it rescan the line from each space). */
const TABLE_RULE_TRIMMED = /^\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?$/;
/** A table's rule line (`|---|:--:|`, `--- | ---`): with a pipe in it, so not a setext underline or a thematic break. */
export const isTableRule = (line: string): boolean => line.includes('|') && TABLE_RULE_TRIMMED.test(line.trim());
/** A table row written with its outer pipes (`| a | b |`). */
export function isPipedRow(line: string): boolean {
  const trimmed = line.trim();
  return trimmed.length >= 2 && trimmed.startsWith('|') && trimmed.endsWith('|');
}

const LIST_MARKER = /^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/;
/** A list item line's text after its marker (and a task box, `[x]`), or undefined. */
export function listItemContent(line: string): string | undefined {
  const marker = LIST_MARKER.exec(line);
  return marker ? line.slice(marker[0].length) : undefined;
}

const QUOTE_MARKERS = /^(?:>[ \t]?)+/;
/** A blockquote line's text after its `>` marks (nested ones too), or undefined. */
export function quoteContent(line: string): string | undefined {
  const { columns, end } = indentation(line);
  if (columns > MAX_MARKER_INDENT || line[end] !== '>') return undefined;
  return line.slice(end).replace(QUOTE_MARKERS, '');
}

const opensComment = (line: string): boolean => /^[ \t]*<!--/.test(line) && !line.includes('-->');

interface OpenBlock {
  kind: 'paragraph' | 'item' | 'quote';
  lines: string[];
  line: number;
}

/** Reads a page line by line; each line either continues the open block, starts one, or holds nothing to read. */
class BlockReader {
  readonly blocks: Block[] = [];
  private open: OpenBlock | undefined;
  /** Inside a fence or an HTML comment: the test of the line that ends it. */
  private insideUntil: ((line: string) => boolean) | undefined;
  private indentedCode = false;
  private inTable = false;
  /** After a list item, until a block starts at the margin: indented lines continue the list, they are no code. */
  private inList = false;

  constructor(private readonly lines: readonly string[]) {}

  read(i: number): void {
    const line = this.line(i);
    const n = i + 1;
    if (this.insideUntil) {
      if (this.insideUntil(line)) this.insideUntil = undefined;
      return;
    }
    if (isBlankLine(line)) {
      this.close();
      this.inTable = false;
      return;
    }
    const { columns } = indentation(line);
    if (columns >= CODE_INDENT && !this.open && (this.indentedCode || !this.inList)) {
      this.indentedCode = true;
      return;
    }
    this.indentedCode = false;
    const item = listItemContent(line);
    if (columns === 0 && item === undefined && !this.open) this.inList = false;
    const fence = fenceOpening(line);
    if (fence || opensComment(line)) {
      this.close();
      this.insideUntil = fence ? (l) => closesFence(l, fence) : (l) => l.includes('-->');
      return;
    }
    const heading = atxHeading(line);
    if (heading) return this.emit('heading', heading.text, n, heading.level);
    const underline = this.open?.kind === 'paragraph' ? setextLevel(line) : undefined;
    if (underline) {
      const paragraph = this.open!;
      this.open = undefined;
      return this.emit('heading', paragraph.lines.join(' '), paragraph.line, underline);
    }
    if (isThematicBreak(line)) return this.close();
    if (isTableRule(line)) {
      this.inTable = true;
      return this.close();
    }
    const header = line.includes('|') && isTableRule(this.line(i + 1));
    if (isPipedRow(line) || (this.inTable && line.includes('|'))) return this.emit(header ? 'table-header' : 'table-row', line.trim(), n, 0);
    if (item !== undefined) return this.start('item', item.trim(), n);
    const quoted = quoteContent(line)?.trim();
    if (quoted !== undefined) {
      // An empty `>` line ends the quote's paragraph: the next quoted line starts another.
      if (quoted === '') this.close();
      else if (this.open?.kind === 'quote') this.open.lines.push(quoted);
      else this.start('quote', quoted, n);
      return;
    }
    // A table without a leading pipe: this line, then a rule.
    if (header && !this.open) return this.emit('table-header', line.trim(), n, 0);
    if (this.open) this.open.lines.push(line.trim());
    else this.start('paragraph', line.trim(), n);
  }

  finish(): Block[] {
    this.close();
    return this.blocks;
  }

  /** A line without the `\r` of a CRLF line break; past the last line, ''. */
  private line(i: number): string {
    const line = this.lines[i] ?? '';
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  }

  private start(kind: OpenBlock['kind'], text: string, line: number): void {
    this.close();
    this.open = { kind, lines: [text], line };
    if (kind === 'item') this.inList = true;
  }

  private emit(kind: BlockKind, text: string, line: number, level: number): void {
    this.close();
    this.blocks.push({ kind, text, line, level });
  }

  private close(): void {
    if (this.open) this.blocks.push({ kind: this.open.kind, text: this.open.lines.join('\n'), line: this.open.line, level: 0 });
    this.open = undefined;
  }
}

/** The blocks of a page's lines from line index `from` (0-based) on, in order; their lines count from the first of `lines`. */
export function markdownBlocks(lines: readonly string[], from = 0): Block[] {
  const reader = new BlockReader(lines);
  for (let i = from; i < lines.length; i++) reader.read(i);
  return reader.finish();
}
