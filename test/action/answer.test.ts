// Answer mode end to end: the Action run in this process through the entry function the bundle
// calls (`runAction`, harness `runStep`), with the runner's environment as an object, against the
// GitHub REST emulator. Every scenario asserts the writes that reached the emulator (its state and
// its request log) and every response is checked against GitHub's schema. What only the committed
// bundle can show (one run per job and event kind, the exit code and `::error::` of a failed step,
// no checkout) is in bundle-contract.test.ts.
//
// The emulated repository holds what the job checks out: it is seeded from the example workspace
// and the workspace of each run is a clone of it (as actions/checkout gives), so GITHUB_SHA, the
// permalinks and the base of capture pull requests are one and the same commit.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { page } from '../helpers/wiki-fixture.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GitHubEmulator, RecordedRequest } from '../github-emulator/emulator.js';
import {
  type RunResult,
  type Workspace,
  at,
  bareGit,
  closeChecked,
  expectExit,
  expectPermalinksResolve,
  isWrite,
  makeWorkspace,
  removeTempDirs,
  runStep,
  seededRepo,
  traceOf,
  visible,
  writesOf,
  type QuestionIssue,
  type RepoRole,
  asker as askerOn,
  questionIssue,
} from './harness.js';
import {
  REPO,
  SERVER,
  COMMENTS,
  COMMENT,
  LABELS,
  ISSUE_LABELS,
  ISSUE_LABEL,
  PERMISSION,
  TREES,
  COMMITS,
  REFS,
  PULLS,
  PULL,
  REF,
  ISSUE_REACTIONS,
  ISSUE_REACTION,
  COMMENT_REACTIONS,
  COMMENT_REACTION,
} from './routes.js';

const COVERED = 'How do I install the pre-commit hook?';
const COLD = 'How do I bake sourdough bread?';
const GAP = 'How do I set `--max-citations` so answers cite at most 3 pages?';

// A page whose text mentions a user and a team, so the offline answerer quotes them.
const ESCALATE_PAGE = page({
  title: 'Escalate an unanswered question',
  type: 'how-to',
  body: `When the steward cannot answer, escalate the question to the people who own the wiki.

## Escalate

To escalate an unanswered question, ping @wiki-oncall or the @octo-org/docs-team in the issue; they reply within one working day.`,
});

/** The example workspace the emulated repository is seeded from. */
let template: Workspace;
/** This test's checkout of the emulated repository's main. */
let ws: Workspace;
let gh: GitHubEmulator;

beforeAll(async () => {
  template = await makeWorkspace();
});

beforeEach(async () => {
  ({ gh, ws } = await seededRepo(template));
});

afterEach(() => closeChecked(gh));

afterAll(removeTempDirs);

