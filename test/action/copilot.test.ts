// `llm: copilot` in the Action against the GitHub emulator and the stand-in Copilot CLI
// (test/providers/copilot-stand-in.js, launched by the real SDK): a covered question through the
// committed bundle as a runner starts it (the SDK bundled into action/index.js), and in-process
// through runAction on a TestClock, a cold one, an explore with map-reduce, and a Copilot that
// refuses, answered offline with a warning in the run and its summary; the workflow's own token
// (the `github-token` input) is Copilot's throughout. No run here waits out a time-out.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GitHubEmulator } from '../github-emulator/emulator.js';
import { TestClock } from '../helpers/test-clock.js';
import { COPILOT_STAND_IN as STAND_IN, CopilotScenarios, type StandInLogLine } from '../providers/copilot-scenarios.js';
import {
  type RunOptions,
  type RunResult,
  type Workspace,
  closeChecked,
  makeWorkspace,
  removeTempDirs,
  runBundle,
  runStep,
  seededRepo,
  snapshotAction,
  traceOf,
} from './harness.js';

const WORKFLOW_TOKEN = 'ghs_workflow-token-for-copilot-0001';

let bundle: string;
let template: Workspace;
let ws: Workspace;
let gh: GitHubEmulator;
const scenarios = new CopilotScenarios();

beforeAll(async () => {
  bundle = await snapshotAction();
  template = await makeWorkspace();
});
beforeEach(async () => {
  ({ gh, ws } = await seededRepo(template));
});
afterEach(() => closeChecked(gh));
afterAll(async () => {
  await removeTempDirs();
  await scenarios.cleanup();
});

/** Asks issue #n with `llm: copilot` and this stand-in script: in-process on a TestClock, or through the committed bundle. */
async function askViaCopilot(
  n: number,
  title: string,
  scenario: object,
  via: 'in-process' | 'bundle' = 'in-process',
): Promise<RunResult & { log: StandInLogLine[] }> {
  const script = await scenarios.write(scenario);
  gh.state.setPermission('alice', 'write');
  gh.state.addIssue({ number: n, title, body: '', user: 'alice', labels: ['question'] });
  const step: Omit<RunOptions, 'bundle'> = {
    githubEnv: gh.env(),
    workspace: ws,
    eventName: 'issues',
    payload: gh.events.issues('opened', n),
    inputs: { llm: 'copilot', 'copilot-cli-path': STAND_IN },
    env: script.env,
    token: WORKFLOW_TOKEN,
  };
  const result = via === 'bundle' ? await runBundle({ ...step, bundle }) : await runStep({ ...step, clock: new TestClock() });
  expect(result.code, `exit ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`).toBe(0);
  // The runner masks what `::add-mask::` names; nothing else may carry the token.
  const printed = `${result.stdout}${result.stderr}${result.summary}`.split('\n').filter((line) => !line.startsWith('::add-mask::'));
  expect(printed.join('\n')).not.toContain(WORKFLOW_TOKEN);
  return { ...result, log: await script.log() };
}

const answerOf = (n: number) => {
  const comments = gh.state.commentsOn(n);
  expect(comments).toHaveLength(1);
  return { body: comments[0]!.body as string, trace: traceOf(comments[0]!.body as string)! };
};

describe('the Action with llm: copilot', () => {
  it("the committed bundle answers a covered question through the CLI with the workflow's token, and stops the CLI", async () => {
    const r = await askViaCopilot(1, 'How do I install the pre-commit hook?', { fallback: { reader: true } }, 'bundle');
    const { trace } = answerOf(1);
    expect(trace).toMatchObject({ answerer: 'copilot:gpt-5-mini', outcome: 'answered' });
    expect(trace.provider_calls).toEqual([expect.objectContaining({ provider: 'copilot', request: 'session.send', status: 'ok' })]);
    expect(r.log.find((l) => l.launch)!.token).toBe(WORKFLOW_TOKEN);
    expect(r.log.filter((l) => l.method === 'runtime.shutdown')).toHaveLength(1);
    expect(r.outputs.outcome).toBe('answered');
  });

  it('a cold question never starts the CLI', async () => {
    const r = await askViaCopilot(2, 'How do I bake sourdough bread?', { fallback: { reader: true } });
    expect(answerOf(2).trace).toMatchObject({ outcome: 'cold', provider_calls: [] });
    expect(r.log).toEqual([]);
  });

  it('explores with map-reduce: one session per batch of 8 candidates, then the merge', async () => {
    const r = await askViaCopilot(3, 'How do providers, answerers, web search, captures, labels and indexes work together?', { fallback: { reader: true } });
    const { trace } = answerOf(3);
    expect(trace.branch).toBe('explore');
    const batches = Math.ceil(trace.read.length / 8);
    expect(batches).toBeGreaterThan(1);
    expect(r.log.filter((l) => l.method === 'session.send')).toHaveLength(batches + 1);
    expect(trace.outcome).toBe('answered');
    expect(trace.violations).toEqual([]);
  });

  it('not authorised: answered offline, with a warning in the run and in its summary, never a stack trace', async () => {
    const r = await askViaCopilot(4, 'How do I install the pre-commit hook?', {
      steps: [{ error: { errorType: 'authorization', message: 'Copilot requests are not enabled for this token', statusCode: 403 } }],
    });
    const { trace, body } = answerOf(4);
    expect(trace.outcome).toBe('answered');
    expect(trace.provider_fault).toMatch(/^copilot: Copilot did not authorise this request .*Possible causes: .*copilot-requests: write/);
    expect(body).toContain('The model provider failed');
    expect(r.stdout).toMatch(/^::warning::.*copilot.*Copilot did not authorise this request/m);
    expect(r.summary).toMatch(/Copilot did not authorise this request/);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
  });
});
