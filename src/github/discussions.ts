// GitHub Discussions, which exist only in GraphQL: the reads and the writes that carry no text
// (reactions, labels, the accepted answer, removing a twin's comment). Text goes out through
// writes-text.ts like every other body. Every document here is checked against GitHub's published
// GraphQL schema by the tests' emulator, which executes it.
import type { GitHubClient, RepoRef } from './octokit.js';
import type { RepoWrites } from './repo-writes.js';

export interface DiscussionAuthor {
  login: string;
  type: string;
}

/** One comment of a discussion, a top-level one or a reply (with the top-level comment it answers). */
export interface DiscussionComment {
  /** The database id: GitHub hands these out in creation order. */
  id: number;
  nodeId: string;
  url: string;
  body: string;
  user: DiscussionAuthor | null;
  createdAt: string;
  /** The top-level comment a reply belongs to; undefined for a top-level comment. */
  replyTo?: string;
  isAnswer: boolean;
  reactions: { up: number; down: number };
}

export interface Discussion {
  nodeId: string;
  number: number;
  url: string;
  title: string;
  body: string;
  locked: boolean;
  createdAt: string;
  category: { name: string; slug: string; isAnswerable: boolean };
  labels: Array<{ id: string; name: string }>;
  user: DiscussionAuthor | null;
  /** The comment chosen as the answer, and who wrote it; null when none is. */
  answer: { id: number; user: DiscussionAuthor | null } | null;
}

const PAGE = 100;

const AUTHOR = 'author { login __typename }';
const COMMENT_FIELDS = `id databaseId url body createdAt isAnswer ${AUTHOR} reactionGroups { content reactors(first: 1) { totalCount } }`;
const DISCUSSION_FIELDS =
  `id number url title body locked createdAt ${AUTHOR} category { name slug isAnswerable } ` +
  `labels(first: 100) { nodes { id name } } answer { databaseId ${AUTHOR} }`;

interface RawAuthor {
  login: string;
  __typename: string;
}
interface RawComment {
  id: string;
  databaseId: number;
  url: string;
  body: string;
  createdAt: string;
  isAnswer: boolean;
  author: RawAuthor | null;
  reactionGroups: Array<{ content: string; reactors: { totalCount: number } }> | null;
}
interface RawDiscussion {
  id: string;
  number: number;
  url: string;
  title: string;
  body: string;
  locked: boolean;
  createdAt: string;
  author: RawAuthor | null;
  category: { name: string; slug: string; isAnswerable: boolean };
  labels: { nodes: Array<{ id: string; name: string }> } | null;
  answer: { databaseId: number; author: RawAuthor | null } | null;
}
interface PageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}
interface Connection<T> {
  nodes: T[];
  pageInfo: PageInfo;
}

/**
 * The cursor of the page after the one `info` ends, or undefined at the last page. A reply that
 * says there is a next page but gives no cursor, or the one it was asked after, is refused:
 * reading on would ask for the same page until the job's time ran out.
 */
function nextCursor(info: PageInfo, after: string | null, what: string): string | undefined {
  if (!info.hasNextPage) return undefined;
  if (!info.endCursor || info.endCursor === after) throw new Error(`GitHub's page of ${what} says more follow but gives no new cursor to read them after`);
  return info.endCursor;
}

// GraphQL names a bot without the `[bot]` suffix its REST login (and the steward's identity) carries.
const authorOf = (a: RawAuthor | null): DiscussionAuthor | null =>
  a ? (a.__typename === 'Bot' ? { login: a.login.endsWith('[bot]') ? a.login : `${a.login}[bot]`, type: 'Bot' } : { login: a.login, type: 'User' }) : null;
const count = (c: RawComment, content: string) => c.reactionGroups?.find((g) => g.content === content)?.reactors.totalCount ?? 0;
const commentOf = (c: RawComment, replyTo?: string): DiscussionComment => ({
  id: c.databaseId,
  nodeId: c.id,
  url: c.url,
  body: c.body,
  user: authorOf(c.author),
  createdAt: c.createdAt,
  ...(replyTo ? { replyTo } : {}),
  isAnswer: c.isAnswer,
  reactions: { up: count(c, 'THUMBS_UP'), down: count(c, 'THUMBS_DOWN') },
});
const discussionOf = (d: RawDiscussion): Discussion => ({
  nodeId: d.id,
  number: d.number,
  url: d.url,
  title: d.title,
  body: d.body,
  locked: d.locked,
  createdAt: d.createdAt,
  category: d.category,
  labels: d.labels?.nodes ?? [],
  user: authorOf(d.author),
  answer: d.answer ? { id: d.answer.databaseId, user: authorOf(d.answer.author) } : null,
});

