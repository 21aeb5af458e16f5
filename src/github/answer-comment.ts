// The answer comment: the answer with permalink citations, a folded "How this was answered"
// section, and a hidden trailer — for an issue's question the edit it answers (the issue's
// `updated_at` in the event), the marker that identifies the question, then the trace as JSON
// for the digest. It always fits GitHub's 65,536-character limit: long parts are cut with a visible
// note. Only the trailer counts: markers anywhere else (quoted by an asker, copied from a page) are
// neutralised when the comment is posted (posted-text.ts) and never read back.
import { traceSummary } from '../answer/render.js';
import type { Trace } from '../answer/trace.js';
import { type StewardText, postableVisible } from './posted-text.js';

export const COMMENT_LIMIT = 65_536;
const MARKER_PREFIX = '<!-- wiki-steward:answer ';
const TRACE_PREFIX = '<!-- wiki-steward:trace ';
/** The longest echo of the question quoted at the top of the comment (the search limit is QUESTION_SEARCH_LIMIT). */
export const QUOTED_QUESTION_LIMIT = 2_000;
const DETAILS_LIMIT = 12_000;

/** JSON that cannot end the HTML comment it sits in, and whose `@`s cannot mention anyone. */
const commentSafeJson = (value: unknown): string => JSON.stringify(value).replaceAll('--', '-\\u002d').replaceAll('>', '\\u003e').replaceAll('@', '\\u0040');

export const markerFor = (key: string): string => `${MARKER_PREFIX}key=${key} -->`;

/** A GitHub timestamp (`2026-06-01T10:00:00Z`): the only thing the edit marker carries. */
const STAMP = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z`;
const TIMESTAMP = new RegExp(`^${STAMP}$`);

/**
 * The markers that end an answer comment (or a refusal), before the trace: which edit of the
 * question it answers when that is known (an issue's question: the issue's `updated_at` in the
 * event; a `/wiki ask` comment is never asked again by an edit), then the question's marker.
 */
export function answerMarkers(key: string, editedAt?: string): string[] {
  return [...(editedAt !== undefined && TIMESTAMP.test(editedAt) ? [`<!-- wiki-steward:edit ${editedAt} -->`] : []), markerFor(key)];
}

/** The trailer the steward ends every answer comment with: the edit (when known), its marker, then (for answers) the trace. */
const TRAILER = new RegExp(
  String.raw`(?:^|\r?\n)(?:<!-- wiki-steward:edit (${STAMP}) -->\r?\n)?` +
    String.raw`<!-- wiki-steward:answer key=([\w-]+) -->(?:\r?\n<!-- wiki-steward:trace ([^\r\n]*) -->)?\s*$`,
);

/** The question key of a comment's trailing marker, if it ends like a steward comment. */
export function markerKey(body: string): string | undefined {
  return TRAILER.exec(body)?.[2];
}

/** Which edit of the question a comment's trailer says it answers (undefined: not said). */
export function editOfComment(body: string): string | undefined {
  return TRAILER.exec(body)?.[1];
}

/** Whether an answer to the question as edited at `mine` is for a later edit than one to `theirs` (unknown on either side: no). */
export function isNewerEdit(mine: string | undefined, theirs: string | undefined): boolean {
  if (mine === undefined || theirs === undefined) return false;
  return Date.parse(mine) > Date.parse(theirs);
}

/** The trace JSON of a comment's trailer (what the digest reads back); markers elsewhere do not count. */
export function traceFromComment(body: string): Trace | undefined {
  const json = TRAILER.exec(body)?.[3];
  if (json === undefined) return undefined;
  try {
    return JSON.parse(json) as Trace;
  } catch {
    return undefined;
  }
}

export interface CommentParts {
  key: string;
  /** Which edit of the question this answers (the issue's `updated_at` in the event), when known. */
  editedAt?: string | undefined;
  trace: Trace;
  /** The answer markdown with permalink citations. */
  answer: string;
  /** Extra lines under the answer (capture PR link, retry advice). */
  footer?: string[];
  /** The comment's last visible line (answer-signature.ts), under everything else. */
  signature?: string;
}

const cut = (text: string, limit: number, what: string): string =>
  text.length <= limit ? text : `${text.slice(0, limit)}\n\n_[${what} cut here: ${text.length - limit} more characters not shown]_`;

/** The comment as posted: visible text (neutralised here already, so the length budget holds) and its trailer. */
export function renderComment(parts: CommentParts): StewardText {
  const { trace } = parts;
  const question = postableVisible(trace.question.slice(0, QUOTED_QUESTION_LIMIT));
  const quoted = question
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
  const questionCut =
    trace.question.length > QUOTED_QUESTION_LIMIT
      ? `\n\n_[Question cut here: ${trace.question.length - QUOTED_QUESTION_LIMIT} more characters not shown]_`
      : '';
  const head = `${quoted}${questionCut}\n\n`;
  const details =
    cut(['<details><summary>How this was answered</summary>', '', ...traceSummary(trace).map(postableVisible), ''].join('\n'), DETAILS_LIMIT, 'Trace') +
    '\n\n</details>';
  const footer = postableVisible([...(parts.footer ?? []), ...(parts.signature ? ['', parts.signature] : [])].join('\n'));
  const markers = answerMarkers(parts.key, parts.editedAt);
  // The trace JSON is what the digest reads: slimmed first when space runs short, dropped last.
  let traceJson = `${TRACE_PREFIX}${commentSafeJson(trace)} -->`;
  const fixed = head.length + details.length + footer.length + markers.join('\n').length + 16;
  if (fixed + traceJson.length + parts.answer.length > COMMENT_LIMIT) {
    traceJson = `${TRACE_PREFIX}${commentSafeJson(slimTrace(trace))} -->`;
  }
  if (fixed + traceJson.length > COMMENT_LIMIT / 2)
    traceJson = `${TRACE_PREFIX}${commentSafeJson(slimTrace({ ...trace, question: trace.question.slice(0, 500) }, true))} -->`;
  const room = COMMENT_LIMIT - fixed - traceJson.length - 200;
  const answer = cut(postableVisible(parts.answer), Math.max(1000, room), 'Answer');
  return { text: [head + answer, '', details, footer].filter((s) => s !== '').join('\n'), markers: [...markers, traceJson] };
}

/** The trace without its bulk: few candidates, no answer text (the comment shows it). */
function slimTrace(trace: Trace, minimal = false): Trace {
  return {
    ...trace,
    answer: '',
    candidates: trace.candidates.slice(0, minimal ? 5 : 25),
    read: trace.read.slice(0, minimal ? 10 : 50),
    dropped_terms: minimal ? [] : trace.dropped_terms.slice(0, 20),
    provider_calls: minimal ? [] : trace.provider_calls.slice(0, 20),
  };
}
