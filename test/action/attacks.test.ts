// Attacks on the steward, end to end: the Action run in this process through the entry function
// the bundle calls (`runAction`, harness `runStep`; and, for `digest --repo`, the CLI) against the
// GitHub emulator. Forged markers and traces in asked text, other bots' comments that carry the
// marker, live mentions in every text the steward posts, two runs racing on the same question (both
// in this process at once, so nothing a run holds may be shared module-wide), and a `/wiki ask`
// comment deleted before its run. The steward's identity is the account its token belongs to
// (GraphQL `viewer`, which the emulator answers against GitHub's published schema) plus the
// configured `steward-logins`. What only a real process shows (exit code and `::error::` of a
// failed step, no checkout) is in bundle-contract.test.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GitHubEmulator, GitHubEmulatorOptions, RecordedRequest } from '../github-emulator/emulator.js';
import {
  type RunResult,
  type Workspace,
  bareGit,
  checkout,
  closeChecked,
  isWrite,
  makeWorkspace,
  removeTempDirs,
  runStep,
  runCli,
  seededRepo,
  traceOf,
  visible,
  type QuestionIssue,
  type RepoRole,
  asker as askerOn,
  questionIssue,
  twinRuns,
} from './harness.js';
import { COMMENT, COMMENTS, COMMENT_REACTION, COMMENT_REACTIONS, PULLS, REF, REFS, REPO, SERVER } from './routes.js';

const COVERED = 'How do I install the pre-commit hook?';
const COLD = 'How do I bake sourdough bread?';
const STEWARD = 'github-actions[bot]';

let template: Workspace;
let gh: GitHubEmulator;
let ws: Workspace;

beforeAll(async () => {
  template = await makeWorkspace();
});
afterEach(async () => {
  if (gh) await closeChecked(gh);
});
afterAll(removeTempDirs);

// -----------------------------------------------------------------------------------------------
// Helpers

async function seed(options: Omit<GitHubEmulatorOptions, 'repos' | 'serverUrl'> = {}, from: Workspace = template): Promise<void> {
  ({ gh, ws } = await seededRepo(from, options));
}

interface Run extends RunResult {
  requests: RecordedRequest[];
}

async function run(
  eventName: string,
  payload: unknown,
  opts: { inputs?: Record<string, string>; env?: Record<string, string>; token?: string } = {},
): Promise<Run> {
  const from = gh.requests.length;
  const result = await runStep({
    githubEnv: gh.env(),
    workspace: ws,
    eventName,
    payload,
    inputs: opts.inputs,
    env: opts.env,
    ...(opts.token ? { token: opts.token } : {}),
  });
  return { ...result, requests: gh.requests.slice(from) };
}

const writesOf = (requests: readonly RecordedRequest[]) => requests.filter(isWrite).map((r) => `${r.method} ${r.route} ${r.status}`);

function expectExit(r: RunResult, code: number): void {
  expect(r.code, `exit ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`).toBe(code);
}

/** The harness's helpers on this file's emulator (`gh` changes with every test). */
const asker = (login: string, role?: RepoRole) => askerOn(gh, login, role);
const issue = (number: number, title: string, opts?: QuestionIssue) => questionIssue(gh, number, title, opts);

/** Comments on issue n written by `login` (the steward by default). */
const commentsBy = (n: number, login = STEWARD) => gh.state.commentsOn(n).filter((c) => c.user === login);

/** The one comment by the steward on issue n that answers `key` (its trailing marker). */
function answerFor(n: number, key: string) {
  const found = commentsBy(n).filter((c) =>
    new RegExp(`<!-- wiki-steward:answer key=${key} -->\\n<!-- wiki-steward:trace [^\\n]* -->$|<!-- wiki-steward:answer key=${key} -->$`).test(c.body),
  );
  expect(found, `steward answers for ${key} on #${n}`).toHaveLength(1);
  return found[0]!;
}

/** A live mention of one of these names: `@name` not broken by a word joiner, outside code. */
const liveMention = (...names: string[]) =>
  new RegExp(`(^|[^\\w\`\\u2060])@(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})\\b`, 'm');

/** Every `<!-- wiki-steward:… -->` opener in a text. */
const markersIn = (text: string) => text.match(/<!--\s*wiki-steward:[a-z-]+/g) ?? [];

// -----------------------------------------------------------------------------------------------

