import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-in-process.js';
import { makeWiki, page } from '../helpers/wiki-fixture.js';

const read = (wiki: string, rel: string) => readFile(path.join(wiki, rel), 'utf8');

describe('wiki-steward index', () => {
  it('--check changes nothing, prints a unified diff of stale files and exits 1', async () => {
    const wiki = await makeWiki({ 'concepts/a.md': page({ title: 'Alpha', type: 'concepts' }) });
    expect((await runCli(['index', '--wiki', wiki], wiki)).code).toBe(0);
    await writeFile(path.join(wiki, 'concepts/b.md'), page({ title: 'Beta', type: 'concepts' }));
    const before = await read(wiki, 'concepts/_index.md');
    const check = await runCli(['index', '--check', '--wiki', wiki], wiki);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('--- a/concepts/_index.md');
    expect(check.stdout).toContain('+++ b/concepts/_index.md');
    expect(check.stdout).toContain('+- [Beta](b.md) — (q: 3.25) Beta in one paragraph.');
    expect(check.stdout).toContain('-- [Concepts](concepts/_index.md) — 1 pages');
    expect(await read(wiki, 'concepts/_index.md')).toBe(before);
    expect((await runCli(['index', '--wiki', wiki], wiki)).code).toBe(0);
    const fresh = await runCli(['index', '--check', '--wiki', wiki], wiki);
    expect(fresh).toMatchObject({ code: 0, stdout: '' });
  });

  it('never overwrites a hand-written index, and reports it as hand-written, not stale', async () => {
    const handIndex = '# Our wiki\n\nStart with [Alpha](concepts/a.md).\n';
    const handCategory = '# Concepts we care about\n\n- [[a|Alpha]]\n';
    const wiki = await makeWiki({
      'index.md': handIndex,
      'concepts/_index.md': handCategory,
      'concepts/a.md': page({ title: 'Alpha', type: 'concepts' }),
      'concepts/deep/b.md': page({ title: 'Beta', type: 'concepts' }),
    });
    const check = await runCli(['index', '--check', '--wiki', wiki], wiki);
    expect(check.code).toBe(1); // concepts/deep/_index.md is missing
    expect(check.stdout).not.toContain('a/index.md');
    expect(check.stderr).toContain('index.md: hand-written index, left alone');
    expect(check.stderr).toContain('concepts/_index.md: hand-written index, left alone');
    await runCli(['index', '--wiki', wiki], wiki);
    expect(await read(wiki, 'index.md')).toBe(handIndex);
    expect(await read(wiki, 'concepts/_index.md')).toBe(handCategory);
    expect(await read(wiki, 'concepts/deep/_index.md')).toContain('- [Beta](b.md)');
    expect((await runCli(['index', '--check', '--wiki', wiki], wiki)).code).toBe(0);
  });

  it("regenerates hand-written indexes when the config says 'indexes: always'", async () => {
    const wiki = await makeWiki({ 'index.md': '# Mine\n', 'concepts/a.md': page({ title: 'Alpha', type: 'concepts' }) });
    await writeFile(path.join(wiki, '.wiki-steward.yml'), 'indexes: always\n');
    await runCli(['index'], wiki);
    expect(await read(wiki, 'index.md')).toBe('# Wiki Index\n\n- [Concepts](concepts/_index.md) — 1 pages\n');
  });

  it('regenerates a stale index that is in generated form, and the init template', async () => {
    const wiki = await makeWiki({
      'index.md': '# Wiki Index\n\n## Concepts\n(empty)\n\n## Entities\n(empty)\n',
      'concepts/_index.md': '# concepts\n\n## Pages (in this directory)\n(none)\n\n## Subdirectories\n(none)\n\n',
      'concepts/a.md': page({ title: 'Alpha', type: 'concepts' }),
    });
    await runCli(['index', '--wiki', wiki], wiki);
    expect(await read(wiki, 'index.md')).toBe('# Wiki Index\n\n- [Concepts](concepts/_index.md) — 1 pages\n');
    expect(await read(wiki, 'concepts/_index.md')).toContain('- [Alpha](a.md)');
  });
});