// -----------------------------------------------------------------------------------------------
// Helpers

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
  const result = await runStep({
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

/** The writes that open a capture pull request: one tree (file contents inline), commit, branch, pull request, its label. */
const OPENED_CAPTURE: readonly string[] = [`POST ${TREES} 201`, `POST ${COMMITS} 201`, `POST ${REFS} 201`, `POST ${PULLS} 201`, `POST ${ISSUE_LABELS} 200`];

/** 👀 on the question when the run takes it up, and off again once the answer is posted. */
const EYES_ON = `POST ${ISSUE_REACTIONS} 201`;
const EYES_OFF = `DELETE ${ISSUE_REACTION} 204`;

/** Issue n's capture pull request (open), and the files its branch changes against main. */
async function captureOf(n: number) {
  const pr = gh.state.pulls.find((p) => p.head === `wiki-steward/capture/${n}`);
  if (!pr) throw new Error(`no capture pull request for #${n}: ${gh.state.pulls.map((p) => p.head).join(', ') || 'none'}`);
  const files = (await bareGit(gh.gitDir(), 'diff', '--name-only', 'main', pr.head)).trim().split('\n').filter(Boolean);
  return { pr, files };
}

/** The quoted question: the comment's first paragraph. */
const quoteOf = (body: string): string => at(body.split('\n\n'), 0);

// -----------------------------------------------------------------------------------------------

describe('answer mode', () => {
  it.each([
    { kind: 'cold', title: COLD, label: 'wiki:cold', says: 'The wiki has no page that matches this question' },
    { kind: 'gap', title: GAP, label: 'wiki:gap', says: '`--max-citations`' },
  ])('a $kind question gets one comment, a capture pull request it links, and the $label label', async ({ kind, title, label, says }) => {
    asker('alice', 'triage');
    issue(2, title);
    const r = await run('issues', gh.events.issues('opened', 2));
    expectExit(r, 0);
    const body = onlyComment(2).body;
    expect(traceOf(body)?.outcome).toBe(kind);
    expect(body).toContain(says);
    if (kind === 'gap') expect(body).toMatch(/\*\*Not in the wiki:\*\*[^\n]*`--max-citations`/);
    await expectPermalinksResolve(body, ws);

    // The capture pull request (its details: capture.test.ts), built on the commit that was read.
    const { pr, files } = await captureOf(2);
    expect(pr).toMatchObject({ base: 'main', state: 'open', title: `wiki: capture "${title}"`, labels: ['wiki:capture'] });
    expect(pr.base_sha).toBe(ws.sha);
    expect(files.some((f) => /^wiki\/queries\/[a-z0-9-]+\.md$/.test(f))).toBe(true);
    expect(visible(body)).toContain(`${SERVER}/${REPO}/pull/${pr.number}`);
    expect(r.outputs['pull-request-url']).toBe(`${SERVER}/${REPO}/pull/${pr.number}`);

    // Writes: 👀; the capture (one tree with the files inline), its pull request and label; then the comment, 👀 off and the outcome label.
    expect(writesOf(r.requests)).toEqual([EYES_ON, ...OPENED_CAPTURE, `POST ${COMMENTS} 201`, EYES_OFF, `POST ${LABELS} 201`, `POST ${ISSUE_LABELS} 200`]);
    expect(r.requests.find((q) => q.method === 'POST' && q.route === ISSUE_LABELS)?.params.issue_number).toBe(String(pr.number));
    expect(labelsOf(2)).toEqual(['question', label]);
    expect(r.outputs.outcome).toBe(kind);
  });

  it('a re-run updates the one comment in place; an edit that changes the outcome switches the label', async () => {
    asker('alice', 'triage');
    issue(3, 'Help', { body: COVERED });
    const first = await run('issues', gh.events.issues('opened', 3));
    expectExit(first, 0);
    const original = onlyComment(3);
    expect(traceOf(original.body)?.outcome).toBe('answered');
    expect(labelsOf(3)).toEqual(['question', 'wiki:answered']);

    // The same event again (a re-run of the job).
    const rerun = await run('issues', gh.events.issues('opened', 3));
    expectExit(rerun, 0);
    expect(writesOf(rerun.requests)).toEqual([EYES_ON, `PATCH ${COMMENT} 200`, EYES_OFF]);
    expect(rerun.requests.find((q) => q.method === 'PATCH')?.params.comment_id).toBe(String(original.id));
    expect(onlyComment(3).id).toBe(original.id);
    expect(rerun.outputs['comment-url']).toBe(first.outputs['comment-url']);
    expect(labelsOf(3)).toEqual(['question', 'wiki:answered']);

    // The author edits the body into a question the wiki does not cover.
    const old = gh.state.issue(3).body;
    gh.state.issue(3).body = COLD;
    const payload = { ...gh.events.issues('edited', 3), changes: { body: { from: old } } };
    const edit = await run('issues', payload);
    expectExit(edit, 0);
    const edited = onlyComment(3);
    expect(edited.id).toBe(original.id);
    expect(traceOf(edited.body)?.outcome).toBe('cold');
    expect(edited.body).toContain(`> ${COLD}`);
    expect(edited.body).not.toContain('install-pre-commit-hook.md?plain=1');
    // Now cold: a capture pull request is opened and the one comment links it.
    const { pr } = await captureOf(3);
    expect(edited.body).toContain(`${SERVER}/${REPO}/pull/${pr.number}`);
    expect(writesOf(edit.requests)).toEqual([
      EYES_ON,
      ...OPENED_CAPTURE,
      `PATCH ${COMMENT} 200`,
      EYES_OFF,
      `DELETE ${ISSUE_LABEL} 200`,
      `POST ${LABELS} 201`,
      `POST ${ISSUE_LABELS} 200`,
    ]);
    expect(edit.requests.find((q) => q.method === 'DELETE' && q.route === ISSUE_LABEL)?.params.name).toBe('wiki:answered');
    expect(labelsOf(3)).toEqual(['question', 'wiki:cold']);
    expect(edit.requests.filter((q) => q.method === 'POST' && q.route === COMMENTS)).toHaveLength(0);
    expect(edit.outputs.outcome).toBe('cold');

    // Re-running the cold answer rebuilds the same branch and updates the same pull request.
    const again = await run('issues', payload);
    expectExit(again, 0);
    expect(writesOf(again.requests)).toEqual([
      EYES_ON,
      `POST ${TREES} 201`,
      `POST ${COMMITS} 201`,
      `PATCH ${REF} 200`,
      `PATCH ${PULL} 200`,
      `PATCH ${COMMENT} 200`,
      EYES_OFF,
    ]);
    expect(gh.state.pulls).toHaveLength(1);
    expect(onlyComment(3).id).toBe(original.id);
    expect(again.outputs['pull-request-url']).toBe(edit.outputs['pull-request-url']);
  });

  it('`/wiki ask` on an issue answers in a separate comment keyed to the follow-up; the issue answer is untouched', async () => {
    asker('alice', 'triage');
    asker('bob', 'write');
    issue(4, COVERED);
    expectExit(await run('issues', gh.events.issues('opened', 4)), 0);
    const issueAnswer = { ...onlyComment(4) };

    const followUp = gh.state.addComment({ issue_number: 4, user: 'bob', body: '/wiki ask How do I validate the wiki in CI?' });
    const r = await run('issue_comment', gh.events.issueComment('created', followUp.id));
    expectExit(r, 0);
    const comments = gh.state.commentsOn(4);
    expect(comments).toHaveLength(3); // the issue answer, the follow-up, the follow-up's answer
    const [a, f, b] = [at(comments, 0), at(comments, 1), at(comments, 2)];
    expect(a).toEqual(issueAnswer); // not touched: same body, same updated_at
    expect(f.id).toBe(followUp.id);
    expect(b.body).toContain(`<!-- wiki-steward:answer key=comment-${followUp.id} -->`);
    expect(b.body.startsWith('> How do I validate the wiki in CI?\n')).toBe(true);
    expect(traceOf(b.body)?.question).toBe('How do I validate the wiki in CI?');
    expect(traceOf(b.body)?.outcome).toBe('answered');
    await expectPermalinksResolve(b.body, ws);
    expect(r.requests.filter((q) => q.route === PERMISSION).map((q) => q.params.username)).toEqual(['bob']);
    // 👀 on the follow-up comment (not on the issue) while it is answered.
    expect(writesOf(r.requests).filter((w) => w.includes('/comments'))).toEqual([
      `POST ${COMMENT_REACTIONS} 201`,
      `POST ${COMMENTS} 201`,
      `DELETE ${COMMENT_REACTION} 204`,
    ]);
    expect(r.outputs['comment-url']).toBe(`${SERVER}/${REPO}/issues/4#issuecomment-${b.id}`);

    // Re-running the follow-up updates its own answer only.
    const again = await run('issue_comment', gh.events.issueComment('created', followUp.id));
    expectExit(again, 0);
    expect(writesOf(again.requests).filter((w) => w.includes('comments'))).toEqual([
      `POST ${COMMENT_REACTIONS} 201`,
      `PATCH ${COMMENT} 200`,
      `DELETE ${COMMENT_REACTION} 204`,
    ]);
    expect(again.requests.find((q) => q.method === 'PATCH')?.params.comment_id).toBe(String(b.id));
    expect(at(gh.state.commentsOn(4), 0)).toEqual(issueAnswer);
  });

  it('a `/wiki How do I …` title without the label is answered, with the prefix stripped', async () => {
    asker('alice', 'triage');
    issue(6, `/wiki ${COVERED}`, { labels: [] });
    const r = await run('issues', gh.events.issues('opened', 6));
    expectExit(r, 0);
    const body = onlyComment(6).body;
    expect(traceOf(body)?.question).toBe(COVERED);
    expect(traceOf(body)?.outcome).toBe('answered');
    expect(body.startsWith(`> ${COVERED}\n`)).toBe(true);
    expect(body).not.toMatch(/^> \/wiki/m);
    expect(traceOf(body)?.question).not.toContain('/wiki');
    expect(labelsOf(6)).toEqual(['wiki:answered']);
  });

  describe('who may ask', () => {
    it('an asker below min-permission gets one short polite refusal and no answer', async () => {
      asker('outsider', 'read');
      issue(7, COVERED, { user: 'outsider' });
      const r = await run('issues', gh.events.issues('opened', 7));
      expectExit(r, 0);
      const body = onlyComment(7).body;
      expect(visible(body).trim().length).toBeLessThan(400);
      expect(body).toMatch(/^Thanks for the question\./);
      expect(body).toContain('triage');
      expect(body).toContain('<!-- wiki-steward:answer key=issue-7 -->');
      expect(traceOf(body)).toBeUndefined();
      expect(body).not.toContain('?plain=1');
      expect(body).not.toContain('How this was answered');
      expect(writesOf(r.requests)).toEqual([`POST ${COMMENTS} 201`]);
      expect(labelsOf(7)).toEqual(['question']);
      expect(r.stdout).toContain("@outsider has role 'read', below min-permission 'triage'");
    });

    it('with refusal: silent, no comment at all', async () => {
      asker('outsider', 'read');
      issue(8, COVERED, { user: 'outsider' });
      const r = await run('issues', gh.events.issues('opened', 8), { inputs: { refusal: 'silent' } });
      expectExit(r, 0);
      expect(writesOf(r.requests)).toEqual([]);
      expect(gh.state.commentsOn(8)).toHaveLength(0);
    });

    it("an organisation's custom role counts as the base role it grants", async () => {
      gh.state.setPermission('cory', 'docs-editor', { base: 'write' });
      issue(10, COVERED, { user: 'cory' });
      const r = await run('issues', gh.events.issues('opened', 10), { inputs: { 'min-permission': 'write' } });
      expectExit(r, 0);
      expect(traceOf(onlyComment(10).body)?.outcome).toBe('answered');
    });

    it('min-permission: none answers anyone (no permission look-up)', async () => {
      issue(9, COVERED, { user: 'passer-by' });
      const r = await run('issues', gh.events.issues('opened', 9), { inputs: { 'min-permission': 'none' } });
      expectExit(r, 0);
      expect(traceOf(onlyComment(9).body)?.outcome).toBe('answered');
      expect(r.requests.filter((q) => q.route === PERMISSION)).toHaveLength(0);
      expect(labelsOf(9)).toEqual(['question', 'wiki:answered']);
    });

    it("a maintainer labelling an outsider's issue asks for it", async () => {
      asker('outsider', 'read');
      asker('maint', 'maintain');
      issue(10, COVERED, { user: 'outsider', labels: [] });
      // Opened without the label: nothing to do.
      const opened = await run('issues', gh.events.issues('opened', 10));
      expectExit(opened, 0);
      expect(opened.requests).toHaveLength(0);
      // The maintainer adds the label.
      gh.state.issue(10).labels.push(gh.state.ensureLabel('question').name);
      const r = await run('issues', gh.events.issues('labeled', 10, { sender: 'maint', label: 'question' }));
      expectExit(r, 0);
      expect(r.requests.filter((q) => q.route === PERMISSION).map((q) => q.params.username)).toEqual(['maint']);
      expect(traceOf(onlyComment(10).body)?.outcome).toBe('answered');
      expect(labelsOf(10)).toEqual(['question', 'wiki:answered']);
    });
  });

  describe("an outsider's question a maintainer approved by labelling it (issue 25, item 12)", () => {
    const lastVisibleLine = (body: string) => at(visible(body).trimEnd().split('\n').slice(-1), 0);
    const NOTE = 'A maintainer can have it answered anew by adding the `question` label again (remove it, then add it back).';

    /** Issue 11 by an outsider (read access), labelled by a maintainer and answered. */
    async function approved() {
      asker('outsider', 'read');
      asker('maint', 'maintain');
      issue(11, 'Help', { user: 'outsider', body: COVERED, labels: [] });
      gh.state.issue(11).labels.push(gh.state.ensureLabel('question').name);
      const r = await run('issues', gh.events.issues('labeled', 11, { sender: 'maint', label: 'question' }));
      expectExit(r, 0);
      const answer = onlyComment(11);
      expect(traceOf(answer.body)?.outcome).toBe('answered');
      return answer;
    }

    /** The issue's body changed by `by` (the outsider unless told), and the `edited` event GitHub sends. */
    function edit(body: string, by?: string) {
      const from = gh.state.issue(11).body;
      gh.state.issue(11).body = body;
      return { ...gh.events.issues('edited', 11, by ? { sender: by } : {}), changes: { body: { from } } };
    }

    it('the outsider edits it: the answer stays as it was and gains one line saying the label is needed again; a second edit writes nothing', async () => {
      const answer = await approved();
      const before = visible(answer.body).trimEnd().split('\n');
      const r = await run('issues', edit(`${COVERED} Also, how do I bake sourdough bread?`));
      expectExit(r, 0);
      expect(r.stdout).toContain("@outsider has role 'read', below min-permission 'triage'");
      expect(writesOf(r.requests)).toEqual([`PATCH ${COMMENT} 200`]);
      const kept = onlyComment(11);
      expect(kept.id).toBe(answer.id);
      expect(kept.body).not.toContain('Thanks for the question');
      expect(kept.body).not.toContain('sourdough');
      // The answer's every line, its signature last, and its trace, as they were; one line more above the signature.
      const after = visible(kept.body).trimEnd().split('\n');
      expect(after.slice(0, before.length - 1)).toEqual(before.slice(0, -1));
      expect(lastVisibleLine(kept.body)).toBe(at(before, before.length - 1));
      expect(lastVisibleLine(kept.body)).toMatch(/^<sub>Answered by wiki-steward/);
      expect(after.filter((l) => l.includes(NOTE))).toHaveLength(1);
      expect(after.filter((l) => l.includes(NOTE))[0]).toMatch(/^\*\*The question has changed since this answer\*\*/);
      expect(traceOf(kept.body)).toEqual(traceOf(answer.body));
      expect(kept.body).toMatch(/<!-- wiki-steward:answer key=issue-11 -->\n<!-- wiki-steward:trace [^\n]* -->$/);
      expect(labelsOf(11)).toEqual(['question', 'wiki:answered']);

      const again = await run('issues', edit(`${COVERED} And rye bread?`));
      expectExit(again, 0);
      expect(writesOf(again.requests)).toEqual([]);
      expect(onlyComment(11).body).toBe(kept.body);
    });

    it('the label removed and added again by the maintainer: the edited question is answered anew', async () => {
      const answer = await approved();
      expectExit(await run('issues', edit(`${COVERED} I use the pre-commit framework.`)), 0);
      expect(visible(onlyComment(11).body)).toContain(NOTE);
      const issue11 = gh.state.issue(11);
      issue11.labels.splice(issue11.labels.indexOf('question'), 1);
      issue11.labels.push('question');
      const r = await run('issues', gh.events.issues('labeled', 11, { sender: 'maint', label: 'question' }));
      expectExit(r, 0);
      expect(r.requests.filter((q) => q.route === PERMISSION).map((q) => q.params.username)).toEqual(['maint']);
      const fresh = onlyComment(11);
      expect(fresh.id).toBe(answer.id);
      expect(traceOf(fresh.body)?.question).toContain('I use the pre-commit framework.');
      expect(visible(fresh.body)).not.toContain(NOTE);
      expect(lastVisibleLine(fresh.body)).toMatch(/^<sub>Answered by wiki-steward/);
    });

    it("the maintainer's own edit is answered anew", async () => {
      const answer = await approved();
      expectExit(await run('issues', edit(`${COVERED} I use the pre-commit framework.`)), 0);
      const r = await run('issues', edit(`${COVERED} (edited by a maintainer: on macOS)`, 'maint'));
      expectExit(r, 0);
      expect(r.requests.filter((q) => q.route === PERMISSION).map((q) => q.params.username)).toEqual(['maint']);
      const fresh = onlyComment(11);
      expect(fresh.id).toBe(answer.id);
      expect(traceOf(fresh.body)?.question).toContain('(edited by a maintainer: on macOS)');
      expect(visible(fresh.body)).not.toContain(NOTE);
    });

    it('with refusal: silent, the outsider’s edit writes nothing and the answer stays', async () => {
      const answer = await approved();
      const r = await run('issues', edit(`${COVERED} Also, how do I bake sourdough bread?`), { inputs: { refusal: 'silent' } });
      expectExit(r, 0);
      expect(writesOf(r.requests)).toEqual([]);
      expect(onlyComment(11).body).toBe(answer.body);
    });
  });

  describe('no writes', () => {
    it.each([
      { who: 'bot author (dependabot[bot], type Bot)', author: 'dependabot[bot]', sender: undefined },
      { who: 'bot sender (type Bot)', author: 'alice', sender: { login: 'helper-app', type: 'Bot' } },
      { who: 'bot sender (login ending [bot], type User)', author: 'alice', sender: { login: 'renovate[bot]', type: 'User' } },
    ])('$who → nothing written', async ({ author, sender }) => {
      asker('alice', 'triage');
      issue(11, COVERED, { user: author });
      const payload = gh.events.issues('opened', 11) as Record<string, unknown>;
      if (sender) payload.sender = { ...(payload.sender as object), ...sender };
      const r = await run('issues', payload);
      expectExit(r, 0);
      expect(gh.writes()).toEqual([]);
      expect(gh.state.commentsOn(11)).toHaveLength(0);
      expect(r.stdout).toContain('questions from bots are not answered');
    });

    it('a locked issue → nothing written, one log line', async () => {
      asker('alice', 'triage');
      issue(12, COVERED, { locked: true });
      const r = await run('issues', gh.events.issues('opened', 12));
      expectExit(r, 0);
      expect(gh.writes()).toEqual([]);
      expect(r.stdout).toContain('Skipping: issue #12 is locked.');
    });
  });

  it.each([
    { size: '1 MB', chars: 1_048_576 },
    { size: "60 KB (under GitHub's own 65,536 issue body limit)", chars: 60_000 },
  ])('a $size issue body → one comment under 65,536 characters', async ({ chars }) => {
    asker('alice', 'triage');
    const line = 'Here is more context about my setup, the hook and the repository layout we use. ';
    const big = line.repeat(Math.ceil(chars / line.length)).slice(0, chars);
    issue(13, COVERED, { body: big });
    const r = await run('issues', gh.events.issues('opened', 13));
    const sent = r.requests.find((q) => q.method === 'POST' && q.route === COMMENTS)?.body as { body?: string } | undefined;
    const sentLength = [...(sent?.body ?? '')].length;
    const longest = (sent?.body ?? '').split('\n').reduce((a, l) => (l.length > a.length ? l : a), '');
    expect(sentLength, `comment body sent: ${sentLength} characters; longest line (${longest.length}): ${longest.slice(0, 80)}…`).toBeLessThan(65_536);
    expectExit(r, 0);
    const body = onlyComment(13).body;
    expect([...body].length).toBeLessThan(65_536);
    const quote = quoteOf(body);
    expect(quote.startsWith(`> ${COVERED}`)).toBe(true);
    expect(quote.length).toBeLessThan(5_000);
    expect(traceOf(body)).toBeDefined();
    expect(writesOf(r.requests).filter((w) => w.startsWith(`POST ${COMMENTS}`))).toEqual([`POST ${COMMENTS} 201`]);
  });

  it('a long question is quoted cut, with a visible note', async () => {
    asker('alice', 'triage');
    const line = 'Here is more context about my setup, the hook and the repository layout we use. ';
    issue(23, COVERED, { body: line.repeat(60) }); // ~4,900 characters: the comment itself fits
    const r = await run('issues', gh.events.issues('opened', 23));
    expectExit(r, 0);
    const body = onlyComment(23).body;
    const quote = quoteOf(body);
    expect(quote.length).toBeLessThan(line.length * 60);
    expect(visible(body)).toMatch(/cut here|not shown|more characters/i);
  });

  it('Unicode and emoji pass through; @user and @org/team in the question are neutralised', async () => {
    asker('alice', 'triage');
    const title = `${COVERED} 🚀 ünïcödé 日本語`;
    issue(14, title, { body: 'cc @someone and @octo-org/docs-team — thanks! 🙏🏽 (e-mail me at alice@example.com)' });
    const r = await run('issues', gh.events.issues('opened', 14));
    expectExit(r, 0);
    const body = onlyComment(14).body;
    expect(body).toContain('🚀 ünïcödé 日本語');
    expect(body).toContain('🙏🏽');
    expect(body).toContain('alice@example.com'); // an e-mail address is not a mention
    expect(visible(body)).not.toMatch(/(^|[^\w`])@(someone|octo-org\/docs-team)/m);
    expect(visible(body)).toContain('@\u2060someone');
    // The whole posted body, hidden trace JSON included.
    expect(body).not.toMatch(/(^|[^\w`\u2060])@(someone|octo-org\/docs-team)\b/m);
    await expectPermalinksResolve(body, ws);
  });

  it('@user and @org/team quoted from a wiki page in the answer are neutralised', async () => {
    const withPage = await makeWorkspace({ 'wiki/how-to/escalate-an-unanswered-question.md': ESCALATE_PAGE });
    asker('alice', 'triage');
    issue(15, 'How do I escalate an unanswered question?');
    const r = await run('issues', gh.events.issues('opened', 15), { workspace: withPage });
    expectExit(r, 0);
    const body = onlyComment(15).body;
    expect(traceOf(body)?.outcome).toBe('answered');
    const links = await expectPermalinksResolve(body, withPage);
    expect(links.map((l) => l.file)).toContain('wiki/how-to/escalate-an-unanswered-question.md');
    expect(visible(body)).toContain('@\u2060wiki-oncall');
    expect(visible(body)).toContain('@\u2060octo-org/docs-team');
    expect(visible(body)).not.toMatch(/(^|[^\w`\u2060])@(wiki-oncall|octo-org\/docs-team)/m);
    expect(body).not.toMatch(/(^|[^\w`\u2060])@(wiki-oncall|octo-org\/docs-team)/m);
  });

  describe('GitHub faults', () => {
    const postComment = { method: 'POST', path: /\/issues\/\d+\/comments$/ };
    const posts = (r: Run) => r.requests.filter((q) => q.method === 'POST' && q.route === COMMENTS).map((q) => q.status);

    it('a 502 on the comment POST is retried: one comment', async () => {
      asker('alice', 'triage');
      issue(16, COVERED);
      gh.faults.serverError({ match: postComment, status: 502, times: 1 });
      const r = await run('issues', gh.events.issues('opened', 16));
      expectExit(r, 0);
      expect(posts(r)).toEqual([502, 201]);
      onlyComment(16);
      expect(labelsOf(16)).toEqual(['question', 'wiki:answered']);
    });

    it.each([
      {
        kind: 'secondary rate limit 403 + retry-after',
        fault: () => gh.faults.secondaryRateLimit({ match: postComment, status: 403, retryAfter: 1 }),
        status: 403,
      },
      {
        kind: 'secondary rate limit 429 + retry-after',
        fault: () => gh.faults.secondaryRateLimit({ match: postComment, status: 429, retryAfter: 2 }),
        status: 429,
      },
      {
        kind: 'primary rate limit 429 (x-ratelimit-remaining: 0)',
        fault: () => gh.faults.primaryRateLimit({ match: postComment, status: 429, resetInSeconds: 1 }),
        status: 429,
      },
    ])('$kind is waited out and retried: one comment', async ({ fault, status }) => {
      asker('alice', 'triage');
      issue(17, COVERED);
      fault();
      const r = await run('issues', gh.events.issues('opened', 17));
      expectExit(r, 0);
      expect(posts(r)).toEqual([status, 201]);
      onlyComment(17);
      expect(r.stdout).toMatch(/::warning::GitHub (secondary|primary) rate limit on POST .*retrying after \d+ s/);
    });

    it('a secondary rate limit on a label write is retried too', async () => {
      asker('alice', 'triage');
      issue(18, COVERED);
      gh.faults.secondaryRateLimit({ match: { method: 'POST', path: /\/issues\/\d+\/labels$/ }, status: 403, retryAfter: 1 });
      const r = await run('issues', gh.events.issues('opened', 18));
      expectExit(r, 0);
      expect(labelsOf(18)).toEqual(['question', 'wiki:answered']);
      onlyComment(18);
    });

    // A comment refused for good (exit 1, `::error::`) runs through the bundle: bundle-contract.test.ts.
  });

  it('dry-run: only reads reach GitHub (GETs and the GraphQL query of who the token is), and each write is listed', async () => {
    asker('alice', 'triage');
    issue(20, COVERED);
    const r = await run('issues', gh.events.issues('opened', 20), { inputs: { 'dry-run': 'true' } });
    expectExit(r, 0);
    expect(r.requests.length).toBeGreaterThan(0);
    expect(r.requests.filter(isWrite)).toEqual([]);
    expect(r.requests.filter((q) => q.method !== 'GET').map((q) => `${q.method} ${q.route}`)).toEqual(['POST /graphql']);
    expect(gh.writes()).toEqual([]);
    expect(gh.state.commentsOn(20)).toHaveLength(0);
    expect(labelsOf(20)).toEqual(['question']);
    const planned = r.stdout.split('\n').filter((l) => l.startsWith('[dry-run] would '));
    expect(planned).toEqual([
      '[dry-run] would POST /repos/octo-org/wiki/issues/20/reactions (eyes)',
      expect.stringMatching(/^\[dry-run\] would POST \/repos\/octo-org\/wiki\/issues\/20\/comments \(\d+ characters\)$/),
      '[dry-run] would POST /repos/octo-org/wiki/labels (wiki:answered)',
      '[dry-run] would POST /repos/octo-org/wiki/issues/20/labels (wiki:answered)',
    ]);
    expect(r.outputs.outcome).toBe('answered');
  });

  it('an invalid .wiki-steward.yml fails the step before any API call, naming the file as the repository has it', async () => {
    // Named relative to the step's workspace, not to wherever the process runs (here: the test's).
    const broken = await makeWorkspace({ '.wiki-steward.yml': 'ask: [\n' }, { index: false });
    asker('alice', 'triage');
    issue(31, COVERED);
    const r = await run('issues', gh.events.issues('opened', 31), { workspace: broken });
    expectExit(r, 1);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('::error::'))).toEqual([expect.stringMatching(/^::error::\.wiki-steward\.yml: not valid YAML: /)]);
    expect(r.requests).toHaveLength(0);
  });

  it('an event it skips (an issue closed) makes no API call', async () => {
    asker('alice', 'triage');
    issue(30, COVERED);
    const skip = await run('issues', gh.events.issues('closed', 30));
    expectExit(skip, 0);
    expect(skip.stdout).toMatch(/^wiki-steward: skip \(.*\) for issues$/m);
    expect(skip.requests).toHaveLength(0);
  });
});

