// Between questions, end to end (issue 7): the scheduled digest and maintenance on pushes to main,
// the Action run in this process through the entry function the bundle calls (`runAction`, harness
// `runStep`) against the GitHub emulator (real bare git repositories). Every test seeds the
// emulated repository from a workspace and runs the Action on a clone of it, so GITHUB_SHA is the
// emulator's main head, as actions/checkout makes it on a push. The committed bundle's own runs of
// maintain (push to main) and of the digest (schedule) are in bundle-contract.test.ts.
//
// Validation of a pull request with an invalid page (annotations on the right lines, failed check)
// is covered in test/cli/changed-since.test.ts; the last test here only checks that the
// emulator's own pull_request payload reaches it (the base sha) for a capture branch.
import { page } from '../helpers/wiki-fixture.js';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateQuestions, generateWiki } from '../../bench/generate-wiki.js';
import { renderComment } from '../../src/github/answer-comment.js';
import { postable } from '../../src/github/posted-text.js';
import { extractSignalTerms } from '../../src/ladder/signal-terms.js';
import type { Trace } from '../../src/answer/trace.js';
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
  twinRuns,
} from './harness.js';
import { REPO, SERVER, ISSUES, ISSUE, COMMENTS, TREES, COMMITS, REFS, REF, PULLS, PULL } from './routes.js';

const REFRESH_BRANCH = 'wiki-steward/refresh-indexes';

const COVERED = 'How do I install the pre-commit hook?';
const COLD = 'How do I bake sourdough bread?';
const GAP = 'How do I set `--max-citations` so answers cite at most 3 pages?';
const DAY = 86_400_000;

/** A valid page a person pushes straight to main, without regenerating the index files. */
const pageAbout = (title: string, body: string) => page({ title, type: 'concepts', body });

let template: Workspace;
let gh: GitHubEmulator;
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

async function run(
  eventName: string,
  payload: unknown,
  opts: { workspace?: Workspace; inputs?: Record<string, string>; env?: Record<string, string> } = {},
): Promise<Run> {
  const from = gh.requests.length;
  const result = await runStep({
    githubEnv: gh.env(),
    workspace: opts.workspace ?? ws,
    eventName,
    payload,
    inputs: opts.inputs,
    ...(opts.env ? { env: opts.env } : {}),
  });
  return { ...result, requests: gh.requests.slice(from) };
}

const pushToMain = { ref: 'refs/heads/main', repository: { default_branch: 'main' }, sender: { login: 'maya', type: 'User' } };
const schedule = { schedule: '0 6 * * 1' };
/** A scheduled run past the first day of the current week reports that week (pinned later on a Monday). */
const midWeek = (): Record<string, string> => ({
  WIKI_STEWARD_NOW: new Date(Math.max(Date.now(), isoWeek(new Date()).start.getTime() + DAY + 3_600_000)).toISOString(),
});

// Writes: not GETs, nor the GraphQL query that asks who the token is.
const writesOf = (requests: readonly RecordedRequest[]) => requests.filter(isWrite).map((r) => `${r.method} ${r.route} ${r.status}`);

function expectExit(r: RunResult, code: number): void {
  expect(r.code, `exit ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`).toBe(code);
}

function at<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`expected an element at ${index}, got ${list.length} elements`);
  return item;
}

function ask(number: number, title: string, user = 'alice') {
  gh.state.setPermission(user, 'triage');
  return gh.state.addIssue({ number, title, body: '', user, labels: ['question'] });
}

async function answer(number: number): Promise<Run> {
  const r = await run('issues', gh.events.issues('opened', number));
  expectExit(r, 0);
  return r;
}

/** The steward's answer comments (bot author, answer marker), oldest first. */
const stewardAnswers = () => gh.state.comments.filter((c) => c.user === 'github-actions[bot]' && c.body.includes('<!-- wiki-steward:answer '));
const answerOn = (n: number) =>
  at(
    stewardAnswers().filter((c) => c.issue_number === n),
    0,
  );

function captureOf(n: number): PullRecord {
  const pr = gh.state.pulls.find((p) => p.head === `wiki-steward/capture/${n}`);
  if (!pr) throw new Error(`no capture PR for #${n}`);
  return pr;
}

function markerOf(body: string | null): { page: string; commit: string } {
  const m = /<!-- wiki-steward:capture key=[\w-]+ issue=\d+ page=(\S+) commit=([0-9a-f]{40}) -->/.exec(body ?? '');
  if (!m) throw new Error(`no capture marker in:\n${body}`);
  return { page: decodeURIComponent(m[1]!), commit: m[2]! };
}

