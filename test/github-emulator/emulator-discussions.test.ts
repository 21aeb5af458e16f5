// GitHub Discussions in the emulator: GraphQL only, as on GitHub. Queries and mutations go through a
// real octokit's `graphql` (or a bare fetch where the whole error answer matters), are executed
// with graphql-js against GitHub's published schema over the state, and every answer is checked
// again against that schema after each test (closeCheckingResponses). The webhook payloads are
// typed by @octokit/openapi-types and checked here at run time against the same declarations.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GitHubEmulator, startGitHubEmulator } from './emulator.js';
import { checkGraphqlResponse, loadGithubGraphqlSchema } from './graphql.js';
import { createTestOctokit } from './test-octokit.js';
import { closeCheckingResponses } from './test-support.js';

let emu: GitHubEmulator;
afterEach(() => closeCheckingResponses(emu));

const TOKENS = {
  ghs_bot: { login: 'github-actions[bot]' },
  ghs_readonly: { login: 'github-actions[bot]', discussions: 'read' as const },
  ghp_alice: { login: 'alice' },
  ghp_bob: { login: 'bob' },
  ghp_maya: { login: 'maya' },
};
const R = { owner: 'octo-org', name: 'wiki' };

async function start(): Promise<void> {
  emu = await startGitHubEmulator({ tokens: TOKENS });
  emu.state.setPermission('maya', 'maintain');
  emu.state.setPermission('bob', 'read');
}

/** A real octokit's graphql, as the Action makes its calls. */
const gql = <T = Record<string, any>>(query: string, variables: Record<string, unknown> = {}, token = 'ghs_bot') =>
  createTestOctokit(emu.url, token).octokit.graphql<T>(query, variables);

