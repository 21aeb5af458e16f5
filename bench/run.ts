// The performance benchmark behind `npm run bench`: generates a large wiki, then times the CLI
// as real separate processes (start-up included) and compares each figure with its target.
// The answer engine's catalog load and ladder are timed in-process (the real modules from src/),
// its `ask --questions` batch as a separate process on a second, 500-page wiki. The `obsidian-`
// measures time `validate` and `digest` on a third, 3,000-page wiki in Obsidian's shape.
//
//   npm run bench -- [--pages N] [--only validate,index,hook,ask-load,ask-ladder,ask-batch,ask-cached,prompts,action,copilot,obsidian-validate,obsidian-digest]
//                    [--runs N] [--seed N] [--keep] [--profile] [--strict]
//
// --keep     leave the generated wikis in the temp folder (their paths are printed)
// --profile  when a measure misses its time target, run it once more under the CPU profiler
//            (`node --cpu-prof` for the CLI, the inspector in-process) and print the top
//            self-time functions
// --strict   exit 1 when a target is missed (otherwise only a failed sanity check exits 1)
//
// The table is printed as markdown and written as JSON to .bench/results.json.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AskSession, openAskSession } from '../src/answer/ask.js';
import { openWorkspace } from '../src/config/workspace.js';
import { CopilotChatModel } from '../src/answer/model/copilot-chat.js';
import { JsonHttpClient } from '../src/net/http-json.js';
import { systemClock } from '../src/net/clock.js';
import { type LadderResult, runLadder } from '../src/ladder/ladder.js';
import type { Trace } from '../src/answer/trace.js';
import { type GeneratedWiki, generateQuestions, generateWiki } from './generate-wiki.js';
import { devBanks } from '../eval/bank.js';
import { type PromptFigures, measurePrompts as promptFigures, promptTable } from '../eval/prompts.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist/cli.js');
const OUT_DIR = path.join(ROOT, '.bench');
const GNU_TIME = '/usr/bin/time';

const MEASURES = [
  'validate',
  'index',
  'hook',
  'ask-load',
  'ask-ladder',
  'ask-batch',
  'ask-cached',
  'prompts',
  'action',
  'copilot',
  'obsidian-validate',
  'obsidian-digest',
] as const;
type Measure = (typeof MEASURES)[number];

const TARGETS = {
  validateSeconds: 2,
  indexSeconds: 2,
  peakRssMb: 300,
  hookSeconds: 0.5,
  askLoadSeconds: 1.5,
  askLadderMs: 50,
  askBatchSeconds: 5,
  askWarmSeconds: 0.3,
  askOneChangedSeconds: 0.5,
  promptMedianTokens: 6_000,
  promptP95Tokens: 12_000,
  /** Fact recall of the excerpts sent, at most this far below the same pages sent whole. */
  factRecallGap: 0.02,
  actionBundleMb: 5,
  actionStartupMs: 300,
  actionQuestionSeconds: 2,
  obsidianValidateSeconds: 2,
  obsidianDigestSeconds: 3,
};
/** The Action measure: one question on a wiki of this size, against the GitHub emulator. */
const ACTION = { pages: 1000 };
const BUNDLE = path.join(ROOT, 'action/index.js');
/** The ask measures' questions: how many the ladder is timed on, and the batch wiki and file. */
const ASK = { ladderQuestions: 100, batchPages: 500, batchQuestions: 300 };
/** The Obsidian-shaped wiki's size (whatever --pages says: the shape of a real vault of that size). */
const OBSIDIAN = { pages: 3000 };

// ---------------------------------------------------------------------------------------------
// Options.

interface BenchOptions {
  pages: number;
  only: Set<Measure>;
  runs: number;
  seed: number;
  keep: boolean;
  profile: boolean;
  strict: boolean;
}

function parseOptions(argv: string[]): BenchOptions {
  const options: BenchOptions = { pages: 10_000, only: new Set(MEASURES), runs: 3, seed: 20260424, keep: false, profile: false, strict: false };
  const value = (i: number, flag: string): string => {
    const v = argv[i + 1];
    if (v === undefined) throw new Error(`${flag} needs a value`);
    return v;
  };
  const count = (text: string, flag: string): number => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a whole number >= 1, got ${text}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--pages') options.pages = count(value(i++, arg), arg);
    else if (arg === '--runs') options.runs = count(value(i++, arg), arg);
    else if (arg === '--seed') options.seed = count(value(i++, arg), arg);
    else if (arg === '--only') {
      const names = value(i++, arg)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown = names.filter((n) => !(MEASURES as readonly string[]).includes(n));
      if (unknown.length > 0) throw new Error(`--only: unknown measure ${unknown.join(', ')} (known: ${MEASURES.join(', ')})`);
      options.only = new Set(names as Measure[]);
    } else if (arg === '--keep') options.keep = true;
    else if (arg === '--profile') options.profile = true;
    else if (arg === '--strict') options.strict = true;
    else throw new Error(`unknown argument ${arg}`);
  }
  return options;
}

// ---------------------------------------------------------------------------------------------
// Running and timing a child process.

interface Timed {
  ms: number;
  /** Peak resident set size in KiB, when GNU time is available. */
  rssKb: number | undefined;
  status: number | null;
  stdout: string;
  stderr: string;
}

/** GNU time prints the child's peak RSS (`%M`, KiB); without it there is no RSS figure. */
const hasGnuTime = (() => {
  if (!existsSync(GNU_TIME)) return false;
  return spawnSync(GNU_TIME, ['-f', '%M', 'true'], { encoding: 'utf8' }).status === 0;
})();

