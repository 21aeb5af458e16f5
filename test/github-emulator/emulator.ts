// A stateful, in-memory emulator of the slice of GitHub's REST API that wiki-steward uses, on
// node:http (127.0.0.1, a free port). Tests point GITHUB_API_URL at `url` and run the real Action
// bundle (or a real octokit) against it.
//
// - Shapes follow GitHub's OpenAPI description (types from @octokit/openapi-types; bodies are
//   checked by openapi-validate.ts against test/fixtures/github-openapi/endpoints.json, and
//   request bodies that do not match the documented request schema get GitHub's 422).
// - `state` holds repos, users, issues, comments, labels, reactions and collaborator roles; tests
//   seed it (`state.addIssue(...)`) and read it back (`state.comments`).
// - `faults` injects failures (502s, secondary and primary rate limits, permanent errors,
//   dropped connections) on matching requests.
// - `requests` records every request (method, path, route, body, status, response body) in
//   arrival order, so tests can assert which writes happened and in which order.
//
// Documented in test/github-emulator/README.md.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { components } from '@octokit/openapi-types';
import { checkRequestBody, findOperation } from './openapi-validate.js';

type Schemas = components['schemas'];
export type SimpleUser = Schemas['simple-user'];
export type Issue = Schemas['issue'];
export type IssueComment = Schemas['issue-comment'];
export type Label = Schemas['label'];
export type Reaction = Schemas['reaction'];
export type ReactionRollup = Schemas['reaction-rollup'];
export type FullRepository = Schemas['full-repository'];
export type CollaboratorPermission = Schemas['repository-collaborator-permission'];
export type BasicError = Schemas['basic-error'];
export type ValidationError = Schemas['validation-error'];

// ---------------------------------------------------------------------------------------------
// Public types

export type RoleName = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';
export type UserType = 'User' | 'Bot' | 'Organization';
export type ReactionContent = '+1' | '-1' | 'laugh' | 'confused' | 'heart' | 'hooray' | 'rocket' | 'eyes';
export const REACTION_CONTENTS: readonly ReactionContent[] = ['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes'];
export type AuthorAssociation = Schemas['author-association'];

export interface UserInit {
  login: string;
  id?: number;
  /** Default: 'Bot' when the login ends with "[bot]", else 'User'. */
  type?: UserType;
  name?: string | null;
  email?: string | null;
  site_admin?: boolean;
}

export interface UserRecord {
  login: string;
  id: number;
  node_id: string;
  type: UserType;
  name: string | null;
  email: string | null;
  site_admin: boolean;
}

export interface RepoInit {
  owner: string;
  name: string;
  /** Default 'Organization'. */
  ownerType?: 'User' | 'Organization';
  private?: boolean;
  default_branch?: string;
  description?: string | null;
  archived?: boolean;
  has_issues?: boolean;
  topics?: string[];
}

export interface RoleGrant {
  role_name: string;
  /** The built-in role a custom role_name inherits from (equal to role_name for built-in roles). */
  base: RoleName;
}

export interface RepoRecord {
  owner: string;
  name: string;
  full_name: string;
  ownerType: 'User' | 'Organization';
  id: number;
  node_id: string;
  private: boolean;
  default_branch: string;
  description: string | null;
  archived: boolean;
  has_issues: boolean;
  topics: string[];
  created_at: string;
  updated_at: string;
  pushed_at: string;
  /** Collaborator roles by lower-cased login. */
  roles: Map<string, RoleGrant>;
}

export interface IssueRecord {
  /** "owner/name" of the repository. */
  repo: string;
  id: number;
  node_id: string;
  number: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  state_reason: 'completed' | 'reopened' | 'not_planned' | 'duplicate' | null;
  /** Label names (the label objects are in state.labels). */
  labels: string[];
  /** Author login. */
  user: string;
  assignees: string[];
  locked: boolean;
  active_lock_reason: string | null;
  /** Marks the record as a pull request (issues endpoints then carry a `pull_request` object). */
  pull_request: boolean;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  closed_by: string | null;
  /** Overrides the computed author_association. */
  author_association?: AuthorAssociation;
}

export interface CommentRecord {
  repo: string;
  id: number;
  node_id: string;
  issue_number: number;
  body: string;
  user: string;
  created_at: string;
  updated_at: string;
  author_association?: AuthorAssociation;
}

export interface LabelRecord {
  repo: string;
  id: number;
  node_id: string;
  name: string;
  color: string;
  description: string | null;
  default: boolean;
}

export interface ReactionRecord {
  repo: string;
  id: number;
  node_id: string;
  comment_id: number;
  content: ReactionContent;
  user: string;
  created_at: string;
}

export interface TokenInit {
  /** The user or bot the token authenticates as. */
  login: string;
  type?: UserType;
  id?: number;
  /**
   * The token's `issues` permission (as in a workflow's `permissions:` block). With 'read' or
   * 'none', writes to issues, comments, labels and reactions get GitHub's
   * 403 "Resource not accessible by integration". Default 'write'.
   */
  issues?: 'write' | 'read' | 'none';
}

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Epoch seconds at which the window resets. */
  reset: number;
  used: number;
  /** When true (default), a request made with remaining = 0 gets GitHub's primary rate-limit 403. */
  enforce: boolean;
}

export interface GitHubEmulatorOptions {
  /** Repositories (default: one, `octo-org/wiki`). The first is the default for state helpers. */
  repos?: RepoInit[];
  /** Web URL used for html_url fields (GITHUB_SERVER_URL). Default 'http://github.test'. */
  serverUrl?: string;
  /**
   * Accepted tokens. When omitted, any non-empty token is accepted and authenticates as
   * `defaultActor`. When given, other tokens get 401 "Bad credentials".
   */
  tokens?: Record<string, TokenInit>;
  /** Who an unlisted token acts as. Default github-actions[bot] (id 41898282), role 'write'. */
  defaultActor?: UserInit & { role?: RoleName };
  /** Core rate-limit window. Default limit 5000 per hour, enforced. */
  rateLimit?: Partial<Pick<RateLimitState, 'limit' | 'remaining' | 'enforce'>> & { windowSeconds?: number };
  /** Clock for created_at/updated_at and rate-limit resets. Default: the real clock. */
  now?: () => Date;
  /** Maximum comment and issue body size. Default 65,536 Unicode code points. */
  bodyLimit?: { max: number; unit: 'code-points' | 'utf8-bytes' | 'utf16-units' };
  /** Port to listen on (default 0: a free port). */
  port?: number;
}

export interface FaultMatch {
  /** HTTP method (case-insensitive) or a regex over it. Omitted: any. */
  method?: string | RegExp;
  /** Regex over (or exact string equal to) the request pathname, without the query. Omitted: any. */
  path?: RegExp | string;
  /** Route template, e.g. '/repos/{owner}/{repo}/issues/{issue_number}/comments'. */
  route?: string;
  /** Extra predicate over the parsed JSON request body. */
  body?: (body: unknown) => boolean;
}

