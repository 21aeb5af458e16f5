// The README's picture of an answered issue (docs/images/answered-issue.png) shows the comment
// recorded in docs/images/answered-issue.md. This runs the same answer job as `npm run
// docs:screenshot` (test/docs/answered-issue.ts) and holds the record to the comment the steward
// posts today, so a change to the comment's format, or to the example wiki it quotes, cannot leave
// the picture stale without failing here. It needs no Chromium.
import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { ANSWERED_ISSUE_MD, answeredIssue } from './answered-issue.js';

it('docs/images/answered-issue.md is the comment the steward posts', async () => {
  const { body } = await answeredIssue();
  const recorded = await readFile(ANSWERED_ISSUE_MD, 'utf8');
  expect(body, "the answer comment's format changed: run npm run docs:screenshot and commit docs/images/").toBe(recorded);
});