function timeCommand(args: string[], cwd: string, nodeFlags: string[] = []): Timed {
  const rssFile = path.join(OUT_DIR, `rss-${process.pid}.txt`);
  const node = [process.execPath, ...nodeFlags, CLI, ...args];
  const [command, commandArgs] = hasGnuTime ? [GNU_TIME, ['-f', '%M', '-o', rssFile, ...node]] : [node[0]!, node.slice(1)];
  const started = performance.now();
  const child = spawnSync(command, commandArgs, { cwd, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  const ms = performance.now() - started;
  if (child.error) throw child.error;
  let rssKb: number | undefined;
  if (hasGnuTime) {
    // GNU time may add a "Command exited with non-zero status" line before the figure.
    const lines = readFileSync(rssFile, 'utf8').trim().split('\n');
    rssKb = Number(lines.at(-1));
    rmSync(rssFile, { force: true });
  }
  return { ms, rssKb, status: child.status, stdout: child.stdout, stderr: child.stderr };
}

/** Runs `measure` `runs` times (after `before` each time); fails loudly on an unexpected exit status. */
function repeat(runs: number, label: string, expectStatus: number, measure: () => Timed, before?: (run: number) => void): Timed[] {
  const results: Timed[] = [];
  for (let run = 0; run < runs; run++) {
    before?.(run);
    const timed = measure();
    if (timed.status !== expectStatus) {
      throw new Error(`${label}: exit status ${timed.status}, expected ${expectStatus}\n${timed.stderr.slice(-2000)}`);
    }
    results.push(timed);
  }
  return results;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The nearest-rank percentile (`p` in 0..100). */
const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
};

/** `{ a: 3, b: 1 }` as `a 3, b 1`, largest first. */
const tally = (values: string[]): string => {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
};

/** Times an in-process step `runs` times (each after `before`, untimed) as `Timed` figures. */
async function repeatInProcess(runs: number, measure: () => Promise<unknown>, before?: (run: number) => void): Promise<Timed[]> {
  const results: Timed[] = [];
  for (let run = 0; run < runs; run++) {
    before?.(run);
    const started = performance.now();
    await measure();
    results.push({ ms: performance.now() - started, rssKb: undefined, status: 0, stdout: '', stderr: '' });
  }
  return results;
}

function git(cwd: string, ...args: string[]): string {
  // No automatic gc or maintenance: a detached gc would skew timings and race the clean-up.
  const config = ['user.name=bench', 'user.email=bench@example.invalid', 'init.defaultBranch=main', 'gc.auto=0', 'maintenance.auto=false'];
  const child = spawnSync('git', [...config.flatMap((c) => ['-c', c]), ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  if (child.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${child.stderr}`);
  return child.stdout;
}

// ---------------------------------------------------------------------------------------------
// Results.

interface Metric {
  metric: string;
  target: string;
  measured: string;
  /** null when there is no figure (e.g. no RSS without GNU time). */
  pass: boolean | null;
  value: number | null;
  unit: 's' | 'ms' | 'MB' | 'tokens' | 'share';
  runs: number[];
}

const isTime = (m: Metric): boolean => m.unit === 's' || m.unit === 'ms';

function timeMetric(name: string, limitSeconds: number, timed: Timed[]): Metric {
  const seconds = median(timed.map((t) => t.ms)) / 1000;
  return {
    metric: `${name} wall time (median of ${timed.length})`,
    target: `≤ ${limitSeconds} s`,
    measured: `${seconds.toFixed(2)} s`,
    pass: seconds <= limitSeconds,
    value: Number(seconds.toFixed(3)),
    unit: 's',
    runs: timed.map((t) => Number((t.ms / 1000).toFixed(3))),
  };
}

/** Milliseconds per item: the median against the target, the p95 beside it (`runs` holds every item). */
function perItemMetric(name: string, limitMs: number, ms: number[]): Metric {
  const mid = median(ms);
  return {
    metric: `${name} (median of ${ms.length}; p95 ${percentile(ms, 95).toFixed(1)} ms, max ${Math.max(...ms).toFixed(1)} ms)`,
    target: `≤ ${limitMs} ms`,
    measured: `${mid.toFixed(1)} ms`,
    pass: mid <= limitMs,
    value: Number(mid.toFixed(2)),
    unit: 'ms',
    runs: ms.map((v) => Number(v.toFixed(2))),
  };
}

function rssMetric(name: string, timed: Timed[]): Metric {
  const figures = timed.map((t) => t.rssKb).filter((k): k is number => k !== undefined && Number.isFinite(k));
  const mb = figures.length > 0 ? Math.max(...figures) / 1024 : null;
  return {
    metric: `${name} peak RSS (max of ${timed.length})`,
    target: `≤ ${TARGETS.peakRssMb} MB`,
    measured: mb === null ? 'n/a' : `${mb.toFixed(0)} MB`,
    pass: mb === null ? null : mb <= TARGETS.peakRssMb,
    value: mb === null ? null : Number(mb.toFixed(1)),
    unit: 'MB',
    runs: figures.map((k) => Number((k / 1024).toFixed(1))),
  };
}

function renderTable(metrics: Metric[]): string {
  const rows = metrics.map((m) => `| ${m.metric} | ${m.target} | ${m.measured} | ${m.pass === null ? 'n/a' : m.pass ? 'pass' : 'FAIL'} |`);
  return ['| metric | target | measured | pass/fail |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

// ---------------------------------------------------------------------------------------------
// The measures.

interface Context {
  options: BenchOptions;
  wiki: string;
  generated: GeneratedWiki;
  notes: string[];
  /** The ask session over `wiki`, once a measure has opened one. */
  askSession?: AskSession;
  /** The second, small wiki and question file `ask-batch` made (removed with the big one). */
  batch?: { wiki: string; questions: string; ids: string[] };
  /** The Obsidian-shaped wiki the `obsidian-` measures share, made once. */
  obsidian?: { wiki: string; generated: GeneratedWiki };
  /** Temp folders to remove at the end (unless --keep). */
  cleanup: string[];
}

/** Writes the wiki's index files once (`index`), as a maintained wiki has them. */
function ensureIndexed(wiki: string): void {
  if (!existsSync(path.join(wiki, 'index.md'))) repeat(1, 'index', 0, () => timeCommand(['index', '--wiki', wiki], ROOT));
}

function measureValidate(ctx: Context): Metric[] {
  const expectStatus = ctx.generated.invalid.length > 0 ? 1 : 0;
  const timed = repeat(ctx.options.runs, 'validate', expectStatus, () => timeCommand(['validate', '--wiki', ctx.wiki, '--format', 'json'], ROOT));
  checkValidateFindings(ctx, timed.at(-1)!.stdout);
  return [timeMetric('`validate`', TARGETS.validateSeconds, timed), rssMetric('`validate`', timed)];
}

/** Sanity check: the pages with errors are exactly the pages generated broken. */
function checkValidateFindings(ctx: Context, stdout: string): void {
  const report = JSON.parse(stdout) as { checked: number; diagnostics: Array<{ severity: string; path: string }> };
  const flagged = new Set(report.diagnostics.filter((d) => d.severity === 'error').map((d) => d.path));
  const expected = new Set(ctx.generated.invalid);
  const missed = [...expected].filter((p) => !flagged.has(p));
  const extra = [...flagged].filter((p) => !expected.has(p));
  const warnings = report.diagnostics.filter((d) => d.severity === 'warning').length;
  if (report.checked !== ctx.generated.pages.length || missed.length > 0 || extra.length > 0) {
    throw new Error(
      `validate sanity check failed: checked ${report.checked} of ${ctx.generated.pages.length} pages; ` +
        `${missed.length} broken pages not flagged (${missed.slice(0, 3).join(', ')}); ${extra.length} valid pages flagged (${extra.slice(0, 3).join(', ')})`,
    );
  }
  ctx.notes.push(`validate flagged exactly the ${expected.size} generated broken pages (${warnings} warnings)`);
}

/** Every index.md / _index.md under the wiki (the generator writes none; `index` writes them). */
function findIndexFiles(dir: string, rel = ''): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory() && entry.name !== '.git') found.push(...findIndexFiles(dir, child));
    else if (entry.isFile() && (entry.name === '_index.md' || child === 'index.md')) found.push(child);
  }
  return found;
}

const deleteIndexFiles = (wiki: string): void => findIndexFiles(wiki).forEach((f) => rmSync(path.join(wiki, f)));

function measureIndex(ctx: Context): Metric[] {
  const rebuild = repeat(
    ctx.options.runs,
    'index',
    0,
    () => timeCommand(['index', '--wiki', ctx.wiki], ROOT),
    () => deleteIndexFiles(ctx.wiki),
  );
  const written = findIndexFiles(ctx.wiki).length;
  ctx.notes.push(`index wrote ${written} index files (${rebuild.at(-1)!.stderr.trim()})`);
  const check = repeat(ctx.options.runs, 'index --check', 0, () => timeCommand(['index', '--wiki', ctx.wiki, '--check'], ROOT));
  return [
    timeMetric('`index` full rebuild', TARGETS.indexSeconds, rebuild),
    rssMetric('`index` full rebuild', rebuild),
    timeMetric('`index --check` (fresh)', TARGETS.indexSeconds, check),
    rssMetric('`index --check` (fresh)', check),
  ];
}

const HOOK_EDITS = 5;

/** Rewrites the first sentence of the page's summary line (so its folder indexes change too). */
function editSentence(text: string, run: number): string {
  const body = text.indexOf('\n---\n') + 5;
  const dash = body >= 5 ? text.indexOf(' — ', body) : -1;
  const end = dash >= 0 ? text.indexOf('.', dash) : -1;
  if (end < 0) return `${text}\nEdited by benchmark run ${run}.\n`;
  return `${text.slice(0, dash + 3)}This summary sentence was rewritten by benchmark run ${run}${text.slice(end)}`;
}

/** The question the cached `ask` measures ask, end to end through the built CLI. */
const CACHED_QUESTION = 'how does the retry budget work';

/**
 * `ask` end to end with the catalog snapshot (src/ladder/catalog-cache.ts), in a git repository of
 * the wiki: cold (no snapshot: the load, and the snapshot written), warm (nothing changed), one page
 * changed since the snapshot, and `--no-cache` for comparison; plus the compat wiki warm, the
 * floor that CLI start-up sets.
 */
function measureAskCached(ctx: Context): Metric[] {
  const { wiki } = ctx;
  if (!existsSync(path.join(wiki, '.git'))) {
    git(wiki, 'init', '-q');
    git(wiki, 'add', '-A');
    git(wiki, 'commit', '-q', '--no-verify', '-m', 'bench: generated wiki');
  }
  const ask = (...flags: string[]) => timeCommand(['ask', ...flags, '--format', 'json', '--wiki', wiki, CACHED_QUESTION], ROOT);
  // The load as the trace times it: `ask` answers before it writes the snapshot, so a cold load's
  // answer waits only for the load; the run ends when the snapshot is written.
  const loadMs = (runs: readonly Timed[]) => runs.map((t) => (JSON.parse(t.stdout) as { timings_ms: { load: number } }).timings_ms.load);
  const snapshots = path.join(wiki, '.git', 'wiki-steward');
  const cold = repeat(
    ctx.options.runs,
    'ask (cold)',
    0,
    () => ask(),
    () => rmSync(snapshots, { recursive: true, force: true }),
  );
  const uncached = repeat(ctx.options.runs, 'ask --no-cache', 0, () => ask('--no-cache'));
  ask();
  const warm = repeat(ctx.options.runs, 'ask (warm)', 0, () => ask());
  const page = path.join(wiki, ctx.generated.pages[0]!);
  const original = readFileSync(page, 'utf8');
  // Each run changes the page again since the snapshot the run before wrote.
  const changed = repeat(
    ctx.options.runs,
    'ask (one page changed)',
    0,
    () => ask(),
    (run) => writeFileSync(page, `${original}\nEdited for run ${run}.\n`),
  );
  writeFileSync(page, original);
  const tiny = path.join(ROOT, 'test/fixtures/compat/wiki');
  timeCommand(['ask', '--wiki', tiny, CACHED_QUESTION], ROOT);
  const tinyWarm = repeat(ctx.options.runs, 'ask (compat wiki)', 0, () => timeCommand(['ask', '--wiki', tiny, CACHED_QUESTION], ROOT));
  return [
    reportedMetric(
      '`ask` cold, writing the snapshot',
      cold.map((t) => t.ms),
    ),
    reportedMetric(
      '`ask --no-cache`',
      uncached.map((t) => t.ms),
    ),
    reportedMetric("`ask` cold: the load (the trace's `timings_ms.load`; the snapshot is written after the answer)", loadMs(cold)),
    reportedMetric('`ask --no-cache`: the load (the same)', loadMs(uncached)),
    timeMetric('`ask` warm (snapshot current)', TARGETS.askWarmSeconds, warm),
    timeMetric('`ask` with one page changed since the snapshot', TARGETS.askOneChangedSeconds, changed),
    reportedMetric(
      '`ask` on the compat wiki (CLI start-up floor)',
      tinyWarm.map((t) => t.ms),
    ),
  ];
}

/** The development banks the `prompts` measure runs on (eval-dev beside the checkout, as `npm run eval` finds them). */
const DEV_BANKS = path.resolve(ROOT, '../shared/eval-dev');

/**
 * What the model answerer sends, as `npm run eval -- --llm-stand-in` measures it (eval/prompts.ts):
 * every development bank against the OpenAI stand-in, the token budget out of reach. Macro figures,
 * each bank weighing the same; page recall must hold on every bank.
 */
async function measurePromptBudget(ctx: Context): Promise<Metric[]> {
  const banks = devBanks(DEV_BANKS);
  if (banks.length === 0) {
    ctx.notes.push(`prompts: no development banks under ${DEV_BANKS}, so nothing was measured`);
    return [];
  }
  const rows: PromptFigures[] = [];
  for (const bank of banks) rows.push(await promptFigures(bank.name, bank.bank, bank.wiki));
  ctx.notes.push(`prompts (${rows.length} banks, input tokens as the budget estimates them):\n${promptTable(rows)}`);
  const mean = (f: (r: PromptFigures) => number) => rows.reduce((sum, r) => sum + f(r), 0) / rows.length;
  const tokens = (name: string, limit: number, value: number): Metric => ({
    metric: name,
    target: `≤ ${limit.toLocaleString('en')}`,
    measured: Math.round(value).toLocaleString('en'),
    pass: value <= limit,
    value: Math.round(value),
    unit: 'tokens',
    runs: [],
  });
  const gap = mean((r) => r.factWhole - r.factExcerpts);
  const short = rows.filter((r) => r.pageRecall < r.offlineRead).map((r) => r.bank);
  return [
    tokens(
      'prompt input tokens per question, median (macro)',
      TARGETS.promptMedianTokens,
      mean((r) => r.median),
    ),
    tokens(
      'prompt input tokens per question, p95 (macro)',
      TARGETS.promptP95Tokens,
      mean((r) => r.p95),
    ),
    {
      metric: 'page recall, every bank (an expected page in the prompt)',
      target: "≥ the offline answerer's read rate",
      measured: short.length === 0 ? 'every bank' : `below on ${short.join(', ')}`,
      pass: short.length === 0,
      value: Number(mean((r) => r.pageRecall).toFixed(3)),
      unit: 'share',
      runs: rows.map((r) => Number(r.pageRecall.toFixed(3))),
    },
    {
      metric: 'fact recall of the excerpts, below whole pages (macro)',
      target: `≤ ${TARGETS.factRecallGap.toFixed(2)}`,
      measured: `${gap.toFixed(3)} (${mean((r) => r.factExcerpts).toFixed(3)} vs ${mean((r) => r.factWhole).toFixed(3)})`,
      pass: gap <= TARGETS.factRecallGap,
      value: Number(gap.toFixed(3)),
      unit: 'share',
      runs: rows.map((r) => Number((r.factWhole - r.factExcerpts).toFixed(3))),
    },
  ];
}

function measureHook(ctx: Context): Metric[] {
  const { wiki } = ctx;
  ensureIndexed(wiki);
  if (!existsSync(path.join(wiki, '.git'))) {
    git(wiki, 'init', '-q');
    git(wiki, 'add', '-A');
    git(wiki, 'commit', '-q', '--no-verify', '-m', 'bench: generated wiki');
  }
  const invalid = new Set(ctx.generated.invalid);
  const valid = ctx.generated.pages.filter((p) => !invalid.has(p));
  const step = Math.max(1, Math.floor(valid.length / HOOK_EDITS));
  const edited = Array.from({ length: Math.min(HOOK_EDITS, valid.length) }, (_, i) => valid[i * step]!);
  const originals = new Map(edited.map((p) => [p, readFileSync(path.join(wiki, p), 'utf8')]));

  const stage = (run: number): void => {
    git(wiki, 'reset', '-q', '--hard', 'HEAD');
    for (const [page, text] of originals) writeFileSync(path.join(wiki, page), editSentence(text, run));
    git(wiki, 'add', '--', ...edited);
  };
  const timed = repeat(ctx.options.runs, 'hooks pre-commit', 0, () => timeCommand(['hooks', 'pre-commit'], wiki), stage);
  const restaged = git(wiki, 'diff', '--cached', '--name-only')
    .trim()
    .split('\n')
    .filter((p) => p.endsWith('_index.md') || p === 'index.md');
  ctx.notes.push(`hook: ${edited.length} pages staged (${edited.join(', ')}); it regenerated and staged ${restaged.length} index files`);
  git(wiki, 'reset', '-q', '--hard', 'HEAD');
  return [timeMetric(`\`hooks pre-commit\` (${edited.length} staged pages)`, TARGETS.hookSeconds, timed), rssMetric('`hooks pre-commit`', timed)];
}

/** The Obsidian-shaped wiki (OBSIDIAN.pages pages, no git, no index files), made once. */
async function prepareObsidian(ctx: Context): Promise<NonNullable<Context['obsidian']>> {
  if (ctx.obsidian) return ctx.obsidian;
  const wiki = mkdtempSync(path.join(os.tmpdir(), 'wiki-steward-bench-obsidian-'));
  ctx.cleanup.push(wiki);
  ctx.obsidian = { wiki, generated: await generateWiki(wiki, { pages: OBSIDIAN.pages, seed: ctx.options.seed, shape: 'obsidian' }) };
  return ctx.obsidian;
}

/** Sanity check: every page has exactly one finding, its date-only `created`; every [[link]] resolves. */
function checkObsidianFindings(generated: GeneratedWiki, stdout: string): string {
  const report = JSON.parse(stdout) as { checked: number; diagnostics: Array<{ rule: string; path: string; field?: string }> };
  const perPage = new Map<string, number>();
  for (const d of report.diagnostics) perPage.set(d.path, (perPage.get(d.path) ?? 0) + 1);
  const other = report.diagnostics.filter((d) => d.rule !== 'timestamps' || d.field !== 'created');
  const unflagged = generated.pages.filter((p) => perPage.get(p) !== 1);
  if (report.checked !== generated.pages.length || other.length > 0 || unflagged.length > 0) {
    throw new Error(
      `obsidian-validate sanity check failed: checked ${report.checked} of ${generated.pages.length} pages; ` +
        `${unflagged.length} pages without exactly one finding (${unflagged.slice(0, 3).join(', ')}); ` +
        `${other.length} other findings (${other
          .slice(0, 3)
          .map((d) => `${d.rule} on ${d.path}`)
          .join(', ')})`,
    );
  }
  return `obsidian-validate: ${generated.pages.length} pages, exactly one finding each (the date-only created), every [[Title]] link resolved`;
}

async function measureObsidianValidate(ctx: Context): Promise<Metric[]> {
  const { wiki, generated } = await prepareObsidian(ctx);
  const timed = repeat(ctx.options.runs, 'obsidian validate', 1, () => timeCommand(['validate', '--wiki', wiki, '--format', 'json'], ROOT));
  ctx.notes.push(checkObsidianFindings(generated, timed.at(-1)!.stdout));
  return [
    timeMetric(`\`validate\`, ${OBSIDIAN.pages}-page Obsidian-shaped wiki`, TARGETS.obsidianValidateSeconds, timed),
    rssMetric('`validate` (Obsidian-shaped)', timed),
  ];
}

async function measureObsidianDigest(ctx: Context): Promise<Metric[]> {
  const { wiki } = await prepareObsidian(ctx);
  const timed = repeat(ctx.options.runs, 'obsidian digest', 0, () => timeCommand(['digest', '--wiki', wiki, '--format', 'json'], ROOT));
  const report = JSON.parse(timed.at(-1)!.stdout) as { health?: { pages?: number } | null };
  ctx.notes.push(`obsidian-digest: offline (no --repo), health of ${report.health?.pages ?? 'no'} pages`);
  return [
    timeMetric(`\`digest\`, ${OBSIDIAN.pages}-page Obsidian-shaped wiki, offline`, TARGETS.obsidianDigestSeconds, timed),
    rssMetric('`digest` (Obsidian-shaped)', timed),
  ];
}

/** An ask session over `wiki` (the real workspace and catalog code), as the CLI opens one. */
async function openBenchSession(wiki: string): Promise<AskSession> {
  return openAskSession(await openWorkspace({ cwd: ROOT, wikiFlag: wiki }));
}

/** A figure with no target: reported, never passed or failed. */
function reportedMetric(name: string, ms: number[]): Metric {
  return { ...perItemMetric(name, 0, ms), target: '—', pass: null };
}

/**
 * Our side of a Copilot answer's start-up: a fresh client's first call (spawn, `connect`, a session,
 * the reply) and a later call on the same client, against the stand-in CLI of the tests, a small
 * Node script: the real CLI's own start-up is not in these figures.
 */
async function measureCopilot(ctx: Context): Promise<Metric[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wiki-steward-bench-copilot-'));
  ctx.cleanup.push(dir);
  writeFileSync(path.join(dir, 'scenario.json'), JSON.stringify({ fallback: { reply: { claims: [], covered: false, uncovered: [] } } }));
  writeFileSync(path.join(dir, 'log.jsonl'), '');
  const env = { ...process.env, COPILOT_STAND_IN: path.join(dir, 'scenario.json'), COPILOT_STAND_IN_LOG: path.join(dir, 'log.jsonl') };
  const request = { system: 'system', user: 'user', schema: { name: 'answer', schema: {} }, maxTokens: 16 };
  const first: number[] = [];
  const later: number[] = [];
  for (let run = 0; run < Math.max(5, ctx.options.runs); run++) {
    const model = new CopilotChatModel({
      model: 'gpt-5-mini',
      cliPath: path.join(ROOT, 'test/providers/copilot-stand-in.js'),
      token: 'bench-token',
      timeoutMs: 10_000,
      calls: new JsonHttpClient(),
      env,
      clock: systemClock,
    });
    let started = performance.now();
    await model.complete(request);
    first.push(performance.now() - started);
    started = performance.now();
    await model.complete(request);
    later.push(performance.now() - started);
    await model.close();
  }
  ctx.notes.push(
    'copilot: against the stand-in CLI (a Node script), so only our side of the start-up: the SDK, the spawn, the protocol; the first run also imports the SDK',
  );
  return [
    reportedMetric("Copilot: a fresh client's first call (spawn, connect, session, reply)", first),
    reportedMetric('Copilot: a later call on the same client', later),
  ];
}

async function measureAskLoad(ctx: Context): Promise<Metric[]> {
  ensureIndexed(ctx.wiki);
  const workspace = await openWorkspace({ cwd: ROOT, wikiFlag: ctx.wiki });
  let session: AskSession | undefined;
  const timed = await repeatInProcess(
    ctx.options.runs,
    async () => (session = await openAskSession(workspace)),
    () => (session = undefined),
  );
  const catalog = session!.catalog;
  if (!catalog || catalog.entries.length !== ctx.generated.pages.length) {
    throw new Error(`ask-load sanity check failed: the catalog holds ${catalog?.entries.length ?? 'no'} entries for ${ctx.generated.pages.length} pages`);
  }
  const listed = catalog.entries.filter((e) => e.listedIn !== undefined).length;
  ctx.notes.push(
    `ask-load: catalog of ${catalog.entries.length} entries (${listed} titled from ${catalog.indexFiles.length} index files, ${catalog.unreadable.length} unreadable); ` +
      `session.loadMs of the last load ${session!.loadMs} ms`,
  );
  ctx.askSession = session;
  return [timeMetric('`ask` catalog load, in-process (openAskSession)', TARGETS.askLoadSeconds, timed)];
}

/** Runs the ladder on each question `runs` times; per question, the median of its runs. */
function ladderTimes(session: AskSession, questions: readonly string[], runs: number): { ms: number[]; firstPass: number[]; results: LadderResult[] } {
  const perQuestion = questions.map((): number[] => []);
  const results: LadderResult[] = [];
  for (let run = 0; run < runs; run++) {
    questions.forEach((question, i) => {
      const started = performance.now();
      const result = runLadder(session.catalog!, question, session.ladder);
      perQuestion[i]!.push(performance.now() - started);
      if (run === 0) results.push(result);
    });
  }
  return { ms: perQuestion.map(median), firstPass: perQuestion.map((t) => t[0]!), results };
}

async function measureAskLadder(ctx: Context): Promise<Metric[]> {
  if (!ctx.askSession) {
    ensureIndexed(ctx.wiki);
    ctx.askSession = await openBenchSession(ctx.wiki);
  }
  const questions = generateQuestions(ctx.generated, ASK.ladderQuestions, ctx.options.seed);
  const { ms, firstPass, results } = ladderTimes(ctx.askSession, questions, ctx.options.runs);
  const slowest = ms.indexOf(Math.max(...ms));
  const expanded = results.filter((r) => r.terms.some((t) => t.kind === 'expanded')).length;
  ctx.notes.push(
    `ask-ladder: ${questions.length} questions, each timed ${ctx.options.runs} times (per question the median); first pass alone: median ${median(firstPass).toFixed(1)} ms, p95 ${percentile(firstPass, 95).toFixed(1)} ms`,
    `ask-ladder branches: ${tally(results.map((r) => r.branch))}; median candidates ${median(results.map((r) => r.candidates.length))}; ` +
      `${expanded} questions gained expanded terms; slowest (${ms[slowest]!.toFixed(1)} ms): "${questions[slowest]}"`,
  );
  return [perItemMetric('`ask` ladder (steps A–B) per question, in-process', TARGETS.askLadderMs, ms)];
}

/** A second, small wiki (indexed) and a JSONL file of questions over it, made once. */
async function prepareAskBatch(ctx: Context): Promise<NonNullable<Context['batch']>> {
  if (ctx.batch) return ctx.batch;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wiki-steward-bench-ask-'));
  ctx.cleanup.push(dir);
  const wiki = path.join(dir, 'wiki');
  const generated = await generateWiki(wiki, { pages: ASK.batchPages, seed: ctx.options.seed });
  ensureIndexed(wiki);
  const ids = generateQuestions(generated, ASK.batchQuestions, ctx.options.seed + 1).map((question, i) => ({
    id: `q${String(i + 1).padStart(3, '0')}`,
    question,
  }));
  const questions = path.join(dir, 'questions.jsonl');
  writeFileSync(questions, ids.map((q) => JSON.stringify(q)).join('\n') + '\n');
  ctx.batch = { wiki, questions, ids: ids.map((q) => q.id) };
  return ctx.batch;
}

/** Sanity check: one JSON trace per question, in order, each with its question's `id`. */
function checkBatchOutput(batch: NonNullable<Context['batch']>, stdout: string): Trace[] {
  const lines = stdout.split('\n').filter((l) => l.trim() !== '');
  const traces = lines.map((line, i) => {
    try {
      return JSON.parse(line) as Trace;
    } catch {
      throw new Error(`ask-batch sanity check failed: output line ${i + 1} is not JSON: ${line.slice(0, 120)}`);
    }
  });
  const wrong = traces.findIndex((t, i) => t.id !== batch.ids[i]);
  if (traces.length !== batch.ids.length || wrong >= 0) {
    throw new Error(
      `ask-batch sanity check failed: ${traces.length} JSON lines for ${batch.ids.length} questions` +
        (wrong >= 0 ? `; line ${wrong + 1} has id ${JSON.stringify(traces[wrong]!.id)}, expected ${batch.ids[wrong]}` : ''),
    );
  }
  return traces;
}

const askBatchArgs = (batch: NonNullable<Context['batch']>): string[] => ['ask', '--wiki', batch.wiki, '--questions', batch.questions, '--json'];

async function measureAskBatch(ctx: Context): Promise<Metric[]> {
  const batch = await prepareAskBatch(ctx);
  const timed = repeat(ctx.options.runs, 'ask --questions', 0, () => timeCommand(askBatchArgs(batch), ROOT));
  const traces = timed.map((t) => checkBatchOutput(batch, t.stdout)).at(-1)!;
  const sum = (key: 'ladder' | 'answer') => traces.reduce((a, t) => a + t.timings_ms[key], 0);
  ctx.notes.push(
    `ask-batch: ${traces.length} JSON lines with the right ids on every run (answerer ${tally(traces.map((t) => t.answerer))}); branches: ${tally(traces.map((t) => t.branch))}; outcomes: ${tally(traces.map((t) => t.outcome))}`,
    `ask-batch: median candidates ${median(traces.map((t) => t.candidates.length))}, median read ${median(traces.map((t) => t.read.length))}; ` +
      `last run's own timings: load ${traces[0]!.timings_ms.load} ms, ladder ${sum('ladder')} ms and answer ${sum('answer')} ms over all questions`,
  );
  return [
    timeMetric(`\`ask --questions\` (${batch.ids.length} questions, ${ASK.batchPages}-page wiki)`, TARGETS.askBatchSeconds, timed),
    rssMetric('`ask --questions`', timed),
  ];
}

/** One question, asked in a fresh emulated repository and answered by the bundle as a runner starts it. */
interface ActionRun {
  ms: number;
  /** From spawn to the emulator's first request. */
  firstCallMs: number;
  outcome: string;
  comments: number;
  pulls: number;
}

const OUTCOME_LABELS = ['question', 'wiki:answered', 'wiki:gap', 'wiki:cold', 'wiki:error', 'wiki:capture'];

async function askThroughBundle(dir: string, question: string, options: { labelsExist: boolean; seeded: boolean }): Promise<ActionRun> {
  const { startGitHubEmulator } = await import('../test/github-emulator/emulator.js');
  const gh = await startGitHubEmulator({ repos: [{ owner: 'bench', name: 'wiki', ...(options.seeded ? { seedFrom: dir } : {}) }] });
  try {
    if (options.labelsExist) for (const name of OUTCOME_LABELS) gh.state.addLabel({ name });
    gh.state.addIssue({ number: 1, title: question, user: 'asker', labels: ['question'] });
    gh.state.setPermission('asker', 'triage');
    const file = (name: string, content = '') => {
      writeFileSync(path.join(dir, name), content);
      return path.join(dir, name);
    };
    const env = {
      PATH: process.env.PATH,
      ...gh.env(),
      GITHUB_EVENT_NAME: 'issues',
      GITHUB_EVENT_PATH: file('event.json', JSON.stringify(gh.events.issues('opened', 1))),
      GITHUB_WORKSPACE: dir,
      GITHUB_STEP_SUMMARY: file('summary.md'),
      GITHUB_OUTPUT: file('output.txt'),
      'INPUT_GITHUB-TOKEN': 'ghs_bench',
      'INPUT_WIKI-PATH': 'wiki',
    };
    const started = performance.now();
    let firstCall: number | undefined;
    const poll = setInterval(() => {
      if (firstCall === undefined && gh.requests.length > 0) firstCall = performance.now();
    }, 1);
    let output = '';
    const exit = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [BUNDLE], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      child.on('close', resolve);
    });
    const ms = performance.now() - started;
    clearInterval(poll);
    if (exit !== 0) throw new Error(`action run failed (exit ${exit}):\n${output.slice(-2000)}`);
    return {
      ms,
      firstCallMs: (firstCall ?? performance.now()) - started,
      outcome: /outcome<<(\S+)\n([^\n]*)/.exec(readFileSync(env.GITHUB_OUTPUT, 'utf8'))?.[2] ?? '?',
      comments: gh.state.commentsOn(1).length,
      pulls: gh.state.pulls.length,
    };
  } finally {
    await gh.close();
  }
}

/**
 * The Action end to end: `node action/index.js` started as a runner starts it, for one question in
 * an `issues` event, against the local GitHub emulator, on a 1,000-page wiki in a git checkout.
 * Measures the bundle's size, start-up to its first API call, and the whole run.
 */
async function measureAction(ctx: Context): Promise<Metric[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wiki-steward-bench-action-'));
  ctx.cleanup.push(dir);
  const generated = await generateWiki(path.join(dir, 'wiki'), { pages: ACTION.pages, seed: ctx.options.seed });
  ensureIndexed(path.join(dir, 'wiki'));
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-q', '--no-verify', '-m', 'wiki');
  // A question one page answers (its title): the answer path the target is about. A cold or gap
  // question also opens a capture pull request, three more writes spaced a second apart.
  const question = `What is ${generated.meta[0]!.title}?`;
  const check = (run: ActionRun, what: string, pulls: number) => {
    if (run.comments !== 1 || run.pulls !== pulls) throw new Error(`${what}: ${run.comments} comments, ${run.pulls} pull requests`);
    return run;
  };
  // A repository's first question also creates its outcome label (one more write); later ones find it.
  const first = check(await askThroughBundle(dir, question, { labelsExist: false, seeded: false }), 'first question', 0);
  const runs: ActionRun[] = [];
  for (let i = 0; i < ctx.options.runs; i++)
    runs.push(check(await askThroughBundle(dir, question, { labelsExist: true, seeded: false }), 'covered question', 0));
  const cold = check(
    await askThroughBundle(dir, 'How do I calibrate the xylophone tuner for the quokka choir?', { labelsExist: true, seeded: true }),
    'cold question',
    1,
  );
  // The Action ships its bundle and the catalog's worker beside it: the limit is on both together.
  const actionDir = path.dirname(BUNDLE);
  const bundleMb =
    readdirSync(actionDir)
      .filter((f) => f.endsWith('.js'))
      .reduce((sum, f) => sum + statSync(path.join(actionDir, f)).size, 0) /
    1024 /
    1024;
  ctx.notes.push(
    `action: question "${question}" (outcome ${runs.at(-1)!.outcome}) on a ${ACTION.pages}-page wiki; one comment posted on every run; start-up to first API call ${runs.map((r) => r.firstCallMs.toFixed(0)).join(' / ')} ms`,
    `action: the repository's first question also creates its outcome label (a third write): ${(first.ms / 1000).toFixed(2)} s`,
    `action: a cold question, which also opens a capture pull request (tree, commit, branch, PR, label: writes a second apart): ${(cold.ms / 1000).toFixed(2)} s`,
  );
  return [
    {
      metric: '`action/*.js` bundle size (index.js and catalog-worker.js)',
      target: `≤ ${TARGETS.actionBundleMb} MB`,
      measured: `${bundleMb.toFixed(2)} MB`,
      pass: bundleMb <= TARGETS.actionBundleMb,
      value: Number(bundleMb.toFixed(3)),
      unit: 'MB',
      runs: [],
    },
    perItemMetric(
      '`node action/index.js` start-up to first API call',
      TARGETS.actionStartupMs,
      runs.map((r) => r.firstCallMs),
    ),
    timeMetric(
      `one question end to end, emulator + offline answerer, ${ACTION.pages}-page wiki`,
      TARGETS.actionQuestionSeconds,
      runs.map((r) => ({ ms: r.ms, rssKb: undefined, status: 0, stdout: '', stderr: '' })),
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// Profiling (only on request, only for a missed time target).

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const bundleMarkers = new Map<string, Array<[number, string]>>();

/**
 * Where a line of one of our esbuild bundles (dist/, .bench/) came from: esbuild opens each module
 * with a `// src/ladder/catalog.ts` comment, so the nearest one above names the source file.
 */
function bundleSource(url: string, line: number): string | undefined {
  if (!url.startsWith('file://')) return undefined;
  const file = fileURLToPath(url);
  if (!file.startsWith(path.join(ROOT, 'dist')) && !file.startsWith(OUT_DIR)) return undefined;
  let markers = bundleMarkers.get(file);
  if (!markers) {
    markers = [];
    const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
    lines.forEach((text, i) => {
      const m = /^\/\/ ((?:src|bench|node_modules)\/\S+)$/.exec(text);
      if (m) markers!.push([i, m[1]!]);
    });
    bundleMarkers.set(file, markers);
  }
  return markers.findLast(([at]) => at <= line)?.[1];
}

/** The functions with the most self time in a `.cpuprofile`. */
export function topSelfTime(profile: CpuProfile, count: number): Array<{ fn: string; ms: number; share: number }> {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMs = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const frame = byNode.get(id)?.callFrame;
    const at = frame?.url ? `${path.basename(frame.url)}:${frame.lineNumber + 1}` : '';
    const source = frame?.url ? bundleSource(frame.url, frame.lineNumber) : undefined;
    const name = frame ? `${frame.functionName || '(anonymous)'} ${source ? `(${source}, ${at})` : at}`.trim() : '?';
    selfMs.set(name, (selfMs.get(name) ?? 0) + ms);
    total += ms;
  });
  return [...selfMs]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([fn, ms]) => ({ fn, ms: Math.round(ms), share: total > 0 ? ms / total : 0 }));
}

function profileCommand(label: string, args: string[], notes: string[]): void {
  const dir = path.join(OUT_DIR, 'profiles');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  timeCommand(args, ROOT, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return;
  const kept = path.join(OUT_DIR, `${label}.cpuprofile`);
  writeFileSync(kept, readFileSync(path.join(dir, file)));
  rmSync(dir, { recursive: true, force: true });
  noteProfile(label, kept, notes);
}

/** Profiles `work` in this process with the inspector (bundle lines map back to src/ files). */
async function profileInProcess(label: string, work: () => Promise<unknown>, notes: string[]): Promise<void> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    await work();
    const { profile } = await session.post('Profiler.stop');
    const kept = path.join(OUT_DIR, `${label}.cpuprofile`);
    writeFileSync(kept, JSON.stringify(profile));
    noteProfile(label, kept, notes);
  } finally {
    session.disconnect();
  }
}