/** The whole answer (data and errors), as GitHub sends it. */
async function post(query: string, variables: Record<string, unknown> = {}, token = 'ghs_bot'): Promise<{ status: number; body: Record<string, any> }> {
  const res = await fetch(`${emu.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const ADD_COMMENT = `mutation($id: ID!, $body: String!, $replyTo: ID) {
  addDiscussionComment(input: {discussionId: $id, body: $body, replyToId: $replyTo}) { comment { id databaseId url body replyTo { id } } }
}`;
const MARK = 'mutation($id: ID!) { markDiscussionCommentAsAnswer(input: {id: $id}) { discussion { id answer { id } isAnswered } } }';

describe('Discussions: queries', () => {
  beforeEach(start);

  it('answers repository { discussion(number:) } with its author, category, labels, answer, comments, replies and reactions', async () => {
    emu.state.addIssue({ number: 1, title: 'An issue', user: 'alice' });
    const d = emu.state.addDiscussion({ title: 'How do we deploy?', body: 'Asking.', user: 'alice', category: 'Q&A', labels: ['question'] });
    expect(d.number).toBe(2); // issues, pull requests and discussions share one number sequence
    expect(emu.state.addIssue({ title: 'next' }).number).toBe(3);
    const top = emu.state.addDiscussionComment(2, { body: 'See the runbook.', user: 'github-actions[bot]' });
    const reply = emu.state.addDiscussionComment(2, { body: 'Thanks!', user: 'alice', replyTo: top.id });
    emu.state.markDiscussionAnswer(top.id, 'alice');
    emu.state.addDiscussionReaction({ discussion_number: 2, content: '+1', user: 'github-actions[bot]' });
    emu.state.addDiscussionReaction({ discussion_number: 2, content: '+1', user: 'bob' });

    const data = await gql(
      `query($owner: String!, $name: String!, $n: Int!) {
        repository(owner: $owner, name: $name) {
          id nameWithOwner
          label(name: "question") { id name }
          missing: label(name: "nope") { id }
          discussion(number: $n) {
            id number title body url createdAt updatedAt locked isAnswered
            author { login __typename }
            category { id name slug isAnswerable }
            labels(first: 10) { nodes { id name } }
            answer { id databaseId url body author { login } }
            comments(first: 10) {
              totalCount
              nodes {
                id databaseId body url isAnswer createdAt updatedAt
                author { __typename login }
                replyTo { id }
                discussion { id number }
                replies(first: 10) { totalCount nodes { id body isAnswer replyTo { id } author { login } } }
              }
            }
            reactionGroups { content reactors(first: 0) { totalCount } viewerHasReacted }
          }
        }
      }`,
      { ...R, n: 2 },
    );
    const repo = emu.state.repo();
    expect(data.repository).toMatchObject({ id: repo.node_id, nameWithOwner: 'octo-org/wiki', missing: null });
    expect(data.repository.label).toEqual({ id: emu.state.findLabel('question')!.node_id, name: 'question' });
    const disc = data.repository.discussion;
    expect(disc).toMatchObject({
      id: d.node_id,
      number: 2,
      title: 'How do we deploy?',
      body: 'Asking.',
      url: 'http://github.test/octo-org/wiki/discussions/2',
      locked: false,
      isAnswered: true,
      author: { login: 'alice', __typename: 'User' },
      category: { name: 'Q&A', slug: 'q-a', isAnswerable: true, id: expect.stringMatching(/^DIC_/) },
      labels: { nodes: [{ name: 'question', id: expect.stringMatching(/^LA_/) }] },
      answer: { id: top.node_id, databaseId: top.id, body: 'See the runbook.', author: { login: 'github-actions' } },
    });
    expect(disc.id).toMatch(/^D_/);
    expect(disc.comments.totalCount).toBe(1); // top-level comments only
    const [c] = disc.comments.nodes;
    expect(c).toMatchObject({
      id: top.node_id,
      url: `http://github.test/octo-org/wiki/discussions/2#discussioncomment-${top.id}`,
      isAnswer: true,
      // GraphQL names a bot without "[bot]", as GitHub does.
      author: { __typename: 'Bot', login: 'github-actions' },
      replyTo: null,
      discussion: { id: d.node_id, number: 2 },
      replies: { totalCount: 1, nodes: [{ id: reply.node_id, body: 'Thanks!', isAnswer: false, replyTo: { id: top.node_id }, author: { login: 'alice' } }] },
    });
    expect(c.id).toMatch(/^DC_/);
    // All eight groups, in GitHub's order; the viewer (github-actions[bot]) gave one of the thumbs up.
    expect(disc.reactionGroups.map((g: any) => g.content)).toEqual(['THUMBS_UP', 'THUMBS_DOWN', 'LAUGH', 'HOORAY', 'CONFUSED', 'HEART', 'ROCKET', 'EYES']);
    expect(disc.reactionGroups[0]).toEqual({ content: 'THUMBS_UP', reactors: { totalCount: 2 }, viewerHasReacted: true });
    expect(disc.reactionGroups[1]).toEqual({ content: 'THUMBS_DOWN', reactors: { totalCount: 0 }, viewerHasReacted: false });
    expect(emu.writes()).toEqual([]);
  });

  it('lists categories and pages discussions: first/after, orderBy, categoryId, totalCount; pagination boundaries are required', async () => {
    const categories = await gql(
      `{ repository(owner: "octo-org", name: "wiki") { discussionCategories(first: 10) { nodes { id name slug emoji isAnswerable } } } }`,
    );
    expect(categories.repository.discussionCategories.nodes.map((c: any) => [c.name, c.isAnswerable])).toEqual([
      ['Announcements', false],
      ['General', false],
      ['Ideas', false],
      ['Polls', false],
      ['Q&A', true],
      ['Show and tell', false],
    ]);
    const qa = emu.state.discussionCategory('Q&A');
    for (let i = 1; i <= 5; i++)
      emu.state.addDiscussion({
        title: `D${i}`,
        category: i % 2 ? 'Q&A' : 'Ideas',
        created_at: `2024-01-0${i}T00:00:00Z`,
        updated_at: `2024-02-0${6 - i}T00:00:00Z`,
      });
    const page = (after: string | null, extra = '') =>
      gql(
        `query($after: String) { repository(owner: "octo-org", name: "wiki") {
          discussions(first: 2, after: $after${extra}) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { title } } nodes { title } }
        } }`,
        { after },
      );
    // Default order: UPDATED_AT DESC (D1 was updated last).
    const titles: string[] = [];
    let after: string | null = null;
    for (;;) {
      const p: any = (await page(after)).repository.discussions;
      expect(p.totalCount).toBe(5);
      expect(p.edges.map((e: any) => e.node.title)).toEqual(p.nodes.map((n: any) => n.title));
      titles.push(...p.nodes.map((n: any) => n.title));
      if (!p.pageInfo.hasNextPage) break;
      after = p.pageInfo.endCursor;
    }
    expect(titles).toEqual(['D1', 'D2', 'D3', 'D4', 'D5']);
    const created = (await page(null, ', orderBy: {field: CREATED_AT, direction: DESC}')).repository.discussions;
    expect(created.nodes.map((n: any) => n.title)).toEqual(['D5', 'D4']);
    const inQa = (await page(null, `, categoryId: "${qa.node_id}", orderBy: {field: CREATED_AT, direction: ASC}`)).repository.discussions;
    expect(inQa).toMatchObject({ totalCount: 3, nodes: [{ title: 'D1' }, { title: 'D3' }], pageInfo: { hasNextPage: true } });

    const unbounded = await post('{ repository(owner: "octo-org", name: "wiki") { discussions { totalCount } } }');
    expect(unbounded.body).toEqual({
      data: { repository: null },
      errors: [
        {
          type: 'MISSING_PAGINATION_BOUNDARIES',
          message: 'You must provide a `first` or `last` value to properly paginate the `Discussion` connection.',
          locations: [{ line: 1, column: 49 }],
          path: ['repository', 'discussions'],
        },
      ],
    });
    const tooMany = await post('{ repository(owner: "octo-org", name: "wiki") { discussions(first: 101) { totalCount } } }');
    expect(tooMany.body.errors[0]).toMatchObject({
      type: 'EXCESSIVE_PAGINATION',
      message: expect.stringContaining('exceeds the `first` limit of 100 records'),
    });
  });

  it('pages comments and replies oldest first, and unknown repositories and numbers answer NOT_FOUND', async () => {
    emu.state.addDiscussion({ number: 4, title: 'Q', category: 'Q&A' });
    const ids = [1, 2, 3].map((i) => emu.state.addDiscussionComment(4, { body: `c${i}`, user: 'alice' }).id);
    for (let i = 1; i <= 3; i++) emu.state.addDiscussionComment(4, { body: `r${i}`, user: 'bob', replyTo: ids[0]! });
    const q = `query($after: String) { repository(owner: "octo-org", name: "wiki") { discussion(number: 4) {
      comments(first: 2, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { body replies(last: 2) { pageInfo { hasPreviousPage } nodes { body } } } }
    } } }`;
    const first = (await gql(q, { after: null })).repository.discussion.comments;
    expect(first.nodes.map((n: any) => n.body)).toEqual(['c1', 'c2']);
    expect(first.nodes[0].replies).toEqual({ pageInfo: { hasPreviousPage: true }, nodes: [{ body: 'r2' }, { body: 'r3' }] });
    // A cursor is a position in the order, not an index: deleting a comment before it moves nothing.
    emu.state.deleteDiscussionComment(ids[0]!);
    const second = (await gql(q, { after: first.pageInfo.endCursor })).repository.discussion.comments;
    expect(second).toMatchObject({ totalCount: 2, pageInfo: { hasNextPage: false }, nodes: [{ body: 'c3' }] });

    const missing = await post('{ repository(owner: "octo-org", name: "wiki") { discussion(number: 99) { id } } }');
    expect(missing.body).toMatchObject({
      data: { repository: { discussion: null } },
      errors: [{ type: 'NOT_FOUND', message: 'Could not resolve to a Discussion with the number of 99.', path: ['repository', 'discussion'] }],
    });
    const noRepo = await post('{ repository(owner: "octo-org", name: "nope") { id } }');
    expect(noRepo.body).toMatchObject({
      data: { repository: null },
      errors: [{ type: 'NOT_FOUND', message: "Could not resolve to a Repository with the name 'octo-org/nope'." }],
    });
    const badCursor = await post(
      '{ repository(owner: "octo-org", name: "wiki") { discussion(number: 4) { comments(first: 1, after: "xyz") { totalCount } } } }',
    );
    expect(badCursor.body.errors[0]).toMatchObject({ type: 'INVALID_CURSOR_ARGUMENTS' });
  });

  it('node(id:) resolves discussions and comments (fragments, __typename); unknown and deleted ids are null with NOT_FOUND', async () => {
    const d = emu.state.addDiscussion({ title: 'Q', user: 'alice' });
    const c = emu.state.addDiscussionComment(d.number, { body: 'hi', user: 'bob' });
    const q = `query($id: ID!) { node(id: $id) { __typename id ... on Discussion { number title } ... on DiscussionComment { body discussion { number } } } }`;
    expect((await gql(q, { id: d.node_id })).node).toEqual({ __typename: 'Discussion', id: d.node_id, number: d.number, title: 'Q' });
    expect((await gql(q, { id: c.node_id })).node).toEqual({ __typename: 'DiscussionComment', id: c.node_id, body: 'hi', discussion: { number: d.number } });
    // Without __typename the answer is still checked against the schema (the type is told from the keys).
    expect((await gql('query($id: ID!) { node(id: $id) { id ... on Discussion { title } } }', { id: d.node_id })).node).toEqual({ id: d.node_id, title: 'Q' });
    const nodes = await post('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: [d.node_id, 'D_kwDOnope'] });
    expect(nodes.body).toMatchObject({ data: { nodes: [{ id: d.node_id }, null] }, errors: [{ type: 'NOT_FOUND', path: ['nodes', 1] }] });
    emu.state.deleteDiscussionComment(c.id);
    const gone = await post(q, { id: c.node_id });
    expect(gone.body).toMatchObject({
      data: { node: null },
      errors: [{ type: 'NOT_FOUND', message: `Could not resolve to a node with the global id of '${c.node_id}'`, path: ['node'] }],
    });
  });
});