describe('forged answer markers', () => {
  it('a marker quoted in a `/wiki ask` comment cannot make the issue answer overwrite the follow-up answer; re-runs update their own comments', async () => {
    await seed();
    asker('alice');
    asker('maint', 'maintain');
    issue(2, COVERED, { labels: [] });
    // Hidden (GitHub does not show it, so it is not asked) and in a code span (shown, so asked and quoted).
    const forged = '<!-- wiki-steward:answer key=issue-2 -->';
    const ask = gh.state.addComment({ issue_number: 2, user: 'alice', body: `/wiki ask ${forged} ${COLD} \`${forged}\`` });
    const first = await run('issue_comment', gh.events.issueComment('created', ask.id));
    expectExit(first, 0);
    const sourdough = answerFor(2, `comment-${ask.id}`);
    const pr = gh.state.pulls.find((p) => p.head === `wiki-steward/capture/2-c${ask.id}`);
    expect(pr, 'the follow-up opens a capture pull request').toBeDefined();
    expect(visible(sourdough.body)).toContain(`${SERVER}/${REPO}/pull/${pr!.number}`);
    expect(traceOf(sourdough.body.slice(sourdough.body.lastIndexOf('<!-- wiki-steward:trace')))?.question).toBe(`${COLD} \`${forged}\``);
    // The quoted marker is neutralised wherever it was posted: only the steward's own markers remain.
    expect(markersIn(sourdough.body)).toEqual(['<!-- wiki-steward:answer', '<!-- wiki-steward:trace']);
    expect(markersIn(pr!.body ?? '')).toEqual(['<!-- wiki-steward:capture']);
    expect(markersIn(pr!.title)).toEqual([]);
    expect(markersIn(first.summary)).toEqual([]);
    const sourdoughBody = sourdough.body;

    // A maintainer labels the issue: its own answer is a new comment; the follow-up's is untouched.
    gh.state.issue(2).labels.push(gh.state.ensureLabel('question').name);
    const labelled = await run('issues', gh.events.issues('labeled', 2, { sender: 'maint', label: 'question' }));
    expectExit(labelled, 0);
    expect(gh.state.findComment(sourdough.id)?.body).toBe(sourdoughBody);
    expect(writesOf(labelled.requests).filter((w) => w.includes('comments'))).toEqual([`POST ${COMMENTS} 201`]);
    const issueAnswer = answerFor(2, 'issue-2');
    expect(traceOf(issueAnswer.body)?.question).toBe(COVERED);

    // Re-running the follow-up updates its own answer: no duplicate.
    const again = await run('issue_comment', gh.events.issueComment('created', ask.id));
    expectExit(again, 0);
    expect(writesOf(again.requests).filter((w) => w.includes('comments'))).toEqual([
      `POST ${COMMENT_REACTIONS} 201`,
      `PATCH ${COMMENT} 200`,
      `DELETE ${COMMENT_REACTION} 204`,
    ]);
    expect(again.requests.find((q) => q.method === 'PATCH' && q.route === COMMENT)?.params.comment_id).toBe(String(sourdough.id));
    expect(commentsBy(2)).toHaveLength(2);
  });

  it("another bot's comment carrying the issue's marker is never edited: the steward writes and then updates its own", async () => {
    await seed();
    asker('alice');
    issue(3, COVERED);
    const welcome = gh.state.addComment({
      issue_number: 3,
      user: 'welcome-bot[bot]',
      body: 'Welcome! A maintainer will look at this soon.\n<!-- wiki-steward:answer key=issue-3 -->',
    });
    expect(gh.state.findUser('welcome-bot[bot]')?.type).toBe('Bot');
    const r = await run('issues', gh.events.issues('opened', 3));
    expectExit(r, 0);
    expect(gh.state.findComment(welcome.id)?.body).toBe('Welcome! A maintainer will look at this soon.\n<!-- wiki-steward:answer key=issue-3 -->');
    expect(writesOf(r.requests).filter((w) => w.includes('comments'))).toEqual([`POST ${COMMENTS} 201`]);
    const mine = answerFor(3, 'issue-3');
    // The run asked GitHub who its token is: one GraphQL query, answered as the workflow's bot.
    const who = r.requests.filter((q) => q.route === '/graphql');
    expect(who.map((q) => [q.actor, q.status, q.responseBody])).toEqual([[STEWARD, 200, { data: { viewer: { login: STEWARD } } }]]);

    const again = await run('issues', gh.events.issues('opened', 3));
    expectExit(again, 0);
    expect(writesOf(again.requests).filter((w) => w.includes('comments'))).toEqual([`PATCH ${COMMENT} 200`]);
    expect(again.requests.find((q) => q.method === 'PATCH')?.params.comment_id).toBe(String(mine.id));
    expect(gh.state.findComment(welcome.id)?.body).toContain('Welcome!');
  });
});

