// GitHub Actions workflow files as data, for tests: parse with js-yaml, normalise `on:` and
// `permissions:`, check the shape GitHub requires, evaluate the small `if:` expressions the
// workflows use, and run a step's `run:` script the way a runner does.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { PROJECT_ROOT } from '../helpers/cli.js';

export const WORKFLOWS_DIR = path.join(PROJECT_ROOT, '.github', 'workflows');

export interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  [key: string]: unknown;
}

export interface Job {
  'runs-on'?: unknown;
  if?: string;
  needs?: string | string[];
  permissions?: Permissions;
  concurrency?: unknown;
  outputs?: Record<string, string>;
  steps?: Step[];
  [key: string]: unknown;
}

export type Level = 'none' | 'read' | 'write';
export type Permissions = Record<string, Level> | 'read-all' | 'write-all';

export interface Workflow {
  file: string;
  text: string;
  name?: string;
  on: Record<string, Record<string, unknown> | null>;
  permissions?: Permissions;
  jobs: Record<string, Job>;
  raw: Record<string, unknown>;
}

export const workflowFiles = (): string[] =>
  readdirSync(WORKFLOWS_DIR)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort();

/** `on:` as GitHub reads it: a string, a list of events, or a map of event → filters. */
function normaliseOn(on: unknown): Workflow['on'] {
  if (typeof on === 'string') return { [on]: null };
  if (Array.isArray(on)) return Object.fromEntries(on.map((e) => [String(e), null]));
  if (on && typeof on === 'object') return on as Workflow['on'];
  throw new Error(`'on' must be a string, a list or a map, got ${JSON.stringify(on)}`);
}

export function parseWorkflow(text: string, file = '<inline>'): Workflow {
  const raw = yaml.load(text) as Record<string, unknown>;
  if (!raw || typeof raw !== 'object') throw new Error(`${file}: not a YAML map`);
  return {
    file,
    text,
    name: raw.name as string | undefined,
    on: normaliseOn(raw.on),
    permissions: raw.permissions as Permissions | undefined,
    jobs: (raw.jobs ?? {}) as Record<string, Job>,
    raw,
  };
}

export const loadWorkflow = (file: string): Workflow => parseWorkflow(readFileSync(path.join(WORKFLOWS_DIR, file), 'utf8'), file);

const PERMISSION_SCOPES = [
  'actions',
  'attestations',
  'checks',
  'contents',
  'copilot-requests',
  'deployments',
  'discussions',
  'id-token',
  'issues',
  'models',
  'packages',
  'pages',
  'pull-requests',
  'repository-projects',
  'security-events',
  'statuses',
] as const;

/**
 * A job's token permissions as a full map (every scope, `none` when not granted), or undefined when
 * neither the job nor the workflow sets them (then the repository's default applies, which may be
 * write-all: never acceptable here).
 */
export function effectivePermissions(workflow: Workflow, jobId: string): Record<string, Level> | undefined {
  const set = workflow.jobs[jobId]?.permissions ?? workflow.permissions;
  if (set === undefined) return undefined;
  const all = (level: Level) => Object.fromEntries(PERMISSION_SCOPES.map((s) => [s, level])) as Record<string, Level>;
  if (set === 'read-all') return all('read');
  if (set === 'write-all') return all('write');
  return { ...all('none'), ...set };
}

/** Only the scopes granted (read or write), for readable comparisons. */
export function granted(workflow: Workflow, jobId: string): Record<string, Level> | undefined {
  const p = effectivePermissions(workflow, jobId);
  return p && Object.fromEntries(Object.entries(p).filter(([, level]) => level !== 'none'));
}

const TOP_KEYS = new Set(['name', 'run-name', 'on', 'permissions', 'env', 'defaults', 'concurrency', 'jobs']);
const JOB_KEYS = new Set([
  'name',
  'permissions',
  'needs',
  'if',
  'runs-on',
  'snapshot',
  'environment',
  'concurrency',
  'outputs',
  'env',
  'defaults',
  'steps',
  'timeout-minutes',
  'strategy',
  'continue-on-error',
  'container',
  'services',
]);
const STEP_KEYS = new Set(['id', 'if', 'name', 'uses', 'run', 'working-directory', 'shell', 'with', 'env', 'continue-on-error', 'timeout-minutes']);
const EVENTS = new Set([
  'branch_protection_rule',
  'check_run',
  'check_suite',
  'create',
  'delete',
  'deployment',
  'deployment_status',
  'discussion',
  'discussion_comment',
  'fork',
  'gollum',
  'issue_comment',
  'issues',
  'label',
  'merge_group',
  'milestone',
  'page_build',
  'public',
  'pull_request',
  'pull_request_review',
  'pull_request_review_comment',
  'pull_request_target',
  'push',
  'registry_package',
  'release',
  'repository_dispatch',
  'schedule',
  'status',
  'watch',
  'workflow_call',
  'workflow_dispatch',
  'workflow_run',
]);
const LEVELS = new Set(['none', 'read', 'write']);