/** A discussion by its number; undefined when there is none. */
export async function readDiscussion(github: GitHubClient, repo: RepoRef, number: number): Promise<Discussion | undefined> {
  const data = await github.graphql<{ repository: { discussion: RawDiscussion | null } }>(
    `query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { discussion(number: $number) { ${DISCUSSION_FIELDS} } } }`,
    { owner: repo.owner, name: repo.repo, number },
  );
  const d = data.repository.discussion;
  return d ? discussionOf(d) : undefined;
}

/** A top-level comment with the first page of its replies. */
type TopLevelComment = RawComment & { replies: Connection<RawComment> };

/** A discussion's `comments` connection: `first` top-level comments (after `$after` when `paged`), each with its first `replies` replies. */
const commentsConnection = (first: number, replies: number, paged: boolean) =>
  `comments(first: ${first}${paged ? ', after: $after' : ''}) {
    nodes { ${COMMENT_FIELDS} replies(first: ${replies}) { nodes { ${COMMENT_FIELDS} } pageInfo { hasNextPage endCursor } } }
    pageInfo { hasNextPage endCursor } }`;

/**
 * Every comment of a discussion, top-level ones and their replies, oldest first. `firstPage`: the
 * first page of its comments when a query that read the discussion read them too (discussionsSince):
 * only the pages past it are asked for.
 */
export async function discussionComments(github: GitHubClient, discussionId: string, firstPage?: Connection<TopLevelComment>): Promise<DiscussionComment[]> {
  const comments: DiscussionComment[] = [];
  let page = firstPage;
  for (let after: string | null = null; ;) {
    if (!page) {
      const node = await nodeUnlessGone<{ comments: Connection<TopLevelComment> }>(
        github,
        `query($id: ID!, $after: String) { node(id: $id) { ... on Discussion { ${commentsConnection(PAGE, PAGE, true)} } } }`,
        { id: discussionId, after },
      );
      page = node?.comments;
      // Deleted meanwhile: what was read of it stands.
      if (!page) return comments.sort((a, b) => a.id - b.id);
    }
    for (const top of page.nodes) {
      comments.push(commentOf(top));
      comments.push(...(await allReplies(github, top)).map((r) => commentOf(r, top.id)));
    }
    const next = nextCursor(page.pageInfo, after, 'discussion comments');
    if (next === undefined) return comments.sort((a, b) => a.id - b.id);
    after = next;
    page = undefined;
  }
}

/** A top-level comment's replies, past the first page when it has more. */
async function allReplies(github: GitHubClient, top: TopLevelComment): Promise<RawComment[]> {
  const replies = [...top.replies.nodes];
  for (let after = nextCursor(top.replies.pageInfo, null, 'replies'); after !== undefined;) {
    const node = await nodeUnlessGone<{ replies: Connection<RawComment> }>(
      github,
      `query($id: ID!, $after: String) { node(id: $id) { ... on DiscussionComment { replies(first: ${PAGE}, after: $after) {
        nodes { ${COMMENT_FIELDS} } pageInfo { hasNextPage endCursor } } } } }`,
      { id: top.id, after },
    );
    // The comment deleted meanwhile: the replies read stand.
    if (!node) break;
    replies.push(...node.replies.nodes);
    after = nextCursor(node.replies.pageInfo, after, 'replies');
  }
  return replies;
}

/**
 * A `node(id:)` query's node; null when GitHub no longer has it (deleted since its id was read),
 * which GitHub says with a NOT_FOUND error at the node (and `node: null`), not with null alone. Any
 * other error is thrown.
 */
async function nodeUnlessGone<T>(github: GitHubClient, query: string, variables: Record<string, unknown>): Promise<T | null> {
  const data = await github.graphql<{ node: T | null }>(query, variables).catch((error: unknown) => {
    if (isGoneNode(error)) return { node: null };
    throw error;
  });
  return data.node;
}