function noteProfile(label: string, kept: string, notes: string[]): void {
  const top = topSelfTime(JSON.parse(readFileSync(kept, 'utf8')) as CpuProfile, 8);
  notes.push(
    `${label} profile (${path.relative(ROOT, kept)}), top self time: ${top.map((t) => `${t.fn} ${t.ms} ms (${(t.share * 100).toFixed(0)}%)`).join('; ')}`,
  );
}

/** Profiles each measure that missed its time target (validate, index, ask-*). */
async function profileSlow(ctx: Context, metrics: Metric[]): Promise<void> {
  const slow = (prefix: string) => metrics.some((m) => isTime(m) && m.pass === false && m.metric.startsWith(prefix));
  if (slow('`validate`')) profileCommand('validate', ['validate', '--wiki', ctx.wiki, '--format', 'json'], ctx.notes);
  if (slow('`index` full')) {
    deleteIndexFiles(ctx.wiki);
    profileCommand('index', ['index', '--wiki', ctx.wiki], ctx.notes);
  }
  if (slow('`ask` catalog load')) await profileInProcess('ask-load', () => openBenchSession(ctx.wiki), ctx.notes);
  if (slow('`ask` ladder')) {
    const session = ctx.askSession ?? (await openBenchSession(ctx.wiki));
    const questions = generateQuestions(ctx.generated, ASK.ladderQuestions, ctx.options.seed);
    await profileInProcess('ask-ladder', async () => ladderTimes(session, questions, 1), ctx.notes);
  }
  if (slow('`ask --questions`') && ctx.batch) profileCommand('ask-batch', askBatchArgs(ctx.batch), ctx.notes);
}