/** GET /pulls/{n} through the API, as a reviewer's browser asks GitHub. */
async function getPull(n: number): Promise<{ state: string; mergeable: boolean | null; mergeable_state: string }> {
  const res = await fetch(`${gh.url}/repos/${REPO}/pulls/${n}`, { headers: { authorization: 'token reviewer' } });
  return (await res.json()) as { state: string; mergeable: boolean | null; mergeable_state: string };
}

function expectStewardCommit(sha: string): void {
  expect(gh.state.findCommit(sha)).toMatchObject({
    customAuthor: false,
    customCommitter: false,
    customSignature: false,
    verified: true,
    actor: 'github-actions[bot]',
  });
}

async function expectCleanAt(ref: string): Promise<{ pages: number }> {
  const co = await checkout(gh.gitDir(), ref);
  const validate = await runCli(['validate', '--wiki', 'wiki'], co.dir);
  expect(validate.code, `validate at ${ref}:\n${validate.stdout}${validate.stderr}`).toBe(0);
  const index = await runCli(['index', '--check', '--wiki', 'wiki'], co.dir);
  expect(index.code, `index --check at ${ref}:\n${index.stdout}${index.stderr}`).toBe(0);
  return { pages: Number(/(\d+) pages? checked/.exec(validate.stdout + validate.stderr)?.[1] ?? NaN) };
}

/** The ISO week (UTC) of a date, computed here independently of src/digest/period.ts. */
function isoWeek(at: Date): { label: string; start: Date } {
  const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const start = midnight - ((new Date(midnight).getUTCDay() + 6) % 7) * DAY;
  const thursday = new Date(start + 3 * DAY);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / DAY / 7) + 1;
  return { label: `${year}-W${String(week).padStart(2, '0')}`, start: new Date(start) };
}

const iso = (t: number) => new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
const digestIssues = () => gh.state.issues.filter((i) => i.labels.includes('wiki:digest'));

// -----------------------------------------------------------------------------------------------

