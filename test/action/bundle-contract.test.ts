// The contract with the Actions runner: the committed bundle (`node action/index.js`), started as a
// runner starts it — a snapshot of action.yml + action/, cwd the workspace, the standard Actions
// environment (INPUT_* from action.yml's defaults, GITHUB_*, RUNNER_*, the GITHUB_OUTPUT and
// GITHUB_STEP_SUMMARY files) — and nothing but its exit code, its stdout and stderr, its file
// commands and the requests that reached the GitHub emulator to show what it did.
//
// One run per job and event kind (answer on `issues`; an outsider's edit to a question a maintainer
// approved, and a maintainer's edit; `/wiki ask` on `issue_comment`; a capture pull request
// `pull_request` closed; maintain on a push to main; the digest on `schedule`;
// validate on a push to another branch and on `pull_request`), and what only a real process
// shows: the exit code and `::error::` of a failed step, a runner with no checkout, and the bundle
// with no runner-filled inputs at all. Everything else runs in-process through the same entry
// function (`runAction`, harness `runStep`) in answer, capture, attacks and maintain-digest.
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GitHubEmulator, RecordedRequest } from '../github-emulator/emulator.js';
import { makeWiki, page } from '../helpers/wiki-fixture.js';
import {
  type RunResult,
  type Workspace,
  at,
  closeChecked,
  expectExit,
  expectPermalinksResolve,
  makeWorkspace,
  removeTempDirs,
  runBundle,
  runStep,
  seededRepo,
  snapshotAction,
  traceOf,
  visible,
  writesOf,
  type QuestionIssue,
  type RepoRole,
  asker as askerOn,
  questionIssue,
} from './harness.js';
import {
  COMMENT,
  COMMENTS,
  COMMENT_REACTION,
  COMMENT_REACTIONS,
  ISSUES,
  ISSUE_LABELS,
  ISSUE_REACTION,
  ISSUE_REACTIONS,
  LABELS,
  PERMISSION,
  REF,
  REPO,
  SERVER,
} from './routes.js';

const COVERED = 'How do I install the pre-commit hook?';
const COLD = 'How do I bake sourdough bread?';

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** 👀 on the question when the run takes it up, and off again once the answer is posted. */
const EYES_ON = `POST ${ISSUE_REACTIONS} 201`;
const EYES_OFF = `DELETE ${ISSUE_REACTION} 204`;

afterAll(removeTempDirs);