function permissionProblems(where: string, permissions: unknown): string[] {
  if (permissions === undefined || permissions === 'read-all' || permissions === 'write-all') return [];
  if (!permissions || typeof permissions !== 'object' || Array.isArray(permissions)) return [`${where}: permissions must be a map, read-all or write-all`];
  return Object.entries(permissions).flatMap(([scope, level]) => [
    ...((PERMISSION_SCOPES as readonly string[]).includes(scope) ? [] : [`${where}: unknown permission '${scope}'`]),
    ...(LEVELS.has(level as string) ? [] : [`${where}: permission ${scope} must be none, read or write, got ${JSON.stringify(level)}`]),
  ]);
}

/** The YAML-level shape GitHub requires of a workflow file, as a list of problems (empty: fine). */
export function schemaProblems(workflow: Workflow): string[] {
  const problems: string[] = [];
  const at = workflow.file;
  for (const key of Object.keys(workflow.raw)) if (!TOP_KEYS.has(key)) problems.push(`${at}: unknown top-level key '${key}'`);
  if (Object.keys(workflow.on).length === 0) problems.push(`${at}: no events under 'on'`);
  for (const event of Object.keys(workflow.on)) if (!EVENTS.has(event)) problems.push(`${at}: unknown event '${event}'`);
  const schedule = workflow.on.schedule as unknown;
  if (
    schedule !== undefined &&
    (!Array.isArray(schedule) ||
      schedule.some((s) => typeof (s as { cron?: unknown }).cron !== 'string' || (s as { cron: string }).cron.trim().split(/\s+/).length !== 5))
  ) {
    problems.push(`${at}: schedule must be a list of { cron: '<5 fields>' }`);
  }
  problems.push(...permissionProblems(at, workflow.permissions));
  const jobIds = Object.keys(workflow.jobs);
  if (jobIds.length === 0) problems.push(`${at}: no jobs`);
  for (const [id, job] of Object.entries(workflow.jobs)) {
    const where = `${at}: job '${id}'`;
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(id)) problems.push(`${where}: invalid job id`);
    if (!job || typeof job !== 'object') {
      problems.push(`${where}: not a map`);
      continue;
    }
    for (const key of Object.keys(job)) if (!JOB_KEYS.has(key)) problems.push(`${where}: unknown key '${key}'`);
    if (job['runs-on'] === undefined) problems.push(`${where}: no runs-on`);
    if (!Array.isArray(job.steps) || job.steps.length === 0) problems.push(`${where}: no steps`);
    for (const need of [job.needs ?? []].flat()) if (!jobIds.includes(need)) problems.push(`${where}: needs unknown job '${need}'`);
    problems.push(...permissionProblems(where, job.permissions));
    (job.steps ?? []).forEach((step, i) => {
      const s = `${where} step ${i + 1}${step?.name ? ` (${step.name})` : ''}`;
      if (!step || typeof step !== 'object') return problems.push(`${s}: not a map`);
      for (const key of Object.keys(step)) if (!STEP_KEYS.has(key)) problems.push(`${s}: unknown key '${key}'`);
      const kinds = ['uses', 'run'].filter((k) => step[k] !== undefined);
      if (kinds.length !== 1) problems.push(`${s}: needs exactly one of uses and run, has ${kinds.join(' and ') || 'neither'}`);
      if (step.run !== undefined && typeof step.run !== 'string') problems.push(`${s}: run must be a string`);
      if (step.uses !== undefined && typeof step.uses !== 'string') problems.push(`${s}: uses must be a string`);
      if (step.with !== undefined && step.uses === undefined) problems.push(`${s}: 'with' without 'uses'`);
      return undefined;
    });
    const ids = (job.steps ?? []).map((s) => s?.id).filter(Boolean);
    if (new Set(ids).size !== ids.length) problems.push(`${where}: duplicate step ids`);
  }
  return problems;
}

export const allSteps = (workflow: Workflow): Array<{ jobId: string; index: number; step: Step }> =>
  Object.entries(workflow.jobs).flatMap(([jobId, job]) => (job.steps ?? []).map((step, index) => ({ jobId, index, step })));

