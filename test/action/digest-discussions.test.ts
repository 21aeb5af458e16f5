// The digest over questions asked in issues AND in discussions (issue 28, item 4), end to end: the
// answer comments are the Action's own (its answer job run on `issues` and `discussion` events, the
// reviewed answer on the merged capture's `pull_request` event), the digest is the scheduled run,
// all in this process (`runStep`) against the GitHub emulator, which serves discussions in GraphQL
// only, against GitHub's published schema.
import { describe, expect, it } from 'vitest';
import type { GitHubEmulator } from '../github-emulator/emulator.js';
import { type Workspace, checkout, expectExit, runCli, runStep, traceOf, writesOf } from './harness.js';
import { ISSUES, REPO, SERVER } from './routes.js';
import { COLD, COVERED, STEWARD, discussionRepo } from './discussion-fixtures.js';

const COLD_AGAIN = 'How should I bake sourdough bread at home?';
const VALIDATE = 'How do I validate the wiki in CI?';
const ROTATE = 'How do we rotate the staging database password?';
const DAY = 86_400_000;

let gh: GitHubEmulator;
let ws: Workspace;

const { ask, comments } = discussionRepo({
  seeded: (repo) => {
    ({ gh, ws } = repo);
    for (const user of ['alice', 'bob', 'carol']) gh.state.setPermission(user, 'triage');
  },
  current: () => ({ gh, ws }),
});

/** This file's runs take an environment (the digest's clock) rather than inputs. */
const run = (eventName: string, payload: unknown, opts: { workspace?: Workspace; env?: Record<string, string> } = {}) =>
  runStep({ githubEnv: gh.env(), workspace: opts.workspace ?? ws, eventName, payload, ...(opts.env ? { env: opts.env } : {}) });

/** The ISO week (UTC) of a date, computed here independently of src/digest/period.ts. */
function isoWeek(at: Date): { label: string; start: Date } {
  const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const start = midnight - ((new Date(midnight).getUTCDay() + 6) % 7) * DAY;
  const thursday = new Date(start + 3 * DAY);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / DAY / 7) + 1;
  return { label: `${year}-W${String(week).padStart(2, '0')}`, start: new Date(start) };
}
/** A scheduled run past the first day of the current week reports that week. */
const midWeek = (): Record<string, string> => ({
  WIKI_STEWARD_NOW: new Date(Math.max(Date.now(), isoWeek(new Date()).start.getTime() + DAY + 3_600_000)).toISOString(),
});
const iso = (t: number) => new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
const digestIssues = () => gh.state.issues.filter((i) => i.labels.includes('wiki:digest'));
const digestBody = () => {
  const [digest, ...rest] = digestIssues();
  expect(rest).toEqual([]);
  return digest?.body ?? '';
};
const section = (body: string, from: string, to: string) => body.slice(body.indexOf(from), body.indexOf(to));

/** An issue question, answered by the Action. */
async function askInIssue(number: number, title: string, user = 'alice') {
  gh.state.addIssue({ number, title, body: '', user, labels: ['question'] });
  expectExit(await run('issues', gh.events.issues('opened', number)), 0);
  return gh.state.comments.find((c) => c.issue_number === number && c.user === STEWARD)!;
}
/** A discussion question in Q&A, answered by the Action: the discussion and its answer comment. */
async function askInDiscussion(title: string, user = 'alice') {
  const d = ask(title, { user });
  expectExit(await run('discussion', gh.events.discussion('created', d.number)), 0);
  const answer = comments(d.number).find((c) => c.user === STEWARD);
  expect(answer, `no answer on discussion #${d.number}`).toBeDefined();
  return { d, answer: answer! };
}
const captureOf = (n: number) => gh.state.pulls.find((p) => p.head === `wiki-steward/capture/${n}`)!;

