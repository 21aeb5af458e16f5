// The emulator's GraphQL endpoint (answered against GitHub's published GraphQL schema, from
// @octokit/graphql-schema) and its race hooks (another client's work between two requests, an
// answer held back until another client has written), driven
// by a real octokit as the Action builds it. After every test, every answer is checked: REST
// bodies against the OpenAPI description, GraphQL answers against the GraphQL schema.
import { afterEach, describe, expect, it } from 'vitest';
import { type GitHubEmulator, startGitHubEmulator } from './emulator.js';
import { checkGraphqlResponse, loadGithubGraphqlSchema } from './graphql.js';
import { createTestOctokit } from './test-octokit.js';
import { closeCheckingResponses, failure } from './test-support.js';

let emu: GitHubEmulator;
afterEach(() => closeCheckingResponses(emu));

const R = { owner: 'octo-org', repo: 'wiki' };
const VIEWER = 'query { viewer { login } }';

async function post(body: unknown, token: string | null = 'ghs_x'): Promise<{ status: number; body: Record<string, any> }> {
  const res = await fetch(`${emu.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `bearer ${token}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe('GraphQL: viewer is the account of the token', () => {
  it('GITHUB_TOKEN answers as github-actions[bot], an App installation token as its bot, a personal token as the person', async () => {
    emu = await startGitHubEmulator({
      tokens: {
        ghs_workflow: { login: 'github-actions[bot]' },
        ghs_app: { login: 'wiki-steward-app[bot]', type: 'Bot' },
        ghp_maya: { login: 'maya' },
      },
    });
    const viewer = async (token: string) => (await createTestOctokit(emu.url, token).octokit.graphql<{ viewer: { login: string } }>(VIEWER)).viewer.login;
    expect(await viewer('ghs_workflow')).toBe('github-actions[bot]');
    expect(await viewer('ghs_app')).toBe('wiki-steward-app[bot]');
    expect(await viewer('ghp_maya')).toBe('maya');
    expect(emu.requests.map((r) => [r.method, r.route, r.actor, r.status])).toEqual([
      ['POST', '/graphql', 'github-actions[bot]', 200],
      ['POST', '/graphql', 'wiki-steward-app[bot]', 200],
      ['POST', '/graphql', 'maya', 200],
    ]);
    // A query reads: it is not among the writes.
    expect(emu.writes()).toEqual([]);
  });

  it('answers any valid selection on viewer the schema allows, with aliases, variables-free fragments and rateLimit', async () => {
    emu = await startGitHubEmulator();
    const { octokit } = createTestOctokit(emu.url);
    const data = await octokit.graphql<Record<string, any>>(`
      query Who { me: viewer { login databaseId ...Named } rateLimit { remaining limit } }
      fragment Named on User { name url }
    `);
    expect(data).toEqual({
      me: { login: 'github-actions[bot]', databaseId: 41898282, name: null, url: expect.stringMatching(/\/apps\/github-actions$/) },
      rateLimit: { remaining: 4999, limit: 5000 },
    });
  });

  it('validates every query against the schema: unknown fields, syntax errors and missing queries get GraphQL errors', async () => {
    emu = await startGitHubEmulator();
    const unknown = await post({ query: 'query { viewer { login nope } }' });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({
      errors: [expect.objectContaining({ message: expect.stringContaining('Cannot query field "nope" on type "User"'), locations: [{ line: 1, column: 24 }] })],
    });
    const syntax = await post({ query: 'query { viewer { login }' });
    expect(syntax.body.errors[0].message).toMatch(/Syntax Error/);
    const missing = await post({});
    expect(missing.body).toEqual({ errors: [{ message: 'A query attribute must be specified and must be a string.' }] });
    // octokit turns GraphQL errors into a thrown GraphqlResponseError.
    await expect(createTestOctokit(emu.url).octokit.graphql('query { viewer { nope } }')).rejects.toThrow(/Cannot query field "nope"/);
  });

  it('says what it does not emulate: other root fields and mutations', async () => {
    emu = await startGitHubEmulator();
    const search = await post({ query: 'query { search(query: "x", type: ISSUE, first: 1) { issueCount } }' });
    expect(search.body.errors[0].message).toBe('github-emulator: Query.search is not emulated (only viewer, rateLimit, repository, node and nodes are)');
    const mutation = await post({ query: 'mutation { addStar(input: { starrableId: "x" }) { clientMutationId } }' });
    expect(mutation.body.errors[0].message).toMatch(
      /^github-emulator: Mutation\.addStar is not emulated \(only addDiscussionComment, .* and removeLabelsFromLabelable are\)$/,
    );
    // A field of an emulated type that the emulator does not model: named when the schema needs a value.
    const unmodelled = await post({ query: 'query { repository(owner: "octo-org", name: "wiki") { forkCount } }' });
    expect(unmodelled.body).toMatchObject({
      data: { repository: null },
      errors: [{ message: 'github-emulator: Repository.forkCount is not emulated', path: ['repository', 'forkCount'] }],
    });
    // A mutation is a write, even one that failed.
    expect(emu.writes().map((r) => r.route)).toEqual(['/graphql']);
  });

  it('refuses requests without a token or with an unknown one', async () => {
    emu = await startGitHubEmulator({ tokens: { ghs_known: { login: 'github-actions[bot]' } } });
    const none = await post({ query: VIEWER }, null);
    expect(none).toEqual({
      status: 401,
      body: {
        message: 'This endpoint requires you to be authenticated.',
        documentation_url: 'https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql',
        status: '401',
      },
    });
    const bad = await failure(createTestOctokit(emu.url, 'ghs_unknown').octokit.graphql(VIEWER));
    expect(bad.status).toBe(401);
  });

  it('faults apply to GraphQL too: a 502 is retried by plugin-retry', async () => {
    emu = await startGitHubEmulator();
    emu.faults.serverError({ match: { method: 'POST', route: '/graphql' } });
    const data = await createTestOctokit(emu.url).octokit.graphql<{ viewer: { login: string } }>(VIEWER);
    expect(data.viewer.login).toBe('github-actions[bot]');
    expect(emu.requests.map((r) => r.status)).toEqual([502, 200]);
  });
});

describe('the GraphQL answer check', () => {
  it('accepts what the schema gives the query and rejects any other shape', async () => {
    await loadGithubGraphqlSchema();
    const request = { query: 'query { viewer { login databaseId } }' };
    expect(checkGraphqlResponse(request, { data: { viewer: { login: 'a', databaseId: 1 } } })).toEqual({ valid: true, problems: [] });
    expect(checkGraphqlResponse(request, { data: { viewer: { login: 'a' } } }).valid).toBe(false); // databaseId missing
    expect(checkGraphqlResponse(request, { data: { viewer: { login: 'a', databaseId: 1, type: 'Bot' } } }).valid).toBe(false); // not in the query
    expect(checkGraphqlResponse(request, { data: { viewer: { login: null, databaseId: 1 } } }).valid).toBe(false); // login is String!
    expect(checkGraphqlResponse({ query: 'query { viewer { kind } }' }, { data: { viewer: { kind: 'Bot' } } }).valid).toBe(false); // no such field
    expect(checkGraphqlResponse(request, { errors: [{ message: 'x' }] }).valid).toBe(true);
    expect(checkGraphqlResponse(request, { errors: 'x' }).valid).toBe(false);
  });
});

describe('races: another client between two requests', () => {
  it('runs the other work just before the matching request, which then sees the changed state', async () => {
    emu = await startGitHubEmulator();
    const { octokit } = createTestOctokit(emu.url);
    const main = emu.state.branchHead('main')!;
    let twin: string | undefined;
    emu.faults.race({
      match: { method: 'POST', route: '/repos/{owner}/{repo}/git/refs' },
      run: () => {
        twin = emu.state.commitFiles({ branch: 'feature', files: { 'twin.md': '# Twin\n' } });
      },
    });
    const lost = await failure(octokit.rest.git.createRef({ ...R, ref: 'refs/heads/feature', sha: main }));
    expect(lost.status).toBe(422);
    expect(lost.response?.data).toMatchObject({ message: 'Reference already exists' });
    expect(emu.state.branchHead('feature')).toBe(twin);
    // Once: the next create is not raced.
    expect((await octokit.rest.git.createRef({ ...R, ref: 'refs/heads/other', sha: main })).status).toBe(201);
  });

  it('awaits asynchronous work (a whole other client) and honours skip and times', async () => {
    emu = await startGitHubEmulator();
    emu.state.addIssue({ number: 1, title: 'Q', user: 'alice' });
    const { octokit } = createTestOctokit(emu.url);
    const order: string[] = [];
    emu.faults.race({
      match: { method: 'POST', route: '/repos/{owner}/{repo}/issues/{issue_number}/comments' },
      skip: 1,
      run: async () => {
        order.push('twin starts');
        await createTestOctokit(emu.url).octokit.rest.issues.createComment({ ...R, issue_number: 1, body: 'twin' });
        order.push('twin done');
      },
    });
    await octokit.rest.issues.createComment({ ...R, issue_number: 1, body: 'first' });
    order.push('first done');
    await octokit.rest.issues.createComment({ ...R, issue_number: 1, body: 'second' });
    order.push('second done');
    expect(order).toEqual(['first done', 'twin starts', 'twin done', 'second done']);
    expect(emu.state.commentsOn(1).map((c) => c.body)).toEqual(['first', 'twin', 'second']);
  });

  it('holds an answer computed from the state of its time until the test releases it; the state moves on meanwhile', async () => {
    emu = await startGitHubEmulator();
    emu.state.addIssue({ number: 1, title: 'Q', user: 'alice' });
    const { octokit } = createTestOctokit(emu.url);
    const COMMENTS = '/repos/{owner}/{repo}/issues/{issue_number}/comments';
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held: Array<{ status: number; route: string | null }> = [];
    let heard!: () => void;
    const listHandled = new Promise<void>((resolve) => (heard = resolve));
    emu.faults.hold({
      match: { method: 'GET', route: COMMENTS },
      until: async (handled) => {
        held.push({ status: handled.status, route: handled.route });
        heard();
        await released;
      },
    });
    // Observing only: the create is handled (the state has the comment) before its client hears so.
    let createdBeforeAnswer: number | undefined;
    emu.faults.hold({ match: { method: 'POST', route: COMMENTS }, until: () => (createdBeforeAnswer = emu.state.commentsOn(1).length) });
    const list = octokit.rest.issues.listComments({ ...R, issue_number: 1 });
    await listHandled;
    await octokit.rest.issues.createComment({ ...R, issue_number: 1, body: 'written while the list was held' });
    expect(createdBeforeAnswer).toBe(1);
    release();
    // The held list was computed before the comment existed, and says so.
    expect((await list).data).toEqual([]);
    expect(held).toEqual([{ status: 200, route: COMMENTS }]);
    // Once: the next list is not held, and sees the comment.
    expect((await octokit.rest.issues.listComments({ ...R, issue_number: 1 })).data.map((c) => c.body)).toEqual(['written while the list was held']);
  });
});
