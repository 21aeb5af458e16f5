// The question's deadline (answerer.deadline_ms) in the Action, in this process on a TestClock
// against the GitHub emulator and provider stand-ins that never answer: the term proposal
// (answerer.propose_terms in the checkout's .wiki-steward.yml), the answer and the web search all
// hang, as in the run that once outlasted its job. The run still ends at the deadline, well inside
// the example workflow's `timeout-minutes: 10`, and does what every answered question does: the
// answer comment (made offline, the fault in its note), the capture pull request, the outcome
// label, the 👀 taken off, and a warning in the run.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GitHubEmulator } from '../github-emulator/emulator.js';
import { TestClock } from '../helpers/test-clock.js';
import { type StandIn, startStandIn } from '../providers/stand-ins.js';
import { DEADLINE_MS, KEYS, passHeldTimeouts } from '../providers/support.js';
import { type Workspace, closeChecked, expectExit, makeWorkspace, questionIssue, removeTempDirs, runStep, seededRepo, traceOf, writesOf } from './harness.js';
import { COMMENTS, ISSUE_REACTION, ISSUE_REACTIONS } from './routes.js';

const GAP = 'How do I set `--max-citations` so answers cite at most 3 pages?';

let template: Workspace;
let ws: Workspace;
let gh: GitHubEmulator;
let openai: StandIn;
let tavily: StandIn;

beforeAll(async () => {
  template = await makeWorkspace({ '.wiki-steward.yml': 'answerer:\n  propose_terms: true\n' });
  [openai, tavily] = await Promise.all([startStandIn('openai', { key: KEYS.OPENAI_API_KEY }), startStandIn('tavily', { key: KEYS.TAVILY_API_KEY })]);
});
beforeEach(async () => {
  ({ gh, ws } = await seededRepo(template));
  openai.reset().setFallback({ hold: true });
  tavily.reset().setFallback({ hold: true });
});
afterEach(() => closeChecked(gh));
afterAll(async () => {
  await Promise.all([openai.close(), tavily.close()]);
  await removeTempDirs();
});

describe('the Action under the question deadline', () => {
  it('hung providers: at the deadline the offline answer is posted with the fault, the 👀 removed, the run warned, exit 0', async () => {
    gh.state.setPermission('alice', 'triage');
    questionIssue(gh, 60, GAP);
    const clock = new TestClock();
    const from = gh.requests.length;
    const step = runStep({
      githubEnv: gh.env(),
      workspace: ws,
      eventName: 'issues',
      payload: gh.events.issues('opened', 60),
      inputs: { llm: 'openai', 'llm-base-url': `${openai.url}/v1`, 'llm-model': 'gpt-test', web: 'tavily', 'web-base-url': tavily.url },
      env: { OPENAI_API_KEY: KEYS.OPENAI_API_KEY, TAVILY_API_KEY: KEYS.TAVILY_API_KEY },
      clock,
    });
    await passHeldTimeouts(clock, step, [openai, tavily]);
    const r = await step;
    await Promise.all([openai.settled(), tavily.settled()]);
    expectExit(r, 0);

    // The proposal's four attempts ran out (the Action's back-off is not waited out here), the
    // answer's first attempt was cut at the deadline, and no search was made after it.
    expect(clock.now()).toBe(DEADLINE_MS);
    expect(openai.requests.map((q) => q.answered)).toEqual(['dropped', 'dropped', 'dropped', 'dropped', 'dropped']);
    expect(tavily.requests).toEqual([]);

    const comments = gh.state.commentsOn(60);
    expect(comments).toHaveLength(1);
    const body = comments[0]!.body as string;
    const trace = traceOf(body)!;
    const fault = "openai: no answer by the question's deadline (answerer.deadline_ms: 300000 ms) (after 1 attempt)";
    expect(trace).toMatchObject({ outcome: 'gap', answerer: 'openai:gpt-test', provider_fault: fault });
    expect(trace.notes).toContain(`The model provider failed (${fault}); this answer was made offline from the same pages.`);
    expect(trace.provider_calls).toEqual([
      expect.objectContaining({ provider: 'openai', status: 'timeout', retries: 3 }),
      expect.objectContaining({ provider: 'openai', status: 'deadline', retries: 0 }),
    ]);
    expect(trace.web_searches).toEqual([expect.objectContaining({ provider: 'tavily', results: 0, error: expect.stringMatching(/^tavily: not asked: /) })]);
    expect(body).toContain('The model provider failed (openai: no answer by the question');

    // As after any answer: 👀 first, the comment, then 👀 off; nothing of the steward's left on the issue.
    const writes = writesOf(gh.requests.slice(from));
    expect(writes[0]).toBe(`POST ${ISSUE_REACTIONS} 201`);
    const posted = writes.indexOf(`POST ${COMMENTS} 201`);
    expect(posted).toBeGreaterThan(0);
    expect(writes[posted + 1]).toBe(`DELETE ${ISSUE_REACTION} 204`);
    expect(gh.state.reactionsOnIssue(60)).toEqual([]);
    expect([...gh.state.issue(60).labels].sort()).toEqual(['question', 'wiki:gap']);
    expect(gh.state.pulls.map((p) => p.head)).toEqual(['wiki-steward/capture/60']);
    expect(r.outputs.outcome).toBe('gap');
    expect(r.stdout.split('\n').filter((l) => l.startsWith('::warning::'))).toEqual([
      `::warning::The openai:gpt-test answerer failed: ${fault} — this answer was made offline.`,
    ]);
    expect(r.summary).toContain(fault);
  });
});
