// Text the steward posts to GitHub — comments, issue and pull request titles and bodies, the
// digest, job summaries — passes through `postable` on its way out (the write helpers in
// writes-text.ts and the Action's summary call it, so no caller can forget):
//   - line breaks are `\n` only: GitHub reads a lone `\r` as a line end, so an asker's `\r` would
//     end the `> ` quote the steward puts around the question;
//   - `@user` and `@org/team` are neutralised (neutralizeMentions, the one place that does it), so
//     quoting an asker, a wiki page or a model never pings anyone;
//   - closing keywords before an issue reference ("Fixes #12") are broken, so merging a pull
//     request the steward wrote, or squashing it under its title, never closes an issue;
//   - HTML comment openers are broken, so nothing an asker wrote can pose as one of the steward's
//     hidden markers (`<!-- wiki-steward:… -->`) or hide the rest of the text;
//   - the steward's own markers are appended after that, untouched, as the text's trailer: the
//     only place the steward reads markers back from.
// A body (not a title) also stays within GitHub's 65,536 characters (`postableBody`): the visible
// text is cut at a safe place with a note saying how much was left out (markdown/bound.ts), and
// the markers are kept whole. Callers bound each field first, so that cut is a last resort.
import { type CutNote, cutHere, cutMarkdown } from '../markdown/bound.js';
import { lfLineBreaks } from '../markdown/body.js';
import { codeRanges } from '../markdown/code.js';

/**
 * `@user` and `@org/team` must not ping anyone: a word joiner after the `@` breaks the link. An `@`
 * inside a code span or a fenced block pings no one and keeps its text (`@actions/core` must copy
 * as written); an `@` after a backtick that opens no code span is a mention like any other. Code is
 * found as a reader sees it (markdown/code.ts): fenced blocks first, then, outside them, within a
 * paragraph, a run of backticks opens a span only when the next run of the same length closes it.
 */
export function neutralizeMentions(text: string): string {
  const code = codeRanges(text);
  let k = 0; // offsets come in order: the spans are swept once
  return text.replace(/(^|[^\w])@(?=[A-Za-z0-9])/g, (match, before: string, offset: number) => {
    const at = offset + before.length;
    while (k < code.length && code[k]!.end <= at) k++;
    return k < code.length && code[k]!.start < at ? match : `${before}@\u2060`;
  });
}

/** "Fixes #12", "closes owner/repo#3": a word joiner after the keyword, so GitHub closes nothing. */
const neutralizeClosingKeywords = (text: string): string =>
  text.replace(/\b(close[sd]?|fix(?:e[sd])?|resolve[sd]?)(?=:?[ \t]+(?:[\w.-]+\/[\w.-]+)?#\d)/gi, '$1\u2060');

/** `<!--` opens an HTML comment: a word joiner after the `<` makes it visible text. */
const neutralizeHtmlComments = (text: string): string => text.replaceAll('<!--', '<\u2060!--');

/** Visible text as it may be posted: `\n` line breaks, mentions, closing keywords and comment openers neutralised (idempotent). */
export const postableVisible = (text: string): string => neutralizeHtmlComments(neutralizeClosingKeywords(neutralizeMentions(lfLineBreaks(text))));

/** A text the steward posts: what people read, and the steward's own hidden markers after it. */
export interface StewardText {
  text: string;
  /** Each one hidden `<!-- wiki-steward:… -->` comment, written by the steward's own code. */
  markers?: readonly string[];
}

const isOwnMarker = (marker: string): boolean =>
  marker.startsWith('<!-- wiki-steward:') && marker.endsWith(' -->') && marker.indexOf('-->') === marker.length - 3 && !/[\r\n]/.test(marker);

/** The body as posted: the visible text neutralised, then the markers, one a line. */
export function postable(content: string | StewardText): string {
  const { text, markers = [] } = typeof content === 'string' ? { text: content } : content;
  for (const marker of markers) {
    if (!isOwnMarker(marker)) throw new Error(`not a steward marker (one line, one <!-- wiki-steward:… --> comment): ${marker.slice(0, 80)}`);
  }
  const visible = postableVisible(text);
  return markers.length === 0 ? visible : `${visible}${visible === '' ? '' : '\n'}${markers.join('\n')}`;
}

/** GitHub's limit for an issue, pull request or comment body (and the steward's for a job summary it writes). */
export const BODY_LIMIT = 65_536;

const limitNote =
  (limit: number): CutNote =>
  (left) =>
    `_[Cut here to stay within GitHub's ${limit.toLocaleString('en-US')}-character limit: ${left.toLocaleString('en-US')} more characters not shown]_`;

/**
 * A body as posted (`postable`) and at most `limit` characters: the markers whole, the visible text
 * cut at a safe place before them when it does not fit, with a note. Visible text a caller has
 * already made postable (postableVisible is idempotent) keeps the length the caller measured.
 */
export function postableBody(content: string | StewardText, limit = BODY_LIMIT): string {
  const { text, markers = [] } = typeof content === 'string' ? { text: content } : content;
  const trailer = markers.reduce((n, m) => n + m.length + 1, 0);
  if (trailer > limit) throw new Error(`the steward's markers alone are ${trailer} characters, over the ${limit}-character limit of a body`);
  return postable({ text: cutMarkdown(postableVisible(text), limit - trailer, limitNote(limit)), markers });
}

/**
 * Visible text that fits `room` characters once postable: the parts neutralised and joined by blank
 * lines, every part whole but the one marked `{ flexible }`, which is cut (with its own note) to
 * what the others leave. The fixed parts are bounded by their callers.
 */
export function fitVisible(parts: ReadonlyArray<string | { flexible: string; what: string }>, room: number): string {
  const texts = parts.map((p) => postableVisible(typeof p === 'string' ? p : p.flexible));
  const fixed = texts.reduce((n, t, i) => (typeof parts[i] === 'string' ? n + t.length : n), 0) + 2 * Math.max(0, parts.length - 1);
  return texts
    .map((t, i) => {
      const part = parts[i]!;
      return typeof part === 'string' ? t : cutMarkdown(t, Math.max(0, room - fixed), cutHere(part.what));
    })
    .filter((t) => t !== '')
    .join('\n\n');
}
