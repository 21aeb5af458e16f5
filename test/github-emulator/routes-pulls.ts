// Route handlers for pull requests: list, create, get, update, merge, request reviewers. One of
// three routes-*.ts files split by API area.
import { ROLE_RANK, basicError, lower, validationFailed } from './helpers.js';
import { type RouteEnv, type Route, compileRoute, paginate, routeHelpers } from './routing.js';
import type { PullRecord, ValidationError } from './types.js';

export function pullRoutes(env: RouteEnv): Route[] {
  const { state } = env;
  const { checkBodySize, touch, canWrite, getPull } = routeHelpers(env);
  return [
    // -- Pull requests -----------------------------------------------------------------------------

    compileRoute('GET', '/repos/{owner}/{repo}/pulls', 'read', (ctx) => {
      const stateFilter = ctx.query.get('state') ?? 'open';
      if (!['open', 'closed', 'all'].includes(stateFilter)) {
        throw validationFailed(ctx.docs, [{ resource: 'Search', code: 'invalid', field: 'state' }]);
      }
      const head = ctx.query.get('head');
      const base = ctx.query.get('base');
      const sort = ctx.query.get('sort') ?? 'created';
      const direction = ctx.query.get('direction') ?? (sort === 'created' ? 'desc' : 'asc');
      // GitHub ignores a head filter without the "owner:" prefix.
      const headFilter = head && head.includes(':') ? head.split(':') : null;
      const list = state.pulls
        .filter((p) => p.repo === ctx.repo.full_name)
        .map((p) => state.refreshPull(p))
        .filter((p) => stateFilter === 'all' || p.state === stateFilter)
        .filter((p) => !headFilter || (lower(headFilter[0] ?? '') === lower(ctx.repo.owner) && p.head === headFilter.slice(1).join(':')))
        .filter((p) => !base || p.base === base)
        .sort((a, b) => {
          const key = (p: PullRecord): number =>
            sort === 'updated'
              ? Date.parse(p.issue.updated_at)
              : sort === 'popularity'
                ? state.commentsOn(p.number, p.repo).length
                : Date.parse(p.issue.created_at);
          const d = key(a) - key(b) || a.number - b.number;
          return direction === 'asc' ? d : -d;
        });
      const page = paginate(list, ctx, env.apiUrl);
      return { status: 200, body: page.items.map((p) => env.render.pullSimple(p)), headers: page.headers };
    }),

    compileRoute('POST', '/repos/{owner}/{repo}/pulls', 'pull_requests:write', (ctx) => {
      const b = ctx.body as { title?: string; head: string; base: string; body?: string; draft?: boolean; maintainer_can_modify?: boolean; issue?: number };
      if (lower(ctx.actor.login) === 'github-actions[bot]' && !ctx.repo.actionsCanCreatePullRequests) {
        throw basicError(403, 'GitHub Actions is not permitted to create or approve pull requests.', ctx.docs);
      }
      if (!canWrite(ctx)) throw basicError(403, 'Must have push access to create a pull request in this repository.', ctx.docs);
      if (b.issue !== undefined)
        throw validationFailed(ctx.docs, [
          { resource: 'PullRequest', code: 'custom', field: 'issue', message: 'Converting issues to pull requests is not emulated' },
        ]);
      if (b.title === undefined || b.title.trim() === '')
        throw validationFailed(ctx.docs, [{ resource: 'PullRequest', code: 'missing_field', field: 'title' }]);
      if (typeof b.body === 'string') checkBodySize(b.body, 'Issue', ctx.docs);
      const git = state.git(ctx.repo.full_name);
      const colon = b.head.indexOf(':');
      const headOwner = colon >= 0 ? b.head.slice(0, colon) : ctx.repo.owner;
      const headBranch = colon >= 0 ? b.head.slice(colon + 1) : b.head;
      const errors: NonNullable<ValidationError['errors']> = [];
      if (!git.refSha(`refs/heads/${b.base}`)) errors.push({ resource: 'PullRequest', field: 'base', code: 'invalid' });
      if (lower(headOwner) !== lower(ctx.repo.owner) || !git.refSha(`refs/heads/${headBranch}`))
        errors.push({ resource: 'PullRequest', field: 'head', code: 'invalid' });
      if (errors.length > 0) throw validationFailed(ctx.docs, errors);
      const existing = state.pulls
        .filter((p) => p.repo === ctx.repo.full_name && p.head === headBranch && p.base === b.base)
        .map((p) => state.refreshPull(p))
        .find((p) => p.state === 'open');
      if (existing) {
        throw validationFailed(ctx.docs, [
          { resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${ctx.repo.owner}:${headBranch}.` },
        ]);
      }
      if (git.commitsBetween(`refs/heads/${b.base}`, `refs/heads/${headBranch}`).length === 0) {
        throw validationFailed(ctx.docs, [{ resource: 'PullRequest', code: 'custom', message: `No commits between ${b.base} and ${b.head}` }]);
      }
      const pr = state.addPull({
        repo: ctx.repo.full_name,
        head: headBranch,
        base: b.base,
        title: b.title,
        body: b.body ?? null,
        user: ctx.actor.login,
        draft: b.draft ?? false,
        // Only meaningful for pull requests from forks; GitHub reports false for same-repository ones.
        maintainer_can_modify: b.maintainer_can_modify ?? false,
      });
      // GitHub computes mergeability in the background: the creation response has mergeable null.
      const body = env.render.pull(pr, { mergeable: 'unknown' });
      return { status: 201, body, headers: { location: body.url } };
    }),

    compileRoute('GET', '/repos/{owner}/{repo}/pulls/{pull_number}', 'read', (ctx) => {
      const pr = state.refreshPull(getPull(ctx));
      return { status: 200, body: env.render.pull(pr) };
    }),

    compileRoute('PATCH', '/repos/{owner}/{repo}/pulls/{pull_number}', 'pull_requests:write', (ctx) => {
      const pr = state.refreshPull(getPull(ctx));
      const b = (ctx.body ?? {}) as { title?: string; body?: string; state?: 'open' | 'closed'; base?: string; maintainer_can_modify?: boolean };
      if (lower(pr.user) !== lower(ctx.actor.login) && !canWrite(ctx)) throw basicError(403, 'Must have push access to update this pull request.', ctx.docs);
      const git = state.git(ctx.repo.full_name);
      if (b.title !== undefined) {
        if (b.title.trim() === '') throw validationFailed(ctx.docs, [{ resource: 'PullRequest', code: 'missing_field', field: 'title' }]);
        pr.issue.title = b.title;
      }
      if (b.body !== undefined) {
        checkBodySize(b.body, 'Issue', ctx.docs);
        pr.issue.body = b.body;
      }
      if (b.base !== undefined && b.base !== pr.base) {
        if (pr.state !== 'open')
          throw validationFailed(ctx.docs, [
            { resource: 'PullRequest', code: 'custom', field: 'base', message: 'Cannot change the base branch of a closed pull request.' },
          ]);
        const baseSha = git.refSha(`refs/heads/${b.base}`);
        if (!baseSha) throw validationFailed(ctx.docs, [{ resource: 'PullRequest', code: 'invalid', field: 'base' }]);
        pr.base = b.base;
        pr.base_sha = baseSha;
      }
      if (b.maintainer_can_modify !== undefined) pr.maintainer_can_modify = b.maintainer_can_modify;
      if (b.state !== undefined && b.state !== pr.state) {
        if (b.state === 'closed') state.closeIssue(pr.issue, ctx.actor.login);
        else {
          if (pr.merged)
            throw validationFailed(ctx.docs, [
              { resource: 'PullRequest', code: 'custom', field: 'state', message: 'state cannot be changed. The pull request has been merged.' },
            ]);
          if (!git.refSha(`refs/heads/${pr.head}`) || !git.refSha(`refs/heads/${pr.base}`)) {
            throw validationFailed(ctx.docs, [
              { resource: 'PullRequest', code: 'custom', field: 'state', message: 'state cannot be changed. The head or base branch was deleted.' },
            ]);
          }
          pr.issue.state = 'open';
          pr.issue.state_reason = null;
          pr.issue.closed_at = null;
          pr.issue.closed_by = null;
          state.refreshPull(pr);
        }
      }
      touch(pr.issue);
      return { status: 200, body: env.render.pull(pr) };
    }),

    compileRoute('PUT', '/repos/{owner}/{repo}/pulls/{pull_number}/merge', 'contents:write', (ctx) => {
      const pr = getPull(ctx);
      const b = (ctx.body ?? {}) as { commit_title?: string; commit_message?: string; sha?: string; merge_method?: 'merge' | 'squash' | 'rebase' };
      if (!canWrite(ctx)) throw basicError(403, 'Must have push access to merge this pull request.', ctx.docs);
      const { sha } = state.mergePull(pr, {
        by: ctx.actor.login,
        docs: ctx.docs,
        ...(b.merge_method ? { method: b.merge_method } : {}),
        ...(b.commit_title !== undefined ? { commit_title: b.commit_title } : {}),
        ...(b.commit_message !== undefined ? { commit_message: b.commit_message } : {}),
        ...(b.sha !== undefined ? { sha: b.sha } : {}),
      });
      return { status: 200, body: { sha, merged: true, message: 'Pull Request successfully merged' } };
    }),

    compileRoute('POST', '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', 'pull_requests:write', (ctx) => {
      const pr = state.refreshPull(getPull(ctx));
      const b = (ctx.body ?? {}) as { reviewers?: string[]; team_reviewers?: string[] };
      const reviewers = b.reviewers ?? [];
      const teams = b.team_reviewers ?? [];
      if (reviewers.some((r) => lower(r) === lower(pr.user))) throw basicError(422, 'Review cannot be requested from pull request author.', ctx.docs);
      const isCollaborator = (login: string) => {
        if (lower(login) === lower(ctx.repo.owner)) return true;
        const grant = ctx.repo.roles.get(lower(login));
        return grant !== undefined && ROLE_RANK[grant.base] >= ROLE_RANK.read;
      };
      if (reviewers.some((r) => !isCollaborator(r)) || (teams.length > 0 && ctx.repo.ownerType !== 'Organization')) {
        throw basicError(
          422,
          `Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the ${ctx.repo.full_name} repository.`,
          ctx.docs,
        );
      }
      for (const r of reviewers) {
        const login = state.ensureUser(r).login;
        if (!pr.requested_reviewers.some((x) => lower(x) === lower(login))) pr.requested_reviewers.push(login);
      }
      for (const t of teams) if (!pr.requested_teams.includes(t)) pr.requested_teams.push(t);
      touch(pr.issue);
      return { status: 201, body: env.render.pullSimple(pr) };
    }),
  ];
}
