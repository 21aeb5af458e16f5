// Capture pull requests end to end (issue 6): the Action run in this process through the entry
// function the bundle calls (`runAction`, harness `runStep`), with the runner's environment, against
// the GitHub emulator, whose repositories are real bare git repositories. Each test seeds the
// emulated repository from a workspace and runs the Action on a clone of it (what actions/checkout
// gives), so the checkout and the API agree on every sha. A pull request's head is checked by
// cloning it from the emulator's bare repository and running the CLI on it. The committed bundle's
// own run of a capture's `pull_request` closed event is in bundle-contract.test.ts.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type GitHubEmulator, type PullRecord, type RecordedRequest } from '../github-emulator/emulator.js';
import {
  type RunResult,
  type Workspace,
  bareGit,
  checkout,
  makeWorkspace,
  removeTempDirs,
  runStep,
  runCli,
  traceOf,
  visible,
  closeChecked,
  seededRepo,
  isWrite,
} from './harness.js';
import { REPO, SERVER, COMMENTS, COMMENT, TREES, COMMITS, REFS, REF, PULLS, PULL, REVIEWERS, ISSUE_REACTIONS, ISSUE_REACTION } from './routes.js';

const COLD = 'How do I bake sourdough bread?';
const COLD_SLUG = 'how-do-i-bake-sourdough-bread';
const GAP = 'How do I set `--max-citations` so answers cite at most 3 pages?';
const COVERED = 'How do I install the pre-commit hook?';
const SETTING = 'Allow GitHub Actions to create and approve pull requests';

/** A valid page that happens to sit at the cold question's slug, about something else entirely. */
const KITCHEN_PAGE = `---
title: Kitchen equipment inventory
type: queries
tags: [kitchen]
sources: [conversation]
created: "2026-11-20T09:00:00Z"
updated: "2026-11-20T09:00:00Z"
quality:
  accuracy: 3
  completeness: 3
  signal: 3
  interlinking: 1
  overall: 2.50
  rated_at: "2026-11-20T09:00:00Z"
  rated_by: human
---

The office kitchen has two ovens and a stand mixer, listed here for the facilities team.
`;

/** The example wiki, committed with fresh index files: what the emulated repository is seeded from. */
let template: Workspace;
let gh: GitHubEmulator;
/** This test's checkout of main. */
let ws: Workspace;

async function seed(from: Workspace | string): Promise<void> {
  ({ gh, ws } = await seededRepo(from));
}

beforeAll(async () => {
  template = await makeWorkspace();
});

beforeEach(async () => {
  await seed(template);
});

afterEach(() => closeChecked(gh));

afterAll(removeTempDirs);

// -----------------------------------------------------------------------------------------------
// Helpers

interface Run extends RunResult {
  requests: RecordedRequest[];
}

async function run(eventName: string, payload: unknown, opts: { inputs?: Record<string, string>; workspace?: Workspace } = {}): Promise<Run> {
  const from = gh.requests.length;
  const result = await runStep({ githubEnv: gh.env(), workspace: opts.workspace ?? ws, eventName, payload, inputs: opts.inputs });
  return { ...result, requests: gh.requests.slice(from) };
}

// Writes: not GETs, nor the GraphQL query that asks who the token is.
const writesOf = (requests: readonly RecordedRequest[]) => requests.filter(isWrite).map((r) => `${r.method} ${r.route} ${r.status}`);

function expectExit(r: RunResult, code: number): void {
  expect(r.code, `exit ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`).toBe(code);
}

function ask(number: number, title: string, opts: { body?: string; user?: string } = {}) {
  gh.state.setPermission(opts.user ?? 'alice', 'triage');
  return gh.state.addIssue({ number, title, body: opts.body ?? '', user: opts.user ?? 'alice', labels: ['question'] });
}

function at<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`expected an element at ${index}, got ${list.length} elements`);
  return item;
}

/** The steward's answer comment on issue n (exactly one). */
function answerOn(n: number) {
  const mine = gh.state.commentsOn(n).filter((c) => c.body.includes('<!-- wiki-steward:answer '));
  expect(mine).toHaveLength(1);
  return at(mine, 0);
}