describe('digest (schedule)', () => {
  it('a week of questions with mixed outcomes and reactions → ONE digest issue with the counts, topic groups and votes; a second run updates it', async () => {
    // The week: two covered questions, a cold one asked twice in other words (and once more as a
    // follow-up), a gap, and an outsider the steward refused.
    ask(1, COVERED);
    ask(2, 'How do I validate the wiki in CI?', 'bob');
    ask(3, COLD, 'carol');
    ask(4, 'How should I bake sourdough bread at home?', 'dave');
    ask(5, GAP, 'erin');
    gh.state.setPermission('outsider', 'read');
    gh.state.addIssue({ number: 6, title: 'How do I install the pre-commit hook quickly?', user: 'outsider', labels: ['question'] });
    for (const n of [1, 2, 3, 4, 5, 6]) await answer(n);
    gh.state.setPermission('bob', 'write');
    const followUp = gh.state.addComment({ issue_number: 1, user: 'bob', body: '/wiki ask How do I bake sourdough bread without a starter?' });
    expectExit(await run('issue_comment', gh.events.issueComment('created', followUp.id)), 0);

    const outcomes = new Map(stewardAnswers().map((c) => [c.id, traceOf(c.body)?.outcome as string | undefined]));
    expect([1, 2, 3, 4, 5].map((n) => outcomes.get(answerOn(n).id))).toEqual(['answered', 'answered', 'cold', 'cold', 'gap']);
    expect(outcomes.get(answerOn(6).id)).toBeUndefined(); // the refusal carries no trace
    const followUpAnswer = at(
      stewardAnswers().filter((c) => c.body.includes(`key=comment-${followUp.id}`)),
      0,
    );
    expect(outcomes.get(followUpAnswer.id)).toBe('cold');

    // Things the digest must leave out: an answer from last week (and one from last week edited
    // this week), and a person's comment that pastes a steward marker and trace.
    const week = isoWeek(new Date());
    const lastWeek = iso(week.start.getTime() - 3 * DAY);
    gh.state.addComment({ issue_number: 3, user: 'github-actions[bot]', body: answerOn(3).body, created_at: lastWeek });
    gh.state.addComment({ issue_number: 5, user: 'github-actions[bot]', body: answerOn(5).body, created_at: lastWeek, updated_at: gh.state.now() });
    gh.state.addComment({ issue_number: 2, user: 'mallory', body: `copied:\n${answerOn(3).body}` });

    // Reader feedback: 👍/👎 (and a ❤️ that is neither) on the answer comments.
    const react = (n: number, content: '+1' | '-1' | 'heart', ...users: string[]) =>
      users.forEach((user) => gh.state.addReaction({ comment_id: answerOn(n).id, content, user }));
    react(1, '+1', 'alice', 'bob');
    react(1, 'heart', 'carol');
    react(3, '-1', 'carol', 'dave');
    react(3, '+1', 'erin');
    react(5, '-1', 'bob');

    // The gap's capture was merged this week.
    const merged = captureOf(5);
    gh.state.mergePull(merged, { by: 'maya' });

    const r = await run('schedule', schedule, { env: midWeek() });
    expectExit(r, 0);
    expect(writesOf(r.requests)).toEqual([`POST ${ISSUES} 201`]);
    expect(digestIssues()).toHaveLength(1);
    const digest = at(digestIssues(), 0);
    expect(digest.title).toBe(`wiki-steward digest ${week.label}`);
    expect(digest.user).toBe('github-actions[bot]');
    const body = digest.body ?? '';

    // Counts: six answers this period (five issues and the follow-up); the refusal, the old
    // answers and the pasted copy are not among them.
    expect(body).toContain('6 questions asked: 2 answered, 1 gap, 3 cold, 0 error.');
    expect(body).toContain('```mermaid\npie title Outcomes\n  "answered" : 2\n  "gap" : 1\n  "cold" : 3\n```');

    // Topics: the three sourdough questions in one group, the gap in its own; most asked first.
    const topics = body
      .slice(body.indexOf('## What to write next'), body.indexOf('## Capture pull requests'))
      .split('\n')
      .filter((l) => l.startsWith('- '));
    expect(topics).toHaveLength(2);
    expect(at(topics, 0)).toMatch(/^- \*\*[^*]*sourdough[^*]*\*\* — asked 3× \(#3, #4, #1\), capture #\d+: “How do I bake sourdough bread\?”$/);
    // Group names are the signal terms as the askers wrote them.
    expect(at(topics, 1)).toMatch(/^- \*\*[^*]*--max-citations[^*]*\*\* — asked 1× \(#5\), capture #\d+: “How do I set `--max-citations`/);
    const groupCapture = Number(/capture #(\d+)/.exec(at(topics, 0))?.[1]);
    const followUpCapture = gh.state.pulls.find((p) => p.head === `wiki-steward/capture/1-c${followUp.id}`);
    expect([captureOf(3).number, captureOf(4).number, followUpCapture?.number]).toContain(groupCapture);

    // Capture PRs: one per cold or gap question; three open, one merged this week.
    expect(body).toContain('3 open, oldest first:');
    for (const pr of gh.state.pulls.filter((p) => p !== merged)) expect(body).toContain(`- #${pr.number} (0 days) ${pr.title}`);
    expect(body).not.toContain(`- #${merged.number} (`);
    expect(body).toContain(`Merged this period: #${merged.number}.`);

    // Votes: 👍 3 · 👎 3 (the ❤️ does not count), the most voted down first.
    expect(body).toContain('👍 3 · 👎 3 on answers this period.');
    const downs = body.split('\n').filter((l) => l.startsWith('- 👎'));
    expect(downs).toEqual([
      `- 👎 2 / 👍 1: [${COLD}](${SERVER}/${REPO}/issues/3#issuecomment-${answerOn(3).id})`,
      expect.stringMatching(
        new RegExp(
          `^- 👎 1 / 👍 0: \\[How do I set \`--max-citations\`.*\\]\\(${SERVER.replace(/[.]/g, '\\.')}/${REPO}/issues/5#issuecomment-${answerOn(5).id}\\)$`,
        ),
      ),
    ]);
    expect(body).toContain('## Most cited pages');
    expect(body).toContain('`how-to/install-pre-commit-hook.md`');
    const { pages } = await expectCleanAt(ws.sha); // health comes from the run's checkout
    expect(body).toContain(`## Wiki health\n\n${pages} pages in`);
    expect(r.summary).toContain(`# wiki-steward digest ${week.label}`);
    expect(r.outputs['comment-url']).toBe(`${SERVER}/${REPO}/issues/${digest.number}`);

    // Reads: paginated 100 at a time; a handful of requests.
    const reads = r.requests.filter((q) => q.method === 'GET');
    expect(reads.every((q) => q.query.per_page === '100')).toBe(true);

    // A second run (the next day, or a manual dispatch) updates the same issue.
    gh.state.addReaction({ comment_id: answerOn(2).id, content: '+1', user: 'frank' });
    const again = await run('workflow_dispatch', {});
    expectExit(again, 0);
    expect(writesOf(again.requests)).toEqual([`PATCH ${ISSUE} 200`]);
    expect(again.requests.find((q) => q.method === 'PATCH')?.params.issue_number).toBe(String(digest.number));
    expect(digestIssues()).toHaveLength(1);
    expect(at(digestIssues(), 0).body).toContain('👍 4 · 👎 3 on answers this period.');
    expect(again.outputs['comment-url']).toBe(r.outputs['comment-url']);
  });
});

describe('digest periods and ordering', () => {
  it('open capture PRs are listed oldest first, also when they were opened the same day', async () => {
    ask(1, COLD);
    ask(2, 'How do we rotate the staging database password?');
    ask(3, 'Where is the quarterly budget spreadsheet kept?');
    for (const n of [1, 2, 3]) await answer(n);
    const prs = [1, 2, 3].map(captureOf);
    prs.forEach((pr, i) => (pr.issue.created_at = iso(Date.now() - (3 - i) * 3_600_000))); // 3 h, 2 h, 1 h ago
    const r = await run('schedule', schedule, { env: midWeek() });
    expectExit(r, 0);
    const listed = (at(digestIssues(), 0).body ?? '')
      .split('\n')
      .filter((l) => /^- #\d+ \(\d+ days\)/.test(l))
      .map((l) => Number(/#(\d+)/.exec(l)?.[1]));
    expect([...listed].sort((x, y) => x - y)).toEqual(prs.map((p) => p.number)); // all three are listed
    expect(listed).toEqual(prs.map((p) => p.number));
  });

  it('the documented weekly schedule (Monday morning) reports the week that just ended', async () => {
    // The questions of last week: answered by the steward then (their comments dated last week).
    ask(1, COVERED);
    ask(2, COLD);
    await answer(1);
    await answer(2);
    const week = isoWeek(new Date());
    const lastWeek = isoWeek(new Date(week.start.getTime() - 3 * DAY));
    for (const c of stewardAnswers()) c.created_at = c.updated_at = iso(lastWeek.start.getTime() + 2 * DAY + c.issue_number * 3_600_000);
    for (const pr of gh.state.pulls) pr.issue.created_at = pr.issue.updated_at = iso(lastWeek.start.getTime() + 2 * DAY);

    const mondayMorning = new Date(week.start.getTime() + (6 * 60 + 17) * 60_000).toISOString();
    const r = await run('schedule', { schedule: '17 6 * * 1' }, { env: { WIKI_STEWARD_NOW: mondayMorning } }); // .github/workflows/wiki-steward.yml
    expectExit(r, 0);
    const titles = digestIssues().map((i) => i.title);
    expect(titles.length).toBeGreaterThan(0);
    const reported = digestIssues().find((i) => i.title === `wiki-steward digest ${lastWeek.label}`);
    expect(reported?.body ?? `no digest issue for ${lastWeek.label}; issues: ${titles.join(', ')}`).toContain(
      '2 questions asked: 1 answered, 0 gap, 1 cold, 0 error.',
    );
  });
});

describe('two digest runs at once (both find no issue for the week, both open one)', () => {
  const lists = { method: 'GET', route: ISSUES, query: { labels: 'wiki:digest' } };
  const opens = { method: 'POST', route: ISSUES };

  it.each([
    { name: 'a manual run waits on a scheduled one', mode: 'one after the other' as const, held: 'workflow_dispatch', other: 'schedule', bothClose: false },
    { name: 'a scheduled run waits on a manual one', mode: 'one after the other' as const, held: 'schedule', other: 'workflow_dispatch', bothClose: false },
    { name: 'both look, both open, both look again and see both', mode: 'together' as const, held: 'schedule', other: 'workflow_dispatch', bothClose: true },
  ])('$name → the older issue stays open, the other is closed as not planned with one note pointing at it', async ({ mode, held, other, bothClose }) => {
    ask(1, COVERED);
    await answer(1);
    const payloads: Record<string, unknown> = { schedule, workflow_dispatch: {} };
    const env = midWeek();
    const [first, second] = await twinRuns(
      gh,
      { read: lists, create: opens, mode },
      () => run(held, payloads[held], { env }),
      () => run(other, payloads[other], { env }),
    );
    expectExit(first, 0);
    expectExit(second, 0);
    const week = isoWeek(new Date(env.WIKI_STEWARD_NOW!));
    const issues = digestIssues().sort((a, b) => a.number - b.number);
    expect(issues.map((i) => i.title)).toEqual([`wiki-steward digest ${week.label}`, `wiki-steward digest ${week.label}`]);
    const [kept, duplicate] = [at(issues, 0), at(issues, 1)];
    expect([kept.state, duplicate.state, duplicate.state_reason]).toEqual(['open', 'closed', 'not_planned']);
    expect(kept.body).toContain('1 questions asked: 1 answered');
    expect(kept.body?.endsWith(`<!-- wiki-steward:digest period=${week.label} -->`)).toBe(true);
    // One note on the closed one, by the run that opened it; none on the kept one.
    expect(gh.state.commentsOn(kept.number)).toEqual([]);
    const notes = gh.state.commentsOn(duplicate.number);
    expect(notes.map((c) => [c.user, visible(c.body)])).toEqual([
      ['github-actions[bot]', `Closed: two digest runs opened an issue for ${week.label} at the same time, and the older one, #${kept.number}, is kept.`],
    ]);
    // Closed by the run that opened it, and by the other one too when its second look saw it open.
    const closes = gh.requests.filter((r) => r.method === 'PATCH' && r.route === ISSUE);
    expect(closes.length).toBeGreaterThanOrEqual(bothClose ? 2 : 1);
    expect(closes.map((r) => [r.params.issue_number, r.body])).toEqual(
      closes.map(() => [String(duplicate.number), { state: 'closed', state_reason: 'not_planned' }]),
    );
    // Both runs name the issue that stays; the one that opened the duplicate says what it did.
    const url = `${SERVER}/${REPO}/issues/${kept.number}`;
    expect([first.outputs['comment-url'], second.outputs['comment-url']]).toEqual([url, url]);
    expect(first.stdout).toContain(
      `Another digest run opened this period's issue at the same time: kept #${kept.number} (the oldest), closed #${duplicate.number} as not planned.`,
    );
    for (const r of [first, second]) expect(r.stdout).not.toMatch(/^::(?:error|warning)::/m);

    // The next run finds the kept issue and updates it; the closed one stays as it is.
    const again = await run('workflow_dispatch', {}, { env });
    expectExit(again, 0);
    expect(writesOf(again.requests)).toEqual([`PATCH ${ISSUE} 200`]);
    expect(again.requests.find((q) => q.method === 'PATCH')?.params.issue_number).toBe(String(kept.number));
  });
});

describe('maintain (push to main)', () => {
  it('five capture PRs merged in any order with pushes between → every merge is clean, and main ends with fresh index files', async () => {
    const questions = [
      COLD,
      'How do we rotate the staging database password?',
      'Where is the quarterly budget spreadsheet kept?',
      'Who approves vacation requests for contractors?',
      'How do I renew the TLS certificate for the intranet?',
    ];
    questions.forEach((q, i) => ask(i + 1, q));
    for (let n = 1; n <= questions.length; n++) await answer(n);
    const prs = questions.map((_, i) => captureOf(i + 1));
    const pages = prs.map((pr) => markerOf(pr.body).page);

    for (const index of [2, 0, 4, 1, 3]) {
      const pr = at(prs, index);
      const check = await getPull(pr.number);
      expect(check, `PR #${pr.number} before its merge`).toMatchObject({ state: 'open', mergeable: true, mergeable_state: 'clean' });
      const { sha } = gh.state.mergePull(pr, { by: 'maya' });
      expect(gh.state.branchHead('main')).toBe(sha);

      // GitHub sends the pull_request closed event and the push to main.
      expectExit(await run('pull_request', gh.events.pullRequest('closed', pr.number)), 0);
      expect(gh.state.branchHead(pr.head)).toBeUndefined();
      const push = await run('push', pushToMain, { workspace: await checkout(gh.gitDir()) });
      expectExit(push, 0);

      // Main is fresh (nothing to commit); every PR still open was rebuilt on the new main.
      const open = prs.filter((p) => p.state === 'open');
      const rebuilt = /maintain: 0 stale index files; capture PRs rebuilt: (.*); left for a person: none/.exec(push.stdout)?.[1];
      expect(rebuilt, push.stdout).toBeDefined();
      expect(rebuilt === 'none' ? [] : rebuilt!.split(', ').sort()).toEqual(open.map((p) => `#${p.number}`).sort());
      expect(gh.state.branchHead('main')).toBe(sha);
      for (const other of open) {
        const head = gh.state.branchHead(other.head) as string;
        expect(gh.state.findCommit(head)?.parents).toEqual([sha]);
        expectStewardCommit(head);
        expect(markerOf(other.body).commit).toBe(head);
      }
    }

    expect(prs.every((pr) => pr.merged)).toBe(true);
    await expectCleanAt('main');
    const queriesIndex = gh.state.fileAt('main', 'wiki/queries/_index.md') ?? '';
    for (const page of pages) {
      expect(gh.state.fileAt('main', page)).toBeDefined();
      expect(queriesIndex).toContain(`(${page.replace('wiki/queries/', '')})`);
    }
  });

  it('a capture PR a person pushed to is left alone when main moves: one "needs a rebase" comment, never two', async () => {
    ask(1, COLD);
    ask(2, 'How do we rotate the staging database password?');
    await answer(1);
    await answer(2);
    const [a, b] = [captureOf(1), captureOf(2)];
    const page = markerOf(b.body).page;
    const human = gh.state.commitFiles({ branch: b.head, files: { [page]: `${gh.state.fileAt(b.head, page)}\nAsk the DBA on call.\n` }, author: 'bob' });
    gh.state.mergePull(a, { by: 'maya' });

    const push = await run('push', pushToMain, { workspace: await checkout(gh.gitDir()) });
    expectExit(push, 0);
    expect(push.stdout).toContain(`capture PRs rebuilt: none; left for a person: #${b.number}`);
    expect(gh.state.branchHead(b.head)).toBe(human);
    expect(writesOf(push.requests)).toEqual([`POST ${COMMENTS} 201`]);
    const note = at(gh.state.commentsOn(b.number), 0);
    expect(visible(note.body)).toContain('needs a rebase');
    expect(await getPull(b.number)).toMatchObject({ mergeable: false, mergeable_state: 'dirty' });

    const again = await run('push', pushToMain, { workspace: await checkout(gh.gitDir()) });
    expectExit(again, 0);
    expect(writesOf(again.requests)).toEqual([]);
    expect(gh.state.commentsOn(b.number)).toHaveLength(1);
  });

  it('stale index files on an unprotected main → one verified steward commit on main', async () => {
    const human = gh.state.commitFiles({
      branch: 'main',
      files: { 'wiki/concepts/zeppelin-mooring.md': pageAbout('Zeppelin mooring', 'Zeppelins moor at the east mast.') },
      author: 'bob',
      message: 'Add a page, forget the index',
    });
    const stale = await checkout(gh.gitDir());
    expect((await runCli(['index', '--check', '--wiki', 'wiki'], stale.dir)).code).toBe(1);

    const r = await run('push', pushToMain, { workspace: stale });
    // The checkout still shows the two index files stale, but maintain has just refreshed them on
    // main, so validation does not report them: the check passes.
    expectExit(r, 0);
    expect(r.stdout).not.toContain('stale-index');
    expect(r.summary).toMatch(/\d+ pages checked in `wiki`: 0 errors/);
    const head = gh.state.branchHead('main') as string;
    expect(head).not.toBe(human);
    expect(gh.state.findCommit(head)).toMatchObject({ parents: [human], message: 'wiki: refresh 2 index files' });
    expectStewardCommit(head);
    expect(r.stdout).toContain(`maintain: 2 stale index files committed (${head.slice(0, 7)})`);
    expect(writesOf(r.requests)).toEqual([`POST ${TREES} 201`, `POST ${COMMITS} 201`, `PATCH ${REF} 200`]);
    expect((await bareGit(gh.gitDir(), 'diff', '--name-only', human, head)).trim().split('\n').sort()).toEqual(['wiki/concepts/_index.md', 'wiki/index.md']);
    await expectCleanAt('main');
  });

  it('a protected main → a "refresh wiki indexes" pull request instead of a direct commit, refreshed (not duplicated) on the next push', async () => {
    gh.state.protectBranch('main');
    const human = gh.state.commitFiles({
      branch: 'main',
      files: { 'wiki/concepts/zeppelin-mooring.md': pageAbout('Zeppelin mooring', 'Zeppelins moor at the east mast.') },
      author: 'bob',
    });
    const r = await run('push', pushToMain, { workspace: await checkout(gh.gitDir()) });
    expectExit(r, 0); // the index files the PR refreshes are not reported stale (see the test above)
    expect(r.stdout).not.toContain('stale-index');
    expect(gh.state.branchHead('main')).toBe(human);
    expect(writesOf(r.requests)).toEqual([`POST ${TREES} 201`, `POST ${COMMITS} 201`, `PATCH ${REF} 422`, `POST ${REFS} 201`, `POST ${PULLS} 201`]);
    expect(gh.state.pulls).toHaveLength(1);
    const pr = at(gh.state.pulls, 0);
    expect(pr).toMatchObject({ head: REFRESH_BRANCH, base: 'main', state: 'open', title: 'wiki: refresh wiki indexes', user: 'github-actions[bot]' });
    expect(pr.body).toContain('- `wiki/concepts/_index.md`');
    expect(pr.body).toContain('- `wiki/index.md`');
    expect(r.outputs['pull-request-url']).toBe(`${SERVER}/${REPO}/pull/${pr.number}`);
    expect(r.stdout).toContain(`proposed in ${SERVER}/${REPO}/pull/${pr.number}`);
    const head = gh.state.branchHead(REFRESH_BRANCH) as string;
    expect(gh.state.findCommit(head)?.parents).toEqual([human]);
    expectStewardCommit(head);
    await expectCleanAt(REFRESH_BRANCH);

    // Another page pushed by an administrator: the same pull request is refreshed.
    const human2 = gh.state.commitFiles({
      branch: 'main',
      files: { 'wiki/concepts/zeppelin-fuel.md': pageAbout('Zeppelin fuel', 'Zeppelins run on hydrogen cells.') },
      author: 'bob',
    });
    const again = await run('push', pushToMain, { workspace: await checkout(gh.gitDir()) });
    expectExit(again, 0);
    expect(writesOf(again.requests)).toEqual([`POST ${TREES} 201`, `POST ${COMMITS} 201`, `PATCH ${REF} 422`, `PATCH ${REF} 200`, `PATCH ${PULL} 200`]);
    expect(gh.state.pulls).toHaveLength(1);
    expect(gh.state.findCommit(gh.state.branchHead(REFRESH_BRANCH) as string)?.parents).toEqual([human2]);
    expect(await getPull(pr.number)).toMatchObject({ mergeable: true });
    gh.state.mergePull(pr, { by: 'maya' });
    await expectCleanAt('main');
  });

  it('main moves while maintain commits (a merge lands between its ref read and its ref update) → no refresh PR: the next run does it', async () => {
    gh.state.commitFiles({
      branch: 'main',
      files: { 'wiki/concepts/zeppelin-mooring.md': pageAbout('Zeppelin mooring', 'Zeppelins moor at the east mast.') },
      author: 'bob',
    });
    const co = await checkout(gh.gitDir());
    // A person's merge lands just before the steward's PATCH of refs/heads/main reaches GitHub, which
    // then answers its real 422 "Update is not a fast forward" (the fault only moves main, then lets the request through).
    let moved: string | undefined;
    gh.faults.push({
      match: {
        method: 'PATCH',
        route: REF,
        body: () =>
          moved === undefined &&
          (moved = gh.state.commitFiles({ branch: 'main', files: { 'README.md': '# octo-org/wiki\n\nMerged meanwhile.\n' }, author: 'carol' })) !== undefined,
      },
      skip: 1,
      times: 1,
      status: 500,
    });
    const r = await run('push', pushToMain, { workspace: co });
    expect(moved).toBeDefined();
    expect(r.requests.find((q) => q.method === 'PATCH' && q.route === REF)).toMatchObject({
      status: 422,
      responseBody: { message: 'Update is not a fast forward' },
    });
    expect(gh.state.branchHead('main')).toBe(moved);
    expect(gh.state.pulls).toHaveLength(0);
    expect(gh.state.branchHead(REFRESH_BRANCH)).toBeUndefined();
  });

  it('main moved on since the checkout → no index commit (the next run does it), a notice says so', async () => {
    gh.state.commitFiles({
      branch: 'main',
      files: { 'wiki/concepts/zeppelin-mooring.md': pageAbout('Zeppelin mooring', 'Zeppelins moor at the east mast.') },
      author: 'bob',
    });
    const old = await checkout(gh.gitDir());
    const newer = gh.state.commitFiles({ branch: 'main', files: { 'README.md': '# octo-org/wiki\n\nNow with zeppelins.\n' }, author: 'carol' });
    const r = await run('push', pushToMain, { workspace: old });
    expect(writesOf(r.requests)).toEqual([]);
    expect(gh.state.branchHead('main')).toBe(newer);
    expect(r.stdout).toMatch(/::notice::main moved on since this checkout \([0-9a-f]{7} → [0-9a-f]{7}\); the next run refreshes the index files/);
  });
});

describe('validate a capture PR (pull_request synchronize)', () => {
  it('a person breaks the capture page → an annotation on its line and a failed check (the base sha comes from the event)', async () => {
    ask(1, COLD);
    await answer(1);
    const pr = captureOf(1);
    const page = markerOf(pr.body).page;
    const broken = (gh.state.fileAt(pr.head, page) ?? '').replace(/^created: .*$/m, 'created: 2026-05-01');
    gh.state.commitFiles({ branch: pr.head, files: { [page]: broken }, author: 'alice' });
    const line = broken.split('\n').findIndex((l) => l.startsWith('created:')) + 1;
    const r = await run('pull_request', gh.events.pullRequest('synchronize', pr.number), {
      workspace: await checkout(gh.gitDir(), gh.state.branchHead(pr.head) as string),
    });
    expectExit(r, 1);
    expect(r.stdout).toContain(`::error title=wiki-steward timestamps,file=${page},line=${line}::`);
    expect(r.summary).toMatch(/1 changed page checked in `wiki`: 1 error\b/);
    expect(r.requests).toHaveLength(0); // validation reads the checkout only
  });
});

describe('the digest reads GitHub in pages, not per issue or per comment', () => {
  // Large enough that a request per issue (84) or per reacted comment (63) would pass 50, with
  // three pages of comments; the time at full scale (1,000 comments, a 10,000-page wiki) belongs to
  // a benchmark, not to this suite: WIKI_STEWARD_DIGEST_COMMENTS / _PAGES run this test at any size.
  it('250 steward comments on 84 issues: at most 50 API requests, comments read 100 at a time, one write', async () => {
    const pages = Number(process.env.WIKI_STEWARD_DIGEST_PAGES ?? 200);
    const comments = Number(process.env.WIKI_STEWARD_DIGEST_COMMENTS ?? 250);
    const big = await makeWorkspace({}, { wiki: false });
    await mkdir(path.join(big.dir, 'wiki'));
    const generated = await generateWiki(path.join(big.dir, 'wiki'), { pages });
    await runCli(['index', '--wiki', 'wiki'], big.dir);
    await bareGit(path.join(big.dir, '.git'), '--work-tree', big.dir, 'add', '-A');
    await bareGit(
      path.join(big.dir, '.git'),
      '--work-tree',
      big.dir,
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@example.com',
      'commit',
      '-q',
      '--no-verify',
      '-m',
      'generated wiki',
    );

    // Answers as the steward posts them: real traces (a covered and a cold one from the example
    // wiki) reshaped for generated questions, rendered by the comment renderer, one comment each.
    ask(1, COVERED);
    ask(2, COLD);
    await answer(1);
    await answer(2);
    const answered = traceOf(answerOn(1).body) as Trace;
    const cold = traceOf(answerOn(2).body) as Trace;
    const questions = generateQuestions(generated, comments);
    const outcomes = ['answered', 'answered', 'answered', 'gap', 'cold'] as const;
    const issues = Math.ceil(comments / 3);
    for (let n = 0; n < issues; n++) gh.state.addIssue({ number: 100 + n, title: `Question ${n}`, user: 'alice', labels: ['question'] });
    for (let i = 0; i < comments; i++) {
      const question = questions[i]!;
      const outcome = outcomes[i % outcomes.length]!;
      const base = outcome === 'answered' ? answered : cold;
      const cited = [generated.pages[(i * 7) % generated.pages.length]!, generated.pages[(i * 13) % generated.pages.length]!];
      const trace: Trace = {
        ...base,
        question,
        outcome,
        branch: outcome === 'cold' ? 'cold' : 'inline',
        signal_terms: extractSignalTerms(question).terms.map((t) => ({ term: t.term, kind: t.kind })),
        candidates: cited.map((p) => ({ path: p, title: p, matched: [] })),
        citations: outcome === 'cold' ? [] : cited.map((p) => ({ path: p, lines: [8, 9] as [number, number], quote: 'generated' })),
      };
      const key = `comment-${900_000 + i}`;
      const comment = gh.state.addComment({
        issue_number: 100 + (i % issues),
        user: 'github-actions[bot]',
        body: postable(renderComment({ key, trace, answer: base.answer })),
      });
      if (i % 4 === 0) gh.state.addReaction({ comment_id: comment.id, content: i % 8 === 0 ? '+1' : '-1', user: 'alice' });
    }
    const r = await run('schedule', schedule, { workspace: big, env: midWeek() });
    expectExit(r, 0);
    const body = at(digestIssues(), 0).body ?? '';
    expect(body).toContain(`${comments + 2} questions asked`);
    expect(body).toContain(`## Wiki health\n\n${pages} pages in`);
    const asked = r.requests.map((q) => `${q.method} ${q.route?.replace('/repos/{owner}/{repo}', '')}`);
    expect(r.requests.length, asked.join(', ')).toBeLessThanOrEqual(50);
    const reads = r.requests.filter((q) => q.method === 'GET');
    expect(reads.length).toBeGreaterThanOrEqual(3); // the comments alone take three pages
    expect(
      reads.every((q) => q.query.per_page === '100'),
      asked.join(', '),
    ).toBe(true);
    expect(writesOf(r.requests)).toEqual([`POST ${ISSUES} 201`]);
    // The same digest from the wiki alone (`wiki-steward digest --wiki`, no API) runs too.
    const local = await runCli(['digest', '--wiki', 'wiki'], big.dir);
    expect(local.code, local.stderr).toBe(0);
  });
});
