// Bounded text: what the steward posts to GitHub (a comment, an issue or pull request body, a job
// summary) must stay under GitHub's limit, and what it commits must stay readable, whatever a wiki,
// a model or an asker made long. Each field is bounded where it is written — a string clipped at a
// word (`clip`), a list shown as its first entries and one "… and K more" (`firstOf`) — and a whole
// text is cut only at a safe place (`cutMarkdown`): at a line end, outside code (a fenced block, a
// code span), a link, an HTML tag or comment, with a visible note saying how much was left out, and
// an open `<details>` closed after it. github/posted-text.ts applies GitHub's limit with it.
import { codeRanges } from './code.js';

export const ELLIPSIS = '…';

/** Not between the two halves of a surrogate pair: the offset, or one before it. */
const atCodePoint = (text: string, at: number): number => {
  const c = text.charCodeAt(at - 1);
  return at > 0 && at < text.length && c >= 0xd800 && c <= 0xdbff ? at - 1 : at;
};

/**
 * At most `max` characters: the text, or its start cut at white space when some is near the end
 * (else at `max`, never inside a surrogate pair), trimmed, with "…". Clip plain text before it is
 * made markup (a code span, an inert string): clipped markup could end inside its own syntax.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = Math.max(0, max - ELLIPSIS.length);
  let at = room;
  for (let k = room; k > room * 0.7 && k > 0; k--) {
    if (/\s/.test(text[k]!)) {
      at = k;
      break;
    }
  }
  return `${text.slice(0, atCodePoint(text, at)).trimEnd()}${ELLIPSIS}`;
}

/** "… and K more" (with what they are, when given). */
export const andMore = (left: number, what?: string): string => `${ELLIPSIS} and ${left} more${what ? ` ${what}` : ''}`;

/**
 * A list as shown: its first `max` items (fewer when `chars` is given and the next would take
 * their total length past it), and how many were left out.
 */
export function firstOf<T>(items: readonly T[], max: number, chars?: { budget: number; length: (item: T) => number }): { shown: T[]; left: number } {
  const shown: T[] = [];
  let used = 0;
  for (const item of items) {
    if (shown.length >= max) break;
    if (chars) {
      const length = chars.length(item);
      if (shown.length > 0 && used + length > chars.budget) break;
      used += length;
    }
    shown.push(item);
  }
  return { shown, left: items.length - shown.length };
}

/** The first `max` items, and one last item "… and K more" when there were more. */
export function boundedList(items: readonly string[], max: number, what?: string): string[] {
  const { shown, left } = firstOf(items, max);
  return left > 0 ? [...shown, andMore(left, what)] : shown;
}

interface Range {
  start: number;
  end: number;
}

/** How far back from the limit a cut looks for a line end (then white space) before it cuts inside a line. */
const LOOK_BACK = 4_000;

/**
 * Where a text may be cut at or before `max`, so that what is kept renders as it did and nothing
 * after it is swallowed: never inside a fenced code block, a code span, a link or image, an HTML
 * tag or comment, or a bare URL. A line end is preferred, then white space; a hard cut (a single
 * enormous line) steps back out of whatever construct it would split.
 */
export function safeCutOffset(text: string, max: number): number {
  if (max >= text.length) return text.length;
  if (max <= 0) return 0;
  const from = Math.max(0, max - LOOK_BACK);
  const unsafe = unsafeRanges(text, from, max);
  const inside = (at: number) => unsafe.some((r) => r.start < at && at < r.end);
  const enclosing = (at: number) => unsafe.find((r) => r.start < at && at < r.end);
  for (let at = text.lastIndexOf('\n', max - 1); at >= from && at > 0; at = text.lastIndexOf('\n', at - 1)) {
    if (!inside(at)) return at;
  }
  for (let at = max; at > from; at--) {
    if (/\s/.test(text[at]!) && !inside(at)) return at;
  }
  let at = atCodePoint(text, max);
  // Step back out of constructs (one may sit inside another: a code span in a link).
  for (let r = enclosing(at); r; r = enclosing(at)) at = r.start;
  return at;
}

/** The constructs a cut between `from` and `to` could split, as offset ranges (only those near the cut are looked for). */
function unsafeRanges(text: string, from: number, to: number): Range[] {
  const ranges: Range[] = [];
  // Fenced blocks and code spans (a fence opened long before the cut still holds it; cutting at a
  // closing line's end is safe: the block is whole).
  for (const code of codeRanges(text)) if (code.end > from && code.start < to) ranges.push(code);
  // An HTML comment open before the cut and not closed before it.
  const comment = text.lastIndexOf('<!--', to);
  if (comment >= 0) {
    const close = text.indexOf('-->', comment + 4);
    if (close < 0 || close + 3 > from) ranges.push({ start: comment, end: close < 0 ? text.length : close + 3 });
  }
  // Links, images, tags and bare URLs on the lines around the cut (each on one line as the steward writes them).
  const lineStart = Math.max(0, text.lastIndexOf('\n', from) + 1, from - LOOK_BACK);
  const lineEnd = text.indexOf('\n', to);
  const near = text.slice(lineStart, Math.min(lineEnd < 0 ? text.length : lineEnd, to + LOOK_BACK));
  for (const m of near.matchAll(/!?\[[^\]\n]*\]\([^)\n]*\)|<[A-Za-z/!?][^<>\n]*>|https?:\/\/[^\s<>]+/g)) {
    ranges.push({ start: lineStart + m.index, end: lineStart + m.index + m[0].length });
  }
  return ranges;
}

/** `<details>` elements opened and not closed in a text the steward wrote. */
const openDetails = (text: string): number => (text.match(/<details\b/gi)?.length ?? 0) - (text.match(/<\/details>/gi)?.length ?? 0);

const CLOSE_DETAILS = '\n\n</details>';

/** The note a cut text ends with: how many characters were left out. */
export type CutNote = (left: number) => string;

export const cutHere =
  (what: string): CutNote =>
  (left) =>
    `_[${what} cut here: ${left.toLocaleString('en-US')} more characters not shown]_`;

/**
 * The text, or when it is longer than `limit` characters its start cut at a safe place
 * (`safeCutOffset`) followed by a blank line and the note; any `<details>` left open is closed
 * after the note. The result is never longer than `limit` (empty when not even the note fits).
 */
export function cutMarkdown(text: string, limit: number, note: CutNote = cutHere('Text')): string {
  if (text.length <= limit) return text;
  const reserve = note(text.length).length + 2;
  // No room even for the note: nothing of the text fits.
  if (limit < reserve) return '';
  // Room to close every `<details>` the kept text could open.
  const closers = (text.slice(0, limit).match(/<details\b/gi)?.length ?? 0) * CLOSE_DETAILS.length;
  const at = safeCutOffset(text, Math.max(0, limit - reserve - closers));
  const kept = text.slice(0, at).trimEnd();
  const tail = `${kept === '' ? '' : '\n\n'}${note(text.length - kept.length)}${CLOSE_DETAILS.repeat(Math.max(0, openDetails(kept)))}`;
  return `${kept}${tail}`;
}
