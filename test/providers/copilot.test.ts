// `ask --llm copilot` end to end: the real `@github/copilot-sdk` launches a stand-in Copilot CLI (a
// Node script speaking the SDK's JSON-RPC protocol over stdio, copilot-stand-in.js) and drives it
// as it would the real one. Checked: how the CLI is launched and what it is given (the token in its
// own variable, no other key, an empty working folder, no tools, every permission refused), the
// answer parsed, repaired and held to the cite contract like every model's, map-reduce for explore,
// calls and tokens in the trace, and each fault answered offline with a note that says what to fix.
// The CLI runs in-process on a TestClock: a Copilot time-out passes only when a test expires it,
// once the stand-in has done what the scenario says (received the message); a CLI that crashes
// fails its call at once, with no clock expired.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Trace } from '../../src/answer/trace.js';
import { TestClock } from '../helpers/test-clock.js';
import { COPILOT_STAND_IN as STAND_IN, CopilotScenarios, type StandInScript } from './copilot-scenarios.js';
import { EXAMPLE_WIKI, INSTALL_PAGE, INSTALL_QUESTION, INSTALL_QUOTE, KEYS, askCli, askInProcess, expectNoKeys, runBuiltCli, runEnv } from './support.js';

const EXPLORE_QUESTION = 'How do providers, answerers, web search, captures, labels and indexes work together?';
const TOKEN = KEYS.COPILOT_GITHUB_TOKEN;

const scenarios = new CopilotScenarios();
afterAll(() => scenarios.cleanup());

interface AskOptions {
  flags?: string[];
  env?: Record<string, string | undefined>;
  /** Runs beside the question: what the test does to the run's clock, and when. */
  drive?: (script: StandInScript, clock: TestClock) => Promise<void>;
}

/** Asks through the stand-in with this script; returns the trace, output, clock and everything the CLI received. */
async function askCopilot(question: string, scenario: object, options: AskOptions = {}) {
  const script = await scenarios.write(scenario);
  const env = { COPILOT_GITHUB_TOKEN: TOKEN, OPENAI_API_KEY: KEYS.OPENAI_API_KEY, ...script.env, ...options.env };
  const clock = new TestClock();
  const [run] = await Promise.all([
    askCli(question, options.flags ?? ['--llm', 'copilot', '--copilot-cli-path', STAND_IN], env, EXAMPLE_WIKI, clock),
    options.drive?.(script, clock),
  ]);
  const log = await script.log();
  expectNoKeys(run.stdout, run.stderr, JSON.stringify(run.trace));
  return { ...run, script, log, calls: (method: string) => log.filter((l) => l.method === method) };
}

/** Copilot's time-out as configured (answerer.timeout_ms, 60 s by default); on the clock, it passes when a test says. */
const TIMEOUT_MS = 60_000;
/** The question's deadline over every call (answerer.deadline_ms, 5 min by default), armed first and left alone. */
const DEADLINE_MS = 300_000;

const OFFLINE_NOTE = /^The model provider failed \((copilot: [^]*)\); this answer was made offline from the same pages\.$/;
/** The offline answer stood in, and its note (also the trace's provider_fault) says why. */
function expectFallback(trace: Trace, why: RegExp): void {
  expect(trace.answerer).toBe('copilot:gpt-5-mini');
  expect(trace.outcome).toBe('answered');
  const note = trace.notes.find((n) => OFFLINE_NOTE.test(n));
  expect(note, JSON.stringify(trace.notes)).toBeDefined();
  expect(trace.provider_fault).toBe(OFFLINE_NOTE.exec(note!)![1]);
  expect(trace.provider_fault).toMatch(why);
  expect(trace.provider_fault).not.toMatch(/\n| {4}at /); // never a stack trace
}