export interface Fault {
  match?: FaultMatch;
  /** How many matching requests fail (default 1). Use Infinity for a permanent failure. */
  times?: number;
  /** Let this many matching requests through before failing (default 0). */
  skip?: number;
  /** Response status (ignored when `reset` is true). */
  status?: number;
  /** Extra response headers; they override the emulator's defaults (x-ratelimit-*, content-type). */
  headers?: Record<string, string | number>;
  /** Response body: an object (sent as JSON) or a string (sent as is). Default: a GitHub-style error. */
  body?: unknown;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Drop the connection instead of answering. */
  reset?: boolean;
}

export interface ActiveFault extends Fault {
  /** How many requests this fault has answered so far. */
  hits: number;
  /** How many matching requests it let through (counts down `skip`). */
  passed: number;
}

export interface RecordedRequest {
  /** 1-based arrival order. */
  seq: number;
  method: string;
  /** Pathname, e.g. '/repos/o/r/issues/1/comments'. */
  path: string;
  query: Record<string, string>;
  /** Matched route template, e.g. '/repos/{owner}/{repo}/issues/{issue_number}/comments' (null: no route). */
  route: string | null;
  params: Record<string, string>;
  /** Lower-cased request headers (authorization redacted to its scheme). */
  headers: Record<string, string>;
  /** Parsed JSON body (undefined when empty; the raw string when not JSON). */
  body: unknown;
  /** Login the token authenticated as (null when unauthenticated or faulted before auth). */
  actor: string | null;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: unknown;
  /** True when an injected fault answered. */
  faulted: boolean;
  at: string;
}

export interface GitHubEmulator {
  /** API base URL: GITHUB_API_URL. */
  url: string;
  /** Web base URL: GITHUB_SERVER_URL. */
  serverUrl: string;
  state: EmulatorState;
  faults: FaultList;
  requests: RecordedRequest[];
  /** GitHub-shaped objects for the current state (for event payloads and assertions). */
  render: Renderer;
  /** Webhook-style event payloads built from the state, for GITHUB_EVENT_PATH. */
  events: EventPayloads;
  /** GITHUB_API_URL, GITHUB_SERVER_URL, GITHUB_GRAPHQL_URL, GITHUB_REPOSITORY for a child process. */
  env(repo?: string): Record<string, string>;
  /** Requests that changed something (not GET/HEAD), optionally only the successful ones. */
  writes(opts?: { successfulOnly?: boolean }): RecordedRequest[];
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Helpers

const ROLE_RANK: Record<RoleName, number> = { none: 0, read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };
const BUILT_IN_ROLES = new Set<string>(Object.keys(ROLE_RANK));
const PERMISSION_OF_ROLE: Record<RoleName, 'admin' | 'write' | 'read' | 'none'> = {
  admin: 'admin',
  maintain: 'write',
  write: 'write',
  triage: 'read',
  read: 'read',
  none: 'none',
};
const KNOWN_BOT_IDS: Record<string, number> = { 'github-actions[bot]': 41898282, 'dependabot[bot]': 49699333 };
const DOCS = 'https://docs.github.com/rest';

function isoSeconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function nodeId(prefix: string, id: number): string {
  return `${prefix}_kwDO${Buffer.from(`${prefix}:${id}`).toString('base64url')}`;
}

function lower(s: string): string {
  return s.toLowerCase();
}

function bodyLength(body: string, unit: 'code-points' | 'utf8-bytes' | 'utf16-units'): number {
  if (unit === 'utf8-bytes') return Buffer.byteLength(body, 'utf8');
  if (unit === 'utf16-units') return body.length;
  let n = 0;
  for (const _ of body) n++;
  return n;
}

/** An error answered with a status and a GitHub-shaped JSON body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.message === 'string' ? body.message : `HTTP ${status}`);
  }
}

function basicError(status: number, message: string, documentation_url = DOCS): HttpError {
  const body: BasicError = { message, documentation_url, status: String(status) };
  return new HttpError(status, body);
}

function notFound(): HttpError {
  return basicError(404, 'Not Found', DOCS);
}

function validationFailed(
  documentation_url: string,
  errors: NonNullable<ValidationError['errors']>,
  message = 'Validation Failed',
): HttpError {
  const body: ValidationError & { status: string } = { message, errors, documentation_url, status: '422' };
  return new HttpError(422, body);
}

// ---------------------------------------------------------------------------------------------
// State

export class EmulatorState {
  readonly repos: RepoRecord[] = [];
  readonly users: UserRecord[] = [];
  readonly issues: IssueRecord[] = [];
  readonly comments: CommentRecord[] = [];
  readonly labels: LabelRecord[] = [];
  readonly reactions: ReactionRecord[] = [];
  readonly rateLimit: RateLimitState;
  readonly rateLimitWindowSeconds: number;

  private nextId = { repo: 700_000_001, user: 1_000, issue: 2_000_000_001, comment: 3_000_000_001, label: 4_000_000_001, reaction: 5_000_000_001 };

  constructor(
    private readonly clock: () => Date,
    rateLimit: GitHubEmulatorOptions['rateLimit'] = {},
  ) {
    this.rateLimitWindowSeconds = rateLimit.windowSeconds ?? 3600;
    const limit = rateLimit.limit ?? 5000;
    this.rateLimit = {
      limit,
      remaining: rateLimit.remaining ?? limit,
      reset: Math.floor(clock().getTime() / 1000) + this.rateLimitWindowSeconds,
      used: limit - (rateLimit.remaining ?? limit),
      enforce: rateLimit.enforce ?? true,
    };
  }

  /** The current time as GitHub writes it (ISO 8601, seconds). */
  now(): string {
    return isoSeconds(this.clock());
  }

  // -- repos ---------------------------------------------------------------------------------

  addRepo(init: RepoInit): RepoRecord {
    if (this.findRepo(`${init.owner}/${init.name}`)) throw new Error(`repo ${init.owner}/${init.name} already exists`);
    const id = this.nextId.repo++;
    const now = this.now();
    const ownerType = init.ownerType ?? 'Organization';
    this.ensureUser({ login: init.owner, type: ownerType });
    const repo: RepoRecord = {
      owner: init.owner,
      name: init.name,
      full_name: `${init.owner}/${init.name}`,
      ownerType,
      id,
      node_id: nodeId('R', id),
      private: init.private ?? false,
      default_branch: init.default_branch ?? 'main',
      description: init.description ?? null,
      archived: init.archived ?? false,
      has_issues: init.has_issues ?? true,
      topics: init.topics ?? [],
      created_at: now,
      updated_at: now,
      pushed_at: now,
      roles: new Map(),
    };
    if (ownerType === 'User') repo.roles.set(lower(init.owner), { role_name: 'admin', base: 'admin' });
    this.repos.push(repo);
    return repo;
  }

  findRepo(fullName: string): RepoRecord | undefined {
    const key = lower(fullName);
    return this.repos.find((r) => lower(r.full_name) === key);
  }

  /** The repo for "owner/name", or the first repo when omitted. */
  repo(fullName?: string): RepoRecord {
    const repo = fullName === undefined ? this.repos[0] : this.findRepo(fullName);
    if (!repo) throw new Error(fullName === undefined ? 'the emulator has no repository' : `no repository ${fullName}`);
    return repo;
  }

  // -- users ---------------------------------------------------------------------------------

  findUser(login: string): UserRecord | undefined {
    const key = lower(login);
    return this.users.find((u) => lower(u.login) === key);
  }

