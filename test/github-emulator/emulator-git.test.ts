// The GitHub emulator's git-backed part — Git Data API, contents and pull requests, each emulated
// repository backed by a real git repository — driven by a real octokit (getOctokit from
// @actions/github with the retry and throttling plugins on). Split from emulator.test.ts (same
// setup); after every test, every response the emulator produced from a route is validated against
// GitHub's OpenAPI description (test/fixtures/github-openapi/endpoints.json).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { devNull, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GitHubEmulator, startGitHubEmulator } from './emulator.js';
import { expectValidResponse } from './openapi-validate.js';
import { createTestOctokit, type TestOctokit } from './test-octokit.js';
import { closeCheckingResponses, failure } from './test-support.js';

const owner = 'octo-org';
const repo = 'wiki';
const R = { owner, repo };

let emu: GitHubEmulator;
let octokit: TestOctokit;

beforeEach(async () => {
  emu = await startGitHubEmulator();
  ({ octokit } = createTestOctokit(emu.url));
});

afterEach(() => closeCheckingResponses(emu));

const run = promisify(execFile);
const tempDirs: string[] = [];
afterAll(() => {
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = mkdtempSync(path.join(tmpdir(), prefix));
  tempDirs.push(d);
  return d;
}

/** A small wiki working tree to seed from (with an ignored file that must not be committed). */
function seedTree(): string {
  const dir = tempDir('gh-emulator-seed-');
  const files: Record<string, string> = {
    'wiki/index.md': '# Index\n\n- [Deploy](how-to/deploy.md)\n',
    'wiki/how-to/deploy.md': '# Deploy\n\nRun `make deploy`.\n',
    'wiki/log.md': '# Log\n\n- seeded\n',
    '.gitignore': 'scratch/\n',
    'scratch/notes.txt': 'ignored\n',
  };
  for (const [p, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), content);
  }
  return dir;
}

/** git as a human at a terminal (own identity, no global configuration). */
async function humanGit(cwd: string, ...args: string[]): Promise<string> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
  Object.assign(env, {
    GIT_CONFIG_GLOBAL: devNull,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Hana Human',
    GIT_AUTHOR_EMAIL: 'hana@example.com',
    GIT_COMMITTER_NAME: 'Hana Human',
    GIT_COMMITTER_EMAIL: 'hana@example.com',
  });
  return (await run('git', args, { cwd, env })).stdout.trim();
}

const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