/** Whether a failed read is GitHub saying the node asked for is not there: NOT_FOUND, at the query's `node`, and nothing else. */
const isGoneNode = (error: unknown): boolean =>
  graphqlErrors(error)?.every((e) => e.type === 'NOT_FOUND' && (e.path === undefined || (Array.isArray(e.path) && e.path[0] === 'node'))) ?? false;

/**
 * The errors GitHub answered a query with (octokit's GraphqlResponseError: HTTP 200 with `errors`);
 * undefined for any other failure (an HTTP failure is a RequestError, with a status) or none listed.
 */
function graphqlErrors(error: unknown): Array<{ message?: unknown; type?: unknown; path?: unknown }> | undefined {
  if (!(error instanceof Error) || error.name !== 'GraphqlResponseError') return undefined;
  const errors = (error as Error & { errors?: unknown }).errors;
  return Array.isArray(errors) && errors.length > 0 && errors.every((e) => typeof e === 'object' && e !== null) ? errors : undefined;
}

/** Whether a discussion comment still exists (a `/wiki ask` comment may be deleted before its run). */
export async function discussionCommentExists(github: GitHubClient, nodeId: string): Promise<boolean> {
  return (await nodeUnlessGone<{ id: string }>(github, `query($id: ID!) { node(id: $id) { ... on DiscussionComment { id } } }`, { id: nodeId })) !== null;
}

/**
 * What GitHub says of a repository whose Discussions are turned off ("Repository does not have
 * discussions enabled"): an error about the feature itself. Nothing else means "no discussions": a
 * token without the `discussions` permission (FORBIDDEN "Resource not accessible by integration"),
 * a rate limit, GitHub's "Something went wrong", a missing repository, or an HTTP or network failure.
 */
const DISCUSSIONS_OFF = /\bdoes not have discussions enabled\b|\bdiscussions (?:are|is) (?:not enabled|disabled)\b/i;

/** Whether a failed read of `repository.discussions` is GitHub saying the repository has Discussions turned off. */
function isDiscussionsOff(error: unknown): boolean {
  const errors = graphqlErrors(error);
  if (errors === undefined) return false;
  return errors.every((e) => {
    if (typeof e.message !== 'string' || !DISCUSSIONS_OFF.test(e.message)) return false;
    if (e.type === 'FORBIDDEN' || e.type === 'RATE_LIMITED') return false;
    // At the read of the repository's discussions, when GitHub says where.
    return e.path === undefined || (Array.isArray(e.path) && e.path[0] === 'repository');
  });
}

interface DiscussionsPage {
  repository: { discussions: Connection<RawDiscussion & { updatedAt: string; comments: Connection<TopLevelComment> }> };
}

/**
 * The digest's read of discussions: this many a query, each with its first comments and their first
 * replies, so a period's discussions cost a query per DIGEST_DISCUSSIONS rather than one each (one
 * with more comments or replies reads the rest as discussionComments does). Small enough that a
 * query stays far under GitHub's limit of 500,000 nodes a query: 20 × 50 × 20 replies.
 */
const DIGEST_DISCUSSIONS = { discussions: 20, comments: 50, replies: 20 };

/**
 * The discussions updated since `since`, newest first, with their comments (for the digest). A
 * repository with Discussions turned off has none: GitHub answers its (empty) connection, or the
 * error isDiscussionsOff knows; any other failure is thrown as every other read's is.
 */
export async function discussionsSince(github: GitHubClient, repo: RepoRef, since: Date): Promise<Array<Discussion & { comments: DiscussionComment[] }>> {
  const found: Array<Discussion & { comments: DiscussionComment[] }> = [];
  for (let after: string | null = null; ;) {
    const first = after === null;
    const data: DiscussionsPage | undefined = await github
      .graphql<DiscussionsPage>(
        `query($owner: String!, $name: String!, $after: String) { repository(owner: $owner, name: $name) {
        discussions(first: ${DIGEST_DISCUSSIONS.discussions}, after: $after, orderBy: { field: UPDATED_AT, direction: DESC }) {
          nodes { ${DISCUSSION_FIELDS} updatedAt ${commentsConnection(DIGEST_DISCUSSIONS.comments, DIGEST_DISCUSSIONS.replies, false)} }
          pageInfo { hasNextPage endCursor } } } }`,
        { owner: repo.owner, name: repo.repo, after },
      )
      .catch((error: unknown) => {
        // Only the first page can say the feature is off; a later page failing is a failed read.
        if (first && isDiscussionsOff(error)) return undefined;
        throw error;
      });
    if (!data) return found;
    const page: DiscussionsPage['repository']['discussions'] = data.repository.discussions;
    for (const d of page.nodes) {
      if (new Date(d.updatedAt) < since) return found;
      found.push({ ...discussionOf(d), comments: await discussionComments(github, d.id, d.comments) });
    }
    const next = nextCursor(page.pageInfo, after, 'discussions');
    if (next === undefined) return found;
    after = next;
  }
}

