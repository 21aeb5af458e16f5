// Code in markdown as CommonMark finds it: fenced blocks (a run of three or more backticks or tildes,
// closed by a run of the same character at least as long), indented code (four columns in), and code
// spans (a run of backticks opens one only when a later run of exactly as many closes it, within the
// paragraph). What is code is never read as anything else: no link, wikilink, mention or comment in
// it counts. Page and question text is untrusted, so every reading here is linear in the text.

/** A line indented this many columns or more is indented code (or a container's continuation). */
export const CODE_INDENT = 4;
/** A block marker (fence, heading, quote) may be indented at most this many columns. */
export const MAX_MARKER_INDENT = 3;

/** Columns of indentation at the start of a line (a tab advances to the next multiple of four) and where it ends. */
export function indentation(line: string): { columns: number; end: number } {
  let columns = 0;
  let end = 0;
  for (; end < line.length; end++) {
    if (line[end] === ' ') columns++;
    else if (line[end] === '\t') columns += 4 - (columns % 4);
    else break;
  }
  return { columns, end };
}

export interface Fence {
  marker: '`' | '~';
  /** The opening run's length: a closing run is at least as long. */
  length: number;
}

/** The fence a line opens, or undefined. A backtick fence's info string holds no backtick (such a line is a code span). */
export function fenceOpening(line: string): Fence | undefined {
  const { columns, end } = indentation(line);
  const marker = line[end];
  if (columns > MAX_MARKER_INDENT || (marker !== '`' && marker !== '~')) return undefined;
  let length = 0;
  while (line[end + length] === marker) length++;
  if (length < 3 || (marker === '`' && line.includes('`', end + length))) return undefined;
  return { marker, length };
}

/** Whether a line closes the fence: a run of its character at least as long, then only spaces or tabs. */
export function closesFence(line: string, fence: Fence): boolean {
  const { columns, end } = indentation(line);
  if (columns > MAX_MARKER_INDENT) return false;
  let length = 0;
  while (line[end + length] === fence.marker) length++;
  return length >= fence.length && line.slice(end + length).trim() === '';
}

const lineEnd = (text: string, start: number): number => {
  const end = text.indexOf('\n', start);
  return end < 0 ? text.length : end;
};

/**
 * When a fence opens on the line that starts at `lineStart`: where its block ends (the end of the
 * closing line, or of the text when nothing closes it). Undefined when no fence opens there.
 */
export function fencedBlockEnd(markdown: string, lineStart: number): number | undefined {
  const { columns, end: indent } = indentation(markdown.slice(lineStart, lineStart + MAX_MARKER_INDENT + 1));
  const marker = markdown[lineStart + indent];
  if (columns > MAX_MARKER_INDENT || (marker !== '`' && marker !== '~')) return undefined;
  const fence = fenceOpening(markdown.slice(lineStart, lineEnd(markdown, lineStart)));
  if (!fence) return undefined;
  for (let start = lineEnd(markdown, lineStart) + 1; start <= markdown.length; start = lineEnd(markdown, start) + 1) {
    const end = lineEnd(markdown, start);
    if (closesFence(markdown.slice(start, end), fence)) return end;
    if (end === markdown.length) break;
  }
  return markdown.length;
}

export interface CodeSpan {
  /** Offset of the opening run's first backtick. */
  start: number;
  /** Offset just after the closing run. */
  end: number;
  /** Backticks in each of the two runs. */
  run: number;
}

/** What a code span holds between its runs. */
export const spanContent = (text: string, span: CodeSpan): string => text.slice(span.start + span.run, span.end - span.run);

const BACKTICK_RUN_OR_BLANK_LINE = /`+|\n[ \t\r]*(?=\n)/g;

/**
 * Reads code spans left to right. Called at the first backtick of each run the caller reaches
 * outside code (in increasing order), it answers where reading goes on: after the code span the
 * run opens, or after the run when it opens none (then its backticks are text). A backslash before
 * a run makes its first backtick literal; inside a span backslashes are text. One sweep over the
 * runs answers every call: for each length, the next run of that length is a cursor that only moves on.
 */
export function codeSpanReader(text: string): (at: number) => { end: number; span?: CodeSpan } | undefined {
  const starts: number[] = [];
  const lengths: number[] = [];
  /** For each run, where its paragraph ends (the next blank line): no span crosses it. */
  const paragraphEnds: number[] = [];
  const runsOfLength = new Map<number, number[]>();
  for (const m of text.matchAll(BACKTICK_RUN_OR_BLANK_LINE)) {
    if (m[0][0] !== '`') {
      while (paragraphEnds.length < starts.length) paragraphEnds.push(m.index);
      continue;
    }
    const runs = runsOfLength.get(m[0].length);
    if (runs) runs.push(starts.length);
    else runsOfLength.set(m[0].length, [starts.length]);
    starts.push(m.index);
    lengths.push(m[0].length);
  }
  while (paragraphEnds.length < starts.length) paragraphEnds.push(text.length);
  const cursors = new Map<number, number>();
  const nextRunOfLength = (length: number, after: number): number | undefined => {
    const runs = runsOfLength.get(length);
    if (!runs) return undefined;
    let k = cursors.get(length) ?? 0;
    while (k < runs.length && runs[k]! <= after) k++;
    cursors.set(length, k);
    return runs[k];
  };
  let run = 0;
  return (at) => {
    if (text[at] !== '`') return undefined;
    while (starts[run]! + lengths[run]! <= at) run++;
    const runEnd = starts[run]! + lengths[run]!;
    let backslashes = 0;
    while (text[at - 1 - backslashes] === '\\') backslashes++;
    const open = backslashes % 2 === 1 ? at + 1 : at;
    const length = runEnd - open;
    const close = length > 0 ? nextRunOfLength(length, run) : undefined;
    if (close === undefined || starts[close]! >= paragraphEnds[run]!) return { end: runEnd };
    const end = starts[close]! + length;
    return { end, span: { start: open, end, run: length } };
  };
}

