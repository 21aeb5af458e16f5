// Runs the Action as a GitHub runner starts it, with the runner's environment (INPUT_* filled from
// action.yml's defaults and then overridden, GITHUB_* variables, file commands for outputs and the
// step summary): in this process through the entry function the bundle calls (`runStep`), or as
// the committed bundle itself, `node <action>/action/index.js` with cwd the workspace
// (`runBundle`), for the contract tests that only a real process can show — those are all in
// bundle-contract.test.ts (and copilot.test.ts, which starts the Copilot CLI from the bundle).
//
// The child is spawned asynchronously: the GitHub emulator lives in this process's event loop.
import { execFile, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp as makeTemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import yaml from 'js-yaml';
import { expect } from 'vitest';
import {
  type FaultMatch,
  type GitHubEmulator,
  type GitHubEmulatorOptions,
  type RecordedRequest,
  GRAPHQL_ROUTE,
  isGraphqlQuery,
  startGitHubEmulator,
} from '../github-emulator/emulator.js';
import { GitRepo } from '../github-emulator/git-repo.js';
import { expectAllResponsesValid } from '../github-emulator/openapi-validate.js';
import { runAction } from '../../src/action/run-action.js';
import { runCli as runCliInProcess } from '../helpers/cli-in-process.js';
import type { Clock } from '../../src/net/clock.js';
import { TEST_WAIT_SCALE } from '../../src/net/http-json.js';
import { REPO, SERVER } from './routes.js';

const exec = promisify(execFile);
/** Temp folders made here, removed by `removeTempDirs()`. */
const tempDirs: string[] = [];
async function mkdtemp(prefix: string): Promise<string> {
  const dir = await makeTemp(prefix);
  tempDirs.push(dir);
  return dir;
}
export async function removeTempDirs(): Promise<void> {
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 5 })));
}

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The action's inputs and their defaults, as the runner reads them from action.yml. */
export async function actionInputDefaults(): Promise<Record<string, string>> {
  const manifest = yaml.load(await readFile(path.join(projectRoot, 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }> };
  return Object.fromEntries(Object.entries(manifest.inputs).map(([name, spec]) => [name, String(spec.default ?? '')]));
}

/**
 * A copy of the action as the runner downloads it (action.yml + action/), taken once so a
 * concurrent rebuild of action/index.js by another process cannot change the bundle mid-suite.
 */
export async function snapshotAction(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ws-action-'));
  await cp(path.join(projectRoot, 'action'), path.join(dir, 'action'), { recursive: true });
  await cp(path.join(projectRoot, 'action.yml'), path.join(dir, 'action.yml'));
  return path.join(dir, 'action/index.js');
}

export interface Workspace {
  dir: string;
  sha: string;
}

const git = (cwd: string, ...args: string[]) =>
  exec(
    'git',
    [
      '-c',
      'gc.auto=0',
      '-c',
      'maintenance.auto=false',
      '-c',
      'user.name=Wiki Test',
      '-c',
      'user.email=wiki-test@example.com',
      '-c',
      'commit.gpgsign=false',
      '-c',
      'init.defaultBranch=main',
      ...args,
    ],
    { cwd },
  );

/**
 * A checkout: a git repository with examples/wiki at `wiki/` (plus `extra` files; `null` removes
 * a file), committed. The wiki's index files are regenerated first (`wiki-steward index`), so the
 * workspace starts fresh whatever state examples/wiki is in while someone edits it;
 * `{ index: false }` keeps them as they are. `{ wiki: false }` leaves the wiki out (a repository
 * with no wiki at all).
 */
export async function makeWorkspace(extra: Record<string, string | null> = {}, opts: { wiki?: boolean; index?: boolean } = {}): Promise<Workspace> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ws-checkout-'));
  await git(dir, 'init', '-q');
  if (opts.wiki !== false) await cp(path.join(projectRoot, 'examples/wiki'), path.join(dir, 'wiki'), { recursive: true });
  await writeFile(path.join(dir, 'README.md'), '# octo-org/wiki\n');
  for (const [rel, content] of Object.entries(extra)) {
    if (content === null) {
      await rm(path.join(dir, rel), { recursive: true, force: true });
      continue;
    }
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), content);
  }
  if (opts.wiki !== false && opts.index !== false) {
    const indexed = await runCli(['index', '--wiki', 'wiki'], dir);
    if (indexed.code !== 0) throw new Error(`wiki-steward index failed in the workspace (exit ${indexed.code}):\n${indexed.stdout}${indexed.stderr}`);
  }
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '-q', '-m', 'wiki');
  const sha = (await git(dir, 'rev-parse', 'HEAD')).stdout.trim();
  return { dir, sha };
}

