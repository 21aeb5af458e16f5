// Routing machinery shared by the routes-*.ts files: the request context, route compilation,
// pagination, request-body error messages, and the helpers handlers share (RouteEnv, routeHelpers).
import type { GitRepo } from './git-repo.js';
import { ROLE_RANK, basicError, bodyLength, lower, notFound, validationFailed } from './helpers.js';
import { findOperation } from './openapi-validate.js';
import type { Renderer } from './renderer.js';
import type { EmulatorState } from './state.js';
import type { CommentRecord, GitHubEmulatorOptions, IssueRecord, Label, LabelRecord, PullRecord, RepoRecord, TokenInit, UserRecord } from './types.js';

export interface Ctx {
  method: string;
  url: URL;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  actor: UserRecord;
  token: TokenInit;
  repo: RepoRecord;
  route: string;
  docs: string;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (ctx: Ctx) => Reply;

export interface Route {
  method: string;
  template: string;
  regex: RegExp;
  names: string[];
  handler: Handler;
  /** Which token permission the route needs (`labels:write`: issues or pull requests write, as GitHub's docs list for the label endpoints). */
  needs: 'read' | 'issues:write' | 'contents:write' | 'pull_requests:write' | 'labels:write';
}

export function compileRoute(method: string, template: string, needs: Route['needs'], handler: Handler): Route {
  const names: string[] = [];
  // Parameters GitHub marks x-multi-segment (a ref such as heads/feature/x, a file path) span '/'.
  const multi = new Set((findOperation(method, template)?.spec.parameters ?? []).filter((p) => p.multiSegment).map((p) => p.name));
  const body = template
    .split('/')
    .map((seg) => {
      const m = /^\{(\w+)\}$/.exec(seg);
      if (m && m[1]) {
        names.push(m[1]);
        return multi.has(m[1]) ? '(.*)' : '([^/]+)';
      }
      return seg;
    })
    .join('/');
  return { method, template, regex: new RegExp(`^${body}/?$`), names, handler, needs };
}

export function intParam(value: string | undefined): number {
  if (value === undefined || !/^\d+$/.test(value)) throw notFound();
  return Number(value);
}

export function paginate<T>(items: T[], ctx: Ctx, apiUrl: string): { items: T[]; headers: Record<string, string> } {
  const perRaw = Number.parseInt(ctx.query.get('per_page') ?? '', 10);
  const perPage = Number.isFinite(perRaw) && perRaw > 0 ? Math.min(perRaw, 100) : 30;
  const pageRaw = Number.parseInt(ctx.query.get('page') ?? '', 10);
  const page = Number.isFinite(pageRaw) && pageRaw > 0 ? pageRaw : 1;
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const link = (p: number): string => {
    const q = new URLSearchParams(ctx.query);
    q.set('per_page', String(perPage));
    q.set('page', String(p));
    return `${apiUrl}${ctx.url.pathname}?${q.toString()}`;
  };
  const rels: string[] = [];
  if (page > 1) rels.push(`<${link(Math.min(page - 1, last))}>; rel="prev"`);
  if (page < last) rels.push(`<${link(page + 1)}>; rel="next"`);
  if (page < last) rels.push(`<${link(last)}>; rel="last"`);
  if (page > 1) rels.push(`<${link(1)}>; rel="first"`);
  return { items: slice, headers: rels.length > 0 ? { link: rels.join(', ') } : {} };
}

export function parseSince(value: string | null): number | undefined {
  if (!value) return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}

/** Turns ajv errors for a request body into GitHub's "Invalid request." message. */
export function invalidRequestMessage(body: unknown, errors: Array<{ keyword: string; instancePath: string; params: Record<string, unknown> }>): string {
  const lines: string[] = [];
  const valueAt = (pointer: string): unknown => {
    let node: unknown = body;
    for (const raw of pointer.split('/').slice(1)) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    }
    return node;
  };
  const where = (pointer: string) => (pointer === '' ? 'data' : `properties${pointer}`);
  for (const e of errors) {
    let line: string;
    if (e.keyword === 'required') line = `"${String(e.params.missingProperty)}" wasn't supplied.`;
    else if (e.keyword === 'type')
      line = `For '${where(e.instancePath)}', ${JSON.stringify(valueAt(e.instancePath))} is not ${/^[aeiou]/.test(String(e.params.type)) ? 'an' : 'a'} ${String(e.params.type).replace(/,/g, ' or ')}.`;
    else if (e.keyword === 'enum')
      line = `For '${where(e.instancePath)}', ${JSON.stringify(valueAt(e.instancePath))} is not a member of ${JSON.stringify(e.params.allowedValues)}.`;
    else if (e.keyword === 'additionalProperties') line = `"${String(e.params.additionalProperty)}" is not a permitted key.`;
    else if (e.keyword === 'minItems')
      line = `For '${where(e.instancePath)}', ${JSON.stringify(valueAt(e.instancePath))} has fewer than ${String(e.params.limit)} items.`;
    else if (e.keyword === 'oneOf' || e.keyword === 'anyOf') continue;
    else line = `For '${where(e.instancePath)}', ${JSON.stringify(valueAt(e.instancePath))} is invalid (${e.keyword}).`;
    if (!lines.includes(line)) lines.push(line);
  }
  return `Invalid request.\n\n${(lines.length > 0 ? lines : ['The request body does not match the schema.']).slice(0, 5).join('\n')}`;
}