describe('the committed bundle against the GitHub emulator', () => {
  let bundle: string;
  /** The example workspace the emulated repository is seeded from. */
  let template: Workspace;
  /** This test's checkout of the emulated repository's main. */
  let ws: Workspace;
  let gh: GitHubEmulator;

  beforeAll(async () => {
    bundle = await snapshotAction();
    template = await makeWorkspace();
  });
  beforeEach(async () => {
    ({ gh, ws } = await seededRepo(template));
  });
  afterEach(() => closeChecked(gh));

  interface Run extends RunResult {
    /** The requests this run made, in order. */
    requests: RecordedRequest[];
  }

  async function run(
    eventName: string,
    payload: unknown,
    opts: { inputs?: Record<string, string>; workspace?: Workspace | null; env?: Record<string, string> } = {},
  ): Promise<Run> {
    const from = gh.requests.length;
    const result = await runBundle({
      bundle,
      githubEnv: gh.env(),
      workspace: opts.workspace === null ? undefined : (opts.workspace ?? ws),
      eventName,
      payload,
      inputs: opts.inputs,
      env: opts.env,
    });
    return { ...result, requests: gh.requests.slice(from) };
  }

  /** The harness's helpers on this file's emulator (`gh` changes with every test). */
  const asker = (login: string, role?: RepoRole) => askerOn(gh, login, role);
  const issue = (number: number, title: string, opts?: QuestionIssue) => questionIssue(gh, number, title, opts);

  const labelsOf = (n: number) => [...gh.state.issue(n).labels].sort();

  function onlyComment(n: number) {
    const comments = gh.state.commentsOn(n);
    expect(comments).toHaveLength(1);
    return at(comments, 0);
  }

  it('answer (`issues` opened): a covered question gets one comment with permalinks, trace, label, outputs and summary', async () => {
    asker('alice', 'triage');
    issue(1, COVERED);
    const r = await run('issues', gh.events.issues('opened', 1));
    expectExit(r, 0);

    const comment = onlyComment(1);
    expect(comment.user).toBe('github-actions[bot]');
    const body = comment.body;
    // The question, quoted.
    expect(body.startsWith(`> ${COVERED}\n`)).toBe(true);
    // Cites the how-to page with a permalink at the workspace commit, `?plain=1#L…`.
    const links = await expectPermalinksResolve(body, ws);
    expect(links.map((l) => l.file)).toContain('wiki/how-to/install-pre-commit-hook.md');
    expect(body).toMatch(new RegExp(`${escapeRe(`${SERVER}/${REPO}/blob/${ws.sha}/wiki/how-to/install-pre-commit-hook.md?plain=1#L`)}\\d+`));
    // The folded trace section, the hidden marker and the trace JSON.
    expect(body).toContain('<details><summary>How this was answered</summary>');
    expect(body).toContain('</details>');
    expect(body).toContain('<!-- wiki-steward:answer key=issue-1 -->');
    const trace = traceOf(body);
    expect(trace).toBeDefined();
    expect(trace?.outcome).toBe('answered');
    expect(trace?.question).toBe(COVERED);
    expect(trace?.wiki.commit).toBe(ws.sha);
    expect(trace?.citations.some((c: { path?: string }) => c.path === 'how-to/install-pre-commit-hook.md')).toBe(true);

    // Writes: 👀 on the issue, the comment, 👀 removed, the outcome label created (it did not exist) and added.
    expect(writesOf(r.requests)).toEqual([EYES_ON, `POST ${COMMENTS} 201`, EYES_OFF, `POST ${LABELS} 201`, `POST ${ISSUE_LABELS} 200`]);
    expect(labelsOf(1)).toEqual(['question', 'wiki:answered']);
    expect(gh.state.findLabel('wiki:answered')).toMatchObject({ color: '0e8a16' });
    // The permission of the asker was checked.
    expect(r.requests.filter((q) => q.route === PERMISSION).map((q) => q.params.username)).toEqual(['alice']);

    // Outputs and the job summary.
    expect(r.outputs.outcome).toBe('answered');
    expect(r.outputs['ladder-branch']).toBe(trace?.branch);
    expect(['inline', 'explore']).toContain(r.outputs['ladder-branch']);
    expect(r.outputs['comment-url']).toBe(`${SERVER}/${REPO}/issues/1#issuecomment-${comment.id}`);
    expect(r.outputs['pull-request-url']).toBe('');
    expect(r.summary).toContain('wiki-steward: answered');
    expect(r.summary).toContain(`${SERVER}/${REPO}/blob/${ws.sha}/wiki/how-to/install-pre-commit-hook.md?plain=1#L`);
    expect(r.summary).not.toContain('<!-- wiki-steward:');
    // The process says what it did on stdout and masks its token (no other line carries it); nothing on stderr.
    const lines = r.stdout.split('\n');
    expect(lines).toContain('wiki-steward: answer for issues');
    expect(lines.filter((l) => l.includes('ghs_test_token'))).toEqual(['::add-mask::ghs_test_token']);
    expect(r.stderr).toBe('');
  });

  it("an outsider's question a maintainer approved (`issues` labeled, in-process): the outsider's edit keeps the answer, which says the label is needed again; the maintainer's edit is answered anew", async () => {
    asker('outsider', 'read');
    asker('maint', 'maintain');
    issue(2, 'Help', { user: 'outsider', body: COVERED, labels: ['question'] });
    const labelled = gh.events.issues('labeled', 2, { sender: 'maint', label: 'question' });
    expectExit(await runStep({ githubEnv: gh.env(), workspace: ws, eventName: 'issues', payload: labelled }), 0);
    const answer = onlyComment(2);
    expect(traceOf(answer.body)?.outcome).toBe('answered');
    const edited = (body: string, sender?: string) => {
      const from = gh.state.issue(2).body;
      gh.state.issue(2).body = body;
      return { ...gh.events.issues('edited', 2, sender ? { sender } : {}), changes: { body: { from } } };
    };

    const byOutsider = await run('issues', edited(`${COVERED} Also, how do I bake sourdough bread?`));
    expectExit(byOutsider, 0);
    expect(writesOf(byOutsider.requests)).toEqual([`PATCH ${COMMENT} 200`]);
    const kept = onlyComment(2);
    expect(kept.body).not.toContain('Thanks for the question');
    expect(traceOf(kept.body)).toEqual(traceOf(answer.body));
    expect(visible(kept.body)).toContain('A maintainer can have it answered anew by adding the `question` label again (remove it, then add it back).');
    expect(visible(kept.body).startsWith(visible(answer.body).trimEnd().split('\n').slice(0, -1).join('\n'))).toBe(true);

    const byMaintainer = await run('issues', edited(`${COVERED} (on macOS)`, 'maint'));
    expectExit(byMaintainer, 0);
    expect(byMaintainer.requests.filter((q) => q.route === PERMISSION).map((q) => q.params.username)).toEqual(['maint']);
    const fresh = onlyComment(2);
    expect(fresh.id).toBe(answer.id);
    expect(traceOf(fresh.body)?.question).toContain('(on macOS)');
    expect(visible(fresh.body)).not.toContain('adding the `question` label again');
  });

  it('`/wiki ask` (`issue_comment` created) on a pull request conversation answers there, keyed to the comment', async () => {
    asker('carol', 'maintain');
    issue(5, 'Add a page about hooks', { user: 'carol', labels: [], pull_request: true });
    const ask = gh.state.addComment({ issue_number: 5, user: 'carol', body: `/wiki ask ${COVERED}` });
    const payload = gh.events.issueComment('created', ask.id) as { issue: { pull_request?: unknown } };
    expect(payload.issue.pull_request).toBeDefined();
    const r = await run('issue_comment', payload);
    expectExit(r, 0);
    const comments = gh.state.commentsOn(5);
    expect(comments).toHaveLength(2);
    const answer = at(comments, 1);
    expect(answer.body).toContain(`<!-- wiki-steward:answer key=comment-${ask.id} -->`);
    expect(traceOf(answer.body)?.outcome).toBe('answered');
    await expectPermalinksResolve(answer.body, ws);
    expect(r.outputs['comment-url']).toBe(`${SERVER}/${REPO}/pull/5#issuecomment-${answer.id}`);
    expect(writesOf(r.requests)).toEqual([`POST ${COMMENT_REACTIONS} 201`, `POST ${COMMENTS} 201`, `DELETE ${COMMENT_REACTION} 204`]);
  });

  it('capture (`pull_request` closed, merged): the issue is told with a permalink at the merge commit, the branch deleted', async () => {
    // The capture pull request, opened in-process (answer and capture are covered in answer and capture.test.ts).
    asker('alice', 'triage');
    issue(6, COLD);
    const opened = await runStep({ githubEnv: gh.env(), workspace: ws, eventName: 'issues', payload: gh.events.issues('opened', 6) });
    expectExit(opened, 0);
    const pr = gh.state.pulls.find((p) => p.head === 'wiki-steward/capture/6');
    if (!pr) throw new Error('no capture pull request for #6');
    const page = decodeURIComponent(/<!-- wiki-steward:capture [^>]*page=(\S+)/.exec(pr.body ?? '')?.[1] ?? '');
    expect(page).toMatch(/^wiki\/queries\/[a-z0-9-]+\.md$/);

    const { sha: mergeSha } = gh.state.mergePull(pr, { by: 'maya' });
    gh.state.setPermission('maya', 'maintain');
    const closed = await run('pull_request', gh.events.pullRequest('closed', pr.number));
    expectExit(closed, 0);
    const reply = at(gh.state.commentsOn(6), 1);
    expect(reply.user).toBe('github-actions[bot]');
    expect(visible(reply.body)).toContain(
      `The capture page for this question is in the wiki: [\`${page}\`](${SERVER}/${REPO}/blob/${mergeSha}/${page}) was merged in #${pr.number}.`,
    );
    expect(gh.state.branchHead(pr.head)).toBeUndefined();
    expect(writesOf(closed.requests)).toEqual([`DELETE ${REF} 204`, `POST ${COMMENTS} 201`]);
    expect(closed.outputs['comment-url']).toBe(`${SERVER}/${REPO}/issues/6#issuecomment-${reply.id}`);
  });

  it('maintain (`push` to main): nothing stale, so no writes, and then it validates', async () => {
    const r = await run('push', { ref: 'refs/heads/main', repository: { default_branch: 'main' }, sender: { login: 'alice', type: 'User' } });
    expectExit(r, 0);
    expect(writesOf(r.requests)).toEqual([]);
    expect(r.requests.length).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/maintain: 0 stale index files; capture PRs rebuilt: none/);
    expect(r.summary).toContain('wiki-steward: validate');
    expect(r.summary).toMatch(/\d+ pages checked in `wiki`: 0 errors/);
    expect(r.outputs).toEqual({ 'pull-request-url': '' });
  });

  it('digest (`schedule`): one issue labelled wiki:digest, the same report in the job summary', async () => {
    const r = await run('schedule', { schedule: '0 6 * * 1' });
    expectExit(r, 0);
    expect(writesOf(r.requests)).toEqual([`POST ${ISSUES} 201`]);
    const digests = gh.state.issues.filter((i) => i.labels.includes('wiki:digest'));
    expect(digests).toHaveLength(1);
    const digest = at(digests, 0);
    expect(digest.title).toMatch(/^wiki-steward digest \d{4}-W\d{2}$/);
    expect(digest.user).toBe('github-actions[bot]');
    expect(digest.body).toContain('0 questions asked');
    expect(digest.body).toContain('## Wiki health');
    expect(r.summary).toContain(`# ${digest.title}`);
    expect(r.outputs['comment-url']).toBe(`${SERVER}/${REPO}/issues/${digest.number}`);
    // Nothing but the digest was touched: no validation ran on a schedule.
    expect(r.summary).not.toContain('wiki-steward: validate');
  });

  it('validate (`push` to another branch): the whole wiki, no API call', async () => {
    const r = await run('push', { ref: 'refs/heads/feature', repository: { default_branch: 'main' }, sender: { login: 'alice', type: 'User' } });
    expectExit(r, 0);
    expect(gh.requests).toHaveLength(0);
    expect(r.summary).toContain('wiki-steward: validate');
    expect(r.summary).toMatch(/\d+ pages checked in `wiki`: 0 errors/);
    expect(r.outputs).toEqual({});
  });

  it('a permanent 500 on POST comments → exit 1 with a clear ::error:: message', async () => {
    const postComment = { method: 'POST', path: /\/issues\/\d+\/comments$/ };
    const posts = (r: Run) => r.requests.filter((q) => q.method === 'POST' && q.route === COMMENTS).map((q) => q.status);
    asker('alice', 'triage');
    issue(19, COVERED);
    gh.faults.push({
      match: postComment,
      times: Infinity,
      status: 500,
      body: { message: 'Internal Server Error', documentation_url: 'https://docs.github.com/rest', status: '500' },
    });
    const r = await run('issues', gh.events.issues('opened', 19));
    expectExit(r, 1);
    expect(posts(r)).toEqual([500, 500, 500, 500]); // plugin-retry: the first try and 3 retries
    expect(gh.state.commentsOn(19)).toHaveLength(0);
    const error = r.stdout.split('\n').find((l) => l.startsWith('::error::'));
    expect(error, r.stdout).toBeDefined();
    expect(error).toMatch(/Internal Server Error|500/);
    expect(error).toMatch(/comment/i);
    // Nothing after the failed comment but 😕 for 👀: no label for an answer that was never posted.
    expect(writesOf(r.requests).filter((w) => !w.startsWith(`POST ${COMMENTS}`))).toEqual([EYES_ON, EYES_OFF, `POST ${ISSUE_REACTIONS} 201`]);
    expect(gh.state.reactionsOnIssue(19).map((x) => `${x.user} ${x.content}`)).toEqual(['github-actions[bot] confused']);
    // A failure is an annotation, never a stack trace.
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/\n\s+at /);
  });

  it('no GITHUB_WORKSPACE → exit 1, saying to add actions/checkout', async () => {
    asker('alice', 'triage');
    issue(21, COVERED);
    const r = await run('issues', gh.events.issues('opened', 21), { workspace: null });
    expectExit(r, 1);
    expect(r.stdout).toMatch(/^::error::.*actions\/checkout/m);
    expect(gh.requests).toHaveLength(0);
  });
});