/**
 * What `actions/checkout` gives a job: a clone of the emulated repository (its bare git directory,
 * `gh.gitDir()`) with `ref` checked out — a branch (the default: the repository's default branch)
 * or a commit sha — and its full history, so `GITHUB_SHA` and every sha the API reports agree.
 */
export async function checkout(gitDir: string, ref = 'main'): Promise<Workspace> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ws-clone-'));
  if (/^[0-9a-f]{40}$/.test(ref)) {
    await git(dir, 'clone', '-q', '--no-checkout', gitDir, '.');
    await git(dir, '-c', 'advice.detachedHead=false', 'checkout', '-q', ref);
    return { dir, sha: ref };
  }
  // The branch's commit, read from the emulated repository as its refs are read (no git process).
  const sha = GitRepo.at(gitDir).refSha(`refs/heads/${ref}`);
  if (sha === null) throw new Error(`checkout: the emulated repository has no branch ${ref}`);
  await git(dir, 'clone', '-q', '--branch', ref, gitDir, '.');
  return { dir, sha };
}

/** `git <args>` on a bare repository (the emulator's `gh.gitDir()`), its stdout. */
export async function bareGit(gitDir: string, ...args: string[]): Promise<string> {
  return (await exec('git', ['--git-dir', gitDir, ...args], { maxBuffer: 64 * 1024 * 1024 })).stdout;
}

/** The CLI in this process (`wiki-steward …` in `cwd`, with `env` over this process's); never throws on a non-zero exit. */
export async function runCli(args: string[], cwd: string, env?: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCliInProcess(args, cwd, { env: { ...process.env, ...env } });
}

/** A file as committed at `sha` (what a permalink shows). */
export async function fileAt(workspace: Workspace, file: string): Promise<string> {
  return (await git(workspace.dir, 'show', `${workspace.sha}:${file}`)).stdout;
}

export interface RunOptions {
  bundle: string;
  /** GITHUB_API_URL, GITHUB_SERVER_URL, GITHUB_REPOSITORY… (the emulator's gh.env()). */
  githubEnv: Record<string, string>;
  workspace: Workspace | undefined;
  eventName: string;
  payload?: unknown;
  /** Input overrides by their action.yml name (`dry-run`, `min-permission`, …). */
  inputs?: Record<string, string>;
  env?: Record<string, string>;
  token?: string;
  /** For the bundle: a safety net that kills a run still going after this long (its code is then null). */
  killAfterMs?: number;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  /** Start to exit, in milliseconds (for bench-style reports; no test asserts it). */
  ms: number;
}

/** Parses GITHUB_OUTPUT's file-command format: `name<<DELIM\nvalue\nDELIM\n` (or `name=value`). */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const name = heredoc[1] ?? '';
      const delimiter = heredoc[2] ?? '';
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i] ?? '');
      if (i >= lines.length) throw new Error(`GITHUB_OUTPUT: no closing delimiter for ${name}`);
      out[name] = value.join('\n');
    } else if (line.includes('=')) {
      out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    } else if (line.trim() !== '') {
      throw new Error(`GITHUB_OUTPUT: unparsable line ${JSON.stringify(line)}`);
    }
  }
  return out;
}

/** A step's files and environment, as the runner prepares them before it starts the Action. */
interface PreparedStep {
  env: NodeJS.ProcessEnv;
  outputPath: string;
  summaryPath: string;
  cwd: string;
}

async function prepareStep(options: RunOptions): Promise<PreparedStep> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'ws-run-'));
  const eventPath = path.join(tmp, 'event.json');
  const summaryPath = path.join(tmp, 'step_summary.md');
  const outputPath = path.join(tmp, 'output.txt');
  await writeFile(eventPath, JSON.stringify(options.payload ?? {}));
  await writeFile(summaryPath, '');
  await writeFile(outputPath, '');
  const token = options.token ?? 'ghs_test_token';

  const inputs = { ...(await actionInputDefaults()), ...(options.inputs ?? {}) };
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: 'C.UTF-8',
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_ACTION: 'wiki-steward',
    GITHUB_ACTOR: 'github-actions[bot]',
    GITHUB_RUN_ID: '1',
    GITHUB_RUN_NUMBER: '1',
    GITHUB_WORKFLOW: 'wiki-steward',
    GITHUB_REF: 'refs/heads/main',
    RUNNER_OS: 'Linux',
    RUNNER_TEMP: tmp,
    ...options.githubEnv,
    GITHUB_EVENT_NAME: options.eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    GITHUB_OUTPUT: outputPath,
    // The emulator's own limits apply; GitHub's write spacing and retry waits are not waited out.
    [TEST_WAIT_SCALE]: '0',
    ...(options.workspace ? { GITHUB_WORKSPACE: options.workspace.dir, GITHUB_SHA: options.workspace.sha } : {}),
  };
  // The runner's naming: `INPUT_` + the name upper-cased, spaces as `_`, hyphens kept.
  for (const [name, value] of Object.entries(inputs)) {
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value.replace('${{ github.token }}', token);
  }
  Object.assign(env, options.env ?? {});
  return { env, outputPath, summaryPath, cwd: options.workspace?.dir ?? tmp };
}

