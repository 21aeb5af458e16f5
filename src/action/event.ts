// What an event asks of the steward. Issue and comment text is read from the event payload here,
// inside the action, and is never interpolated into a shell. A body is asked as GitHub shows it:
// HTML comments (issue-template hints, or text hidden on purpose, such as a forged steward marker)
// are not part of the question.
import { CAPTURE_BRANCH_PREFIX } from '../jobs/capture-pr.js';
import { type ClosedCapture, type GitHubUser, type Question, afterCommand, askedText } from '../jobs/question.js';
import { visibleMarkdown } from '../markdown/visible.js';

export type Work =
  | { kind: 'answer'; question: Question }
  | { kind: 'capture-closed'; pull: ClosedCapture }
  | { kind: 'validate' }
  | { kind: 'maintain' }
  | { kind: 'digest' }
  | { kind: 'skip'; reason: string };

interface IssuePayload {
  number: number;
  title?: string;
  body?: string | null;
  user?: GitHubUser;
  labels?: Array<{ name: string } | string>;
  locked?: boolean;
  pull_request?: unknown;
  updated_at?: string;
}

interface PullRequestPayload {
  number: number;
  merged?: boolean;
  merge_commit_sha?: string | null;
  body?: string | null;
  user?: GitHubUser | null;
  head?: { ref?: string; repo?: { full_name?: string } | null };
  base?: { sha?: string; ref?: string };
}

interface DiscussionPayload {
  number: number;
  node_id: string;
  html_url: string;
  title?: string;
  body?: string | null;
  user?: GitHubUser;
  labels?: Array<{ name: string }>;
  locked?: boolean;
  updated_at?: string;
  category?: { name?: string; slug?: string; is_answerable?: boolean };
}

export interface EventPayload {
  action?: string;
  issue?: IssuePayload;
  discussion?: DiscussionPayload;
  comment?: { id: number; node_id?: string; parent_id?: number | null; body?: string; user?: GitHubUser };
  label?: { name: string };
  sender?: GitHubUser;
  ref?: string;
  /** A push's commits, with the files each added and modified. */
  commits?: Array<{ added?: string[]; modified?: string[] }>;
  repository?: { default_branch?: string };
  pull_request?: PullRequestPayload;
}

export interface Triggers {
  triggerLabel: string;
  command: string;
  /** The discussion categories asked in (names or slugs); empty: those in Q&A format. */
  discussionCategories: readonly string[];
}

const labelNames = (issue: IssuePayload): string[] => (issue.labels ?? []).map((l) => (typeof l === 'string' ? l : l.name));

/** `mode: auto` — the work each event asks for (the README's table). */
export function workForEvent(eventName: string, payload: EventPayload, triggers: Triggers): Work {
  if (eventName === 'issues') return issueWork(payload, triggers);
  if (eventName === 'issue_comment') return commentWork(payload, triggers);
  if (eventName === 'discussion') return discussionWork(payload, triggers);
  if (eventName === 'discussion_comment') return discussionCommentWork(payload, triggers);
  if (eventName === 'pull_request' || eventName === 'pull_request_target') {
    const pull = payload.pull_request;
    const branch = pull?.head?.ref ?? '';
    // A PR named like a capture branch is handled when it closes (these events come from the
    // steward's own work, and only questions are refused to bots); the job checks that it is the
    // steward's own, from this repository, before it deletes or replies anything.
    if (payload.action === 'closed' && pull && branch.startsWith(CAPTURE_BRANCH_PREFIX)) {
      return {
        kind: 'capture-closed',
        pull: {
          number: pull.number,
          merged: Boolean(pull.merged),
          mergeCommitSha: pull.merge_commit_sha ?? null,
          body: pull.body ?? '',
          branch,
          ...(pull.user?.login ? { author: pull.user.login } : {}),
          ...(pull.head?.repo?.full_name ? { headRepo: pull.head.repo.full_name } : {}),
        },
      };
    }
    return { kind: 'validate' };
  }
  if (eventName === 'push') {
    const defaultRef = `refs/heads/${payload.repository?.default_branch ?? 'main'}`;
    return payload.ref === defaultRef ? { kind: 'maintain' } : { kind: 'validate' };
  }
  if (eventName === 'schedule' || eventName === 'workflow_dispatch') return { kind: 'digest' };
  return { kind: 'skip', reason: `event '${eventName}' asks nothing of wiki-steward` };
}

