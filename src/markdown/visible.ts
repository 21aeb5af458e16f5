// What a reader sees of a question GitHub shows: the text an asker typed, without what GitHub hides.
import { lfLineBreaks } from './body.js';
import { codeSpanReader, fencedBlockEnd } from './code.js';

/**
 * Markdown as GitHub shows it: line breaks as `\n` (the web editor sends `\r\n`, and GitHub reads a
 * lone `\r` as a line end too), HTML comments removed (an unclosed `<!--` hides the rest), except
 * inside code spans and fenced code blocks, where GitHub shows them as written.
 */
export function visibleMarkdown(text: string): string {
  const markdown = lfLineBreaks(text);
  const readCodeSpan = codeSpanReader(markdown);
  let out = '';
  let i = 0;
  while (i < markdown.length) {
    // Left to right, as GitHub reads it: a fence, a code span or a comment, whichever opens first, holds what follows it.
    const lineStart = i === 0 || markdown[i - 1] === '\n';
    const codeEnd = (lineStart ? fencedBlockEnd(markdown, i) : undefined) ?? readCodeSpan(i)?.end;
    if (codeEnd !== undefined) {
      out += markdown.slice(i, codeEnd);
      i = codeEnd;
    } else if (markdown.startsWith('<!--', i)) {
      const close = markdown.indexOf('-->', i + 4);
      i = close < 0 ? markdown.length : close + 3;
    } else {
      out += markdown[i];
      i++;
    }
  }
  return out;
}
