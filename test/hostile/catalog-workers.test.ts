// WIKI_STEWARD_CATALOG_WORKERS garbage against the built CLI (workers exist only in the bundles),
// and a page swapped for a symlink after the tree walk.
import { mkdtemp, readFile, rm, symlink, unlink, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workersFor } from '../../src/ladder/catalog-pages.js';
import { loadFileTree } from '../../src/wiki/tree.js';
import { PROJECT_ROOT } from '../helpers/cli.js';
import { INSTALL_QUESTION, runBuiltCli } from '../providers/support.js';

/** The built CLI asked one question with WIKI_STEWARD_CATALOG_WORKERS set; `workers`: the worker threads it started. */
async function built(value: string): Promise<{ code: number; stderr: string; workers: number }> {
  const preload = path.join(PROJECT_ROOT, 'test/helpers/count-workers.cjs');
  // --no-cache: a snapshot another run left would load the catalog with no worker at all.
  const run = await runBuiltCli(['ask', '--no-cache', '--wiki', '.', '--json', INSTALL_QUESTION], {
    WIKI_STEWARD_CATALOG_WORKERS: value,
    NODE_OPTIONS: `--require ${JSON.stringify(preload)}`,
  });
  return { ...run, workers: (run.stderr.match(/^count-workers: a worker thread started$/gm) ?? []).length };
}

describe('WIKI_STEWARD_CATALOG_WORKERS: how many workers a value asks for', () => {
  it.each([
    ['200', 69, 3],
    ['200', 2, 1],
    ['1', 1, 0],
    ['0', 50_000, 0],
    [' 2 ', 10, 2],
    ['Infinity', 69, 0],
    ['1e9', 69, 0],
    ['-1', 69, 0],
    ['abc', 50_000, 3],
    [undefined, 3_999, 0],
    [undefined, 4_000, 1],
  ] as const)('%j on %i pages, 8 cores: %i', (forced, pages, workers) => expect(workersFor(pages, 8, forced)).toBe(workers));
});

describe('WIKI_STEWARD_CATALOG_WORKERS garbage (built CLI, the 69-page example wiki)', () => {
  it('Infinity: no workers, and no crash with "Invalid array length"', async () => {
    const run = await built('Infinity');
    expect(run.stderr).not.toContain('Invalid array length');
    expect({ code: run.code, workers: run.workers }, run.stderr).toEqual({ code: 0, workers: 0 });
  });

  it('200: capped at three workers, and the run answers', async () => {
    const run = await built('200');
    expect({ code: run.code, workers: run.workers }, run.stderr).toEqual({ code: 0, workers: 3 });
  });

  it('-1 and abc fall back to the default: no workers on so small a wiki', async () => {
    for (const value of ['-1', 'abc']) {
      const run = await built(value);
      expect({ code: run.code, workers: run.workers }, `${value}: ${run.stderr}`).toEqual({ code: 0, workers: 0 });
    }
  });
});

describe('a page swapped for a symlink after the walk', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'ws-attack16-swap-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('is not followed outside the wiki ("Symlinks are never followed, so nothing outside the root is read")', async () => {
    const wiki = path.join(dir, 'wiki');
    await mkdir(wiki);
    await writeFile(path.join(wiki, 'page.md'), '# Page\n\nHarmless text.\n');
    const secret = path.join(dir, 'outside-secret.txt');
    await writeFile(secret, 'OUTSIDE-THE-WIKI-SECRET\n');
    const tree = await loadFileTree(wiki);
    expect(tree.files.has('page.md')).toBe(true);
    // Between the walk and the read:
    await unlink(path.join(wiki, 'page.md'));
    await symlink(secret, path.join(wiki, 'page.md'));
    const seen: string[] = [];
    await tree.readEach(['page.md'], (_p, file) => seen.push(file.ok ? file.text : `refused: ${file.reason}`));
    expect(await readFile(secret, 'utf8')).toContain('OUTSIDE');
    expect(seen).toEqual([expect.stringMatching(/^refused: cannot read: /)]);
  });
});