/** Jobs `jobId` waits for, directly or through other jobs. */
export function upstreamJobs(workflow: Workflow, jobId: string): Set<string> {
  const seen = new Set<string>();
  const visit = (id: string) => {
    for (const need of [workflow.jobs[id]?.needs ?? []].flat()) {
      if (seen.has(need)) continue;
      seen.add(need);
      visit(need);
    }
  };
  visit(jobId);
  return seen;
}

// ---------------------------------------------------------------------------------------------
// `if:` expressions: the subset these workflows use — literals, property paths of the contexts
// given, ! == != && || and parentheses, contains / startsWith / endsWith — with GitHub's rules:
// string comparisons ignore case, && and || return an operand, a missing property is null.

type Value = string | number | boolean | null | Value[] | { [key: string]: Value };
type Token = { kind: 'op' | 'str' | 'num' | 'ident'; text: string };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const rest = source.slice(i);
    const space = /^\s+/.exec(rest);
    if (space) {
      i += space[0].length;
      continue;
    }
    const op = /^(==|!=|<=|>=|&&|\|\||[!()<>,])/.exec(rest);
    if (op) {
      tokens.push({ kind: 'op', text: op[0] });
      i += op[0].length;
      continue;
    }
    if (rest.startsWith("'")) {
      let j = 1;
      let text = '';
      for (;;) {
        if (j >= rest.length) throw new Error(`unterminated string in ${source}`);
        if (rest[j] === "'") {
          if (rest[j + 1] === "'") {
            text += "'";
            j += 2;
            continue;
          }
          break;
        }
        text += rest[j++];
      }
      tokens.push({ kind: 'str', text });
      i += j + 1;
      continue;
    }
    const num = /^-?\d+(\.\d+)?/.exec(rest);
    if (num) {
      tokens.push({ kind: 'num', text: num[0] });
      i += num[0].length;
      continue;
    }
    const ident = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_*][A-Za-z0-9_-]*)*/.exec(rest);
    if (ident) {
      tokens.push({ kind: 'ident', text: ident[0] });
      i += ident[0].length;
      continue;
    }
    throw new Error(`cannot read '${rest.slice(0, 20)}' in expression: ${source}`);
  }
  return tokens;
}

const truthy = (v: Value): boolean => !(v === false || v === null || v === 0 || v === '');
const fold = (v: Value): Value => (typeof v === 'string' ? v.toLowerCase() : v);
const equal = (a: Value, b: Value): boolean => fold(a) === fold(b);

const FUNCTIONS: Record<string, (...args: Value[]) => Value> = {
  contains: (hay, needle) =>
    Array.isArray(hay)
      ? hay.some((v) => equal(v, needle))
      : String(hay ?? '')
          .toLowerCase()
          .includes(String(needle ?? '').toLowerCase()),
  startswith: (s, p) =>
    String(s ?? '')
      .toLowerCase()
      .startsWith(String(p ?? '').toLowerCase()),
  endswith: (s, p) =>
    String(s ?? '')
      .toLowerCase()
      .endsWith(String(p ?? '').toLowerCase()),
};

/** Evaluates a GitHub Actions expression (with or without `${{ }}`) against the given contexts. */
export function evaluate(expression: string | boolean | undefined, contexts: Record<string, Value>): Value {
  if (expression === undefined) return true;
  if (typeof expression === 'boolean') return expression;
  const wrapped = /^\s*\$\{\{([\s\S]*)\}\}\s*$/.exec(expression);
  const tokens = tokenize(wrapped ? wrapped[1]! : expression);
  let pos = 0;
  const peek = () => tokens[pos];
  const take = (text?: string): Token => {
    const t = tokens[pos++];
    if (!t || (text !== undefined && t.text !== text)) throw new Error(`expected ${text ?? 'a token'} in: ${expression}`);
    return t;
  };
  const primary = (): Value => {
    const t = take();
    if (t.kind === 'str') return t.text;
    if (t.kind === 'num') return Number(t.text);
    if (t.kind === 'op' && t.text === '(') {
      const v = or();
      take(')');
      return v;
    }
    if (t.kind === 'op' && t.text === '!') return !truthy(primary());
    if (t.kind === 'ident') {
      if (t.text === 'true') return true;
      if (t.text === 'false') return false;
      if (t.text === 'null') return null;
      if (peek()?.text === '(') {
        const fn = FUNCTIONS[t.text.toLowerCase()];
        if (!fn) throw new Error(`unsupported function ${t.text} in: ${expression}`);
        take('(');
        const args: Value[] = [];
        while (peek()?.text !== ')') {
          args.push(or());
          if (peek()?.text === ',') take(',');
        }
        take(')');
        return fn(...args);
      }
      const [head, ...props] = t.text.split('.');
      if (!(head! in contexts)) throw new Error(`unknown context '${head}' in: ${expression}`);
      let v: Value = contexts[head!]!;
      for (const p of props) v = v && typeof v === 'object' && !Array.isArray(v) ? (v[p] ?? null) : null;
      return v;
    }
    throw new Error(`unexpected '${t.text}' in: ${expression}`);
  };
  const comparison = (): Value => {
    let left = primary();
    while (peek()?.text === '==' || peek()?.text === '!=') {
      const op = take().text;
      const right = primary();
      left = op === '==' ? equal(left, right) : !equal(left, right);
    }
    return left;
  };
  const and = (): Value => {
    let left = comparison();
    while (peek()?.text === '&&') {
      take();
      const right = comparison();
      left = truthy(left) ? right : left;
    }
    return left;
  };
  const or = (): Value => {
    let left = and();
    while (peek()?.text === '||') {
      take();
      const right = and();
      left = truthy(left) ? left : right;
    }
    return left;
  };
  const value = or();
  if (pos !== tokens.length) throw new Error(`unexpected '${tokens[pos]!.text}' in: ${expression}`);
  return value;
}

