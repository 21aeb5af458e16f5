// The acknowledgement helper on its own (in-process, against the GitHub emulator): what the bundle
// tests cannot reach — the 😕 after an answer whose outcome is `error` is `failed()` with the
// answer posted, the first settle wins, a dry run writes nothing — a refused 😕, and a 👀 a twin
// run took away first.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { issueThread } from '../../src/github/question-thread.js';
import { acknowledge } from '../../src/github/reaction-helper.js';
import { RepoWrites } from '../../src/github/repo-writes.js';
import { type GitHubEmulator, startGitHubEmulator } from '../github-emulator/emulator.js';
import { createTestOctokit, type TestOctokit } from '../github-emulator/test-octokit.js';
import { closeCheckingResponses } from '../github-emulator/test-support.js';

const repo = { owner: 'octo-org', repo: 'wiki' };
let gh: GitHubEmulator;
let octokit: TestOctokit;
let warnings: string[];
const log = { warning: (m: string) => void warnings.push(m) };
const onIssue = (n: number) => gh.state.reactionsOnIssue(n).map((r) => `${r.user} ${r.content}`);

beforeEach(async () => {
  gh = await startGitHubEmulator();
  ({ octokit } = createTestOctokit(gh.url));
  warnings = [];
  gh.state.addIssue({ number: 1, title: 'Q' });
});
afterEach(() => closeCheckingResponses(gh));

const noLog = (): void => undefined;

describe('acknowledge', () => {
  it('👀 on the issue at once; failed() swaps it for 😕; a later done() changes nothing', async () => {
    const seen = await acknowledge(issueThread(octokit, new RepoWrites(false, noLog), repo, 1).reactions, log);
    expect(onIssue(1)).toEqual(['github-actions[bot] eyes']);
    await seen.failed();
    expect(onIssue(1)).toEqual(['github-actions[bot] confused']);
    await seen.done();
    await seen.failed();
    expect(onIssue(1)).toEqual(['github-actions[bot] confused']);
    expect(gh.writes().map((r) => `${r.method} ${r.route} ${r.status}`)).toEqual([
      'POST /repos/{owner}/{repo}/issues/{issue_number}/reactions 201',
      'DELETE /repos/{owner}/{repo}/issues/{issue_number}/reactions/{reaction_id} 204',
      'POST /repos/{owner}/{repo}/issues/{issue_number}/reactions 201',
    ]);
    expect(warnings).toEqual([]);
  });

  it('on a `/wiki ask` comment: done() takes the 👀 away; a later failed() adds no 😕', async () => {
    const ask = gh.state.addComment({ issue_number: 1, body: '/wiki ask how?', user: 'bob' });
    const seen = await acknowledge(issueThread(octokit, new RepoWrites(false, noLog), repo, 1, ask.id).reactions, log);
    expect(gh.state.reactionsOn(ask.id).map((r) => r.content)).toEqual(['eyes']);
    await seen.done();
    await seen.failed();
    expect(gh.state.reactionsOn(ask.id)).toEqual([]);
    expect(onIssue(1)).toEqual([]);
  });

  it('a dry run writes nothing and lists the 👀 it would add', async () => {
    const said: string[] = [];
    const writes = new RepoWrites(true, (line) => said.push(line));
    const seen = await acknowledge(issueThread(octokit, writes, repo, 1).reactions, log);
    await seen.failed();
    expect(gh.writes()).toEqual([]);
    expect(writes.done.map((w) => w.describe)).toEqual([
      'POST /repos/octo-org/wiki/issues/1/reactions (eyes)',
      'POST /repos/octo-org/wiki/issues/1/reactions (confused)',
    ]);
    expect(said).toEqual(writes.done.map((w) => `[dry-run] would ${w.describe}`));
  });

  it('two runs of one question at once share the 👀 (one account): whichever takes it away second is not warned', async () => {
    const first = await acknowledge(issueThread(octokit, new RepoWrites(false, noLog), repo, 1).reactions, log);
    const twin = await acknowledge(issueThread(octokit, new RepoWrites(false, noLog), repo, 1).reactions, log);
    expect(onIssue(1)).toEqual(['github-actions[bot] eyes']);
    await first.done();
    await twin.done();
    expect(onIssue(1)).toEqual([]);
    expect(gh.writes().map((r) => `${r.method} ${r.route} ${r.status}`)).toEqual([
      'POST /repos/{owner}/{repo}/issues/{issue_number}/reactions 201',
      'POST /repos/{owner}/{repo}/issues/{issue_number}/reactions 200',
      'DELETE /repos/{owner}/{repo}/issues/{issue_number}/reactions/{reaction_id} 204',
      'DELETE /repos/{owner}/{repo}/issues/{issue_number}/reactions/{reaction_id} 404',
    ]);
    expect(warnings).toEqual([]);
  });

  it('a 😕 GitHub refuses is a warning, not an error', async () => {
    const seen = await acknowledge(issueThread(octokit, new RepoWrites(false, noLog), repo, 1).reactions, log);
    gh.faults.push({ match: { method: 'POST', path: /\/reactions$/ }, times: Infinity, status: 422 });
    await expect(seen.failed()).resolves.toBeUndefined();
    expect(onIssue(1)).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/^Could not add 😕 to issue #1 \(the answer is not affected\): GitHub refused to POST .* \(HTTP 422\)/)]);
  });
});