describe('git data, contents and pull requests (real git)', () => {
  beforeEach(async () => {
    await emu.close();
    emu = await startGitHubEmulator({ repos: [{ owner, name: repo, seedFrom: seedTree() }] });
    emu.state.setPermission('alice', 'write');
    ({ octokit } = createTestOctokit(emu.url));
  });

  it('seeds the repository from a working tree and serves refs, contents, trees and commits', async () => {
    const main = emu.state.branchHead('main');
    expect(main).toMatch(/^[0-9a-f]{40}$/);
    expect(emu.state.branchHead('octo-org/wiki', 'main')).toBe(main);
    expect(emu.state.fileAt('octo-org/wiki', 'main', 'wiki/log.md')).toBe('# Log\n\n- seeded\n');
    expect(emu.state.fileAt('main', 'scratch/notes.txt')).toBeUndefined();
    expect(await humanGit(tmpdir(), '--git-dir', emu.gitDir('wiki'), 'log', '--format=%s', 'main')).toBe('Initial commit');

    const ref = await octokit.rest.git.getRef({ ...R, ref: 'heads/main' });
    expect(ref.data).toEqual({
      ref: 'refs/heads/main',
      node_id: expect.any(String),
      url: `${emu.url}/repos/octo-org/wiki/git/refs/heads/main`,
      object: { sha: main, type: 'commit', url: `${emu.url}/repos/octo-org/wiki/git/commits/${main}` },
    });
    const missing = await failure(octokit.rest.git.getRef({ ...R, ref: 'heads/nope' }));
    expect(missing.status).toBe(404);
    const matching = await octokit.rest.git.listMatchingRefs({ ...R, ref: 'heads/ma' });
    expect(matching.data.map((r) => r.ref)).toEqual(['refs/heads/main']);
    expect((await octokit.rest.git.listMatchingRefs({ ...R, ref: 'heads/capture/' })).data).toEqual([]);

    const file = await octokit.rest.repos.getContent({ ...R, path: 'wiki/how-to/deploy.md' });
    expect(file.data).toMatchObject({ type: 'file', encoding: 'base64', name: 'deploy.md', path: 'wiki/how-to/deploy.md', size: 29 });
    expect(decode((file.data as { content: string }).content)).toBe('# Deploy\n\nRun `make deploy`.\n');
    const dir = await octokit.rest.repos.getContent({ ...R, path: 'wiki', ref: 'main' });
    expect((dir.data as Array<{ name: string; type: string }>).map((e) => [e.name, e.type])).toEqual([
      ['how-to', 'dir'],
      ['index.md', 'file'],
      ['log.md', 'file'],
    ]);
    expect((await failure(octokit.rest.repos.getContent({ ...R, path: 'scratch/notes.txt' }))).status).toBe(404); // .gitignore honored
    expect((await failure(octokit.rest.repos.getContent({ ...R, path: 'wiki/index.md', ref: 'nope' }))).response?.data).toMatchObject({
      message: 'No commit found for the ref nope',
    });

    const commit = await octokit.rest.git.getCommit({ ...R, commit_sha: main as string });
    expect(commit.data).toMatchObject({
      sha: main,
      message: 'Initial commit',
      parents: [],
      verification: { verified: false, reason: 'unsigned', signature: null, payload: null },
    });
    const tree = await octokit.rest.git.getTree({ ...R, tree_sha: commit.data.tree.sha, recursive: 'true' });
    expect(tree.data.tree.map((e) => `${e.type} ${e.path}`)).toEqual([
      'blob .gitignore',
      'tree wiki',
      'tree wiki/how-to',
      'blob wiki/how-to/deploy.md',
      'blob wiki/index.md',
      'blob wiki/log.md',
    ]);
    const byBranch = await octokit.rest.git.getTree({ ...R, tree_sha: 'main' });
    expect(byBranch.data.tree.map((e) => e.path)).toEqual(['.gitignore', 'wiki']);
    const blobSha = tree.data.tree.find((e) => e.path === 'wiki/index.md')?.sha as string;
    const blob = await octokit.rest.git.getBlob({ ...R, file_sha: blobSha });
    expect(decode(blob.data.content)).toBe(emu.state.fileAt('main', 'wiki/index.md'));
  });

  it('opens a capture pull request through the Git Data API and merges it for real', async () => {
    const base = emu.state.branchHead('main') as string;
    const baseCommit = await octokit.rest.git.getCommit({ ...R, commit_sha: base });

    // blob → tree (an existing blob, inline content, a deletion) → commit → ref
    const page = '# Rollback\n\nRun `make rollback`.\n';
    const blob = await octokit.rest.git.createBlob({ ...R, content: Buffer.from(page).toString('base64'), encoding: 'base64' });
    expect(blob.status).toBe(201);
    // A real git object id: sha1("blob <size>\0<content>").
    expect(blob.data.sha).toBe(
      createHash('sha1')
        .update(`blob ${Buffer.byteLength(page)}\0${page}`)
        .digest('hex'),
    );
    const tree = await octokit.rest.git.createTree({
      ...R,
      base_tree: baseCommit.data.tree.sha,
      tree: [
        { path: 'wiki/how-to/rollback.md', mode: '100644', type: 'blob', sha: blob.data.sha },
        { path: 'wiki/log.md', mode: '100644', type: 'blob', content: '# Log\n\n- seeded\n- captured rollback\n' },
        { path: 'wiki/index.md', mode: '100644', type: 'blob', sha: null },
      ],
    });
    expect(tree.status).toBe(201);
    expect(tree.data.tree.map((e) => e.path)).toEqual(['.gitignore', 'wiki']);
    const commit = await octokit.rest.git.createCommit({ ...R, message: 'wiki: capture rollback', tree: tree.data.sha, parents: [base] });
    expect(commit.status).toBe(201);
    expect(commit.data).toMatchObject({
      message: 'wiki: capture rollback',
      parents: [{ sha: base }],
      author: { name: 'github-actions[bot]', email: '41898282+github-actions[bot]@users.noreply.github.com' },
      committer: { name: 'GitHub', email: 'noreply@github.com' },
      verification: {
        verified: true,
        reason: 'valid',
        signature: expect.stringContaining('-----BEGIN PGP SIGNATURE-----'),
        payload: expect.stringContaining(`tree ${tree.data.sha}\nparent ${base}\n`),
      },
    });
    expect(emu.state.findCommit(commit.data.sha)).toMatchObject({
      customAuthor: false,
      customCommitter: false,
      verified: true,
      actor: 'github-actions[bot]',
      via: 'git/commits',
    });
    // The sha is a real object: git itself sees the signature header and the tree.
    expect(await humanGit(tmpdir(), '--git-dir', emu.gitDir(), 'cat-file', '-p', commit.data.sha)).toContain('gpgsig -----BEGIN PGP SIGNATURE-----');
    const ref = await octokit.rest.git.createRef({ ...R, ref: 'refs/heads/capture/rollback', sha: commit.data.sha });
    expect(ref.status).toBe(201);
    expect(ref.headers.location).toBe(`${emu.url}/repos/octo-org/wiki/git/refs/heads/capture/rollback`);
    const again = await failure(octokit.rest.git.createRef({ ...R, ref: 'refs/heads/capture/rollback', sha: commit.data.sha }));
    expect(again.status).toBe(422);
    expect(again.response?.data).toMatchObject({ message: 'Reference already exists' });
    expect(emu.state.fileAt('capture/rollback', 'wiki/how-to/rollback.md')).toBe(page);
    expect(emu.state.fileAt('capture/rollback', 'wiki/index.md')).toBeUndefined();

    // The pull request (an issue too: same number space, labels through the issues endpoints).
    emu.state.addIssue({ number: 1, title: 'How do I roll back?' });
    const created = await octokit.rest.pulls.create({
      ...R,
      title: 'wiki: capture rollback',
      head: 'capture/rollback',
      base: 'main',
      body: 'Captured from #1.',
      draft: false,
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      number: 2,
      state: 'open',
      draft: false,
      merged: false,
      mergeable: null,
      mergeable_state: 'unknown',
      head: { ref: 'capture/rollback', sha: commit.data.sha, label: 'octo-org:capture/rollback' },
      base: { ref: 'main', sha: base },
      user: { login: 'github-actions[bot]' },
      html_url: 'http://github.test/octo-org/wiki/pull/2',
    });
    expect(created.headers.location).toBe(`${emu.url}/repos/octo-org/wiki/pulls/2`);
    await octokit.rest.issues.addLabels({ ...R, issue_number: 2, labels: ['wiki-capture'] });
    const asIssue = await octokit.rest.issues.get({ ...R, issue_number: 2 });
    expect(asIssue.data.pull_request?.url).toBe(`${emu.url}/repos/octo-org/wiki/pulls/2`);
    expect(asIssue.data.labels.map((l) => (typeof l === 'string' ? l : l.name))).toEqual(['wiki-capture']);
    await octokit.rest.pulls.requestReviewers({ ...R, pull_number: 2, reviewers: ['alice'] });
    const stranger = await failure(octokit.rest.pulls.requestReviewers({ ...R, pull_number: 2, reviewers: ['mallory'] }));
    expect(stranger.status).toBe(422);

    const got = await octokit.rest.pulls.get({ ...R, pull_number: 2 });
    expect(got.data).toMatchObject({
      mergeable: true,
      mergeable_state: 'clean',
      commits: 1,
      changed_files: 3,
      additions: 4,
      deletions: 3,
      labels: [{ name: 'wiki-capture' }],
      requested_reviewers: [{ login: 'alice' }],
    });
    // The test merge commit GitHub keeps at refs/pull/N/merge.
    expect(got.data.merge_commit_sha).toBe(await humanGit(tmpdir(), '--git-dir', emu.gitDir(), 'rev-parse', 'refs/pull/2/merge'));
    expect(emu.state.pull(2)).toMatchObject({
      head: 'capture/rollback',
      base: 'main',
      title: 'wiki: capture rollback',
      labels: ['wiki-capture'],
      state: 'open',
    });

    const listed = await octokit.rest.pulls.list({ ...R, head: 'octo-org:capture/rollback' });
    expect(listed.data.map((p) => p.number)).toEqual([2]);
    expect((await octokit.rest.pulls.list({ ...R, head: 'octo-org:capture/other' })).data).toEqual([]);
    expect((await octokit.rest.pulls.list({ ...R, head: 'capture/other' })).data).toHaveLength(1); // no owner: GitHub ignores the filter
    const dup = await failure(octokit.rest.pulls.create({ ...R, title: 'again', head: 'octo-org:capture/rollback', base: 'main' }));
    expect(dup.status).toBe(422);
    expect(dup.response?.data).toMatchObject({
      message: 'Validation Failed',
      errors: [{ resource: 'PullRequest', code: 'custom', message: 'A pull request already exists for octo-org:capture/rollback.' }],
    });

    // Merge: a real merge commit on main, signed, with the branch's changes.
    const merged = await octokit.rest.pulls.merge({ ...R, pull_number: 2 });
    expect(merged.data).toEqual({ sha: expect.stringMatching(/^[0-9a-f]{40}$/), merged: true, message: 'Pull Request successfully merged' });
    expect(emu.state.branchHead('main')).toBe(merged.data.sha);
    expect(emu.state.fileAt('main', 'wiki/how-to/rollback.md')).toBe(page);
    expect(emu.state.fileAt('main', 'wiki/index.md')).toBeUndefined();
    const mergeCommit = await octokit.rest.git.getCommit({ ...R, commit_sha: merged.data.sha });
    expect(mergeCommit.data).toMatchObject({
      message: 'Merge pull request #2 from octo-org/capture/rollback\n\nwiki: capture rollback',
      parents: [{ sha: base }, { sha: commit.data.sha }],
      committer: { name: 'GitHub' },
      verification: { verified: true },
    });
    const after = await octokit.rest.pulls.get({ ...R, pull_number: 2 });
    expect(after.data).toMatchObject({
      state: 'closed',
      merged: true,
      merge_commit_sha: merged.data.sha,
      merged_by: { login: 'github-actions[bot]' },
      mergeable: null,
      commits: 1,
    });
    expect(after.data.merged_at).not.toBeNull();
    expect((await octokit.rest.issues.get({ ...R, issue_number: 2 })).data.pull_request?.merged_at).toBe(after.data.merged_at);
    const twice = await failure(octokit.rest.pulls.merge({ ...R, pull_number: 2 }));
    expect(twice.status).toBe(405);
    expect(twice.response?.data).toMatchObject({ message: 'Pull Request is not mergeable' });

    const event = emu.events.pullRequest('closed', 2);
    expect(event).toMatchObject({
      action: 'closed',
      number: 2,
      pull_request: {
        number: 2,
        merged: true,
        merge_commit_sha: merged.data.sha,
        body: 'Captured from #1.',
        head: { ref: 'capture/rollback', sha: commit.data.sha },
        base: { ref: 'main' },
        user: { login: 'github-actions[bot]' },
        html_url: 'http://github.test/octo-org/wiki/pull/2',
      },
      repository: { full_name: 'octo-org/wiki' },
      sender: { login: 'github-actions[bot]' },
    });
    expectValidResponse('GET', '/repos/{owner}/{repo}/pulls/{pull_number}', 200, event.pull_request);
  });

  it('a conflicting pull request is not mergeable: mergeable false / dirty, and merging answers 405', async () => {
    emu.state.commitFiles({
      branch: 'capture/deploy',
      files: { 'wiki/how-to/deploy.md': '# Deploy\n\nRun `make deploy ENV=prod`.\n' },
      message: 'capture: deploy env',
    });
    const pr = await octokit.rest.pulls.create({ ...R, title: 'capture deploy', head: 'capture/deploy', base: 'main' });
    expect((await octokit.rest.pulls.get({ ...R, pull_number: pr.data.number })).data).toMatchObject({ mergeable: true, mergeable_state: 'clean' });

    // A human edits the same line on main and pushes, with plain git against the emulator's repository.
    const clone = tempDir('gh-emulator-clone-');
    await humanGit(clone, 'clone', '--quiet', emu.gitDir('wiki'), '.');
    writeFileSync(path.join(clone, 'wiki/how-to/deploy.md'), '# Deploy\n\nRun `make ship`.\n');
    await humanGit(clone, 'commit', '--quiet', '-am', 'rename deploy target');
    await humanGit(clone, 'push', '--quiet', 'origin', 'HEAD:main');
    const pushed = await humanGit(clone, 'rev-parse', 'HEAD');
    expect(emu.state.branchHead('main')).toBe(pushed);

    const got = await octokit.rest.pulls.get({ ...R, pull_number: pr.data.number });
    expect(got.data).toMatchObject({ mergeable: false, mergeable_state: 'dirty', merge_commit_sha: null, base: { sha: pushed } });
    const err = await failure(octokit.rest.pulls.merge({ ...R, pull_number: pr.data.number }));
    expect(err.status).toBe(405);
    expect(err.response?.data).toMatchObject({ message: 'Merge conflict' });
    expect(emu.state.branchHead('main')).toBe(pushed);
    expect(emu.state.pull(pr.data.number)).toMatchObject({ merged: false, state: 'open' });

    // A stale sha is refused before merging.
    const stale = await failure(octokit.rest.pulls.merge({ ...R, pull_number: pr.data.number, sha: pushed }));
    expect(stale.status).toBe(409);

    // An event payload can claim a merge the test did not perform through the API.
    const closed = emu.events.pullRequest('closed', pr.data.number, { merged: true, sender: 'alice' });
    expect(closed).toMatchObject({
      action: 'closed',
      pull_request: { merged: true, state: 'closed', head: { ref: 'capture/deploy' } },
      sender: { login: 'alice' },
    });

    // Drafts report mergeable_state 'draft' and cannot be merged.
    emu.state.commitFiles({ branch: 'capture/draft', files: { 'wiki/draft.md': '# Draft\n' } });
    const draft = await octokit.rest.pulls.create({ ...R, title: 'draft', head: 'capture/draft', base: 'main', draft: true });
    expect((await octokit.rest.pulls.get({ ...R, pull_number: draft.data.number })).data).toMatchObject({
      draft: true,
      mergeable: true,
      mergeable_state: 'draft',
    });
    expect((await failure(octokit.rest.pulls.merge({ ...R, pull_number: draft.data.number }))).status).toBe(405);
  });

  it('the repository setting forbids github-actions[bot] to create pull requests (GitHub’s 403)', async () => {
    await emu.close();
    emu = await startGitHubEmulator({
      repos: [{ owner, name: repo, seedFiles: { 'wiki/index.md': '# Index\n' } }],
      tokens: { ghs_actions: { login: 'github-actions[bot]' }, ghp_alice: { login: 'alice' } },
    });
    emu.state.setPermission('alice', 'write');
    emu.state.setActionsCanCreatePullRequests(false);
    emu.state.commitFiles({ branch: 'capture/x', files: { 'wiki/x.md': '# X\n' } });
    const bot = createTestOctokit(emu.url, 'ghs_actions').octokit;
    const denied = await failure(bot.rest.pulls.create({ ...R, title: 'capture x', head: 'capture/x', base: 'main' }));
    expect(denied.status).toBe(403);
    expect(denied.response?.data).toEqual({
      message: 'GitHub Actions is not permitted to create or approve pull requests.',
      documentation_url: 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request',
      status: '403',
    });
    expect(emu.state.pulls).toHaveLength(0);
    // The bot can still push the branch; a person can open the pull request.
    const alice = createTestOctokit(emu.url, 'ghp_alice').octokit;
    expect((await alice.rest.pulls.create({ ...R, title: 'capture x', head: 'capture/x', base: 'main' })).status).toBe(201);
    emu.state.setActionsCanCreatePullRequests(true);
    emu.state.commitFiles({ branch: 'capture/y', files: { 'wiki/y.md': '# Y\n' } });
    expect((await bot.rest.pulls.create({ ...R, title: 'capture y', head: 'capture/y', base: 'main' })).status).toBe(201);
  });

  it('moving a ref without force must fast-forward (422 "Update is not a fast forward"); refs can be deleted', async () => {
    const main = emu.state.branchHead('main') as string;
    const a = emu.state.commitFiles({ branch: 'capture/a', files: { 'wiki/a.md': 'a\n' } });
    const b = emu.state.commitFiles({ branch: 'capture/b', files: { 'wiki/b.md': 'b\n' } });
    await octokit.rest.git.createRef({ ...R, ref: 'refs/heads/capture/x', sha: main });
    const ff = await octokit.rest.git.updateRef({ ...R, ref: 'heads/capture/x', sha: a });
    expect(ff.data.object.sha).toBe(a);
    const nonFf = await failure(octokit.rest.git.updateRef({ ...R, ref: 'heads/capture/x', sha: b }));
    expect(nonFf.status).toBe(422);
    expect(nonFf.response?.data).toEqual({
      message: 'Update is not a fast forward',
      documentation_url: 'https://docs.github.com/rest/git/refs#update-a-reference',
      status: '422',
    });
    expect(emu.state.branchHead('capture/x')).toBe(a);
    const forced = await octokit.rest.git.updateRef({ ...R, ref: 'heads/capture/x', sha: b, force: true });
    expect(forced.data.object.sha).toBe(b);
    expect((await failure(octokit.rest.git.updateRef({ ...R, ref: 'heads/nope', sha: b }))).response?.data).toMatchObject({
      message: 'Reference does not exist',
    });
    expect(
      (await failure(octokit.rest.git.updateRef({ ...R, ref: 'heads/capture/x', sha: '0123456789012345678901234567890123456789' }))).response?.data,
    ).toMatchObject({ message: 'Object does not exist' });

    // Deleting a pull request's head branch closes the pull request, as on GitHub.
    const pr = await octokit.rest.pulls.create({ ...R, title: 'x', head: 'capture/x', base: 'main' });
    const del = await octokit.rest.git.deleteRef({ ...R, ref: 'heads/capture/x' });
    expect(del.status).toBe(204);
    expect(emu.state.branchHead('capture/x')).toBeUndefined();
    expect((await failure(octokit.rest.git.getRef({ ...R, ref: 'heads/capture/x' }))).status).toBe(404);
    const again = await failure(octokit.rest.git.deleteRef({ ...R, ref: 'heads/capture/x' }));
    expect(again.status).toBe(422);
    expect(again.response?.data).toMatchObject({ message: 'Reference does not exist' });
    expect((await octokit.rest.pulls.get({ ...R, pull_number: pr.data.number })).data).toMatchObject({ state: 'closed', merged: false });
  });

  it('sees refs written with plain git at once: packed, loose, symbolic and annotated tags', async () => {
    const git = (...args: string[]) => humanGit(tmpdir(), '--git-dir', emu.gitDir(), ...args);
    const a = emu.state.commitFiles({ branch: 'capture/a', files: { 'wiki/a.md': 'a\n' } });
    const b = emu.state.commitFiles({ branch: 'capture/b', files: { 'wiki/b.md': 'b\n' } });
    await git('tag', '-a', '-m', 'release', 'v1', a);
    // Afterwards every ref lives in packed-refs only.
    await git('pack-refs', '--all');
    expect(emu.state.branchHead('capture/a')).toBe(a);
    expect((await octokit.rest.git.getRef({ ...R, ref: 'tags/v1' })).data.object).toMatchObject({ sha: await git('rev-parse', 'v1'), type: 'tag' });
    const tagged = await octokit.rest.repos.getContent({ ...R, path: 'wiki/a.md', ref: 'v1' });
    expect(decode((tagged.data as { content: string }).content)).toBe('a\n');

    // A loose ref written over a packed one wins; a symbolic ref shows what it points at.
    await git('update-ref', 'refs/heads/capture/a', b);
    await git('symbolic-ref', 'refs/heads/alias', 'refs/heads/capture/a');
    expect(emu.state.branchHead('capture/a')).toBe(b);
    expect((await octokit.rest.git.listMatchingRefs({ ...R, ref: 'heads/' })).data.map((r) => [r.ref, r.object.sha])).toEqual([
      ['refs/heads/alias', b],
      ['refs/heads/capture/a', b],
      ['refs/heads/capture/b', b],
      ['refs/heads/main', emu.state.branchHead('main')],
    ]);

    // Deleting it removes both the loose and the packed entry; the symbolic ref dangles and is left out, as by for-each-ref.
    await git('update-ref', '-d', 'refs/heads/capture/a');
    expect((await failure(octokit.rest.git.getRef({ ...R, ref: 'heads/capture/a' }))).status).toBe(404);
    expect((await octokit.rest.git.listMatchingRefs({ ...R, ref: 'heads/' })).data.map((r) => r.ref)).toEqual(['refs/heads/capture/b', 'refs/heads/main']);
  });

  it('a protected branch refuses ref updates and deletion (GitHub’s 422) but takes merges', async () => {
    const main = emu.state.branchHead('main') as string;
    emu.state.protectBranch('main');
    const ahead = emu.state.commitFiles({ branch: 'capture/p', files: { 'wiki/p.md': '# P\n' } });
    const patch = await failure(octokit.rest.git.updateRef({ ...R, ref: 'heads/main', sha: ahead }));
    expect(patch.status).toBe(422);
    expect(patch.response?.data).toMatchObject({ message: 'Changes must be made through a pull request.' });
    expect((await failure(octokit.rest.git.updateRef({ ...R, ref: 'heads/main', sha: ahead, force: true }))).status).toBe(422);
    expect(emu.state.branchHead('main')).toBe(main);
    // Other branches are not protected.
    await octokit.rest.git.createRef({ ...R, ref: 'refs/heads/capture/q', sha: main });
    expect((await octokit.rest.git.updateRef({ ...R, ref: 'heads/capture/q', sha: ahead })).status).toBe(200);
    // A pull request still merges into it.
    const pr = await octokit.rest.pulls.create({ ...R, title: 'p', head: 'capture/p', base: 'main' });
    const merged = await octokit.rest.pulls.merge({ ...R, pull_number: pr.data.number });
    expect(emu.state.branchHead('main')).toBe(merged.data.sha);
    // A custom status and message, and a protected branch that is not the default one.
    emu.state.protectBranch('release', { status: 403, message: 'Resource protected by organization rule' });
    emu.state.commitFiles({ branch: 'release', files: { 'r.md': 'r\n' } });
    const del = await failure(octokit.rest.git.deleteRef({ ...R, ref: 'heads/release' }));
    expect(del.status).toBe(403);
    expect(del.response?.data).toMatchObject({ message: 'Resource protected by organization rule' });
    emu.state.unprotectBranch('main');
    expect((await octokit.rest.git.updateRef({ ...R, ref: 'heads/main', sha: merged.data.sha })).status).toBe(200);
    expect(emu.state.repo().protectedBranches.has('release')).toBe(true);
  });

  it('a commit with a custom author is not signed; one without is verified', async () => {
    const main = emu.state.branchHead('main') as string;
    const { data: head } = await octokit.rest.git.getCommit({ ...R, commit_sha: main });
    const custom = await octokit.rest.git.createCommit({
      ...R,
      message: 'by hand',
      tree: head.tree.sha,
      parents: [main],
      author: { name: 'Wiki Bot', email: 'wiki@example.com', date: '2026-01-02T03:04:05+02:00' },
    });
    expect(custom.data).toMatchObject({
      author: { name: 'Wiki Bot', email: 'wiki@example.com', date: '2026-01-02T01:04:05Z' },
      committer: { name: 'Wiki Bot', email: 'wiki@example.com' },
      verification: { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null },
    });
    expect(emu.state.findCommit(custom.data.sha)).toMatchObject({ customAuthor: true, verified: false });
    const signed = await octokit.rest.git.createCommit({ ...R, message: 'by GitHub', tree: head.tree.sha, parents: [main] });
    expect(signed.data.verification).toMatchObject({ verified: true, reason: 'valid' });
    expect(emu.state.findCommit(signed.data.sha)).toMatchObject({ customAuthor: false, customCommitter: false, customSignature: false, verified: true });
    const badTree = await failure(octokit.rest.git.createCommit({ ...R, message: 'x', tree: main, parents: [main] }));
    expect(badTree.response?.data).toMatchObject({ message: 'Tree SHA does not exist' });
    const badParent = await failure(octokit.rest.git.createCommit({ ...R, message: 'x', tree: head.tree.sha, parents: [head.tree.sha] }));
    expect(badParent.response?.data).toMatchObject({ message: 'Parent SHA does not exist or is not a commit object' });
  });

  it('refuses empty pull requests and answers 409 on an empty repository', async () => {
    const main = emu.state.branchHead('main') as string;
    await octokit.rest.git.createRef({ ...R, ref: 'refs/heads/capture/same', sha: main });
    const empty = await failure(octokit.rest.pulls.create({ ...R, title: 'nothing', head: 'capture/same', base: 'main' }));
    expect(empty.status).toBe(422);
    expect(empty.response?.data).toMatchObject({ errors: [{ resource: 'PullRequest', code: 'custom', message: 'No commits between main and capture/same' }] });
    const noBranch = await failure(octokit.rest.pulls.create({ ...R, title: 'x', head: 'capture/none', base: 'main' }));
    expect(noBranch.response?.data).toMatchObject({ errors: [{ resource: 'PullRequest', field: 'head', code: 'invalid' }] });

    // By default an unseeded repository has GitHub's auto-init README commit; autoInit: false leaves it empty.
    await emu.close();
    emu = await startGitHubEmulator({
      repos: [
        { owner, name: repo, description: 'The team wiki' },
        { owner, name: 'empty', autoInit: false },
      ],
    });
    ({ octokit } = createTestOctokit(emu.url));
    expect(emu.state.fileAt('main', 'README.md')).toBe('# wiki\nThe team wiki\n');
    expect((await octokit.rest.git.getRef({ ...R, ref: 'heads/main' })).data.object.sha).toBe(emu.state.branchHead('main'));
    const E = { owner, repo: 'empty' };
    const ref = await failure(octokit.rest.git.getRef({ ...E, ref: 'heads/main' }));
    expect(ref.status).toBe(409);
    expect(ref.response?.data).toMatchObject({ message: 'Git Repository is empty.' });
    expect((await failure(octokit.rest.git.createBlob({ ...E, content: 'x' }))).status).toBe(409);
    expect((await failure(octokit.rest.repos.getContent({ ...E, path: 'README.md' }))).response?.data).toMatchObject({ message: 'This repository is empty.' });
  });

  it('squash and rebase merges, pagination and PATCH', async () => {
    for (const n of [1, 2, 3]) {
      emu.state.commitFiles({ branch: `capture/p${n}`, files: { [`wiki/p${n}.md`]: `# P${n}\n` }, message: `add p${n}` });
      emu.state.commitFiles({ branch: `capture/p${n}`, files: { [`wiki/p${n}.md`]: `# P${n}\n\nmore\n` }, message: `expand p${n}` });
      await octokit.rest.pulls.create({ ...R, title: `page ${n}`, head: `capture/p${n}`, base: 'main' });
    }
    const first = await octokit.rest.pulls.list({ ...R, per_page: 2 });
    expect(first.data.map((p) => p.number)).toEqual([3, 2]);
    expect(first.headers.link).toContain('rel="next"');
    expect((await octokit.paginate(octokit.rest.pulls.list, { ...R, per_page: 1, direction: 'asc' })).map((p) => p.number)).toEqual([1, 2, 3]);

    const before = emu.state.branchHead('main') as string;
    const squash = await octokit.rest.pulls.merge({ ...R, pull_number: 1, merge_method: 'squash' });
    const sq = await octokit.rest.git.getCommit({ ...R, commit_sha: squash.data.sha });
    expect(sq.data).toMatchObject({ message: 'page 1 (#1)\n\n* add p1\n\n* expand p1', parents: [{ sha: before }], verification: { verified: true } });
    const rebase = await octokit.rest.pulls.merge({ ...R, pull_number: 2, merge_method: 'rebase' });
    const log = await humanGit(tmpdir(), '--git-dir', emu.gitDir(), 'log', '--format=%s|%cn', `${squash.data.sha}..${rebase.data.sha}`);
    expect(log.split('\n')).toEqual(['expand p2|GitHub', 'add p2|GitHub']);
    expect(emu.state.fileAt('main', 'wiki/p2.md')).toBe('# P2\n\nmore\n');

    const closed = await octokit.rest.pulls.update({ ...R, pull_number: 3, title: 'page three', body: 'edited', state: 'closed' });
    expect(closed.data).toMatchObject({ title: 'page three', body: 'edited', state: 'closed', merged: false, mergeable: null });
    expect((await octokit.rest.pulls.list({ ...R, state: 'closed' })).data.map((p) => p.number)).toEqual([3, 2, 1]);
    const reopened = await octokit.rest.pulls.update({ ...R, pull_number: 3, state: 'open' });
    expect(reopened.data).toMatchObject({ state: 'open', mergeable: true });
  });

  it("refuses a pull request body over GitHub's 65,536 characters with its 422, on create and on update", async () => {
    emu.state.commitFiles({ branch: 'capture/long', files: { 'wiki/long.md': '# Long\n' }, message: 'add long' });
    const tooLong = await failure(octokit.rest.pulls.create({ ...R, title: 'long', head: 'capture/long', base: 'main', body: 'x'.repeat(65_537) }));
    expect(tooLong.status).toBe(422);
    expect(tooLong.response?.data).toMatchObject({
      message: 'Validation Failed',
      errors: [{ resource: 'Issue', code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' }],
    });
    expect(emu.state.pulls).toHaveLength(0);
    const pr = await octokit.rest.pulls.create({ ...R, title: 'long', head: 'capture/long', base: 'main', body: 'y'.repeat(65_536) });
    expect(pr.status).toBe(201);
    expect((await failure(octokit.rest.pulls.update({ ...R, pull_number: pr.data.number, body: 'z'.repeat(65_537) }))).status).toBe(422);
    expect((await failure(octokit.rest.issues.update({ ...R, issue_number: pr.data.number, body: 'z'.repeat(65_537) }))).status).toBe(422);
    expect(emu.state.pulls[0]?.body).toBe('y'.repeat(65_536));
  });
});