// Validate needs no emulator: the committed bundle itself, with only the environment named here
// (what a runner that filled no input defaults would pass).
describe('the committed bundle: validate (`pull_request`), with no runner-filled inputs', () => {
  const bundle = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../action/index.js');

  async function runValidate(workspace: string, inputs: Record<string, string> = {}) {
    const summary = path.join(workspace, '.summary.md');
    await writeFile(summary, '');
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, GITHUB_WORKSPACE: workspace, GITHUB_STEP_SUMMARY: summary, GITHUB_EVENT_NAME: 'pull_request' };
    for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
    const result = spawnSync(process.execPath, [bundle], { env, encoding: 'utf8' });
    return { status: result.status, stdout: result.stdout, summary: await readFile(summary, 'utf8') };
  }

  it('annotates faults on repository-relative paths and fails the step', async () => {
    const repo = await makeWiki({ 'docs/kb/schema.md': '# S\n', 'docs/kb/concepts/bad.md': page({ title: 'Bad', type: 'ideas' }) });
    const run = await runValidate(repo, { 'wiki-path': 'docs/kb' });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("::error title=wiki-steward type-category,file=docs/kb/concepts/bad.md,line=3::type 'ideas' does not match");
    expect(run.stdout).toContain('::error::2 wiki errors in 1 files');
    expect(run.summary).toContain('1 page checked in `docs/kb`: 2 errors');
  });

  it('passes on a valid wiki found without any input (the runner did not fill defaults)', async () => {
    const repo = await makeWiki({ 'wiki/schema.md': '# S\n', 'wiki/concepts/good.md': page({ title: 'Good', type: 'concepts' }) });
    const run = await runValidate(repo, { mode: 'validate' });
    expect(run.status).toBe(0);
    expect(run.summary).toContain('1 page checked in `wiki`: 0 errors, 0 warnings');
  });

  it('says what to add when the workspace has no checkout', async () => {
    const result = spawnSync(process.execPath, [bundle], { env: { PATH: process.env.PATH }, encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('run this action in a workflow, after actions/checkout');
  });
});