async function stepResult(step: PreparedStep, run: { code: number | null; stdout: string; stderr: string; ms: number }): Promise<RunResult> {
  return { ...run, outputs: parseOutputFile(await readFile(step.outputPath, 'utf8')), summary: await readFile(step.summaryPath, 'utf8') };
}

/**
 * The Action in this process, through the entry function the bundle calls (`runAction`), with the
 * same environment as an object and a buffer for its log: no process to start, and nothing shared
 * with another run. `clock` drives the provider waits a test exercises.
 */
export async function runStep(options: Omit<RunOptions, 'bundle'> & { clock?: Clock }): Promise<RunResult> {
  const step = await prepareStep({ ...options, bundle: '' });
  let stdout = '';
  const started = performance.now();
  const code = await runAction({ env: step.env, write: (text) => (stdout += text), ...(options.clock ? { clock: options.clock } : {}) });
  return stepResult(step, { code, stdout, stderr: '', ms: performance.now() - started });
}

/** The committed bundle as a runner starts it: `node action/index.js`, cwd the workspace. */
export async function runBundle(options: RunOptions): Promise<RunResult> {
  const step = await prepareStep(options);
  const started = performance.now();
  const child = spawn(process.execPath, [options.bundle], { cwd: step.cwd, env: step.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const safetyNet = options.killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.killAfterMs);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c) => resolve(c));
  }).finally(() => clearTimeout(safetyNet));
  return stepResult(step, { code, stdout, stderr, ms: performance.now() - started });
}

/** The hidden trace JSON of a steward comment, parsed back (independently of src/). */
export function traceOf(body: string): Record<string, any> | undefined {
  const m = /<!-- wiki-steward:trace ([\s\S]*?) -->/.exec(body);
  return m?.[1] === undefined ? undefined : (JSON.parse(m[1]) as Record<string, any>);
}

/** The comment body a reader sees: without HTML comments. */
export const visible = (body: string): string => body.replace(/<!--[\s\S]*?-->/g, '');

/**
 * A request that changed something: not a GET or HEAD, nor a GraphQL query (the steward asks
 * GraphQL who its token belongs to; that reads).
 */
export const isWrite = (r: Pick<RecordedRequest, 'method' | 'route' | 'body'>): boolean =>
  r.method !== 'GET' && r.method !== 'HEAD' && !(r.route === GRAPHQL_ROUTE && isGraphqlQuery(r.body));

/** A fresh emulated `octo-org/wiki` seeded from a workspace (or folder), and a checkout of its main. */
export async function seededRepo(
  from: Workspace | string,
  options: Omit<GitHubEmulatorOptions, 'repos' | 'serverUrl'> = {},
): Promise<{ gh: GitHubEmulator; ws: Workspace }> {
  const gh = await startGitHubEmulator({
    ...options,
    repos: [{ owner: 'octo-org', name: 'wiki', seedFrom: typeof from === 'string' ? from : from.dir }],
    serverUrl: SERVER,
  });
  return { gh, ws: await checkout(gh.gitDir()) };
}

export type RepoRole = 'admin' | 'maintain' | 'write' | 'triage' | 'read';

/** Gives `login` a role on the emulated repository; returns the login, for the issue or comment it writes. */
export function asker(gh: GitHubEmulator, login: string, role: RepoRole = 'triage'): string {
  gh.state.setPermission(login, role);
  return login;
}

export interface QuestionIssue {
  body?: string;
  user?: string;
  labels?: string[];
  locked?: boolean;
  pull_request?: boolean;
}

/** An issue on the emulated repository, by alice with the trigger label unless told otherwise. */
export function questionIssue(gh: GitHubEmulator, number: number, title: string, opts: QuestionIssue = {}) {
  return gh.state.addIssue({
    number,
    title,
    body: opts.body ?? '',
    user: opts.user ?? 'alice',
    labels: opts.labels ?? ['question'],
    locked: opts.locked,
    pull_request: opts.pull_request,
  });
}

/** After each test: every response the emulator gave matched GitHub's schemas; then it stops. */
export async function closeChecked(gh: GitHubEmulator): Promise<void> {
  expectAllResponsesValid(gh.requests);
  await gh.close();
}