  /** Returns the user, creating it when unknown. */
  ensureUser(init: UserInit | string): UserRecord {
    const u = typeof init === 'string' ? { login: init } : init;
    const existing = this.findUser(u.login);
    if (existing) {
      if (typeof init !== 'string') {
        if (u.type) existing.type = u.type;
        if (u.name !== undefined) existing.name = u.name;
        if (u.email !== undefined) existing.email = u.email;
        if (u.site_admin !== undefined) existing.site_admin = u.site_admin;
      }
      return existing;
    }
    const type: UserType = u.type ?? (u.login.endsWith('[bot]') ? 'Bot' : 'User');
    const id = u.id ?? KNOWN_BOT_IDS[u.login] ?? this.nextId.user++;
    const user: UserRecord = {
      login: u.login,
      id,
      node_id: nodeId(type === 'Bot' ? 'BOT' : type === 'Organization' ? 'O' : 'U', id),
      type,
      name: u.name ?? null,
      email: u.email ?? null,
      site_admin: u.site_admin ?? false,
    };
    this.users.push(user);
    return user;
  }

  addUser(init: UserInit): UserRecord {
    return this.ensureUser(init);
  }

  // -- roles ---------------------------------------------------------------------------------

  /**
   * Gives a user a role on a repository: 'admin' | 'maintain' | 'write' | 'triage' | 'read' |
   * 'none', or a custom role name with `base` (the built-in role it extends; default 'read').
   */
  setPermission(login: string, role: RoleName | string, opts: { repo?: string; base?: RoleName } = {}): void {
    const repo = this.repo(opts.repo);
    this.ensureUser(login);
    const base: RoleName = BUILT_IN_ROLES.has(role) ? (role as RoleName) : (opts.base ?? 'read');
    repo.roles.set(lower(login), { role_name: role, base });
  }

  /** The user's role on the repository (explicit grant, owner, or the public/private default). */
  roleOf(login: string, repoName?: string): RoleGrant {
    const repo = this.repo(repoName);
    const grant = repo.roles.get(lower(login));
    if (grant) return grant;
    if (lower(login) === lower(repo.owner)) return { role_name: 'admin', base: 'admin' };
    return repo.private ? { role_name: 'none', base: 'none' } : { role_name: 'read', base: 'read' };
  }

  // -- labels --------------------------------------------------------------------------------

  findLabel(name: string, repoName?: string): LabelRecord | undefined {
    const repo = this.repo(repoName);
    const key = lower(name);
    return this.labels.find((l) => l.repo === repo.full_name && lower(l.name) === key);
  }

  addLabel(init: { name: string; color?: string; description?: string | null; default?: boolean; repo?: string }): LabelRecord {
    const repo = this.repo(init.repo);
    if (this.findLabel(init.name, repo.full_name)) throw new Error(`label ${init.name} already exists in ${repo.full_name}`);
    const id = this.nextId.label++;
    const label: LabelRecord = {
      repo: repo.full_name,
      id,
      node_id: nodeId('LA', id),
      name: init.name,
      color: (init.color ?? 'ededed').replace(/^#/, '').toLowerCase(),
      description: init.description ?? null,
      default: init.default ?? false,
    };
    this.labels.push(label);
    return label;
  }

  /** The label, created (color ededed) when missing — as GitHub does when labels are applied by name. */
  ensureLabel(name: string, repoName?: string): LabelRecord {
    return this.findLabel(name, repoName) ?? this.addLabel({ name, repo: this.repo(repoName).full_name });
  }

  // -- issues --------------------------------------------------------------------------------

  addIssue(init: {
    title: string;
    body?: string | null;
    number?: number;
    user?: string;
    labels?: string[];
    assignees?: string[];
    state?: 'open' | 'closed';
    state_reason?: IssueRecord['state_reason'];
    locked?: boolean;
    active_lock_reason?: string | null;
    pull_request?: boolean;
    created_at?: string;
    updated_at?: string;
    author_association?: AuthorAssociation;
    repo?: string;
  }): IssueRecord {
    const repo = this.repo(init.repo);
    const number = init.number ?? this.nextIssueNumber(repo.full_name);
    if (this.findIssue(number, repo.full_name)) throw new Error(`issue #${number} already exists in ${repo.full_name}`);
    const user = this.ensureUser(init.user ?? 'octocat').login;
    const created = init.created_at ?? this.now();
    const id = this.nextId.issue++;
    const state = init.state ?? 'open';
    const issue: IssueRecord = {
      repo: repo.full_name,
      id,
      node_id: nodeId(init.pull_request ? 'PR' : 'I', id),
      number,
      title: init.title,
      body: init.body === undefined ? null : init.body,
      state,
      state_reason: init.state_reason ?? (state === 'closed' ? 'completed' : null),
      labels: (init.labels ?? []).map((n) => this.ensureLabel(n, repo.full_name).name),
      user,
      assignees: (init.assignees ?? []).map((a) => this.ensureUser(a).login),
      locked: init.locked ?? false,
      active_lock_reason: init.locked ? (init.active_lock_reason ?? null) : null,
      pull_request: init.pull_request ?? false,
      created_at: created,
      updated_at: init.updated_at ?? created,
      closed_at: state === 'closed' ? (init.updated_at ?? created) : null,
      closed_by: null,
      ...(init.author_association ? { author_association: init.author_association } : {}),
    };
    this.issues.push(issue);
    return issue;
  }

  nextIssueNumber(repoName?: string): number {
    const repo = this.repo(repoName);
    return this.issues.filter((i) => i.repo === repo.full_name).reduce((m, i) => Math.max(m, i.number), 0) + 1;
  }

  findIssue(number: number, repoName?: string): IssueRecord | undefined {
    const repo = this.repo(repoName);
    return this.issues.find((i) => i.repo === repo.full_name && i.number === number);
  }

  /** The issue, or throws. */
  issue(number: number, repoName?: string): IssueRecord {
    const issue = this.findIssue(number, repoName);
    if (!issue) throw new Error(`no issue #${number} in ${this.repo(repoName).full_name}`);
    return issue;
  }

  /** Locks the conversation: bots (and users without write access) can no longer comment. */
  lockIssue(number: number, reason: 'off-topic' | 'too heated' | 'resolved' | 'spam' | null = null, repoName?: string): IssueRecord {
    const issue = this.issue(number, repoName);
    issue.locked = true;
    issue.active_lock_reason = reason;
    issue.updated_at = this.now();
    return issue;
  }

  unlockIssue(number: number, repoName?: string): IssueRecord {
    const issue = this.issue(number, repoName);
    issue.locked = false;
    issue.active_lock_reason = null;
    issue.updated_at = this.now();
    return issue;
  }

  // -- comments ------------------------------------------------------------------------------

  addComment(init: {
    issue_number: number;
    body: string;
    user?: string;
    created_at?: string;
    updated_at?: string;
    author_association?: AuthorAssociation;
    repo?: string;
  }): CommentRecord {
    const issue = this.issue(init.issue_number, init.repo);
    const id = this.nextId.comment++;
    const created = init.created_at ?? this.now();
    const comment: CommentRecord = {
      repo: issue.repo,
      id,
      node_id: nodeId('IC', id),
      issue_number: issue.number,
      body: init.body,
      user: this.ensureUser(init.user ?? 'octocat').login,
      created_at: created,
      updated_at: init.updated_at ?? created,
      ...(init.author_association ? { author_association: init.author_association } : {}),
    };
    this.comments.push(comment);
    if (comment.updated_at > issue.updated_at) issue.updated_at = comment.updated_at;
    return comment;
  }

  findComment(id: number, repoName?: string): CommentRecord | undefined {
    const repo = this.repo(repoName);
    return this.comments.find((c) => c.repo === repo.full_name && c.id === id);
  }

  /** Comments on one issue, oldest first. */
  commentsOn(issueNumber: number, repoName?: string): CommentRecord[] {
    const repo = this.repo(repoName);
    return this.comments.filter((c) => c.repo === repo.full_name && c.issue_number === issueNumber).sort((a, b) => a.id - b.id);
  }

  // -- reactions -----------------------------------------------------------------------------

  addReaction(init: { comment_id: number; content: ReactionContent; user?: string; created_at?: string; repo?: string }): ReactionRecord {
    const comment = this.findComment(init.comment_id, init.repo);
    if (!comment) throw new Error(`no comment ${init.comment_id}`);
    const id = this.nextId.reaction++;
    const reaction: ReactionRecord = {
      repo: comment.repo,
      id,
      node_id: nodeId('REA', id),
      comment_id: comment.id,
      content: init.content,
      user: this.ensureUser(init.user ?? 'octocat').login,
      created_at: init.created_at ?? this.now(),
    };
    this.reactions.push(reaction);
    return reaction;
  }

  reactionsOn(commentId: number): ReactionRecord[] {
    return this.reactions.filter((r) => r.comment_id === commentId).sort((a, b) => a.id - b.id);
  }

  // -- rate limit ----------------------------------------------------------------------------

  /** Sets the core rate-limit window (e.g. remaining: 0 to exhaust it; reset in epoch seconds). */
  setRateLimit(patch: Partial<RateLimitState>): void {
    Object.assign(this.rateLimit, patch);
    if (patch.remaining !== undefined && patch.used === undefined) this.rateLimit.used = Math.max(0, this.rateLimit.limit - patch.remaining);
  }
}

// ---------------------------------------------------------------------------------------------
// Rendering: records → GitHub REST shapes

export class Renderer {
  constructor(
    private readonly state: EmulatorState,
    private readonly apiUrl: string,
    private readonly serverUrl: string,
  ) {}