describe('Discussions: mutations', () => {
  beforeEach(start);

  it('adds comments and replies; a reply to a reply is attached to the top-level comment, as on GitHub', async () => {
    const d = emu.state.addDiscussion({ title: 'Q', user: 'alice', category: 'Q&A' });
    const top = (await gql(ADD_COMMENT, { id: d.node_id, body: 'Top' })).addDiscussionComment.comment;
    const record = emu.state.discussionComments(d.number)[0]!;
    expect(top).toEqual({
      id: record.node_id,
      databaseId: record.id,
      url: `http://github.test/octo-org/wiki/discussions/${d.number}#discussioncomment-${record.id}`,
      body: 'Top',
      replyTo: null,
    });
    const reply = (await gql(ADD_COMMENT, { id: d.node_id, body: 'Reply', replyTo: top.id }, 'ghp_alice')).addDiscussionComment.comment;
    expect(reply.replyTo).toEqual({ id: top.id });
    const nested = (await gql(ADD_COMMENT, { id: d.node_id, body: 'Reply to the reply', replyTo: reply.id }, 'ghp_bob')).addDiscussionComment.comment;
    expect(nested.replyTo).toEqual({ id: top.id });
    expect(emu.state.discussionReplies(record.id).map((r) => [r.body, r.user])).toEqual([
      ['Reply', 'alice'],
      ['Reply to the reply', 'bob'],
    ]);
    expect(emu.state.discussionComments(d.number)).toHaveLength(1);
    // Mutations are writes.
    expect(emu.writes({ successfulOnly: true }).map((r) => r.route)).toEqual(['/graphql', '/graphql', '/graphql']);

    const tooLong = await post(ADD_COMMENT, { id: d.node_id, body: 'x'.repeat(65_537) });
    expect(tooLong.body).toMatchObject({
      data: { addDiscussionComment: null },
      errors: [{ type: 'UNPROCESSABLE', message: 'Body is too long (maximum is 65536 characters)', path: ['addDiscussionComment'] }],
    });
    const blank = await post(ADD_COMMENT, { id: d.node_id, body: '  ' });
    expect(blank.body.errors[0]).toMatchObject({ message: "Body can't be blank" });
    const unknown = await post(ADD_COMMENT, { id: 'D_kwDOnope', body: 'x' });
    expect(unknown.body.errors[0]).toMatchObject({ type: 'NOT_FOUND', message: "Could not resolve to a node with the global id of 'D_kwDOnope'" });
    expect(emu.state.allDiscussionComments(d.number)).toHaveLength(3);
  });

  it('refuses every mutation to a token without discussions: write, as GitHub answers in GraphQL', async () => {
    const d = emu.state.addDiscussion({ title: 'Q', user: 'alice', category: 'Q&A' });
    const c = emu.state.addDiscussionComment(d.number, { body: 'hi', user: 'github-actions[bot]' });
    const label = emu.state.addLabel({ name: 'answered' });
    const attempts: Array<[string, string, Record<string, unknown>]> = [
      ['addDiscussionComment', ADD_COMMENT, { id: d.node_id, body: 'x' }],
      ['updateDiscussionComment', 'mutation($id: ID!) { updateDiscussionComment(input: {commentId: $id, body: "y"}) { comment { id } } }', { id: c.node_id }],
      ['deleteDiscussionComment', 'mutation($id: ID!) { deleteDiscussionComment(input: {id: $id}) { comment { id } } }', { id: c.node_id }],
      ['markDiscussionCommentAsAnswer', MARK, { id: c.node_id }],
      ['unmarkDiscussionCommentAsAnswer', 'mutation($id: ID!) { unmarkDiscussionCommentAsAnswer(input: {id: $id}) { discussion { id } } }', { id: c.node_id }],
      ['addReaction', 'mutation($id: ID!) { addReaction(input: {subjectId: $id, content: EYES}) { reaction { content } } }', { id: d.node_id }],
      ['removeReaction', 'mutation($id: ID!) { removeReaction(input: {subjectId: $id, content: EYES}) { reaction { content } } }', { id: d.node_id }],
      [
        'addLabelsToLabelable',
        'mutation($id: ID!, $l: [ID!]!) { addLabelsToLabelable(input: {labelableId: $id, labelIds: $l}) { clientMutationId } }',
        { id: d.node_id, l: [label.node_id] },
      ],
      [
        'removeLabelsFromLabelable',
        'mutation($id: ID!, $l: [ID!]!) { removeLabelsFromLabelable(input: {labelableId: $id, labelIds: $l}) { clientMutationId } }',
        { id: d.node_id, l: [label.node_id] },
      ],
    ];
    for (const [field, query, variables] of attempts) {
      const answer = await post(query, variables, 'ghs_readonly');
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        data: { [field]: null },
        errors: [
          {
            type: 'FORBIDDEN',
            message: 'Resource not accessible by integration',
            path: [field],
            locations: [{ line: expect.any(Number), column: expect.any(Number) }],
          },
        ],
      });
    }
    expect(emu.state.allDiscussionComments(d.number).map((x) => x.body)).toEqual(['hi']);
    expect(emu.state.discussionReactions).toEqual([]);
    expect(emu.writes()).toHaveLength(attempts.length);
  });

  it('only the author updates a comment; the author or write access deletes it; a locked discussion refuses bots and readers', async () => {
    const d = emu.state.addDiscussion({ title: 'Q', user: 'alice' });
    const c = emu.state.addDiscussionComment(d.number, { body: 'by alice', user: 'alice' });
    const UPDATE = 'mutation($id: ID!, $b: String!) { updateDiscussionComment(input: {commentId: $id, body: $b}) { comment { id body updatedAt } } }';
    const byBot = await post(UPDATE, { id: c.node_id, b: 'hijacked' });
    expect(byBot.body.errors[0]).toMatchObject({
      type: 'FORBIDDEN',
      message: 'github-actions[bot] does not have the correct permissions to execute `UpdateDiscussionComment`',
    });
    expect((await gql(UPDATE, { id: c.node_id, b: 'edited' }, 'ghp_alice')).updateDiscussionComment.comment.body).toBe('edited');

    emu.state.lockDiscussion(d.number, 'resolved');
    const locked = await post(ADD_COMMENT, { id: d.node_id, body: 'late' });
    expect(locked.body.errors[0]).toMatchObject({ type: 'FORBIDDEN', message: 'Unable to create comment because discussion is locked.' });
    expect((await post(ADD_COMMENT, { id: d.node_id, body: 'late' }, 'ghp_bob')).body.errors[0].type).toBe('FORBIDDEN');
    // A maintainer (a User with write access or more) still may.
    expect((await gql(ADD_COMMENT, { id: d.node_id, body: 'maintainer note' }, 'ghp_maya')).addDiscussionComment.comment.body).toBe('maintainer note');

    const DELETE = 'mutation($id: ID!) { deleteDiscussionComment(input: {id: $id}) { comment { id } } }';
    expect((await post(DELETE, { id: c.node_id }, 'ghp_bob')).body.errors[0].type).toBe('FORBIDDEN');
    expect((await gql(DELETE, { id: c.node_id })).deleteDiscussionComment.comment).toEqual({ id: c.node_id });
    expect(emu.state.findDiscussionComment(c.id)).toBeUndefined();
  });

  it('marks an answer only in an answerable category and only on a top-level comment; a new answer replaces the old; unmark clears it', async () => {
    const general = emu.state.addDiscussion({ title: 'Chat', user: 'alice', category: 'General' });
    const chat = emu.state.addDiscussionComment(general.number, { body: 'hello' });
    const notAnswerable = await post(MARK, { id: chat.node_id });
    expect(notAnswerable.body).toMatchObject({
      data: { markDiscussionCommentAsAnswer: null },
      errors: [{ type: 'UNPROCESSABLE', message: 'Discussion category does not accept answers', path: ['markDiscussionCommentAsAnswer'] }],
    });

    const d = emu.state.addDiscussion({ title: 'How?', user: 'alice', category: 'Q&A' });
    const first = emu.state.addDiscussionComment(d.number, { body: 'first', user: 'github-actions[bot]' });
    const second = emu.state.addDiscussionComment(d.number, { body: 'second', user: 'bob' });
    const reply = emu.state.addDiscussionComment(d.number, { body: 'a reply', user: 'bob', replyTo: first.id });
    const onReply = await post(MARK, { id: reply.node_id });
    expect(onReply.body.errors[0]).toMatchObject({ type: 'UNPROCESSABLE', message: 'Only top-level comments can be marked as the answer' });
    // Neither the author nor triage: bob (read) may not choose.
    expect((await post(MARK, { id: second.node_id }, 'ghp_bob')).body.errors[0].type).toBe('FORBIDDEN');

    expect((await gql(MARK, { id: first.node_id })).markDiscussionCommentAsAnswer.discussion).toEqual({
      id: d.node_id,
      answer: { id: first.node_id },
      isAnswered: true,
    });
    expect(emu.state.discussion(d.number)).toMatchObject({ answer_comment_id: first.id, answer_chosen_by: 'github-actions[bot]' });
    // The discussion's author chooses another: it replaces the first.
    expect((await gql(MARK, { id: second.node_id }, 'ghp_alice')).markDiscussionCommentAsAnswer.discussion.answer).toEqual({ id: second.node_id });
    const flags = await gql(
      `{ repository(owner: "octo-org", name: "wiki") { discussion(number: ${d.number}) { comments(first: 5) { nodes { isAnswer viewerCanMarkAsAnswer } } } } }`,
    );
    expect(flags.repository.discussion.comments.nodes).toEqual([
      { isAnswer: false, viewerCanMarkAsAnswer: true },
      { isAnswer: true, viewerCanMarkAsAnswer: false },
    ]);

    const UNMARK = 'mutation($id: ID!) { unmarkDiscussionCommentAsAnswer(input: {id: $id}) { discussion { answer { id } isAnswered } } }';
    expect((await gql(UNMARK, { id: second.node_id })).unmarkDiscussionCommentAsAnswer.discussion).toEqual({ answer: null, isAnswered: false });
    expect(emu.state.discussion(d.number).answer_comment_id).toBeNull();
    // Deleting the answer clears it too.
    emu.state.markDiscussionAnswer(first.id, 'alice');
    emu.state.deleteDiscussionComment(first.id);
    expect(emu.state.discussion(d.number)).toMatchObject({ answer_comment_id: null, answer_chosen_at: null });
    expect(emu.state.findDiscussionComment(reply.id)).toBeUndefined(); // its replies went with it
  });

  it('a fault can be injected on one mutation by its field name: markDiscussionCommentAsAnswer fails once, then works', async () => {
    const d = emu.state.addDiscussion({ title: 'How?', user: 'alice', category: 'Q&A' });
    const c = emu.state.addDiscussionComment(d.number, { body: 'answer' });
    emu.faults.graphqlError({ field: 'markDiscussionCommentAsAnswer' });
    // Other GraphQL requests are not matched.
    expect((await gql(ADD_COMMENT, { id: d.node_id, body: 'unaffected' })).addDiscussionComment.comment.body).toBe('unaffected');
    const failed = await post(`mutation($id: ID!) { chosen: markDiscussionCommentAsAnswer(input: {id: $id}) { discussion { id } } }`, { id: c.node_id });
    expect(failed).toEqual({
      status: 200,
      body: { data: { chosen: null }, errors: [{ message: expect.stringMatching(/^Something went wrong while executing your query/), path: ['chosen'] }] },
    });
    expect(emu.state.discussion(d.number).answer_comment_id).toBeNull(); // the fault changed nothing
    // Through octokit the error is a thrown GraphqlResponseError; the retry then succeeds.
    emu.faults.graphqlError({ field: /^markDiscussion/, type: 'SERVICE_UNAVAILABLE', message: 'try later' });
    await expect(gql(MARK, { id: c.node_id })).rejects.toMatchObject({ errors: [{ type: 'SERVICE_UNAVAILABLE', message: 'try later' }] });
    expect((await gql(MARK, { id: c.node_id })).markDiscussionCommentAsAnswer.discussion.answer).toEqual({ id: c.node_id });
    expect(emu.requests.filter((r) => r.faulted)).toHaveLength(2);
    expect(emu.writes().length).toBe(4);
    // A plain HTTP fault matches the field too.
    emu.faults.serverError({ match: { route: '/graphql', graphql: 'addReaction', operation: 'mutation' } });
    const react = await gql('mutation($id: ID!) { addReaction(input: {subjectId: $id, content: HEART}) { reaction { content } } }', { id: c.node_id });
    expect(react.addReaction.reaction).toEqual({ content: 'HEART' });
    expect(emu.requests.slice(-2).map((r) => r.status)).toEqual([502, 200]);
  });

  it('reactions: the viewer’s own, idempotent, on discussions and comments; removeReaction takes it back', async () => {
    const d = emu.state.addDiscussion({ title: 'Q', user: 'alice' });
    const c = emu.state.addDiscussionComment(d.number, { body: 'hi', user: 'bob' });
    const ADD = 'mutation($id: ID!, $c: ReactionContent!) { addReaction(input: {subjectId: $id, content: $c}) { reaction { content } subject { id } } }';
    const REMOVE = 'mutation($id: ID!, $c: ReactionContent!) { removeReaction(input: {subjectId: $id, content: $c}) { reaction { content } subject { id } } }';
    expect((await gql(ADD, { id: d.node_id, c: 'THUMBS_UP' })).addReaction).toEqual({ reaction: { content: 'THUMBS_UP' }, subject: { id: d.node_id } });
    await gql(ADD, { id: d.node_id, c: 'THUMBS_UP' });
    await gql(ADD, { id: d.node_id, c: 'THUMBS_UP' }, 'ghp_alice');
    await gql(ADD, { id: c.node_id, c: 'EYES' });
    expect(emu.state.discussionReactionsOn({ discussion_number: d.number }).map((r) => [r.content, r.user])).toEqual([
      ['+1', 'github-actions[bot]'],
      ['+1', 'alice'],
    ]);
    const groups = async () =>
      (
        await gql(
          `query($id: ID!) { node(id: $id) { ... on Reactable { reactionGroups { content viewerHasReacted reactors(first: 5) { totalCount nodes { ... on Actor { login } } } } } } }`,
          {
            id: d.node_id,
          },
        )
      ).node.reactionGroups[0];
    expect(await groups()).toEqual({
      content: 'THUMBS_UP',
      viewerHasReacted: true,
      reactors: { totalCount: 2, nodes: [{ login: 'github-actions' }, { login: 'alice' }] },
    });
    expect((await gql(REMOVE, { id: d.node_id, c: 'THUMBS_UP' })).removeReaction).toEqual({ reaction: { content: 'THUMBS_UP' }, subject: { id: d.node_id } });
    expect((await gql(REMOVE, { id: d.node_id, c: 'THUMBS_UP' })).removeReaction).toEqual({ reaction: null, subject: { id: d.node_id } });
    expect(await groups()).toMatchObject({ viewerHasReacted: false, reactors: { totalCount: 1 } });
    expect(emu.state.discussionReactionsOn({ comment_id: c.id }).map((r) => r.content)).toEqual(['eyes']);
  });

  it('labels a discussion by label ids (from repository.label) and takes them off; readers may not', async () => {
    const d = emu.state.addDiscussion({ title: 'Q', user: 'alice', labels: ['question'] });
    emu.state.addLabel({ name: 'answered' });
    const ids = await gql(
      '{ repository(owner: "octo-org", name: "wiki") { answered: label(name: "answered") { id } question: label(name: "question") { id } } }',
    );
    const ADD =
      'mutation($id: ID!, $l: [ID!]!) { addLabelsToLabelable(input: {labelableId: $id, labelIds: $l, clientMutationId: "m1"}) { clientMutationId labelable { ... on Discussion { id labels(first: 5) { nodes { name } } } } } }';
    const REMOVE =
      'mutation($id: ID!, $l: [ID!]!) { removeLabelsFromLabelable(input: {labelableId: $id, labelIds: $l}) { labelable { ... on Discussion { id } } } }';
    const added = (await gql(ADD, { id: d.node_id, l: [ids.repository.answered.id] })).addLabelsToLabelable;
    expect(added).toEqual({ clientMutationId: 'm1', labelable: { id: d.node_id, labels: { nodes: [{ name: 'question' }, { name: 'answered' }] } } });
    expect((await gql(REMOVE, { id: d.node_id, l: [ids.repository.question.id] })).removeLabelsFromLabelable).toEqual({ labelable: { id: d.node_id } });
    expect(emu.state.discussion(d.number).labels).toEqual(['answered']);
    expect((await post(REMOVE, { id: d.node_id, l: [ids.repository.answered.id] }, 'ghp_bob')).body.errors[0]).toMatchObject({
      type: 'FORBIDDEN',
      message: 'bob does not have the correct permissions to execute `RemoveLabelsFromLabelable`',
    });
    const unknownLabel = await post(REMOVE, { id: d.node_id, l: ['LA_kwDOnope'] });
    expect(unknownLabel.body.errors[0]).toMatchObject({ type: 'NOT_FOUND' });
  });
});

