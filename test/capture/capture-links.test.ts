// `ask --capture` never writes through a symbolic link: not a linked category folder (outside the
// repository, or onto another category), not a linked wiki folder when it bootstraps one.
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-in-process.js';
import { makeWiki, page } from '../helpers/wiki-fixture.js';

const GAP = 'How do we shard the `ZEPPELIN_FLEET` across regions?';
const CONCEPTS_INDEX = '# concepts\n\nWritten by hand: keep me.\n';
const outsideDir = () => mkdtemp(path.join(os.tmpdir(), 'ws-outside-'));
const wikiWith = () =>
  makeWiki({
    'concepts/cache.md': page({ title: 'Cache keys', type: 'concepts', body: 'Cache keys join the tenant and the path.' }),
    'concepts/_index.md': CONCEPTS_INDEX,
  });

describe('ask --capture and symbolic links', () => {
  it('a queries folder linked outside the repository receives nothing', async () => {
    const [wiki, outside] = [await wikiWith(), await outsideDir()];
    await symlink(outside, path.join(wiki, 'queries'));
    const run = await runCli(['ask', '--wiki', wiki, '--capture', GAP], wiki);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`refusing to write through the symbolic link ${path.join(wiki, 'queries')}`);
    expect(await readdir(outside)).toEqual([]);
  });

  it('a queries folder linked onto concepts leaves the hand-written concepts/_index.md alone', async () => {
    const wiki = await wikiWith();
    await symlink('concepts', path.join(wiki, 'queries'));
    const run = await runCli(['ask', '--wiki', wiki, '--capture', GAP], wiki);
    expect(run.code).toBe(2);
    expect(await readFile(path.join(wiki, 'concepts/_index.md'), 'utf8')).toBe(CONCEPTS_INDEX);
    expect((await readdir(path.join(wiki, 'concepts'))).sort()).toEqual(['_index.md', 'cache.md']);
  });

  it('with no wiki yet, a wiki folder linked outside gets no schema.md, index.md or queries/', async () => {
    const [repo, outside] = [await makeWiki({}), await outsideDir()];
    await rm(path.join(repo, 'schema.md'));
    await symlink(outside, path.join(repo, 'wiki'));
    const run = await runCli(['ask', '--capture', 'How do we deploy to staging?'], repo);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('refusing to write through the symbolic link');
    expect(await readdir(outside)).toEqual([]);
  });

  it('a real folder of the wiki is written as before; a file where a folder should be is named', async () => {
    const wiki = await wikiWith();
    await mkdir(path.join(wiki, 'queries'));
    expect((await runCli(['ask', '--wiki', wiki, '--capture', GAP], wiki)).code).toBe(0);
    expect(await readdir(path.join(wiki, 'queries'))).toContain('how-do-we-shard-the-zeppelin-fleet-across-regions.md');

    const other = await wikiWith();
    await writeFile(path.join(other, 'queries'), 'not a folder\n');
    const run = await runCli(['ask', '--wiki', other, '--capture', GAP], other);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`cannot write into ${path.join(other, 'queries')}: it is a file, not a folder`);
  });
});