  user(login: string): SimpleUser {
    const u = this.state.ensureUser(login);
    const api = `${this.apiUrl}/users/${encodeURIComponent(u.login)}`;
    const html =
      u.type === 'Bot' ? `${this.serverUrl}/apps/${encodeURIComponent(u.login.replace(/\[bot\]$/, ''))}` : `${this.serverUrl}/${encodeURIComponent(u.login)}`;
    return {
      login: u.login,
      id: u.id,
      node_id: u.node_id,
      // GitHub Enterprise Server's form; github.com serves avatars from avatars.githubusercontent.com.
      avatar_url: `${this.serverUrl}/avatars/u/${u.id}?v=4`,
      gravatar_id: '',
      url: api,
      html_url: html,
      followers_url: `${api}/followers`,
      following_url: `${api}/following{/other_user}`,
      gists_url: `${api}/gists{/gist_id}`,
      starred_url: `${api}/starred{/owner}{/repo}`,
      subscriptions_url: `${api}/subscriptions`,
      organizations_url: `${api}/orgs`,
      repos_url: `${api}/repos`,
      events_url: `${api}/events{/privacy}`,
      received_events_url: `${api}/received_events`,
      type: u.type,
      user_view_type: 'public',
      site_admin: u.site_admin,
    };
  }

  repoApiUrl(repo: RepoRecord): string {
    return `${this.apiUrl}/repos/${repo.owner}/${repo.name}`;
  }

  repository(fullName?: string, viewer?: string): FullRepository {
    const repo = this.state.repo(fullName);
    const api = this.repoApiUrl(repo);
    const html = `${this.serverUrl}/${repo.owner}/${repo.name}`;
    const host = new URL(this.serverUrl).host;
    const open = this.state.issues.filter((i) => i.repo === repo.full_name && i.state === 'open').length;
    const base = viewer ? this.state.roleOf(viewer, repo.full_name).base : 'read';
    const rank = ROLE_RANK[base];
    const owner = this.user(repo.owner);
    return {
      id: repo.id,
      node_id: repo.node_id,
      name: repo.name,
      full_name: repo.full_name,
      owner,
      private: repo.private,
      html_url: html,
      description: repo.description,
      fork: false,
      url: api,
      archive_url: `${api}/{archive_format}{/ref}`,
      assignees_url: `${api}/assignees{/user}`,
      blobs_url: `${api}/git/blobs{/sha}`,
      branches_url: `${api}/branches{/branch}`,
      collaborators_url: `${api}/collaborators{/collaborator}`,
      comments_url: `${api}/comments{/number}`,
      commits_url: `${api}/commits{/sha}`,
      compare_url: `${api}/compare/{base}...{head}`,
      contents_url: `${api}/contents/{+path}`,
      contributors_url: `${api}/contributors`,
      deployments_url: `${api}/deployments`,
      downloads_url: `${api}/downloads`,
      events_url: `${api}/events`,
      forks_url: `${api}/forks`,
      git_commits_url: `${api}/git/commits{/sha}`,
      git_refs_url: `${api}/git/refs{/sha}`,
      git_tags_url: `${api}/git/tags{/sha}`,
      git_url: `git://${host}/${repo.full_name}.git`,
      issue_comment_url: `${api}/issues/comments{/number}`,
      issue_events_url: `${api}/issues/events{/number}`,
      issues_url: `${api}/issues{/number}`,
      keys_url: `${api}/keys{/key_id}`,
      labels_url: `${api}/labels{/name}`,
      languages_url: `${api}/languages`,
      merges_url: `${api}/merges`,
      milestones_url: `${api}/milestones{/number}`,
      notifications_url: `${api}/notifications{?since,all,participating}`,
      pulls_url: `${api}/pulls{/number}`,
      releases_url: `${api}/releases{/id}`,
      ssh_url: `git@${host}:${repo.full_name}.git`,
      stargazers_url: `${api}/stargazers`,
      statuses_url: `${api}/statuses/{sha}`,
      subscribers_url: `${api}/subscribers`,
      subscription_url: `${api}/subscription`,
      tags_url: `${api}/tags`,
      teams_url: `${api}/teams`,
      trees_url: `${api}/git/trees{/sha}`,
      clone_url: `${html}.git`,
      mirror_url: null,
      hooks_url: `${api}/hooks`,
      svn_url: html,
      homepage: null,
      language: 'Markdown',
      forks_count: 0,
      stargazers_count: 0,
      watchers_count: 0,
      size: 0,
      default_branch: repo.default_branch,
      open_issues_count: open,
      is_template: false,
      topics: repo.topics,
      has_issues: repo.has_issues,
      has_projects: true,
      has_wiki: true,
      has_pages: false,
      has_downloads: true,
      has_discussions: false,
      archived: repo.archived,
      disabled: false,
      visibility: repo.private ? 'private' : 'public',
      pushed_at: repo.pushed_at,
      created_at: repo.created_at,
      updated_at: repo.updated_at,
      permissions: {
        admin: rank >= ROLE_RANK.admin,
        maintain: rank >= ROLE_RANK.maintain,
        push: rank >= ROLE_RANK.write,
        triage: rank >= ROLE_RANK.triage,
        pull: rank >= ROLE_RANK.read,
      },
      allow_rebase_merge: true,
      allow_squash_merge: true,
      allow_auto_merge: false,
      delete_branch_on_merge: false,
      allow_merge_commit: true,
      allow_forking: true,
      web_commit_signoff_required: false,
      subscribers_count: 0,
      network_count: 0,
      license: null,
      ...(repo.ownerType === 'Organization' ? { organization: owner } : {}),
      forks: 0,
      open_issues: open,
      watchers: 0,
    };
  }

