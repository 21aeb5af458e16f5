// Closing the loop: when a capture pull request merges, the asker hears where the question is now
// recorded (with the new page's permalink) and what turns that record into coverage and the branch goes; closed unmerged, the branch
// goes and the issue says so. A question's issue closing while its PR is open changes nothing.
import * as core from '@actions/core';
import { deleteBranch, readCaptureMarker } from './capture-pr.js';
import type { ClosedCapture } from '../action/event.js';
import type { GitHubClient } from '../github/octokit.js';
import type { RepoRef } from '../github/permission-helper.js';
import type { RepoWrites } from '../github/repo-writes.js';

const closedMarker = (pr: number) => `<!-- wiki-steward:capture-closed pr=${pr} -->`;

export async function handleClosedCapture(github: GitHubClient, writes: RepoWrites, repo: RepoRef, pull: ClosedCapture, serverUrl: string): Promise<string | undefined> {
  const marker = readCaptureMarker(pull.body);
  await deleteBranch(github, writes, repo, pull.branch);
  if (!marker) {
    core.info(`Capture PR #${pull.number} has no steward marker: branch deleted, nothing to reply.`);
    return undefined;
  }
  const body = pull.merged
    ? `The capture page for this question is in the wiki: [\`${marker.page}\`](${serverUrl}/${repo.owner}/${repo.repo}/blob/${pull.mergeCommitSha ?? 'HEAD'}/${marker.page.split('/').map(encodeURIComponent).join('/')}) was merged in #${pull.number}. It records the question as asked and still open: once a reviewer writes the answer on that page and deletes its \`captured_by\` line, the wiki covers it and asking again is answered from it.`
    : `The capture pull request #${pull.number} was closed without merging, so the wiki still does not cover this question.`;
  // A re-run of the same event must not reply twice.
  const comments = await github.paginate(github.rest.issues.listComments, { ...repo, issue_number: marker.issueNumber, per_page: 100 });
  if (comments.some((c) => c.user?.type === 'Bot' && (c.body ?? '').includes(closedMarker(pull.number)))) return undefined;
  return writes.run(
    `POST /repos/${repo.owner}/${repo.repo}/issues/${marker.issueNumber}/comments (capture #${pull.number} ${pull.merged ? 'merged' : 'closed'})`,
    async () => (await github.rest.issues.createComment({ ...repo, issue_number: marker.issueNumber, body: `${body}\n${closedMarker(pull.number)}` })).data.html_url,
    '',
  );
}
