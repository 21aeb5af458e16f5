// Route handlers for the repository, issues, issue comments, reactions, labels and collaborator
// permissions. One of three routes-*.ts files split by API area; the server joins them in this order.
import { ROLE_RANK, basicError, lower, notFound, validationFailed } from './helpers.js';
import { type Ctx, type Reply, type RouteEnv, type Route, compileRoute, intParam, paginate, parseSince, routeHelpers } from './routing.js';
import type { CommentRecord, IssueRecord, ReactionContent, ReactionRecord } from './types.js';

export function issueRoutes(env: RouteEnv): Route[] {
  const { state } = env;
  const { checkBodySize, getIssue, getComment, touch, applyLabels, labelNames, canWrite, issueLabels } = routeHelpers(env);
  // Reactions work alike on an issue comment and on an issue: `given` are those on the subject.
  const listReactions = (ctx: Ctx, given: ReactionRecord[]): Reply => {
    const content = ctx.query.get('content');
    const page = paginate(
      given.filter((r) => !content || r.content === content),
      ctx,
      env.apiUrl,
    );
    return { status: 200, body: page.items.map((r) => env.render.reaction(r)), headers: page.headers };
  };
  /** 201 with the new reaction, or 200 with the caller's own when it already gave that one. */
  const createReaction = (ctx: Ctx, given: ReactionRecord[], add: (content: ReactionContent) => ReactionRecord): Reply => {
    const content = (ctx.body as { content: ReactionContent }).content;
    const existing = given.find((r) => r.content === content && lower(r.user) === lower(ctx.actor.login));
    if (existing) return { status: 200, body: env.render.reaction(existing) };
    return { status: 201, body: env.render.reaction(add(content)) };
  };
  /** 204; a reaction that is not on the subject, or is someone else's, is not found (approximation). */
  const deleteReaction = (ctx: Ctx, given: ReactionRecord[]): Reply => {
    const id = intParam(ctx.params.reaction_id);
    const reaction = given.find((r) => r.id === id && lower(r.user) === lower(ctx.actor.login));
    if (!reaction) throw notFound();
    state.removeReaction(reaction);
    return { status: 204 };
  };
  return [
    compileRoute('GET', '/repos/{owner}/{repo}', 'read', (ctx) => ({ status: 200, body: env.render.repository(ctx.repo.full_name, ctx.actor.login) })),

    compileRoute('GET', '/repos/{owner}/{repo}/issues', 'read', (ctx) => {
      const stateFilter = ctx.query.get('state') ?? 'open';
      const labels = (ctx.query.get('labels') ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map(lower);
      const since = parseSince(ctx.query.get('since'));
      const creator = ctx.query.get('creator');
      const assignee = ctx.query.get('assignee');
      const sort = ctx.query.get('sort') ?? 'created';
      const direction = ctx.query.get('direction') ?? 'desc';
      const commentCount = (i: IssueRecord) => state.commentsOn(i.number, i.repo).length;
      const list = state.issues
        .filter((i) => i.repo === ctx.repo.full_name)
        .filter((i) => stateFilter === 'all' || i.state === stateFilter)
        .filter((i) => labels.every((l) => i.labels.some((n) => lower(n) === l)))
        .filter((i) => since === undefined || Date.parse(i.updated_at) >= since)
        .filter((i) => !creator || lower(i.user) === lower(creator))
        .filter((i) => {
          if (!assignee) return true;
          if (assignee === '*') return i.assignees.length > 0;
          if (assignee === 'none') return i.assignees.length === 0;
          return i.assignees.some((a) => lower(a) === lower(assignee));
        })
        .sort((a, b) => {
          const key = (i: IssueRecord): number =>
            sort === 'updated' ? Date.parse(i.updated_at) : sort === 'comments' ? commentCount(i) : Date.parse(i.created_at);
          const d = key(a) - key(b) || a.number - b.number;
          return direction === 'asc' ? d : -d;
        });
      const page = paginate(list, ctx, env.apiUrl);
      return { status: 200, body: page.items.map((i) => env.render.issue(i)), headers: page.headers };
    }),

    compileRoute('POST', '/repos/{owner}/{repo}/issues', 'issues:write', (ctx) => {
      const b = ctx.body as { title: string | number; body?: string; labels?: unknown[]; assignees?: string[]; assignee?: string | null };
      const title = String(b.title);
      if (title.trim() === '') throw validationFailed(ctx.docs, [{ resource: 'Issue', code: 'missing_field', field: 'title' }]);
      if (typeof b.body === 'string') checkBodySize(b.body, 'Issue', ctx.docs);
      if (!ctx.repo.has_issues) throw basicError(410, 'Issues are disabled for this repo', ctx.docs);
      const writer = canWrite(ctx);
      const issue = state.addIssue({
        repo: ctx.repo.full_name,
        title,
        body: b.body ?? null,
        user: ctx.actor.login,
        // Like GitHub, labels and assignees are silently dropped for users without push access.
        labels: writer ? labelNames(b.labels ?? []) : [],
        assignees: writer ? [...(b.assignees ?? []), ...(b.assignee ? [b.assignee] : [])] : [],
      });
      const body = env.render.issue(issue, { withClosedBy: true });
      return { status: 201, body, headers: { location: body.url } };
    }),

    // Before /issues/{issue_number}, which would otherwise take "comments" for an issue number.
    compileRoute('GET', '/repos/{owner}/{repo}/issues/comments', 'read', (ctx) => {
      const sort = ctx.query.get('sort');
      const direction = ctx.query.get('direction');
      if (sort !== null && !['created', 'updated'].includes(sort))
        throw validationFailed(ctx.docs, [{ resource: 'IssueComment', code: 'invalid', field: 'sort' }]);
      if (direction !== null && !['asc', 'desc'].includes(direction))
        throw validationFailed(ctx.docs, [{ resource: 'IssueComment', code: 'invalid', field: 'direction' }]);
      const since = parseSince(ctx.query.get('since'));
      const list = state.comments
        .filter((c) => c.repo === ctx.repo.full_name)
        .filter((c) => since === undefined || Date.parse(c.updated_at) >= since)
        .sort((a, b) => {
          // By default GitHub lists them by ascending id; `direction` applies only with `sort`.
          if (sort === null) return a.id - b.id;
          const key = (c: CommentRecord) => Date.parse(sort === 'updated' ? c.updated_at : c.created_at);
          const d = key(a) - key(b) || a.id - b.id;
          return direction === 'asc' ? d : -d;
        });
      const page = paginate(list, ctx, env.apiUrl);
      return { status: 200, body: page.items.map((c) => env.render.comment(c)), headers: page.headers };
    }),

    compileRoute('GET', '/repos/{owner}/{repo}/issues/{issue_number}', 'read', (ctx) => ({
      status: 200,
      body: env.render.issue(getIssue(ctx), { withClosedBy: true }),
    })),

    compileRoute('PATCH', '/repos/{owner}/{repo}/issues/{issue_number}', 'issues:write', (ctx) => {
      const issue = getIssue(ctx);
      const b = (ctx.body ?? {}) as {
        title?: string | number | null;
        body?: string | null;
        state?: 'open' | 'closed';
        state_reason?: IssueRecord['state_reason'];
        labels?: unknown[];
        assignees?: Array<string | { login?: string }>;
        assignee?: string | null;
      };
      if (b.title !== undefined && b.title !== null) {
        const title = String(b.title);
        if (title.trim() === '') throw validationFailed(ctx.docs, [{ resource: 'Issue', code: 'missing_field', field: 'title' }]);
        issue.title = title;
      }
      if (b.body !== undefined) {
        if (typeof b.body === 'string') checkBodySize(b.body, 'Issue', ctx.docs);
        issue.body = b.body;
      }
      if (b.state !== undefined && b.state !== issue.state) {
        issue.state = b.state;
        if (b.state === 'closed') {
          issue.closed_at = state.now();
          issue.closed_by = ctx.actor.login;
          issue.state_reason = b.state_reason ?? 'completed';
        } else {
          issue.closed_at = null;
          issue.closed_by = null;
          issue.state_reason = 'reopened';
        }
      } else if (b.state_reason !== undefined && issue.state === 'closed') {
        issue.state_reason = b.state_reason;
      }
      if (b.labels !== undefined) {
        issue.labels = [];
        applyLabels(issue, labelNames(b.labels));
      }
      if (b.assignees !== undefined) issue.assignees = b.assignees.map((a) => state.ensureUser(typeof a === 'string' ? a : String(a.login)).login);
      else if (b.assignee !== undefined) issue.assignees = b.assignee ? [state.ensureUser(b.assignee).login] : [];
      touch(issue);
      return { status: 200, body: env.render.issue(issue, { withClosedBy: true }) };
    }),

    compileRoute('GET', '/repos/{owner}/{repo}/issues/{issue_number}/comments', 'read', (ctx) => {
      const issue = getIssue(ctx);
      const since = parseSince(ctx.query.get('since'));
      const list = state.commentsOn(issue.number, issue.repo).filter((c) => since === undefined || Date.parse(c.updated_at) >= since);
      const page = paginate(list, ctx, env.apiUrl);
      return { status: 200, body: page.items.map((c) => env.render.comment(c)), headers: page.headers };
    }),

    compileRoute('POST', '/repos/{owner}/{repo}/issues/{issue_number}/comments', 'issues:write', (ctx) => {
      const issue = getIssue(ctx);
      const text = (ctx.body as { body: string }).body;
      if (issue.locked && !(ctx.actor.type === 'User' && canWrite(ctx))) {
        throw basicError(403, 'Unable to create comment because issue is locked.', 'https://docs.github.com/articles/locking-conversations/');
      }
      if (text.trim() === '') throw validationFailed(ctx.docs, [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }]);
      checkBodySize(text, 'IssueComment', ctx.docs);
      const comment = state.addComment({ repo: issue.repo, issue_number: issue.number, body: text, user: ctx.actor.login });
      const body = env.render.comment(comment);
      return { status: 201, body, headers: { location: body.url } };
    }),

    compileRoute('GET', '/repos/{owner}/{repo}/issues/comments/{comment_id}', 'read', (ctx) => ({ status: 200, body: env.render.comment(getComment(ctx)) })),

    compileRoute('PATCH', '/repos/{owner}/{repo}/issues/comments/{comment_id}', 'issues:write', (ctx) => {
      const comment = getComment(ctx);
      const text = (ctx.body as { body: string }).body;
      if (text.trim() === '') throw validationFailed(ctx.docs, [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }]);
      checkBodySize(text, 'IssueComment', ctx.docs);
      if (lower(comment.user) !== lower(ctx.actor.login) && !canWrite(ctx)) throw basicError(403, 'Must have push access to edit this comment.', ctx.docs);
      comment.body = text;
      comment.updated_at = state.now();
      return { status: 200, body: env.render.comment(comment) };
    }),

    compileRoute('DELETE', '/repos/{owner}/{repo}/issues/comments/{comment_id}', 'issues:write', (ctx) => {
      const comment = getComment(ctx);
      if (lower(comment.user) !== lower(ctx.actor.login) && !canWrite(ctx)) throw basicError(403, 'Must have push access to delete this comment.', ctx.docs);
      state.comments.splice(state.comments.indexOf(comment), 1);
      for (let i = state.reactions.length - 1; i >= 0; i--) if (state.reactions[i]?.comment_id === comment.id) state.reactions.splice(i, 1);
      return { status: 204 };
    }),

    compileRoute('GET', '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', 'read', (ctx) =>
      listReactions(ctx, state.reactionsOn(getComment(ctx).id)),
    ),

    compileRoute('POST', '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', 'issues:write', (ctx) => {
      const comment = getComment(ctx);
      return createReaction(ctx, state.reactionsOn(comment.id), (content) =>
        state.addReaction({ repo: comment.repo, comment_id: comment.id, content, user: ctx.actor.login }),
      );
    }),

    compileRoute('DELETE', '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions/{reaction_id}', 'issues:write', (ctx) =>
      deleteReaction(ctx, state.reactionsOn(getComment(ctx).id)),
    ),

    compileRoute('GET', '/repos/{owner}/{repo}/issues/{issue_number}/reactions', 'read', (ctx) => {
      const issue = getIssue(ctx);
      return listReactions(ctx, state.reactionsOnIssue(issue.number, issue.repo));
    }),

    compileRoute('POST', '/repos/{owner}/{repo}/issues/{issue_number}/reactions', 'issues:write', (ctx) => {
      const issue = getIssue(ctx);
      return createReaction(ctx, state.reactionsOnIssue(issue.number, issue.repo), (content) =>
        state.addReaction({ repo: issue.repo, issue_number: issue.number, content, user: ctx.actor.login }),
      );
    }),

    compileRoute('DELETE', '/repos/{owner}/{repo}/issues/{issue_number}/reactions/{reaction_id}', 'issues:write', (ctx) => {
      const issue = getIssue(ctx);
      return deleteReaction(ctx, state.reactionsOnIssue(issue.number, issue.repo));
    }),

    compileRoute('GET', '/repos/{owner}/{repo}/labels/{name}', 'read', (ctx) => {
      const label = state.findLabel(ctx.params.name ?? '', ctx.repo.full_name);
      if (!label) throw notFound();
      return { status: 200, body: env.render.label(label) };
    }),

    compileRoute('POST', '/repos/{owner}/{repo}/labels', 'labels:write', (ctx) => {
      const b = ctx.body as { name: string; color?: string; description?: string };
      if (!canWrite(ctx)) throw basicError(403, 'Must have push access to repository', ctx.docs);
      if (b.name.trim() === '') throw validationFailed(ctx.docs, [{ resource: 'Label', code: 'missing_field', field: 'name' }]);
      if (b.color !== undefined && !/^[0-9a-fA-F]{6}$/.test(b.color)) {
        throw validationFailed(ctx.docs, [{ resource: 'Label', code: 'invalid', field: 'color' }]);
      }
      if (b.description !== undefined && b.description.length > 100) {
        throw validationFailed(ctx.docs, [
          { resource: 'Label', code: 'custom', field: 'description', message: 'description is too long (maximum is 100 characters)' },
        ]);
      }
      if (state.findLabel(b.name, ctx.repo.full_name)) {
        throw validationFailed(ctx.docs, [{ resource: 'Label', code: 'already_exists', field: 'name' }]);
      }
      const label = state.addLabel({ repo: ctx.repo.full_name, name: b.name, ...(b.color ? { color: b.color } : {}), description: b.description ?? null });
      const body = env.render.label(label);
      return { status: 201, body, headers: { location: body.url } };
    }),

    compileRoute('POST', '/repos/{owner}/{repo}/issues/{issue_number}/labels', 'labels:write', (ctx) => {
      const issue = getIssue(ctx);
      const b = ctx.body as { labels?: unknown[] } | undefined;
      if (ROLE_RANK[state.roleOf(ctx.actor.login, ctx.repo.full_name).base] < ROLE_RANK.triage) {
        throw basicError(403, ctx.actor.type === 'Bot' ? 'Resource not accessible by integration' : 'Must have triage access to add labels.', ctx.docs);
      }
      applyLabels(issue, labelNames(b?.labels ?? []));
      touch(issue);
      return { status: 200, body: issueLabels(issue) };
    }),

    compileRoute('DELETE', '/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}', 'labels:write', (ctx) => {
      const issue = getIssue(ctx);
      const name = lower(ctx.params.name ?? '');
      const index = issue.labels.findIndex((n) => lower(n) === name);
      if (index < 0) throw basicError(404, 'Label does not exist', ctx.docs);
      issue.labels.splice(index, 1);
      touch(issue);
      return { status: 200, body: issueLabels(issue) };
    }),

    compileRoute('GET', '/repos/{owner}/{repo}/collaborators/{username}/permission', 'read', (ctx) => {
      const login = ctx.params.username ?? '';
      const user = state.findUser(login);
      if (!user) throw notFound();
      return { status: 200, body: env.render.collaboratorPermission(user.login, ctx.repo.full_name) };
    }),
  ];
}
