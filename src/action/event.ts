// What an event asks of the steward. Issue and comment text is read from the event payload here,
// inside the action, and is never interpolated into a shell. A body is asked as GitHub shows it:
// HTML comments (issue-template hints, or text hidden on purpose, such as a forged steward marker)
// are not part of the question.
import { CAPTURE_BRANCH_PREFIX } from '../jobs/capture-pr.js';
import type { ClosedCapture, GitHubUser, Question } from '../jobs/question.js';
import { lfLineBreaks } from '../markdown/body.js';
import { codeSpanReader, fencedBlockEnd } from '../markdown/code.js';
import { withoutEmptyFormFields } from '../markdown/issue-forms.js';

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

export interface EventPayload {
  action?: string;
  issue?: IssuePayload;
  comment?: { id: number; body?: string; user?: GitHubUser };
  label?: { name: string };
  sender?: GitHubUser;
  ref?: string;
  repository?: { default_branch?: string };
  pull_request?: PullRequestPayload;
}

export interface Triggers {
  triggerLabel: string;
  command: string;
}

/**
 * Markdown as GitHub shows it: line breaks as `\n` (the web editor sends `\r\n`, and GitHub reads a
 * lone `\r` as a line end too), HTML comments removed (an unclosed `<!--` hides the rest), except
 * inside code spans and fenced code blocks, where GitHub shows them as written.
 */
export function visibleMarkdown(text: string): string {
  const markdown = lfLineBreaks(text);
  const readCodeSpan = codeSpanReader(markdown);
  let out = '';
  let i = 0;
  while (i < markdown.length) {
    // Left to right, as GitHub reads it: a fence, a code span or a comment, whichever opens first, holds what follows it.
    const lineStart = i === 0 || markdown[i - 1] === '\n';
    const codeEnd = (lineStart ? fencedBlockEnd(markdown, i) : undefined) ?? readCodeSpan(i)?.end;
    if (codeEnd !== undefined) {
      out += markdown.slice(i, codeEnd);
      i = codeEnd;
    } else if (markdown.startsWith('<!--', i)) {
      const close = markdown.indexOf('-->', i + 4);
      i = close < 0 ? markdown.length : close + 3;
    } else {
      out += markdown[i];
      i++;
    }
  }
  return out;
}

const labelNames = (issue: IssuePayload): string[] => (issue.labels ?? []).map((l) => (typeof l === 'string' ? l : l.name));

/** The title without the command prefix (`/wiki How do I …` → `How do I …`), or undefined without it. */
function afterCommand(title: string, command: string): string | undefined {
  const t = title.trimStart();
  if (!t.toLowerCase().startsWith(command.toLowerCase())) return undefined;
  const rest = t.slice(command.length);
  if (rest !== '' && !/^[\s:]/.test(rest)) return undefined;
  return rest.replace(/^[\s:]+/, '');
}

/** `mode: auto` — the work each event asks for (the README's table). */
export function workForEvent(eventName: string, payload: EventPayload, triggers: Triggers): Work {
  if (eventName === 'issues') return issueWork(payload, triggers);
  if (eventName === 'issue_comment') return commentWork(payload, triggers);
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
  const questionTitle = stripped ?? title;
  const body = withoutEmptyFormFields(visibleMarkdown(issue.body ?? '')).trim();
  return {
    kind: 'answer',
    question: {
      key: `issue-${issue.number}`,
      ...(typeof issue.updated_at === 'string' ? { editedAt: issue.updated_at } : {}),
      issueNumber: issue.number,
      text: body ? `${questionTitle}\n\n${body}` : questionTitle,
      issueTitle: title,
      issueBody: visibleMarkdown(issue.body ?? ''),
      asker: asker ?? { login: 'ghost' },
      isPullRequest: Boolean(issue.pull_request),
      locked: Boolean(issue.locked),
    },
  };
}

function commentWork(payload: EventPayload, triggers: Triggers): Work {
  const { issue, comment } = payload;
  if (!issue || !comment) return { kind: 'skip', reason: 'issue_comment event without an issue or comment' };
  if (payload.action !== 'created') return { kind: 'skip', reason: `comment ${payload.action}: nothing to answer` };
  const pattern = new RegExp(`^\\s*${triggers.command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+ask\\b[\\s:]*`, 'i');
  const body = visibleMarkdown(comment.body ?? '');
  if (!pattern.test(body)) return { kind: 'skip', reason: `comment does not start with '${triggers.command} ask'` };
  const text = body.replace(pattern, '').trim();
  if (text === '') return { kind: 'skip', reason: `'${triggers.command} ask' with no question` };
  return {
    kind: 'answer',
    question: {
      key: `comment-${comment.id}`,
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