describe('identity: the token account plus steward-logins', () => {
  it('moving from GITHUB_TOKEN to an App token keeps the history when the old login is in steward-logins', async () => {
    await seed({ tokens: { ghs_workflow: { login: STEWARD }, ghs_app: { login: 'wiki-steward-app[bot]', type: 'Bot' } } });
    gh.state.setPermission('wiki-steward-app[bot]', 'write');
    asker('alice');
    issue(4, COVERED);
    expectExit(await run('issues', gh.events.issues('opened', 4), { token: 'ghs_workflow' }), 0);
    const old = answerFor(4, 'issue-4');
    const moved = await run('issues', gh.events.issues('opened', 4), {
      token: 'ghs_app',
      inputs: { 'steward-logins': 'github-actions[bot], @someone-else[bot]' },
    });
    expectExit(moved, 0);
    expect(writesOf(moved.requests).filter((w) => w.includes('comments'))).toEqual([`PATCH ${COMMENT} 200`]);
    expect(moved.requests.find((q) => q.method === 'PATCH')?.params.comment_id).toBe(String(old.id));
    expect(moved.requests.find((q) => q.route === '/graphql')?.actor).toBe('wiki-steward-app[bot]');
    expect(gh.state.commentsOn(4)).toHaveLength(1);
  });

  it('never answers itself, even as a person: a personal token and a question asked by that same person', async () => {
    await seed({ tokens: { ghp_docs: { login: 'docs-steward' } } });
    asker('docs-steward', 'write');
    issue(5, COVERED, { user: 'docs-steward' });
    const r = await run('issues', gh.events.issues('opened', 5, { sender: 'docs-steward' }), { token: 'ghp_docs' });
    expectExit(r, 0);
    expect(writesOf(r.requests)).toEqual([]);
    expect(gh.state.commentsOn(5)).toHaveLength(0);
    expect(r.stdout).toContain('never answers itself');
  });

  it("`digest --repo` run by a person with their own token finds the steward's comments through ask.steward_logins", async () => {
    const configured = await makeWorkspace({ '.wiki-steward.yml': 'ask:\n  steward_logins:\n    - "github-actions[bot]"\n' });
    await seed({ tokens: { ghs_workflow: { login: STEWARD }, ghp_maya: { login: 'maya' } } }, configured);
    asker('alice');
    issue(6, COVERED);
    expectExit(await run('issues', gh.events.issues('opened', 6), { token: 'ghs_workflow' }), 0);
    const env = { GITHUB_TOKEN: 'ghp_maya', GITHUB_API_URL: gh.url, GITHUB_ACTIONS: '' };
    const withConfig = await runCli(['digest', '--repo', REPO, '--format', 'json'], ws.dir, env);
    expect(withConfig.code, withConfig.stderr).toBe(0);
    expect(JSON.parse(withConfig.stdout)).toMatchObject({ asked: 1, outcomes: { answered: 1 } });
    // Without the setting, maya's token is maya: none of the steward's comments are hers.
    const plain = await runCli(['digest', '--repo', REPO, '--format', 'json', '--wiki', 'wiki'], template.dir, env);
    expect(plain.code, plain.stderr).toBe(0);
    expect(JSON.parse(plain.stdout)).toMatchObject({ asked: 0 });
    // Who GitHub was asked the token's account by (the digest's other GraphQL read is the discussions').
    const viewerQueries = gh.requests.filter((q) => q.route === '/graphql' && JSON.stringify(q.body).includes('viewer'));
    expect(viewerQueries.map((q) => q.actor)).toEqual([STEWARD, 'maya', 'maya']);
  });
});