/** What the route handlers share with the server. */
export interface RouteEnv {
  readonly state: EmulatorState;
  /** The renderer: available once the server listens (its URLs need the port), before any request. */
  readonly render: Renderer;
  /** The API base URL (GITHUB_API_URL), available once the server listens. */
  readonly apiUrl: string;
  readonly bodyLimit: NonNullable<GitHubEmulatorOptions['bodyLimit']>;
}

/** Helpers over the request context that the route handlers share. */
export function routeHelpers(env: RouteEnv) {
  const { state, bodyLimit } = env;
  const checkBodySize = (text: string, resource: 'Issue' | 'IssueComment', docs: string) => {
    if (bodyLength(text, bodyLimit.unit) <= bodyLimit.max) return;
    throw resource === 'IssueComment'
      ? validationFailed(docs, [{ resource, code: 'unprocessable', field: 'data', message: `Body is too long (maximum is ${bodyLimit.max} characters)` }])
      : validationFailed(docs, [{ resource, code: 'custom', field: 'body', message: `body is too long (maximum is ${bodyLimit.max} characters)` }]);
  };

  const getIssue = (ctx: Ctx): IssueRecord => {
    const issue = state.findIssue(intParam(ctx.params.issue_number), ctx.repo.full_name);
    if (!issue) throw notFound();
    return issue;
  };
  const getComment = (ctx: Ctx): CommentRecord => {
    const comment = state.findComment(intParam(ctx.params.comment_id), ctx.repo.full_name);
    if (!comment) throw notFound();
    return comment;
  };
  const touch = (issue: IssueRecord) => {
    issue.updated_at = state.now();
  };
  const applyLabels = (issue: IssueRecord, names: string[]) => {
    for (const name of names) {
      const label = state.ensureLabel(name, issue.repo);
      if (!issue.labels.some((n) => lower(n) === lower(label.name))) issue.labels.push(label.name);
    }
  };
  const labelNames = (items: unknown[]): string[] =>
    items.map((i) => (typeof i === 'string' ? i : String((i as { name?: unknown }).name ?? ''))).filter((n) => n.trim() !== '');
  const canWrite = (ctx: Ctx) => ROLE_RANK[state.roleOf(ctx.actor.login, ctx.repo.full_name).base] >= ROLE_RANK.write;
  /** The repository's git repository; GitHub's 409 when it has no commits yet. */
  const nonEmptyGit = (ctx: Ctx): GitRepo => {
    const git = state.git(ctx.repo.full_name);
    if (git.isEmpty()) throw basicError(409, 'Git Repository is empty.', ctx.docs);
    return git;
  };
  const getPull = (ctx: Ctx): PullRecord => {
    const pr = state.findPull(intParam(ctx.params.pull_number), ctx.repo.full_name);
    if (!pr) throw notFound();
    return pr;
  };
  /** A protected branch refuses direct ref updates. */
  const refuseProtected = (ctx: Ctx, fullRef: string) => {
    const rule = fullRef.startsWith('refs/heads/') ? ctx.repo.protectedBranches.get(fullRef.slice('refs/heads/'.length)) : undefined;
    if (rule) throw basicError(rule.status, rule.message, 'https://docs.github.com/articles/about-protected-branches');
  };
  const issueLabels = (issue: IssueRecord): Label[] =>
    issue.labels
      .map((n) => state.findLabel(n, issue.repo))
      .filter((l): l is LabelRecord => l !== undefined)
      .map((l) => env.render.label(l));
  return { checkBodySize, getIssue, getComment, touch, applyLabels, labelNames, canWrite, nonEmptyGit, getPull, refuseProtected, issueLabels };
}