describe('ask --llm copilot', () => {
  it('launches the CLI headless over stdio with the token as COPILOT_GITHUB_TOKEN, no other key, no stored login, no tools, and answers with verified citations', async () => {
    const { trace, log, calls } = await askCopilot(
      INSTALL_QUESTION,
      { steps: [{ reader: true, usage: { input: 900, output: 80 } }] },
      { env: { GITHUB_TOKEN: 'ghs_workflow-token-not-for-copilot' } },
    );
    const launch = log.find((l) => l.launch)!;
    expect(launch.launch).toEqual(expect.arrayContaining(['--headless', '--no-auto-update', '--stdio', '--no-auto-login']));
    expect(launch.launch!.join(' ')).not.toContain(TOKEN);
    expect(launch.token).toBe(TOKEN);
    expect(launch.envNames!.filter((name) => /TOKEN|KEY/.test(name))).toEqual(['COPILOT_GITHUB_TOKEN']);
    expect(path.basename(launch.cwd!)).toMatch(/^wiki-steward-copilot-/);

    const [create] = calls('session.create');
    expect(create!.params).toMatchObject({ model: 'gpt-5-mini', availableTools: [], requestPermission: true, systemMessage: { mode: 'replace' } });
    const system = (create!.params!.systemMessage as { content: string }).content;
    expect(system).toMatch(/DATA between <question> and <page> tags/);
    expect(system).toContain('"required":["claims","covered","uncovered"]');
    const [send] = calls('session.send');
    expect(send!.params!.prompt).toContain(`<question>\n${INSTALL_QUESTION}\n</question>`);

    expect(trace).toMatchObject({ answerer: 'copilot:gpt-5-mini', outcome: 'answered', violations: [] });
    expect(trace.citations).toContainEqual({ path: INSTALL_PAGE, lines: [18, 18], quote: INSTALL_QUOTE });
    expect(trace.provider_calls).toEqual([
      { provider: 'copilot', request: 'session.send', status: 'ok', retries: 0, ms: expect.any(Number), tokens: { input: 900, output: 80 } },
    ]);
    expect(trace.tokens).toEqual({ input: 900, output: 80, counted: 'provider' });
    // The run ends the CLI: detached, then shut down.
    expect(calls('session.detach')).toHaveLength(1);
    expect(calls('runtime.shutdown')).toHaveLength(1);
  });

  it('explores through one CLI: pages that fit one call go in one session, with no merge', async () => {
    const { trace, log, calls } = await askCopilot(EXPLORE_QUESTION, { fallback: { reader: true } });
    expect(trace.branch).toBe('explore');
    expect(trace.read.length).toBeGreaterThan(8);
    expect(log.filter((l) => l.launch)).toHaveLength(1);
    expect(calls('session.send')).toHaveLength(1);
    const prompt = String(calls('session.send')[0]!.params!.prompt);
    for (const path of trace.read) expect(prompt).toContain(`<page path="${path}">`);
    expect(prompt).not.toContain('<partial');
    expect(trace.outcome).toBe('answered');
    expect(trace.violations).toEqual([]);
    expect(trace.provider_calls).toHaveLength(1);
  });

  it("without COPILOT_GITHUB_TOKEN, the workflow's token (GH_TOKEN, else GITHUB_TOKEN) is the one given", async () => {
    const workflowToken = 'ghs_workflow-installation-token-1234';
    const { trace, log } = await askCopilot(
      INSTALL_QUESTION,
      { steps: [{ reader: true }] },
      { env: { COPILOT_GITHUB_TOKEN: undefined, GITHUB_TOKEN: workflowToken } },
    );
    expect(log.find((l) => l.launch)!.token).toBe(workflowToken);
    expect(trace.outcome).toBe('answered');
    expect(JSON.stringify(trace)).not.toContain(workflowToken);
  });

  it('works from the built CLI (dist/cli.js), the SDK bundled into a chunk loaded only for copilot', async () => {
    const script = await scenarios.write({ fallback: { reader: true } });
    const run = await runBuiltCli(['ask', '--wiki', '.', '--json', '--llm', 'copilot', '--copilot-cli-path', STAND_IN, INSTALL_QUESTION], {
      COPILOT_GITHUB_TOKEN: TOKEN,
      ...script.env,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      answerer: 'copilot:gpt-5-mini',
      outcome: 'answered',
      provider_calls: [{ provider: 'copilot', status: 'ok' }],
    });
    expectNoKeys(run.stdout, run.stderr);
  });

  it('a cold question never starts the CLI', async () => {
    const { trace, log } = await askCopilot('How do I calibrate the flux capacitor on a DeLorean?', { fallback: { reader: true } });
    expect(trace.outcome).toBe('cold');
    expect(log).toEqual([]);
    expect(trace.provider_calls).toEqual([]);
  });

  it('refuses every tool Copilot asks for, and the answer still comes from the pages', async () => {
    const { trace, calls } = await askCopilot(INSTALL_QUESTION, { steps: [{ askTool: true, reader: true }] });
    expect(calls('session.permissions.handlePendingPermissionRequest').map((c) => c.params!.result)).toEqual([
      { kind: 'reject', feedback: 'No tools are allowed: answer only from the pages in the message.' },
    ]);
    expect(trace.outcome).toBe('answered');
    expect(trace.provider_fault).toBeUndefined();
  });

  it('holds the reply to the schema: not JSON, one repair, then used', async () => {
    const { trace, calls } = await askCopilot(INSTALL_QUESTION, { steps: [{ reply: 'Sure! Run npx wiki-steward hooks install.' }, { reader: true }] });
    expect(calls('session.send')[1]!.params!.prompt).toMatch(/Your previous reply could not be used: not JSON/);
    expect(trace.provider_fault).toBeUndefined();
    expect(trace.citations).toContainEqual({ path: INSTALL_PAGE, lines: [18, 18], quote: INSTALL_QUOTE });
  });
});