function issueWork(payload: EventPayload, triggers: Triggers): Work {
  const issue = payload.issue;
  if (!issue) return { kind: 'skip', reason: 'issues event without an issue' };
  const action = payload.action ?? '';
  if (!['opened', 'edited', 'labeled', 'reopened'].includes(action)) return { kind: 'skip', reason: `issue ${action}: nothing to answer` };
  const title = issue.title ?? '';
  const stripped = afterCommand(title, triggers.command);
  const labelled = labelNames(issue).includes(triggers.triggerLabel);
  if (action === 'labeled' && payload.label?.name !== triggers.triggerLabel) {
    return { kind: 'skip', reason: `label '${payload.label?.name}' is not the trigger label` };
  }
  if (stripped === undefined && !labelled) {
    return { kind: 'skip', reason: `issue #${issue.number} has neither the '${triggers.triggerLabel}' label nor a '${triggers.command}' title` };
  }
  // Who answers for the question as it now reads: whoever added the trigger label (a maintainer
  // approving an outsider's question), whoever made the edit (the author, or a maintainer editing
  // it: theirs is answered anew, the author's is not once the author is below min-permission).
  const asker = action === 'labeled' || action === 'edited' ? (payload.sender ?? issue.user) : issue.user;
  return {
    kind: 'answer',
    question: {
      key: `issue-${issue.number}`,
      place: { kind: 'issue' },
      ...(typeof issue.updated_at === 'string' ? { editedAt: issue.updated_at } : {}),
      issueNumber: issue.number,
      text: askedText(title, issue.body, triggers.command),
      issueTitle: title,
      issueBody: visibleMarkdown(issue.body ?? ''),
      asker: asker ?? { login: 'ghost' },
      isPullRequest: Boolean(issue.pull_request),
      locked: Boolean(issue.locked),
    },
  };
}

/** The question a `/wiki ask …` comment asks, or why it asks none. */
function followUpQuestion(body: string | undefined, command: string): { text: string } | { skip: string } {
  const pattern = new RegExp(`^\\s*${command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+ask\\b[\\s:]*`, 'i');
  const visible = visibleMarkdown(body ?? '');
  if (!pattern.test(visible)) return { skip: `comment does not start with '${command} ask'` };
  const text = visible.replace(pattern, '').trim();
  return text === '' ? { skip: `'${command} ask' with no question` } : { text };
}

function commentWork(payload: EventPayload, triggers: Triggers): Work {
  const { issue, comment } = payload;
  if (!issue || !comment) return { kind: 'skip', reason: 'issue_comment event without an issue or comment' };
  if (payload.action !== 'created') return { kind: 'skip', reason: `comment ${payload.action}: nothing to answer` };
  const asked = followUpQuestion(comment.body, triggers.command);
  if ('skip' in asked) return { kind: 'skip', reason: asked.skip };
  const { text } = asked;
  return {
    kind: 'answer',
    question: {
      key: `comment-${comment.id}`,
      place: { kind: 'issue' },
      issueNumber: issue.number,
      commentId: comment.id,
      text,
      issueTitle: issue.title ?? '',
      issueBody: visibleMarkdown(issue.body ?? ''),
      asker: comment.user ?? { login: 'ghost' },
      isPullRequest: Boolean(issue.pull_request),
      locked: Boolean(issue.locked),
    },
  };
}

/** Whether a discussion's category is one the steward answers in. */
function inAskedCategory(discussion: DiscussionPayload, categories: readonly string[]): boolean {
  const { name, slug, is_answerable } = discussion.category ?? {};
  if (categories.length === 0) return Boolean(is_answerable);
  const named = new Set(categories.map((c) => c.toLowerCase()));
  return named.has((name ?? '').toLowerCase()) || named.has((slug ?? '').toLowerCase());
}

