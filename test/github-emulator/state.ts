// EmulatorState: the emulator's in-memory records (repos, users, issues, comments, labels, reactions,
// pulls, commits, rate limit) and the git-backed operations on them. Separate: everything else reads it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type GitIdent, GitRepo, type MergeCheck, identTime } from './git-repo.js';
import {
  BUILT_IN_ROLES,
  DEFAULT_PROTECTION,
  KNOWN_BOT_IDS,
  WEB_FLOW,
  basicError,
  gitIsoDate,
  isoSeconds,
  lower,
  nodeId,
  signPayload,
  verifySignature,
} from './helpers.js';
import {
  type AuthorAssociation,
  type BranchProtection,
  type CommentRecord,
  type CommitRecord,
  type DiscussionCategoryRecord,
  type DiscussionCommentRecord,
  type DiscussionReactionRecord,
  type DiscussionRecord,
  type GitHubEmulatorOptions,
  type IssueRecord,
  type LabelRecord,
  PullRecord,
  type RateLimitState,
  type ReactionContent,
  type ReactionRecord,
  type RepoInit,
  type RepoRecord,
  type RoleGrant,
  type RoleName,
  type UserInit,
  type UserRecord,
  type UserType,
} from './types.js';

/** The refusal when a comment is marked as the answer in a category that does not accept answers. */
export const DISCUSSION_NOT_ANSWERABLE = 'Discussion category does not accept answers';
/** The refusal when a reply (not a top-level comment) is marked as the answer. */
export const REPLY_NOT_ANSWER = 'Only top-level comments can be marked as the answer';

/** The categories GitHub gives a repository when Discussions are enabled. */
const DEFAULT_DISCUSSION_CATEGORIES = [
  { name: 'Announcements', slug: 'announcements', emoji: ':mega:', description: 'Updates from maintainers', isAnswerable: false },
  { name: 'General', slug: 'general', emoji: ':speech_balloon:', description: 'Chat about anything and everything here', isAnswerable: false },
  { name: 'Ideas', slug: 'ideas', emoji: ':bulb:', description: 'Share ideas for new features', isAnswerable: false },
  { name: 'Polls', slug: 'polls', emoji: ':ballot_box:', description: 'Take a vote from the community', isAnswerable: false },
  { name: 'Q&A', slug: 'q-a', emoji: ':pray:', description: 'Ask the community for help', isAnswerable: true },
  { name: 'Show and tell', slug: 'show-and-tell', emoji: ':raised_hands:', description: "Show off something you've made", isAnswerable: false },
];

