// The answer comment: the answer with permalink citations, a folded "How this was answered"
// section, and a hidden marker that identifies the question and carries the trace as JSON for the
// digest. It always fits GitHub's 65,536-character limit: long parts are cut with a visible note.
import { traceSummary } from '../answer/render.js';
import type { Trace } from '../answer/trace.js';

export const COMMENT_LIMIT = 65_536;
const MARKER_PREFIX = '<!-- wiki-steward:answer ';
const TRACE_PREFIX = '<!-- wiki-steward:trace ';
const QUESTION_LIMIT = 2_000;
const DETAILS_LIMIT = 12_000;

/** `@user` and `@org/team` in page or model text must not ping anyone: a word joiner breaks the link. */
export const neutralizeMentions = (text: string): string => text.replace(/(^|[^\w`])@(?=[A-Za-z0-9])/g, '$1@\u2060');

/** JSON that cannot end the HTML comment it sits in, and whose `@`s cannot mention anyone. */
const commentSafeJson = (value: unknown): string =>
  JSON.stringify(value).replaceAll('--', '-\\u002d').replaceAll('>', '\\u003e').replaceAll('@', '\\u0040');

export const markerFor = (key: string): string => `${MARKER_PREFIX}key=${key} -->`;

/** The question key in a comment body written by the steward, if any. */
export function markerKey(body: string): string | undefined {
  return /<!-- wiki-steward:answer key=([\w-]+) -->/.exec(body)?.[1];
}

/** The trace JSON carried by a steward comment (what the digest reads back). */
export function traceFromComment(body: string): Trace | undefined {
  const at = body.indexOf(TRACE_PREFIX);
  if (at < 0) return undefined;
  const end = body.indexOf(' -->', at);
  try {
    return JSON.parse(body.slice(at + TRACE_PREFIX.length, end)) as Trace;
  } catch {
    return undefined;
  }
}

export interface CommentParts {
  key: string;
  trace: Trace;
  /** The answer markdown with permalink citations. */
  answer: string;
  /** Extra lines under the answer (capture PR link, retry advice). */
  footer?: string[];
}

const cut = (text: string, limit: number, what: string): string =>
  text.length <= limit ? text : `${text.slice(0, limit)}\n\n_[${what} cut here: ${text.length - limit} more characters not shown]_`;

export function renderComment(parts: CommentParts): string {
  const { trace } = parts;
  const question = neutralizeMentions(trace.question.slice(0, QUESTION_LIMIT));
  const quoted = question
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
  const questionCut = trace.question.length > QUESTION_LIMIT ? `\n\n_[Question cut here: ${trace.question.length - QUESTION_LIMIT} more characters not shown]_` : '';
  const head = `${quoted}${questionCut}\n\n`;
  const details = cut(['<details><summary>How this was answered</summary>', '', ...traceSummary(trace).map(neutralizeMentions), ''].join('\n'), DETAILS_LIMIT, 'Trace') + '\n\n</details>';
  const footer = (parts.footer ?? []).join('\n');
  const marker = markerFor(parts.key);
  // The trace JSON is what the digest reads: slimmed first when space runs short, dropped last.
  let traceJson = `${TRACE_PREFIX}${commentSafeJson(trace)} -->`;
  const fixed = head.length + details.length + footer.length + marker.length + 16;
  if (fixed + traceJson.length + parts.answer.length > COMMENT_LIMIT) {
    traceJson = `${TRACE_PREFIX}${commentSafeJson(slimTrace(trace))} -->`;
  }
  if (fixed + traceJson.length > COMMENT_LIMIT / 2) traceJson = `${TRACE_PREFIX}${commentSafeJson(slimTrace({ ...trace, question: trace.question.slice(0, 500) }, true))} -->`;
  const room = COMMENT_LIMIT - fixed - traceJson.length - 200;
  const answer = cut(neutralizeMentions(parts.answer), Math.max(1000, room), 'Answer');
  return [head + answer, '', details, footer, marker, traceJson].filter((s) => s !== '').join('\n');
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
