// What a new user does from the README alone: save the minimal workflow it shows, on a fresh
// repository, with no secrets, and ask. The workflow is read from the README's own block; the job
// it starts, the token's permissions and the step's inputs all come from that block; the
// committed bundle runs as a runner starts it, against the GitHub emulator.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GitHubEmulator } from '../github-emulator/emulator.js';
import {
  type Workspace,
  asker,
  closeChecked,
  expectExit,
  expectPermalinksResolve,
  makeWorkspace,
  questionIssue,
  removeTempDirs,
  runBundle,
  seededRepo,
  snapshotAction,
  traceOf,
} from '../action/harness.js';
import { PROJECT_ROOT } from '../helpers/cli.js';
import { TempDirs, isolatedGitEnv } from '../helpers/git-repo.js';
import { type SimulatedEvent, type Workflow, granted, jobsFor, parseWorkflow } from '../package/workflow-model.js';
import { samplesOf } from './samples.js';

/** The first YAML block of the README's "Set it up on your repository" section, as a reader copies it. */
function readmeWorkflow(): Workflow {
  const start = samplesOf('README.md').find((s) => s.lang === 'yaml');
  if (!start) throw new Error('README.md shows no workflow');
  return parseWorkflow(start.text, `README.md:${start.line}`);
}

afterAll(async () => {
  await removeTempDirs();
  await dirs.cleanup();
});

describe("the README's minimal workflow, on a fresh repository with no secrets", () => {
  const workflow = readmeWorkflow();
  const jobId = 'answer';
  const permissions = granted(workflow, jobId)!;
  const step = workflow.jobs[jobId]!.steps!.find((s) => /^wiki-steward\/wiki-steward@/.test(s.uses ?? ''))!;
  // Inputs as the runner passes them: every value a string.
  const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, String(v)]));
  let bundle: string;
  let template: Workspace;
  let gh: GitHubEmulator;
  let ws: Workspace;

  beforeAll(async () => {
    bundle = await snapshotAction();
    template = await makeWorkspace();
  });
  afterEach(async () => {
    if (gh) await closeChecked(gh);
    gh = undefined as never;
  });

  /** The emulated repository, whose workflow token has exactly the job's permissions. */
  async function repository(): Promise<void> {
    const token = {
      login: 'github-actions[bot]',
      type: 'Bot' as const,
      issues: permissions.issues ?? 'none',
      contents: permissions.contents ?? 'none',
      pull_requests: permissions['pull-requests'] ?? 'none',
    };
    ({ gh, ws } = await seededRepo(template, { tokens: { ghs_workflow: token } }));
  }

  async function ask(number: number, title: string, withInputs = inputs) {
    asker(gh, 'alice', 'triage');
    questionIssue(gh, number, title);
    const event = gh.events.issues('opened', number);
    expect(jobsFor(workflow, { name: 'issues', payload: event as SimulatedEvent['payload'] })).toEqual([jobId]);
    // No `env:` and no secrets: the runner's environment, the step's inputs, the workflow's token.
    return runBundle({ bundle, githubEnv: gh.env(), workspace: ws, eventName: 'issues', payload: event, inputs: withInputs, token: 'ghs_workflow' });
  }

  it('grants the job only what answering needs', () => {
    expect(permissions).toEqual({ contents: 'read', issues: 'write' });
  });

  it('answers a question the wiki covers, with permalinks that resolve', async () => {
    await repository();
    const run = await ask(1, 'How do I install the pre-commit hook?');
    expectExit(run, 0);
    const [comment] = gh.state.commentsOn(1);
    expect(comment?.user).toBe('github-actions[bot]');
    expect(traceOf(comment!.body)?.outcome).toBe('answered');
    expect((await expectPermalinksResolve(comment!.body, ws)).length).toBeGreaterThan(0);
    expect([...gh.state.issue(1).labels].sort()).toEqual(['question', 'wiki:answered']);
    expect(run.outputs['comment-url']).toMatch(/#issuecomment-\d+$/);
  });

  it('answers a question it cannot cover with a cold answer, and opens no pull request', async () => {
    await repository();
    const run = await ask(2, 'How do I bake sourdough bread?');
    expectExit(run, 0);
    expect(traceOf(gh.state.commentsOn(2)[0]!.body)?.outcome).toBe('cold');
    expect(gh.state.issue(2).labels).toContain('wiki:cold');
    expect(gh.writes({ successfulOnly: true }).filter((r) => /\/git\/|\/pulls/.test(r.route ?? ''))).toEqual([]);
  });

  it('needs its `capture-pull-requests: false`: without it, the same token cannot open the capture', async () => {
    await repository();
    const { 'capture-pull-requests': _off, ...rest } = inputs;
    const run = await ask(3, 'How do I bake sourdough bread?', rest);
    expect(run.code).toBe(1);
    const fix = /the workflow's token may not .*: give the job `contents: write` and `pull-requests: write`, or set the input `capture-pull-requests: false`/;
    expect(run.stdout).toMatch(fix);
    // The asker still has the answer, which says why no capture was opened.
    const [comment] = gh.state.commentsOn(3);
    expect(traceOf(comment!.body)?.outcome).toBe('cold');
    expect(comment!.body).toMatch(fix);
    // The troubleshooting table names the same fix, word for word.
    const troubleshooting = readFileSync(path.join(PROJECT_ROOT, 'docs/action.md'), 'utf8');
    expect(troubleshooting).toContain(
      'give the job `contents: write` and `pull-requests: write`, or set the input `capture-pull-requests: false` to answer only',
    );
  });
});

