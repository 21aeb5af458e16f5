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
// - Each repository is backed by a real bare git repository (git-repo.ts) in a temporary directory:
//   the Git Data API, contents and pull requests (with real three-way merges) run git plumbing, so
//   shas are real and tests can run git against `gitDir(repo)`.
//
// Documented in test/github-emulator/README.md.
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { components } from '@octokit/openapi-types';
import { type GitIdent, GitInputError, GitRepo, type MergeCheck, type TreeEntry, identTime } from './git-repo.js';
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
export type PullRequest = Schemas['pull-request'];
export type PullRequestSimple = Schemas['pull-request-simple'];
export type GitRef = Schemas['git-ref'];
export type GitCommit = Schemas['git-commit'];
export type GitTree = Schemas['git-tree'];
export type Blob = Schemas['blob'];
export type ContentFile = Schemas['content-file'];
export type ContentDirectory = Schemas['content-directory'];
export type Repository = Schemas['repository'];

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
  /**
   * A working directory whose files (honoring its .gitignore files, without .git) become the first
   * commit ("Initial commit") on the default branch.
   */
  seedFrom?: string;
  /** Files (path → UTF-8 content) for the first commit; combined with `seedFrom`, they override it. */
  seedFiles?: Record<string, string>;
  /**
   * Without a seed, the repository starts as GitHub's "Initialize this repository with a README"
   * does: one commit with `README.md` (`# name`, then the description). With `autoInit: false` it
   * starts empty, and the Git Data API answers GitHub's 409 "Git Repository is empty.".
   */
  autoInit?: boolean;
  /** "Allow GitHub Actions to create and approve pull requests" (default true). */
  actionsCanCreatePullRequests?: boolean;
  /** Branches protected from the start (see `state.protectBranch`). */
  protectedBranches?: string[];
}

/** How a protected branch refuses a direct ref update through the API. */
export interface BranchProtection {
  /** HTTP status of the refusal (default 422, as GitHub answers PATCH /git/refs on a protected branch). */
  status: number;
  /** The refusal's message (default "Changes must be made through a pull request."). */
  message: string;
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
  /** When false, POST /pulls by github-actions[bot] gets GitHub's 403. */
  actionsCanCreatePullRequests: boolean;
  /** Protected branches by name: the Git Data API may not move or delete them (merges still may). */
  protectedBranches: Map<string, BranchProtection>;
}

/** A commit the emulator wrote (through POST /git/commits, a merge, a seed or `commitFiles`). */
export interface CommitRecord {
  repo: string;
  sha: string;
  tree: string;
  parents: string[];
  message: string;
  author: { name: string; email: string; date: string };
  committer: { name: string; email: string; date: string };
  /** The request gave an `author` (GitHub then does not sign the commit). */
  customAuthor: boolean;
  /** The request gave a `committer`. */
  customCommitter: boolean;
  /** The request gave its own `signature`. */
  customSignature: boolean;
  /** Signed by the emulator's "web-flow" key: GET /git/commits reports verification.verified true. */
  verified: boolean;
  /** Who made it: the authenticated login (null for seeds and test helpers). */
  actor: string | null;
  via: 'git/commits' | 'merge' | 'squash' | 'rebase' | 'seed' | 'commitFiles';
}

/**
 * A pull request. Its title, body, state, labels, assignees and author live on the issue record
 * with the same number (`issue`; GitHub gives pull requests and issues one number space); the
 * getters below read them from there.
 */
export class PullRecord {
  /** Last known head commit (refreshed from the branch while the pull request is open). */
  head_sha = '';
  /** Base branch commit (refreshed while open; frozen at the pre-merge base when merged). */
  base_sha = '';
  merged = false;
  merged_at: string | null = null;
  merged_by: string | null = null;
  merge_commit_sha: string | null = null;
  requested_reviewers: string[] = [];
  requested_teams: string[] = [];
  /** @internal cached merge check for `${base_sha}:${head_sha}`. */
  mergeCache: { key: string; check: MergeCheck; testMerge: string | null } | null = null;

  constructor(
    readonly repo: string,
    readonly id: number,
    readonly node_id: string,
    readonly issue: IssueRecord,
    /** Head branch name (in this repository; forks are not emulated). */
    public head: string,
    /** Base branch name. */
    public base: string,
    public draft: boolean,
    public maintainer_can_modify: boolean,
  ) {}

