// WIKI_STEWARD_CATALOG_WORKERS garbage against the built CLI (workers exist only in the bundles),
// and a page swapped for a symlink after the tree walk.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, unlink, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workersFor } from '../../src/ladder/catalog-pages.js';
import { loadFileTree } from '../../src/wiki/tree.js';
import { CLI_JS, EXAMPLE_WIKI, INSTALL_QUESTION } from '../providers/support.js';

function built(env: Record<string, string>, timeout: number): Promise<{ code: number | string | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI_JS, 'ask', '--wiki', '.', '--json', INSTALL_QUESTION], { cwd: EXAMPLE_WIKI, env: { ...process.env, ...env }, timeout, killSignal: 'SIGKILL' }, (error, _stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number | string }).code ?? (error.killed ? 'killed' : 1)) : 0, stderr });
    });
  });
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

describe('WIKI_STEWARD_CATALOG_WORKERS garbage (built CLI)', () => {
  it('Infinity: the run must not crash with "Invalid array length"', async () => {
    const run = await built({ WIKI_STEWARD_CATALOG_WORKERS: 'Infinity' }, 15_000);
    expect(run.stderr).not.toContain('Invalid array length');
    expect(run.code, run.stderr).toBe(0);
  }, 20_000);

  it('200 on a 69-page wiki: the run answers', async () => {
    const run = await built({ WIKI_STEWARD_CATALOG_WORKERS: '200' }, 30_000);
    expect(run.code, run.stderr).toBe(0);
  }, 40_000);

  it('-1 and abc fall back to no workers (holds)', async () => {
    for (const v of ['-1', 'abc']) expect((await built({ WIKI_STEWARD_CATALOG_WORKERS: v }, 15_000)).code).toBe(0);
  }, 40_000);
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
    expect(seen.join('')).not.toContain('OUTSIDE-THE-WIKI-SECRET');
  });
});
