// Finding and writing the one answer comment of a question: created once, then updated in place
// on re-runs and edits. A comment is the steward's only when the steward wrote it (its identity:
// the token's account and the configured steward logins) AND it ends with the question's marker:
// anyone can paste a marker, and other bots write comments too.
import { markerKey } from './answer-comment.js';
import type { StewardIdentity } from './identity.js';
import type { GitHubClient } from './octokit.js';
import type { RepoRef } from './octokit.js';
import type { StewardText } from './posted-text.js';
import type { RepoWrites } from './repo-writes.js';
import { createComment, updateComment } from './writes-text.js';

export interface ExistingComment {
  id: number;
  url: string;
  /** The comment as GitHub holds it (visible text, then the trailer). */
  body: string;
}

export async function findAnswerComment(
  github: GitHubClient,
  repo: RepoRef,
  issueNumber: number,
  key: string,
  identity: StewardIdentity,
): Promise<ExistingComment | undefined> {
  const comments = await github.paginate(github.rest.issues.listComments, { ...repo, issue_number: issueNumber, per_page: 100 });
  const mine = comments.find((c) => identity.owns(c.user) && markerKey(c.body ?? '') === key);
  return mine ? { id: mine.id, url: mine.html_url, body: mine.body ?? '' } : undefined;
}

export async function upsertAnswerComment(
  github: GitHubClient,
  writes: RepoWrites,
  repo: RepoRef,
  o: { issueNumber: number; key: string; identity: StewardIdentity },
  body: StewardText,
  /** The comment, when the caller has just looked it up (null: it has none). */
  found?: ExistingComment | null,
): Promise<{ url: string; created: boolean }> {
  const existing = found === undefined ? await findAnswerComment(github, repo, o.issueNumber, o.key, o.identity) : found;
  if (existing) {
    await updateComment(github, writes, repo, existing.id, body);
    return { url: existing.url, created: false };
  }
  return { url: await createComment(github, writes, repo, o.issueNumber, body), created: true };
}

/** Whether a comment still exists (a `/wiki ask` comment may be deleted before its run). */
export async function commentExists(github: GitHubClient, repo: RepoRef, commentId: number): Promise<boolean> {
  return github.rest.issues.getComment({ ...repo, comment_id: commentId }).then(
    () => true,
    (error: { status?: number }) => {
      if (error.status === 404) return false;
      throw error;
    },
  );
}
