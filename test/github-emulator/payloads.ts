// EventPayloads: webhook-style event payloads (issues, issue_comment, pull_request) built from the
// state, for GITHUB_EVENT_PATH. Separate: tests use them without the server.
import type { Renderer } from './renderer.js';
import type { EmulatorState } from './state.js';

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
}
