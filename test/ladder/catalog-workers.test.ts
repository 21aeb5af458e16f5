// The catalog load in worker threads gives exactly what one sequential pass gives: the same entries
// in the same order, the same relevance scores, the same acronyms and unreadable pages. Workers run
// from built bundles only, so the load runs in child processes: a bundle of
// test/helpers/catalog-digest.ts with the worker built beside it, and the real dist/cli.js (whose
// worker, dist/chunks/catalog-worker.js, test/global-setup.ts built). WIKI_STEWARD_CATALOG_WORKERS
// forces workers on a wiki below the size that starts them by default; test/helpers/count-workers.cjs,
// preloaded, says on stderr each worker thread a child process starts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWiki } from '../../bench/generate-wiki.js';
import { PROJECT_ROOT, builtCli } from '../helpers/cli.js';
import { TempDirs } from '../helpers/git-repo.js';

const dirs = new TempDirs();
/** Preload that reports each worker thread a child process starts. */
const COUNT_WORKERS = path.join(PROJECT_ROOT, 'test/helpers/count-workers.cjs');
const QUERIES = ['long term corrosion rate', 'LTCR', 'backend for frontend', 'cache invalidation policy', 'zürich straße', 'one client pipe'];

/**
 * Pages the generated wiki lacks, spread over the chunks by their names: acronyms defined in several
 * chunks (one with more expansions than are trusted), wikilinks across chunks, words only one chunk
 * holds, and pages that cannot be read.
 */
function extraPages(category: string): Record<string, string | Buffer> {
  const page = (title: string, body: string) => `---\ntitle: ${title}\ntags: [extra]\n---\n\n# ${title}\n\n${body}\n`;
  return {
    [`${category}/aaa-ltcr.md`]: page('LTCR', 'We track the long-term corrosion rate (LTCR) of every pipe. See [[zzz-bff]] and [[mmm-words|the words page]].'),
    [`${category}/aaa-binary.md`]: Buffer.from([0x23, 0x20, 0x00, 0x01]),
    [`${category}/mmm-words.md`]: page(
      'Words',
      'Zürich Straße Ölrücklauf: words no other page holds. The local term rate (LTR) differs. Back end for Frontend (BFF) here.',
    ),
    [`${category}/mmm-latin1.md`]: Buffer.from([0x23, 0x20, 0xe9, 0x74, 0xe9, 0x0a]),
    [`${category}/zzz-bff.md`]: page(
      'BFF',
      'A backend for frontend (BFF) serves one client. The linear term ratio (LTR) too. Long term corrosion rates (LTCR). [[aaa-ltcr]]',
    ),
    'zzz-category/zzz-ltr.md': page('LTR', 'The last transfer record (LTR) and the low tide range (LTR) and Lower Trust Realm (LTR).'),
  };
}

/** The harness bundled with every dependency, and the catalog's worker beside it, as the project's bundles place it. */
async function buildHarness(dir: string): Promise<string> {
  const banner = { js: "import { createRequire as __wsCreateRequire } from 'node:module'; const require = __wsCreateRequire(import.meta.url);" };
  const common = { absWorkingDir: PROJECT_ROOT, bundle: true, platform: 'node', format: 'esm', target: 'node20', banner, logLevel: 'warning' } as const;
  await build({ ...common, entryPoints: ['test/helpers/catalog-digest.ts'], outfile: path.join(dir, 'digest.mjs') });
  await build({ ...common, entryPoints: ['src/ladder/catalog-worker.ts'], outfile: path.join(dir, 'catalog-worker.js') });
  // ESM by extension: the temp folder has no package.json saying `type: module`.
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  return path.join(dir, 'digest.mjs');
}

/** `node --require count-workers.cjs ...args` with WIKI_STEWARD_CATALOG_WORKERS=workers. */
function node(args: readonly string[], workers: number): { stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--require', COUNT_WORKERS, ...args], {
    env: { ...process.env, WIKI_STEWARD_CATALOG_WORKERS: String(workers) },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}:\n${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
}

const WORKER_STARTED = 'count-workers: a worker thread started';
/** stderr with the preload's lines taken out, and how many worker threads they say started. */
function startedWorkers(stderr: string): { started: number; rest: string } {
  const lines = stderr.split('\n');
  return { started: lines.filter((l) => l === WORKER_STARTED).length, rest: lines.filter((l) => l !== WORKER_STARTED).join('\n') };
}

describe('the catalog load in worker threads', () => {
  let wiki = '';
  let harness = '';

  beforeAll(async () => {
    wiki = await dirs.make('ws-catalog-workers-');
    const generated = await generateWiki(wiki, { pages: 600 });
    for (const [file, data] of Object.entries(extraPages(generated.categories[0]!))) {
      const full = path.join(wiki, file);
      mkdirSync(path.dirname(full), { recursive: true });
      writeFileSync(full, data);
    }
    harness = await buildHarness(await dirs.make('ws-catalog-harness-'));
  });

  afterAll(() => dirs.cleanup());

  it('gives the entries, scores, acronyms and unreadable pages of the sequential load', () => {
    const sequential = node([harness, wiki, ...QUERIES], 0);
    const digest = JSON.parse(sequential.stdout) as { entries: unknown[]; acronyms: Array<[string, string[]]>; unreadable: unknown[]; scores: unknown[][] };
    // Read on the main thread alone: no worker started.
    expect(startedWorkers(sequential.stderr)).toEqual({ started: 0, rest: '' });
    // The wiki holds what the comparison is about.
    expect(digest.entries.length).toBeGreaterThan(600);
    expect(digest.unreadable).toHaveLength(2);
    expect(new Map(digest.acronyms).get('ltcr')).toEqual(['long-term corrosion rate']);
    expect(new Map(digest.acronyms).get('bff')).toEqual(['back end for frontend', 'backend for frontend']);
    expect(new Map(digest.acronyms).has('ltr')).toBe(false);
    expect(digest.scores.every((s) => s.length > 0)).toBe(true);
    for (const workers of [1, 2, 3]) {
      const parallel = node([harness, wiki, ...QUERIES], workers);
      // No warning (none failed, the worker bundle was found), and the load started one thread per
      // worker asked for (the main thread reads a chunk too): the workers really ran.
      const { started, rest } = startedWorkers(parallel.stderr);
      expect(rest).toBe('');
      expect(started).toBe(workers);
      expect(JSON.parse(parallel.stdout)).toEqual(digest);
    }
  });

  it('dist/cli.js answers with the same trace either way', () => {
    const trace = (workers: number) => {
      const r = node([builtCli(), 'ask', '--wiki', wiki, '--json', 'What is the long-term corrosion rate (LTCR) of a backend for frontend?'], workers);
      // The built CLI found its worker bundle and started exactly the workers asked for.
      expect(r.stderr).not.toMatch(/catalog worker/);
      expect(startedWorkers(r.stderr).started).toBe(workers);
      const { timings_ms: _timings, ...rest } = JSON.parse(r.stdout) as Record<string, unknown>;
      return rest;
    };
    const sequential = trace(0);
    expect(sequential.candidates).not.toEqual([]);
    expect(trace(2)).toEqual(sequential);
  });
});
