// Index files under hostile or careless conditions, on real files and real git repositories: temp
// files a killed run left behind, and generated index files a person has edited since.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadFileTree } from '../../src/wiki/tree.js';
import { TEMP_FILE_MAX_AGE_MS } from '../../src/wiki/write-files.js';
import { runCli } from '../helpers/cli-in-process.js';
import { type GitRepo, TempDirs, createRepo } from '../helpers/git-repo.js';
import { makeWiki, page } from '../helpers/wiki-fixture.js';

/** The pid of a process that has exited (and was reaped): no live process holds it now. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('index attacks: temp files left by a killed run', () => {
  const live: ChildProcess[] = [];
  afterEach(() => {
    for (const child of live.splice(0)) child.kill();
  });

  it("index removes stale temp files of its own, keeps a live writer's, and validate never mentions any", async () => {
    const wiki = await makeWiki({
      'concepts/a.md': page({ title: 'Alpha', type: 'concepts' }),
      'concepts/deep/b.md': page({ title: 'Beta', type: 'concepts' }),
    });
    // A live writer: it runs until the test kills it (or its stdin closes with the test's process).
    const writer = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'ignore'] });
    live.push(writer);
    const dead = `concepts/_index.md.wiki-steward-${deadPid()}.tmp`;
    const old = `concepts/deep/_index.md.wiki-steward-${writer.pid}.tmp`;
    const oldInRoot = `index.md.wiki-steward-${deadPid()}.tmp`;
    const busy = `concepts/deep/b.md.wiki-steward-${writer.pid}.tmp`;
    const notOurs = 'concepts/notes.wiki-steward-draft.tmp';
    for (const file of [dead, old, oldInRoot, busy, notOurs]) writeFileSync(path.join(wiki, file), '# half-written\n\n- [Ghost](ghost.md) — (q: 1.00)');
    // The live writer's old file is past the age limit, and its busy one stays under it however long
    // this test takes to get to `index` (its time is set ahead): the outcome never hangs on the speed.
    const pastTheLimit = new Date(Date.now() - 2 * TEMP_FILE_MAX_AGE_MS);
    utimesSync(path.join(wiki, old), pastTheLimit, pastTheLimit);
    const aheadOfAnyRun = new Date(Date.now() + 24 * 60 * 60_000);
    utimesSync(path.join(wiki, busy), aheadOfAnyRun, aheadOfAnyRun);

    const tree = await loadFileTree(wiki);
    expect([...tree.files].filter((f) => f.includes('wiki-steward-') && f !== notOurs)).toEqual([]);

    const check = await runCli(['index', '--check', '--wiki', wiki], wiki);
    expect(check.code).toBe(1);
    expect([dead, old, oldInRoot, busy].every((f) => existsSync(path.join(wiki, f)))).toBe(true);

    const index = await runCli(['index', '--wiki', wiki], wiki);
    expect(index.code, index.stderr).toBe(0);
    expect(index.stderr).toContain('3 temp files left by an interrupted run removed');
    const left = (dir: string) => readdirSync(path.join(wiki, dir)).filter((f) => f.includes('wiki-steward-'));
    expect(left('')).toEqual([]);
    expect(left('concepts')).toEqual(['notes.wiki-steward-draft.tmp']);
    expect(left('concepts/deep')).toEqual([path.basename(busy)]);

    const validate = await runCli(['validate', '--wiki', wiki, '--format', 'json'], wiki);
    expect(validate.code).toBe(0);
    expect(validate.stdout).not.toContain('wiki-steward-');
    expect(validate.stdout).not.toContain('.tmp');
    expect((await runCli(['index', '--check', '--wiki', wiki], wiki)).code).toBe(0);
  });
});

describe('index attacks: generated index files edited by hand', () => {
  const dirs = new TempDirs();
  afterEach(() => dirs.cleanup());

  const A = page({ title: 'Alpha', type: 'concepts', body: 'Alpha explains the first thing.' });
  const B = page({ title: 'Beta', type: 'concepts', body: 'Beta explains the second thing.' });
  const C = page({ title: 'Gamma', type: 'concepts', body: 'Gamma explains the third thing.' });

  /** A repository whose wiki (in `wiki/`) has fresh, committed index files. */
  async function generatedAndCommitted(): Promise<GitRepo> {
    const repo = await createRepo(dirs, { 'wiki/schema.md': '# Schema\n', 'wiki/concepts/a.md': A, 'wiki/concepts/b.md': B });
    expect((await runCli(['index', '--wiki', 'wiki'], repo.root)).code).toBe(0);
    repo.git('add', '--all');
    repo.git('commit', '--quiet', '-m', 'wiki with generated indexes');
    return repo;
  }

  const handEdit = (text: string): string =>
    text
      .replace('Beta explains the second thing.', 'Beta, as our team uses it: the second thing.')
      .replace('\n\n## Subdirectories', '\n- [Glossary](../glossary.md) — kept by hand: the terms we use\n\n## Subdirectories');

  it('leaves a generated index edited by hand (and committed) alone, and says so', async () => {
    const repo = await generatedAndCommitted();
    const edited = handEdit(repo.read('wiki/concepts/_index.md'));
    expect(edited).not.toBe(repo.read('wiki/concepts/_index.md'));
    repo.write({ 'wiki/concepts/_index.md': edited });
    repo.git('commit', '--quiet', '-am', 'our own words in the index');

    const check = await runCli(['index', '--check', '--wiki', 'wiki'], repo.root);
    expect(check.code).toBe(0);
    expect(check.stderr).toContain(
      "concepts/_index.md: edited by hand since it was generated; left alone (delete it and run 'wiki-steward index' to regenerate it, or set 'indexes: always' in .wiki-steward.yml)",
    );
    const run = await runCli(['index', '--wiki', 'wiki'], repo.root);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('concepts/_index.md: edited by hand since it was generated; left alone');
    expect(repo.read('wiki/concepts/_index.md')).toBe(edited);

    // A new page makes the file stale too: still a person's words, still left alone.
    repo.write({ 'wiki/concepts/c.md': C });
    await runCli(['index', '--wiki', 'wiki'], repo.root);
    expect(repo.read('wiki/concepts/_index.md')).toBe(edited);
    expect(repo.read('wiki/index.md')).toContain('— 3 pages');
  });

  it('leaves an uncommitted hand edit of a committed generated index alone', async () => {
    const repo = await generatedAndCommitted();
    const edited = handEdit(repo.read('wiki/concepts/_index.md'));
    repo.write({ 'wiki/concepts/_index.md': edited, 'wiki/concepts/c.md': C });
    const run = await runCli(['index', '--wiki', 'wiki'], repo.root);
    expect(run.stderr).toContain('concepts/_index.md: edited by hand since it was generated; left alone');
    expect(repo.read('wiki/concepts/_index.md')).toBe(edited);
  });

  it('counts a deleted entry as a hand edit too', async () => {
    const repo = await generatedAndCommitted();
    const without = repo.read('wiki/concepts/_index.md').replace(/- \[Beta\][^\n]*\n/, '');
    repo.write({ 'wiki/concepts/_index.md': without });
    repo.git('commit', '--quiet', '-am', 'we do not list Beta');
    repo.write({ 'wiki/concepts/c.md': C });
    const run = await runCli(['index', '--wiki', 'wiki'], repo.root);
    expect(run.stderr).toContain('concepts/_index.md: edited by hand since it was generated; left alone');
    expect(repo.read('wiki/concepts/_index.md')).toBe(without);
  });

  it('regenerates a committed generated index that is only stale', async () => {
    const repo = await generatedAndCommitted();
    repo.write({ 'wiki/concepts/c.md': C });
    const run = await runCli(['index', '--wiki', 'wiki'], repo.root);
    expect(run.stderr).not.toContain('left alone');
    expect(repo.read('wiki/concepts/_index.md')).toContain('- [Gamma](c.md) — (q: 3.25) Gamma explains the third thing.\n');
    expect(repo.read('wiki/index.md')).toContain('— 3 pages');
  });

  it('regenerates again after its own uncommitted regeneration, page after page', async () => {
    const repo = await generatedAndCommitted();
    repo.write({ 'wiki/concepts/c.md': C });
    await runCli(['index', '--wiki', 'wiki'], repo.root);
    repo.write({ 'wiki/concepts/a.md': A.replace('Alpha explains the first thing.', 'Alpha explains the first thing, better.') });
    const run = await runCli(['index', '--wiki', 'wiki'], repo.root);
    expect(run.stderr).not.toContain('left alone');
    expect(repo.read('wiki/concepts/_index.md')).toContain('Alpha explains the first thing, better.');
    expect(repo.read('wiki/concepts/_index.md')).toContain('- [Gamma](c.md)');
  });

  it('regenerates an index whose pages were committed in the same commit as the stale index', async () => {
    // The index was generated, then a page added and both committed without re-running `index`:
    // the committed file is still exactly what the builder wrote from the pages before.
    const repo = await createRepo(dirs, { 'wiki/schema.md': '# Schema\n', 'wiki/concepts/a.md': A });
    await runCli(['index', '--wiki', 'wiki'], repo.root);
    repo.write({ 'wiki/concepts/b.md': B });
    repo.git('add', '--all');
    repo.git('commit', '--quiet', '-m', 'pages and a stale index together');
    // As in a fresh clone: no record of what `index` wrote here, git alone decides.
    rmSync(path.join(repo.root, '.git/wiki-steward'), { recursive: true, force: true });
    const run = await runCli(['index', '--wiki', 'wiki'], repo.root);
    expect(run.stderr).not.toContain('left alone');
    expect(repo.read('wiki/concepts/_index.md')).toContain('- [Beta](b.md)');
  });

  it('outside git, or before the file is committed, keeps the generated-form rule', async () => {
    const wiki = await makeWiki({ 'concepts/a.md': A, 'concepts/b.md': B });
    await runCli(['index', '--wiki', wiki], wiki);
    const edited = handEdit((await import('node:fs')).readFileSync(path.join(wiki, 'concepts/_index.md'), 'utf8'));
    writeFileSync(path.join(wiki, 'concepts/_index.md'), edited);
    writeFileSync(path.join(wiki, 'concepts/c.md'), C);
    const run = await runCli(['index', '--wiki', wiki], wiki);
    expect(run.stderr).not.toContain('left alone');
    expect((await import('node:fs')).readFileSync(path.join(wiki, 'concepts/_index.md'), 'utf8')).toContain('- [Gamma](c.md)');
  });
});
