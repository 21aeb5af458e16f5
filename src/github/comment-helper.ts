// Finding and writing the one answer comment of a question: created once, then updated in place
// on re-runs and edits. A steward comment is recognised by its hidden marker AND a bot author,
// since anyone can paste the marker.
import { markerKey } from './answer-comment.js';
import type { GitHubClient } from './octokit.js';
import type { RepoRef } from './octokit.js';
import type { RepoWrites } from './repo-writes.js';

export interface ExistingComment {
  id: number;
  url: string;
}

export async function findAnswerComment(github: GitHubClient, repo: RepoRef, issueNumber: number, key: string): Promise<ExistingComment | undefined> {
  const comments = await github.paginate(github.rest.issues.listComments, { ...repo, issue_number: issueNumber, per_page: 100 });
  const mine = comments.find((c) => c.user?.type === 'Bot' && markerKey(c.body ?? '') === key);
  return mine ? { id: mine.id, url: mine.html_url } : undefined;
}

export async function upsertAnswerComment(
  github: GitHubClient,
  writes: RepoWrites,
  repo: RepoRef,
  issueNumber: number,
  key: string,
  body: string,
): Promise<{ url: string; created: boolean }> {
  const existing = await findAnswerComment(github, repo, issueNumber, key);
  const path = `/repos/${repo.owner}/${repo.repo}/issues`;
  if (existing) {
    await writes.run(`PATCH ${path}/comments/${existing.id} (${body.length} characters)`, () => github.rest.issues.updateComment({ ...repo, comment_id: existing.id, body }), undefined);
    return { url: existing.url, created: false };
  }
  const created = await writes.run(
    `POST ${path}/${issueNumber}/comments (${body.length} characters)`,
    async () => (await github.rest.issues.createComment({ ...repo, issue_number: issueNumber, body })).data.html_url,
    '',
  );
  return { url: created, created: true };
}