describe('forged traces', () => {
  it("a trace in an issue body, and one in another bot's comment, are not counted or printed by the digest", async () => {
    await seed();
    asker('alice');
    const forgedTrace = (question: string) =>
      `<!-- wiki-steward:trace ${JSON.stringify({ question, outcome: 'cold', signal_terms: [{ term: 'watches', kind: 'word' }], citations: [], candidates: [], answer: '' })} -->`;
    // One hidden (not asked at all), one in a code span (asked and quoted, so it reaches the steward's comment).
    issue(7, COVERED, { body: `Thanks in advance!\n${forgedTrace('FORGED-HIDDEN cheap watches')}\n\n\`${forgedTrace('FORGED-QUOTED cheap watches')}\`` });
    expectExit(await run('issues', gh.events.issues('opened', 7)), 0);
    const answer = answerFor(7, 'issue-7');
    // The real trace (the question as GitHub shows it), whatever its outcome: not the forged cold one.
    const real = traceOf(answer.body.slice(answer.body.lastIndexOf('<!-- wiki-steward:trace')))?.outcome as string;
    expect(['answered', 'gap']).toContain(real);
    expect(answer.body).not.toContain('FORGED-HIDDEN');
    expect(answer.body).toContain('FORGED-QUOTED');
    // The steward's own trailer only: the edit it answers, the question's marker, the trace.
    expect(markersIn(answer.body)).toEqual(['<!-- wiki-steward:edit', '<!-- wiki-steward:answer', '<!-- wiki-steward:trace']);
    gh.state.addComment({
      issue_number: 7,
      user: 'welcome-bot[bot]',
      body: `Hi!\n<!-- wiki-steward:answer key=issue-8 -->\n${forgedTrace('FORGED-BY-BOT cheap watches')}`,
    });

    const digest = await run('workflow_dispatch', {});
    expectExit(digest, 0);
    const posted = gh.state.issues.find((i) => i.labels.includes('wiki:digest'));
    expect(posted?.body).toContain(`1 questions asked: ${real === 'answered' ? 1 : 0} answered, ${real === 'gap' ? 1 : 0} gap, 0 cold, 0 error.`);
    for (const text of [posted?.body ?? '', digest.summary]) {
      expect(text).not.toMatch(/FORGED-HIDDEN|FORGED-BY-BOT|“FORGED-QUOTED/);
    }
  });
});

describe('live mentions', () => {
  it('no text the steward posts pings anyone: comment, capture PR title and body, digest issue, job summaries', async () => {
    await seed();
    asker('alice');
    const people = ['octo-org/bakers', 'maya'];
    issue(8, `${COLD.replace('?', '')} with @octo-org/bakers and @maya?`, { body: 'cc @maya' });
    const answered = await run('issues', gh.events.issues('opened', 8));
    expectExit(answered, 0);
    const comment = answerFor(8, 'issue-8');
    const pr = gh.state.pulls.find((p) => p.head === 'wiki-steward/capture/8');
    expect(pr).toBeDefined();
    for (const [what, text] of [
      ['comment', comment.body],
      ['PR title', pr!.title],
      ['PR body', pr!.body ?? ''],
      ['answer summary', answered.summary],
    ] as const) {
      expect(text, what).not.toMatch(liveMention(...people));
    }
    expect(pr!.title).toContain('@\u2060octo-org/bakers');

    const digest = await run('workflow_dispatch', {});
    expectExit(digest, 0);
    const posted = gh.state.issues.find((i) => i.labels.includes('wiki:digest'));
    expect(posted?.body).toContain('sourdough');
    expect(posted?.body, 'digest issue').not.toMatch(liveMention(...people));
    expect(digest.summary, 'digest summary').not.toMatch(liveMention(...people));
    expect(posted?.body).toContain('@\u2060maya');
  });
});

describe('two runs at once on the same cold issue', () => {
  it.each([
    { where: "the twin creates the capture branch between this run's check and its create", route: REFS },
    { where: "the twin opens the pull request between this run's branch write and its create", route: PULLS },
  ])('$where → one comment, one PR, both runs exit 0', async ({ route }) => {
    await seed();
    asker('alice');
    issue(9, COLD);
    const payload = gh.events.issues('opened', 9);
    let twin: Run | undefined;
    gh.faults.race({ match: { method: 'POST', route }, run: async () => (twin = await run('issues', payload)) });
    const late = await run('issues', payload);
    expect(twin, 'the twin ran').toBeDefined();
    expectExit(twin!, 0);
    expectExit(late, 0);
    expect(gh.state.commentsOn(9)).toHaveLength(1);
    const prs = gh.state.pulls.filter((p) => p.head === 'wiki-steward/capture/9');
    expect(prs.map((p) => p.state)).toEqual(['open']);
    expect(gh.state.branchHead('wiki-steward/capture/9')).toBe(prs[0]!.head_sha);
    expect(visible(commentsBy(9)[0]!.body)).toContain(`${SERVER}/${REPO}/pull/${prs[0]!.number}`);
    expect(late.stdout).toMatch(/another run of this question got there first/);
    expect(late.stdout).not.toMatch(/^::error::/m);
  });
});