  label(label: LabelRecord): Label {
    const repo = this.state.repo(label.repo);
    return {
      id: label.id,
      node_id: label.node_id,
      url: `${this.repoApiUrl(repo)}/labels/${encodeURIComponent(label.name)}`,
      name: label.name,
      description: label.description,
      color: label.color,
      default: label.default,
    };
  }

  authorAssociation(login: string, repoName: string, override?: AuthorAssociation): AuthorAssociation {
    if (override) return override;
    const repo = this.state.repo(repoName);
    if (lower(login) === lower(repo.owner)) return 'OWNER';
    // Bots (github-actions[bot] included) are neither members nor collaborators.
    if (this.state.findUser(login)?.type === 'Bot') return 'NONE';
    const grant = repo.roles.get(lower(login));
    if (grant && ROLE_RANK[grant.base] >= ROLE_RANK.triage) return repo.ownerType === 'Organization' ? 'MEMBER' : 'COLLABORATOR';
    const authored = this.state.issues.some((i) => i.repo === repo.full_name && i.pull_request && lower(i.user) === lower(login));
    return authored ? 'CONTRIBUTOR' : 'NONE';
  }

  reactionRollup(url: string, reactions: ReactionRecord[]): ReactionRollup {
    const count = (c: ReactionContent) => reactions.filter((r) => r.content === c).length;
    return {
      url,
      total_count: reactions.length,
      '+1': count('+1'),
      '-1': count('-1'),
      laugh: count('laugh'),
      confused: count('confused'),
      heart: count('heart'),
      hooray: count('hooray'),
      eyes: count('eyes'),
      rocket: count('rocket'),
    };
  }

  issue(issue: IssueRecord, opts: { withClosedBy?: boolean } = {}): Issue {
    const repo = this.state.repo(issue.repo);
    const repoApi = this.repoApiUrl(repo);
    const url = `${repoApi}/issues/${issue.number}`;
    const html = `${this.serverUrl}/${repo.full_name}/${issue.pull_request ? 'pull' : 'issues'}/${issue.number}`;
    const labels = issue.labels
      .map((name) => this.state.findLabel(name, repo.full_name))
      .filter((l): l is LabelRecord => l !== undefined)
      .map((l) => this.label(l));
    const assignees = issue.assignees.map((a) => this.user(a));
    const rendered: Issue = {
      url,
      repository_url: repoApi,
      labels_url: `${url}/labels{/name}`,
      comments_url: `${url}/comments`,
      events_url: `${url}/events`,
      html_url: html,
      id: issue.id,
      node_id: issue.node_id,
      number: issue.number,
      title: issue.title,
      user: this.user(issue.user),
      labels,
      state: issue.state,
      locked: issue.locked,
      assignee: assignees[0] ?? null,
      assignees,
      milestone: null,
      comments: this.state.comments.filter((c) => c.repo === repo.full_name && c.issue_number === issue.number).length,
      created_at: issue.created_at,
      updated_at: issue.updated_at,
      closed_at: issue.closed_at,
      author_association: this.authorAssociation(issue.user, repo.full_name, issue.author_association),
      active_lock_reason: issue.active_lock_reason,
      body: issue.body,
      reactions: this.reactionRollup(`${url}/reactions`, []),
      timeline_url: `${url}/timeline`,
      performed_via_github_app: null,
      state_reason: issue.state_reason,
    };
    if (issue.pull_request) {
      rendered.pull_request = {
        url: `${repoApi}/pulls/${issue.number}`,
        html_url: html,
        diff_url: `${html}.diff`,
        patch_url: `${html}.patch`,
        merged_at: null,
      };
      rendered.draft = false;
    }
    if (opts.withClosedBy) rendered.closed_by = issue.closed_by ? this.user(issue.closed_by) : null;
    return rendered;
  }

  comment(comment: CommentRecord): IssueComment {
    const repo = this.state.repo(comment.repo);
    const repoApi = this.repoApiUrl(repo);
    const issue = this.state.findIssue(comment.issue_number, repo.full_name);
    const url = `${repoApi}/issues/comments/${comment.id}`;
    return {
      url,
      html_url: `${this.serverUrl}/${repo.full_name}/${issue?.pull_request ? 'pull' : 'issues'}/${comment.issue_number}#issuecomment-${comment.id}`,
      issue_url: `${repoApi}/issues/${comment.issue_number}`,
      id: comment.id,
      node_id: comment.node_id,
      user: this.user(comment.user),
      created_at: comment.created_at,
      updated_at: comment.updated_at,
      author_association: this.authorAssociation(comment.user, repo.full_name, comment.author_association),
      body: comment.body,
      reactions: this.reactionRollup(`${url}/reactions`, this.state.reactionsOn(comment.id)),
      performed_via_github_app: null,
    };
  }

  reaction(reaction: ReactionRecord): Reaction {
    return {
      id: reaction.id,
      node_id: reaction.node_id,
      user: this.user(reaction.user),
      content: reaction.content,
      created_at: reaction.created_at,
    };
  }