const captureBranch = (n: number) => `wiki-steward/capture/${n}`;

/** Issue n's capture pull request, the files its branch changes against main, and its head commit. */
async function captureOf(n: number): Promise<{ pr: PullRecord; files: string[]; head: string }> {
  const prs = gh.state.pulls.filter((p) => p.head === captureBranch(n));
  expect(prs, `capture pull requests for #${n}`).toHaveLength(1);
  const pr = at(prs, 0);
  const head = gh.state.branchHead(pr.head) ?? pr.head_sha;
  const files = (await bareGit(gh.gitDir(), 'diff', '--name-only', `${pr.base_sha}...${head}`)).trim().split('\n').filter(Boolean);
  return { pr, files, head };
}

/** The hidden marker of a capture PR body. */
function markerOf(body: string | null): { key: string; issue: number; page: string; commit: string } {
  const m = /<!-- wiki-steward:capture key=([\w-]+) issue=(\d+) page=(\S+) commit=([0-9a-f]{40}) -->/.exec(body ?? '');
  if (!m) throw new Error(`no capture marker in:\n${body}`);
  return { key: m[1]!, issue: Number(m[2]), page: decodeURIComponent(m[3]!), commit: m[4]! };
}

/** A commit GitHub made itself (no custom author or committer) and signed: "Verified". */
function expectStewardCommit(sha: string): void {
  expect(gh.state.findCommit(sha)).toMatchObject({
    customAuthor: false,
    customCommitter: false,
    customSignature: false,
    verified: true,
    actor: 'github-actions[bot]',
    via: 'git/commits',
  });
}

/** Validates a checkout of `ref` (a branch or sha) of the emulated repository with the built CLI: no errors, no stale index. */
async function expectValidAt(ref: string, wiki = 'wiki'): Promise<Workspace> {
  const co = await checkout(gh.gitDir(), ref);
  const validate = await runCli(['validate', '--wiki', wiki], co.dir);
  expect(validate.code, `validate at ${ref}:\n${validate.stdout}${validate.stderr}`).toBe(0);
  expect(validate.stdout + validate.stderr).toMatch(/\d+ pages? checked: 0 errors/);
  const index = await runCli(['index', '--check', '--wiki', wiki], co.dir);
  expect(index.code, `index --check at ${ref}:\n${index.stdout}${index.stderr}`).toBe(0);
  return co;
}

/** The frontmatter keys of a file, in order. */
const frontmatterKeys = (text: string): string[] =>
  text
    .slice(4, text.indexOf('\n---\n'))
    .split('\n')
    .filter((l) => /^[a-z_]+:/.test(l))
    .map((l) => l.slice(0, l.indexOf(':')));

const isIndexFile = (f: string) => /(^|\/)(_index|index)\.md$/.test(f);

// -----------------------------------------------------------------------------------------------

