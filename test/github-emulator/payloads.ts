// EventPayloads: webhook-style event payloads (issues, issue_comment, pull_request, discussion,
// discussion_comment) built from the state, for GITHUB_EVENT_PATH. Separate: tests use them
// without the server.
import type { Renderer } from './renderer.js';
import type { EmulatorState } from './state.js';
import type { DiscussionCommentRecord, Schemas } from './types.js';

/** The `discussion` webhook payload of each action, as GitHub's OpenAPI description types it. */
export interface DiscussionEvents {
  created: Schemas['webhook-discussion-created'];
  edited: Schemas['webhook-discussion-edited'];
  deleted: Schemas['webhook-discussion-deleted'];
  category_changed: Schemas['webhook-discussion-category-changed'];
  labeled: Schemas['webhook-discussion-labeled'];
  unlabeled: Schemas['webhook-discussion-unlabeled'];
  answered: Schemas['webhook-discussion-answered'];
  unanswered: Schemas['webhook-discussion-unanswered'];
  locked: Schemas['webhook-discussion-locked'];
  unlocked: Schemas['webhook-discussion-unlocked'];
  closed: Schemas['webhook-discussion-closed'];
  reopened: Schemas['webhook-discussion-reopened'];
}

/** The `discussion_comment` webhook payload of each action. */
export interface DiscussionCommentEvents {
  created: Schemas['webhook-discussion-comment-created'];
  edited: Schemas['webhook-discussion-comment-edited'];
  deleted: Schemas['webhook-discussion-comment-deleted'];
}

export interface DiscussionEventOptions {
  repo?: string;
  /** Who acted (default: the author; for `answered`, whoever chose the answer). */
  sender?: string;
  /** The label of `labeled` / `unlabeled` (created when missing). */
  label?: string;
  /**
   * What changed: for `edited` the old `title` and/or `body`; for `category_changed` the old
   * `category` (name, slug or id; see state.moveDiscussion, which returns it).
   */
  changes?: { title?: string; body?: string; category?: string | number };
  /** For `unanswered`: the comment (id) that was the answer. */
  oldAnswer?: number;
}

export class EventPayloads {
  constructor(
    private readonly state: EmulatorState,
    private readonly render: Renderer,
  ) {}

  /** An `issues` event (opened, edited, labeled, …) for an issue in the state. */
  issues(action: string, issueNumber: number, opts: { repo?: string; sender?: string; label?: string } = {}): Record<string, unknown> {
    const issue = this.state.issue(issueNumber, opts.repo);
    return {
      action,
      issue: this.render.issue(issue),
      ...(opts.label ? { label: this.render.label(this.state.ensureLabel(opts.label, issue.repo)) } : {}),
      repository: this.render.repository(issue.repo),
      sender: this.render.user(opts.sender ?? issue.user),
    };
  }

  /** An `issue_comment` event (created, edited, deleted) for a comment in the state. */
  issueComment(action: string, commentId: number, opts: { repo?: string; sender?: string } = {}): Record<string, unknown> {
    const comment = this.state.findComment(commentId, opts.repo);
    if (!comment) throw new Error(`no comment ${commentId}`);
    const issue = this.state.issue(comment.issue_number, comment.repo);
    return {
      action,
      issue: this.render.issue(issue),
      comment: this.render.comment(comment),
      repository: this.render.repository(comment.repo),
      sender: this.render.user(opts.sender ?? comment.user),
    };
  }

  /**
   * A `pull_request` event (opened, closed, labeled, synchronize, …) for a pull request in the
   * state. `merged` overrides pull_request.merged (e.g. `closed` with `{ merged: true }` for a
   * merge the test did not perform through the API); `label` adds the event's `label`.
   */
  pullRequest(action: string, number: number, opts: { repo?: string; sender?: string; merged?: boolean; label?: string } = {}): Record<string, unknown> {
    const pr = this.state.pull(number, opts.repo);
    this.state.refreshPull(pr);
    const pullRequest: Record<string, unknown> = { ...this.render.pull(pr) };
    if (opts.merged !== undefined) {
      pullRequest.merged = opts.merged;
      if (opts.merged && pullRequest.merged_at === null) pullRequest.merged_at = pr.issue.closed_at ?? this.state.now();
      if (opts.merged && pullRequest.state === 'open') pullRequest.state = 'closed';
    }
    return {
      action,
      number: pr.number,
      pull_request: pullRequest,
      ...(opts.label ? { label: this.render.label(this.state.ensureLabel(opts.label, pr.repo)) } : {}),
      repository: this.render.repository(pr.repo),
      sender: this.render.user(opts.sender ?? pr.merged_by ?? pr.user),
    };
  }

