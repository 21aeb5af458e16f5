// What a capture says: the question, what the wiki had (cited), what was missing, the web sources,
// and the answer given. Two formats, both valid by the upstream rules:
//  - `queries`: a page `queries/<slug>.md` with full page frontmatter (it passes the validator),
//    its quality block from a documented deterministic rubric, rated by `ingester` for a reviewer
//    to confirm or overrule as `human`;
//  - `pending`: a `.wiki-pending/<stamp>-<slug>.md` capture per the upstream capture schema, for
//    wikis that an external ingester processes (chat-only, evidence `conversation`, body floor).
import { createHash } from 'node:crypto';
import { type Trace, type WebCitation, type WikiCitation, isWikiCitation } from '../answer/trace.js';
import { pyFormatFixed2 } from '../wiki/python-compat.js';
import { unlinkPageLinks } from '../answer/render.js';
import { boundedList, clip, cutHere, cutMarkdown } from '../markdown/bound.js';
import { inlineCode } from '../markdown/code.js';
import { inertText, webLink } from '../markdown/inert.js';

export interface CaptureSource {
  /** Where the question was asked, e.g. the issue URL; absent for local captures. */
  url?: string;
  /** `#12` style reference for the PR body and the page. */
  label?: string;
}

export interface CaptureInput {
  trace: Trace;
  source: CaptureSource;
  now: Date;
}

/** Upstream's body floor for a chat-only capture, in bytes. */
export const PENDING_BODY_FLOOR = 1500;
const TITLE_LIMIT = 120;

const isoSeconds = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
/** Upstream's capture timestamp: ISO UTC with hyphens in the time part. */
export const captureStamp = (d: Date): string => isoSeconds(d).replaceAll(':', '-');

/** The question's first line, safe inside a double-quoted scalar for both the dialect and YAML 1.2. */
export function captureTitle(question: string): string {
  const first = question.split('\n').find((l) => l.trim() !== '') ?? 'Untitled question';
  const clean = first
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replaceAll('"', "'")
    .replaceAll('\\', '/')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > TITLE_LIMIT ? `${clean.slice(0, TITLE_LIMIT - 1).trimEnd()}…` : clean;
}

const unlink = unlinkPageLinks;
/**
 * The asker's words, the pages' and the providers' as they are committed to the wiki: no HTML and
 * no images, which a page would load for every reader (a tracking pixel in a question becomes one
 * in the merged page).
 */
const inert = inertText;

/**
 * A capture page stays a page a reader (and the wiki search) takes in: each list shows its first
 * CAPTURE_LIST entries and "… and K more", a quote or term is clipped, and the answer given is cut
 * (with a note) past ANSWER_CHARS. With a model's claims capped too, a capture stays well under
 * GitHub's 65,536 characters.
 */
const CAPTURE_LIST = 25;
const QUOTE_CHARS = 600;
const TERM_CHARS = 200;
const ANSWER_CHARS = 30_000;
/** The "… and K more" line of a bulleted list as a bullet too. */
const asItem = (line: string): string => (line.startsWith('- ') ? line : `- ${line}`);

const lineRange = (c: WikiCitation): string => (c.lines[0] === c.lines[1] ? `line ${c.lines[0]}` : `lines ${c.lines[0]}-${c.lines[1]}`);
const wikiCitations = (t: Trace) => t.citations.filter(isWikiCitation);
const webCitations = (t: Trace) => t.citations.filter((c): c is WebCitation => !isWikiCitation(c));

/**
 * The rubric, so reviewers know what the scores mean:
 * - accuracy: 4 when the answer's every claim is cited, 3 when only part of it is, 2 with no citation;
 * - completeness: cold 1, gap 2, plus 1 when web sources fill what the wiki lacks;
 * - signal: 3 — one focused question, not yet edited by a person;
 * - interlinking: 1 + the number of wiki pages cited, at most 5;
 * - overall: the mean, rounded to 2 decimals as the validator expects.
 */
export function captureQuality(trace: Trace): { accuracy: number; completeness: number; signal: number; interlinking: number; overall: string } {
  const cited = trace.citations.length;
  const accuracy = cited === 0 ? 2 : trace.violations.some((v) => v.action === 'dropped') ? 3 : 4;
  const completeness = (trace.outcome === 'cold' ? 1 : 2) + (webCitations(trace).length > 0 ? 1 : 0);
  const signal = 3;
  const interlinking = Math.min(5, 1 + new Set(wikiCitations(trace).map((c) => c.path)).size);
  return { accuracy, completeness, signal, interlinking, overall: pyFormatFixed2((accuracy + completeness + signal + interlinking) / 4) };
}