describe('capture pull requests', () => {
  it.each([
    { kind: 'cold', question: COLD, rubric: { accuracy: 2, completeness: 1 } },
    { kind: 'gap', question: GAP, rubric: { accuracy: 4, completeness: 2 } },
  ])('a $kind question → the answer comment and a capture PR adding a valid queries/ page with fresh indexes', async ({ kind, question, rubric }) => {
    ask(1, question);
    const mainBefore = gh.state.branchHead('main');
    const r = await run('issues', gh.events.issues('opened', 1));
    expectExit(r, 0);

    const { pr, files, head } = await captureOf(1);
    const answer = answerOn(1);
    expect(traceOf(answer.body)?.outcome).toBe(kind);

    // The pull request: its branch, base, title, label, body and marker.
    expect(pr).toMatchObject({ head: captureBranch(1), base: 'main', state: 'open', draft: false, user: 'github-actions[bot]', labels: ['wiki:capture'] });
    expect(pr.title).toBe(`wiki: capture "${question}"`);
    const body = pr.body ?? '';
    expect(body.startsWith('Captures the gap from #1.')).toBe(true);
    expect(body).toContain(`### Question\n\n> ${question}`);
    expect(body).toContain('### The answer given');
    expect(body).toMatch(/What was missing: `[^`]+`/);
    const marker = markerOf(body);
    expect(marker).toEqual({ key: 'issue-1', issue: 1, page: expect.stringMatching(/^wiki\/queries\/[a-z0-9-]+\.md$/), commit: head });

    // One commit on main, made by GitHub for the token (no custom author) and signed.
    expect(gh.state.branchHead('main')).toBe(mainBefore);
    expect((await bareGit(gh.gitDir(), 'rev-list', `main..${pr.head}`)).trim().split('\n')).toEqual([head]);
    expect(gh.state.findCommit(head)?.parents).toEqual([mainBefore]);
    expectStewardCommit(head);

    // The page and the index files around it, nothing else.
    expect(files).toContain(marker.page);
    expect(files.filter((f) => f !== marker.page).every(isIndexFile)).toBe(true);
    expect(files).toContain('wiki/queries/_index.md');
    const page = gh.state.fileAt(pr.head, marker.page) ?? '';
    expect(page).toContain(`title: "${question.replaceAll('"', "'")}"`);
    expect(page).toContain('type: queries');
    expect(page).toMatch(new RegExp(`^tags: \\[capture, ${kind}\\b`, 'm'));
    expect(page).toContain('sources: [conversation]');
    expect(page).toContain('rated_by: ingester');
    expect(page).toContain(`  accuracy: ${rubric.accuracy}\n  completeness: ${rubric.completeness}\n  signal: 3\n`);
    for (const section of ['## Question', '## What the wiki had', '## What was missing', '## From the web', '## Answer given']) expect(page).toContain(section);
    expect(page).toContain(`Captured by wiki-steward from [#1](${SERVER}/${REPO}/issues/1)`);
    if (kind === 'gap') expect(page).toMatch(/\]\(\/[a-z-]+\/[a-z0-9-]+\.md\) lines? \d+/); // what the wiki had, cited
    expect(gh.state.fileAt(pr.head, 'wiki/queries/_index.md')).toContain(`(${marker.page.replace('wiki/queries/', '')})`);

    // The PR head passes the validator and its index files are fresh.
    await expectValidAt(pr.head);

    // The comment links the pull request; so do the outputs.
    expect(visible(answer.body)).toContain(`The wiki does not fully cover this yet: ${SERVER}/${REPO}/pull/${pr.number} adds a capture page`);
    expect(r.outputs['pull-request-url']).toBe(`${SERVER}/${REPO}/pull/${pr.number}`);
    expect(r.outputs.outcome).toBe(kind);
    // The capture comes before the comment (which links it).
    const w = writesOf(r.requests);
    expect(w.indexOf(`POST ${PULLS} 201`)).toBeLessThan(w.indexOf(`POST ${COMMENTS} 201`));
  });

  it('a re-run and a title edit update the same branch and the same pull request (PATCH, never a second PR)', async () => {
    ask(3, COLD);
    expectExit(await run('issues', gh.events.issues('opened', 3)), 0);
    const first = await captureOf(3);
    const answer = answerOn(3);

    // The same event again: the branch is rebuilt on main, the PR updated in place.
    const rerun = await run('issues', gh.events.issues('opened', 3));
    expectExit(rerun, 0);
    const w = writesOf(rerun.requests);
    expect(w).toContain(`PATCH ${REF} 200`);
    expect(w).toContain(`PATCH ${PULL} 200`);
    expect(w).not.toContain(`POST ${PULLS} 201`);
    expect(w).not.toContain(`POST ${REFS} 201`);
    expect(rerun.requests.find((q) => q.method === 'PATCH' && q.route === REF)?.body).toMatchObject({ force: true });
    const second = await captureOf(3);
    expect(second.pr.number).toBe(first.pr.number);
    expect(markerOf(second.pr.body).commit).toBe(second.head);
    expectStewardCommit(second.head);
    expect(answerOn(3).id).toBe(answer.id);
    expect(rerun.outputs['pull-request-url']).toBe(`${SERVER}/${REPO}/pull/${first.pr.number}`);

    // The author edits the title: same branch (named after the issue), new slug, title updated.
    const edited = 'How do I bake rye bread?';
    gh.state.issue(3).title = edited;
    const edit = await run('issues', { ...gh.events.issues('edited', 3), changes: { title: { from: COLD } } });
    expectExit(edit, 0);
    expect(gh.state.pulls).toHaveLength(1);
    const third = await captureOf(3);
    expect(third.pr.number).toBe(first.pr.number);
    expect(third.pr.title).toBe(`wiki: capture "${edited}"`);
    expect(markerOf(third.pr.body).page).toBe('wiki/queries/how-do-i-bake-rye-bread.md');
    expect(third.files).toContain('wiki/queries/how-do-i-bake-rye-bread.md');
    expect(third.files).not.toContain(`wiki/queries/${COLD_SLUG}.md`); // rebuilt from main: the old slug is gone
    expect(writesOf(edit.requests).filter((x) => x.startsWith(`POST ${PULLS}`))).toEqual([]);
    expect(answerOn(3).id).toBe(answer.id);
    expectStewardCommit(third.head);
    await expectValidAt(third.pr.head);
  });

  it('a person pushed to the capture branch → the branch is left alone and the comment says so', async () => {
    ask(4, COLD);
    expectExit(await run('issues', gh.events.issues('opened', 4)), 0);
    const { pr } = await captureOf(4);
    const page = markerOf(pr.body).page;
    const human = gh.state.commitFiles({
      branch: pr.head,
      files: { [page]: `${gh.state.fileAt(pr.head, page)}\nA starter is flour and water, fed daily.\n` },
      author: 'alice',
      message: 'Add what we know',
    });
    const bodyBefore = pr.body;

    const r = await run('issues', gh.events.issues('opened', 4));
    expectExit(r, 0);
    expect(gh.state.branchHead(pr.head)).toBe(human);
    expect(pr.body).toBe(bodyBefore);
    expect(writesOf(r.requests)).toEqual([`POST ${ISSUE_REACTIONS} 201`, `PATCH ${COMMENT} 200`, `DELETE ${ISSUE_REACTION} 204`]);
    const text = visible(answerOn(4).body);
    expect(text).toContain(`A person has pushed to the capture pull request ${SERVER}/${REPO}/pull/${pr.number}, so it was left as it is`);
    expect(text).not.toContain('adds a capture page');
    expect(r.outputs['pull-request-url']).toBe(`${SERVER}/${REPO}/pull/${pr.number}`);
  });

  it('a page already at the slug with a different title is never overwritten: the capture takes -2', async () => {
    await gh.close();
    await seed(await makeWorkspace({ [`wiki/queries/${COLD_SLUG}.md`]: KITCHEN_PAGE }));
    ask(5, COLD);
    const r = await run('issues', gh.events.issues('opened', 5));
    expectExit(r, 0);
    expect(traceOf(answerOn(5).body)?.outcome).toBe('cold');
    const { pr, files } = await captureOf(5);
    expect(markerOf(pr.body).page).toBe(`wiki/queries/${COLD_SLUG}-2.md`);
    expect(files).toContain(`wiki/queries/${COLD_SLUG}-2.md`);
    expect(files).not.toContain(`wiki/queries/${COLD_SLUG}.md`);
    expect(gh.state.fileAt(pr.head, `wiki/queries/${COLD_SLUG}.md`)).toBe(KITCHEN_PAGE);
    await expectValidAt(pr.head);
  });

  it('two questions in flight → two PRs, each mergeable; one merges and its pull_request closed event replies with the permalink at the merge commit and deletes the branch', async () => {
    ask(6, COLD);
    ask(7, 'How do we rotate the staging database password?', { user: 'bob' });
    expectExit(await run('issues', gh.events.issues('opened', 6)), 0);
    expectExit(await run('issues', gh.events.issues('opened', 7)), 0);
    const a = await captureOf(6);
    const b = await captureOf(7);
    expect(a.pr.number).not.toBe(b.pr.number);
    for (const { pr } of [a, b]) {
      const get = await fetch(`${gh.url}/repos/${REPO}/pulls/${pr.number}`, { headers: { authorization: 'token x' } });
      expect(await get.json()).toMatchObject({ state: 'open', mergeable: true, mergeable_state: 'clean' });
    }

    // A maintainer merges the first one; GitHub sends pull_request closed (merged).
    const { sha: mergeSha } = gh.state.mergePull(a.pr, { by: 'maya' });
    gh.state.setPermission('maya', 'maintain');
    const closed = await run('pull_request', gh.events.pullRequest('closed', a.pr.number));
    expectExit(closed, 0);
    const page = markerOf(a.pr.body).page;
    const reply = at(gh.state.commentsOn(6), 1);
    expect(reply.user).toBe('github-actions[bot]');
    expect(visible(reply.body)).toContain(
      `The capture page for this question is in the wiki: [\`${page}\`](${SERVER}/${REPO}/blob/${mergeSha}/${page}) was merged in #${a.pr.number}.`,
    );
    expect(gh.state.fileAt(mergeSha, page)).toBeDefined();
    expect(gh.state.branchHead(a.pr.head)).toBeUndefined();
    expect(writesOf(closed.requests)).toEqual([`DELETE ${REF} 204`, `POST ${COMMENTS} 201`]);
    expect(closed.outputs['comment-url']).toBe(`${SERVER}/${REPO}/issues/6#issuecomment-${reply.id}`);
    // The other pull request and its branch are untouched.
    expect(gh.state.branchHead(b.pr.head)).toBe(b.head);
    expect(b.pr.state).toBe('open');

    // A re-run of the same event neither replies twice nor fails on the deleted branch.
    const again = await run('pull_request', gh.events.pullRequest('closed', a.pr.number));
    expectExit(again, 0);
    expect(gh.state.commentsOn(6)).toHaveLength(2);

    // Asking again (from the merged main) finds the capture as a record of the open question, not
    // as coverage: it is listed as asked before, and the outcome stays cold.
    const after = await checkout(gh.gitDir());
    ask(20, COLD, { user: 'carol' });
    expectExit(await run('issues', gh.events.issues('opened', 20), { workspace: after }), 0);
    const trace = traceOf(answerOn(20).body);
    expect(trace?.asked_before).toContain(page.replace(/^wiki\//, ''));
    expect(trace?.outcome).toBe('cold');
  });

  it('closed without merging → the branch is deleted and the issue is told', async () => {
    ask(10, COLD);
    expectExit(await run('issues', gh.events.issues('opened', 10)), 0);
    const { pr } = await captureOf(10);
    gh.state.closeIssue(pr.issue, 'maya');
    const r = await run('pull_request', gh.events.pullRequest('closed', pr.number, { sender: 'maya' }));
    expectExit(r, 0);
    expect(gh.state.branchHead(pr.head)).toBeUndefined();
    expect(writesOf(r.requests)).toEqual([`DELETE ${REF} 204`, `POST ${COMMENTS} 201`]);
    const note = at(gh.state.commentsOn(10), 1);
    expect(visible(note.body)).toContain(`The capture pull request #${pr.number} was closed without merging`);
    expect(answerOn(10).id).toBe(at(gh.state.commentsOn(10), 0).id);
  });

  it.each([
    { what: 'emoji and CJK only', title: '🍞🥖 天然酵母パンの焼き方は？', slug: /^question-[0-9a-f]{8}$/ },
    { what: 'accents and an emoji', title: 'Wie backe ich Sauerteigbrot mit Roggenmehl? 🍞', slug: /^wie-backe-ich-sauerteigbrot-mit-roggenmehl$/ },
    { what: 'French accents', title: 'Comment réussir une crème brûlée façon grand-mère ?', slug: /^comment-reussir-une-creme-brulee-facon-grand-mere$/ },
  ])('a title with $what → a non-empty ASCII slug and a valid page that keeps the title', async ({ title, slug }) => {
    ask(11, title);
    const r = await run('issues', gh.events.issues('opened', 11));
    expectExit(r, 0);
    expect(['cold', 'gap']).toContain(r.outputs.outcome);
    const { pr } = await captureOf(11);
    const page = markerOf(pr.body).page;
    const name = /^wiki\/queries\/(.+)\.md$/.exec(page)?.[1] ?? '';
    expect(name).toMatch(slug);
    expect(pr.title).toBe(`wiki: capture "${title}"`);
    expect(gh.state.fileAt(pr.head, page)).toContain(`title: "${title}"`);
    await expectValidAt(pr.head);
  });

  it(`PR creation forbidden by the repository setting → the answer still posted, an error naming "${SETTING}", exit 1, no orphan branch`, async () => {
    gh.state.setActionsCanCreatePullRequests(false);
    ask(12, COLD);
    const r = await run('issues', gh.events.issues('opened', 12));
    expectExit(r, 1);
    const error = r.stdout.split('\n').find((l) => l.startsWith('::error::'));
    expect(error, r.stdout).toContain(SETTING);
    // The branch was created for the PR, refused, then deleted again.
    expect(writesOf(r.requests).slice(0, 6)).toEqual([
      `POST ${ISSUE_REACTIONS} 201`,
      `POST ${TREES} 201`,
      `POST ${COMMITS} 201`,
      `POST ${REFS} 201`,
      `POST ${PULLS} 403`,
      `DELETE ${REF} 204`,
    ]);
    // The answer was posted, so its 👀 goes as for any answer: the failed step is the maintainers' to fix.
    expect(gh.state.reactionsOnIssue(12)).toEqual([]);
    // The asker still gets the answer, which says why no capture was opened.
    const comments = gh.state.commentsOn(12);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain(`No capture pull request could be opened`);
    expect(comments[0]!.body).toContain(SETTING);
    expect(gh.state.branchHead(captureBranch(12))).toBeUndefined();
    expect((await bareGit(gh.gitDir(), 'for-each-ref', '--format=%(refname)', 'refs/heads/')).trim().split('\n')).toEqual(['refs/heads/main']);
    expect(gh.state.pulls).toHaveLength(0);
  });

  it('a failure posting the answer comment closes the PR just opened and deletes its branch (no PR without its comment link)', async () => {
    ask(13, COLD);
    gh.faults.push({
      match: { method: 'POST', path: /\/issues\/13\/comments$/ },
      times: Infinity,
      status: 500,
      body: { message: 'Internal Server Error', documentation_url: 'https://docs.github.com/rest', status: '500' },
    });
    const r = await run('issues', gh.events.issues('opened', 13));
    expectExit(r, 1);
    const { pr } = await captureOf(13);
    expect(pr.state).toBe('closed');
    expect(pr.merged).toBe(false);
    expect(gh.state.branchHead(pr.head)).toBeUndefined();
    expect(gh.state.commentsOn(13)).toHaveLength(0);
  });

  it('reviewers and draft inputs: the PR opens as a draft and asks the reviewers', async () => {
    gh.state.setPermission('rita', 'write');
    ask(14, COLD);
    const r = await run('issues', gh.events.issues('opened', 14), { inputs: { reviewers: '@rita', draft: 'true' } });
    expectExit(r, 0);
    const { pr } = await captureOf(14);
    expect(pr.draft).toBe(true);
    expect(pr.requested_reviewers).toEqual(['rita']);
    expect(writesOf(r.requests)).toContain(`POST ${REVIEWERS} 201`);
  });

  it('a repository with no wiki (branch unconfigured) → a bootstrap PR adding wiki/schema.md, wiki/index.md and the capture', async () => {
    await gh.close();
    await seed(await makeWorkspace({}, { wiki: false }));
    ask(15, 'How do we deploy to staging?');
    const r = await run('issues', gh.events.issues('opened', 15));
    expectExit(r, 0);
    const trace = traceOf(answerOn(15).body);
    expect(trace).toMatchObject({ branch: 'unconfigured', outcome: 'cold' });
    const { pr, files, head } = await captureOf(15);
    expect(files.sort()).toEqual(['wiki/index.md', 'wiki/queries/_index.md', 'wiki/queries/how-do-we-deploy-to-staging.md', 'wiki/schema.md']);
    expect(pr.body).toContain('starts the wiki (`schema.md`, `index.md`)');
    expect(gh.state.fileAt(pr.head, 'wiki/schema.md')).toContain('`queries/`');
    expectStewardCommit(head);
    await expectValidAt(pr.head);
  });

  describe('capture-mode: pending', () => {
    const PENDING_KEYS = [
      'title',
      'evidence',
      'evidence_type',
      'capture_kind',
      'suggested_action',
      'suggested_pages',
      'captured_at',
      'captured_by',
      'capture_id',
      'promotion_policy',
      'promotion_decision',
      'promotion_id',
      'propagated_from',
    ];

    it('→ one .wiki-pending/<stamp>-<slug>.md per the upstream capture schema; a thin body is flagged needs_more_detail, not padded', async () => {
      ask(16, COLD);
      const r = await run('issues', gh.events.issues('opened', 16), { inputs: { 'capture-mode': 'pending' } });
      expectExit(r, 0);
      const { pr, files, head } = await captureOf(16);
      expect(files).toHaveLength(1); // no index files for a pending capture
      const file = at(files, 0);
      expect(file).toMatch(new RegExp(`^wiki/\\.wiki-pending/\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\dZ-${COLD_SLUG}\\.md$`));
      expect(markerOf(pr.body).page).toBe(file);
      const text = gh.state.fileAt(pr.head, file) ?? '';
      expect(frontmatterKeys(text)).toEqual([...PENDING_KEYS, 'needs_more_detail', 'needs_more_detail_reason']);
      expect(text).toContain(`title: "${COLD}"`);
      expect(text).toContain('evidence: "conversation"');
      expect(text).toContain('capture_kind: "chat-only"');
      expect(text).toContain('captured_by: "wiki-steward"');
      expect(text).toMatch(/^capture_id: "cap-[0-9a-f]{32}"$/m);
      const stamp = /(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ)/.exec(file)?.[1];
      expect(text).toContain(`captured_at: "${stamp}"`);
      const body = text.slice(text.indexOf('\n---\n\n') + '\n---\n\n'.length);
      const bytes = Buffer.byteLength(body);
      expect(bytes).toBeLessThan(1500);
      expect(text).toContain('needs_more_detail: true');
      expect(text).toContain(`needs_more_detail_reason: "body is ${bytes} bytes; floor for capture_kind=chat-only is 1500 bytes"`);
      expectStewardCommit(head);
      await expectValidAt(pr.head);
    });

    it('→ a body over the 1,500-byte floor carries no needs_more_detail', async () => {
      const detail =
        'We keep a starter in the office fridge and want a repeatable schedule for feeding it, proofing the dough overnight and baking it in the small oven. '.repeat(
          12,
        );
      ask(17, COLD, { body: detail });
      const r = await run('issues', gh.events.issues('opened', 17), { inputs: { 'capture-mode': 'pending' } });
      expectExit(r, 0);
      const { pr, files } = await captureOf(17);
      const text = gh.state.fileAt(pr.head, at(files, 0)) ?? '';
      expect(Buffer.byteLength(text.slice(text.indexOf('\n---\n\n') + 6))).toBeGreaterThanOrEqual(1500);
      expect(frontmatterKeys(text)).toEqual(PENDING_KEYS);
      expect(text).not.toContain('needs_more_detail');
    });
  });

  it('@mentions in the question are neutralised in the PR body, as in the answer comment', async () => {
    ask(19, COLD, { body: 'cc @someone and @octo-org/docs-team, thanks!' });
    expectExit(await run('issues', gh.events.issues('opened', 19)), 0);
    const mention = /(^|[^\w`\u2060])@(someone|octo-org\/docs-team)\b/m;
    expect(answerOn(19).body).not.toMatch(mention); // the comment neutralises them
    const { pr } = await captureOf(19);
    expect(pr.body).toContain('someone');
    expect(pr.body).not.toMatch(mention);
  });

  it('an answered question opens no pull request', async () => {
    ask(18, COVERED);
    const r = await run('issues', gh.events.issues('opened', 18));
    expectExit(r, 0);
    expect(r.outputs.outcome).toBe('answered');
    expect(gh.state.pulls).toHaveLength(0);
    expect(writesOf(r.requests).filter((w) => w.includes('/git/') || w.includes('/pulls'))).toEqual([]);
  });
});
