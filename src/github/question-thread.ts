// Where a question lives and its answer goes: an issue's (or pull request's) conversation, spoken
// to in REST, or a GitHub Discussion, spoken to in GraphQL. Both give the answer job the same few
// things: the thread's comments, posting, editing and removing the steward's own, reacting on the
// question, and the question's labels. Everything the jobs decide (which comment is the answer,
// convergence with a twin run, the outcome label) is decided once, above this seam.
import type { RepoRef } from './octokit.js';
import type { GitHubClient } from './octokit.js';
import type { StewardText } from './posted-text.js';
import type { RepoWrites } from './repo-writes.js';
import {
  type DiscussionComment,
  type ReactionContent,
  changeDiscussionLabels,
  deleteDiscussionComment,
  discussionCommentExists,
  discussionComments,
  markDiscussionAnswer,
  readDiscussion,
  setDiscussionReaction,
} from './discussions.js';
import { createComment, createDiscussionComment, updateComment, updateDiscussionComment } from './writes-text.js';

export interface ThreadComment {
  /** Creation order: GitHub's database ids rise. */
  id: number;
  url: string;
  body: string;
  user: { login: string; type?: string } | null;
}

/** The comments of one thread, as the answer job reads and writes them. */
export interface CommentThread {
  /** For messages: `#12`, `discussion #12`. */
  readonly describe: string;
  comments(): Promise<ThreadComment[]>;
  /** Posts a comment (a follow-up's answer joins its thread); id 0 in a dry run. */
  create(body: StewardText): Promise<{ id: number; url: string }>;
  update(id: number, body: StewardText | string): Promise<void>;
  /** Removes one of the steward's comments; one already gone is no error. */
  remove(id: number): Promise<void>;
}

/** The steward's reactions on the question (the thread itself, or the comment that asked). */
export interface Reactions {
  readonly describe: string;
  /** A handle to take the reaction away again, or undefined in a dry run. */
  add(content: 'eyes' | 'confused'): Promise<(() => Promise<void>) | undefined>;
}

/** The question's labels (issues and discussions share the repository's labels). */
export interface ThreadLabels {
  current(): Promise<string[]>;
  add(name: string): Promise<void>;
  remove(name: string): Promise<void>;
}

export interface DiscussionThread extends QuestionThread {
  /** Marks one of the thread's top-level comments as the discussion's answer. */
  markAnswer(id: number): Promise<void>;
}

export interface QuestionThread {
  comments: CommentThread;
  reactions: Reactions;
  labels: ThreadLabels;
  /** Whether the comment that asked still exists (a `/wiki ask` comment may be deleted before its run). */
  askingCommentExists(): Promise<boolean>;
}

const gone = (error: { status?: number }) => {
  if (error.status !== 404) throw error;
};

/** An issue's or pull request's conversation. */
export function issueThread(github: GitHubClient, writes: RepoWrites, repo: RepoRef, issueNumber: number, askingComment?: number): QuestionThread {
  const path = `/repos/${repo.owner}/${repo.repo}`;
  const comments: CommentThread = {
    describe: `#${issueNumber}`,
    comments: async () =>
      (await github.paginate(github.rest.issues.listComments, { ...repo, issue_number: issueNumber, per_page: 100 })).map((c) => ({
        id: c.id,
        url: c.html_url,
        body: c.body ?? '',
        user: c.user ? { login: c.user.login, type: c.user.type } : null,
      })),
    create: (body) => createComment(github, writes, repo, issueNumber, body),
    update: (id, body) => updateComment(github, writes, repo, id, body),
    remove: (id) =>
      writes.run(
        `DELETE ${path}/issues/comments/${id} (a twin run's answer comment)`,
        async () => {
          await github.rest.issues.deleteComment({ ...repo, comment_id: id }).catch(gone);
        },
        undefined,
      ),
  };
  const reactionsPath = `${path}/issues/${askingComment === undefined ? issueNumber : `comments/${askingComment}`}/reactions`;
  const reactions: Reactions = {
    describe: askingComment === undefined ? `issue #${issueNumber}` : `comment ${askingComment}`,
    add: async (content) => {
      // GitHub answers 200 with the existing reaction when the account already gave it (an earlier
      // run of the steward): removing that one later is still removing the steward's own.
      const id = await writes.run<number | undefined>(
        `POST ${reactionsPath} (${content})`,
        async () =>
          (askingComment === undefined
            ? await github.rest.reactions.createForIssue({ ...repo, issue_number: issueNumber, content })
            : await github.rest.reactions.createForIssueComment({ ...repo, comment_id: askingComment, content })
          ).data.id,
        undefined,
      );
      if (id === undefined) return undefined;
      return () =>
        writes.run(
          `DELETE ${reactionsPath}/${id} (${content})`,
          async () => {
            // Already gone: a twin run of the question (the same account, so GitHub handed both the same reaction) or a person took it away.
            if (askingComment === undefined) await github.rest.reactions.deleteForIssue({ ...repo, issue_number: issueNumber, reaction_id: id }).catch(gone);
            else await github.rest.reactions.deleteForIssueComment({ ...repo, comment_id: askingComment, reaction_id: id }).catch(gone);
          },
          undefined,
        );
    },
  };
  const labels: ThreadLabels = {
    current: async () =>
      (await github.rest.issues.get({ ...repo, issue_number: issueNumber })).data.labels.map((l) => (typeof l === 'string' ? l : (l.name ?? ''))),
    add: (name) =>
      writes.run(
        `POST ${path}/issues/${issueNumber}/labels (${name})`,
        async () => void (await github.rest.issues.addLabels({ ...repo, issue_number: issueNumber, labels: [name] })),
        undefined,
      ),
    remove: (name) =>
      writes.run(
        `DELETE ${path}/issues/${issueNumber}/labels/${name}`,
        async () => void (await github.rest.issues.removeLabel({ ...repo, issue_number: issueNumber, name })),
        undefined,
      ),
  };
  return {
    comments,
    reactions,
    labels,
    askingCommentExists: async () =>
      askingComment === undefined ||
      github.rest.issues.getComment({ ...repo, comment_id: askingComment }).then(
        () => true,
        (error: { status?: number }) => {
          if (error.status === 404) return false;
          throw error;
        },
      ),
  };
}