function bodySections(input: CaptureInput, wikiLink: (c: WikiCitation) => string): string[] {
  const { trace, source } = input;
  const had = wikiCitations(trace);
  const web = webCitations(trace);
  // A run of white space holding a line break becomes one space (each run matched once: `\s*\n\s*` rescanned long runs of spaces).
  const quote = (s: string) => unlink(s).replace(/\s+/g, (run) => (run.includes('\n') ? ' ' : run));
  const fromSource = source.label ? ` from ${source.url ? `[${source.label}](${source.url})` : source.label}` : '';
  return [
    '## Question',
    '',
    ...trace.question.split('\n').map((l) => `> ${inert(unlink(l))}`.trimEnd()),
    '',
    '## What the wiki had',
    '',
    ...(had.length > 0
      ? boundedList(
          had.map((c) => `- “${inert(clip(quote(c.quote), QUOTE_CHARS))}” — ${wikiLink(c)}`),
          CAPTURE_LIST,
        ).map(asItem)
      : ['Nothing: no page matched this question.']),
    '',
    '## What was missing',
    '',
    ...(trace.missing.length > 0
      ? boundedList(
          trace.missing.map((m) => `- ${inlineCode(clip(m, TERM_CHARS))}`),
          CAPTURE_LIST,
        ).map(asItem)
      : ['- The pages read did not cover every claim of an answer.']),
    '',
    '## From the web',
    '',
    ...(web.length > 0
      ? boundedList(
          web.map((c) => `- ${webLink(clip(c.title, TERM_CHARS), c.url)}`),
          CAPTURE_LIST,
        ).map(asItem)
      : ['No web search was made (no provider configured) or it found nothing.']),
    '',
    '## Answer given',
    '',
    cutMarkdown(unlink(trace.answer), ANSWER_CHARS, cutHere('Answer')),
    '',
    `Captured by wiki-steward${fromSource} (branch \`${trace.branch}\`, outcome \`${trace.outcome}\`).`,
  ];
}

const summaryLine = (trace: Trace): string =>
  trace.outcome === 'cold'
    ? 'A question the wiki had no page for, captured so the next asker finds an answer here.'
    : 'A question the wiki covered only in part, captured with what it had and what was missing.';

/**
 * The frontmatter value that marks a page the steward wrote for a question it could not answer.
 * A reviewer turns the capture into coverage by writing the answer and deleting `captured_by`.
 */
export const CAPTURE_MARK = 'wiki-steward';

/** A `queries/` page: full frontmatter that passes the validator, the capture as its body. */
export function queriesPage(input: CaptureInput, tags: readonly string[]): string {
  const { trace, now } = input;
  const q = captureQuality(trace);
  const stamp = isoSeconds(now);
  const link = (c: WikiCitation) => `[${c.path}](/${c.path}) ${lineRange(c)}`;
  return [
    '---',
    `title: "${captureTitle(trace.question)}"`,
    'type: queries',
    `tags: [${['capture', trace.outcome === 'cold' ? 'cold' : 'gap', ...tags].join(', ')}]`,
    // The capture mark: while it stays, the page records an open gap, never coverage (see wiki/open-capture.ts).
    `captured_by: ${CAPTURE_MARK}`,
    'sources: [conversation]',
    `created: "${stamp}"`,
    `updated: "${stamp}"`,
    'quality:',
    `  accuracy: ${q.accuracy}`,
    `  completeness: ${q.completeness}`,
    `  signal: ${q.signal}`,
    `  interlinking: ${q.interlinking}`,
    `  overall: ${q.overall}`,
    `  rated_at: "${stamp}"`,
    '  rated_by: ingester',
    '---',
    summaryLine(trace),
    '',
    ...bodySections(input, link),
    '',
  ].join('\n');
}

/** A `.wiki-pending/` capture, field by field in upstream's order; thin bodies are flagged, never padded. */
export function pendingCapture(input: CaptureInput): string {
  const { trace, now } = input;
  const link = (c: WikiCitation) => `${c.path} ${lineRange(c)}`;
  const body = `${summaryLine(trace)}\n\n${bodySections(input, link).join('\n')}\n`;
  const bytes = Buffer.byteLength(body);
  const id = createHash('sha256')
    .update(`${trace.question}\u0000${input.source.url ?? ''}`)
    .digest('hex')
    .slice(0, 32);
  const fields: Array<[string, string]> = [
    ['title', JSON.stringify(captureTitle(trace.question))],
    ['evidence', '"conversation"'],
    ['evidence_type', '"conversation"'],
    ['capture_kind', '"chat-only"'],
    ['suggested_action', '"create"'],
    ['suggested_pages', `[${[...new Set(wikiCitations(trace).map((c) => JSON.stringify(c.path)))].join(', ')}]`],
    ['captured_at', `"${captureStamp(now)}"`],
    ['captured_by', '"wiki-steward"'],
    ['capture_id', `"cap-${id}"`],
    ['promotion_policy', '"none"'],
    ['promotion_decision', 'null'],
    ['promotion_id', 'null'],
    ['propagated_from', 'null'],
  ];
  if (bytes < PENDING_BODY_FLOOR) {
    fields.push(
      ['needs_more_detail', 'true'],
      ['needs_more_detail_reason', `"body is ${bytes} bytes; floor for capture_kind=chat-only is ${PENDING_BODY_FLOOR} bytes"`],
    );
  }
  return `---\n${fields.map(([k, v]) => `${k}: ${v}`).join('\n')}\n---\n\n${body}`;
}
