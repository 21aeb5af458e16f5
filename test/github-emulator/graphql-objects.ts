// GraphQL objects over the state: what `POST /graphql` resolves a query against (the GraphQL
// counterpart of renderer.ts). Each object carries its schema type in `__typename` (graphql-js
// resolves interfaces and unions by it) and its fields as values, or as functions of the field's
// arguments. Connections page with GitHub's rules (`first` or `last` required, at most 100, opaque
// cursors). Separate: the root fields (graphql.ts) and the mutations (graphql-mutations.ts) share it.
import { ROLE_RANK, lower, parseNodeId } from './helpers.js';
import type { EmulatorState } from './state.js';
import type {
  DiscussionCategoryRecord,
  DiscussionCommentRecord,
  DiscussionReactionRecord,
  DiscussionRecord,
  LabelRecord,
  ReactionContent,
  RepoRecord,
  TokenInit,
  UserRecord,
} from './types.js';

/** A GraphQL error with GitHub's `type` (NOT_FOUND, FORBIDDEN, UNPROCESSABLE, …); its path and locations come from graphql-js. */
export class GraphqlFieldError extends Error {
  constructor(
    message: string,
    readonly type?: string,
  ) {
    super(message);
  }
}

export interface GraphqlContext {
  state: EmulatorState;
  /** The account the token belongs to. */
  actor: UserRecord;
  token: TokenInit;
  serverUrl: string;
  bodyLimit: { max: number; unit: 'code-points' | 'utf8-bytes' | 'utf16-units' };
}

export type GqlObject = { __typename: string } & Record<string, unknown>;

export interface PageArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

/** GraphQL's ReactionContent ↔ the REST (and webhook) names, in the order GitHub lists reaction groups. */
export const GRAPHQL_REACTIONS: ReadonlyArray<[string, ReactionContent]> = [
  ['THUMBS_UP', '+1'],
  ['THUMBS_DOWN', '-1'],
  ['LAUGH', 'laugh'],
  ['HOORAY', 'hooray'],
  ['CONFUSED', 'confused'],
  ['HEART', 'heart'],
  ['ROCKET', 'rocket'],
  ['EYES', 'eyes'],
];
const TO_GRAPHQL = new Map(GRAPHQL_REACTIONS.map(([g, r]) => [r, g]));
export const FROM_GRAPHQL = new Map(GRAPHQL_REACTIONS);

const CURSOR_PREFIX = 'cursor:v2:';
const MAX_PAGE = 100;

type Key = number[];
const compareKeys = (a: Key, b: Key): number => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
};
const encodeCursor = (key: Key) => Buffer.from(`${CURSOR_PREFIX}${JSON.stringify(key)}`).toString('base64');
function decodeCursor(cursor: string): Key {
  const text = Buffer.from(cursor, 'base64').toString('utf8');
  if (text.startsWith(CURSOR_PREFIX)) {
    try {
      const key = JSON.parse(text.slice(CURSOR_PREFIX.length)) as unknown;
      if (Array.isArray(key) && key.every((k) => typeof k === 'number')) return key as Key;
    } catch {
      // falls through to the error
    }
  }
  throw new GraphqlFieldError(`\`${cursor}\` does not appear to be a valid cursor.`, 'INVALID_CURSOR_ARGUMENTS');
}

/**
 * A connection (nodes, edges, pageInfo, totalCount) over `all`, ordered by `key` (ascending; negate
 * a number for a descending order). Cursors carry the key, so a page boundary survives deletions.
 */
