// The emulator's public types: GitHub schema aliases, the records the state holds (PullRecord
// included), and the options. Separate so state, renderer, faults and routes share them without cycles.
import type { components } from '@octokit/openapi-types';
import type { MergeCheck } from './git-repo.js';

export type Schemas = components['schemas'];
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
/** Webhook shapes of discussions (`discussion` and `discussion_comment` events). */
export type WebhookDiscussion = Schemas['discussion'];
export type WebhookDiscussionComment = Schemas['webhooks_comment'];
export type WebhookDiscussionAnswer = Schemas['webhooks_answer'];
export type WebhookLabel = Schemas['webhooks_label'];
export type WebhookRepository = Schemas['repository-webhooks'];

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
  /** Discussions enabled (default true). Every repository gets GitHub's default categories. */
  has_discussions?: boolean;
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
  has_discussions: boolean;
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
  /** What it reacts to: an issue comment (`comment_id`) or an issue or pull request itself (`issue_number`); the other is null. */
  comment_id: number | null;
  issue_number: number | null;
  content: ReactionContent;
  user: string;
  created_at: string;
}

/** A discussion category (GitHub seeds Announcements, General, Ideas, Polls, Q&A and Show and tell). */
export interface DiscussionCategoryRecord {
  repo: string;
  id: number;
  /** `DIC_…` */
  node_id: string;
  name: string;
  slug: string;
  /** As GitHub gives it: a shortcode such as ':pray:'. */
  emoji: string;
  description: string;
  /** Whether a comment can be marked as the answer (Q&A). */
  is_answerable: boolean;
  created_at: string;
  updated_at: string;
}

/**
 * A discussion. It takes a number from the issue / pull request number sequence of its repository
 * (GitHub gives all three one number space).
 */
export interface DiscussionRecord {
  repo: string;
  id: number;
  /** `D_…` */
  node_id: string;
  number: number;
  title: string;
  body: string;
  /** Author login. */
  user: string;
  /** The category's id (state.discussionCategories). */
  category_id: number;
  /** Label names (the label objects are in state.labels, shared with issues). */
  labels: string[];
  state: 'open' | 'closed';
  state_reason: 'resolved' | 'outdated' | 'duplicate' | 'reopened' | null;
  locked: boolean;
  active_lock_reason: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  /** The answer: a top-level comment's id, or null. */
  answer_comment_id: number | null;
  answer_chosen_at: string | null;
  /** Login of whoever marked the answer. */
  answer_chosen_by: string | null;
  author_association?: AuthorAssociation;
}

/** A discussion comment: top-level (`parent_id` null) or a reply to a top-level comment (one level only, as on GitHub). */
export interface DiscussionCommentRecord {
  repo: string;
  /** The databaseId (also in the comment's URL: #discussioncomment-{id}). */
  id: number;
  /** `DC_…` */
  node_id: string;
  discussion_number: number;
  /** The top-level comment this replies to, or null. */
  parent_id: number | null;
  body: string;
  user: string;
  created_at: string;
  updated_at: string;
  author_association?: AuthorAssociation;
}

/** A reaction to a discussion (`discussion_number`) or to a discussion comment (`comment_id`); the other is null. */
export interface DiscussionReactionRecord {
  repo: string;
  id: number;
  node_id: string;
  discussion_number: number | null;
  comment_id: number | null;
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
  /**
   * The token's `discussions` permission: every GraphQL discussion mutation (comments, answers,
   * reactions and labels on discussions) needs 'write', else GitHub's GraphQL FORBIDDEN
   * "Resource not accessible by integration". Default 'write'.
   */
  discussions?: 'write' | 'read' | 'none';
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