// -----------------------------------------------------------------------------------------------
// Two runs at once, made deterministic with the emulator's held answers (events, never sleeps).

/** A promise and the function that settles it: one run waits on an event in another. */
export function signal(): { promise: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
}

/** Settles once `n` have arrived (or `open()` is called); each arrival waits for it. */
function gate(n: number): { arrive: () => Promise<void>; open: () => void } {
  const all = signal();
  let arrived = 0;
  return {
    arrive: () => {
      if (++arrived >= n) all.fire();
      return all.promise;
    },
    open: all.fire,
  };
}

/**
 * Two runs that both look for their comment or issue, both find none, and both create one:
 * - `'one after the other'`: the first run's look (`read`) is answered as the state was when it
 *   asked, but only once the second run's create has been handled; the second run starts when the
 *   first run's look was handled. The second run's thing is the older one.
 * - `'together'`: both looks are answered once both were handled, and both creates once both were
 *   handled, so each run's next look sees both things.
 * Nothing else is held. Should a run end early (a failure), everything held is let go, so a
 * broken fix fails the test instead of hanging it.
 */
export async function twinRuns<R>(
  gh: GitHubEmulator,
  o: { read: FaultMatch; create: FaultMatch; mode: 'one after the other' | 'together' },
  first: () => Promise<R>,
  second: () => Promise<R>,
): Promise<[R, R]> {
  if (o.mode === 'together') {
    const reads = gate(2);
    const creates = gate(2);
    gh.faults.hold({ match: o.read, times: 2, until: reads.arrive });
    gh.faults.hold({ match: o.create, times: 2, until: creates.arrive });
    const open = () => {
      reads.open();
      creates.open();
    };
    return Promise.all([first().finally(open), second().finally(open)]);
  }
  const firstRead = signal();
  const secondCreated = signal();
  gh.faults.hold({
    match: o.read,
    until: () => {
      firstRead.fire();
      return secondCreated.promise;
    },
  });
  // The first create is the second run's: the first run cannot create before its look is answered.
  gh.faults.hold({ match: o.create, until: () => secondCreated.fire() });
  const a = first().finally(() => firstRead.fire());
  await firstRead.promise;
  const b = second().finally(() => secondCreated.fire());
  return Promise.all([a, b]);
}

// -----------------------------------------------------------------------------------------------
// Assertions the Action tests share.

/** The writes among these requests, as `METHOD route status`. */
export const writesOf = (requests: readonly RecordedRequest[]): string[] => requests.filter(isWrite).map((r) => `${r.method} ${r.route} ${r.status}`);

/** The step's exit code, or a failure that shows its log (so a failing scenario says why). */
export function expectExit(r: Pick<RunResult, 'code' | 'stdout' | 'stderr'>, code: number): void {
  expect(r.code, `exit ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`).toBe(code);
}

/** The element, or a failed test. */
export function at<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`expected an element at ${index}, got ${list.length} elements`);
  return item;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const PERMALINK = new RegExp(`\\]\\((${escapeRe(SERVER)}/${escapeRe(REPO)}/blob/([0-9a-f]{40})/([^?)\\s]+)\\?plain=1#L(\\d+)(?:-L(\\d+))?)\\)`, 'g');

/**
 * Every permalink in the body points at the workspace commit, at a file that exists there, at
 * lines inside it; and every wiki citation of the trace quotes text that is on its cited lines.
 */
export async function expectPermalinksResolve(body: string, workspace: Workspace): Promise<Array<{ file: string; from: number; to: number }>> {
  const links = [...body.matchAll(PERMALINK)].map((m) => ({ sha: m[2], file: decodeURIComponent(m[3] ?? ''), from: Number(m[4]), to: Number(m[5] ?? m[4]) }));
  for (const link of links) {
    expect(link.sha).toBe(workspace.sha);
    const lines = (await fileAt(workspace, link.file)).split('\n');
    expect(link.from).toBeGreaterThanOrEqual(1);
    expect(link.to).toBeGreaterThanOrEqual(link.from);
    expect(link.to).toBeLessThanOrEqual(lines.length);
  }
  const trace = traceOf(body);
  const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
  for (const c of (trace?.citations ?? []) as Array<{ path?: string; lines?: [number, number]; quote?: string }>) {
    if (!c.path || !c.lines || !c.quote) continue;
    const lines = (await fileAt(workspace, `wiki/${c.path}`)).split('\n');
    expect(squash(lines.slice(c.lines[0] - 1, c.lines[1]).join('\n'))).toContain(squash(c.quote));
  }
  return links;
}