export type ReactionContent = 'EYES' | 'CONFUSED';

/** The steward's reaction on a discussion or comment (GitHub keeps one per account and content: adding twice is no error). */
export async function setDiscussionReaction(
  github: GitHubClient,
  writes: RepoWrites,
  subjectId: string,
  content: ReactionContent,
  on: boolean,
): Promise<boolean> {
  const mutation = on ? 'addReaction' : 'removeReaction';
  return writes.run(
    `POST /graphql ${mutation} ${content} on ${subjectId}`,
    async () => {
      await github.graphql(
        `mutation($id: ID!, $content: ReactionContent!) { ${mutation}(input: { subjectId: $id, content: $content }) { clientMutationId } }`,
        {
          id: subjectId,
          content,
        },
      );
      return true;
    },
    false,
  );
}

/**
 * Adds and removes labels on a discussion, by name. GraphQL names labels by node id: each is looked
 * up inside its write, so a dry run (which creates no missing label) looks nothing up either.
 */
export async function changeDiscussionLabels(
  github: GitHubClient,
  writes: RepoWrites,
  repo: RepoRef,
  discussionId: string,
  change: { add: string[]; remove: string[] },
): Promise<void> {
  for (const [mutation, names] of [
    ['removeLabelsFromLabelable', change.remove],
    ['addLabelsToLabelable', change.add],
  ] as const) {
    if (names.length === 0) continue;
    await writes.run(
      `POST /graphql ${mutation} ${names.join(', ')} on ${discussionId}`,
      async () => {
        const ids: string[] = [];
        for (const name of names) {
          const id = await labelNodeId(github, repo, name);
          if (!id) throw new Error(`the repository has no label '${name}'`);
          ids.push(id);
        }
        await github.graphql(`mutation($id: ID!, $labels: [ID!]!) { ${mutation}(input: { labelableId: $id, labelIds: $labels }) { clientMutationId } }`, {
          id: discussionId,
          labels: ids,
        });
      },
      undefined,
    );
  }
}

/** A label's node id, by name; undefined when the repository has none of that name. */
async function labelNodeId(github: GitHubClient, repo: RepoRef, name: string): Promise<string | undefined> {
  const data = await github.graphql<{ repository: { label: { id: string } | null } }>(
    `query($owner: String!, $name: String!, $label: String!) { repository(owner: $owner, name: $name) { label(name: $label) { id } } }`,
    { owner: repo.owner, name: repo.repo, label: name },
  );
  return data.repository.label?.id;
}

/** Removes one of the steward's discussion comments (a twin run's); one already gone is no error. */
export async function deleteDiscussionComment(github: GitHubClient, writes: RepoWrites, nodeId: string): Promise<void> {
  await writes.run(
    `POST /graphql deleteDiscussionComment ${nodeId} (a twin run's comment)`,
    async () => {
      if (await discussionCommentExists(github, nodeId))
        await github.graphql(`mutation($id: ID!) { deleteDiscussionComment(input: { id: $id }) { clientMutationId } }`, { id: nodeId });
    },
    undefined,
  );
}

/** Marks a top-level comment as the discussion's answer. */
export async function markDiscussionAnswer(github: GitHubClient, writes: RepoWrites, nodeId: string): Promise<void> {
  await writes.run(
    `POST /graphql markDiscussionCommentAsAnswer ${nodeId}`,
    () => github.graphql(`mutation($id: ID!) { markDiscussionCommentAsAnswer(input: { id: $id }) { clientMutationId } }`, { id: nodeId }),
    undefined,
  );
}