  /**
   * A `discussion` event for a discussion in the state: created, edited (`changes.title` /
   * `changes.body`: the old values), category_changed (`changes.category`: the old category),
   * labeled / unlabeled (`label`), answered (the discussion's answer), unanswered (`oldAnswer`),
   * locked, unlocked, closed, reopened, deleted.
   */
  discussion<A extends keyof DiscussionEvents>(action: A, number: number, opts: DiscussionEventOptions = {}): DiscussionEvents[A] {
    const d = this.state.discussion(number, opts.repo);
    const base = {
      discussion: this.render.discussion(d),
      repository: this.render.webhookRepository(d.repo),
      sender: this.render.user(opts.sender ?? (action === 'answered' ? (d.answer_chosen_by ?? d.user) : d.user)),
    };
    const answerOf = (id: number | null | undefined, what: string) => {
      const comment = id === null || id === undefined ? undefined : this.state.findDiscussionComment(id, d.repo);
      if (!comment) throw new Error(`discussion #${number}: ${what}`);
      return this.render.discussionAnswer(comment);
    };
    const labelOf = () => {
      if (!opts.label) throw new Error(`a discussion ${action} event needs opts.label`);
      return this.render.webhookLabel(this.state.ensureLabel(opts.label, d.repo));
    };
    const a = action as keyof DiscussionEvents;
    let payload: DiscussionEvents[keyof DiscussionEvents];
    if (a === 'edited') {
      const changes: DiscussionEvents['edited']['changes'] = {
        ...(opts.changes?.title !== undefined ? { title: { from: opts.changes.title } } : {}),
        ...(opts.changes?.body !== undefined ? { body: { from: opts.changes.body } } : {}),
      };
      payload = { action: a, ...(opts.changes ? { changes } : {}), ...base } satisfies DiscussionEvents['edited'];
    } else if (a === 'category_changed') {
      if (opts.changes?.category === undefined) throw new Error('a category_changed event needs opts.changes.category (the old category)');
      const from = this.render.discussionCategory(this.state.discussionCategory(opts.changes.category, d.repo));
      payload = { action: a, changes: { category: { from } }, ...base } satisfies DiscussionEvents['category_changed'];
    } else if (a === 'labeled' || a === 'unlabeled') {
      payload = { action: a, label: labelOf(), ...base } satisfies DiscussionEvents['labeled' | 'unlabeled'];
    } else if (a === 'answered') {
      payload = { action: a, answer: answerOf(d.answer_comment_id, 'no answer chosen'), ...base } satisfies DiscussionEvents['answered'];
    } else if (a === 'unanswered') {
      payload = {
        action: a,
        old_answer: answerOf(opts.oldAnswer, 'an unanswered event needs opts.oldAnswer'),
        ...base,
      } satisfies DiscussionEvents['unanswered'];
    } else {
      payload = { action: a, ...base } satisfies DiscussionEvents['created' | 'deleted' | 'locked' | 'unlocked' | 'closed' | 'reopened'];
    }
    return payload as DiscussionEvents[A];
  }

  /**
   * A `discussion_comment` event (created, edited, deleted) for a comment in the state, or for the
   * record `state.deleteDiscussionComment` returned. `changes.body` is the old body of `edited`
   * (default: the current one).
   */
  discussionComment<A extends keyof DiscussionCommentEvents>(
    action: A,
    comment: number | DiscussionCommentRecord,
    opts: { repo?: string; sender?: string; changes?: { body?: string } } = {},
  ): DiscussionCommentEvents[A] {
    const c = typeof comment === 'number' ? this.state.discussionComment(comment, opts.repo) : comment;
    const base = {
      comment: this.render.discussionComment(c),
      discussion: this.render.discussion(this.state.discussionOf(c)),
      repository: this.render.webhookRepository(c.repo),
      sender: this.render.user(opts.sender ?? c.user),
    };
    const a = action as keyof DiscussionCommentEvents;
    const payload: DiscussionCommentEvents[keyof DiscussionCommentEvents] =
      a === 'edited'
        ? ({ action: a, changes: { body: { from: opts.changes?.body ?? c.body } }, ...base } satisfies DiscussionCommentEvents['edited'])
        : ({ action: a, ...base } satisfies DiscussionCommentEvents['created' | 'deleted']);
    return payload as DiscussionCommentEvents[A];
  }
}
