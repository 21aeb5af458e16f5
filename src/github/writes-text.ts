// Every write that carries text people read — comments (on issues and on discussions), issues,
// pull requests — goes through these helpers, and each one passes its title through `postable` and
// its body through `postableBody` (posted-text.ts): mentions and HTML comment openers neutralised,
// the steward's own markers appended as the trailer, the body within GitHub's 65,536 characters.
// Nothing else in src/ calls the octokit methods or GraphQL mutations behind them
// (test/action/write-boundary.test.ts checks).
import type { GitHubClient, RepoRef } from './octokit.js';
import { type StewardText, postable, postableBody } from './posted-text.js';
import type { RepoWrites } from './repo-writes.js';

type Text = string | StewardText;

const where = (repo: RepoRef) => `/repos/${repo.owner}/${repo.repo}`;

/** Posts a comment on an issue or pull request; its URL and id (empty and 0 in a dry run). */
export async function createComment(
  github: GitHubClient,
  writes: RepoWrites,
  repo: RepoRef,
  issueNumber: number,
  content: Text,
  note?: string,
): Promise<{ url: string; id: number }> {
  const body = postableBody(content);
  return writes.run(
    `POST ${where(repo)}/issues/${issueNumber}/comments (${note ?? `${body.length} characters`})`,
    async () => {
      const { data } = await github.rest.issues.createComment({ ...repo, issue_number: issueNumber, body });
      return { url: data.html_url, id: data.id };
    },
    { url: '', id: 0 },
  );
}

export async function updateComment(github: GitHubClient, writes: RepoWrites, repo: RepoRef, commentId: number, content: Text): Promise<void> {
  const body = postableBody(content);
  await writes.run(
    `PATCH ${where(repo)}/issues/comments/${commentId} (${body.length} characters)`,
    () => github.rest.issues.updateComment({ ...repo, comment_id: commentId, body }),
    undefined,
  );
}

/**
 * Posts a comment on a discussion (GraphQL), or a reply in a thread when `replyTo` names the
 * thread's top-level comment; its URL, database id and node id (empty and 0 in a dry run).
 */
export async function createDiscussionComment(
  github: GitHubClient,
  writes: RepoWrites,
  discussionId: string,
  content: Text,
  replyTo?: string,
): Promise<{ url: string; id: number; nodeId: string }> {
  const body = postableBody(content);
  return writes.run(
    `POST /graphql addDiscussionComment on ${discussionId}${replyTo ? ` in reply to ${replyTo}` : ''} (${body.length} characters)`,
    async () => {
      const data = await github.graphql<{ addDiscussionComment: { comment: { id: string; databaseId: number; url: string } } }>(
        'mutation($id: ID!, $body: String!, $replyTo: ID) ' +
          '{ addDiscussionComment(input: { discussionId: $id, body: $body, replyToId: $replyTo }) { comment { id databaseId url } } }',
        { id: discussionId, body, replyTo: replyTo ?? null },
      );
      const c = data.addDiscussionComment.comment;
      return { url: c.url, id: c.databaseId, nodeId: c.id };
    },
    { url: '', id: 0, nodeId: '' },
  );
}

export async function updateDiscussionComment(github: GitHubClient, writes: RepoWrites, commentNodeId: string, content: Text): Promise<void> {
  const body = postableBody(content);
  await writes.run(
    `POST /graphql updateDiscussionComment ${commentNodeId} (${body.length} characters)`,
    () =>
      github.graphql('mutation($id: ID!, $body: String!) { updateDiscussionComment(input: { commentId: $id, body: $body }) { comment { id } } }', {
        id: commentNodeId,
        body,
      }),
    undefined,
  );
}

/** Opens an issue; its URL and number (empty and 0 in a dry run). */
export async function createIssue(
  github: GitHubClient,
  writes: RepoWrites,
  repo: RepoRef,
  o: { title: string; body: Text; labels: string[] },
): Promise<{ url: string; number: number }> {
  const title = postable(o.title);
  const body = postableBody(o.body);
  return writes.run(
    `POST ${where(repo)}/issues (${title})`,
    async () => {
      const { data } = await github.rest.issues.create({ ...repo, title, body, labels: o.labels });
      return { url: data.html_url, number: data.number };
    },
    { url: '', number: 0 },
  );
}

export async function updateIssueBody(
  github: GitHubClient,
  writes: RepoWrites,
  repo: RepoRef,
  issueNumber: number,
  content: Text,
  note: string,
): Promise<void> {
  const body = postableBody(content);
  await writes.run(
    `PATCH ${where(repo)}/issues/${issueNumber} (${note})`,
    () => github.rest.issues.update({ ...repo, issue_number: issueNumber, body }),
    undefined,
  );
}

/** Closes an issue as not planned (a duplicate the steward opened); it carries no text. */
export async function closeIssueNotPlanned(github: GitHubClient, writes: RepoWrites, repo: RepoRef, issueNumber: number, note: string): Promise<void> {
  await writes.run(
    `PATCH ${where(repo)}/issues/${issueNumber} (close as not planned: ${note})`,
    () => github.rest.issues.update({ ...repo, issue_number: issueNumber, state: 'closed', state_reason: 'not_planned' }),
    undefined,
  );
}

/** Opens a pull request; its URL and number (empty and 0 in a dry run). */
export async function createPull(
  github: GitHubClient,
  writes: RepoWrites,
  repo: RepoRef,
  o: { title: string; head: string; base: string; body: Text; draft?: boolean },
): Promise<{ html_url: string; number: number }> {
  const title = postable(o.title);
  const body = postableBody(o.body);
  return writes.run(
    `POST ${where(repo)}/pulls (${o.head} → ${o.base})`,
    async () => {
      const { data } = await github.rest.pulls.create({
        ...repo,
        title,
        head: o.head,
        base: o.base,
        body,
        ...(o.draft !== undefined ? { draft: o.draft } : {}),
      });
      return { html_url: data.html_url, number: data.number };
    },
    { html_url: '', number: 0 },
  );
}

export async function updatePull(
  github: GitHubClient,
  writes: RepoWrites,
  repo: RepoRef,
  pullNumber: number,
  o: { title?: string; body?: Text; state?: 'open' | 'closed' },
  note?: string,
): Promise<void> {
  const fields = {
    ...(o.title !== undefined ? { title: postable(o.title) } : {}),
    ...(o.body !== undefined ? { body: postableBody(o.body) } : {}),
    ...(o.state !== undefined ? { state: o.state } : {}),
  };
  await writes.run(
    `PATCH ${where(repo)}/pulls/${pullNumber}${note ? ` (${note})` : ''}`,
    () => github.rest.pulls.update({ ...repo, pull_number: pullNumber, ...fields }),
    undefined,
  );
}