describe('ask --llm copilot: faults are answered offline with a note that says what to fix', () => {
  it('the CLI missing at the given path', async () => {
    const { trace } = await askCopilot(
      INSTALL_QUESTION,
      {},
      { flags: ['--llm', 'copilot', '--copilot-cli-path', path.join(path.dirname(STAND_IN), 'no-such-copilot')] },
    );
    expectFallback(trace, /the Copilot CLI at .*no-such-copilot does not exist or is not executable\. Install it \(`npm install -g @github\/copilot`\)/);
  });

  it('no `copilot` on PATH and no path given', async () => {
    // A PATH of one folder with no `copilot` in it.
    const { trace } = await askCopilot(INSTALL_QUESTION, {}, { flags: ['--llm', 'copilot'], env: { PATH: path.dirname(STAND_IN) } });
    expectFallback(trace, /the Copilot CLI is not installed: no `copilot` on PATH\. Install it in a step before this one/);
  });

  it('no token', async () => {
    const { trace, log } = await askCopilot(INSTALL_QUESTION, {}, { env: { COPILOT_GITHUB_TOKEN: undefined } });
    expectFallback(
      trace,
      /no token for Copilot: set COPILOT_GITHUB_TOKEN, or give the workflow's token \(GITHUB_TOKEN\) `permissions: copilot-requests: write`/,
    );
    expect(log).toEqual([]);
  });

  it('not authorised: one note saying both ways GitHub allows', async () => {
    const { trace } = await askCopilot(INSTALL_QUESTION, {
      steps: [{ error: { errorType: 'authorization', message: 'You do not have access to Copilot', statusCode: 403 } }],
    });
    expectFallback(
      trace,
      /Copilot did not authorise this request \(authorization: You do not have access to Copilot\)\. The workflow's token \(GITHUB_TOKEN\) can use Copilot only in an organisation-owned repository .*"Allow use of Copilot CLI billed to the organization".*`permissions: copilot-requests: write`.*personal repositories included.*personal access token with Copilot access.*COPILOT_GITHUB_TOKEN/,
    );
  });

  it('rate limit and quota', async () => {
    const rate = await askCopilot(INSTALL_QUESTION, {
      steps: [{ error: { errorType: 'rate_limit', errorCode: 'user_weekly_rate_limited', message: 'Rate limit exceeded', statusCode: 429 } }],
    });
    expectFallback(rate.trace, /Copilot's rate limit was reached \(rate_limit user_weekly_rate_limited: Rate limit exceeded\)\. Try again later/);
    const quota = await askCopilot(INSTALL_QUESTION, {
      steps: [{ error: { errorType: 'quota', errorCode: 'quota_exceeded', message: 'Premium request quota exceeded', statusCode: 402 } }],
    });
    expectFallback(quota.trace, /Copilot's quota was reached \(quota quota_exceeded: Premium request quota exceeded\)/);
  });

  it('no answer in time, a crash mid-answer, and a crash before the request is acknowledged', async () => {
    const NO_ANSWER = /^copilot: no answer from Copilot within 60000 ms$/;
    // The CLI has the message and stays silent: the reply's time-out passes, and the CLI is killed.
    const hang = await askCopilot(
      INSTALL_QUESTION,
      { steps: [{ hang: true }] },
      {
        drive: async (script, clock) => {
          await script.whenLogged((line) => line.method === 'session.send');
          clock.expire(TIMEOUT_MS);
        },
      },
    );
    expectFallback(hang.trace, NO_ANSWER);
    expect(hang.trace.provider_calls).toEqual([expect.objectContaining({ provider: 'copilot', status: 'timeout' })]);
    // Every wait was on the clock: the question's deadline, then the start, the session, the reply.
    expect(hang.clock.timeouts).toEqual([DEADLINE_MS, TIMEOUT_MS, TIMEOUT_MS, TIMEOUT_MS]);
    await hang.script.whenGone();
    // A CLI that dies after (or before) acknowledging the message fails the call the moment it is
    // gone: no clock is expired here, so no time-out can end these runs.
    const STOPPED = /^copilot: the Copilot CLI stopped (mid-message )?\(exit code 1\)/;
    const mid = await askCopilot(INSTALL_QUESTION, { steps: [{ exitAfterAck: true }] });
    expectFallback(mid.trace, STOPPED);
    expect(mid.trace.provider_calls).toEqual([expect.objectContaining({ provider: 'copilot', status: 'error' })]);
    expect(mid.calls('session.send')).toHaveLength(1);
    const before = await askCopilot(INSTALL_QUESTION, { steps: [{ exitBeforeAck: true }] });
    expectFallback(before.trace, STOPPED);
    expect(before.calls('session.send')).toHaveLength(1);
  });

  it("the question's deadline: the request in flight is aborted and the CLI stopped; no other request starts; answered offline", async () => {
    // In process, with a deadline of 30 s (below the reply's own 60 s time-out) and term proposals on:
    // the proposal hangs until the deadline, and the answer is then not asked for at all.
    const script = await scenarios.write({ steps: [{ hang: true }], fallback: { reader: true } });
    const clock = new TestClock();
    const asked = askInProcess(INSTALL_QUESTION, {
      llm: 'copilot',
      copilotCliPath: STAND_IN,
      web: 'none',
      env: runEnv({ COPILOT_GITHUB_TOKEN: TOKEN, ...script.env }),
      clock,
      deadlineMs: 30_000,
      proposeTerms: true,
    });
    await script.whenLogged((line) => line.method === 'session.send');
    clock.advance(30_000);
    const trace = await asked;
    await script.whenGone();
    const deadline = "the question's deadline (answerer.deadline_ms: 30000 ms)";
    expect(trace.notes).toContain(`The model's proposed search terms were not used (copilot: no answer from Copilot by ${deadline}).`);
    expectFallback(trace, new RegExp(`^copilot: not asked: ${deadline.replace(/[().]/g, '\\$&')} had passed$`));
    expect(trace.provider_calls).toEqual([expect.objectContaining({ provider: 'copilot', request: 'session.send', status: 'deadline' })]);
    const log = await script.log();
    expect(log.filter((l) => l.launch)).toHaveLength(1);
    expect(log.filter((l) => l.method === 'session.send')).toHaveLength(1);
    expect(clock.timeouts[0]).toBe(30_000);
  });

  it('a CLI that crashes at start-up, and one that speaks another protocol version', async () => {
    const crash = await askCopilot(INSTALL_QUESTION, { startup: 'crash' });
    expectFallback(crash.trace, /the Copilot CLI stopped \((exit code 3|CLI server exited with code 3|CLI server connection failed)/);
    const old = await askCopilot(INSTALL_QUESTION, { protocolVersion: 99 });
    expectFallback(old.trace, /this Copilot CLI does not speak the protocol of @github\/copilot-sdk: update the CLI/);
  });
});