/** Every code span of a text (a paragraph or more of inline markdown), in order. */
export function codeSpans(text: string): CodeSpan[] {
  if (!text.includes('`')) return [];
  const read = codeSpanReader(text);
  const spans: CodeSpan[] = [];
  for (let at = text.indexOf('`'); at >= 0;) {
    const { end, span } = read(at)!;
    if (span) spans.push(span);
    at = text.indexOf('`', end);
  }
  return spans;
}

/** The text with each code span replaced by what `replace` makes of it (the span as written, and its content). */
export function replaceCodeSpans(text: string, replace: (written: string, content: string) => string): string {
  let out = '';
  let at = 0;
  for (const span of codeSpans(text)) {
    out += text.slice(at, span.start) + replace(text.slice(span.start, span.end), spanContent(text, span));
    at = span.end;
  }
  return at === 0 ? text : out + text.slice(at);
}

const blank = (s: string): string => s.replace(/[^\n]/g, ' ');

/** Where each fenced code block of `markdown` starts and ends, in order. */
function fencedBlocks(markdown: string): Array<{ start: number; end: number }> {
  const blocks: Array<{ start: number; end: number }> = [];
  for (let start = 0; start < markdown.length;) {
    const end = fencedBlockEnd(markdown, start);
    if (end !== undefined) blocks.push({ start, end });
    start = lineEnd(markdown, end ?? start) + 1;
  }
  return blocks;
}

/** `markdown` with the given fenced blocks blanked out (same length, same lines). */
function blankFences(markdown: string, blocks: ReadonlyArray<{ start: number; end: number }>): string {
  let out = '';
  let at = 0;
  for (const block of blocks) {
    out += markdown.slice(at, block.start) + blank(markdown.slice(block.start, block.end));
    at = block.end;
  }
  return at === 0 ? markdown : out + markdown.slice(at);
}

const mayHoldCode = (markdown: string): boolean => markdown.includes('`') || markdown.includes('~~~');

/** `markdown` with fenced code blocks and code spans blanked out (same length, same lines). */
export function blankCode(markdown: string): string {
  if (!mayHoldCode(markdown)) return markdown;
  return replaceCodeSpans(blankFences(markdown, fencedBlocks(markdown)), blank);
}

/**
 * Every stretch of `markdown` a reader sees as code, in order: its fenced blocks, and the code
 * spans outside them (a backtick inside a fence pairs with nothing outside it).
 */
export function codeRanges(markdown: string): Array<{ start: number; end: number }> {
  if (!mayHoldCode(markdown)) return [];
  const fences = fencedBlocks(markdown);
  const spans = codeSpans(blankFences(markdown, fences)).map(({ start, end }) => ({ start, end }));
  return [...fences, ...spans].sort((a, b) => a.start - b.start);
}

/**
 * A reply as a model writes JSON in markdown: the fence marks around it, when there are any, cut
 * from the trimmed text (an opening ``` or ```json, a closing ```), leniently: on one line too. Cut
 * by hand: an expression with `\s*` before the closing fence rescanned a long run of spaces from each one.
 */
export function withoutFenceMarks(reply: string): string {
  const trimmed = reply.trim();
  const opening = trimmed.startsWith('```json') ? 7 : trimmed.startsWith('```') ? 3 : 0;
  const body = trimmed.slice(opening);
  return body.endsWith('```') ? body.slice(0, -3) : body;
}

/**
 * Text as one inline code span, whatever it holds: white space (line breaks included) as single
 * spaces, and fenced by more backticks than it contains. A term comes from the question: a line
 * break or a backtick in it must not end the span and carry the rest out into the answer's text.
 */
export function inlineCode(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return longest === 0 ? `${fence}${flat}${fence}` : `${fence} ${flat} ${fence}`;
}