  get number(): number {
    return this.issue.number;
  }
  get title(): string {
    return this.issue.title;
  }
  get body(): string | null {
    return this.issue.body;
  }
  get state(): 'open' | 'closed' {
    return this.issue.state;
  }
  get user(): string {
    return this.issue.user;
  }
  get labels(): string[] {
    return this.issue.labels;
  }
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
  /** The token's `contents` permission: git refs, blobs, trees, commits and merges. Default 'write'. */
  contents?: 'write' | 'read' | 'none';
  /** The token's `pull-requests` permission: creating and editing pull requests. Default 'write'. */
  pull_requests?: 'write' | 'read' | 'none';
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
  /**
   * The bare git repository behind a repository ('owner/name' or just 'name'; default: the first
   * repository). Run git against it, e.g. to push to a branch as a human would.
   */
  gitDir(repo?: string): string;
  /** GITHUB_API_URL, GITHUB_SERVER_URL, GITHUB_GRAPHQL_URL, GITHUB_REPOSITORY for a child process. */
  env(repo?: string): Record<string, string>;
  /** Requests that changed something (not GET/HEAD), optionally only the successful ones. */
  writes(opts?: { successfulOnly?: boolean }): RecordedRequest[];
  /** Stops the server and deletes the temporary git repositories. */
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
const DEFAULT_PROTECTION: BranchProtection = { status: 422, message: 'Changes must be made through a pull request.' };
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
// Git helpers

/** GitHub's committer for commits it makes and signs itself ("web-flow"). */
export const WEB_FLOW = { name: 'GitHub', email: 'noreply@github.com' } as const;
const WEB_FLOW_KEY = 'github-emulator web-flow key';

/**
 * The emulator's stand-in for GitHub's web-flow PGP signature: an armored block whose body is an
 * HMAC of the payload, so `verifySignature` can check it. It is not a real OpenPGP packet.
 */
export function signPayload(payload: string): string {
  const mac = createHmac('sha256', WEB_FLOW_KEY).update(payload).digest();
  const body = Buffer.concat([Buffer.from('github-emulator web-flow signature\0'), mac]).toString('base64');
  const lines = body.match(/.{1,64}/g) ?? [];
  return ['-----BEGIN PGP SIGNATURE-----', '', ...lines, `=${mac.subarray(0, 3).toString('base64')}`, '-----END PGP SIGNATURE-----', ''].join('\n');
}

export function verifySignature(payload: string | null, signature: string | null): boolean {
  return payload !== null && signature !== null && signature === signPayload(payload);
}

/** Base64 in lines of 60 characters, each ending with a newline, as GitHub serves blob and file content. */
function base64Lines(buf: Buffer): string {
  const b64 = buf.toString('base64');
  return b64 === '' ? '' : `${(b64.match(/.{1,60}/g) ?? []).join('\n')}\n`;
}

function gitIsoDate(time: number): string {
  return isoSeconds(new Date(time * 1000));
}

function isSha(s: unknown): s is string {
  return typeof s === 'string' && /^[0-9a-f]{40}$/.test(s);
}

function encodePath(p: string): string {
  return p.split('/').map(encodeURIComponent).join('/');
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
  /** Pull requests (each also has an issue record with the same number). */
  readonly pulls: PullRecord[] = [];
  /** Commits the emulator wrote, oldest first (API commits, merges, seeds, `commitFiles`). */
  readonly commits: CommitRecord[] = [];
  readonly rateLimit: RateLimitState;
  readonly rateLimitWindowSeconds: number;

  private nextId = { repo: 700_000_001, user: 1_000, issue: 2_000_000_001, comment: 3_000_000_001, label: 4_000_000_001, reaction: 5_000_000_001, pull: 6_000_000_001 };
  private gitRoot: string | undefined;
  private readonly gitRepos = new Map<string, GitRepo>();
  /** Repositories whose README commit is written when their git repository is first used. */
  private readonly pendingAutoInit = new Set<string>();

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
      actionsCanCreatePullRequests: init.actionsCanCreatePullRequests ?? true,
      protectedBranches: new Map((init.protectedBranches ?? []).map((b) => [b, { ...DEFAULT_PROTECTION }])),
    };
    if (ownerType === 'User') repo.roles.set(lower(init.owner), { role_name: 'admin', base: 'admin' });
    this.repos.push(repo);
    if (init.seedFrom !== undefined || init.seedFiles !== undefined) this.seed(repo, init.seedFrom, init.seedFiles);
    else if (init.autoInit !== false) this.pendingAutoInit.add(repo.full_name);
    return repo;
  }

  /** Writes the first commit of a repository from a directory and/or a file map. */
  private seed(repo: RepoRecord, dir: string | undefined, files: Record<string, string> | undefined): void {
    const git = this.git(repo.full_name);
    if (!git.isEmpty()) throw new Error(`${repo.full_name} already has commits`);
    let tree = dir !== undefined ? git.treeFromDirectory(path.resolve(dir)) : null;
    if (files) tree = git.buildTree(tree, Object.entries(files).map(([p, content]) => ({ path: p, content })));
    tree ??= git.buildTree(null, []);
    const ident = { name: repo.owner, email: `${this.ensureUser(repo.owner).id}+${repo.owner}@users.noreply.github.com`, ...identTime(this.clock()) };
    const sha = git.commitTree(tree, [], 'Initial commit', ident, ident);
    git.updateRef(`refs/heads/${repo.default_branch}`, sha, '');
    this.recordCommit(repo.full_name, sha, { customAuthor: true, customCommitter: true, customSignature: false, actor: null, via: 'seed' });
  }

  findRepo(fullName: string): RepoRecord | undefined {
    const key = lower(fullName);
    return this.repos.find((r) => lower(r.full_name) === key);
  }

  /** The repo for "owner/name" (or a bare "name" when only one repository has it), or the first repo when omitted. */
  repo(fullName?: string): RepoRecord {
    const byName = (name: string) => {
      const found = this.repos.filter((r) => lower(r.name) === lower(name));
      return found.length === 1 ? found[0] : undefined;
    };
    const repo = fullName === undefined ? this.repos[0] : fullName.includes('/') ? this.findRepo(fullName) : byName(fullName);
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

  // -- settings ------------------------------------------------------------------------------

  /**
   * The repository setting "Allow GitHub Actions to create and approve pull requests". With false,
   * POST /pulls by github-actions[bot] gets GitHub's 403 "GitHub Actions is not permitted to create
   * or approve pull requests.".
   */
  setActionsCanCreatePullRequests(allowed: boolean, repoName?: string): void {
    this.repo(repoName).actionsCanCreatePullRequests = allowed;
  }

  /**
   * Protects a branch as a branch protection rule that requires pull requests does: PATCH and
   * DELETE /git/refs/heads/<branch> answer GitHub's 422 "Changes must be made through a pull
   * request." (or the `status` / `message` given). Merging a pull request into it still works, and
   * so do the test helpers (`commitFiles` stands for an administrator's push).
   */
  protectBranch(branch: string, opts: Partial<BranchProtection> & { repo?: string } = {}): void {
    this.repo(opts.repo).protectedBranches.set(branch, { status: opts.status ?? DEFAULT_PROTECTION.status, message: opts.message ?? DEFAULT_PROTECTION.message });
  }

  unprotectBranch(branch: string, repoName?: string): void {
    this.repo(repoName).protectedBranches.delete(branch);
  }

  // -- git -----------------------------------------------------------------------------------

  /** The git repository behind a repository (created, empty, on first use). */
  git(repoName?: string): GitRepo {
    const repo = this.repo(repoName);
    let git = this.gitRepos.get(repo.full_name);
    if (!git) {
      this.gitRoot ??= mkdtempSync(path.join(tmpdir(), 'gh-emulator-'));
      git = GitRepo.init(path.join(this.gitRoot, repo.owner, `${repo.name}.git`), repo.default_branch);
      this.gitRepos.set(repo.full_name, git);
      if (this.pendingAutoInit.delete(repo.full_name)) {
        this.seed(repo, undefined, { 'README.md': `# ${repo.name}\n${repo.description ? `${repo.description}\n` : ''}` });
      }
    }
    return git;
  }

  /** The bare repository's directory (GIT_DIR) for 'owner/name' or 'name'. */
  gitDir(repoName?: string): string {
    return this.git(repoName).dir;
  }

  /** Deletes the temporary git repositories. */
  dispose(): void {
    if (this.gitRoot) rmSync(this.gitRoot, { recursive: true, force: true });
    this.gitRoot = undefined;
    this.gitRepos.clear();
  }

  /**
   * The commit a branch points at, or undefined. `branchHead('capture/x')` uses the first
   * repository; `branchHead('octo-org/wiki', 'capture/x')` names one.
   */
  branchHead(repoOrBranch: string, branch?: string): string | undefined {
    const [repoName, name] = branch === undefined ? [undefined, repoOrBranch] : [repoOrBranch, branch];
    const git = this.git(repoName);
    const sha = git.refSha(`refs/heads/${name}`);
    return sha ?? undefined;
  }

  /**
   * A file's UTF-8 content at a branch, tag or commit, or undefined when the path (or ref) does not
   * exist. `fileAt('main', 'wiki/index.md')` or `fileAt('octo-org/wiki', 'main', 'wiki/index.md')`.
   */
  fileAt(a: string, b: string, c?: string): string | undefined {
    const [repoName, ref, filePath] = c === undefined ? [undefined, a, b] : [a, b, c];
    const git = this.git(repoName);
    const commit = git.resolveCommit(ref);
    if (!commit) return undefined;
    const entry = git.lsTree(commit, { path: filePath.replace(/^\/+/, '') }).find((e) => e.path === filePath.replace(/^\/+/, ''));
    if (!entry || entry.type !== 'blob') return undefined;
    return git.readBlob(entry.sha).toString('utf8');
  }

  /** The record of a commit the emulator wrote. */
  findCommit(sha: string, repoName?: string): CommitRecord | undefined {
    const repo = this.repo(repoName);
    return this.commits.find((c) => c.repo === repo.full_name && c.sha === sha);
  }

  /** @internal */
  recordCommit(repoName: string, sha: string, meta: Pick<CommitRecord, 'customAuthor' | 'customCommitter' | 'customSignature' | 'actor' | 'via'>): CommitRecord {
    const repo = this.repo(repoName);
    const c = this.git(repo.full_name).readCommit(sha);
    const ident = (i: GitIdent) => ({ name: i.name, email: i.email, date: gitIsoDate(i.time) });
    const record: CommitRecord = {
      repo: repo.full_name,
      sha,
      tree: c.tree,
      parents: c.parents,
      message: c.message,
      author: ident(c.author),
      committer: ident(c.committer),
      verified: verifySignature(c.payload, c.signature),
      ...meta,
    };
    this.commits.push(record);
    return record;
  }

  /** The git identity GitHub uses for a user or bot: its name and its noreply address. */
  identityOf(login: string): { name: string; email: string } {
    const u = this.ensureUser(login);
    return { name: u.name ?? u.login, email: `${u.id}+${u.login}@users.noreply.github.com` };
  }

  /**
   * Simulates a push: commits files (path → content, null deletes) on top of a branch (created from
   * `from`, default the default branch, when missing) and moves the branch. Returns the commit sha.
   */
  commitFiles(opts: {
    branch: string;
    files: Record<string, string | null>;
    message?: string;
    author?: string | { name: string; email: string };
    from?: string;
    repo?: string;
  }): string {
    const repo = this.repo(opts.repo);
    const git = this.git(repo.full_name);
    const current = git.refSha(`refs/heads/${opts.branch}`);
    const parent = current ?? git.resolveCommit(opts.from ?? repo.default_branch);
    const baseTree = parent ? git.resolveTree(parent) : null;
    const tree = git.buildTree(
      baseTree,
      Object.entries(opts.files).map(([p, content]) => (content === null ? { path: p, sha: null } : { path: p, content })),
    );
    const who = typeof opts.author === 'object' ? opts.author : this.identityOf(opts.author ?? 'octocat');
    const ident = { ...who, ...identTime(this.clock()) };
    const sha = git.commitTree(tree, parent ? [parent] : [], opts.message ?? 'Update files', ident, ident);
    if (!git.updateRef(`refs/heads/${opts.branch}`, sha, current ?? '')) throw new Error(`branch ${opts.branch} moved while committing`);
    this.recordCommit(repo.full_name, sha, { customAuthor: true, customCommitter: true, customSignature: false, actor: null, via: 'commitFiles' });
    repo.pushed_at = this.now();
    return sha;
  }

  /**
   * Writes a commit as POST /git/commits does. Without author and committer (and signature),
   * GitHub makes the commit itself: the author is the authenticated user, the committer is
   * "GitHub <noreply@github.com>", and it is signed (verification.verified true).
   */
  createCommit(opts: {
    repo?: string;
    actor: string;
    tree: string;
    parents: string[];
    message: string;
    author?: { name: string; email: string; date?: string };
    committer?: { name?: string; email?: string; date?: string };
    signature?: string;
    via?: CommitRecord['via'];
  }): CommitRecord {
    const repo = this.repo(opts.repo);
    const git = this.git(repo.full_name);
    const now = identTime(this.clock());
    const author: GitIdent = opts.author
      ? { name: opts.author.name, email: opts.author.email, ...(opts.author.date ? identTime(opts.author.date) : now) }
      : { ...this.identityOf(opts.actor), ...now };
    const custom = opts.author !== undefined || opts.committer !== undefined || opts.signature !== undefined;
    let sha: string;
    if (!custom) {
      sha = git.writeSignedCommit(opts.tree, opts.parents, opts.message, author, { ...WEB_FLOW, ...now }, signPayload);
    } else {
      const committer: GitIdent = opts.committer
        ? {
            name: opts.committer.name ?? author.name,
            email: opts.committer.email ?? author.email,
            ...(opts.committer.date ? identTime(opts.committer.date) : opts.author ? { time: author.time, tz: author.tz } : now),
          }
        : { ...author };
      sha = opts.signature
        ? git.writeSignedCommit(opts.tree, opts.parents, opts.message, author, committer, () => opts.signature as string)
        : git.commitTree(opts.tree, opts.parents, opts.message, author, committer);
    }
    return this.recordCommit(repo.full_name, sha, {
      customAuthor: opts.author !== undefined,
      customCommitter: opts.committer !== undefined,
      customSignature: opts.signature !== undefined,
      actor: opts.actor,
      via: opts.via ?? 'git/commits',
    });
  }

  // -- pull requests -------------------------------------------------------------------------

  findPull(number: number, repoName?: string): PullRecord | undefined {
    const repo = this.repo(repoName);
    return this.pulls.find((p) => p.repo === repo.full_name && p.number === number);
  }

  /** The pull request, or throws. */
  pull(number: number, repoName?: string): PullRecord {
    const pr = this.findPull(number, repoName);
    if (!pr) throw new Error(`no pull request #${number} in ${this.repo(repoName).full_name}`);
    return pr;
  }

  /**
   * Adds a pull request from `head` into `base` (default: the default branch); both branches must
   * exist. No validation beyond that: POST /pulls checks duplicates and empty diffs itself.
   */
  addPull(init: {
    head: string;
    base?: string;
    title: string;
    body?: string | null;
    user?: string;
    draft?: boolean;
    labels?: string[];
    maintainer_can_modify?: boolean;
    number?: number;
    repo?: string;
  }): PullRecord {
    const repo = this.repo(init.repo);
    const git = this.git(repo.full_name);
    const base = init.base ?? repo.default_branch;
    const headSha = git.refSha(`refs/heads/${init.head}`);
    const baseSha = git.refSha(`refs/heads/${base}`);
    if (!headSha) throw new Error(`no branch ${init.head} in ${repo.full_name}`);
    if (!baseSha) throw new Error(`no branch ${base} in ${repo.full_name}`);
    const issue = this.addIssue({
      repo: repo.full_name,
      title: init.title,
      body: init.body ?? null,
      ...(init.user ? { user: init.user } : {}),
      ...(init.labels ? { labels: init.labels } : {}),
      ...(init.number !== undefined ? { number: init.number } : {}),
      pull_request: true,
    });
    const id = this.nextId.pull++;
    const pr = new PullRecord(repo.full_name, id, nodeId('PR', id), issue, init.head, base, init.draft ?? false, init.maintainer_can_modify ?? false);
    pr.head_sha = headSha;
    pr.base_sha = baseSha;
    git.updateRef(`refs/pull/${issue.number}/head`, headSha);
    this.pulls.push(pr);
    return pr;
  }

  /**
   * Brings an open pull request up to date with its branches, as GitHub does after a push: the head
   * sha follows the head branch; a deleted head or base branch closes it; a head that became part
   * of the base (someone merged and pushed) marks it merged.
   */
  refreshPull(pr: PullRecord): PullRecord {
    if (pr.state !== 'open') return pr;
    const git = this.git(pr.repo);
    const head = git.refSha(`refs/heads/${pr.head}`);
    const base = git.refSha(`refs/heads/${pr.base}`);
    if (!head || !base) {
      this.closeIssue(pr.issue, null);
      return pr;
    }
    if (head !== pr.head_sha) {
      pr.head_sha = head;
      git.updateRef(`refs/pull/${pr.number}/head`, head);
      pr.issue.updated_at = this.now();
    }
    if (base !== pr.base_sha && git.isAncestor(head, base) && !git.isAncestor(head, pr.base_sha)) {
      // The head's commits reached the base through a push: GitHub marks the pull request merged.
      pr.merged = true;
      pr.merged_at = this.now();
      pr.merge_commit_sha = base;
      this.closeIssue(pr.issue, null);
      return pr;
    }
    pr.base_sha = base;
    return pr;
  }

  /** @internal closes the issue record of a pull request. */
  closeIssue(issue: IssueRecord, by: string | null): void {
    issue.state = 'closed';
    issue.state_reason = null;
    issue.closed_at = this.now();
    issue.closed_by = by;
    issue.updated_at = issue.closed_at;
  }

  /**
   * The real merge check of an open pull request (`git merge-tree --write-tree` of head into base),
   * cached per base/head pair. A clean result also writes GitHub's test merge commit
   * ("Merge <head> into <base>") to refs/pull/N/merge.
   */
  mergeCheck(pr: PullRecord): { check: MergeCheck; testMerge: string | null } {
    const key = `${pr.base_sha}:${pr.head_sha}`;
    if (pr.mergeCache?.key === key) return pr.mergeCache;
    const git = this.git(pr.repo);
    const check = git.mergeTrees(pr.base_sha, pr.head_sha);
    let testMerge: string | null = null;
    if (check.clean && check.tree) {
      const ident = { ...WEB_FLOW, ...identTime(this.clock()) };
      testMerge = git.commitTree(check.tree, [pr.base_sha, pr.head_sha], `Merge ${pr.head_sha} into ${pr.base_sha}`, ident, ident);
      git.updateRef(`refs/pull/${pr.number}/merge`, testMerge);
    } else {
      git.deleteRef(`refs/pull/${pr.number}/merge`);
    }
    pr.mergeCache = { key, check, testMerge };
    return pr.mergeCache;
  }

  /** A commit GitHub makes and signs itself: committer "GitHub <noreply@github.com>". */
  private webFlowCommit(repoName: string, tree: string, parents: string[], message: string, author: GitIdent, actor: string | null, via: CommitRecord['via']): string {
    const git = this.git(repoName);
    const sha = git.writeSignedCommit(tree, parents, message, author, { ...WEB_FLOW, ...identTime(this.clock()) }, signPayload);
    this.recordCommit(repoName, sha, { customAuthor: false, customCommitter: false, customSignature: false, actor, via });
    return sha;
  }

  /**
   * Merges a pull request as PUT /pulls/{n}/merge does, with a real three-way merge. Throws
   * HttpError 405 "Pull Request is not mergeable" (closed, merged or draft), 409 "Head branch was
   * modified…" (`sha` mismatch), 405 "Merge conflict" or 405 "Base branch was modified…".
   */
  mergePull(
    pr: PullRecord,
    opts: { by: string; method?: 'merge' | 'squash' | 'rebase'; commit_title?: string; commit_message?: string; sha?: string; docs?: string },
  ): { sha: string } {
    const docs = opts.docs ?? 'https://docs.github.com/rest/pulls/pulls#merge-a-pull-request';
    this.refreshPull(pr);
    if (pr.state !== 'open' || pr.draft) throw basicError(405, 'Pull Request is not mergeable', docs);
    if (opts.sha !== undefined && opts.sha !== pr.head_sha) throw basicError(409, 'Head branch was modified. Review and try the merge again.', docs);
    const { check } = this.mergeCheck(pr);
    if (!check.clean || !check.tree) throw basicError(405, 'Merge conflict', docs);
    const repo = this.repo(pr.repo);
    const git = this.git(repo.full_name);
    const oldBase = pr.base_sha;
    const now = identTime(this.clock());
    const method = opts.method ?? 'merge';
    const message = (title: string, body: string) => (body ? `${title}\n\n${body}` : title);
    let result: string;
    if (method === 'merge') {
      const title = opts.commit_title ?? `Merge pull request #${pr.number} from ${repo.owner}/${pr.head}`;
      result = this.webFlowCommit(repo.full_name, check.tree, [oldBase, pr.head_sha], message(title, opts.commit_message ?? pr.title), { ...this.identityOf(opts.by), ...now }, opts.by, 'merge');
    } else if (method === 'squash') {
      const commits = git.commitsBetween(oldBase, pr.head_sha).map((c) => git.readCommit(c).message.trim());
      const title = opts.commit_title ?? `${pr.title} (#${pr.number})`;
      const body = opts.commit_message ?? commits.map((m) => `* ${m}`).join('\n\n');
      result = this.webFlowCommit(repo.full_name, check.tree, [oldBase], message(title, body), { ...this.identityOf(pr.user), ...now }, opts.by, 'squash');
    } else {
      let current = oldBase;
      const ident = { ...WEB_FLOW, ...now };
      for (const c of git.commitsBetween(oldBase, pr.head_sha)) {
        const original = git.readCommit(c);
        if (original.parents.length > 1) throw basicError(405, 'This branch can\'t be rebased', docs);
        const picked = git.cherryPickTree(c, current, ident);
        if (!picked.clean || !picked.tree) throw basicError(405, 'Merge conflict', docs);
        current = this.webFlowCommit(repo.full_name, picked.tree, [current], original.message, original.author, opts.by, 'rebase');
      }
      result = current;
    }
    if (!git.updateRef(`refs/heads/${pr.base}`, result, oldBase)) throw basicError(405, 'Base branch was modified. Review and try the merge again.', docs);
    pr.merged = true;
    pr.merged_at = this.now();
    pr.merged_by = this.ensureUser(opts.by).login;
    pr.merge_commit_sha = result;
    this.closeIssue(pr.issue, pr.merged_by);
    repo.pushed_at = pr.merged_at;
    return { sha: result };
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
      const pr = this.state.findPull(issue.number, repo.full_name);
      rendered.pull_request = {
        url: `${repoApi}/pulls/${issue.number}`,
        html_url: html,
        diff_url: `${html}.diff`,
        patch_url: `${html}.patch`,
        merged_at: pr?.merged_at ?? null,
      };
      rendered.draft = pr?.draft ?? false;
    }
    if (opts.withClosedBy) rendered.closed_by = issue.closed_by ? this.user(issue.closed_by) : null;
    return rendered;
  }

  // -- git data ------------------------------------------------------------------------------

  /** A repository as embedded in pull requests (head.repo, base.repo): the `repository` shape. */
  repositoryForPull(fullName: string): Repository {
    const { organization: _o, network_count: _n, subscribers_count: _s, permissions: _p, ...rest } = this.repository(fullName);
    return rest as Repository;
  }

  gitRef(repoName: string, ref: { ref: string; sha: string; type: string }): GitRef {
    const api = this.repoApiUrl(this.state.repo(repoName));
    return {
      ref: ref.ref,
      node_id: `REF_kwDO${Buffer.from(`${repoName}:${ref.ref}`).toString('base64url')}`,
      url: `${api}/git/${encodePath(ref.ref)}`,
      object: { sha: ref.sha, type: ref.type, url: `${api}/git/${ref.type}s/${ref.sha}` },
    };
  }

  gitCommit(repoName: string, sha: string): GitCommit {
    const repo = this.state.repo(repoName);
    const api = this.repoApiUrl(repo);
    const c = this.state.git(repo.full_name).readCommit(sha);
    const verified = verifySignature(c.payload, c.signature);
    const ident = (i: GitIdent) => ({ name: i.name, email: i.email, date: gitIsoDate(i.time) });
    return {
      sha,
      node_id: `C_kwDO${Buffer.from(`${repo.full_name}:${sha}`).toString('base64url')}`,
      url: `${api}/git/commits/${sha}`,
      html_url: `${this.serverUrl}/${repo.full_name}/commit/${sha}`,
      author: ident(c.author),
      committer: ident(c.committer),
      tree: { sha: c.tree, url: `${api}/git/trees/${c.tree}` },
      message: c.message,
      parents: c.parents.map((p) => ({ sha: p, url: `${api}/git/commits/${p}`, html_url: `${this.serverUrl}/${repo.full_name}/commit/${p}` })),
      verification: {
        verified,
        reason: c.signature === null ? 'unsigned' : verified ? 'valid' : 'unknown_key',
        signature: c.signature,
        payload: c.payload,
        verified_at: verified ? gitIsoDate(c.committer.time) : null,
      },
    };
  }

  blob(repoName: string, sha: string): Blob {
    const repo = this.state.repo(repoName);
    const content = this.state.git(repo.full_name).readBlob(sha);
    return {
      sha,
      node_id: `B_kwDO${Buffer.from(`${repo.full_name}:${sha}`).toString('base64url')}`,
      size: content.length,
      url: `${this.repoApiUrl(repo)}/git/blobs/${sha}`,
      content: base64Lines(content),
      encoding: 'base64',
    };
  }

  tree(repoName: string, sha: string, entries: TreeEntry[]): GitTree {
    const api = this.repoApiUrl(this.state.repo(repoName));
    return {
      sha,
      url: `${api}/git/trees/${sha}`,
      tree: entries.map((e) => ({
        path: e.path,
        mode: e.mode,
        type: e.type,
        sha: e.sha,
        ...(e.size !== undefined ? { size: e.size } : {}),
        ...(e.type === 'commit' ? {} : { url: `${api}/git/${e.type}s/${e.sha}` }),
      })),
      truncated: false,
    };
  }

  /** A contents API entry (file, dir, symlink or submodule) at `ref`; files carry their content. */
  contentEntry(repoName: string, ref: string, entry: TreeEntry, withContent: boolean): ContentFile {
    const repo = this.state.repo(repoName);
    const api = this.repoApiUrl(repo);
    const name = entry.path.split('/').pop() ?? entry.path;
    const self = `${api}/contents/${encodePath(entry.path)}?ref=${encodeURIComponent(ref)}`;
    const kind = entry.type === 'tree' ? 'dir' : entry.type === 'commit' ? 'submodule' : entry.mode === '120000' ? 'symlink' : 'file';
    const git = kind === 'submodule' ? null : `${api}/git/${entry.type === 'tree' ? 'trees' : 'blobs'}/${entry.sha}`;
    const html = kind === 'submodule' ? null : `${this.serverUrl}/${repo.full_name}/${kind === 'dir' ? 'tree' : 'blob'}/${ref}/${encodePath(entry.path)}`;
    const download = kind === 'file' || kind === 'symlink' ? `${this.serverUrl}/${repo.full_name}/raw/${ref}/${encodePath(entry.path)}` : null;
    const out: Record<string, unknown> = {
      type: kind,
      size: entry.size ?? 0,
      name,
      path: entry.path,
      sha: entry.sha,
      url: self,
      git_url: git,
      html_url: html,
      download_url: download,
      _links: { self, git, html },
    };
    if (withContent && kind === 'file') {
      const data = this.state.git(repo.full_name).readBlob(entry.sha);
      // GitHub leaves files over 1 MB out of this endpoint (encoding "none").
      out.content = data.length > 1_000_000 ? '' : base64Lines(data);
      out.encoding = data.length > 1_000_000 ? 'none' : 'base64';
    } else if (withContent && kind === 'symlink') {
      out.target = this.state.git(repo.full_name).readBlob(entry.sha).toString('utf8');
    } else if (withContent && kind === 'submodule') {
      out.submodule_git_url = '';
    }
    return out as ContentFile;
  }

  // -- pull requests -------------------------------------------------------------------------

  private team(org: string, slug: string): Schemas['team'] {
    let id = 0;
    for (const ch of `${org}/${slug}`) id = (id * 31 + ch.charCodeAt(0)) % 9_000_000;
    const api = `${this.apiUrl}/organizations/1/team/${id + 1_000_000}`;
    return {
      id: id + 1_000_000,
      node_id: nodeId('T', id),
      url: api,
      html_url: `${this.serverUrl}/orgs/${org}/teams/${slug}`,
      name: slug,
      slug,
      description: null,
      privacy: 'closed',
      notification_setting: 'notifications_enabled',
      permission: 'pull',
      members_url: `${api}/members{/member}`,
      repositories_url: `${api}/repos`,
      parent: null,
      type: 'organization',
    };
  }

  /** The `pull-request-simple` shape (lists, requested_reviewers). */
  pullSimple(pr: PullRecord): PullRequestSimple {
    const repo = this.state.repo(pr.repo);
    const api = this.repoApiUrl(repo);
    const issue = pr.issue;
    const url = `${api}/pulls/${pr.number}`;
    const html = `${this.serverUrl}/${repo.full_name}/pull/${pr.number}`;
    const issueUrl = `${api}/issues/${pr.number}`;
    const labels = issue.labels
      .map((name) => this.state.findLabel(name, repo.full_name))
      .filter((l): l is LabelRecord => l !== undefined)
      .map((l) => this.label(l));
    const assignees = issue.assignees.map((a) => this.user(a));
    const side = (ref: string, sha: string) => ({
      label: `${repo.owner}:${ref}`,
      ref,
      sha,
      user: this.user(repo.owner),
      repo: this.repositoryForPull(repo.full_name),
    });
    return {
      url,
      id: pr.id,
      node_id: pr.node_id,
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      issue_url: issueUrl,
      commits_url: `${url}/commits`,
      review_comments_url: `${url}/comments`,
      review_comment_url: `${api}/pulls/comments{/number}`,
      comments_url: `${issueUrl}/comments`,
      statuses_url: `${api}/statuses/${pr.head_sha}`,
      number: pr.number,
      state: issue.state,
      locked: issue.locked,
      title: issue.title,
      user: this.user(issue.user),
      body: issue.body,
      // pull-request-simple types a label's description as a non-null string (pull-request allows
      // null), so lists send '' for a label without one; the full shape below sends null.
      labels: labels.map((l) => ({ ...l, description: l.description ?? '' })),
      milestone: null,
      active_lock_reason: issue.active_lock_reason,
      created_at: issue.created_at,
      updated_at: issue.updated_at,
      closed_at: issue.closed_at,
      merged_at: pr.merged_at,
      merge_commit_sha: pr.merge_commit_sha,
      assignee: assignees[0] ?? null,
      assignees,
      requested_reviewers: pr.requested_reviewers.map((r) => this.user(r)),
      requested_teams: pr.requested_teams.map((t) => this.team(repo.owner, t)),
      head: side(pr.head, pr.head_sha),
      base: side(pr.base, pr.base_sha),
      _links: {
        self: { href: url },
        html: { href: html },
        issue: { href: issueUrl },
        comments: { href: `${issueUrl}/comments` },
        review_comments: { href: `${url}/comments` },
        review_comment: { href: `${api}/pulls/comments{/number}` },
        commits: { href: `${url}/commits` },
        statuses: { href: `${api}/statuses/${pr.head_sha}` },
      },
      author_association: this.authorAssociation(issue.user, repo.full_name, issue.author_association),
      auto_merge: null,
      draft: pr.draft,
    };
  }

  /**
   * The full `pull-request` shape. `mergeable` runs the real merge check (true/'clean' or
   * false/'dirty'; 'draft' for drafts); with `mergeable: 'unknown'` (what POST /pulls answers, since
   * GitHub computes mergeability in the background) it is null/'unknown'. Closed pull requests
   * are always null/'unknown'.
   */
  pull(pr: PullRecord, opts: { mergeable?: 'compute' | 'unknown' } = {}): PullRequest {
    const git = this.state.git(pr.repo);
    const simple = this.pullSimple(pr);
    let mergeable: boolean | null = null;
    let mergeableState = 'unknown';
    let mergeCommitSha = pr.merge_commit_sha;
    if (pr.state === 'open' && (opts.mergeable ?? 'compute') === 'compute') {
      const { check, testMerge } = this.state.mergeCheck(pr);
      mergeable = check.clean;
      mergeableState = !check.clean ? 'dirty' : pr.draft ? 'draft' : 'clean';
      mergeCommitSha = testMerge;
    }
    const base = git.mergeBase(pr.base_sha, pr.head_sha) ?? pr.base_sha;
    const stat = git.diffStat(base, pr.head_sha);
    return {
      ...simple,
      user: this.user(pr.issue.user),
      merge_commit_sha: mergeCommitSha,
      merged: pr.merged,
      mergeable,
      rebaseable: mergeable,
      mergeable_state: mergeableState,
      merged_by: pr.merged_by ? this.user(pr.merged_by) : null,
      labels: pr.issue.labels
        .map((name) => this.state.findLabel(name, pr.repo))
        .filter((l): l is LabelRecord => l !== undefined)
        .map((l) => this.label(l)) as PullRequest['labels'],
      comments: this.state.commentsOn(pr.number, pr.repo).length,
      review_comments: 0,
      maintainer_can_modify: pr.maintainer_can_modify,
      commits: git.commitsBetween(pr.base_sha, pr.head_sha).length,
      additions: stat.additions,
      deletions: stat.deletions,
      changed_files: stat.files,
      requested_teams: pr.requested_teams.map((t) => this.team(this.state.repo(pr.repo).owner, t)),
    } as PullRequest;
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

  /**
   * A `pull_request` event (opened, closed, labeled, synchronize, …) for a pull request in the
   * state. `merged` overrides pull_request.merged (e.g. `closed` with `{ merged: true }` for a
   * merge the test did not perform through the API); `label` adds the event's `label`.
   */
  pullRequest(
    action: string,
    number: number,
    opts: { repo?: string; sender?: string; merged?: boolean; label?: string } = {},
  ): Record<string, unknown> {
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
  needs: 'read' | 'issues:write' | 'contents:write' | 'pull_requests:write';
}

function compileRoute(method: string, template: string, needs: Route['needs'], handler: Handler): Route {
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

    // Before /issues/{issue_number}, which would otherwise take "comments" for an issue number.
    compileRoute('GET', '/repos/{owner}/{repo}/issues/comments', 'read', (ctx) => {
      const sort = ctx.query.get('sort');
      const direction = ctx.query.get('direction');
      if (sort !== null && !['created', 'updated'].includes(sort)) throw validationFailed(ctx.docs, [{ resource: 'IssueComment', code: 'invalid', field: 'sort' }]);
      if (direction !== null && !['asc', 'desc'].includes(direction)) throw validationFailed(ctx.docs, [{ resource: 'IssueComment', code: 'invalid', field: 'direction' }]);
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
      const page = paginate(list, ctx, apiUrl);
      return { status: 200, body: page.items.map((c) => render.comment(c)), headers: page.headers };
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

    // -- Git Data API: refs ----------------------------------------------------------------------

    compileRoute('GET', '/repos/{owner}/{repo}/git/ref/{ref}', 'read', (ctx) => {
      const git = nonEmptyGit(ctx);
      const full = `refs/${ctx.params.ref ?? ''}`;
      const ref = git.refs(full).find((r) => r.ref === full);
      if (!ref) throw basicError(404, 'Not Found', ctx.docs);
      return { status: 200, body: render.gitRef(ctx.repo.full_name, ref) };
    }),

    compileRoute('GET', '/repos/{owner}/{repo}/git/matching-refs/{ref}', 'read', (ctx) => {
      const git = nonEmptyGit(ctx);
      const refs = git.refs(`refs/${ctx.params.ref ?? ''}`);
      return { status: 200, body: refs.map((r) => render.gitRef(ctx.repo.full_name, r)) };
    }),

    compileRoute('POST', '/repos/{owner}/{repo}/git/refs', 'contents:write', (ctx) => {
      const b = ctx.body as { ref: string; sha: string };
      const git = nonEmptyGit(ctx);
      if (!b.ref.startsWith('refs/') || b.ref.split('/').length < 3 || !git.isValidRefName(b.ref)) {
        throw basicError(422, 'Reference name is not valid', ctx.docs);
      }
      const type = git.objectType(b.sha);
      if (!type) throw basicError(422, 'Object does not exist', ctx.docs);
      if (git.refs(b.ref).some((r) => r.ref === b.ref)) throw basicError(422, 'Reference already exists', ctx.docs);
      if (b.ref.startsWith('refs/heads/') && type !== 'commit') throw basicError(422, 'Reference update failed', ctx.docs);
      if (!git.updateRef(b.ref, b.sha, '')) throw basicError(422, 'Reference already exists', ctx.docs);
      if (b.ref.startsWith('refs/heads/')) ctx.repo.pushed_at = state.now();
      const body = render.gitRef(ctx.repo.full_name, { ref: b.ref, sha: b.sha, type });
      return { status: 201, body, headers: { location: body.url } };
    }),

    compileRoute('PATCH', '/repos/{owner}/{repo}/git/refs/{ref}', 'contents:write', (ctx) => {
      const b = ctx.body as { sha: string; force?: boolean };
      const git = nonEmptyGit(ctx);
      const full = `refs/${ctx.params.ref ?? ''}`;
      const current = git.refs(full).find((r) => r.ref === full);
      if (!current) throw basicError(422, 'Reference does not exist', ctx.docs);
      refuseProtected(ctx, full);
      const type = git.objectType(b.sha);
      if (!type) throw basicError(422, 'Object does not exist', ctx.docs);
      if (full.startsWith('refs/heads/') && type !== 'commit') throw basicError(422, 'Reference update failed', ctx.docs);
      if (b.force !== true && current.sha !== b.sha && !(type === 'commit' && current.type === 'commit' && git.isAncestor(current.sha, b.sha))) {
        throw basicError(422, 'Update is not a fast forward', ctx.docs);
      }
      if (!git.updateRef(full, b.sha, current.sha)) throw basicError(422, 'Reference cannot be updated', ctx.docs);
      if (full.startsWith('refs/heads/')) ctx.repo.pushed_at = state.now();
      return { status: 200, body: render.gitRef(ctx.repo.full_name, { ref: full, sha: b.sha, type }) };
    }),

    compileRoute('DELETE', '/repos/{owner}/{repo}/git/refs/{ref}', 'contents:write', (ctx) => {
      const git = nonEmptyGit(ctx);
      const full = `refs/${ctx.params.ref ?? ''}`;
      const current = git.refs(full).find((r) => r.ref === full);
      if (!current) throw basicError(422, 'Reference does not exist', ctx.docs);
      if (full === `refs/heads/${ctx.repo.default_branch}`) throw basicError(422, 'Cannot delete the default branch', ctx.docs);
      refuseProtected(ctx, full);
      git.deleteRef(full, current.sha);
      // Deleting a pull request's head or base branch closes it.
      for (const pr of state.pulls) if (pr.repo === ctx.repo.full_name) state.refreshPull(pr);
      return { status: 204 };
    }),

    // -- Git Data API: blobs, trees, commits -------------------------------------------------------

    compileRoute('GET', '/repos/{owner}/{repo}/git/blobs/{file_sha}', 'read', (ctx) => {
      const git = nonEmptyGit(ctx);
      const sha = ctx.params.file_sha ?? '';
      if (git.objectType(sha) !== 'blob') throw basicError(404, 'Not Found', ctx.docs);
      return { status: 200, body: render.blob(ctx.repo.full_name, sha) };
    }),

    compileRoute('POST', '/repos/{owner}/{repo}/git/blobs', 'contents:write', (ctx) => {
      const b = ctx.body as { content: string; encoding?: string };
      const git = nonEmptyGit(ctx);
      const encoding = (b.encoding ?? 'utf-8').toLowerCase();
      let data: Buffer;
      if (encoding === 'utf-8' || encoding === 'utf8') data = Buffer.from(b.content, 'utf8');
      else if (encoding === 'base64') {
        if (!/^[A-Za-z0-9+/=\s]*$/.test(b.content)) throw validationFailed(ctx.docs, [{ resource: 'Blob', code: 'invalid', field: 'content' }]);
        data = Buffer.from(b.content, 'base64');
      } else {
        throw validationFailed(ctx.docs, [{ resource: 'Blob', code: 'invalid', field: 'encoding', message: `encoding must be either 'utf-8' or 'base64'` }]);
      }
      const sha = git.writeBlob(data);
      const url = `${render.repoApiUrl(ctx.repo)}/git/blobs/${sha}`;
      return { status: 201, body: { url, sha }, headers: { location: url } };
    }),

    compileRoute('GET', '/repos/{owner}/{repo}/git/trees/{tree_sha}', 'read', (ctx) => {
      const git = nonEmptyGit(ctx);
      const tree = git.resolveTree(ctx.params.tree_sha ?? '');
      if (!tree) throw basicError(404, 'Not Found', ctx.docs);
      // Any value of `recursive` (even "false" or "0") turns recursion on; omit it to turn it off.
      const recursive = ctx.query.has('recursive');
      return { status: 200, body: render.tree(ctx.repo.full_name, tree, git.lsTree(tree, { recursive, showTrees: true })) };
    }),

    compileRoute('POST', '/repos/{owner}/{repo}/git/trees', 'contents:write', (ctx) => {
      const b = ctx.body as {
        base_tree?: string;
        tree: Array<{ path?: string; mode?: string; type?: 'blob' | 'tree' | 'commit'; sha?: string | null; content?: string }>;
      };
      const git = nonEmptyGit(ctx);
      let base: string | null = null;
      if (b.base_tree !== undefined) {
        base = isSha(b.base_tree) && git.objectType(b.base_tree) === 'tree' ? b.base_tree : null;
        if (!base) throw basicError(422, 'GitRPC::BadObjectState', ctx.docs);
      }
      const changes = b.tree.map((e, i) => {
        if (typeof e.path !== 'string' || e.path === '') {
          throw validationFailed(ctx.docs, [{ resource: 'Tree', code: 'missing_field', field: `tree[${i}].path` }], 'Must supply a valid tree.path');
        }
        if (e.content !== undefined && e.sha !== undefined && e.sha !== null) {
          throw basicError(422, 'Must supply either tree.sha or tree.content, not both', ctx.docs);
        }
        if (e.content === undefined && e.sha === undefined) throw basicError(422, 'Must supply either tree.sha or tree.content', ctx.docs);
        if (e.mode === '040000' && e.type !== undefined && e.type !== 'tree') throw basicError(422, `tree.type must be "tree" for mode 040000`, ctx.docs);
        return { path: e.path, ...(e.mode ? { mode: e.mode } : {}), ...(e.type ? { type: e.type } : {}), ...(e.sha !== undefined ? { sha: e.sha } : {}), ...(e.content !== undefined ? { content: e.content } : {}) };
      });
      let sha: string;
      try {
        sha = git.buildTree(base, changes);
      } catch (err) {
        if (err instanceof GitInputError) {
          throw basicError(422, err.code === 'missing-path' ? 'GitRPC::BadObjectState' : err.code === 'bad-path' ? `tree.path ${err.message}` : err.message, ctx.docs);
        }
        throw err;
      }
      const body = render.tree(ctx.repo.full_name, sha, git.lsTree(sha));
      return { status: 201, body, headers: { location: `${render.repoApiUrl(ctx.repo)}/git/trees/${sha}` } };
    }),

    compileRoute('GET', '/repos/{owner}/{repo}/git/commits/{commit_sha}', 'read', (ctx) => {
      const git = nonEmptyGit(ctx);
      const sha = ctx.params.commit_sha ?? '';
      if (git.objectType(sha) !== 'commit') throw basicError(404, 'Not Found', ctx.docs);
      return { status: 200, body: render.gitCommit(ctx.repo.full_name, sha) };
    }),

    compileRoute('POST', '/repos/{owner}/{repo}/git/commits', 'contents:write', (ctx) => {
      const b = ctx.body as {
        message: string;
        tree: string;
        parents?: string[];
        author?: { name: string; email: string; date?: string };
        committer?: { name?: string; email?: string; date?: string };
        signature?: string;
      };
      const git = nonEmptyGit(ctx);
      if (!isSha(b.tree) || git.objectType(b.tree) !== 'tree') throw basicError(422, 'Tree SHA does not exist', ctx.docs);
      for (const p of b.parents ?? []) {
        if (!isSha(p) || git.objectType(p) !== 'commit') throw basicError(422, 'Parent SHA does not exist or is not a commit object', ctx.docs);
      }
      for (const who of [b.author, b.committer]) {
        if (who?.date !== undefined && Number.isNaN(Date.parse(who.date))) {
          throw validationFailed(ctx.docs, [{ resource: 'Commit', code: 'invalid', field: who === b.author ? 'author.date' : 'committer.date' }]);
        }
      }
      const record = state.createCommit({
        repo: ctx.repo.full_name,
        actor: ctx.actor.login,
        tree: b.tree,
        parents: b.parents ?? [],
        message: b.message,
        ...(b.author ? { author: b.author } : {}),
        ...(b.committer ? { committer: b.committer } : {}),
        ...(b.signature !== undefined ? { signature: b.signature } : {}),
      });
      const body = render.gitCommit(ctx.repo.full_name, record.sha);
      return { status: 201, body, headers: { location: body.url } };
    }),

    // -- Contents ------------------------------------------------------------------------------

    compileRoute('GET', '/repos/{owner}/{repo}/contents/{path}', 'read', (ctx) => {
      const git = state.git(ctx.repo.full_name);
      if (git.isEmpty()) throw basicError(404, 'This repository is empty.', ctx.docs);
      const ref = ctx.query.get('ref') || ctx.repo.default_branch;
      const commit = git.resolveCommit(ref);
      if (!commit) throw basicError(404, `No commit found for the ref ${ref}`, ctx.docs);
      const filePath = (ctx.params.path ?? '').replace(/^\/+|\/+$/g, '');
      if (filePath === '') {
        return { status: 200, body: git.lsTree(commit).map((e) => render.contentEntry(ctx.repo.full_name, ref, e, false)) };
      }
      const entry = git.lsTree(commit, { path: filePath }).find((e) => e.path === filePath);
      if (!entry) throw basicError(404, 'Not Found', ctx.docs);
      if (entry.type === 'tree') {
        const children = git.lsTree(`${commit}:${filePath}`).map((e) => ({ ...e, path: `${filePath}/${e.path}` }));
        return { status: 200, body: children.map((e) => render.contentEntry(ctx.repo.full_name, ref, e, false)) };
      }
      return { status: 200, body: render.contentEntry(ctx.repo.full_name, ref, entry, true) };
    }),

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
            sort === 'updated' ? Date.parse(p.issue.updated_at) : sort === 'popularity' ? state.commentsOn(p.number, p.repo).length : Date.parse(p.issue.created_at);
          const d = key(a) - key(b) || a.number - b.number;
          return direction === 'asc' ? d : -d;
        });
      const page = paginate(list, ctx, apiUrl);
      return { status: 200, body: page.items.map((p) => render.pullSimple(p)), headers: page.headers };
    }),

    compileRoute('POST', '/repos/{owner}/{repo}/pulls', 'pull_requests:write', (ctx) => {
      const b = ctx.body as { title?: string; head: string; base: string; body?: string; draft?: boolean; maintainer_can_modify?: boolean; issue?: number };
      if (lower(ctx.actor.login) === 'github-actions[bot]' && !ctx.repo.actionsCanCreatePullRequests) {
        throw basicError(403, 'GitHub Actions is not permitted to create or approve pull requests.', ctx.docs);
      }
      if (!canWrite(ctx)) throw basicError(403, 'Must have push access to create a pull request in this repository.', ctx.docs);
      if (b.issue !== undefined) throw validationFailed(ctx.docs, [{ resource: 'PullRequest', code: 'custom', field: 'issue', message: 'Converting issues to pull requests is not emulated' }]);
      if (b.title === undefined || b.title.trim() === '') throw validationFailed(ctx.docs, [{ resource: 'PullRequest', code: 'missing_field', field: 'title' }]);
      if (typeof b.body === 'string') checkBodySize(b.body, 'Issue', ctx.docs);
      const git = state.git(ctx.repo.full_name);
      const colon = b.head.indexOf(':');
      const headOwner = colon >= 0 ? b.head.slice(0, colon) : ctx.repo.owner;
      const headBranch = colon >= 0 ? b.head.slice(colon + 1) : b.head;
      const errors: NonNullable<ValidationError['errors']> = [];
      if (!git.refSha(`refs/heads/${b.base}`)) errors.push({ resource: 'PullRequest', field: 'base', code: 'invalid' });
      if (lower(headOwner) !== lower(ctx.repo.owner) || !git.refSha(`refs/heads/${headBranch}`)) errors.push({ resource: 'PullRequest', field: 'head', code: 'invalid' });
      if (errors.length > 0) throw validationFailed(ctx.docs, errors);
      const existing = state.pulls
        .filter((p) => p.repo === ctx.repo.full_name && p.head === headBranch && p.base === b.base)
        .map((p) => state.refreshPull(p))
        .find((p) => p.state === 'open');
      if (existing) {
        throw validationFailed(ctx.docs, [{ resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${ctx.repo.owner}:${headBranch}.` }]);
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
      const body = render.pull(pr, { mergeable: 'unknown' });
      return { status: 201, body, headers: { location: body.url } };
    }),

    compileRoute('GET', '/repos/{owner}/{repo}/pulls/{pull_number}', 'read', (ctx) => {
      const pr = state.refreshPull(getPull(ctx));
      return { status: 200, body: render.pull(pr) };
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
        if (pr.state !== 'open') throw validationFailed(ctx.docs, [{ resource: 'PullRequest', code: 'custom', field: 'base', message: 'Cannot change the base branch of a closed pull request.' }]);
        const baseSha = git.refSha(`refs/heads/${b.base}`);
        if (!baseSha) throw validationFailed(ctx.docs, [{ resource: 'PullRequest', code: 'invalid', field: 'base' }]);
        pr.base = b.base;
        pr.base_sha = baseSha;
      }
      if (b.maintainer_can_modify !== undefined) pr.maintainer_can_modify = b.maintainer_can_modify;
      if (b.state !== undefined && b.state !== pr.state) {
        if (b.state === 'closed') state.closeIssue(pr.issue, ctx.actor.login);
        else {
          if (pr.merged) throw validationFailed(ctx.docs, [{ resource: 'PullRequest', code: 'custom', field: 'state', message: 'state cannot be changed. The pull request has been merged.' }]);
          if (!git.refSha(`refs/heads/${pr.head}`) || !git.refSha(`refs/heads/${pr.base}`)) {
            throw validationFailed(ctx.docs, [{ resource: 'PullRequest', code: 'custom', field: 'state', message: 'state cannot be changed. The head or base branch was deleted.' }]);
          }
          pr.issue.state = 'open';
          pr.issue.state_reason = null;
          pr.issue.closed_at = null;
          pr.issue.closed_by = null;
          state.refreshPull(pr);
        }
      }
      touch(pr.issue);
      return { status: 200, body: render.pull(pr) };
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
      return { status: 201, body: render.pullSimple(pr) };
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
      if (route.needs !== 'read') {
        const scope = route.needs === 'issues:write' ? token.issues : route.needs === 'contents:write' ? token.contents : token.pull_requests;
        if ((scope ?? 'write') !== 'write') throw basicError(403, 'Resource not accessible by integration', docs);
        if (repo.archived) throw basicError(403, 'Repository was archived so is read-only.', docs);
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
    gitDir(repo?: string) {
      return state.gitDir(repo);
    },
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
        server.close(() => {
          state.dispose();
          resolve();
        });
        server.closeAllConnections();
      });
    },
  };
}