describe('the digest of questions asked in issues and in discussions', () => {
  it('counts discussion answers as issue answers are: one table with where each was asked, topics, votes, captures; a reviewed answer once', async () => {
    const i1 = await askInIssue(1, COVERED);
    const i2 = await askInIssue(2, COLD, 'bob');
    const a = await askInDiscussion(VALIDATE);
    const b = await askInDiscussion(COLD_AGAIN, 'carol');
    const c = await askInDiscussion(ROTATE, 'bob');
    expect([i1, i2, a.answer, b.answer, c.answer].map((x) => traceOf(x.body)?.outcome)).toEqual(['answered', 'cold', 'answered', 'cold', 'gap']);

    // Discussion c's capture is reviewed and merged: the reviewed answer (key reviewed-discussion-N-pr-M) is posted beside the first.
    const pull = captureOf(c.d.number);
    const file = decodeURIComponent(/page=([^ ]+)/.exec(pull.body ?? '')![1]!);
    const page = gh.state
      .fileAt(pull.head, file)!
      .replace(/^captured_by: .*\n/m, '')
      .replace(/\n---\n[\s\S]*$/, '\n---\nRotate the staging database password with `vault rotate staging/db`, then restart the staging app.\n');
    gh.state.commitFiles({ branch: pull.head, files: { [file]: page }, author: 'maya' });
    gh.state.setPermission('maya', 'maintain');
    gh.state.mergePull(pull, { by: 'maya' });
    const merged = await checkout(gh.gitDir());
    expectExit(await run('pull_request', gh.events.pullRequest('closed', pull.number), { workspace: merged }), 0);
    const [first, reviewed, ...more] = gh.state.allDiscussionComments(c.d.number);
    expect(more).toEqual([]);
    expect(first!.id).toBe(c.answer.id);
    expect(reviewed!.body).toContain(`<!-- wiki-steward:answer key=reviewed-discussion-${c.d.number}-pr-${pull.number} -->`);
    expect(traceOf(reviewed!.body)?.outcome).toBe('answered');

    // Feedback: 👍/👎 on the answers in discussions (a ❤️, and a 👍 on the discussion itself, are no vote on an answer).
    const vote = (comment_id: number, content: '+1' | '-1' | 'heart', ...users: string[]) =>
      users.forEach((user) => gh.state.addDiscussionReaction({ comment_id, content, user }));
    vote(a.answer.id, '+1', 'alice', 'bob');
    vote(a.answer.id, '-1', 'dave');
    vote(a.answer.id, 'heart', 'carol');
    gh.state.addDiscussionReaction({ discussion_number: a.d.number, content: '+1', user: 'erin' });
    vote(c.answer.id, '-1', 'bob', 'carol'); // on the first (gap) answer of c
    vote(reviewed!.id, '+1', 'bob'); // on its reviewed answer
    gh.state.addReaction({ comment_id: i1.id, content: '+1', user: 'alice' });
    gh.state.addReaction({ comment_id: i2.id, content: '-1', user: 'bob' });

    // Left out, as on issues: a person's comment pasting a steward answer, and the steward's answer from last week.
    gh.state.addDiscussionComment(a.d.number, { body: `copied:\n${b.answer.body}`, user: 'mallory' });
    const lastWeek = iso(isoWeek(new Date()).start.getTime() - 3 * DAY);
    gh.state.addDiscussionComment(b.d.number, { body: b.answer.body, user: STEWARD, created_at: lastWeek });

    const from = gh.requests.length;
    const r = await run('schedule', { schedule: '0 6 * * 1' }, { workspace: merged, env: midWeek() });
    expectExit(r, 0);
    expect(writesOf(gh.requests.slice(from))).toEqual([`POST ${ISSUES} 201`]);
    const body = digestBody();

    // Five questions: c once, as its reviewed answer says (answered), not twice (nor as a gap).
    expect(body).toContain('5 questions asked: 3 answered, 0 gap, 2 cold, 0 error.');
    expect(body).toContain('```mermaid\npie title Outcomes\n  "answered" : 3\n  "cold" : 2\n```');

    // One table, both places, in the order asked; a discussion's row links its answer.
    const discussionAnswerUrl = (n: number, id: number) => `${SERVER}/${REPO}/discussions/${n}#discussioncomment-${id}`;
    const table = body.split('\n').filter((l) => l.startsWith('| '));
    expect(table).toEqual([
      '| Asked in | Question | Outcome | 👍 | 👎 |',
      `| [#1](${SERVER}/${REPO}/issues/1#issuecomment-${i1.id}) | ${COVERED} | answered | 1 | 0 |`,
      `| [#2](${SERVER}/${REPO}/issues/2#issuecomment-${i2.id}) | ${COLD} | cold | 0 | 1 |`,
      `| [discussion #${a.d.number}](${discussionAnswerUrl(a.d.number, a.answer.id)}) | ${VALIDATE} | answered | 2 | 1 |`,
      `| [discussion #${b.d.number}](${discussionAnswerUrl(b.d.number, b.answer.id)}) | ${COLD_AGAIN} | cold | 0 | 0 |`,
      `| [discussion #${c.d.number}](${discussionAnswerUrl(c.d.number, reviewed!.id)}) | ${ROTATE} | answered | 1 | 2 |`,
    ]);

    // Topics: the two sourdough questions in one group, the issue's and the discussion's, with a capture of one of them.
    const topics = section(body, '## What to write next', '## Capture pull requests')
      .split('\n')
      .filter((l) => l.startsWith('- '));
    expect(topics).toEqual([
      expect.stringMatching(
        new RegExp(`^- \\*\\*[^*]*sourdough[^*]*\\*\\* — asked 2× \\(#2, discussion #${b.d.number}\\), capture #(\\d+): “${COLD.replace('?', '\\?')}”$`),
      ),
    ]);
    const groupCapture = Number(/capture #(\d+)/.exec(topics[0]!)?.[1]);
    expect([captureOf(2).number, captureOf(b.d.number)?.number]).toContain(groupCapture);
    expect(body).toContain(`Merged this period: #${pull.number}.`);

    // Votes: issues and discussions alike; c's votes, on both its answers, are one question's.
    expect(body).toContain('👍 4 · 👎 4 on answers this period.');
    expect(body.split('\n').filter((l) => l.startsWith('- 👎'))).toEqual([
      `- 👎 2 / 👍 1: [${ROTATE}](${discussionAnswerUrl(c.d.number, reviewed!.id)})`,
      `- 👎 1 / 👍 0: [${COLD}](${SERVER}/${REPO}/issues/2#issuecomment-${i2.id})`,
      `- 👎 1 / 👍 2: [${VALIDATE}](${discussionAnswerUrl(a.d.number, a.answer.id)})`,
    ]);

    // `digest --format json` carries where each question was asked, in the table and in the topics.
    const cli = await runCli(['digest', '--repo', REPO, '--format', 'json'], merged.dir, {
      GITHUB_TOKEN: 'ghs_test',
      GITHUB_API_URL: gh.url,
      GITHUB_ACTIONS: '',
      WIKI_STEWARD_NOW: midWeek().WIKI_STEWARD_NOW!,
    });
    expect(cli.code, cli.stderr).toBe(0);
    const json = JSON.parse(cli.stdout) as Record<string, any>;
    expect(json.asked).toBe(5);
    expect(json.questions.map((q: Record<string, unknown>) => [q.where, q.issueNumber, q.outcome, q.up, q.down])).toEqual([
      ['issue', 1, 'answered', 1, 0],
      ['issue', 2, 'cold', 0, 1],
      ['discussion', a.d.number, 'answered', 2, 1],
      ['discussion', b.d.number, 'cold', 0, 0],
      ['discussion', c.d.number, 'answered', 1, 2],
    ]);
    expect(json.unansweredTopics[0].questions.map((q: Record<string, unknown>) => `${q.where} ${q.issueNumber}`)).toEqual([
      'issue 2',
      `discussion ${b.d.number}`,
    ]);
    expect(json.feedback.mostDownvoted[0]).toMatchObject({ where: 'discussion', issueNumber: c.d.number, down: 2, up: 1 });
  });
});

describe('a repository with Discussions turned off still gets its digest', () => {
  async function issueOnly(): Promise<void> {
    await askInIssue(1, COVERED);
  }
  const digestRun = () => run('workflow_dispatch', {});

  it('has_discussions: false (GitHub answers an empty connection): the issue questions, no discussion ones, no failure', async () => {
    await issueOnly();
    const d = ask(VALIDATE);
    gh.state.addDiscussionComment(d.number, { body: gh.state.comments.find((c) => c.user === STEWARD)!.body, user: STEWARD });
    gh.state.repos[0]!.has_discussions = false;
    const r = await digestRun();
    expectExit(r, 0);
    const body = digestBody();
    expect(body).toContain('1 questions asked: 1 answered, 0 gap, 0 cold, 0 error.');
    expect(body).not.toContain('discussion #');
  });

  it('GitHub says "Repository does not have discussions enabled": no discussion questions, no failure', async () => {
    await issueOnly();
    gh.faults.graphqlError({ field: 'repository', message: 'Repository does not have discussions enabled', type: 'UNPROCESSABLE' });
    const r = await digestRun();
    expectExit(r, 0);
    expect(gh.faults.pending).toEqual([]);
    expect(digestBody()).toContain('1 questions asked: 1 answered');
  });

  it.each([
    ['GitHub failing the query', () => gh.faults.graphqlError({ field: 'repository', times: Infinity }), /Something went wrong/],
    [
      'a token without the discussions permission',
      () => gh.faults.graphqlError({ field: 'repository', type: 'FORBIDDEN', message: 'Resource not accessible by integration', times: Infinity }),
      /Resource not accessible by integration/,
    ],
    [
      'an HTTP failure',
      () => gh.faults.serverError({ match: { method: 'POST', route: '/graphql', graphql: 'repository' }, status: 502, times: Infinity }),
      /Server Error/,
    ],
    [
      'bad credentials on that read',
      () =>
        gh.faults.push({
          match: { method: 'POST', route: '/graphql', graphql: 'repository' },
          status: 401,
          body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' },
          times: Infinity,
        }),
      /Bad credentials/,
    ],
  ])('%s fails the digest as any failed read does, and posts nothing', async (_what, fault, message) => {
    await issueOnly();
    fault();
    const r = await digestRun();
    expectExit(r, 1);
    expect(r.stdout).toMatch(/::error::/);
    expect(r.stdout).toMatch(message);
    expect(digestIssues()).toEqual([]);
  });
});
