// What the provider tests share: the example wiki, fake keys, the environment a run gets (this
// process's without any provider variable, with the test's own over it: an object, so no test
// changes process.env), `ask` through the CLI in-process or as the built dist/cli.js in a child
// process, and an in-process session for the few cases the CLI cannot reach. In-process runs wait
// on a TestClock: back-off and retry-after cost nothing, and a time-out fires only when the test
// expires it, so no outcome depends on how fast the machine is.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { askQuestion, openAskSession } from '../../src/answer/ask.js';
import { type ProviderOptions, createProviders } from '../../src/answer/providers.js';
import { openWorkspace } from '../../src/config/workspace.js';
import type { Trace } from '../../src/answer/trace.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, TEST_WAIT_SCALE } from '../../src/net/http-json.js';
import { type CliRun, runCli } from '../helpers/cli-in-process.js';
import { builtCli } from '../helpers/cli.js';
import { TestClock } from '../helpers/test-clock.js';
import type { StandIn } from './stand-ins.js';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const EXAMPLE_WIKI = path.join(PROJECT_ROOT, 'examples/wiki');
export const CLI_JS = path.join(PROJECT_ROOT, 'dist/cli.js');

/** Fake keys, distinctive enough to grep for anywhere they must not be. */
export const KEYS = {
  OPENAI_API_KEY: 'sk-test-OPENAI-5f2c9e7d1a4b8c3e',
  ANTHROPIC_API_KEY: 'sk-ant-test-ANTHROPIC-8b3e7f1a2c9d',
  TAVILY_API_KEY: 'tvly-test-TAVILY-41c7d9e2a8f3',
  BRAVE_API_KEY: 'BSA-test-BRAVE-9d2e4f6a1b3c',
  COPILOT_GITHUB_TOKEN: 'github_pat_test-COPILOT-7c1e5a9f3d2b',
} as const;

/**
 * Every variable that changes which provider runs or how it waits, never taken from this process;
 * nor GITHUB_ACTIONS: a test's run is not a workflow step, even when the suite runs in one.
 */
const PROVIDER_ENV = [
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'TAVILY_API_KEY',
  'BRAVE_API_KEY',
  'SEARXNG_URL',
  TEST_WAIT_SCALE,
  'COPILOT_GITHUB_TOKEN',
  'GH_TOKEN',
  'GITHUB_TOKEN',
  'COPILOT_STAND_IN',
  'COPILOT_STAND_IN_LOG',
  'GITHUB_ACTIONS',
];

/** A test's own variables; `undefined` leaves one unset. */
export type EnvVars = Record<string, string | undefined>;

/** The environment a run gets: this process's without any provider variable, with `vars` over it. */
export function runEnv(vars: EnvVars): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !PROVIDER_ENV.includes(k)));
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** `wiki-steward ask --wiki WIKI --json ...flags QUESTION`, in-process, with exactly `env` set, waiting on `clock`. */
export async function askCli(
  question: string,
  flags: string[],
  env: EnvVars,
  wiki = EXAMPLE_WIKI,
  clock = new TestClock(),
): Promise<CliRun & { trace: Trace; clock: TestClock }> {
  const run = await runCli(['ask', '--wiki', wiki, '--json', ...flags, question], wiki, { env: runEnv(env), clock });
  expect(run.code, `exit ${run.code}\nstderr: ${run.stderr}\nstdout: ${run.stdout.slice(0, 2000)}`).toBe(0);
  return { ...run, trace: JSON.parse(run.stdout) as Trace, clock };
}

/** Same, without insisting on exit 0 or JSON output. */
export async function runAsk(args: string[], env: EnvVars, cwd = EXAMPLE_WIKI, clock = new TestClock()): Promise<CliRun> {
  return runCli(['ask', ...args], cwd, { env: runEnv(env), clock });
}

/**
 * The built CLI as a child process (asynchronous, so the stand-ins in this process keep answering),
 * with every deliberate wait skipped (WIKI_STEWARD_TEST_WAIT_SCALE=0: back-off and retry-after,
 * never a time-out): no test exercises a time-out in a child process. The kill is a safety net
 * for a run that hangs, set under the test time limit so the failure shows the run's output.
 */
export function runBuiltCli(args: string[], env: EnvVars, cwd = EXAMPLE_WIKI): Promise<{ code: number; stdout: string; stderr: string }> {
  const cli = builtCli();
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd, env: runEnv({ [TEST_WAIT_SCALE]: '0', ...env }), timeout: 240_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Two retries, for the in-process cases (the clock makes their waits free). */
export const IN_PROCESS_RETRY: RetryPolicy = { ...DEFAULT_RETRY_POLICY, retries: 2 };

/** One question through createProviders + openAskSession + askQuestion, without the CLI; on a TestClock unless given another. */
export async function askInProcess(question: string, options: Omit<ProviderOptions, 'retry'> & { retry?: RetryPolicy }, wiki = EXAMPLE_WIKI): Promise<Trace> {
  const providers = createProviders({ retry: IN_PROCESS_RETRY, clock: new TestClock(), ...options });
  const workspace = await openWorkspace({ cwd: wiki, wikiFlag: wiki });
  const session = await openAskSession(workspace, providers);
  try {
    return await askQuestion(session, question);
  } finally {
    await providers.close();
  }
}

/** Asserts none of the fake keys appears in any of the texts. */
export function expectNoKeys(...texts: string[]): void {
  for (const text of texts)
    for (const [name, key] of Object.entries(KEYS))
      expect(text.includes(key), `${name} leaked: …${text.slice(Math.max(0, text.indexOf(key) - 120), text.indexOf(key) + 40)}…`).toBe(false);
}

export const INSTALL_PAGE = 'how-to/install-pre-commit-hook.md';
export const INSTALL_QUESTION = 'How do I install the pre-commit hook?';
/** Line 18 of how-to/install-pre-commit-hook.md, verbatim. */
export const INSTALL_QUOTE =
  '`wiki-steward hooks install` adds a git pre-commit hook that validates staged wiki pages and regenerates their index files, so invalid pages never reach a commit.';
export const INSTALL_CLAIM = {
  text: 'The installer adds a pre-commit hook that validates staged pages.',
  citations: [{ path: INSTALL_PAGE, start_line: 18, end_line: 18, quote: INSTALL_QUOTE }],
};

/** A provider attempt's time-out (answerer.timeout_ms) and the question's deadline (answerer.deadline_ms), by default. */
export const ATTEMPT_TIMEOUT_MS = 60_000;
export const DEADLINE_MS = 300_000;

/**
 * Until `run` settles: each request one of `standIns` holds has its own time-out pass on the clock,
 * or only as much as is left of the question's deadline when that is less. `deadlineAt` gives that
 * deadline as an absolute time (a batch arms one per question). A request answered at once is not
 * waited for.
 */
export async function passHeldTimeouts(
  clock: TestClock,
  run: Promise<unknown>,
  standIns: readonly StandIn[],
  deadlineAt: () => number = () => DEADLINE_MS,
): Promise<void> {
  const seen = standIns.map((s) => s.requests.length);
  const ended = run.then(
    () => -1,
    () => -1,
  );
  for (;;) {
    const next = await Promise.race([ended, ...standIns.map((s, i) => s.arrived(seen[i]! + 1).then(() => i))]);
    if (next < 0) return;
    const request = standIns[next]!.requests[seen[next]!]!;
    seen[next]!++;
    if (request.answered !== undefined) continue;
    const left = deadlineAt() - clock.now();
    clock.advance(left > 0 ? Math.min(ATTEMPT_TIMEOUT_MS, left) : ATTEMPT_TIMEOUT_MS);
  }
}