/**
 * A discussion. The question's answer is a top-level comment (GitHub marks only those as the
 * answer); a `/wiki ask` follow-up's is a reply in the follow-up's thread (replies nest one deep).
 */
export function discussionThread(
  github: GitHubClient,
  writes: RepoWrites,
  repo: RepoRef,
  discussion: { number: number; nodeId: string; followUp?: { nodeId: string; parentId: number | null } | undefined },
): DiscussionThread {
  // Node ids of the comments read so far, by database id: GraphQL writes name comments by node id.
  const nodeIds = new Map<number, string>();
  let read: DiscussionComment[] | undefined;
  const all = async () => {
    read = await discussionComments(github, discussion.nodeId);
    for (const c of read) nodeIds.set(c.id, c.nodeId);
    return read;
  };
  const nodeIdOf = async (id: number) => nodeIds.get(id) ?? (await all(), nodeIds.get(id));
  /** The top-level comment a follow-up's answer replies under: the follow-up's own parent, or the follow-up itself. */
  const threadTop = async (): Promise<string | undefined> => {
    const f = discussion.followUp;
    if (!f) return undefined;
    return f.parentId === null ? f.nodeId : await nodeIdOf(f.parentId);
  };
  const comments: CommentThread = {
    describe: `discussion #${discussion.number}`,
    comments: async () => (await all()).map((c) => ({ id: c.id, url: c.url, body: c.body, user: c.user })),
    create: async (body) => {
      const made = await createDiscussionComment(github, writes, discussion.nodeId, body, await threadTop());
      if (made.id) nodeIds.set(made.id, made.nodeId);
      return { id: made.id, url: made.url };
    },
    update: async (id, body) => {
      const nodeId = await nodeIdOf(id);
      if (!nodeId) throw new Error(`discussion #${discussion.number} has no comment ${id} to update`);
      await updateDiscussionComment(github, writes, nodeId, body);
    },
    remove: async (id) => {
      const nodeId = await nodeIdOf(id);
      if (nodeId) await deleteDiscussionComment(github, writes, nodeId);
    },
  };
  const subject = discussion.followUp?.nodeId ?? discussion.nodeId;
  const reactions: Reactions = {
    describe: discussion.followUp ? `the comment that asked in discussion #${discussion.number}` : `discussion #${discussion.number}`,
    add: async (content) => {
      const graphqlContent: ReactionContent = content === 'eyes' ? 'EYES' : 'CONFUSED';
      const added = await setDiscussionReaction(github, writes, subject, graphqlContent, true);
      return added ? () => setDiscussionReaction(github, writes, subject, graphqlContent, false).then(() => undefined) : undefined;
    },
  };
  const labels: ThreadLabels = {
    current: async () => (await readDiscussion(github, repo, discussion.number))?.labels.map((l) => l.name) ?? [],
    add: (name) => changeDiscussionLabels(github, writes, repo, discussion.nodeId, { add: [name], remove: [] }),
    remove: (name) => changeDiscussionLabels(github, writes, repo, discussion.nodeId, { add: [], remove: [name] }),
  };
  return {
    comments,
    reactions,
    labels,
    askingCommentExists: async () => !discussion.followUp || discussionCommentExists(github, discussion.followUp.nodeId),
    markAnswer: async (id) => {
      const nodeId = await nodeIdOf(id);
      if (!nodeId) throw new Error(`discussion #${discussion.number} has no comment ${id} to mark`);
      await markDiscussionAnswer(github, writes, nodeId);
    },
  };
}