  collaboratorPermission(login: string, repoName?: string): CollaboratorPermission {
    const grant = this.state.roleOf(login, repoName);
    const rank = ROLE_RANK[grant.base];
    return {
      permission: PERMISSION_OF_ROLE[grant.base],
      role_name: grant.role_name,
      user: {
        ...this.user(login),
        permissions: {
          admin: rank >= ROLE_RANK.admin,
          maintain: rank >= ROLE_RANK.maintain,
          push: rank >= ROLE_RANK.write,
          triage: rank >= ROLE_RANK.triage,
          pull: rank >= ROLE_RANK.read,
        },
        role_name: grant.role_name,
      },
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Event payloads (what a runner writes to GITHUB_EVENT_PATH)

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
}

// ---------------------------------------------------------------------------------------------
// Faults

const SECONDARY_RATE_LIMIT_MESSAGE =
  'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID ';

export class FaultList {
  private readonly list: ActiveFault[] = [];

  constructor(private readonly clock: () => Date) {}

  /** Adds faults; each answers up to `times` matching requests (default 1), in the order added. */
  push(...faults: Fault[]): number {
    for (const f of faults) this.list.push({ ...f, hits: 0, passed: 0 });
    return this.list.length;
  }

  /** Faults that can still fire. */
  get pending(): ActiveFault[] {
    return this.list.filter((f) => f.hits < (f.times ?? 1));
  }

  /** Every fault added, with its hit counts. */
  get all(): readonly ActiveFault[] {
    return this.list;
  }

  clear(): void {
    this.list.length = 0;
  }

  /** 403 (or 429) "You have exceeded a secondary rate limit…" with `retry-after` (seconds; null: no header). */
  secondaryRateLimit(opts: { match?: FaultMatch; times?: number; retryAfter?: number | null; status?: 403 | 429 } = {}): void {
    const status = opts.status ?? 403;
    const retryAfter = opts.retryAfter === undefined ? 1 : opts.retryAfter;
    this.push({
      ...(opts.match ? { match: opts.match } : {}),
      times: opts.times ?? 1,
      status,
      headers: retryAfter === null ? {} : { 'retry-after': String(retryAfter) },
      body: {
        message: `${SECONDARY_RATE_LIMIT_MESSAGE}${randomUUID().toUpperCase().slice(0, 23)}.`,
        documentation_url: 'https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
        status: String(status),
      },
    });
  }

  /** 403 (or 429) "API rate limit exceeded" with x-ratelimit-remaining: 0 and a reset `resetInSeconds` from now. */
  primaryRateLimit(opts: { match?: FaultMatch; times?: number; resetInSeconds?: number; status?: 403 | 429; limit?: number } = {}): void {
    const status = opts.status ?? 403;
    const limit = opts.limit ?? 5000;
    const reset = Math.floor(this.clock().getTime() / 1000) + (opts.resetInSeconds ?? 1);
    this.push({
      ...(opts.match ? { match: opts.match } : {}),
      times: opts.times ?? 1,
      status,
      headers: {
        'x-ratelimit-limit': String(limit),
        'x-ratelimit-remaining': '0',
        'x-ratelimit-used': String(limit),
        'x-ratelimit-reset': String(reset),
        'x-ratelimit-resource': 'core',
      },
      body: {
        message: 'API rate limit exceeded for installation ID 1.',
        documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-rate-limits',
        status: String(status),
      },
    });
  }

  /** A 5xx (default 502) with GitHub's bare error body. `times: Infinity` for a permanent failure. */
  serverError(opts: { match?: FaultMatch; times?: number; status?: number } = {}): void {
    const status = opts.status ?? 502;
    this.push({
      ...(opts.match ? { match: opts.match } : {}),
      times: opts.times ?? 1,
      status,
      body: { message: status === 502 ? 'Server Error' : 'Service Unavailable', documentation_url: DOCS, status: String(status) },
    });
  }

  /** Finds the fault that answers this request, counting the hit. */
  take(req: { method: string; path: string; route: string | null; body: unknown }): ActiveFault | undefined {
    for (const f of this.list) {
      if (f.hits >= (f.times ?? 1)) continue;
      if (!matches(f.match, req)) continue;
      if (f.passed < (f.skip ?? 0)) {
        f.passed++;
        continue;
      }
      f.hits++;
      return f;
    }
    return undefined;
  }
}

function matches(m: FaultMatch | undefined, req: { method: string; path: string; route: string | null; body: unknown }): boolean {
  if (!m) return true;
  if (m.method !== undefined) {
    if (typeof m.method === 'string' ? m.method.toUpperCase() !== req.method : !m.method.test(req.method)) return false;
  }
  if (m.path !== undefined) {
    if (typeof m.path === 'string' ? m.path !== req.path : !m.path.test(req.path)) return false;
  }
  if (m.route !== undefined && m.route !== req.route) return false;
  if (m.body && !m.body(req.body)) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Routing

interface Ctx {
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

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

type Handler = (ctx: Ctx) => Reply;

interface Route {
  method: string;
  template: string;
  regex: RegExp;
  names: string[];
  handler: Handler;
  /** Which token permission the route needs. */
  needs: 'read' | 'issues:write';
}

function compileRoute(method: string, template: string, needs: Route['needs'], handler: Handler): Route {
  const names: string[] = [];
  const body = template
    .split('/')
    .map((seg) => {
      const m = /^\{(\w+)\}$/.exec(seg);
      if (m && m[1]) {
        names.push(m[1]);
        return '([^/]+)';
      }
      return seg;
    })
    .join('/');
  return { method, template, regex: new RegExp(`^${body}/?$`), names, handler, needs };
}

function intParam(value: string | undefined): number {
  if (value === undefined || !/^\d+$/.test(value)) throw notFound();
  return Number(value);
}

function paginate<T>(items: T[], ctx: Ctx, apiUrl: string): { items: T[]; headers: Record<string, string> } {
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

function parseSince(value: string | null): number | undefined {
  if (!value) return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}

/** Turns ajv errors for a request body into GitHub's "Invalid request." message. */
function invalidRequestMessage(body: unknown, errors: Array<{ keyword: string; instancePath: string; params: Record<string, unknown> }>): string {
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
    else if (e.keyword === 'type') line = `For '${where(e.instancePath)}', ${JSON.stringify(valueAt(e.instancePath))} is not ${/^[aeiou]/.test(String(e.params.type)) ? 'an' : 'a'} ${String(e.params.type).replace(/,/g, ' or ')}.`;
    else if (e.keyword === 'enum') line = `For '${where(e.instancePath)}', ${JSON.stringify(valueAt(e.instancePath))} is not a member of ${JSON.stringify(e.params.allowedValues)}.`;
    else if (e.keyword === 'additionalProperties') line = `"${String(e.params.additionalProperty)}" is not a permitted key.`;
    else if (e.keyword === 'minItems') line = `For '${where(e.instancePath)}', ${JSON.stringify(valueAt(e.instancePath))} has fewer than ${String(e.params.limit)} items.`;
    else if (e.keyword === 'oneOf' || e.keyword === 'anyOf') continue;
    else line = `For '${where(e.instancePath)}', ${JSON.stringify(valueAt(e.instancePath))} is invalid (${e.keyword}).`;
    if (!lines.includes(line)) lines.push(line);
  }
  return `Invalid request.\n\n${(lines.length > 0 ? lines : ['The request body does not match the schema.']).slice(0, 5).join('\n')}`;
}

// ---------------------------------------------------------------------------------------------
// The server

export async function startGitHubEmulator(options: GitHubEmulatorOptions = {}): Promise<GitHubEmulator> {
  const clock = options.now ?? (() => new Date());
  const serverUrl = (options.serverUrl ?? 'http://github.test').replace(/\/+$/, '');
  const bodyLimit = options.bodyLimit ?? { max: 65_536, unit: 'code-points' as const };
  const state = new EmulatorState(clock, options.rateLimit);
  for (const r of options.repos ?? [{ owner: 'octo-org', name: 'wiki' }]) state.addRepo(r);

  const defaultActorInit: UserInit = options.defaultActor ?? { login: 'github-actions[bot]', type: 'Bot' };
  const defaultActor = state.ensureUser(defaultActorInit);
  const defaultRole = options.defaultActor?.role ?? 'write';
  for (const repo of state.repos) {
    if (!repo.roles.has(lower(defaultActor.login))) repo.roles.set(lower(defaultActor.login), { role_name: defaultRole, base: defaultRole });
  }
  for (const t of Object.values(options.tokens ?? {})) state.ensureUser({ login: t.login, ...(t.type ? { type: t.type } : {}), ...(t.id ? { id: t.id } : {}) });

  const faults = new FaultList(clock);
  const requests: RecordedRequest[] = [];
  let apiUrl = '';
  let render: Renderer;
  let seq = 0;

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
  const issueLabels = (issue: IssueRecord): Label[] =>
    issue.labels
      .map((n) => state.findLabel(n, issue.repo))
      .filter((l): l is LabelRecord => l !== undefined)
      .map((l) => render.label(l));

  const routes: Route[] = [
    compileRoute('GET', '/repos/{owner}/{repo}', 'read', (ctx) => ({ status: 200, body: render.repository(ctx.repo.full_name, ctx.actor.login) })),

    compileRoute('GET', '/repos/{owner}/{repo}/issues', 'read', (ctx) => {
      const stateFilter = ctx.query.get('state') ?? 'open';
      const labels = (ctx.query.get('labels') ?? '').split(',').map((s) => s.trim()).filter(Boolean).map(lower);
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
      const page = paginate(list, ctx, apiUrl);
      return { status: 200, body: page.items.map((i) => render.issue(i)), headers: page.headers };
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
      const body = render.issue(issue, { withClosedBy: true });
      return { status: 201, body, headers: { location: body.url } };
    }),

    compileRoute('GET', '/repos/{owner}/{repo}/issues/{issue_number}', 'read', (ctx) => ({
      status: 200,
      body: render.issue(getIssue(ctx), { withClosedBy: true }),
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
      return { status: 200, body: render.issue(issue, { withClosedBy: true }) };
    }),

    compileRoute('GET', '/repos/{owner}/{repo}/issues/{issue_number}/comments', 'read', (ctx) => {
      const issue = getIssue(ctx);
      const since = parseSince(ctx.query.get('since'));
      const list = state.commentsOn(issue.number, issue.repo).filter((c) => since === undefined || Date.parse(c.updated_at) >= since);
      const page = paginate(list, ctx, apiUrl);
      return { status: 200, body: page.items.map((c) => render.comment(c)), headers: page.headers };
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
      const body = render.comment(comment);
      return { status: 201, body, headers: { location: body.url } };
    }),

    compileRoute('GET', '/repos/{owner}/{repo}/issues/comments/{comment_id}', 'read', (ctx) => ({ status: 200, body: render.comment(getComment(ctx)) })),

    compileRoute('PATCH', '/repos/{owner}/{repo}/issues/comments/{comment_id}', 'issues:write', (ctx) => {
      const comment = getComment(ctx);
      const text = (ctx.body as { body: string }).body;
      if (text.trim() === '') throw validationFailed(ctx.docs, [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }]);
      checkBodySize(text, 'IssueComment', ctx.docs);
      if (lower(comment.user) !== lower(ctx.actor.login) && !canWrite(ctx)) throw basicError(403, 'Must have push access to edit this comment.', ctx.docs);
      comment.body = text;
      comment.updated_at = state.now();
      return { status: 200, body: render.comment(comment) };
    }),

    compileRoute('DELETE', '/repos/{owner}/{repo}/issues/comments/{comment_id}', 'issues:write', (ctx) => {
      const comment = getComment(ctx);
      if (lower(comment.user) !== lower(ctx.actor.login) && !canWrite(ctx)) throw basicError(403, 'Must have push access to delete this comment.', ctx.docs);
      state.comments.splice(state.comments.indexOf(comment), 1);
      for (let i = state.reactions.length - 1; i >= 0; i--) if (state.reactions[i]?.comment_id === comment.id) state.reactions.splice(i, 1);
      return { status: 204 };
    }),

    compileRoute('GET', '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', 'read', (ctx) => {
      const comment = getComment(ctx);
      const content = ctx.query.get('content');
      const list = state.reactionsOn(comment.id).filter((r) => !content || r.content === content);
      const page = paginate(list, ctx, apiUrl);
      return { status: 200, body: page.items.map((r) => render.reaction(r)), headers: page.headers };
    }),

    compileRoute('POST', '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', 'issues:write', (ctx) => {
      const comment = getComment(ctx);
      const content = (ctx.body as { content: ReactionContent }).content;
      const existing = state.reactionsOn(comment.id).find((r) => r.content === content && lower(r.user) === lower(ctx.actor.login));
      if (existing) return { status: 200, body: render.reaction(existing) };
      const reaction = state.addReaction({ repo: comment.repo, comment_id: comment.id, content, user: ctx.actor.login });
      return { status: 201, body: render.reaction(reaction) };
    }),

    compileRoute('GET', '/repos/{owner}/{repo}/labels/{name}', 'read', (ctx) => {
      const label = state.findLabel(ctx.params.name ?? '', ctx.repo.full_name);
      if (!label) throw notFound();
      return { status: 200, body: render.label(label) };
    }),

    compileRoute('POST', '/repos/{owner}/{repo}/labels', 'issues:write', (ctx) => {
      const b = ctx.body as { name: string; color?: string; description?: string };
      if (!canWrite(ctx)) throw basicError(403, 'Must have push access to repository', ctx.docs);
      if (b.name.trim() === '') throw validationFailed(ctx.docs, [{ resource: 'Label', code: 'missing_field', field: 'name' }]);
      if (b.color !== undefined && !/^[0-9a-fA-F]{6}$/.test(b.color)) {
        throw validationFailed(ctx.docs, [{ resource: 'Label', code: 'invalid', field: 'color' }]);
      }
      if (b.description !== undefined && b.description.length > 100) {
        throw validationFailed(ctx.docs, [{ resource: 'Label', code: 'custom', field: 'description', message: 'description is too long (maximum is 100 characters)' }]);
      }
      if (state.findLabel(b.name, ctx.repo.full_name)) {
        throw validationFailed(ctx.docs, [{ resource: 'Label', code: 'already_exists', field: 'name' }]);
      }
      const label = state.addLabel({ repo: ctx.repo.full_name, name: b.name, ...(b.color ? { color: b.color } : {}), description: b.description ?? null });
      const body = render.label(label);
      return { status: 201, body, headers: { location: body.url } };
    }),

    compileRoute('POST', '/repos/{owner}/{repo}/issues/{issue_number}/labels', 'issues:write', (ctx) => {
      const issue = getIssue(ctx);
      const b = ctx.body as { labels?: unknown[] } | undefined;
      if (ROLE_RANK[state.roleOf(ctx.actor.login, ctx.repo.full_name).base] < ROLE_RANK.triage) {
        throw basicError(403, ctx.actor.type === 'Bot' ? 'Resource not accessible by integration' : 'Must have triage access to add labels.', ctx.docs);
      }
      applyLabels(issue, labelNames(b?.labels ?? []));
      touch(issue);
      return { status: 200, body: issueLabels(issue) };
    }),

    compileRoute('DELETE', '/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}', 'issues:write', (ctx) => {
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
      return { status: 200, body: render.collaboratorPermission(user.login, ctx.repo.full_name) };
    }),
  ];

  const tokenFor = (authorization: string | undefined): TokenInit | 'missing' | 'bad' => {
    if (!authorization) return 'missing';
    const m = /^(token|bearer)\s+(\S+)\s*$/i.exec(authorization);
    if (!m || !m[2]) return 'bad';
    if (!options.tokens) return { login: defaultActor.login, type: defaultActor.type };
    return options.tokens[m[2]] ?? 'bad';
  };

  const rateHeaders = (): Record<string, string> => ({
    'x-ratelimit-limit': String(state.rateLimit.limit),
    'x-ratelimit-remaining': String(Math.max(0, state.rateLimit.remaining)),
    'x-ratelimit-reset': String(state.rateLimit.reset),
    'x-ratelimit-used': String(state.rateLimit.used),
    'x-ratelimit-resource': 'core',
  });

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', apiUrl);
    const pathname = url.pathname.replace(/\/{2,}/g, '/');
    let parsed: unknown;
    let parseError = false;
    if (raw.length > 0) {
      try {
        parsed = JSON.parse(raw);
      } catch {
        parsed = raw;
        parseError = true;
      }
    }
    let route: Route | undefined;
    let params: Record<string, string> = {};
    for (const r of routes) {
      if (r.method !== method) continue;
      const m = r.regex.exec(pathname);
      if (!m) continue;
      route = r;
      params = Object.fromEntries(r.names.map((n, i) => [n, decodeURIComponent(m[i + 1] ?? '')]));
      break;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (v === undefined) continue;
      const value = Array.isArray(v) ? v.join(', ') : v;
      headers[k] = k === 'authorization' ? `${value.split(/\s+/)[0] ?? ''} [redacted]` : value;
    }
    const record: RecordedRequest = {
      seq: ++seq,
      method,
      path: pathname,
      query: Object.fromEntries(url.searchParams),
      route: route?.template ?? null,
      params,
      headers,
      body: parsed,
      actor: null,
      status: 0,
      responseHeaders: {},
      responseBody: undefined,
      faulted: false,
      at: state.now(),
    };
    requests.push(record);

    const send = (status: number, body: unknown, extra: Record<string, string> = {}) => {
      const out: Record<string, string> = {
        'x-github-media-type': 'github.v3; format=json',
        'x-github-api-version-selected': '2022-11-28',
        'x-github-request-id': randomUUID().toUpperCase().replace(/-/g, ':').slice(0, 35),
        ...rateHeaders(),
        ...extra,
      };
      let payload = '';
      if (status !== 204 && body !== undefined) {
        if (typeof body === 'string') {
          payload = body;
          out['content-type'] ??= 'text/plain; charset=utf-8';
        } else {
          payload = JSON.stringify(body);
          out['content-type'] ??= 'application/json; charset=utf-8';
        }
      }
      record.status = status;
      record.responseHeaders = out;
      record.responseBody = status === 204 ? undefined : body;
      res.writeHead(status, { ...out, 'content-length': String(Buffer.byteLength(payload)) });
      res.end(payload);
    };

    // 1. Injected faults answer first.
    const fault = faults.take({ method, path: pathname, route: record.route, body: parsed });
    if (fault) {
      record.faulted = true;
      if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
      if (fault.reset) {
        record.status = -1;
        req.socket.destroy();
        return;
      }
      const status = fault.status ?? 500;
      const fheaders = Object.fromEntries(Object.entries(fault.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
      send(status, fault.body ?? { message: http.STATUS_CODES[status] ?? 'Error', documentation_url: DOCS, status: String(status) }, fheaders);
      return;
    }

    try {
      // 2. Authentication.
      const token = tokenFor(req.headers.authorization);
      if (token === 'missing') throw basicError(401, 'Requires authentication', DOCS);
      if (token === 'bad') throw basicError(401, 'Bad credentials', DOCS);
      const actor = state.ensureUser({ login: token.login, ...(token.type ? { type: token.type } : {}) });
      record.actor = actor.login;

      // 3. Primary rate limit (the core window).
      const nowS = Math.floor(clock().getTime() / 1000);
      if (nowS >= state.rateLimit.reset) {
        state.rateLimit.reset = nowS + state.rateLimitWindowSeconds;
        state.rateLimit.remaining = state.rateLimit.limit;
        state.rateLimit.used = 0;
      }
      if (state.rateLimit.enforce && state.rateLimit.remaining <= 0) {
        throw basicError(403, `API rate limit exceeded for ${actor.type === 'Bot' ? 'installation ID 1' : `user ID ${actor.id}`}.`, 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-rate-limits');
      }
      state.rateLimit.remaining = Math.max(0, state.rateLimit.remaining - 1);
      state.rateLimit.used++;

      // 4. Routing.
      if (!route) throw notFound();
      const repo = state.findRepo(`${params.owner ?? ''}/${params.repo ?? ''}`);
      if (!repo) throw notFound();
      if (repo.private && ROLE_RANK[state.roleOf(actor.login, repo.full_name).base] < ROLE_RANK.read) throw notFound();
      const op = findOperation(method, route.template);
      const docs = op?.spec.documentationUrl ?? DOCS;
      if (route.needs === 'issues:write' && (token.issues ?? 'write') !== 'write') {
        throw basicError(403, 'Resource not accessible by integration', docs);
      }
      if (route.needs === 'issues:write' && repo.archived) {
        throw basicError(403, 'Repository was archived so is read-only.', docs);
      }

      // 5. Request body: JSON, then the documented request schema.
      if (parseError) throw basicError(400, 'Problems parsing JSON', docs);
      if (op?.spec.requestBody) {
        if (parsed === undefined) {
          if (op.spec.requestBody.required) throw new HttpError(422, { message: "Invalid request.\n\nFor 'links/0/schema', nil is not an object.", documentation_url: docs, status: '422' });
        } else {
          const check = checkRequestBody(method, route.template, parsed);
          if (!check.valid) {
            throw new HttpError(422, { message: invalidRequestMessage(parsed, check.errors), documentation_url: docs, status: '422' });
          }
        }
      }

      const reply = route.handler({ method, url, params, query: url.searchParams, body: parsed, actor, token, repo, route: route.template, docs });
      send(reply.status, reply.body, reply.headers);
    } catch (err) {
      if (err instanceof HttpError) {
        send(err.status, err.body, err.headers);
        return;
      }
      send(500, { message: `emulator error: ${err instanceof Error ? err.message : String(err)}`, documentation_url: DOCS, status: '500' });
    }
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: `emulator error: ${String(err)}` }));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  apiUrl = `http://127.0.0.1:${address.port}`;
  render = new Renderer(state, apiUrl, serverUrl);
  const events = new EventPayloads(state, render);

  return {
    url: apiUrl,
    serverUrl,
    state,
    faults,
    requests,
    render,
    events,
    env(repo?: string) {
      return {
        GITHUB_API_URL: apiUrl,
        GITHUB_SERVER_URL: serverUrl,
        GITHUB_GRAPHQL_URL: `${apiUrl}/graphql`,
        GITHUB_REPOSITORY: state.repo(repo).full_name,
        GITHUB_REPOSITORY_OWNER: state.repo(repo).owner,
      };
    },
    writes(opts = {}) {
      return requests.filter((r) => r.method !== 'GET' && r.method !== 'HEAD' && (!opts.successfulOnly || (r.status >= 200 && r.status < 300)));
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