describe('closing a PR named like a capture branch (issue 25, item 9)', () => {
  /** Issue 2's cold question answered: the steward's capture PR on wiki-steward/capture/2, and its branch head. */
  async function stewardCapture() {
    await seed();
    issue(2, COLD, { user: asker('alice') });
    expectExit(await run('issues', gh.events.issues('opened', 2)), 0);
    const pr = gh.state.pulls.find((p) => p.head === 'wiki-steward/capture/2')!;
    expect(pr.user).toBe(STEWARD);
    return { pr, sha: gh.state.branchHead(pr.head)! };
  }

  it("a fork PR named wiki-steward/capture/2 (pull_request_target) with a copy of the marker deletes nothing and gets no reply; the steward's own PR closing still deletes its branch", async () => {
    const { pr, sha } = await stewardCapture();
    // Mallory's fork has a branch of the same name; the emulator has no forks, so her PR's
    // closed event is the steward PR's payload as GitHub would send it for hers.
    const own = gh.events.pullRequest('closed', pr.number) as { pull_request: Record<string, any> };
    const mallory = { login: 'mallory', type: 'User' };
    const forkRepo = {
      ...own.pull_request.head.repo,
      full_name: 'mallory/wiki',
      name: 'wiki',
      fork: true,
      owner: { ...own.pull_request.head.repo.owner, login: 'mallory' },
    };
    const fork = {
      ...own,
      number: 99,
      pull_request: {
        ...own.pull_request,
        number: 99,
        state: 'closed',
        user: { ...own.pull_request.user, ...mallory },
        head: { ...own.pull_request.head, label: 'mallory:wiki-steward/capture/2', user: { ...own.pull_request.head.user, ...mallory }, repo: forkRepo },
      },
      sender: { ...own.pull_request.user, ...mallory },
    };
    const r = await run('pull_request_target', fork);
    expectExit(r, 0);
    expect(writesOf(r.requests)).toEqual([]);
    expect(r.stdout).toContain('comes from mallory/wiki, not from octo-org/wiki');
    expect(gh.state.branchHead(pr.head)).toBe(sha);
    expect(commentsBy(2)).toHaveLength(1);

    // The steward's own capture PR closes: its branch is deleted and the asker is told.
    gh.state.closeIssue(pr.issue, 'maya');
    const closed = await run('pull_request', gh.events.pullRequest('closed', pr.number, { sender: 'maya' }));
    expectExit(closed, 0);
    expect(writesOf(closed.requests)).toEqual([`DELETE ${REF} 204`, `POST ${COMMENTS} 201`]);
    expect(gh.state.branchHead(pr.head)).toBeUndefined();
    expect(visible(commentsBy(2)[1]!.body)).toContain(`The capture pull request #${pr.number} was closed without merging`);
  });

  it("a second PR from the steward's branch, by another user, deletes nothing when it closes; the steward's PR keeps the branch while that PR is open", async () => {
    const { pr, sha } = await stewardCapture();
    // Bob (write access) opens his own PR from the steward's branch into another base, with the marker copied.
    gh.state.git().updateRef('refs/heads/release', gh.state.branchHead('main')!, '');
    asker('bob', 'write');
    const bobs = gh.state.addPull({ head: pr.head, base: 'release', title: 'capture for release', user: 'bob', body: pr.body });
    gh.state.closeIssue(bobs.issue, 'bob');
    const r = await run('pull_request', gh.events.pullRequest('closed', bobs.number, { sender: 'bob' }));
    expectExit(r, 0);
    expect(writesOf(r.requests)).toEqual([]);
    expect(r.stdout).toContain(`was opened by bob, not by the steward`);
    expect(gh.state.branchHead(pr.head)).toBe(sha);
    expect(pr.state).toBe('open');
    expect(commentsBy(2)).toHaveLength(1);

    // Bob opens another; the steward's PR closes while his is open: the reply, and the branch is kept.
    const again = gh.state.addPull({ head: pr.head, base: 'release', title: 'capture for release, again', user: 'bob', body: 'for release' });
    gh.state.closeIssue(pr.issue, 'maya');
    const closed = await run('pull_request', gh.events.pullRequest('closed', pr.number, { sender: 'maya' }));
    expectExit(closed, 0);
    expect(writesOf(closed.requests)).toEqual([`POST ${COMMENTS} 201`]);
    expect(closed.stdout).toContain(`open PR #${again.number} still uses it`);
    expect(gh.state.branchHead(pr.head)).toBe(sha);
    expect(gh.state.refreshPull(again).state).toBe('open');
  });

  it('a PR from this repository by another user, named like a capture branch and carrying a forged marker for it, deletes nothing', async () => {
    await seed();
    gh.state.commitFiles({ branch: 'wiki-steward/capture/3', files: { 'README.md': 'x\n' }, author: 'mallory' });
    const sha = gh.state.branchHead('wiki-steward/capture/3')!;
    asker('mallory', 'write');
    const forged = gh.state.addPull({
      head: 'wiki-steward/capture/3',
      title: 'x',
      user: 'mallory',
      body: `<!-- wiki-steward:capture key=issue-3 issue=3 page=wiki%2Fqueries%2Fx.md commit=${sha} -->`,
    });
    gh.state.closeIssue(forged.issue, 'mallory');
    const r = await run('pull_request', gh.events.pullRequest('closed', forged.number, { sender: 'mallory' }));
    expectExit(r, 0);
    expect(writesOf(r.requests)).toEqual([]);
    expect(gh.state.branchHead('wiki-steward/capture/3')).toBe(sha);
  });
});