function slugOf(name: string): string {
  return lower(name)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

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
  /** Discussion categories of every repository (each repository starts with GitHub's defaults). */
  readonly discussionCategories: DiscussionCategoryRecord[] = [];
  /** Discussions (numbered from the issue / pull request sequence of their repository). */
  readonly discussions: DiscussionRecord[] = [];
  /** Discussion comments and replies, in creation order. */
  readonly discussionCommentRecords: DiscussionCommentRecord[] = [];
  /** Reactions to discussions and discussion comments (REST reactions are in `reactions`). */
  readonly discussionReactions: DiscussionReactionRecord[] = [];
  readonly rateLimit: RateLimitState;
  readonly rateLimitWindowSeconds: number;

  private nextId = {
    repo: 700_000_001,
    user: 1_000,
    issue: 2_000_000_001,
    comment: 3_000_000_001,
    label: 4_000_000_001,
    reaction: 5_000_000_001,
    pull: 6_000_000_001,
    // GraphQL's Int is 32-bit: databaseIds that GraphQL answers stay below 2^31.
    discussion: 40_000_001,
    discussionComment: 12_000_001,
    discussionCategory: 30_000_001,
    discussionReaction: 50_000_001,
  };
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
      has_discussions: init.has_discussions ?? true,
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
    for (const c of DEFAULT_DISCUSSION_CATEGORIES) this.addDiscussionCategory({ ...c, repo: repo.full_name });
    if (init.seedFrom !== undefined || init.seedFiles !== undefined) this.seed(repo, init.seedFrom, init.seedFiles);
    else if (init.autoInit !== false) this.pendingAutoInit.add(repo.full_name);
    return repo;
  }

  /** Writes the first commit of a repository from a directory and/or a file map. */
  private seed(repo: RepoRecord, dir: string | undefined, files: Record<string, string> | undefined): void {
    const git = this.git(repo.full_name);
    if (!git.isEmpty()) throw new Error(`${repo.full_name} already has commits`);
    let tree = dir !== undefined ? git.treeFromDirectory(path.resolve(dir)) : null;
    if (files)
      tree = git.buildTree(
        tree,
        Object.entries(files).map(([p, content]) => ({ path: p, content })),
      );
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
    if (this.findDiscussion(number, repo.full_name)) throw new Error(`#${number} is a discussion in ${repo.full_name}`);
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

  /** The next number of the repository's one sequence of issues, pull requests and discussions. */
  nextIssueNumber(repoName?: string): number {
    const repo = this.repo(repoName);
    const used = [...this.issues, ...this.discussions].filter((i) => i.repo === repo.full_name);
    return used.reduce((m, i) => Math.max(m, i.number), 0) + 1;
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

  // -- discussions ---------------------------------------------------------------------------

  addDiscussionCategory(init: {
    name: string;
    slug?: string;
    emoji?: string;
    description?: string;
    isAnswerable?: boolean;
    repo?: string;
  }): DiscussionCategoryRecord {
    const repo = this.repo(init.repo);
    const slug = init.slug ?? slugOf(init.name);
    if (this.findDiscussionCategory(init.name, repo.full_name) || this.findDiscussionCategory(slug, repo.full_name))
      throw new Error(`discussion category ${init.name} already exists in ${repo.full_name}`);
    const id = this.nextId.discussionCategory++;
    const now = this.now();
    const category: DiscussionCategoryRecord = {
      repo: repo.full_name,
      id,
      node_id: nodeId('DIC', id),
      name: init.name,
      slug,
      emoji: init.emoji ?? ':speech_balloon:',
      description: init.description ?? '',
      is_answerable: init.isAnswerable ?? false,
      created_at: now,
      updated_at: now,
    };
    this.discussionCategories.push(category);
    return category;
  }

  /** A category by name or slug (case-insensitive), or by id. */
  findDiscussionCategory(nameSlugOrId: string | number, repoName?: string): DiscussionCategoryRecord | undefined {
    const repo = this.repo(repoName);
    const key = typeof nameSlugOrId === 'string' ? lower(nameSlugOrId) : undefined;
    return this.discussionCategories.find(
      (c) => c.repo === repo.full_name && (key === undefined ? c.id === nameSlugOrId : lower(c.name) === key || c.slug === key),
    );
  }

  /** The category (by name, slug or id), or throws. */
  discussionCategory(nameSlugOrId: string | number, repoName?: string): DiscussionCategoryRecord {
    const category = this.findDiscussionCategory(nameSlugOrId, repoName);
    if (!category) throw new Error(`no discussion category ${nameSlugOrId} in ${this.repo(repoName).full_name}`);
    return category;
  }

  /** The categories of a repository, in GitHub's order (as created). */
  discussionCategoriesOf(repoName?: string): DiscussionCategoryRecord[] {
    const repo = this.repo(repoName);
    return this.discussionCategories.filter((c) => c.repo === repo.full_name);
  }

  /**
   * Adds a discussion (default category "General"; "Q&A" is the answerable one). Its number comes
   * from the repository's issue / pull request sequence unless given.
   */
  addDiscussion(init: {
    title: string;
    body?: string;
    number?: number;
    user?: string;
    /** A category name, slug or id (default 'General'). */
    category?: string | number;
    labels?: string[];
    locked?: boolean;
    active_lock_reason?: string | null;
    state?: 'open' | 'closed';
    created_at?: string;
    updated_at?: string;
    author_association?: AuthorAssociation;
    repo?: string;
  }): DiscussionRecord {
    const repo = this.repo(init.repo);
    const number = init.number ?? this.nextIssueNumber(repo.full_name);
    if (this.findIssue(number, repo.full_name) || this.findDiscussion(number, repo.full_name))
      throw new Error(`#${number} already exists in ${repo.full_name}`);
    const category = this.discussionCategory(init.category ?? 'General', repo.full_name);
    const id = this.nextId.discussion++;
    const created = init.created_at ?? this.now();
    const state = init.state ?? 'open';
    const discussion: DiscussionRecord = {
      repo: repo.full_name,
      id,
      node_id: nodeId('D', id),
      number,
      title: init.title,
      body: init.body ?? '',
      user: this.ensureUser(init.user ?? 'octocat').login,
      category_id: category.id,
      labels: (init.labels ?? []).map((n) => this.ensureLabel(n, repo.full_name).name),
      state,
      state_reason: state === 'closed' ? 'resolved' : null,
      locked: init.locked ?? false,
      active_lock_reason: init.locked ? (init.active_lock_reason ?? null) : null,
      created_at: created,
      updated_at: init.updated_at ?? created,
      closed_at: state === 'closed' ? (init.updated_at ?? created) : null,
      answer_comment_id: null,
      answer_chosen_at: null,
      answer_chosen_by: null,
      ...(init.author_association ? { author_association: init.author_association } : {}),
    };
    this.discussions.push(discussion);
    return discussion;
  }

  findDiscussion(number: number, repoName?: string): DiscussionRecord | undefined {
    const repo = this.repo(repoName);
    return this.discussions.find((d) => d.repo === repo.full_name && d.number === number);
  }

  /** The discussion, or throws. */
  discussion(number: number, repoName?: string): DiscussionRecord {
    const discussion = this.findDiscussion(number, repoName);
    if (!discussion) throw new Error(`no discussion #${number} in ${this.repo(repoName).full_name}`);
    return discussion;
  }

  /** The category a discussion is in. */
  categoryOf(discussion: DiscussionRecord): DiscussionCategoryRecord {
    return this.discussionCategory(discussion.category_id, discussion.repo);
  }

  /** Moves a discussion to another category (name, slug or id); returns the category it was in. */
  moveDiscussion(number: number, category: string | number, repoName?: string): DiscussionCategoryRecord {
    const discussion = this.discussion(number, repoName);
    const from = this.categoryOf(discussion);
    const to = this.discussionCategory(category, discussion.repo);
    discussion.category_id = to.id;
    // An answer only makes sense in an answerable category.
    if (!to.is_answerable) Object.assign(discussion, { answer_comment_id: null, answer_chosen_at: null, answer_chosen_by: null });
    discussion.updated_at = this.now();
    return from;
  }

  lockDiscussion(number: number, reason: 'off-topic' | 'too heated' | 'resolved' | 'spam' | null = null, repoName?: string): DiscussionRecord {
    const discussion = this.discussion(number, repoName);
    discussion.locked = true;
    discussion.active_lock_reason = reason;
    discussion.updated_at = this.now();
    return discussion;
  }

  unlockDiscussion(number: number, repoName?: string): DiscussionRecord {
    const discussion = this.discussion(number, repoName);
    discussion.locked = false;
    discussion.active_lock_reason = null;
    discussion.updated_at = this.now();
    return discussion;
  }

  /** Applies labels by name (missing ones are created, as for issues); returns the discussion. */
  labelDiscussion(number: number, names: string[], repoName?: string): DiscussionRecord {
    const discussion = this.discussion(number, repoName);
    for (const name of names) {
      const label = this.ensureLabel(name, discussion.repo);
      if (!discussion.labels.some((l) => lower(l) === lower(label.name))) discussion.labels.push(label.name);
    }
    discussion.updated_at = this.now();
    return discussion;
  }

  unlabelDiscussion(number: number, names: string[], repoName?: string): DiscussionRecord {
    const discussion = this.discussion(number, repoName);
    const drop = new Set(names.map(lower));
    discussion.labels = discussion.labels.filter((l) => !drop.has(lower(l)));
    discussion.updated_at = this.now();
    return discussion;
  }

  /**
   * Adds a comment to a discussion; with `replyTo` (a comment id) a reply. Replies nest one level
   * only, as on GitHub: a reply to a reply is attached to the top-level comment.
   */
  addDiscussionComment(
    number: number,
    init: { body: string; user?: string; replyTo?: number; created_at?: string; updated_at?: string; author_association?: AuthorAssociation; repo?: string },
  ): DiscussionCommentRecord {
    const discussion = this.discussion(number, init.repo);
    let parentId: number | null = null;
    if (init.replyTo !== undefined) {
      const parent = this.findDiscussionComment(init.replyTo, discussion.repo);
      if (!parent || parent.discussion_number !== discussion.number) throw new Error(`no comment ${init.replyTo} on discussion #${number}`);
      parentId = parent.parent_id ?? parent.id;
    }
    const id = this.nextId.discussionComment++;
    const created = init.created_at ?? this.now();
    const comment: DiscussionCommentRecord = {
      repo: discussion.repo,
      id,
      node_id: nodeId('DC', id),
      discussion_number: discussion.number,
      parent_id: parentId,
      body: init.body,
      user: this.ensureUser(init.user ?? 'octocat').login,
      created_at: created,
      updated_at: init.updated_at ?? created,
      ...(init.author_association ? { author_association: init.author_association } : {}),
    };
    this.discussionCommentRecords.push(comment);
    if (comment.updated_at > discussion.updated_at) discussion.updated_at = comment.updated_at;
    return comment;
  }

  findDiscussionComment(id: number, repoName?: string): DiscussionCommentRecord | undefined {
    const repo = this.repo(repoName);
    return this.discussionCommentRecords.find((c) => c.repo === repo.full_name && c.id === id);
  }

  /** The discussion comment, or throws. */
  discussionComment(id: number, repoName?: string): DiscussionCommentRecord {
    const comment = this.findDiscussionComment(id, repoName);
    if (!comment) throw new Error(`no discussion comment ${id} in ${this.repo(repoName).full_name}`);
    return comment;
  }

  /** The top-level comments of a discussion, oldest first (replies: `discussionReplies`). */
  discussionComments(number: number, repoName?: string): DiscussionCommentRecord[] {
    const repo = this.repo(repoName);
    return this.discussionCommentRecords
      .filter((c) => c.repo === repo.full_name && c.discussion_number === number && c.parent_id === null)
      .sort((a, b) => a.id - b.id);
  }

  /** The replies to a top-level comment, oldest first. */
  discussionReplies(commentId: number, repoName?: string): DiscussionCommentRecord[] {
    const repo = this.repo(repoName);
    return this.discussionCommentRecords.filter((c) => c.repo === repo.full_name && c.parent_id === commentId).sort((a, b) => a.id - b.id);
  }

  /** Every comment and reply of a discussion, oldest first. */
  allDiscussionComments(number: number, repoName?: string): DiscussionCommentRecord[] {
    const repo = this.repo(repoName);
    return this.discussionCommentRecords.filter((c) => c.repo === repo.full_name && c.discussion_number === number).sort((a, b) => a.id - b.id);
  }

  /** The discussion a comment belongs to. */
  discussionOf(comment: DiscussionCommentRecord): DiscussionRecord {
    return this.discussion(comment.discussion_number, comment.repo);
  }

  /** Whether the comment is its discussion's chosen answer. */
  isDiscussionAnswer(comment: DiscussionCommentRecord): boolean {
    return this.discussionOf(comment).answer_comment_id === comment.id;
  }

  updateDiscussionComment(id: number, body: string, repoName?: string): DiscussionCommentRecord {
    const comment = this.discussionComment(id, repoName);
    comment.body = body;
    comment.updated_at = this.now();
    return comment;
  }

  /**
   * Deletes a comment (a top-level comment with its replies), its reactions, and the answer when it
   * was the answer. Returns what was removed.
   */
  deleteDiscussionComment(id: number, repoName?: string): DiscussionCommentRecord[] {
    const comment = this.discussionComment(id, repoName);
    const removed = [comment, ...(comment.parent_id === null ? this.discussionReplies(comment.id, comment.repo) : [])];
    const ids = new Set(removed.map((c) => c.id));
    const discussion = this.discussionOf(comment);
    if (discussion.answer_comment_id !== null && ids.has(discussion.answer_comment_id))
      Object.assign(discussion, { answer_comment_id: null, answer_chosen_at: null, answer_chosen_by: null });
    for (let i = this.discussionCommentRecords.length - 1; i >= 0; i--) {
      const c = this.discussionCommentRecords[i];
      if (c && c.repo === comment.repo && ids.has(c.id)) this.discussionCommentRecords.splice(i, 1);
    }
    for (let i = this.discussionReactions.length - 1; i >= 0; i--) {
      const r = this.discussionReactions[i];
      if (r && r.repo === comment.repo && r.comment_id !== null && ids.has(r.comment_id)) this.discussionReactions.splice(i, 1);
    }
    return removed;
  }

  /** Deletes a discussion with its comments and the reactions to it and to them, as its author or a maintainer can on GitHub. */
  deleteDiscussion(number: number, repoName?: string): void {
    const repo = this.repo(repoName).full_name;
    const at = this.discussions.findIndex((d) => d.repo === repo && d.number === number);
    if (at < 0) throw new Error(`no discussion #${number} in ${repo}`);
    this.discussions.splice(at, 1);
    const comments = new Set<number>();
    for (let i = this.discussionCommentRecords.length - 1; i >= 0; i--) {
      const c = this.discussionCommentRecords[i]!;
      if (c.repo === repo && c.discussion_number === number) comments.add(this.discussionCommentRecords.splice(i, 1)[0]!.id);
    }
    for (let i = this.discussionReactions.length - 1; i >= 0; i--) {
      const r = this.discussionReactions[i]!;
      if (r.repo === repo && (r.discussion_number === number || (r.comment_id !== null && comments.has(r.comment_id)))) this.discussionReactions.splice(i, 1);
    }
  }

  /**
   * Marks a top-level comment as its discussion's answer (replacing any earlier answer). Throws
   * when the category does not accept answers or the comment is a reply.
   */
  markDiscussionAnswer(commentId: number, by: string, repoName?: string): DiscussionRecord {
    const comment = this.discussionComment(commentId, repoName);
    const discussion = this.discussionOf(comment);
    if (!this.categoryOf(discussion).is_answerable) throw new Error(DISCUSSION_NOT_ANSWERABLE);
    if (comment.parent_id !== null) throw new Error(REPLY_NOT_ANSWER);
    discussion.answer_comment_id = comment.id;
    discussion.answer_chosen_at = this.now();
    discussion.answer_chosen_by = this.ensureUser(by).login;
    discussion.updated_at = discussion.answer_chosen_at;
    return discussion;
  }

  /** Clears the answer when this comment is it (a no-op otherwise). */
  unmarkDiscussionAnswer(commentId: number, repoName?: string): DiscussionRecord {
    const comment = this.discussionComment(commentId, repoName);
    const discussion = this.discussionOf(comment);
    if (!this.categoryOf(discussion).is_answerable) throw new Error(DISCUSSION_NOT_ANSWERABLE);
    if (discussion.answer_comment_id === comment.id) {
      Object.assign(discussion, { answer_comment_id: null, answer_chosen_at: null, answer_chosen_by: null });
      discussion.updated_at = this.now();
    }
    return discussion;
  }

  /** Reactions to a discussion itself or to one of its comments, oldest first. */
  discussionReactionsOn(subject: { discussion_number: number } | { comment_id: number }, repoName?: string): DiscussionReactionRecord[] {
    const repo = this.repo(repoName);
    return this.discussionReactions
      .filter(
        (r) => r.repo === repo.full_name && ('comment_id' in subject ? r.comment_id === subject.comment_id : r.discussion_number === subject.discussion_number),
      )
      .sort((a, b) => a.id - b.id);
  }

  /** A reaction to a discussion or a discussion comment; the same user's same reaction is returned, not repeated. */
  addDiscussionReaction(
    init: ({ discussion_number: number } | { comment_id: number }) & { content: ReactionContent; user?: string; created_at?: string; repo?: string },
  ): DiscussionReactionRecord {
    const repo = this.repo(init.repo);
    if ('comment_id' in init) this.discussionComment(init.comment_id, repo.full_name);
    else this.discussion(init.discussion_number, repo.full_name);
    const user = this.ensureUser(init.user ?? 'octocat').login;
    const existing = this.discussionReactionsOn(init, repo.full_name).find((r) => r.content === init.content && lower(r.user) === lower(user));
    if (existing) return existing;
    const id = this.nextId.discussionReaction++;
    const reaction: DiscussionReactionRecord = {
      repo: repo.full_name,
      id,
      node_id: nodeId('REA', id),
      discussion_number: 'comment_id' in init ? null : init.discussion_number,
      comment_id: 'comment_id' in init ? init.comment_id : null,
      content: init.content,
      user,
      created_at: init.created_at ?? this.now(),
    };
    this.discussionReactions.push(reaction);
    return reaction;
  }

  /** Removes a user's reaction; returns it, or undefined when there was none. */
  removeDiscussionReaction(
    init: ({ discussion_number: number } | { comment_id: number }) & { content: ReactionContent; user: string; repo?: string },
  ): DiscussionReactionRecord | undefined {
    const found = this.discussionReactionsOn(init, init.repo).find((r) => r.content === init.content && lower(r.user) === lower(init.user));
    if (found) this.discussionReactions.splice(this.discussionReactions.indexOf(found), 1);
    return found;
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

  /** A reaction to an issue comment (`comment_id`) or to an issue or pull request (`issue_number`). */
  addReaction(
    init: ({ comment_id: number; issue_number?: undefined } | { issue_number: number; comment_id?: undefined }) & {
      content: ReactionContent;
      user?: string;
      created_at?: string;
      repo?: string;
    },
  ): ReactionRecord {
    const target = init.comment_id !== undefined ? this.findComment(init.comment_id, init.repo) : this.findIssue(init.issue_number, init.repo);
    if (!target) throw new Error(init.comment_id !== undefined ? `no comment ${init.comment_id}` : `no issue ${init.issue_number}`);
    const id = this.nextId.reaction++;
    const reaction: ReactionRecord = {
      repo: target.repo,
      id,
      node_id: nodeId('REA', id),
      comment_id: init.comment_id !== undefined ? target.id : null,
      issue_number: init.comment_id !== undefined ? null : (init.issue_number ?? null),
      content: init.content,
      user: this.ensureUser(init.user ?? 'octocat').login,
      created_at: init.created_at ?? this.now(),
    };
    this.reactions.push(reaction);
    return reaction;
  }

  /** Reactions to one issue comment, oldest first. */
  reactionsOn(commentId: number): ReactionRecord[] {
    return this.reactions.filter((r) => r.comment_id === commentId).sort((a, b) => a.id - b.id);
  }

  /** Reactions to an issue or pull request itself (not to its comments), oldest first. */
  reactionsOnIssue(issueNumber: number, repoName?: string): ReactionRecord[] {
    const repo = this.repo(repoName);
    return this.reactions.filter((r) => r.repo === repo.full_name && r.issue_number === issueNumber).sort((a, b) => a.id - b.id);
  }

  /** Removes a reaction (what DELETE …/reactions/{reaction_id} does). */
  removeReaction(reaction: ReactionRecord): void {
    this.reactions.splice(this.reactions.indexOf(reaction), 1);
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
    this.repo(opts.repo).protectedBranches.set(branch, {
      status: opts.status ?? DEFAULT_PROTECTION.status,
      message: opts.message ?? DEFAULT_PROTECTION.message,
    });
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
  recordCommit(
    repoName: string,
    sha: string,
    meta: Pick<CommitRecord, 'customAuthor' | 'customCommitter' | 'customSignature' | 'actor' | 'via'>,
  ): CommitRecord {
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
  private webFlowCommit(
    repoName: string,
    tree: string,
    parents: string[],
    message: string,
    author: GitIdent,
    actor: string | null,
    via: CommitRecord['via'],
  ): string {
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
      result = this.webFlowCommit(
        repo.full_name,
        check.tree,
        [oldBase, pr.head_sha],
        message(title, opts.commit_message ?? pr.title),
        { ...this.identityOf(opts.by), ...now },
        opts.by,
        'merge',
      );
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
        if (original.parents.length > 1) throw basicError(405, "This branch can't be rebased", docs);
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
