// Markdown as upstream's scripts read it (toolboxmd/karpathy-wiki, reference/upstream-format.md
// §1.6 and §2.3), kept on purpose. Upstream's validator and index builder read pages with a few
// string searches and regular expressions of their own, not as CommonMark does: a `---` line
// anywhere may end the frontmatter, code is any text between triple backticks or between single
// backticks on one line, a link is whatever `\[[^\]]*\]\(([^)\s]+)\)` matches, and a page's
// description is its first raw paragraph, a heading's `#`s and all. Verdicts and index bytes must
// match upstream's exactly — a wiki upstream accepts is accepted here, and a regenerated index is
// byte for byte the one upstream writes — so the validator and the index builder read this dialect.
// Everything else (what ranks, what is quoted, what is posted) reads CommonMark: body.ts, code.ts,
// blocks.ts.
import type { BodyStart } from './body.js';
import { markdownLinks } from './links.js';
import { pyStrip } from './py-strip.js';

const OPENER = '---\n';
const CLOSER = '\n---\n';

/** The frontmatter block as upstream extracts it: the text opens with `---\n` and the block ends at the first `\n---\n`. */
export function upstreamFrontmatterBlock(text: string): string | undefined {
  if (!text.startsWith(OPENER)) return undefined;
  const close = text.indexOf(CLOSER);
  if (close < 0) return undefined;
  const head = text.slice(0, close);
  return head.startsWith(OPENER) ? head.slice(OPENER.length) : head.slice(CLOSER.length);
}

const countNewlines = (s: string, start: number, end: number): number => {
  let n = 0;
  for (let i = s.indexOf('\n', start); i >= 0 && i < end; i = s.indexOf('\n', i + 1)) n++;
  return n;
};

/** Where the validator's body starts: after the page's first `\n---\n`, wherever it is; undefined without one. */
export function upstreamBodyStart(text: string): BodyStart | undefined {
  const close = text.indexOf(CLOSER);
  if (close < 0) return undefined;
  const offset = close + CLOSER.length;
  return { offset, line: countNewlines(text, 0, offset) + 1 };
}

/** The body as the validator reads it: the whole page when it holds no `\n---\n`. */
export const upstreamBody = (text: string): string => text.slice(upstreamBodyStart(text)?.offset ?? 0);

const FENCED_CODE = /```[\s\S]*?```/g;
const INLINE_CODE = /`[^`\n]+`/g;
/** Blanked, not removed, so offsets (and so line numbers) stay true. */
const blank = (code: string): string => code.replace(/[^\n]/g, ' ');

/** Code as upstream blanks it before looking for links: text between triple backticks, then between single backticks on one line. */
export const blankCodeAsUpstream = (body: string): string => (body.includes('`') ? body.replace(FENCED_CODE, blank).replace(INLINE_CODE, blank) : body);

/** The markdown links of a page's body outside code, as upstream's validator finds them, with the 1-based page line each starts on. */
export function upstreamBodyLinks(text: string): Array<{ target: string; line: number }> {
  const start = upstreamBodyStart(text);
  if (!start) return [];
  const rawBody = text.slice(start.offset);
  if (!rawBody.includes('](')) return [];
  const body = blankCodeAsUpstream(rawBody);
  // Matches come in order, so line numbers are counted forward once, not from the top each time.
  let line = start.line;
  let counted = 0;
  return markdownLinks(body).map((link) => {
    line += countNewlines(body, counted, link.index);
    counted = link.index;
    return { target: link.target, line };
  });
}

const DESCRIPTION_LIMIT = 200;

/** The text cut to its first `count` code points (Python's `s[:count]`), or undefined when it has no more than that. */
function codePointPrefix(text: string, count: number): string | undefined {
  let at = 0;
  for (let k = 0; k < count; k++) {
    if (at >= text.length) return undefined;
    at += text.codePointAt(at)! > 0xffff ? 2 : 1;
  }
  return at >= text.length ? undefined : text.slice(0, at);
}

/**
 * A page's description in upstream's index: the first paragraph after the frontmatter (the text up
 * to the first blank line, after the first `\n---\n` past the opening line), joined to one line, a
 * heading kept as written (`# Heading First`), cut at 200 code points with `...`. Empty without a
 * closing `---` line.
 */
export function upstreamDescription(text: string): string {
  const close = text.indexOf(CLOSER, OPENER.length);
  if (close < 0) return '';
  const body = pyStrip(text.slice(close + CLOSER.length));
  const blankLine = body.indexOf('\n\n');
  const paragraph = pyStrip((blankLine < 0 ? body : body.slice(0, blankLine)).replaceAll('\n', ' '));
  const cut = codePointPrefix(paragraph, DESCRIPTION_LIMIT);
  return cut === undefined ? paragraph : `${cut}...`;
}