describe('two runs at once on one answered question (both find no comment, both create one)', () => {
  const FIRST = COVERED;
  const EDITED = 'How do I validate the wiki in CI?';
  const questionOf = (c: { body: string }) => traceOf(c.body.slice(c.body.lastIndexOf('<!-- wiki-steward:trace')))?.question as string | undefined;
  const lists = { method: 'GET', route: COMMENTS };
  const creates = { method: 'POST', route: COMMENTS };

  it.each([
    {
      name: 'opened and labeled at once (one edit), the held run creates second: it deletes its own comment',
      mode: 'one after the other' as const,
      held: 'opened',
      other: 'labeled',
      kept: FIRST,
      updates: 0,
      says: /kept comment \d+ \(the oldest\) with its answer \(to the same or a later edit of the question\), and deleted \d+\./,
    },
    {
      name: 'the held run answers the newer edit: it deletes its own comment and puts its answer in the kept one',
      mode: 'one after the other' as const,
      held: 'edited',
      other: 'opened',
      kept: EDITED,
      updates: 1,
      says: /kept comment \d+ \(the oldest\), put this run's answer \(to a later edit of the question\) in it, and deleted \d+\./,
    },
    {
      name: 'the held run answers the older edit: it deletes its own comment and leaves the kept one as it is',
      mode: 'one after the other' as const,
      held: 'opened',
      other: 'edited',
      kept: EDITED,
      updates: 0,
      says: /kept comment \d+ \(the oldest\) with its answer \(to the same or a later edit of the question\), and deleted \d+\./,
    },
    {
      name: 'both list, then both create, then both list again and see both: both delete the younger (once gone, gone)',
      mode: 'together' as const,
      held: 'opened',
      other: 'labeled',
      kept: FIRST,
      updates: 0,
      says: /kept (?:this run's )?comment \d+ \(the oldest\)/,
    },
  ])('$name → one answer comment, both runs exit 0', async ({ mode, held, other, kept, updates, says }) => {
    await seed();
    asker('alice');
    const record = issue(11, FIRST, { labels: ['question'] });
    const opened = gh.events.issues('opened', 11);
    const labeled = gh.events.issues('labeled', 11, { label: 'question', sender: 'alice' });
    // A minute later the asker edits the question (GitHub stamps the edit in the issue's updated_at).
    record.title = EDITED;
    record.updated_at = new Date(Date.parse(record.updated_at) + 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const edited = gh.events.issues('edited', 11);
    const payloads: Record<string, unknown> = { opened, labeled, edited };

    const [first, second] = await twinRuns(
      gh,
      { read: lists, create: creates, mode },
      () => run('issues', payloads[held]),
      () => run('issues', payloads[other]),
    );
    expectExit(first, 0);
    expectExit(second, 0);
    const created = gh.requests.filter((r) => r.method === 'POST' && r.route === COMMENTS && r.status === 201);
    expect(created, 'both runs created a comment').toHaveLength(2);
    const answer = answerFor(11, 'issue-11');
    expect(commentsBy(11)).toHaveLength(1);
    // The oldest comment is the one kept.
    expect(answer.id).toBe(Math.min(...created.map((r) => (r.responseBody as { id: number }).id)));
    expect(questionOf(answer)).toBe(kept);
    const deletes = gh.requests.filter((r) => r.method === 'DELETE' && r.route === COMMENT);
    expect(deletes.filter((r) => r.status === 204)).toHaveLength(1);
    expect(deletes.every((r) => r.params.comment_id !== String(answer.id))).toBe(true);
    expect(gh.requests.filter((r) => r.method === 'PATCH' && r.route === COMMENT)).toHaveLength(updates);
    // Both runs name the comment that stands.
    const url = `${SERVER}/${REPO}/issues/11#issuecomment-${answer.id}`;
    expect([first.outputs['comment-url'], second.outputs['comment-url']]).toEqual([url, url]);
    expect(first.stdout).toMatch(new RegExp(`Another run of this question answered at the same time: ${says.source}`));
    for (const r of [first, second]) expect(r.stdout).not.toMatch(/^::(?:error|warning)::/m);
    // The twins shared one 👀 (one account): it is gone, and neither run warned about taking it away.
    expect(gh.state.reactionsOnIssue(11)).toEqual([]);
  });
});

describe('a run that cannot look for a twin after creating its comment', () => {
  it('keeps its answer, warns that a twin comment may remain, and exits 0', async () => {
    await seed();
    asker('alice');
    issue(12, COVERED);
    // The first list (is there a comment?) answers; the second (after creating) fails for good.
    gh.faults.push({ match: { method: 'GET', route: COMMENTS }, skip: 1, times: Infinity, status: 502 });
    const r = await run('issues', gh.events.issues('opened', 12));
    expectExit(r, 0);
    const answer = answerFor(12, 'issue-12');
    expect(r.outputs['comment-url']).toBe(`${SERVER}/${REPO}/issues/12#issuecomment-${answer.id}`);
    expect(r.stdout).toMatch(
      /^::warning::The answer is posted, but a twin run's answer comment may remain beside it: could not list the comments of #12 again: Bad Gateway/m,
    );
    expect(r.requests.filter((q) => q.method === 'DELETE' && q.route === COMMENT)).toEqual([]);
  });
});

describe('a `/wiki ask` comment deleted before its run', () => {
  it('is not answered: one log line, no writes', async () => {
    await seed();
    asker('alice');
    issue(10, 'Context', { labels: [] });
    const ask = gh.state.addComment({ issue_number: 10, user: 'alice', body: '/wiki ask How do I validate the wiki in CI?' });
    const payload = gh.events.issueComment('created', ask.id);
    gh.state.comments.splice(gh.state.comments.indexOf(ask), 1);
    const r = await run('issue_comment', payload);
    expectExit(r, 0);
    expect(writesOf(r.requests)).toEqual([]);
    expect(gh.state.commentsOn(10)).toHaveLength(0);
    expect(r.stdout).toContain(`the /wiki ask comment ${ask.id} was deleted`);
  });
});

describe('attack review, round two', () => {
  const pushToMain = { ref: 'refs/heads/main', repository: { default_branch: 'main' }, sender: { login: 'maya', type: 'User' } };
  const runOn = (workspace: Workspace, eventName: string, payload: unknown) => runStep({ githubEnv: gh.env(), workspace, eventName, payload });

  it('maintain rebuilds only its own capture PRs: a PR named like a capture branch with a forged marker changes nothing, and a malformed marker fails nothing', async () => {
    await seed();
    issue(1, COLD, { user: asker('alice') });
    expectExit(await run('issues', gh.events.issues('opened', 1)), 0);
    const capture = gh.state.pulls.find((p) => p.head === 'wiki-steward/capture/1')!;
    const sha = gh.state.branchHead(capture.head) as string;
    const page = 'wiki/concepts/digest.md';
    gh.state.commitFiles({ branch: 'main', files: { [page]: `${gh.state.fileAt('main', page)}\nNEW ON MAIN.\n` }, author: 'maya' });
    // Mallory's PR: the capture branch's name, a marker naming a real page and the branch's (public) commit.
    gh.state.addPull({
      head: capture.head,
      title: 'typo',
      user: 'mallory',
      body: `<!-- wiki-steward:capture key=issue-1 issue=1 page=${encodeURIComponent(page)} commit=${sha} -->`,
    });
    gh.state.commitFiles({ branch: 'wiki-steward/capture/x', files: { 'README.md': 'x\n' }, author: 'mallory' });
    gh.state.addPull({
      head: 'wiki-steward/capture/x',
      title: 'x',
      user: 'mallory',
      body: `<!-- wiki-steward:capture key=issue-1 issue=1 page=%E0%A4%A commit=${'0'.repeat(40)} -->`,
    });
    const push = await runOn(await checkout(gh.gitDir()), 'push', pushToMain);
    expectExit(push, 0);
    const diff = await bareGit(gh.gitDir(), 'diff', 'main', capture.head);
    expect(diff).not.toContain('-NEW ON MAIN.');
    expect(diff).toContain('wiki/queries/');
  });

  it('a needs-rebase marker in someone else’s comment does not silence the steward’s notice', async () => {
    await seed();
    issue(6, COLD, { user: asker('alice') });
    issue(7, 'How do we rotate the staging database password?', { user: 'alice' });
    expectExit(await run('issues', gh.events.issues('opened', 6)), 0);
    expectExit(await run('issues', gh.events.issues('opened', 7)), 0);
    const a = gh.state.pulls.find((p) => p.head === 'wiki-steward/capture/6')!;
    const b = gh.state.pulls.find((p) => p.head === 'wiki-steward/capture/7')!;
    const page = decodeURIComponent(/page=(\S+)/.exec(b.issue.body ?? '')![1]!);
    gh.state.commitFiles({ branch: b.head, files: { [page]: `${gh.state.fileAt(b.head, page)}\nhuman\n` }, author: 'bob' });
    gh.state.addComment({ issue_number: b.number, user: 'mallory', body: 'lgtm <!-- wiki-steward:needs-rebase -->' });
    gh.state.mergePull(a, { by: 'maya' });
    expectExit(await runOn(await checkout(gh.gitDir()), 'push', pushToMain), 0);
    expect(commentsBy(b.number).map((c) => visible(c.body))).toEqual([expect.stringContaining('it needs a rebase')]);
  });

  it('question text cannot leave its place in the answer: no line break in a term, no lone carriage return, no closing keyword', async () => {
    await seed();
    issue(2, 'Fixes #1 how do I bake sourdough bread?', {
      user: asker('alice'),
      body: 'Also `zq\n\n~~~` too, and "a\nb" then\r# FORGED\r~~~\rCloses #1\n<img src=https://evil.test/p.gif> ![t](https://evil.test/q.gif)',
    });
    expectExit(await run('issues', gh.events.issues('opened', 2)), 0);
    const body = commentsBy(2)[0]!.body;
    expect(body).not.toContain('\r');
    expect(body).not.toMatch(/^(?:~~~|# FORGED)/m); // every asker's line stays inside the quote
    expect(body).toMatch(/\*\*Not in the wiki:\*\* [^\n]*`zq`[^\n]*\.\n/); // the term stays one word on one line
    const pr = gh.state.pulls.find((p) => p.head === 'wiki-steward/capture/2')!;
    for (const text of [pr.issue.title, pr.issue.body ?? '']) expect(text).not.toMatch(/\b(?:fixes|closes)[ \t]+#1/i);
    // The capture page committed to the wiki loads nothing for its readers.
    const captured = decodeURIComponent(/page=(\S+)/.exec(pr.issue.body ?? '')![1]!);
    const page = gh.state.fileAt(pr.head, captured) as string;
    expect(page).toContain('evil.test/p.gif');
    expect(page.replace(/`[^`\n]*`/g, '')).not.toMatch(/<img|!\[t\]/); // outside code
  });

  it('a capture never writes over a page a person wrote, even one titled as the question', async () => {
    await seed();
    const existing = gh.state.fileAt('main', 'wiki/queries/who-can-ask-questions.md');
    issue(5, 'Who can ask questions?', { user: asker('alice'), body: 'sourdough bread zucchini kiln' });
    expectExit(await run('issues', gh.events.issues('opened', 5)), 0);
    const pr = gh.state.pulls.find((p) => p.head === 'wiki-steward/capture/5')!;
    expect(await bareGit(gh.gitDir(), 'diff', 'main', pr.head, '--', 'wiki/queries/who-can-ask-questions.md')).toBe('');
    expect(gh.state.fileAt(pr.head, 'wiki/queries/who-can-ask-questions.md')).toBe(existing);
    expect(pr.issue.body).toContain('wiki/queries/who-can-ask-questions-2.md');
  });
});
