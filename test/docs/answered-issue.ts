// The answer comment the README's picture shows (docs/images/answered-issue.png): the Action's
// answer job run in this process against the GitHub emulator, as test/action/answer.test.ts runs
// it, on a repository seeded with examples/wiki, for an issue labelled `question`.
//
// It comes out the same on every run: the emulator's clock is stopped (it dates the seed commit, so
// the commit's sha and every permalink, and the comment's edit marker), the run id is the harness's
// (1), the Action waits on a TestClock (no time-out depends on the machine), and the durations the
// comment reports (the trace's "Timings" line and its `timings_ms`), the one thing measured, are
// written as 0 ms. `npm run docs:screenshot` (scripts/docs-screenshot.ts) writes the comment to
// docs/images/answered-issue.md and renders it; screenshot-current.test.ts checks that file is current.
import path from 'node:path';
import { asker, closeChecked, expectExit, makeWorkspace, projectRoot, questionIssue, removeTempDirs, runStep, seededRepo } from '../action/harness.js';
import { TestClock } from '../helpers/test-clock.js';

export { projectRoot };
/** The record of the comment the picture shows, and the picture. */
export const ANSWERED_ISSUE_MD = path.join(projectRoot, 'docs/images/answered-issue.md');
export const ANSWERED_ISSUE_PNG = path.join(projectRoot, 'docs/images/answered-issue.png');

export const QUESTION = 'How does wiki-steward decide whether the wiki covers a question?';
/** The issue the question is asked in, and who asks it. */
export const ISSUE_NUMBER = 1;
export const ASKER = 'alice';
/** The emulator's clock, stopped. */
const NOW = new Date('2025-01-15T12:00:00Z');

export interface AnsweredIssue {
  /** The comment's markdown body, as posted (durations written as 0 ms). */
  body: string;
  /** Who posted it (the token's user: `github-actions[bot]`). */
  author: string;
  /** When, as GitHub writes it. */
  createdAt: string;
  /** Who asked (opened the issue). */
  asker: string;
}

/** The measured durations, as 0 ms: in the visible trace line and in the hidden trace JSON. */
export function withoutDurations(body: string): string {
  return body
    .replace(/^(- Timings: .*)$/m, (line) => line.replace(/\d+ ms/g, '0 ms'))
    .replace(/"timings_ms":\{[^}]*\}/g, (json) => json.replace(/:\d+/g, ':0'));
}

/** The steward's comment on the question's issue. */
export async function answeredIssue(): Promise<AnsweredIssue> {
  try {
    const template = await makeWorkspace();
    const { gh, ws } = await seededRepo(template, { now: () => NOW });
    try {
      questionIssue(gh, ISSUE_NUMBER, QUESTION, { user: asker(gh, ASKER, 'triage') });
      const r = await runStep({
        githubEnv: gh.env(),
        workspace: ws,
        eventName: 'issues',
        payload: gh.events.issues('opened', ISSUE_NUMBER),
        clock: new TestClock(),
      });
      expectExit(r, 0);
      const comments = gh.state.commentsOn(ISSUE_NUMBER);
      const comment = comments[0];
      if (comment === undefined || comments.length !== 1) throw new Error(`expected one comment on #${ISSUE_NUMBER}, got ${comments.length}`);
      return { body: withoutDurations(comment.body), author: comment.user, createdAt: comment.created_at, asker: ASKER };
    } finally {
      await closeChecked(gh);
    }
  } finally {
    await removeTempDirs();
  }
}