export interface SimulatedEvent {
  name: string;
  /** `github.event` */
  payload: { [key: string]: Value };
  ref?: string;
}

// pull_request and pull_request_target fire on these when `types` is not given.
const DEFAULT_TYPES: Record<string, string[]> = {
  pull_request: ['opened', 'synchronize', 'reopened'],
  pull_request_target: ['opened', 'synchronize', 'reopened'],
};

const globToRegExp = (glob: string) =>
  new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*/g, '\u0000')
      .replace(/\*/g, '[^/]*')
      .replace(/\u0000/g, '.*')
      .replace(/\?/g, '.')}$`,
  );

/** Whether the workflow starts at all for this event (its `on:` filters), before any job's `if:`. */
export function triggers(workflow: Workflow, event: SimulatedEvent): boolean {
  if (!(event.name in workflow.on)) return false;
  const filters = (workflow.on[event.name] ?? {}) as { types?: string[]; branches?: string[]; tags?: string[] };
  const action = event.payload.action as string | undefined;
  const types = filters.types ?? DEFAULT_TYPES[event.name];
  if (types && action !== undefined && !types.includes(action)) return false;
  if (event.name === 'push' && event.ref) {
    const branch = event.ref.startsWith('refs/heads/') ? event.ref.slice('refs/heads/'.length) : undefined;
    const tag = event.ref.startsWith('refs/tags/') ? event.ref.slice('refs/tags/'.length) : undefined;
    const hasFilters = filters.branches !== undefined || filters.tags !== undefined;
    if (hasFilters) {
      if (branch !== undefined) return (filters.branches ?? []).some((g) => globToRegExp(g).test(branch));
      if (tag !== undefined) return (filters.tags ?? []).some((g) => globToRegExp(g).test(tag));
    }
  }
  return true;
}

/** The `github` context of a simulated event, in the repository `owner/repo`. */
export function githubContext(event: SimulatedEvent, repository = 'owner/repo'): Value {
  return {
    event_name: event.name,
    event: event.payload,
    ref: event.ref ?? 'refs/heads/main',
    ref_name: (event.ref ?? 'refs/heads/main').replace(/^refs\/(heads|tags)\//, ''),
    repository,
  };
}

/** The jobs that run for this event: the workflow triggers and each job's `if:` holds. */
export function jobsFor(workflow: Workflow, event: SimulatedEvent): string[] {
  if (!triggers(workflow, event)) return [];
  const github = githubContext(event);
  return Object.entries(workflow.jobs)
    .filter(([, job]) => truthy(evaluate(job.if, { github })))
    .map(([id]) => id);
}

/** Kills a script that hangs (vitest cannot interrupt a synchronous spawn): far above any run on a loaded machine, never a measure. */
const SCRIPT_HANG_GUARD_MS = 240_000;

/** Runs a step's `run:` script as a runner does (`bash --noprofile --norc -eo pipefail`). */
export function runScript(script: string, cwd: string, env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const base: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(GITHUB_|RUNNER_|ACTIONS_|GIT_|npm_)/i.test(k)) base[k] = v;
  const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
    cwd,
    env: { ...base, ...env },
    encoding: 'utf8',
    timeout: SCRIPT_HANG_GUARD_MS,
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Reads a `$GITHUB_OUTPUT` file: `name=value` lines and `name<<DELIMITER` blocks. */
export function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block) {
      const end = lines.indexOf(block[2]!, i + 1);
      if (end < 0) throw new Error(`output ${block[1]}: no closing ${block[2]}`);
      out[block[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
      continue;
    }
    const eq = line.indexOf('=');
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}