const categoryNote = (discussion: DiscussionPayload, categories: readonly string[]) =>
  `discussion #${discussion.number} is in '${discussion.category?.name ?? 'no category'}', ` +
  (categories.length === 0 ? 'not a Q&A-format category' : `not one of discussions.categories (${categories.join(', ')})`);

/** A discussion asks as an issue does: in an asked category, with the trigger label or a `/wiki` title. */
function discussionWork(payload: EventPayload, triggers: Triggers): Work {
  const discussion = payload.discussion;
  if (!discussion) return { kind: 'skip', reason: 'discussion event without a discussion' };
  const action = payload.action ?? '';
  if (!['created', 'edited', 'category_changed', 'labeled'].includes(action)) return { kind: 'skip', reason: `discussion ${action}: nothing to answer` };
  if (!inAskedCategory(discussion, triggers.discussionCategories)) return { kind: 'skip', reason: categoryNote(discussion, triggers.discussionCategories) };
  const title = discussion.title ?? '';
  const stripped = afterCommand(title, triggers.command);
  const labelled = (discussion.labels ?? []).some((l) => l.name === triggers.triggerLabel);
  if (action === 'labeled' && payload.label?.name !== triggers.triggerLabel) {
    return { kind: 'skip', reason: `label '${payload.label?.name}' is not the trigger label` };
  }
  if (stripped === undefined && !labelled) {
    return { kind: 'skip', reason: `discussion #${discussion.number} has neither the '${triggers.triggerLabel}' label nor a '${triggers.command}' title` };
  }
  // As on issues: whoever added the label or made the edit answers for the question as it now reads.
  const asker = action === 'labeled' || action === 'edited' ? (payload.sender ?? discussion.user) : discussion.user;
  return {
    kind: 'answer',
    question: {
      key: `discussion-${discussion.number}`,
      place: { kind: 'discussion', nodeId: discussion.node_id, url: discussion.html_url },
      ...(typeof discussion.updated_at === 'string' ? { editedAt: discussion.updated_at } : {}),
      issueNumber: discussion.number,
      text: askedText(title, discussion.body, triggers.command),
      issueTitle: title,
      issueBody: visibleMarkdown(discussion.body ?? ''),
      asker: asker ?? { login: 'ghost' },
      isPullRequest: false,
      locked: Boolean(discussion.locked),
    },
  };
}

/** A `/wiki ask …` comment in a discussion of an asked category: answered by a reply in its thread. */
function discussionCommentWork(payload: EventPayload, triggers: Triggers): Work {
  const { discussion, comment } = payload;
  if (!discussion || !comment?.node_id) return { kind: 'skip', reason: 'discussion_comment event without a discussion or comment' };
  if (payload.action !== 'created') return { kind: 'skip', reason: `discussion comment ${payload.action}: nothing to answer` };
  if (!inAskedCategory(discussion, triggers.discussionCategories)) return { kind: 'skip', reason: categoryNote(discussion, triggers.discussionCategories) };
  const asked = followUpQuestion(comment.body, triggers.command);
  if ('skip' in asked) return { kind: 'skip', reason: asked.skip };
  return {
    kind: 'answer',
    question: {
      key: `discussion-comment-${comment.id}`,
      place: {
        kind: 'discussion',
        nodeId: discussion.node_id,
        url: discussion.html_url,
        followUp: { nodeId: comment.node_id, parentId: comment.parent_id ?? null },
      },
      issueNumber: discussion.number,
      commentId: comment.id,
      text: asked.text,
      issueTitle: discussion.title ?? '',
      issueBody: visibleMarkdown(discussion.body ?? ''),
      asker: comment.user ?? { login: 'ghost' },
      isPullRequest: false,
      locked: Boolean(discussion.locked),
    },
  };
}
