// The GitHub emulator, driven by a real octokit (getOctokit from @actions/github with the retry and
// throttling plugins on). After every test, every response the emulator produced from a route is
// validated against GitHub's OpenAPI description (test/fixtures/github-openapi/endpoints.json).
// The git-backed part (Git Data API, contents, pull requests) is in emulator-git.test.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GitHubEmulator, startGitHubEmulator } from './emulator.js';
import { checkResponse, compileAllSchemas, endpoints, expectValidResponse } from './openapi-validate.js';
import { createTestOctokit, type TestOctokit } from './test-octokit.js';
import { closeCheckingResponses, failure } from './test-support.js';

const owner = 'octo-org';
const repo = 'wiki';
const R = { owner, repo };

let emu: GitHubEmulator;
let octokit: TestOctokit;
let limits: ReturnType<typeof createTestOctokit>['limits'];

beforeEach(async () => {
  emu = await startGitHubEmulator();
  ({ octokit, limits } = createTestOctokit(emu.url));
});

afterEach(() => closeCheckingResponses(emu));

async function raw(method: string, path: string, init: { token?: string | null; body?: string; auth?: string } = {}) {
  const headers: Record<string, string> = { accept: 'application/vnd.github+json' };
  if (init.auth !== undefined) headers.authorization = init.auth;
  else if (init.token !== null) headers.authorization = `token ${init.token ?? 'ghs_x'}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${emu.url}${path}`, { method, headers, ...(init.body !== undefined ? { body: init.body } : {}) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

describe('authentication and headers', () => {
  it('requires a token (token or Bearer) and sends x-ratelimit-* headers', async () => {
    const missing = await raw('GET', `/repos/${owner}/${repo}`, { token: null });
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ message: 'Requires authentication' });
    const malformed = await raw('GET', `/repos/${owner}/${repo}`, { auth: 'Basic abc' });
    expect(malformed.status).toBe(401);
    expect(malformed.body).toMatchObject({ message: 'Bad credentials' });

    const bearer = await raw('GET', `/repos/${owner}/${repo}`, { auth: 'Bearer ghs_abc' });
    expect(bearer.status).toBe(200);
    expect(bearer.headers.get('x-ratelimit-limit')).toBe('5000');
    expect(Number(bearer.headers.get('x-ratelimit-remaining'))).toBe(4999);
    expect(Number(bearer.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect(bearer.headers.get('x-ratelimit-resource')).toBe('core');

    const res = await octokit.rest.repos.get(R);
    expect(res.headers['x-ratelimit-remaining']).toBe('4998');
    expect(emu.state.rateLimit.used).toBe(2);
    for (const r of [missing, malformed]) expectValidResponse('GET', '/repos/{owner}/{repo}', r.status, r.body);
  });

  it('with a token map, unknown tokens are refused and each token acts as its own user', async () => {
    await emu.close();
    emu = await startGitHubEmulator({
      tokens: { ghs_bot: { login: 'github-actions[bot]' }, ghp_alice: { login: 'alice' }, ghs_ro: { login: 'github-actions[bot]', issues: 'read' } },
    });
    emu.state.addIssue({ number: 1, title: 'Q', user: 'bob' });
    const bad = await failure(createTestOctokit(emu.url, 'nope').octokit.rest.repos.get(R));
    expect(bad.status).toBe(401);

    const alice = createTestOctokit(emu.url, 'ghp_alice').octokit;
    const c = await alice.rest.issues.createComment({ ...R, issue_number: 1, body: 'hi' });
    expect(c.data.user?.login).toBe('alice');
    expect(c.data.user?.type).toBe('User');
    expect(c.data.author_association).toBe('NONE');

    const ro = createTestOctokit(emu.url, 'ghs_ro').octokit;
    const denied = await failure(ro.rest.issues.createComment({ ...R, issue_number: 1, body: 'hi' }));
    expect(denied.status).toBe(403);
    expect(denied.response?.data).toMatchObject({ message: 'Resource not accessible by integration' });
    expect((await ro.rest.issues.get({ ...R, issue_number: 1 })).status).toBe(200);
    expect(emu.requests.map((r) => r.actor)).toEqual([null, 'alice', 'github-actions[bot]', 'github-actions[bot]']);
  });

  it('answers unknown routes with 404 Not Found and unparsable JSON with 400', async () => {
    const unknown = await raw('GET', '/repos/octo-org/wiki/nonsense');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
    const missingRepo = await failure(octokit.rest.repos.get({ owner: 'nobody', repo: 'nothing' }));
    expect(missingRepo.status).toBe(404);
    emu.state.addIssue({ number: 1, title: 'Q' });
    const bad = await raw('POST', '/repos/octo-org/wiki/issues/1/comments', { body: '{"body": ' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ message: 'Problems parsing JSON' });
    expect(checkResponse('POST', '/repos/{owner}/{repo}/issues/{issue_number}/comments', 400, bad.body).valid).toBe(true);
  });
});

describe('repository', () => {
  it('GET /repos/{owner}/{repo} returns a full repository with the caller’s permissions', async () => {
    const { data } = await octokit.rest.repos.get(R);
    expect(data).toMatchObject({
      name: 'wiki',
      full_name: 'octo-org/wiki',
      default_branch: 'main',
      private: false,
      html_url: 'http://github.test/octo-org/wiki',
      url: `${emu.url}/repos/octo-org/wiki`,
      owner: { login: 'octo-org', type: 'Organization' },
      permissions: { admin: false, maintain: false, push: true, triage: true, pull: true },
    });
    expectValidResponse('GET', '/repos/{owner}/{repo}', 200, data);
  });

  it('serves several repositories with their own settings', async () => {
    await emu.close();
    emu = await startGitHubEmulator({
      repos: [
        { owner: 'acme', name: 'handbook', default_branch: 'trunk', private: true },
        { owner: 'alice', name: 'notes', ownerType: 'User' },
      ],
      serverUrl: 'https://ghe.example.com/',
    });
    ({ octokit } = createTestOctokit(emu.url));
    const a = await octokit.rest.repos.get({ owner: 'acme', repo: 'handbook' });
    expect(a.data).toMatchObject({ default_branch: 'trunk', private: true, visibility: 'private', html_url: 'https://ghe.example.com/acme/handbook' });
    emu.state.addIssue({ repo: 'alice/notes', title: 'in notes', user: 'alice' });
    const issue = await octokit.rest.issues.get({ owner: 'alice', repo: 'notes', issue_number: 1 });
    expect(issue.data.author_association).toBe('OWNER');
    expect(issue.data.html_url).toBe('https://ghe.example.com/alice/notes/issues/1');
    expect((await failure(octokit.rest.issues.get({ owner: 'acme', repo: 'handbook', issue_number: 1 }))).status).toBe(404);
    expect(emu.env('alice/notes')).toMatchObject({ GITHUB_API_URL: emu.url, GITHUB_SERVER_URL: 'https://ghe.example.com', GITHUB_REPOSITORY: 'alice/notes' });
  });
});

describe('issues', () => {
  it('gets an issue in GitHub’s shape', async () => {
    emu.state.addIssue({ number: 7, title: 'How do I deploy?', body: 'Asking.', user: 'alice', labels: ['question'] });
    const { data } = await octokit.rest.issues.get({ ...R, issue_number: 7 });
    expect(data).toMatchObject({
      number: 7,
      title: 'How do I deploy?',
      body: 'Asking.',
      state: 'open',
      locked: false,
      comments: 0,
      user: { login: 'alice', type: 'User' },
      labels: [{ name: 'question', color: 'ededed' }],
      html_url: 'http://github.test/octo-org/wiki/issues/7',
      url: `${emu.url}/repos/octo-org/wiki/issues/7`,
      comments_url: `${emu.url}/repos/octo-org/wiki/issues/7/comments`,
      closed_by: null,
    });
    expect(typeof data.id).toBe('number');
    expect(data.node_id).toMatch(/^I_/);
    expect(data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect((await failure(octokit.rest.issues.get({ ...R, issue_number: 99 }))).status).toBe(404);
  });

  it('updates title, body, state and labels', async () => {
    emu.state.addIssue({ number: 1, title: 'old', labels: ['question', 'stale'] });
    const closed = await octokit.rest.issues.update({ ...R, issue_number: 1, title: 'new', body: 'b', state: 'closed', labels: ['answered', 'Question'] });
    expect(closed.data).toMatchObject({
      title: 'new',
      body: 'b',
      state: 'closed',
      state_reason: 'completed',
      closed_by: { login: 'github-actions[bot]', type: 'Bot' },
    });
    expect(closed.data.labels.map((l) => (typeof l === 'string' ? l : l.name))).toEqual(['answered', 'question']);
    expect(closed.data.closed_at).not.toBeNull();
    const issue = emu.state.issue(1);
    expect(issue).toMatchObject({ title: 'new', state: 'closed', labels: ['answered', 'question'] });
    const reopened = await octokit.rest.issues.update({ ...R, issue_number: 1, state: 'open' });
    expect(reopened.data).toMatchObject({ state: 'open', state_reason: 'reopened', closed_at: null });

    const badState = await failure(octokit.request('PATCH /repos/{owner}/{repo}/issues/{issue_number}', { ...R, issue_number: 1, state: 'merged' as 'open' }));
    expect(badState.status).toBe(422);
    expect(badState.response?.data).toMatchObject({
      message: expect.stringMatching(/^Invalid request\.\n\nFor 'properties\/state', "merged" is not a member of/),
    });
    const blank = await failure(octokit.rest.issues.update({ ...R, issue_number: 1, title: '  ' }));
    expect(blank.response?.data).toMatchObject({ message: 'Validation Failed', errors: [{ resource: 'Issue', code: 'missing_field', field: 'title' }] });
  });

  it('lists issues with state, labels and since filters, newest first, paginated', async () => {
    const t = (d: number) => new Date(Date.UTC(2025, 0, d)).toISOString().replace('.000', '');
    emu.state.addIssue({ title: 'a', labels: ['question'], created_at: t(1) });
    emu.state.addIssue({ title: 'b', labels: ['question', 'wiki-gap'], created_at: t(2) });
    emu.state.addIssue({ title: 'c', state: 'closed', labels: ['question'], created_at: t(3) });
    emu.state.addIssue({ title: 'd', pull_request: true, created_at: t(4) });
    for (let i = 0; i < 5; i++) emu.state.addIssue({ title: `bulk ${i}`, created_at: t(10 + i) });

    const open = await octokit.rest.issues.listForRepo({ ...R, per_page: 100 });
    expect(open.data.map((i) => i.title)).toEqual(['bulk 4', 'bulk 3', 'bulk 2', 'bulk 1', 'bulk 0', 'd', 'b', 'a']);
    expect(open.data.find((i) => i.title === 'd')?.pull_request?.url).toBe(`${emu.url}/repos/octo-org/wiki/pulls/4`);
    const questions = await octokit.rest.issues.listForRepo({ ...R, state: 'all', labels: 'Question', direction: 'asc' });
    expect(questions.data.map((i) => i.title)).toEqual(['a', 'b', 'c']);
    const both = await octokit.rest.issues.listForRepo({ ...R, labels: 'question,wiki-gap' });
    expect(both.data.map((i) => i.title)).toEqual(['b']);
    const since = await octokit.rest.issues.listForRepo({ ...R, state: 'all', since: t(3) });
    expect(since.data.map((i) => i.title)).toEqual(['bulk 4', 'bulk 3', 'bulk 2', 'bulk 1', 'bulk 0', 'd', 'c']);

    const first = await octokit.rest.issues.listForRepo({ ...R, per_page: 3 });
    expect(first.data).toHaveLength(3);
    expect(first.headers.link).toContain('rel="next"');
    expect(first.headers.link).toContain('page=3>; rel="last"');
    const all = await octokit.paginate(octokit.rest.issues.listForRepo, { ...R, per_page: 3 });
    expect(all).toHaveLength(8);
  });

  it('creates issues, with labels, numbered after the existing ones', async () => {
    emu.state.addIssue({ number: 41, title: 'existing' });
    const { data, headers } = await octokit.rest.issues.create({ ...R, title: 'Weekly wiki digest', body: '## Gaps', labels: ['digest'] });
    expect(data).toMatchObject({ number: 42, title: 'Weekly wiki digest', user: { login: 'github-actions[bot]' }, labels: [{ name: 'digest' }] });
    expect(headers.location).toBe(`${emu.url}/repos/octo-org/wiki/issues/42`);
    expect(emu.state.findLabel('digest')).toBeDefined();
    const missing = await failure(octokit.request('POST /repos/{owner}/{repo}/issues', { ...R, body: 'no title' } as never));
    expect(missing.status).toBe(422);
    expect(missing.response?.data).toMatchObject({ message: 'Invalid request.\n\n"title" wasn\'t supplied.' });
    const long = await failure(octokit.rest.issues.create({ ...R, title: 't', body: 'x'.repeat(65_537) }));
    expect(long.response?.data).toMatchObject({
      errors: [{ resource: 'Issue', code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' }],
    });
  });
});

describe('comments', () => {
  it('creates, gets, updates and deletes a comment', async () => {
    emu.state.addIssue({ number: 3, title: 'Q' });
    const created = await octokit.rest.issues.createComment({ ...R, issue_number: 3, body: 'The answer.' });
    expect(created.status).toBe(201);
    const id = created.data.id;
    expect(created.data).toMatchObject({
      body: 'The answer.',
      user: { login: 'github-actions[bot]', type: 'Bot', id: 41898282, html_url: 'http://github.test/apps/github-actions' },
      html_url: `http://github.test/octo-org/wiki/issues/3#issuecomment-${id}`,
      issue_url: `${emu.url}/repos/octo-org/wiki/issues/3`,
      url: `${emu.url}/repos/octo-org/wiki/issues/comments/${id}`,
      author_association: 'NONE',
      reactions: { total_count: 0 },
    });
    expect(created.headers.location).toBe(created.data.url);
    expect(emu.state.commentsOn(3).map((c) => c.body)).toEqual(['The answer.']);
    expect((await octokit.rest.issues.get({ ...R, issue_number: 3 })).data.comments).toBe(1);

    const got = await octokit.rest.issues.getComment({ ...R, comment_id: id });
    expect(got.data.body).toBe('The answer.');
    const updated = await octokit.rest.issues.updateComment({ ...R, comment_id: id, body: 'Edited.' });
    expect(updated.data.body).toBe('Edited.');
    expect(emu.state.findComment(id)?.body).toBe('Edited.');
    const deleted = await octokit.rest.issues.deleteComment({ ...R, comment_id: id });
    expect(deleted.status).toBe(204);
    expect(emu.state.comments).toHaveLength(0);
    expect((await failure(octokit.rest.issues.getComment({ ...R, comment_id: id }))).status).toBe(404);
    expect((await failure(octokit.rest.issues.createComment({ ...R, issue_number: 4, body: 'x' }))).status).toBe(404);
  });

  it('lists comments oldest first, paginated with Link headers, and octokit.paginate walks them', async () => {
    emu.state.addIssue({ number: 1, title: 'Q' });
    for (let i = 1; i <= 65; i++) emu.state.addComment({ issue_number: 1, body: `c${i}`, user: i % 2 ? 'alice' : 'bob' });
    const page1 = await octokit.rest.issues.listComments({ ...R, issue_number: 1 });
    expect(page1.data).toHaveLength(30);
    expect(page1.data[0]?.body).toBe('c1');
    const link = page1.headers.link ?? '';
    expect(link).toContain(`<${emu.url}/repos/octo-org/wiki/issues/1/comments?per_page=30&page=2>; rel="next"`);
    expect(link).toContain('page=3>; rel="last"');
    const page3 = await octokit.rest.issues.listComments({ ...R, issue_number: 1, page: 3 });
    expect(page3.data.map((c) => c.body)).toEqual(['c61', 'c62', 'c63', 'c64', 'c65']);
    expect(page3.headers.link).toContain('rel="prev"');
    expect(page3.headers.link).toContain('rel="first"');
    expect(page3.headers.link).not.toContain('rel="next"');
    const all = await octokit.paginate(octokit.rest.issues.listComments, { ...R, issue_number: 1, per_page: 100 });
    expect(all.map((c) => c.body)).toEqual(Array.from({ length: 65 }, (_, i) => `c${i + 1}`));
    const capped = await octokit.rest.issues.listComments({ ...R, issue_number: 1, per_page: 500 });
    expect(capped.data).toHaveLength(65);
    const beyond = await octokit.rest.issues.listComments({ ...R, issue_number: 1, page: 9 });
    expect(beyond.data).toEqual([]);
  });

  it('enforces GitHub’s 65,536-character body limit with its 422', async () => {
    emu.state.addIssue({ number: 1, title: 'Q' });
    const ok = await octokit.rest.issues.createComment({ ...R, issue_number: 1, body: '😀'.repeat(65_536) });
    expect(ok.status).toBe(201);
    const tooLong = await failure(octokit.rest.issues.createComment({ ...R, issue_number: 1, body: 'x'.repeat(65_537) }));
    expect(tooLong.status).toBe(422);
    expect(tooLong.response?.data).toEqual({
      message: 'Validation Failed',
      errors: [{ resource: 'IssueComment', code: 'unprocessable', field: 'data', message: 'Body is too long (maximum is 65536 characters)' }],
      documentation_url: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
      status: '422',
    });
    const editTooLong = await failure(octokit.rest.issues.updateComment({ ...R, comment_id: ok.data.id, body: 'y'.repeat(70_000) }));
    expect(editTooLong.status).toBe(422);
    expect(emu.state.comments).toHaveLength(1);
  });

  it('refuses bad comment bodies with GitHub’s 422 shapes', async () => {
    emu.state.addIssue({ number: 1, title: 'Q' });
    const blank = await failure(octokit.rest.issues.createComment({ ...R, issue_number: 1, body: ' \n' }));
    expect(blank.response?.data).toMatchObject({ message: 'Validation Failed', errors: [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }] });
    const wrongType = await failure(
      octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...R, issue_number: 1, body: 123 as unknown as string }),
    );
    expect(wrongType.response?.data).toMatchObject({ message: "Invalid request.\n\nFor 'properties/body', 123 is not a string." });
    const noBody = await raw('POST', '/repos/octo-org/wiki/issues/1/comments');
    expect(noBody.status).toBe(422);
    expect(noBody.body?.message).toMatch(/^Invalid request\./);
    expectValidResponse('POST', '/repos/{owner}/{repo}/issues/{issue_number}/comments', 422, noBody.body);
    expect(emu.state.comments).toHaveLength(0);
  });

  it('a locked issue refuses comments from the bot but not from a collaborator with write access', async () => {
    await emu.close();
    emu = await startGitHubEmulator({ tokens: { bot: { login: 'github-actions[bot]' }, maint: { login: 'maya' }, stranger: { login: 'sam' } } });
    emu.state.addIssue({ number: 1, title: 'Q' });
    emu.state.lockIssue(1, 'resolved');
    emu.state.setPermission('maya', 'maintain');
    const locked = await failure(createTestOctokit(emu.url, 'bot').octokit.rest.issues.createComment({ ...R, issue_number: 1, body: 'answer' }));
    expect(locked.status).toBe(403);
    expect(locked.response?.data).toMatchObject({ message: 'Unable to create comment because issue is locked.' });
    expect((await failure(createTestOctokit(emu.url, 'stranger').octokit.rest.issues.createComment({ ...R, issue_number: 1, body: 'x' }))).status).toBe(403);
    const maya = await createTestOctokit(emu.url, 'maint').octokit.rest.issues.createComment({ ...R, issue_number: 1, body: 'ok' });
    expect(maya.status).toBe(201);
    const issue = await createTestOctokit(emu.url, 'bot').octokit.rest.issues.get({ ...R, issue_number: 1 });
    expect(issue.data).toMatchObject({ locked: true, active_lock_reason: 'resolved' });
    emu.state.unlockIssue(1);
    expect((await createTestOctokit(emu.url, 'bot').octokit.rest.issues.createComment({ ...R, issue_number: 1, body: 'now' })).status).toBe(201);
  });
});

describe('reactions', () => {
  it('creates (201, then 200 for the same reaction), lists with a content filter, paginates', async () => {
    emu.state.addIssue({ number: 1, title: 'Q' });
    const comment = emu.state.addComment({ issue_number: 1, body: '/wiki ask how?', user: 'alice' });
    const first = await octokit.rest.reactions.createForIssueComment({ ...R, comment_id: comment.id, content: 'eyes' });
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({ content: 'eyes', user: { login: 'github-actions[bot]' } });
    const again = await octokit.rest.reactions.createForIssueComment({ ...R, comment_id: comment.id, content: 'eyes' });
    expect(again.status).toBe(200);
    expect(again.data.id).toBe(first.data.id);
    await octokit.rest.reactions.createForIssueComment({ ...R, comment_id: comment.id, content: 'rocket' });
    for (const user of ['u1', 'u2', 'u3']) emu.state.addReaction({ comment_id: comment.id, content: '+1', user });

    const eyes = await octokit.rest.reactions.listForIssueComment({ ...R, comment_id: comment.id, content: 'eyes' });
    expect(eyes.data.map((r) => r.content)).toEqual(['eyes']);
    const paged = await octokit.rest.reactions.listForIssueComment({ ...R, comment_id: comment.id, per_page: 2 });
    expect(paged.data).toHaveLength(2);
    expect(paged.headers.link).toContain('rel="next"');
    const all = await octokit.paginate(octokit.rest.reactions.listForIssueComment, { ...R, comment_id: comment.id, per_page: 2 });
    expect(all.map((r) => r.content)).toEqual(['eyes', 'rocket', '+1', '+1', '+1']);
    const rolled = await octokit.rest.issues.getComment({ ...R, comment_id: comment.id });
    expect(rolled.data.reactions).toMatchObject({ total_count: 5, eyes: 1, rocket: 1, '+1': 3, heart: 0 });

    const bad = await failure(
      octokit.request('POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', { ...R, comment_id: comment.id, content: 'smile' as 'eyes' }),
    );
    expect(bad.status).toBe(422);
    expect((await failure(octokit.rest.reactions.listForIssueComment({ ...R, comment_id: 1 }))).status).toBe(404);
    expect(emu.state.reactionsOn(comment.id)).toHaveLength(5);
  });

  it('on an issue: creates (201, then 200), lists with a content filter, counts in the issue rollup, apart from its comments’', async () => {
    emu.state.addIssue({ number: 1, title: 'Q' });
    emu.state.addIssue({ number: 2, title: 'Other' });
    const comment = emu.state.addComment({ issue_number: 1, body: 'a comment', user: 'alice' });
    const first = await octokit.rest.reactions.createForIssue({ ...R, issue_number: 1, content: 'eyes' });
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({ content: 'eyes', user: { login: 'github-actions[bot]' } });
    const again = await octokit.rest.reactions.createForIssue({ ...R, issue_number: 1, content: 'eyes' });
    expect(again.status).toBe(200);
    expect(again.data.id).toBe(first.data.id);
    emu.state.addReaction({ issue_number: 1, content: '+1', user: 'bob' });
    await octokit.rest.reactions.createForIssueComment({ ...R, comment_id: comment.id, content: 'heart' });

    const all = await octokit.rest.reactions.listForIssue({ ...R, issue_number: 1 });
    expect(all.data.map((r) => r.content)).toEqual(['eyes', '+1']);
    expect((await octokit.rest.reactions.listForIssue({ ...R, issue_number: 1, content: '+1' })).data.map((r) => r.user?.login)).toEqual(['bob']);
    expect((await octokit.rest.reactions.listForIssue({ ...R, issue_number: 2 })).data).toEqual([]);
    const issue = await octokit.rest.issues.get({ ...R, issue_number: 1 });
    expect(issue.data.reactions).toMatchObject({ url: `${emu.url}/repos/octo-org/wiki/issues/1/reactions`, total_count: 2, eyes: 1, '+1': 1, heart: 0 });
    expect((await octokit.rest.issues.getComment({ ...R, comment_id: comment.id })).data.reactions).toMatchObject({ total_count: 1, heart: 1, eyes: 0 });
    expect(emu.state.reactionsOnIssue(1).map((r) => r.content)).toEqual(['eyes', '+1']);

    const bad = await failure(
      octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/reactions', { ...R, issue_number: 1, content: 'smile' as 'eyes' }),
    );
    expect(bad.status).toBe(422);
    expect((await failure(octokit.rest.reactions.createForIssue({ ...R, issue_number: 99, content: 'eyes' }))).status).toBe(404);
    expect((await failure(octokit.rest.reactions.listForIssue({ ...R, issue_number: 99 }))).status).toBe(404);
  });

  it('deletes the caller’s own reaction from an issue or a comment (204); another’s, or one on another subject, is not found', async () => {
    emu.state.addIssue({ number: 1, title: 'Q' });
    emu.state.addIssue({ number: 2, title: 'Other' });
    const comment = emu.state.addComment({ issue_number: 1, body: '/wiki ask how?', user: 'alice' });
    const onIssue = (await octokit.rest.reactions.createForIssue({ ...R, issue_number: 1, content: 'eyes' })).data;
    const onComment = (await octokit.rest.reactions.createForIssueComment({ ...R, comment_id: comment.id, content: 'eyes' })).data;
    const bobs = emu.state.addReaction({ issue_number: 1, content: '+1', user: 'bob' });

    // The wrong subject: an issue reaction through the comment route and the other way round, another issue.
    expect((await failure(octokit.rest.reactions.deleteForIssueComment({ ...R, comment_id: comment.id, reaction_id: onIssue.id }))).status).toBe(404);
    expect((await failure(octokit.rest.reactions.deleteForIssue({ ...R, issue_number: 1, reaction_id: onComment.id }))).status).toBe(404);
    expect((await failure(octokit.rest.reactions.deleteForIssue({ ...R, issue_number: 2, reaction_id: onIssue.id }))).status).toBe(404);
    expect((await failure(octokit.rest.reactions.deleteForIssue({ ...R, issue_number: 1, reaction_id: bobs.id }))).status).toBe(404);

    expect((await octokit.rest.reactions.deleteForIssue({ ...R, issue_number: 1, reaction_id: onIssue.id })).status).toBe(204);
    expect((await octokit.rest.reactions.deleteForIssueComment({ ...R, comment_id: comment.id, reaction_id: onComment.id })).status).toBe(204);
    expect(emu.state.reactionsOnIssue(1).map((r) => r.user)).toEqual(['bob']);
    expect(emu.state.reactionsOn(comment.id)).toEqual([]);
    expect((await octokit.rest.issues.get({ ...R, issue_number: 1 })).data.reactions).toMatchObject({ total_count: 1, eyes: 0, '+1': 1 });
    // Gone: a second delete is not found; a new reaction of the same content is new (201).
    expect((await failure(octokit.rest.reactions.deleteForIssue({ ...R, issue_number: 1, reaction_id: onIssue.id }))).status).toBe(404);
    expect((await octokit.rest.reactions.createForIssue({ ...R, issue_number: 1, content: 'eyes' })).status).toBe(201);
    expect(emu.writes({ successfulOnly: true }).map((r) => `${r.method} ${r.route}`)).toContain(
      'DELETE /repos/{owner}/{repo}/issues/{issue_number}/reactions/{reaction_id}',
    );
  });
});

describe('repository-wide comments', () => {
  it('lists every issue’s comments by ascending id, with since, sort/direction and pagination; reaction rollups follow POSTed reactions', async () => {
    emu.state.addIssue({ number: 1, title: 'One' });
    emu.state.addIssue({ number: 2, title: 'Two' });
    const made = [];
    for (let i = 1; i <= 7; i++) {
      made.push(emu.state.addComment({ issue_number: i % 2 ? 1 : 2, body: `c${i}`, user: 'alice', created_at: `2026-11-2${i}T10:00:00Z` }));
    }
    const all = await octokit.paginate(octokit.rest.issues.listCommentsForRepo, { ...R, per_page: 3 });
    expect(all.map((c) => c.body)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7']);
    expect(all.map((c) => c.issue_url.replace(/^.*\/issues\//, ''))).toEqual(['1', '2', '1', '2', '1', '2', '1']);
    const first = await octokit.rest.issues.listCommentsForRepo({ ...R, per_page: 3 });
    expect(first.data).toHaveLength(3);
    expect(first.headers.link).toContain(`<${emu.url}/repos/octo-org/wiki/issues/comments?per_page=3&page=2>; rel="next"`);
    expect(first.headers.link).toContain('page=3>; rel="last"');

    // since: comments updated at or after the time.
    const since = await octokit.rest.issues.listCommentsForRepo({ ...R, since: '2026-11-25T00:00:00Z' });
    expect(since.data.map((c) => c.body)).toEqual(['c5', 'c6', 'c7']);
    // sort + direction; direction alone is ignored, as on GitHub.
    const newest = await octokit.rest.issues.listCommentsForRepo({ ...R, sort: 'created', direction: 'desc', per_page: 2 });
    expect(newest.data.map((c) => c.body)).toEqual(['c7', 'c6']);
    const oldest = await octokit.rest.issues.listCommentsForRepo({ ...R, sort: 'created', direction: 'asc', per_page: 2 });
    expect(oldest.data.map((c) => c.body)).toEqual(['c1', 'c2']);
    const ignored = await octokit.rest.issues.listCommentsForRepo({ ...R, direction: 'desc', per_page: 2 });
    expect(ignored.data.map((c) => c.body)).toEqual(['c1', 'c2']);
    emu.state.comments[0]!.updated_at = '2026-12-01T00:00:00Z';
    const updated = await octokit.rest.issues.listCommentsForRepo({ ...R, sort: 'updated', per_page: 2 });
    expect(updated.data.map((c) => c.body)).toEqual(['c1', 'c7']);
    const bad = await raw('GET', `/repos/${owner}/${repo}/issues/comments?sort=votes`);
    expect(bad.status).toBe(422);

    // The reactions rollup on every comment response, in step with the reactions given.
    const target = made[2]!;
    const zero = (await octokit.rest.issues.getComment({ ...R, comment_id: target.id })).data.reactions;
    expect(zero).toEqual({
      url: `${emu.url}/repos/octo-org/wiki/issues/comments/${target.id}/reactions`,
      total_count: 0,
      '+1': 0,
      '-1': 0,
      laugh: 0,
      confused: 0,
      heart: 0,
      hooray: 0,
      eyes: 0,
      rocket: 0,
    });
    await octokit.rest.reactions.createForIssueComment({ ...R, comment_id: target.id, content: '+1' });
    await octokit.rest.reactions.createForIssueComment({ ...R, comment_id: target.id, content: '+1' }); // the same user again: no change
    await octokit.rest.reactions.createForIssueComment({ ...R, comment_id: target.id, content: '-1' });
    emu.state.addReaction({ comment_id: target.id, content: '+1', user: 'bob' });
    emu.state.addReaction({ comment_id: target.id, content: 'heart', user: 'bob' });
    const rolled = (await octokit.paginate(octokit.rest.issues.listCommentsForRepo, { ...R, per_page: 100 })).find((c) => c.id === target.id);
    expect(rolled?.reactions).toMatchObject({ total_count: 4, '+1': 2, '-1': 1, heart: 1, laugh: 0 });
    expect((await octokit.rest.issues.listComments({ ...R, issue_number: 1 })).data.find((c) => c.id === target.id)?.reactions).toEqual(rolled?.reactions);
    expect((await octokit.rest.issues.getComment({ ...R, comment_id: target.id })).data.reactions).toEqual(rolled?.reactions);
    // The issue's own route still answers issues.
    expect((await octokit.rest.issues.get({ ...R, issue_number: 2 })).data.title).toBe('Two');
  });
});

describe('labels', () => {
  it('gets (404 when missing), creates (422 already_exists on duplicates), adds to and removes from issues', async () => {
    const missing = await failure(octokit.rest.issues.getLabel({ ...R, name: 'question' }));
    expect(missing.status).toBe(404);
    const created = await octokit.rest.issues.createLabel({ ...R, name: 'wiki gap', color: 'D93F0B', description: 'The wiki could not answer' });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      name: 'wiki gap',
      color: 'd93f0b',
      description: 'The wiki could not answer',
      default: false,
      url: `${emu.url}/repos/octo-org/wiki/labels/wiki%20gap`,
    });
    const got = await octokit.rest.issues.getLabel({ ...R, name: 'Wiki Gap' });
    expect(got.data.id).toBe(created.data.id);
    const dup = await failure(octokit.rest.issues.createLabel({ ...R, name: 'WIKI GAP' }));
    expect(dup.status).toBe(422);
    expect(dup.response?.data).toEqual({
      message: 'Validation Failed',
      errors: [{ resource: 'Label', code: 'already_exists', field: 'name' }],
      documentation_url: 'https://docs.github.com/rest/issues/labels#create-a-label',
      status: '422',
    });
    const badColor = await failure(octokit.rest.issues.createLabel({ ...R, name: 'x', color: '#zzz' }));
    expect(badColor.response?.data).toMatchObject({ errors: [{ resource: 'Label', code: 'invalid', field: 'color' }] });

    emu.state.addIssue({ number: 5, title: 'Q', labels: ['question'] });
    const added = await octokit.rest.issues.addLabels({ ...R, issue_number: 5, labels: ['wiki gap', 'answered'] });
    expect(added.data.map((l) => l.name)).toEqual(['question', 'wiki gap', 'answered']);
    expect(emu.state.findLabel('answered')?.color).toBe('ededed');
    const removed = await octokit.rest.issues.removeLabel({ ...R, issue_number: 5, name: 'question' });
    expect(removed.data.map((l) => l.name)).toEqual(['wiki gap', 'answered']);
    const notOnIssue = await failure(octokit.rest.issues.removeLabel({ ...R, issue_number: 5, name: 'question' }));
    expect(notOnIssue.status).toBe(404);
    expect(notOnIssue.response?.data).toMatchObject({ message: 'Label does not exist' });
    expect(emu.state.issue(5).labels).toEqual(['wiki gap', 'answered']);
    const empty = await failure(octokit.rest.issues.addLabels({ ...R, issue_number: 5, labels: [] }));
    expect(empty.status).toBe(422);
  });
});

describe('collaborator permission', () => {
  it('reports permission and role_name as GitHub does', async () => {
    emu.state.setPermission('tina', 'triage');
    emu.state.setPermission('maya', 'maintain');
    emu.state.setPermission('adam', 'admin');
    emu.state.setPermission('wren', 'write');
    emu.state.setPermission('cory', 'docs-editor', { base: 'write' });
    emu.state.addUser({ login: 'randy' });
    const get = async (username: string) => (await octokit.rest.repos.getCollaboratorPermissionLevel({ ...R, username })).data;
    expect(await get('tina')).toMatchObject({ permission: 'read', role_name: 'triage', user: { login: 'tina', permissions: { triage: true, push: false } } });
    expect(await get('maya')).toMatchObject({ permission: 'write', role_name: 'maintain' });
    emu.state.addIssue({ number: 1, title: 'Q', user: 'maya' });
    expect((await octokit.rest.issues.get({ ...R, issue_number: 1 })).data.author_association).toBe('MEMBER');
    expect(await get('adam')).toMatchObject({ permission: 'admin', role_name: 'admin' });
    expect(await get('wren')).toMatchObject({ permission: 'write', role_name: 'write' });
    expect(await get('cory')).toMatchObject({ permission: 'write', role_name: 'docs-editor' });
    expect(await get('randy')).toMatchObject({ permission: 'read', role_name: 'read' });
    expect(await get('github-actions[bot]')).toMatchObject({ permission: 'write', user: { type: 'Bot' } });
    expect((await failure(get('ghost-user'))).status).toBe(404);
    emu.state.setPermission('randy', 'none');
    expect(await get('randy')).toMatchObject({ permission: 'none', role_name: 'none' });
  });
});

describe('faults', () => {
  it('a 502 is retried by plugin-retry', async () => {
    emu.state.addIssue({ number: 1, title: 'Q' });
    emu.faults.push({ match: { method: 'POST', path: /\/issues\/1\/comments$/ }, times: 1, status: 502 });
    const res = await octokit.rest.issues.createComment({ ...R, issue_number: 1, body: 'answer' });
    expect(res.status).toBe(201);
    const posts = emu.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => [r.status, r.faulted])).toEqual([
      [502, true],
      [201, false],
    ]);
    expect(emu.state.comments).toHaveLength(1);
    expect(emu.faults.pending).toHaveLength(0);
  });

  it('a secondary rate limit (403 + retry-after) is retried by plugin-throttling after retry-after', async () => {
    emu.state.addIssue({ number: 1, title: 'Q' });
    emu.faults.secondaryRateLimit({ match: { method: 'POST', route: '/repos/{owner}/{repo}/issues/{issue_number}/comments' }, retryAfter: 7 });
    const res = await octokit.rest.issues.createComment({ ...R, issue_number: 1, body: 'answer' });
    expect(res.status).toBe(201);
    expect(limits).toEqual([
      { kind: 'secondary-rate-limit', retryAfter: 7, method: 'POST', url: '/repos/{owner}/{repo}/issues/{issue_number}/comments', retryCount: 0 },
    ]);
    const [first, second] = emu.writes();
    expect(first).toMatchObject({ status: 403, faulted: true, responseHeaders: { 'retry-after': '7' } });
    expect((first?.responseBody as { message: string }).message).toMatch(/^You have exceeded a secondary rate limit/);
    expect(second).toMatchObject({ status: 201, faulted: false });
    expect(checkResponse('POST', '/repos/{owner}/{repo}/issues/{issue_number}/comments', 403, first?.responseBody).valid).toBe(true);
  });

  it('a primary rate limit (403 or 429, x-ratelimit-remaining 0) is retried after x-ratelimit-reset', async () => {
    emu.state.addIssue({ number: 1, title: 'Q' });
    emu.faults.primaryRateLimit({ match: { method: 'GET' }, status: 403, resetInSeconds: 2 });
    emu.faults.primaryRateLimit({ match: { method: 'PATCH' }, status: 429, resetInSeconds: 0 });
    const got = await octokit.rest.issues.get({ ...R, issue_number: 1 });
    expect(got.status).toBe(200);
    const patched = await octokit.rest.issues.update({ ...R, issue_number: 1, state: 'closed' });
    expect(patched.data.state).toBe('closed');
    expect(limits.map((l) => [l.kind, l.method])).toEqual([
      ['rate-limit', 'GET'],
      ['rate-limit', 'PATCH'],
    ]);
    expect(limits[0]?.retryAfter).toBeGreaterThanOrEqual(2);
    expect(emu.requests.map((r) => [r.method, r.status])).toEqual([
      ['GET', 403],
      ['GET', 200],
      ['PATCH', 429],
      ['PATCH', 200],
    ]);
    expect(emu.requests[0]?.responseHeaders['x-ratelimit-remaining']).toBe('0');
  });

  it('a permanent failure exhausts the retries and surfaces the error', async () => {
    emu.state.addIssue({ number: 1, title: 'Q' });
    emu.faults.serverError({ match: { path: /\/comments$/ }, status: 500, times: Infinity });
    const err = await failure(octokit.rest.issues.createComment({ ...R, issue_number: 1, body: 'x' }));
    expect(err.status).toBe(500);
    expect(emu.requests).toHaveLength(4); // the first try and plugin-retry's 3 retries
    expect(emu.state.comments).toHaveLength(0);

    // A permanent secondary limit: the handler retries twice, then gives up.
    emu.faults.clear();
    emu.faults.secondaryRateLimit({ match: { method: 'POST' }, times: Infinity, retryAfter: 1 });
    const limited = await failure(octokit.rest.issues.createComment({ ...R, issue_number: 1, body: 'x' }));
    expect(limited.status).toBe(403);
    expect(limits.map((l) => l.retryCount)).toEqual([0, 1, 2]);
  });

  it('skip, delays, dropped connections and custom bodies', async () => {
    emu.state.addIssue({ number: 1, title: 'Q' });
    emu.faults.push({ match: { method: 'POST' }, skip: 1, times: 1, reset: true });
    emu.faults.push({
      match: { method: 'GET', path: '/repos/octo-org/wiki' },
      status: 503,
      body: 'upstream unavailable',
      headers: { 'content-type': 'text/plain' },
      delayMs: 20,
    });
    await octokit.rest.issues.createComment({ ...R, issue_number: 1, body: 'first' }); // skipped
    const second = await octokit.rest.issues.createComment({ ...R, issue_number: 1, body: 'second' }); // dropped, then retried
    expect(second.status).toBe(201);
    expect(emu.state.commentsOn(1).map((c) => c.body)).toEqual(['first', 'second']);
    expect(emu.writes().map((r) => r.status)).toEqual([201, -1, 201]);
    const repoRes = await octokit.rest.repos.get(R);
    expect(repoRes.status).toBe(200);
    expect(emu.requests.filter((r) => r.method === 'GET').map((r) => r.status)).toEqual([503, 200]);
  });

  it('an exhausted core budget answers GitHub’s primary rate-limit 403 until the window resets', async () => {
    let now = Date.UTC(2025, 5, 1, 12, 0, 0);
    await emu.close();
    emu = await startGitHubEmulator({ now: () => new Date(now), rateLimit: { limit: 3 } });
    const { octokit: o, limits: l } = createTestOctokit(emu.url, 'ghs_x', { rateLimitRetries: 0 });
    for (let i = 0; i < 3; i++) await o.rest.repos.get(R);
    const err = await failure(o.rest.repos.get(R));
    expect(err.status).toBe(403);
    expect(err.response?.headers['x-ratelimit-remaining']).toBe('0');
    expect(err.response?.data).toMatchObject({ message: 'API rate limit exceeded for installation ID 1.' });
    expect(l).toHaveLength(1);
    now += 3600_000;
    const after = await o.rest.repos.get(R);
    expect(after.headers['x-ratelimit-remaining']).toBe('2');
  });
});

describe('request log, state read-back and event payloads', () => {
  it('records every request in order, with bodies, so tests can assert the writes', async () => {
    emu.state.addIssue({ number: 2, title: 'What is X?', user: 'alice', labels: ['question'] });
    await octokit.rest.repos.getCollaboratorPermissionLevel({ ...R, username: 'alice' });
    const c = await octokit.rest.issues.createComment({ ...R, issue_number: 2, body: 'X is Y.' });
    await octokit.rest.reactions.createForIssueComment({ ...R, comment_id: c.data.id, content: 'hooray' });
    await octokit.rest.issues.addLabels({ ...R, issue_number: 2, labels: ['answered'] });
    await octokit.rest.issues.removeLabel({ ...R, issue_number: 2, name: 'question' });
    expect(emu.writes().map((r) => `${r.method} ${r.route}`)).toEqual([
      'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
      'POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions',
      'POST /repos/{owner}/{repo}/issues/{issue_number}/labels',
      'DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}',
    ]);
    expect(emu.writes()[0]).toMatchObject({
      path: '/repos/octo-org/wiki/issues/2/comments',
      body: { body: 'X is Y.' },
      params: { issue_number: '2' },
      actor: 'github-actions[bot]',
    });
    expect(emu.requests[0]?.headers.authorization).toBe('token [redacted]');
    expect(emu.requests.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(emu.state.issue(2).labels).toEqual(['answered']);
    expect(emu.state.reactions.map((r) => r.content)).toEqual(['hooray']);
  });

  it('builds event payloads from the state', () => {
    emu.state.addIssue({ number: 9, title: '/wiki how are pages indexed?', user: 'alice' });
    const comment = emu.state.addComment({ issue_number: 9, body: '/wiki ask again', user: 'bob' });
    const opened = emu.events.issues('opened', 9);
    expect(opened).toMatchObject({
      action: 'opened',
      issue: { number: 9, user: { login: 'alice' } },
      repository: { full_name: 'octo-org/wiki' },
      sender: { login: 'alice' },
    });
    const created = emu.events.issueComment('created', comment.id);
    expect(created).toMatchObject({ action: 'created', comment: { id: comment.id, body: '/wiki ask again' }, issue: { number: 9, comments: 1 } });
    expectValidResponse('GET', '/repos/{owner}/{repo}/issues/{issue_number}', 200, emu.render.issue(emu.state.issue(9), { withClosedBy: true }));
  });
});

describe('the OpenAPI validator', () => {
  it('compiles every schema of the trimmed description, which covers every emulated operation', () => {
    expect(compileAllSchemas()).toBeGreaterThan(40);
    expect(endpoints().source.package).toMatch(/^@octokit\/openapi@23\./);
    expect(Object.keys(endpoints().operations)).toHaveLength(40);
  });

  it('rejects bodies that do not match GitHub’s schema and accepts concrete paths', () => {
    emu.state.addIssue({ number: 1, title: 'Q' });
    const good = emu.render.issue(emu.state.issue(1));
    expectValidResponse('GET', '/repos/octo-org/wiki/issues/1', 200, good);
    const { number: _n, ...withoutNumber } = good;
    expect(() => expectValidResponse('GET', '/repos/{owner}/{repo}/issues/{issue_number}', 200, withoutNumber)).toThrow(/must have required property 'number'/);
    expect(() => expectValidResponse('GET', '/repos/{owner}/{repo}/issues/{issue_number}', 200, { ...good, state_reason: 'merged' })).toThrow(/state_reason/);
    expect(() => expectValidResponse('GET', '/repos/{owner}/{repo}/issues/{issue_number}', 201, good)).toThrow(/not a documented success status/);
    expect(() => expectValidResponse('DELETE', '/repos/{owner}/{repo}/issues/comments/{comment_id}', 204, { x: 1 })).toThrow(/has no body/);
    expect(() =>
      expectValidResponse('GET', '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', 200, [
        { id: 1, node_id: 'x', user: null, content: 'smile', created_at: 'now' },
      ]),
    ).toThrow(/content/);
    expect(() => expectValidResponse('PUT', '/nowhere', 200, {})).toThrow(/no operation/);
    expect(() => expectValidResponse('POST', '/repos/{owner}/{repo}/labels', 422, { message: 'Validation Failed' })).toThrow(/documentation_url/);
  });
});