// -- webhook payloads --------------------------------------------------------------------------

/** The object schemas of @octokit/openapi-types' declarations, read at run time: each key, required or not, and what it refers to. */
interface KeySpec {
  required: boolean;
  ref?: string;
  children?: Map<string, KeySpec>;
}
const typesFile = path.join(path.dirname(createRequire(import.meta.url).resolve('@octokit/openapi-types/package.json')), 'types.d.ts');
const typesText = readFileSync(typesFile, 'utf8');
function schemaKeys(name: string): Map<string, KeySpec> {
  const lines = typesText.split('\n');
  const start = lines.findIndex((l) => l === `    "${name}": {` || l === `    ${name}: {`);
  if (start < 0) throw new Error(`no schema ${name}`);
  const root = new Map<string, KeySpec>();
  const stack: Array<Map<string, KeySpec>> = [root];
  for (let i = start + 1; i < lines.length && stack.length > 0; i++) {
    const line = lines[i]!.trim();
    if (line.startsWith('/**') || line.startsWith('*') || line.startsWith('|')) continue;
    if (/^}[^{]*;$/.test(line)) {
      stack.pop();
      continue;
    }
    const m = /^"?([\w+-]+)"?(\?)?: (.*)$/.exec(line);
    if (!m) continue;
    const spec: KeySpec = { required: m[2] !== '?' };
    const ref = /^components\["schemas"\]\["([^"]+)"\]/.exec(m[3]!);
    if (ref) spec.ref = ref[1];
    stack[stack.length - 1]!.set(m[1]!, spec);
    if (m[3]!.endsWith('{')) {
      spec.children = new Map();
      stack.push(spec.children);
    }
  }
  return root;
}
/** The required keys missing from a payload, as paths; nested objects and referenced schemas are followed. */
function missingKeys(value: unknown, keys: Map<string, KeySpec>, at = ''): string[] {
  const out: string[] = [];
  const obj = value as Record<string, unknown>;
  for (const [key, spec] of keys) {
    const v = obj[key];
    if (v === undefined) {
      if (spec.required) out.push(`${at}${key}`);
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    const inner = spec.children ?? (spec.ref ? schemaKeys(spec.ref) : undefined);
    if (!inner) continue;
    for (const [i, item] of (Array.isArray(v) ? v : [v]).entries()) out.push(...missingKeys(item, inner, `${at}${key}${Array.isArray(v) ? `[${i}]` : ''}.`));
  }
  return out;
}

describe('Discussions: webhook payloads', () => {
  beforeEach(start);

  it('discussion and discussion_comment payloads carry every key GitHub’s webhook schemas require', () => {
    const d = emu.state.addDiscussion({ title: 'How do we deploy?', body: 'Asking.', user: 'alice', category: 'Q&A', labels: ['question'] });
    const c = emu.state.addDiscussionComment(d.number, { body: 'Use the runbook.', user: 'github-actions[bot]' });
    const reply = emu.state.addDiscussionComment(d.number, { body: 'Thanks', user: 'alice', replyTo: c.id });
    emu.state.markDiscussionAnswer(c.id, 'alice');
    const from = emu.state.moveDiscussion(d.number, 'Ideas');
    emu.state.moveDiscussion(d.number, 'Q&A');
    emu.state.markDiscussionAnswer(c.id, 'alice');

    const payloads: Array<[string, unknown]> = [
      ['webhook-discussion-created', emu.events.discussion('created', d.number)],
      ['webhook-discussion-edited', emu.events.discussion('edited', d.number, { changes: { title: 'How to deploy' } })],
      ['webhook-discussion-category-changed', emu.events.discussion('category_changed', d.number, { changes: { category: from.slug } })],
      ['webhook-discussion-labeled', emu.events.discussion('labeled', d.number, { label: 'question', sender: 'maya' })],
      ['webhook-discussion-answered', emu.events.discussion('answered', d.number)],
      ['webhook-discussion-comment-created', emu.events.discussionComment('created', reply.id)],
      ['webhook-discussion-comment-edited', emu.events.discussionComment('edited', c.id, { changes: { body: 'old' } })],
    ];
    const removed = emu.state.deleteDiscussionComment(reply.id);
    payloads.push(['webhook-discussion-comment-deleted', emu.events.discussionComment('deleted', removed[0]!)]);
    for (const [schema, payload] of payloads) expect(missingKeys(payload, schemaKeys(schema)), schema).toEqual([]);
    // The check reads real declarations: a payload without a required key fails it.
    const { discussion: _dropped, ...withoutDiscussion } = emu.events.discussion('created', d.number);
    const { title: _title, ...untitled } = emu.render.discussion(d);
    expect(missingKeys(withoutDiscussion, schemaKeys('webhook-discussion-created'))).toEqual(['discussion']);
    expect(missingKeys({ ...withoutDiscussion, discussion: untitled }, schemaKeys('webhook-discussion-created'))).toEqual(['discussion.title']);

    const created = emu.events.discussion('created', d.number);
    expect(created.discussion).toMatchObject({
      id: d.id,
      node_id: d.node_id,
      number: d.number,
      title: 'How do we deploy?',
      body: 'Asking.',
      html_url: `http://github.test/octo-org/wiki/discussions/${d.number}`,
      state: 'open',
      locked: false,
      user: { login: 'alice' },
      category: { name: 'Q&A', slug: 'q-a', emoji: ':pray:', is_answerable: true, repository_id: emu.state.repo().id, node_id: expect.stringMatching(/^DIC_/) },
      labels: [{ name: 'question' }],
      answer_html_url: `http://github.test/octo-org/wiki/discussions/${d.number}#discussioncomment-${c.id}`,
      answer_chosen_by: { login: 'alice' },
      comments: 1, // the reply was deleted above
      author_association: 'NONE',
    });
    expect(created.sender.login).toBe('alice');
    const answered = emu.events.discussion('answered', d.number);
    expect(answered.answer).toMatchObject({ id: c.id, parent_id: null, child_comment_count: 0, discussion_id: d.id, user: { login: 'github-actions[bot]' } });
    expect(emu.events.discussion('category_changed', d.number, { changes: { category: 'Ideas' } }).changes.category.from.name).toBe('Ideas');
    expect(emu.events.discussion('labeled', d.number, { label: 'question' }).label).toMatchObject({ name: 'question', node_id: expect.stringMatching(/^LA_/) });
    const deleted = payloads[payloads.length - 1]![1] as any;
    expect(deleted.comment).toMatchObject({
      id: reply.id,
      node_id: reply.node_id,
      parent_id: c.id,
      html_url: `http://github.test/octo-org/wiki/discussions/${d.number}#discussioncomment-${reply.id}`,
      body: 'Thanks',
    });
    expect(() => emu.events.discussion('labeled', d.number)).toThrow(/opts\.label/);
  });
});

describe('the GraphQL answer check with interfaces and unions', () => {
  it('tells the type of an abstract value from the keys the query gives it, so answers without __typename are checked', async () => {
    await loadGithubGraphqlSchema();
    const query = 'query { node(id: "x") { id ... on Discussion { title } ... on DiscussionComment { body } } }';
    expect(checkGraphqlResponse({ query }, { data: { node: { id: 'x', title: 't' } } })).toEqual({ valid: true, problems: [] });
    expect(checkGraphqlResponse({ query }, { data: { node: { id: 'x', body: 'b' } } }).valid).toBe(true);
    expect(checkGraphqlResponse({ query }, { data: { node: { id: 'x', title: 't', body: 'b' } } }).valid).toBe(false);
    const typed = 'query($id: ID!) { node(id: $id) { __typename ... on Discussion { title } } }';
    expect(checkGraphqlResponse({ query: typed, variables: { id: 'x' } }, { data: { node: { __typename: 'Discussion', title: 't' } } }).valid).toBe(true);
    expect(checkGraphqlResponse({ query: typed, variables: { id: 'x' } }, { data: { node: { __typename: 'Issue', title: 't' } } }).valid).toBe(false);
  });
});
