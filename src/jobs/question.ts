// A question as the jobs see it, whichever event asked it: the issue or the `/wiki ask` comment,
// who asks, and the context around it; and a closed capture pull request.
import { withoutEmptyFormFields } from '../markdown/issue-forms.js';
import { visibleMarkdown } from '../markdown/visible.js';

export interface GitHubUser {
  login: string;
  type?: string;
}

/**
 * Where a question was asked, and so where its answer goes: an issue's (or pull request's)
 * conversation, or a GitHub Discussion (GraphQL only: its node id; a follow-up's comment and the
 * top-level comment of its thread, whose replies the answer joins).
 */
export type QuestionPlace =
  | { kind: 'issue' }
  | {
      kind: 'discussion';
      nodeId: string;
      url: string;
      /** For a `/wiki ask` in a discussion: the asking comment's node id, and its parent's database id when it is a reply. */
      followUp?: { nodeId: string; parentId: number | null };
    };

export interface Question {
  /** Stable identity of the question: the issue or discussion, or the follow-up comment. */
  key: string;
  place: QuestionPlace;
  /**
   * Which edit of an issue's question this is: the issue's `updated_at` in the event (later is
   * newer). Two runs that answered the same question at once keep the answer to the later one.
   * Undefined for a `/wiki ask` comment, which an edit never asks again.
   */
  editedAt?: string;
  /** The issue's or the discussion's number (GitHub numbers issues, pull requests and discussions in one sequence). */
  issueNumber: number;
  /** The follow-up comment that asked, for `/wiki ask`. */
  commentId?: number;
  text: string;
  /** Issue title and body, for context. */
  issueTitle: string;
  issueBody: string;
  /** Who answers for the question: the author, whoever added the trigger label, or whoever edited the issue. */
  asker: GitHubUser;
  isPullRequest: boolean;
  locked: boolean;
}

/**
 * A closed pull request whose branch is named like a capture branch (merged or not): the steward's
 * own capture PR only when its author, its head repository and its marker say so.
 */
export interface ClosedCapture {
  number: number;
  merged: boolean;
  mergeCommitSha: string | null;
  body: string;
  branch: string;
  /** Who opened it (from the event); only the steward's own capture PRs get a reply or lose their branch. */
  author?: string;
  /** The head repository's `owner/name` (from the event; absent when that repository is gone). */
  headRepo?: string;
}

/** Any bot (the steward included): questions from bots are never answered. */
export const isBot = (user: GitHubUser | undefined): boolean => !!user && (user.type === 'Bot' || /\[bot\]$/i.test(user.login));

/** The title without the command prefix (`/wiki How do I …` → `How do I …`), or undefined without it. */
export function afterCommand(title: string, command: string): string | undefined {
  const t = title.trimStart();
  if (!t.toLowerCase().startsWith(command.toLowerCase())) return undefined;
  const rest = t.slice(command.length);
  if (rest !== '' && !/^[\s:]/.test(rest)) return undefined;
  return rest.replace(/^[\s:]+/, '');
}

/** The question a titled issue or discussion asks: its title without the command, then what its body shows (a form's empty fields left out). */
export function askedText(title: string, body: string | null | undefined, command: string): string {
  const asked = afterCommand(title, command) ?? title;
  const shown = withoutEmptyFormFields(visibleMarkdown(body ?? '')).trim();
  return shown ? `${asked}\n\n${shown}` : asked;
}
