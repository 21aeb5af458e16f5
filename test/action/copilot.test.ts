// `llm: copilot` in the Action against the GitHub emulator and the stand-in Copilot CLI
// (test/providers/copilot-stand-in.js, launched by the real SDK): a covered question through the
// committed bundle as a runner starts it (the SDK bundled into action/index.js), and in-process
// through runAction on a TestClock, a cold one, an explore with map-reduce, and a Copilot that
// refuses, answered offline with a warning in the run and its summary; the workflow's own token
// (the `github-token` input) is Copilot's throughout. No run here waits out a time-out: a CLI that
// dies mid-message fails its call at once, and the bundle ends its process itself once its work is
// done, whatever handle is left (one is planted in it here).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
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
  bundleOptions: Pick<RunOptions, 'env' | 'killAfterMs'> = {},
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
    env: { ...script.env, ...bundleOptions.env },
    token: WORKFLOW_TOKEN,
  };
  const result =
    via === 'bundle' ? await runBundle({ ...step, bundle, killAfterMs: bundleOptions.killAfterMs }) : await runStep({ ...step, clock: new TestClock() });
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

  it('explores in as few calls as the pages fit: here one session.send holds every page read, and no merge', async () => {
    const r = await askViaCopilot(3, 'How do providers, answerers, web search, captures, labels and indexes work together?', { fallback: { reader: true } });
    const { trace } = answerOf(3);
    expect(trace.branch).toBe('explore');
    expect(trace.read.length).toBeGreaterThan(8);
    const sends = r.log.filter((l) => l.method === 'session.send');
    expect(sends).toHaveLength(1);
    for (const page of trace.read) expect(JSON.stringify(sends[0])).toContain(`<page path=\\"${page}\\">`);
    expect(trace.outcome).toBe('answered');
    expect(trace.violations).toEqual([]);
  });

  it('not authorised: answered offline, with a warning in the run and in its summary, never a stack trace', async () => {
    const r = await askViaCopilot(4, 'How do I install the pre-commit hook?', {
      steps: [{ error: { errorType: 'authorization', message: 'Copilot requests are not enabled for this token', statusCode: 403 } }],
    });
    const { trace, body } = answerOf(4);
    expect(trace.outcome).toBe('answered');
    expect(trace.provider_fault).toMatch(
      /^copilot: Copilot did not authorise this request .*organisation-owned repository.*copilot-requests: write.*COPILOT_GITHUB_TOKEN/,
    );
    expect(body).toContain('The model provider failed');
    expect(r.stdout).toMatch(/^::warning::.*copilot.*Copilot did not authorise this request/m);
    expect(r.summary).toMatch(/Copilot did not authorise this request/);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
  });

  it('a CLI that dies mid-message: the call fails at once (no clock expired), answered offline with a warning', async () => {
    const r = await askViaCopilot(5, 'How do I install the pre-commit hook?', { steps: [{ halfMessage: true }] });
    const { trace, body } = answerOf(5);
    expect(trace.outcome).toBe('answered');
    expect(trace.provider_fault).toMatch(/^copilot: the Copilot CLI stopped mid-message \(exit code 1\): it announced \d+ bytes and sent \d+$/);
    expect(body).toContain('The model provider failed');
    expect(r.stdout).toMatch(/^::warning::.*the Copilot CLI stopped mid-message/m);
  });
});

describe('the bundle ends its process once its work is done', () => {
  let dir: string;
  let leak: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'ws-action-leak-'));
    leak = path.join(dir, 'leak.cjs');
    // A handle nothing ever closes, in the bundle's own process: only an explicit exit ends it.
    await writeFile(leak, "if (require('node:worker_threads').isMainThread) setInterval(() => {}, 1 << 30);\n");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  /** The safety net: far past what a run takes on a loaded machine; a run it kills exits with no code. */
  const KILL_AFTER_MS = 120_000;

  it('with a handle left open, a Copilot CLI that died mid-message: the answer is posted, the outputs written, and the process exits 0', async () => {
    const r = await askViaCopilot(6, 'How do I install the pre-commit hook?', { steps: [{ halfMessage: true }] }, 'bundle', {
      env: { NODE_OPTIONS: `--require ${leak}` },
      killAfterMs: KILL_AFTER_MS,
    });
    expect(r.code).toBe(0);
    expect(answerOf(6).trace.provider_fault).toMatch(/the Copilot CLI stopped mid-message/);
    expect(r.outputs.outcome).toBe('answered');
    expect(r.outputs['comment-url']).toMatch(/\/issues\/6#issuecomment-\d+$/);
    // The log, to its last line, reached the runner before the exit.
    expect(r.stdout).toMatch(/^::warning::.*the Copilot CLI stopped mid-message/m);
    expect(r.summary).toMatch(/the Copilot CLI stopped mid-message/);
  });

  it('with a handle left open, a step that fails: the process exits 1, its error flushed', async () => {
    const r = await runBundle({
      bundle,
      githubEnv: gh.env(),
      workspace: undefined,
      eventName: 'issues',
      env: { NODE_OPTIONS: `--require ${leak}` },
      killAfterMs: KILL_AFTER_MS,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^::error::GITHUB_WORKSPACE is not set or missing/m);
  });
});
