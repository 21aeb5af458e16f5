// Renderer: turns state records into GitHub REST response shapes (issues, comments, pulls, git
// objects, contents, …). Separate from the routes so event payloads and tests can render too.
import type { GitIdent, TreeEntry } from './git-repo.js';
import { PERMISSION_OF_ROLE, ROLE_RANK, base64Lines, encodePath, gitIsoDate, lower, nodeId, verifySignature } from './helpers.js';
import type { EmulatorState } from './state.js';
import type {
  AuthorAssociation,
  Blob,
  CollaboratorPermission,
  CommentRecord,
  ContentFile,
  DiscussionCategoryRecord,
  DiscussionCommentRecord,
  DiscussionRecord,
  FullRepository,
  GitCommit,
  GitRef,
  GitTree,
  Issue,
  IssueComment,
  IssueRecord,
  Label,
  LabelRecord,
  PullRecord,
  PullRequest,
  PullRequestSimple,
  Reaction,
  ReactionContent,
  ReactionRecord,
  ReactionRollup,
  RepoRecord,
  Repository,
  Schemas,
  SimpleUser,
  WebhookDiscussion,
  WebhookDiscussionAnswer,
  WebhookDiscussionComment,
  WebhookLabel,
  WebhookRepository,
} from './types.js';

/** The permission flags GitHub reports for a role, by its rank. */
const permissionsOfRank = (rank: number) => ({
  admin: rank >= ROLE_RANK.admin,
  maintain: rank >= ROLE_RANK.maintain,
  push: rank >= ROLE_RANK.write,
  triage: rank >= ROLE_RANK.triage,
  pull: rank >= ROLE_RANK.read,
});

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
      has_discussions: repo.has_discussions,
      archived: repo.archived,
      disabled: false,
      visibility: repo.private ? 'private' : 'public',
      pushed_at: repo.pushed_at,
      created_at: repo.created_at,
      updated_at: repo.updated_at,
      permissions: permissionsOfRank(rank),
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

  reactionRollup(url: string, reactions: ReadonlyArray<Pick<ReactionRecord, 'content'>>): ReactionRollup {
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
      reactions: this.reactionRollup(`${url}/reactions`, this.state.reactionsOnIssue(issue.number, repo.full_name)),
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

  // -- discussions (webhook shapes: GitHub has no REST API for discussions) ---------------------

  /** A discussion's web URL. */
  discussionUrl(discussion: DiscussionRecord): string {
    return `${this.serverUrl}/${discussion.repo}/discussions/${discussion.number}`;
  }

  /** A discussion comment's web URL: the discussion's, with #discussioncomment-{databaseId}. */
  discussionCommentUrl(comment: DiscussionCommentRecord): string {
    return `${this.serverUrl}/${comment.repo}/discussions/${comment.discussion_number}#discussioncomment-${comment.id}`;
  }

  /** A user as webhook payloads give it (their own copy of simple-user, without nulls). */
  webhookUser(login: string): NonNullable<WebhookDiscussion['answer_chosen_by']> & { type: 'Bot' | 'User' | 'Organization' } {
    const { gravatar_id: _g, id: _id, name: _n, email: _e, starred_at: _s, ...rest } = this.user(login);
    const u = this.state.ensureUser(login);
    return { ...rest, id: u.id, gravatar_id: '', type: u.type };
  }

  /** A category as the `discussion` webhook payload gives it (also `changes.category.from`). */
  discussionCategory(category: DiscussionCategoryRecord): WebhookDiscussion['category'] {
    return {
      id: category.id,
      node_id: category.node_id,
      repository_id: this.state.repo(category.repo).id,
      emoji: category.emoji,
      name: category.name,
      description: category.description,
      created_at: category.created_at,
      updated_at: category.updated_at,
      slug: category.slug,
      is_answerable: category.is_answerable,
    };
  }

  /** The `discussion` object of `discussion` and `discussion_comment` webhook payloads. */
  discussion(discussion: DiscussionRecord): WebhookDiscussion {
    const repo = this.state.repo(discussion.repo);
    const api = this.repoApiUrl(repo);
    const answer = discussion.answer_comment_id === null ? undefined : this.state.findDiscussionComment(discussion.answer_comment_id, repo.full_name);
    const labels = discussion.labels
      .map((name) => this.state.findLabel(name, repo.full_name))
      .filter((l): l is LabelRecord => l !== undefined)
      .map((l) => this.label(l));
    return {
      repository_url: api,
      category: this.discussionCategory(this.state.categoryOf(discussion)),
      answer_html_url: answer ? this.discussionCommentUrl(answer) : null,
      answer_chosen_at: discussion.answer_chosen_at,
      answer_chosen_by: discussion.answer_chosen_by ? this.webhookUser(discussion.answer_chosen_by) : null,
      html_url: this.discussionUrl(discussion),
      id: discussion.id,
      node_id: discussion.node_id,
      number: discussion.number,
      title: discussion.title,
      user: this.webhookUser(discussion.user),
      labels,
      state: discussion.state,
      state_reason: discussion.state_reason,
      locked: discussion.locked,
      comments: this.state.allDiscussionComments(discussion.number, repo.full_name).length,
      created_at: discussion.created_at,
      updated_at: discussion.updated_at,
      author_association: this.authorAssociation(discussion.user, repo.full_name, discussion.author_association),
      active_lock_reason: discussion.active_lock_reason,
      body: discussion.body,
      reactions: this.reactionRollup(
        `${api}/discussions/${discussion.number}/reactions`,
        this.state.discussionReactionsOn({ discussion_number: discussion.number }, repo.full_name),
      ),
      timeline_url: `${api}/discussions/${discussion.number}/timeline`,
    };
  }

  /** The `comment` object of `discussion_comment` webhook payloads. */
  discussionComment(comment: DiscussionCommentRecord): WebhookDiscussionComment {
    const repo = this.state.repo(comment.repo);
    const api = this.repoApiUrl(repo);
    const discussion = this.state.discussionOf(comment);
    return {
      id: comment.id,
      node_id: comment.node_id,
      html_url: this.discussionCommentUrl(comment),
      parent_id: comment.parent_id,
      child_comment_count: comment.parent_id === null ? this.state.discussionReplies(comment.id, repo.full_name).length : 0,
      repository_url: api,
      discussion_id: discussion.id,
      author_association: this.authorAssociation(comment.user, repo.full_name, comment.author_association),
      user: this.webhookUser(comment.user),
      created_at: comment.created_at,
      updated_at: comment.updated_at,
      body: comment.body,
      reactions: this.reactionRollup(
        `${api}/discussions/comments/${comment.id}/reactions`,
        this.state.discussionReactionsOn({ comment_id: comment.id }, repo.full_name),
      ),
    };
  }

  /** The `answer` (or `old_answer`) object of `discussion` answered / unanswered payloads. */
  discussionAnswer(comment: DiscussionCommentRecord): WebhookDiscussionAnswer {
    return this.discussionComment(comment);
  }

  /** A label as webhook payloads give it. */
  webhookLabel(label: LabelRecord): WebhookLabel {
    return { ...this.label(label), id: label.id };
  }

  /** A repository as webhook payloads give it (`repository-webhooks`). */
  webhookRepository(fullName?: string): WebhookRepository {
    const { permissions: _p, template_repository: _t, temp_clone_token: _c, ...rest } = this.repository(fullName);
    return { ...rest, has_downloads: rest.has_downloads ?? true, has_projects: rest.has_projects ?? true, has_pages: rest.has_pages ?? false };
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
        permissions: permissionsOfRank(rank),
        role_name: grant.role_name,
      },
    };
  }
}
