// What the provider tests share: the example wiki, fake keys, an environment that holds only the
// variables a test sets (runCli reads process.env), `ask` through the CLI in-process or as the
// built dist/cli.js in a child process, and an in-process session for the few cases the CLI
// cannot reach.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { askQuestion, openAskSession } from '../../src/answer/ask.js';
import { type ProviderOptions, createProviders } from '../../src/answer/providers.js';
import { openWorkspace } from '../../src/config/workspace.js';
import type { Trace } from '../../src/answer/trace.js';
import type { RetryPolicy } from '../../src/net/http-json.js';
import { type CliRun, runCli } from '../helpers/cli-in-process.js';

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

/** Every variable that changes which provider runs or how it waits. */
const PROVIDER_ENV = [
  'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'TAVILY_API_KEY', 'BRAVE_API_KEY', 'SEARXNG_URL', 'WIKI_STEWARD_HTTP_TIMEOUT_MS', 'WIKI_STEWARD_TIME_SCALE',
  'COPILOT_GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_TOKEN', 'COPILOT_STAND_IN', 'COPILOT_STAND_IN_LOG',
];

/** Waits shrunk 100-fold, so backoff and retry-after cost milliseconds. */
export const FAST_ENV = { WIKI_STEWARD_TIME_SCALE: '0.01' } as const;

/** Runs `work` with exactly these provider variables set (every other one unset), then restores them. */
export async function withEnv<T>(vars: Record<string, string | undefined>, work: () => Promise<T>): Promise<T> {
  const saved = new Map(PROVIDER_ENV.map((k) => [k, process.env[k]]));
  for (const k of PROVIDER_ENV) delete process.env[k];
  for (const [k, v] of Object.entries(vars)) if (v !== undefined) process.env[k] = v;
  try {
    return await work();
  } finally {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** `wiki-steward ask --wiki WIKI --json ...flags QUESTION`, in-process, with exactly `env` set. */
export async function askCli(question: string, flags: string[], env: Record<string, string | undefined>, wiki = EXAMPLE_WIKI): Promise<CliRun & { trace: Trace; ms: number }> {
  const started = performance.now();
  const run = await withEnv(env, () => runCli(['ask', '--wiki', wiki, '--json', ...flags, question], wiki));
  const ms = performance.now() - started;
  expect(run.code, `exit ${run.code}\nstderr: ${run.stderr}\nstdout: ${run.stdout.slice(0, 2000)}`).toBe(0);
  return { ...run, trace: JSON.parse(run.stdout) as Trace, ms };
}

/** Same, without insisting on exit 0 or JSON output. */
export async function runAsk(args: string[], env: Record<string, string | undefined>, cwd = EXAMPLE_WIKI): Promise<CliRun> {
  return withEnv(env, () => runCli(['ask', ...args], cwd));
}

/** The built CLI as a child process (asynchronous, so the stand-ins in this process keep answering). */
export function runBuiltCli(args: string[], env: Record<string, string | undefined>, cwd = EXAMPLE_WIKI): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !PROVIDER_ENV.includes(k)));
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI_JS, ...args], { cwd, env: { ...base, ...env }, timeout: 20_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Retries fast, short timeout: for the in-process cases. */
export const FAST_RETRY: RetryPolicy = { retries: 2, baseDelayMs: 5, maxDelayMs: 2000, timeoutMs: 500 };

/** One question through createProviders + openAskSession + askQuestion, without the CLI. */
export async function askInProcess(question: string, options: Omit<ProviderOptions, 'retry'> & { retry?: RetryPolicy }, wiki = EXAMPLE_WIKI): Promise<Trace> {
  const providers = createProviders({ retry: FAST_RETRY, ...options });
  const workspace = await openWorkspace({ cwd: wiki, wikiFlag: wiki });
  const session = await openAskSession(workspace, providers);
  return askQuestion(session, question);
}

/** Asserts none of the fake keys appears in any of the texts. */
export function expectNoKeys(...texts: string[]): void {
  for (const text of texts) for (const [name, key] of Object.entries(KEYS)) expect(text.includes(key), `${name} leaked: …${text.slice(Math.max(0, text.indexOf(key) - 120), text.indexOf(key) + 40)}…`).toBe(false);
}

export const INSTALL_PAGE = 'how-to/install-pre-commit-hook.md';
export const INSTALL_QUESTION = 'How do I install the pre-commit hook?';
/** Line 18 of how-to/install-pre-commit-hook.md, verbatim. */
export const INSTALL_QUOTE =
  '`wiki-steward hooks install` adds a git pre-commit hook that validates staged wiki pages and regenerates their index files, so invalid pages never reach a commit.';
export const INSTALL_CLAIM = { text: 'The installer adds a pre-commit hook that validates staged pages.', citations: [{ path: INSTALL_PAGE, start_line: 18, end_line: 18, quote: INSTALL_QUOTE }] };