export function connection<T>(name: string, all: readonly T[], args: PageArgs, key: (item: T) => Key, node: (item: T) => unknown): GqlObject {
  const { first, last, after, before } = args;
  if ((first === undefined || first === null) && (last === undefined || last === null))
    throw new GraphqlFieldError(
      `You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`,
      'MISSING_PAGINATION_BOUNDARIES',
    );
  for (const [arg, n] of [
    ['first', first],
    ['last', last],
  ] as const) {
    if (n === undefined || n === null) continue;
    if (n < 0) throw new GraphqlFieldError(`\`${arg}\` on the \`${name}\` connection cannot be less than zero.`, 'INVALID_ARGUMENTS');
    if (n > MAX_PAGE)
      throw new GraphqlFieldError(
        `Requesting ${n} records on the \`${name}\` connection exceeds the \`${arg}\` limit of ${MAX_PAGE} records.`,
        'EXCESSIVE_PAGINATION',
      );
  }
  const sorted = all.map((item) => ({ item, key: key(item) })).sort((a, b) => compareKeys(a.key, b.key));
  const afterKey = after ? decodeCursor(after) : undefined;
  const beforeKey = before ? decodeCursor(before) : undefined;
  let window = sorted.filter((e) => (!afterKey || compareKeys(e.key, afterKey) > 0) && (!beforeKey || compareKeys(e.key, beforeKey) < 0));
  let hasNextPage = beforeKey !== undefined && sorted.some((e) => compareKeys(e.key, beforeKey) >= 0);
  let hasPreviousPage = afterKey !== undefined && sorted.some((e) => compareKeys(e.key, afterKey) <= 0);
  if (first !== undefined && first !== null) {
    if (window.length > first) hasNextPage = true;
    window = window.slice(0, first);
  }
  if (last !== undefined && last !== null) {
    if (window.length > last) hasPreviousPage = true;
    window = window.slice(window.length - last);
  }
  const edges = window.map((e) => ({ __typename: `${name}Edge`, cursor: encodeCursor(e.key), node: () => node(e.item) }));
  return {
    __typename: 'Connection',
    nodes: () => window.map((e) => node(e.item)),
    edges,
    totalCount: all.length,
    pageInfo: {
      __typename: 'PageInfo',
      hasNextPage,
      hasPreviousPage,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

export const notFound = (what: string) => new GraphqlFieldError(what, 'NOT_FOUND');
export const nodeNotFound = (id: string) => notFound(`Could not resolve to a node with the global id of '${id}'`);

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const bodyHtml = (body: string) =>
  body.trim() === ''
    ? ''
    : body
        .split(/\n{2,}/)
        .map((p) => `<p dir="auto">${escapeHtml(p).replace(/\n/g, '<br>\n')}</p>`)
        .join('\n');
const LOCK_REASONS: Record<string, string> = { 'off-topic': 'OFF_TOPIC', 'too heated': 'TOO_HEATED', resolved: 'RESOLVED', spam: 'SPAM' };

/** Builds the GraphQL objects of one request, for its viewer. */
export class GraphqlObjects {
  constructor(readonly ctx: GraphqlContext) {}

  private get state(): EmulatorState {
    return this.ctx.state;
  }

  // -- who may do what (shared with the mutations) ---------------------------------------------

  /** The viewer's role rank on a repository. */
  rank(repo: string, login = this.ctx.actor.login): number {
    return ROLE_RANK[this.state.roleOf(login, repo).base];
  }

  /** Whether the viewer can see the repository (private ones need read access). */
  canSee(repo: RepoRecord): boolean {
    return !repo.private || this.rank(repo.full_name) >= ROLE_RANK.read;
  }

  /** A locked discussion only takes comments and reactions from Users with write access (bots are refused), as for REST issues. */
  canBypassLock(discussion: DiscussionRecord): boolean {
    return !discussion.locked || (this.ctx.actor.type === 'User' && this.rank(discussion.repo) >= ROLE_RANK.write);
  }

  isViewer(login: string): boolean {
    return lower(login) === lower(this.ctx.actor.login);
  }

  /** The discussion's author or someone with triage access or more may choose its answer. */
  canChooseAnswer(discussion: DiscussionRecord): boolean {
    return this.isViewer(discussion.user) || this.rank(discussion.repo) >= ROLE_RANK.triage;
  }

  canDeleteComment(comment: DiscussionCommentRecord): boolean {
    return this.isViewer(comment.user) || this.rank(comment.repo) >= ROLE_RANK.write;
  }

  // -- objects -------------------------------------------------------------------------------

  private webUrl(path: string): { url: string; resourcePath: string } {
    return { url: `${this.ctx.serverUrl}${path}`, resourcePath: path };
  }

  private avatar(id: number) {
    return () => `https://avatars.githubusercontent.com/u/${id}?v=4`;
  }

  /**
   * An account as an `Actor` (User, Bot or Organization). A bot's GraphQL login has no "[bot]"
   * suffix, as on GitHub: github-actions[bot] is `Bot` "github-actions".
   */
  actor(login: string | null): GqlObject | null {
    if (login === null) return null;
    const u = this.state.ensureUser(login);
    const common = { id: u.node_id, databaseId: u.id, avatarUrl: this.avatar(u.id) };
    if (u.type === 'Bot') {
      const name = u.login.replace(/\[bot\]$/, '');
      return { __typename: 'Bot', ...common, login: name, ...this.webUrl(`/apps/${name}`) };
    }
    return {
      __typename: u.type === 'Organization' ? 'Organization' : 'User',
      ...common,
      login: u.login,
      name: u.name,
      email: u.email ?? '',
      isSiteAdmin: u.site_admin,
      ...this.webUrl(`/${u.login}`),
    };
  }

  repository(repo: RepoRecord): GqlObject {
    const rank = this.rank(repo.full_name);
    const permission = (['READ', 'READ', 'TRIAGE', 'WRITE', 'MAINTAIN', 'ADMIN'] as const)[rank];
    return {
      __typename: 'Repository',
      id: repo.node_id,
      databaseId: repo.id,
      name: repo.name,
      nameWithOwner: repo.full_name,
      owner: () => this.actor(repo.owner),
      description: repo.description,
      ...this.webUrl(`/${repo.full_name}`),
      isPrivate: repo.private,
      isArchived: repo.archived,
      isFork: false,
      isTemplate: false,
      isDisabled: false,
      isLocked: false,
      isMirror: false,
      isEmpty: false,
      visibility: repo.private ? 'PRIVATE' : 'PUBLIC',
      hasDiscussionsEnabled: repo.has_discussions,
      hasIssuesEnabled: repo.has_issues,
      createdAt: repo.created_at,
      updatedAt: repo.updated_at,
      pushedAt: repo.pushed_at,
      viewerPermission: rank > 0 ? permission : null,
      discussion: ({ number }: { number: number }) => {
        const d = repo.has_discussions ? this.state.findDiscussion(number, repo.full_name) : undefined;
        if (!d) throw notFound(`Could not resolve to a Discussion with the number of ${number}.`);
        return this.discussion(d);
      },
      discussions: (
        args: PageArgs & {
          categoryId?: string | null;
          answered?: boolean | null;
          orderBy?: { field: 'CREATED_AT' | 'UPDATED_AT'; direction: 'ASC' | 'DESC' } | null;
          states?: Array<'OPEN' | 'CLOSED'> | null;
        },
      ) => {
        const category = args.categoryId ? parseNodeId(args.categoryId) : undefined;
        if (args.categoryId && category?.prefix !== 'DIC') throw nodeNotFound(args.categoryId);
        const list = (repo.has_discussions ? this.state.discussions : []).filter(
          (d) =>
            d.repo === repo.full_name &&
            (!category || d.category_id === category.id) &&
            (args.answered === undefined || args.answered === null || (d.answer_comment_id !== null) === args.answered) &&
            (!args.states?.length || args.states.includes(d.state === 'open' ? 'OPEN' : 'CLOSED')),
        );
        const order = args.orderBy ?? { field: 'UPDATED_AT', direction: 'DESC' };
        const sign = order.direction === 'DESC' ? -1 : 1;
        return connection(
          'Discussion',
          list,
          args,
          (d) => [sign * Date.parse(order.field === 'CREATED_AT' ? d.created_at : d.updated_at), sign * d.number],
          (d) => this.discussion(d),
        );
      },
      discussionCategories: (args: PageArgs & { filterByAssignable?: boolean | null }) =>
        connection(
          'DiscussionCategory',
          this.state.discussionCategoriesOf(repo.full_name),
          args,
          (c) => [c.id],
          (c) => this.category(c),
        ),
      discussionCategory: ({ slug }: { slug: string }) => {
        const c = this.state.discussionCategoriesOf(repo.full_name).find((x) => x.slug === lower(slug));
        return c ? this.category(c) : null;
      },
      label: ({ name }: { name: string }) => {
        const l = this.state.findLabel(name, repo.full_name);
        return l ? this.label(l) : null;
      },
      labels: (args: PageArgs & { query?: string | null }) =>
        connection(
          'Label',
          this.state.labels.filter((l) => l.repo === repo.full_name && (!args.query || lower(l.name).includes(lower(args.query)))),
          args,
          (l) => [l.id],
          (l) => this.label(l),
        ),
    };
  }

  category(c: DiscussionCategoryRecord): GqlObject {
    return {
      __typename: 'DiscussionCategory',
      id: c.node_id,
      name: c.name,
      slug: c.slug,
      emoji: c.emoji,
      emojiHTML: `<div>${escapeHtml(c.emoji)}</div>`,
      description: c.description,
      isAnswerable: c.is_answerable,
      createdAt: c.created_at,
      updatedAt: c.updated_at,
      repository: () => this.repository(this.state.repo(c.repo)),
    };
  }

  label(l: LabelRecord): GqlObject {
    return {
      __typename: 'Label',
      id: l.node_id,
      name: l.name,
      color: l.color,
      description: l.description,
      isDefault: l.default,
      createdAt: null,
      updatedAt: null,
      ...this.webUrl(`/${l.repo}/labels/${encodeURIComponent(l.name)}`),
      repository: () => this.repository(this.state.repo(l.repo)),
    };
  }

  private reactionsOf(subject: { discussion_number: number } | { comment_id: number }, repo: string) {
    return this.state.discussionReactionsOn(subject, repo);
  }

  reaction(r: DiscussionReactionRecord): GqlObject {
    const user = this.state.ensureUser(r.user);
    return {
      __typename: 'Reaction',
      id: r.node_id,
      databaseId: r.id,
      content: TO_GRAPHQL.get(r.content),
      createdAt: r.created_at,
      // Reaction.user is a User: a bot's reaction has none.
      user: user.type === 'User' ? this.actor(user.login) : null,
      reactable: () => this.subjectOf(r),
    };
  }

  /** The discussion or comment a reaction is on. */
  subjectOf(r: Pick<DiscussionReactionRecord, 'repo' | 'discussion_number' | 'comment_id'>): GqlObject {
    return r.comment_id !== null
      ? this.comment(this.state.discussionComment(r.comment_id, r.repo))
      : this.discussion(this.state.discussion(r.discussion_number ?? 0, r.repo));
  }

  private reactable(subject: { discussion_number: number } | { comment_id: number }, repo: string, self: () => GqlObject) {
    const all = () => this.reactionsOf(subject, repo);
    return {
      reactionGroups: () =>
        GRAPHQL_REACTIONS.map(([content, rest]) => {
          const given = all().filter((r) => r.content === rest);
          return {
            __typename: 'ReactionGroup',
            content,
            createdAt: given[0]?.created_at ?? null,
            viewerHasReacted: given.some((r) => this.isViewer(r.user)),
            subject: self,
            reactors: (args: PageArgs) =>
              connection(
                'Reactor',
                given,
                args,
                (r) => [r.id],
                (r) => this.actor(r.user),
              ),
            users: (args: PageArgs) =>
              connection(
                'ReactingUser',
                given.filter((r) => this.state.ensureUser(r.user).type === 'User'),
                args,
                (r) => [r.id],
                (r) => this.actor(r.user),
              ),
          };
        }),
      reactions: (args: PageArgs & { content?: string | null }) => {
        const list = all().filter((r) => !args.content || TO_GRAPHQL.get(r.content) === args.content);
        return {
          ...connection(
            'Reaction',
            list,
            args,
            (r) => [r.id],
            (r) => this.reaction(r),
          ),
          viewerHasReacted: list.some((r) => this.isViewer(r.user)),
        };
      },
    };
  }

  discussion(d: DiscussionRecord): GqlObject {
    const repo = this.state.repo(d.repo);
    const path = `/${repo.full_name}/discussions/${d.number}`;
    const self = (): GqlObject => this.discussion(d);
    const answer = () => (d.answer_comment_id === null ? undefined : this.state.findDiscussionComment(d.answer_comment_id, d.repo));
    const rank = this.rank(d.repo);
    return {
      __typename: 'Discussion',
      id: d.node_id,
      databaseId: d.id,
      number: d.number,
      title: d.title,
      body: d.body,
      bodyText: d.body,
      bodyHTML: bodyHtml(d.body),
      ...this.webUrl(path),
      createdAt: d.created_at,
      updatedAt: d.updated_at,
      publishedAt: d.created_at,
      lastEditedAt: null,
      locked: d.locked,
      activeLockReason: d.active_lock_reason ? (LOCK_REASONS[d.active_lock_reason] ?? null) : null,
      closed: d.state === 'closed',
      closedAt: d.closed_at,
      stateReason: d.state_reason ? d.state_reason.toUpperCase() : null,
      author: () => this.actor(d.user),
      authorAssociation: this.association(d.user, d.repo, d.author_association),
      category: () => this.category(this.state.categoryOf(d)),
      labels: (args: PageArgs) =>
        connection(
          'Label',
          d.labels.map((n) => this.state.findLabel(n, d.repo)).filter((l): l is LabelRecord => l !== undefined),
          args,
          (l) => [l.id],
          (l) => this.label(l),
        ),
      answer: () => {
        const a = answer();
        return a ? this.comment(a) : null;
      },
      answerChosenAt: d.answer_chosen_at,
      answerChosenBy: () => (d.answer_chosen_by ? this.actor(d.answer_chosen_by) : null),
      isAnswered: d.answer_comment_id !== null,
      comments: (args: PageArgs) =>
        connection(
          'DiscussionComment',
          this.state.discussionComments(d.number, d.repo),
          args,
          (c) => [c.id],
          (c) => this.comment(c),
        ),
      ...this.reactable({ discussion_number: d.number }, d.repo, self),
      repository: () => this.repository(repo),
      upvoteCount: 0,
      createdViaEmail: false,
      includesCreatedEdit: false,
      viewerCanClose: rank >= ROLE_RANK.triage || this.isViewer(d.user),
      viewerCanReopen: rank >= ROLE_RANK.triage || this.isViewer(d.user),
      viewerCanDelete: rank >= ROLE_RANK.admin,
      viewerCanLabel: rank >= ROLE_RANK.triage,
      viewerCanReact: this.canBypassLock(d),
      viewerCanSubscribe: true,
      viewerCanUpdate: this.isViewer(d.user) || rank >= ROLE_RANK.write,
      viewerCanUpvote: true,
      viewerDidAuthor: this.isViewer(d.user),
      viewerHasUpvoted: false,
    };
  }

  comment(c: DiscussionCommentRecord): GqlObject {
    const d = () => this.state.discussionOf(c);
    const self = (): GqlObject => this.comment(c);
    const topLevel = c.parent_id === null;
    const answerable = () => this.state.categoryOf(d()).is_answerable;
    const isAnswer = () => d().answer_comment_id === c.id;
    return {
      __typename: 'DiscussionComment',
      id: c.node_id,
      databaseId: c.id,
      body: c.body,
      bodyText: c.body,
      bodyHTML: bodyHtml(c.body),
      ...this.webUrl(`/${c.repo}/discussions/${c.discussion_number}#discussioncomment-${c.id}`),
      createdAt: c.created_at,
      updatedAt: c.updated_at,
      publishedAt: c.created_at,
      lastEditedAt: c.updated_at === c.created_at ? null : c.updated_at,
      deletedAt: null,
      author: () => this.actor(c.user),
      authorAssociation: this.association(c.user, c.repo, c.author_association),
      isAnswer,
      isMinimized: false,
      minimizedReason: null,
      replyTo: () => (c.parent_id === null ? null : this.comment(this.state.discussionComment(c.parent_id, c.repo))),
      replies: (args: PageArgs) =>
        connection(
          'DiscussionComment',
          topLevel ? this.state.discussionReplies(c.id, c.repo) : [],
          args,
          (r) => [r.id],
          (r) => this.comment(r),
        ),
      discussion: () => this.discussion(d()),
      ...this.reactable({ comment_id: c.id }, c.repo, self),
      upvoteCount: 0,
      createdViaEmail: false,
      includesCreatedEdit: false,
      viewerCanDelete: () => this.canDeleteComment(c),
      viewerCanMarkAsAnswer: () => topLevel && answerable() && !isAnswer() && this.canChooseAnswer(d()),
      viewerCanUnmarkAsAnswer: () => topLevel && answerable() && isAnswer() && this.canChooseAnswer(d()),
      viewerCanMinimize: () => this.rank(c.repo) >= ROLE_RANK.triage,
      viewerCanReact: () => this.canBypassLock(d()),
      viewerCanUpdate: () => this.isViewer(c.user) && this.canBypassLock(d()),
      viewerCannotUpdateReasons: () => (!this.isViewer(c.user) ? ['INSUFFICIENT_ACCESS'] : this.canBypassLock(d()) ? [] : ['LOCKED']),
      viewerCanUpvote: true,
      viewerDidAuthor: this.isViewer(c.user),
      viewerHasUpvoted: false,
    };
  }

  private association(login: string, repoName: string, override?: string): string {
    if (override) return override;
    const repo = this.state.repo(repoName);
    if (lower(login) === lower(repo.owner)) return 'OWNER';
    if (this.state.findUser(login)?.type === 'Bot') return 'NONE';
    const grant = repo.roles.get(lower(login));
    if (grant && ROLE_RANK[grant.base] >= ROLE_RANK.triage) return repo.ownerType === 'Organization' ? 'MEMBER' : 'COLLABORATOR';
    return 'NONE';
  }

  /**
   * `node(id:)`: discussions, discussion comments and categories, labels, repositories and accounts
   * the viewer can see. Unknown or deleted ids get GitHub's NOT_FOUND; ids of other types say they
   * are not emulated.
   */
  node(id: string): GqlObject {
    const parsed = parseNodeId(id);
    if (!parsed) throw nodeNotFound(id);
    const visible = <T extends { repo: string }>(record: T | undefined): T => {
      if (!record || !this.canSee(this.state.repo(record.repo))) throw nodeNotFound(id);
      return record;
    };
    switch (parsed.prefix) {
      case 'D':
        return this.discussion(visible(this.state.discussions.find((d) => d.id === parsed.id)));
      case 'DC':
        return this.comment(visible(this.state.discussionCommentRecords.find((c) => c.id === parsed.id)));
      case 'DIC':
        return this.category(visible(this.state.discussionCategories.find((c) => c.id === parsed.id)));
      case 'LA':
        return this.label(visible(this.state.labels.find((l) => l.id === parsed.id)));
      case 'R': {
        const repo = this.state.repos.find((r) => r.id === parsed.id);
        if (!repo || !this.canSee(repo)) throw nodeNotFound(id);
        return this.repository(repo);
      }
      case 'U':
      case 'BOT':
      case 'O': {
        const user = this.state.users.find((u) => u.id === parsed.id);
        const actor = user ? this.actor(user.login) : null;
        if (!actor) throw nodeNotFound(id);
        return actor;
      }
      default:
        throw new GraphqlFieldError(
          `github-emulator: node(id:) is not emulated for ${parsed.prefix}_ ids (only Discussion, DiscussionComment, DiscussionCategory, Label, Repository, User, Bot and Organization ids are)`,
        );
    }
  }
}
