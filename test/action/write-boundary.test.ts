// The one way out for text the steward posts. Every comment, issue, pull request and job summary
// is written through the helpers that neutralise it (src/github/writes-text.ts, the Action's
// reporter): this scans src/ so a new caller cannot go around them. And the pieces themselves:
// what `postable` does to a text and its markers, and that only a comment's trailer is read back.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  COMMENT_LIMIT,
  answerMarkers,
  answerWithNote,
  editOfComment,
  isNewerEdit,
  markerFor,
  markerKey,
  renderComment,
  traceFromComment,
} from '../../src/github/answer-comment.js';
import { postable } from '../../src/github/posted-text.js';
import type { Trace } from '../../src/answer/trace.js';
import { visibleMarkdown } from '../../src/markdown/visible.js';
import { readCaptureMarker, rewriteCaptureMarker } from '../../src/jobs/capture-pr.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const sources = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => ({ file: `src/${f.split(path.sep).join('/')}`, text: readFileSync(path.join(SRC, f), 'utf8') }));

/** Octokit calls that post text people read, and the one file allowed to make them. */
const TEXT_WRITES =
  /\brest\.(?:issues\.(?:createComment|updateComment|create|update)|pulls\.(?:create|update))\b|\b(?:addDiscussionComment|updateDiscussionComment)\(input/;
/** A job summary write (the Step's file command), and what else would reach the file or the process's own output. */
const SUMMARY_WRITES = /\.appendSummary\(/;
const SUMMARY_FILE = /\bGITHUB_STEP_SUMMARY\b/;
const PROCESS_OUTPUT = /\bconsole\.[a-z]+\(|\bprocess\.(?:stdout|stderr)\.write\b/;

describe('the write boundary', () => {
  it('only src/github/writes-text.ts posts comments, issues and pull requests', () => {
    const callers = sources.filter((s) => TEXT_WRITES.test(s.text)).map((s) => s.file);
    expect(callers).toEqual(['src/github/writes-text.ts']);
    // Every body it sends is bounded to GitHub's 65,536 characters (titles are postable only).
    const writes = sources.find((s) => s.file === 'src/github/writes-text.ts')!.text;
    expect(writes).not.toMatch(/\bbody(?: =|:) postable\(/);
    expect(writes.match(/\bbody(?: =|:) postableBody\(/g)).toHaveLength(8);
  });

  it('only the Action reporter writes the job summary, through postableBody (neutralised and within the body limit)', () => {
    const callers = sources.filter((s) => SUMMARY_WRITES.test(s.text)).map((s) => s.file);
    expect(callers).toEqual(['src/action/actions-reporter.ts']);
    expect(sources.find((s) => s.file === 'src/action/actions-reporter.ts')?.text).toMatch(/step\.appendSummary\(postableBody\(/);
    // The summary file itself is opened by the Step alone.
    expect(sources.filter((s) => SUMMARY_FILE.test(s.text)).map((s) => s.file)).toEqual(['src/action/step.ts']);
  });

  it("the Action's log goes through its Step: only the entries write to the process's own stdout and stderr", () => {
    // So a run in-process (runAction with a buffer, as the Action tests run it) logs what the bundle logs.
    // copilot-chat.ts wraps stderr.write to mask the token in the Copilot SDK's own output.
    const writers = sources
      .filter((s) => PROCESS_OUTPUT.test(s.text))
      .map((s) => s.file)
      .sort();
    expect(writers).toEqual(['src/action.ts', 'src/answer/model/copilot-chat.ts', 'src/cli/context.ts']);
  });

  it('mentions are neutralised by one function only', () => {
    const definers = sources.filter((s) => /\\u2060/.test(s.text)).map((s) => s.file);
    expect(definers).toEqual(['src/github/posted-text.ts']);
  });
});

describe('postable', () => {
  it("neutralises mentions and HTML comment openers in the text, then appends the steward's markers untouched", () => {
    const posted = postable({
      text: 'Ask @maya or @octo-org/docs, not alice@example.com or `@code`.\n<!-- wiki-steward:answer key=issue-1 --> <!-- hidden',
      markers: [markerFor('issue-2')],
    });
    expect(posted).toBe(
      'Ask @\u2060maya or @\u2060octo-org/docs, not alice@example.com or `@code`.\n<\u2060!-- wiki-steward:answer key=issue-1 --> <\u2060!-- hidden\n<!-- wiki-steward:answer key=issue-2 -->',
    );
    expect(postable(posted.slice(0, posted.lastIndexOf('\n')))).toBe(posted.slice(0, posted.lastIndexOf('\n'))); // idempotent
  });

  it('refuses a marker that is not one line of one steward comment', () => {
    expect(() => postable({ text: 'x', markers: ['<!-- other -->'] })).toThrow(/not a steward marker/);
    expect(() => postable({ text: 'x', markers: ['<!-- wiki-steward:answer key=a --> text <!-- wiki-steward:x -->'] })).toThrow(/not a steward marker/);
    expect(() => postable({ text: 'x', markers: ['<!-- wiki-steward:answer\nkey=a -->'] })).toThrow(/not a steward marker/);
  });
});

describe('markers are read from the trailer only', () => {
  const trace = { question: 'q', outcome: 'answered' };
  const trailer = (key: string) => `${markerFor(key)}\n<!-- wiki-steward:trace ${JSON.stringify(trace)} -->`;

  it("the answer marker and the trace: the comment's last lines, nothing earlier", () => {
    expect(markerKey(`answer\n${trailer('issue-1')}`)).toBe('issue-1');
    expect(markerKey(`answer\n${trailer('issue-1')}\n`)).toBe('issue-1');
    expect(markerKey(`answer\r\n${markerFor('issue-1')}\r\n<!-- wiki-steward:trace {} -->`)).toBe('issue-1'); // edited on the web: CRLF
    expect(markerKey(`> ${markerFor('issue-2')} quoted\n\nanswer\n${trailer('comment-9')}`)).toBe('comment-9');
    expect(markerKey(`${trailer('issue-1')}\nand a line after it`)).toBeUndefined();
    expect(markerKey(`refusal\n${markerFor('issue-3')}`)).toBe('issue-3');
    const forged = `<!-- wiki-steward:trace ${JSON.stringify({ question: 'FORGED', outcome: 'cold' })} -->`;
    expect(traceFromComment(`> ${forged}\n\nanswer\n${trailer('issue-1')}`)).toEqual(trace);
    expect(traceFromComment(`${forged}\nno steward trailer`)).toBeUndefined();
  });

  it('the edit an answer is for: the line just before the answer marker, a GitHub timestamp, nothing else', () => {
    const edit = '<!-- wiki-steward:edit 2026-06-01T10:00:00Z -->';
    expect(answerMarkers('issue-1', '2026-06-01T10:00:00Z')).toEqual([edit, markerFor('issue-1')]);
    expect(answerMarkers('comment-9')).toEqual([markerFor('comment-9')]);
    // Not a timestamp (the payload is GitHub's, but nothing unchecked goes into a marker): no edit marker.
    expect(answerMarkers('issue-1', '2026-06-01 --> @maya')).toEqual([markerFor('issue-1')]);
    expect(editOfComment(`answer\n${edit}\n${trailer('issue-1')}`)).toBe('2026-06-01T10:00:00Z');
    expect(markerKey(`answer\n${edit}\n${trailer('issue-1')}`)).toBe('issue-1');
    expect(traceFromComment(`answer\n${edit}\n${trailer('issue-1')}`)).toEqual(trace);
    expect(editOfComment(`refusal\r\n${edit}\r\n${markerFor('issue-3')}`)).toBe('2026-06-01T10:00:00Z');
    // Anywhere but just before the trailer it says nothing (and `postable` breaks any an asker writes).
    expect(editOfComment(`${edit}\nanswer\n${trailer('issue-1')}`)).toBeUndefined();
    expect(editOfComment(`answer\n${trailer('issue-1')}`)).toBeUndefined();
    expect(isNewerEdit('2026-06-01T10:01:00Z', '2026-06-01T10:00:00Z')).toBe(true);
    expect(isNewerEdit('2026-06-01T10:00:00Z', '2026-06-01T10:00:00Z')).toBe(false);
    expect(isNewerEdit('2026-06-01T10:01:00Z', undefined)).toBe(false);
    expect(isNewerEdit(undefined, '2026-06-01T10:00:00Z')).toBe(false);
  });

  it('a rendered comment, posted, reads back as its own key and trace', () => {
    const full: Trace = {
      question: `Why? ${markerFor('issue-7')} @maya`,
      wiki: { root: 'wiki', commit: null },
      branch: 'inline',
      outcome: 'answered',
      oriented: [],
      signal_terms: [],
      dropped_terms: [],
      candidates: [],
      read: [],
      unread: [],
      coverage: { covered: true, found: [], missing: [] },
      citations: [],
      missing: [],
      violations: [],
      answerer: 'offline',
      web_searches: [],
      provider_calls: [],
      tokens: { input: 0, output: 0 },
      notes: [],
      answer: '',
      timings_ms: { load: 0, ladder: 0, answer: 0 },
    };
    const posted = postable(renderComment({ key: 'comment-5', trace: full, answer: 'See <!-- wiki-steward:trace {"outcome":"cold"} --> @team' }));
    expect(markerKey(posted)).toBe('comment-5');
    expect(traceFromComment(posted)).toMatchObject({ question: full.question, outcome: 'answered' });
    expect(posted.match(/<!-- wiki-steward:/g)).toHaveLength(2);
    const edited = postable(renderComment({ key: 'issue-5', editedAt: '2026-06-01T10:00:00Z', trace: full, answer: 'x' }));
    expect([markerKey(edited), editOfComment(edited)]).toEqual(['issue-5', '2026-06-01T10:00:00Z']);
    expect(edited.match(/<!-- wiki-steward:/g)).toHaveLength(3);
  });

  it('an answer gains a note above its signature, its trailer kept; a refusal, or an answer that has the note, gains nothing; one with no room loses its folded trace', () => {
    const sig = '<sub>Answered by wiki-steward (offline answerer) from a wiki with no commit recorded · Helpful? React with 👍 or 👎.</sub>';
    const answer = `> q\r\n\r\nThe answer.\r\n\r\n<details><summary>How this was answered</summary>\r\n\r\n- Branch\r\n\r\n</details>\r\n\r\n${sig}\r\n${trailer('issue-1')}`;
    const noted = answerWithNote(answer, 'Note with @maya.');
    expect(noted?.text).toBe(
      `> q\n\nThe answer.\n\n<details><summary>How this was answered</summary>\n\n- Branch\n\n</details>\n\nNote with @\u2060maya.\n\n${sig}`,
    );
    const posted = postable(noted!);
    expect(markerKey(posted)).toBe('issue-1');
    expect(traceFromComment(posted)).toEqual(trace);
    expect(answerWithNote(posted, 'Note with @maya.')).toBeUndefined();
    expect(answerWithNote(`Thanks for the question.\n${markerFor('issue-1')}`, 'Note.')).toBeUndefined();
    const long = `> q\n\n${'x'.repeat(59_000)}\n\n<details><summary>How this was answered</summary>\n\n${'- y\n'.repeat(1_500)}\n</details>\n\n${sig}\n${trailer('issue-1')}`;
    expect(long.length).toBeLessThan(COMMENT_LIMIT);
    const cut = postable(answerWithNote(long, 'Note. '.repeat(60))!);
    expect(cut.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(cut).not.toContain('<details>');
    expect(cut).toContain('_[How this was answered: left out to make room for the note below]_');
    expect(traceFromComment(cut)).toEqual(trace);
  });

  it('a capture PR body: the last marker counts, and a rebuild rewrites only it', () => {
    const marker = (commit: string) => `<!-- wiki-steward:capture key=issue-4 issue=4 page=wiki%2Fqueries%2Fq.md commit=${commit} -->`;
    const body = `> quoted ${marker('a'.repeat(40))}\n\ntext\n${marker('b'.repeat(40))}`;
    expect(readCaptureMarker(body)?.commit).toBe('b'.repeat(40));
    const rebuilt = postable(rewriteCaptureMarker(body, 'c'.repeat(40)));
    expect(readCaptureMarker(rebuilt)?.commit).toBe('c'.repeat(40));
    expect(rebuilt.match(/<!-- wiki-steward:/g)).toHaveLength(1);
  });
});

describe('asked text is what GitHub shows', () => {
  it('drops HTML comments (an unclosed one hides the rest) but keeps them in code', () => {
    expect(visibleMarkdown('How? <!-- template hint --> Really')).toBe('How?  Really');
    expect(visibleMarkdown('How? `<!-- shown -->` <!-- hidden')).toBe('How? `<!-- shown -->` ');
    expect(visibleMarkdown('```\n<!-- fenced -->\n```\nafter <!-- gone -->')).toBe('```\n<!-- fenced -->\n```\nafter ');
    expect(visibleMarkdown('``a ` <!-- in -->`` <!--out-->z')).toBe('``a ` <!-- in -->`` z');
  });
});