describe('conversation manners (👀 while answering, 😕 on failure, the signature line)', () => {
  /** The steward's reactions on the issue (or on the comment `commentId`), as `login content`. */
  const reactionsOn = (n: number, commentId?: number) =>
    (commentId === undefined ? gh.state.reactionsOnIssue(n) : gh.state.reactionsOn(commentId)).map((x) => `${x.user} ${x.content}`);
  /** The reaction ids the run added and removed, in order. */
  const reactionIds = (r: Run) => ({
    added: r.requests.filter((q) => q.method === 'POST' && /\/reactions$/.test(q.route ?? '')).map((q) => (q.responseBody as { id?: number }).id),
    removed: r.requests.filter((q) => q.method === 'DELETE' && /\/reactions\/\{reaction_id\}$/.test(q.route ?? '')).map((q) => Number(q.params.reaction_id)),
  });
  /** The comment's last visible line (the hidden trailer stripped). */
  const lastVisibleLine = (body: string) => at(visible(body).trimEnd().split('\n').slice(-1), 0);

  it('an issue question gets 👀 before the wiki is read and loses it once the answer is posted', async () => {
    asker('alice', 'triage');
    issue(40, COVERED);
    const r = await run('issues', gh.events.issues('opened', 40));
    expectExit(r, 0);
    const writes = writesOf(r.requests);
    expect(writes.slice(0, 3)).toEqual([EYES_ON, `POST ${COMMENTS} 201`, EYES_OFF]);
    expect(
      at(
        r.requests.filter((q) => q.method === 'POST' && q.route === ISSUE_REACTIONS),
        0,
      ).body,
    ).toEqual({ content: 'eyes' });
    // The 👀 removed is the one GitHub returned; nothing of the steward's is left on the issue.
    const { added, removed } = reactionIds(r);
    expect(removed).toEqual(added);
    expect(reactionsOn(40)).toEqual([]);
  });

  it("a 👀 left by an earlier run (GitHub answers 200 with it) is the steward's own: removed as well", async () => {
    asker('alice', 'triage');
    issue(41, COVERED);
    const left = gh.state.addReaction({ issue_number: 41, content: 'eyes', user: 'github-actions[bot]' });
    gh.state.addReaction({ issue_number: 41, content: 'eyes', user: 'alice' });
    const r = await run('issues', gh.events.issues('opened', 41));
    expectExit(r, 0);
    expect(writesOf(r.requests).slice(0, 3)).toEqual([`POST ${ISSUE_REACTIONS} 200`, `POST ${COMMENTS} 201`, EYES_OFF]);
    expect(reactionIds(r)).toEqual({ added: [left.id], removed: [left.id] });
    expect(reactionsOn(41)).toEqual(['alice eyes']); // a person's 👀 is theirs
  });

  it('a `/wiki ask` comment gets and loses 👀 on that comment; the issue gets none', async () => {
    asker('bob', 'write');
    issue(42, 'Context', { labels: [] });
    const ask = gh.state.addComment({ issue_number: 42, user: 'bob', body: '/wiki ask How do I validate the wiki in CI?' });
    const r = await run('issue_comment', gh.events.issueComment('created', ask.id));
    expectExit(r, 0);
    expect(writesOf(r.requests)).toEqual([`POST ${COMMENT_REACTIONS} 201`, `POST ${COMMENTS} 201`, `DELETE ${COMMENT_REACTION} 204`]);
    const posted = r.requests.filter((q) => q.route === COMMENT_REACTIONS || q.route === COMMENT_REACTION).map((q) => q.params.comment_id);
    expect(posted).toEqual([String(ask.id), String(ask.id)]);
    const { added, removed } = reactionIds(r);
    expect(removed).toEqual(added);
    expect(reactionsOn(42, ask.id)).toEqual([]);
    expect(reactionsOn(42)).toEqual([]);
  });

  it('a run that fails after the 👀 (the answer comment refused for good) leaves 😕 and no 👀', async () => {
    asker('alice', 'triage');
    issue(43, COVERED);
    gh.faults.push({ match: { method: 'POST', path: /\/issues\/\d+\/comments$/ }, times: Infinity, status: 500 });
    const r = await run('issues', gh.events.issues('opened', 43));
    expectExit(r, 1);
    expect(reactionsOn(43)).toEqual(['github-actions[bot] confused']);
    expect(writesOf(r.requests).slice(-2)).toEqual([EYES_OFF, `POST ${ISSUE_REACTIONS} 201`]);
    expect(
      at(
        r.requests.filter((q) => q.method === 'POST' && q.route === ISSUE_REACTIONS),
        1,
      ).body,
    ).toEqual({ content: 'confused' });
  });

  it('a failed `/wiki ask` run leaves 😕 on the comment', async () => {
    asker('bob', 'write');
    issue(44, 'Context', { labels: [] });
    const ask = gh.state.addComment({ issue_number: 44, user: 'bob', body: `/wiki ask ${COVERED}` });
    gh.faults.push({ match: { method: 'POST', path: /\/issues\/\d+\/comments$/ }, times: Infinity, status: 500 });
    expectExit(await run('issue_comment', gh.events.issueComment('created', ask.id)), 1);
    expect(reactionsOn(44, ask.id)).toEqual(['github-actions[bot] confused']);
  });

  it.each([
    {
      what: 'adding 👀 fails',
      fault: { method: 'POST', path: /\/reactions$/ },
      says: /^::warning::Could not add 👀 to issue #45 \(the answer is not affected\): GitHub refused to POST .*reactions \(eyes\) \(HTTP 500\)/m,
    },
    {
      what: 'removing 👀 fails',
      fault: { method: 'DELETE', path: /\/reactions\/\d+$/ },
      says: /^::warning::Could not remove 👀 from issue #45 \(the answer is not affected\): GitHub refused to DELETE .*\(HTTP 500\)/m,
    },
  ])('$what (GitHub 500 every time): the answer is posted and labelled all the same, with a warning', async ({ fault, says }) => {
    asker('alice', 'triage');
    issue(45, COVERED);
    gh.faults.push({ match: fault, times: Infinity, status: 500 });
    const r = await run('issues', gh.events.issues('opened', 45));
    expectExit(r, 0);
    expect(traceOf(onlyComment(45).body)?.outcome).toBe('answered');
    expect(labelsOf(45)).toEqual(['question', 'wiki:answered']);
    expect(r.outputs.outcome).toBe('answered');
    expect(r.stdout).toMatch(says);
    expect(r.stdout).not.toMatch(/^::error::/m);
  });

  it('the last visible line links the workflow run (with its attempt), the wiki commit read and names the answerer', async () => {
    asker('alice', 'triage');
    issue(46, COVERED);
    const r = await run('issues', gh.events.issues('opened', 46), { env: { GITHUB_RUN_ID: '4242', GITHUB_RUN_ATTEMPT: '2' } });
    expectExit(r, 0);
    const body = onlyComment(46).body;
    expect(lastVisibleLine(body)).toBe(
      `<sub>Answered by wiki-steward (offline answerer) from the wiki at [\`${ws.sha.slice(0, 7)}\`](${SERVER}/${REPO}/tree/${ws.sha}) · [workflow run](${SERVER}/${REPO}/actions/runs/4242/attempts/2) · Helpful? React with 👍 or 👎.</sub>`,
    );
    // Above the hidden trailer, which still ends the comment; the invitation is made once.
    expect(body.indexOf('<sub>Answered by')).toBeLessThan(body.indexOf('<!-- wiki-steward:answer'));
    expect(body.split('React with 👍 or 👎')).toHaveLength(2);
    expect(traceOf(body)?.wiki.commit).toBe(ws.sha);
    expect(r.summary).toContain(`[workflow run](${SERVER}/${REPO}/actions/runs/4242/attempts/2)`);

    // A first attempt links the run alone; without GITHUB_RUN_ID (not a workflow run) there is no run link.
    issue(47, COVERED);
    expectExit(await run('issues', gh.events.issues('opened', 47), { env: { GITHUB_RUN_ID: '4243', GITHUB_RUN_ATTEMPT: '1' } }), 0);
    expect(lastVisibleLine(onlyComment(47).body)).toContain(`· [workflow run](${SERVER}/${REPO}/actions/runs/4243) ·`);
    issue(48, COVERED);
    expectExit(await run('issues', gh.events.issues('opened', 48), { env: { GITHUB_RUN_ID: '' } }), 0);
    const unlinked = lastVisibleLine(onlyComment(48).body);
    expect(unlinked).toMatch(
      /^<sub>Answered by wiki-steward \(offline answerer\) from the wiki at \[`[0-9a-f]{7}`\]\([^)]+\) · Helpful\? React with 👍 or 👎\.<\/sub>$/,
    );
  });

  it('a cold answer with a capture pull request still ends with the signature line, under the capture link', async () => {
    asker('alice', 'triage');
    issue(49, COLD);
    expectExit(await run('issues', gh.events.issues('opened', 49)), 0);
    const lines = visible(onlyComment(49).body).trimEnd().split('\n');
    expect(at(lines, lines.length - 1)).toMatch(
      /^<sub>Answered by wiki-steward \(offline answerer\) .* · \[workflow run\]\(http:\/\/github\.test\/octo-org\/wiki\/actions\/runs\/1\) · Helpful\?/,
    );
    expect(lines.findIndex((l) => l.includes('adds a capture page'))).toBeLessThan(lines.length - 1);
  });

  it('a model that fails for good: the answer is made offline, and the run warns why (log and job summary), no stack trace', async () => {
    // A port nothing listens on: every attempt is refused, so the offline answerer stands in.
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    asker('alice', 'triage');
    issue(51, COVERED);
    const r = await run('issues', gh.events.issues('opened', 51), {
      inputs: { llm: 'openai', 'llm-base-url': `http://127.0.0.1:${closed}/v1`, 'llm-model': 'gpt-test' },
    });
    expectExit(r, 0);
    const body = onlyComment(51).body;
    const trace = traceOf(body);
    expect(trace).toMatchObject({ outcome: 'answered', answerer: 'openai:gpt-test' });
    expect(trace?.provider_fault).toMatch(/^openai: network error after \d+ attempts/);
    const warning = `The openai:gpt-test answerer failed: ${trace?.provider_fault} — this answer was made offline.`;
    expect(r.stdout.split('\n').filter((l) => l.startsWith('::warning::'))).toEqual([`::warning::${warning}`]);
    expect(r.summary).toContain(`> ${warning}`);
    expect(r.summary).not.toMatch(/\n\s+at /);
    expect(lastVisibleLine(body)).toMatch(/^<sub>Answered by wiki-steward \(offline answerer, standing in for openai:gpt-test\) from the wiki at /);
    expect(reactionsOn(51)).toEqual([]);
  });

  it("the digest counts a 👍 a reader gives the answer comment (and not the steward's own 👀)", async () => {
    asker('alice', 'triage');
    issue(50, COVERED);
    expectExit(await run('issues', gh.events.issues('opened', 50)), 0);
    const answer = onlyComment(50).id;
    gh.state.addReaction({ comment_id: answer, content: '+1', user: 'alice' });
    // The steward's own reactions (👀 while answering, 😕 on a failure) and other readers' are no votes.
    for (const content of ['eyes', 'confused'] as const) gh.state.addReaction({ comment_id: answer, content, user: 'github-actions[bot]' });
    gh.state.addReaction({ comment_id: answer, content: 'heart', user: 'bob' });
    const r = await run('workflow_dispatch', {});
    expectExit(r, 0);
    const digest = at(
      gh.state.issues.filter((i) => i.labels.includes('wiki:digest')),
      0,
    );
    expect(digest.body).toContain('1 questions asked: 1 answered');
    expect(digest.body).toContain('👍 1 · 👎 0 on answers this period.');
  });
});