// ---------------------------------------------------------------------------------------------

/** Which build was measured: the commit, whether the work tree differed from it, and when dist/ was built. */
function cliProvenance(): { commit: string | null; dirty: boolean | null; builtAt: string } {
  const run = (...args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  const head = run('rev-parse', '--short', 'HEAD');
  const status = run('status', '--porcelain', '--', 'src', 'scripts/build.mjs', 'package.json');
  return {
    commit: head.status === 0 ? head.stdout.trim() : null,
    dirty: status.status === 0 ? status.stdout.trim() !== '' : null,
    builtAt: statSync(CLI).mtime.toISOString(),
  };
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  mkdirSync(OUT_DIR, { recursive: true });
  if (!existsSync(CLI)) {
    console.log('dist/cli.js is missing: building it first');
    const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('node scripts/build.mjs failed');
  }

  const wiki = mkdtempSync(path.join(os.tmpdir(), 'wiki-steward-bench-'));
  const cleanup = [wiki];
  try {
    const started = performance.now();
    const generated = await generateWiki(wiki, { pages: options.pages, seed: options.seed });
    const generateSeconds = (performance.now() - started) / 1000;
    console.log(
      `generated ${generated.pages.length} pages (${generated.invalid.length} broken, ${generated.categories.length} categories) in ${generateSeconds.toFixed(2)} s at ${wiki}`,
    );
    console.log(`peak RSS: ${hasGnuTime ? `${GNU_TIME} -f %M` : `n/a (${GNU_TIME} not found; install the Debian package 'time')`}\n`);

    const ctx: Context = { options, wiki, generated, notes: [], cleanup };
    const metrics: Metric[] = [];
    const measures: Record<Measure, (c: Context) => Metric[] | Promise<Metric[]>> = {
      validate: measureValidate,
      index: measureIndex,
      hook: measureHook,
      'ask-load': measureAskLoad,
      'ask-ladder': measureAskLadder,
      'ask-batch': measureAskBatch,
      'ask-cached': measureAskCached,
      prompts: measurePromptBudget,
      action: measureAction,
      copilot: measureCopilot,
      'obsidian-validate': measureObsidianValidate,
      'obsidian-digest': measureObsidianDigest,
    };
    for (const name of MEASURES) {
      if (!options.only.has(name)) continue;
      process.stdout.write(`measuring ${name}... `);
      const found = await measures[name](ctx);
      metrics.push(...found);
      console.log(
        found
          .filter(isTime)
          .map((m) => m.measured)
          .join(', '),
      );
    }

    if (options.profile) await profileSlow(ctx, metrics);

    console.log(`\n${renderTable(metrics)}\n`);
    for (const note of ctx.notes) console.log(`- ${note}`);
    const results = {
      when: new Date().toISOString(),
      node: process.version,
      platform: `${os.platform()} ${os.arch()}, ${os.cpus().length} CPUs`,
      pages: options.pages,
      seed: options.seed,
      runs: options.runs,
      generateSeconds: Number(generateSeconds.toFixed(3)),
      rssTool: hasGnuTime ? GNU_TIME : null,
      cli: cliProvenance(),
      metrics,
      notes: ctx.notes,
    };
    writeFileSync(path.join(OUT_DIR, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
    console.log(`\nresults written to ${path.relative(ROOT, path.join(OUT_DIR, 'results.json'))}`);
    if (options.keep) console.log(`wikis kept at ${cleanup.join(', ')}`);
    return options.strict && metrics.some((m) => m.pass === false) ? 1 : 0;
  } finally {
    if (!options.keep) for (const dir of cleanup) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`bench: ${(error as Error).message}`);
  process.exitCode = 1;
}
