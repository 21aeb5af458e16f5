// The answer comment: the answer with permalink citations, a folded "How this was answered"
// section, and a hidden trailer — for an issue's question the edit it answers (the issue's
// `updated_at` in the event), the marker that identifies the question, then the trace as JSON
// for the digest. It always fits GitHub's 65,536-character limit: every list of the folded trace
// shows its first entries and "… and K more", the answer is cut at a safe place with a visible
// note, and the trace JSON is shortened (its `omitted` counts what each list lost). Only the
// trailer counts: markers anywhere else (quoted by an asker, copied from a page) are neutralised
// when the comment is posted (posted-text.ts) and never read back.
import { traceSummary } from '../answer/render.js';
import type { Trace } from '../answer/trace.js';
import { clip, cutHere, cutMarkdown } from '../markdown/bound.js';
import { lfLineBreaks } from '../markdown/body.js';
import { SIGNATURE_START } from './answer-signature.js';
import { BODY_LIMIT, type StewardText, fitVisible, postable, postableVisible } from './posted-text.js';

export const COMMENT_LIMIT = BODY_LIMIT;
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

/**
 * An answer comment the steward posted (its body as GitHub holds it), with one more visible line
 * just above the signature; the answer and its trailer are kept as they are (an answer that leaves
 * no room for the line loses its folded "How this was answered" section, which the trace keeps).
 * Undefined when the comment is no answer (a refusal has no trace) or already carries the line.
 */
export function answerWithNote(body: string, note: string): StewardText | undefined {
  const trailer = TRAILER.exec(body);
  if (!trailer || trailer[3] === undefined) return undefined;
  const text = lfLineBreaks(body.slice(0, trailer.index)).trimEnd();
  const line = postableVisible(note);
  if (text.includes(line)) return undefined;
  const lines = text.split('\n');
  const signature = lines.at(-1)?.startsWith(SIGNATURE_START) ? lines.pop()! : undefined;
  const markers = [...answerMarkers(trailer[2]!, trailer[1]), `${TRACE_PREFIX}${trailer[3]} -->`];
  const withLine = (answer: string): StewardText => ({ text: [answer.trimEnd(), '', line, ...(signature ? ['', signature] : [])].join('\n'), markers });
  const noted = withLine(lines.join('\n'));
  if (postable(noted).length <= COMMENT_LIMIT) return noted;
  return withLine(lines.join('\n').replace(DETAILS, '_[How this was answered: left out to make room for the note below]_'));
}

/** The folded "How this was answered" section of an answer comment. */
const DETAILS = /<details><summary>How this was answered<\/summary>[\s\S]*?\n<\/details>/;

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

/** The most characters of the hidden trace JSON: the digest reads its outcome, terms, top candidates and citations. */
const TRACE_LIMIT = 16_000;

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
  // Each line neutralised on its own: a backtick in one list item pairs with none in another.
  const summary = cutMarkdown(traceSummary(trace).map(postableVisible).join('\n'), DETAILS_LIMIT, cutHere('Trace'));
  const details = `<details><summary>How this was answered</summary>\n\n${summary}\n\n</details>`;
  const footer = [...(parts.footer ?? []), ...(parts.signature ? ['', parts.signature] : [])].join('\n').replace(/^\n+/, '');
  const markers = answerMarkers(parts.key, parts.editedAt);
  // The trace JSON is what the digest reads: whole when it is small, its lists shortened when not.
  const traceJson = postedTraceMarker(trace, parts.answer.length);
  const room = COMMENT_LIMIT - markers.join('\n').length - traceJson.length - 2;
  const text = fitVisible([`${quoted}${questionCut}`, { flexible: parts.answer, what: 'Answer' }, details, footer], room);
  return { text, markers: [...markers, traceJson] };
}

/** How short each list and string of the posted trace gets, step by step until its JSON fits TRACE_LIMIT. */
const TRACE_STEPS = [
  { items: 25, chars: 300, question: 4_000 },
  { items: 10, chars: 120, question: 1_000 },
  { items: 3, chars: 60, question: 300 },
] as const;

/**
 * The trace marker: the whole trace when it fits (with the answer, unless the comment needs the
 * room), else a copy with every list cut to its first entries and every string clipped; its
 * `omitted` says how many entries each list lost, so nothing is cut silently.
 */
function postedTraceMarker(trace: Trace, answerLength: number): string {
  const marker = (t: Trace) => `${TRACE_PREFIX}${commentSafeJson(t)} -->`;
  const whole = marker(trace);
  if (whole.length <= TRACE_LIMIT && whole.length + answerLength < COMMENT_LIMIT / 2) return whole;
  const withoutAnswer = marker({ ...trace, answer: '' });
  if (withoutAnswer.length <= TRACE_LIMIT) return withoutAnswer;
  let last = withoutAnswer;
  for (const step of TRACE_STEPS) {
    last = marker(shortenedTrace(trace, step));
    if (last.length <= TRACE_LIMIT) return last;
  }
  return last;
}

/** Every list of the trace (nested ones too) cut to `items` entries, every string clipped to `chars` (the question to its own bound). */
function shortenedTrace(trace: Trace, o: { items: number; chars: number; question: number }): Trace {
  const omitted: Record<string, number> = {};
  const shorten = (value: unknown, key: string): unknown => {
    if (typeof value === 'string') return clip(value, o.chars);
    if (Array.isArray(value)) {
      if (value.length > o.items) omitted[key] = (omitted[key] ?? 0) + value.length - o.items;
      return value.slice(0, o.items).map((v) => shorten(v, `${key}[]`));
    }
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v, key ? `${key}.${k}` : k)]));
    return value;
  };
  const { question, answer: _answer, wiki, ...rest } = trace;
  return {
    ...(shorten(rest, '') as Omit<Trace, 'question' | 'answer' | 'wiki'>),
    question: clip(question, o.question),
    wiki,
    answer: '',
    omitted,
  };
}