/** Kills an npm that hangs (a synchronous spawn cannot be interrupted): far above any run on a loaded machine, never a measure. */
const NPM_HANG_GUARD_MS = 240_000;
const dirs = new TempDirs();

describe("the README's quickstart", () => {
  const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
  const quickstart = samplesOf('README.md').find((s) => s.line > readme.slice(0, readme.indexOf('## Quickstart')).split('\n').length);
  const commands = (quickstart?.text ?? '')
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);

  it('is two commands: install and run the example, then the tests', () => {
    expect(commands).toEqual(['npm ci && npm run example', 'npm test']);
  });

  it('its first command, on a fresh copy of the repository, installs from the lockfile and answers from the example wiki with no keys', async () => {
    // What a clone holds: the files the repository tracks (and new ones not ignored), nothing built, no node_modules.
    const dir = await dirs.make('ws-quickstart-');
    const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    for (const file of files.split('\0').filter(Boolean)) {
      if (!existsSync(path.join(PROJECT_ROOT, file))) continue;
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      copyFileSync(path.join(PROJECT_ROOT, file), path.join(dir, file));
    }
    // npm offline, from the cache the project's own `npm ci` filled (as .ci/run does); no provider keys.
    const env = isolatedGitEnv({ npm_config_offline: 'true' });
    const keep = new Set(['npm_config_cache', 'npm_config_userconfig', 'npm_config_globalconfig', 'npm_config_registry', 'npm_config_offline']);
    for (const key of Object.keys(env)) if ((/^npm_/i.test(key) && !keep.has(key.toLowerCase())) || /_API_KEY$|_TOKEN$/.test(key)) delete env[key];
    const run = spawnSync('bash', ['-c', commands[0]!], { cwd: dir, env, encoding: 'utf8', timeout: NPM_HANG_GUARD_MS });
    expect(run.status, `${commands[0]} exited ${run.status}:\n${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/concepts\/orientation-ladder\.md/);
    expect(run.stdout).toMatch(/^- pages read: \d+$/m);
  });

  it('its test command is the one CI runs (.ci/run), and its first runs the example offline with no keys', () => {
    const ci = readFileSync(path.join(PROJECT_ROOT, '.ci/run'), 'utf8');
    expect(ci.split('\n')).toContain(commands[1]);
    const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.example).toMatch(/dist\/cli\.js ask --wiki examples\/wiki /);
    expect(pkg.scripts.example).not.toMatch(/--llm|--web/);
  });
});
