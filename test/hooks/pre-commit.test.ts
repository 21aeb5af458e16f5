// The installed pre-commit hook on real commits: git runs the hook, the hook runs the built CLI,
// and what lands in the commit is checked with git itself. Each test starts from a copy of a
// repository prepared once for the file (the built CLI's `index` and `hooks install`); what the
// commit left is checked with `index --check` in-process, and once with the built CLI.
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runAsBuilt, runCli as runBuiltCli } from '../helpers/cli.js';
import { runCli } from '../helpers/cli-in-process.js';
import { type GitRepo, TempDirs, createRepo, run } from '../helpers/git-repo.js';
import { lineOfField, sampleWiki, schemaPage, wikiPage } from '../helpers/wiki-pages.js';
import { inWiki, installHooks, wikiRepoTemplate } from '../helpers/wiki-repo.js';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

/** The sample wiki at the repository root, committed with fresh indexes, the hook installed. */
const hooked = wikiRepoTemplate({ hooks: true });
/** The same wiki in a wiki/ subfolder of a project with a README. */
const hookedInSubfolder = wikiRepoTemplate({ hooks: true, wikiDir: 'wiki', files: { 'README.md': '# A project with a wiki\n' } });
/** The wiki at the root beside a README. */
const hookedWithReadme = wikiRepoTemplate({ hooks: true, files: { 'README.md': '# Readme\n' } });
afterAll(() => Promise.all([hooked, hookedInSubfolder, hookedWithReadme].map((t) => t.cleanup())));

const hookedWikiRepo = () => hooked.copy(dirs);

/**
 * `wiki-steward index --check` on a fresh clone of HEAD: exit 0 means every committed index file
 * is fresh. In-process, or with `built`, the built CLI.
 */
async function committedIndexesAreFresh(
  repo: GitRepo,
  options: { wikiDir?: string; built?: boolean } = {},
): Promise<{ status: number | null; output: string }> {
  const clone = path.join(await dirs.make('ws-clone-'), 'clone');
  const cloned = run('git', ['clone', '--quiet', repo.root, clone], path.dirname(clone));
  if (cloned.status !== 0) throw new Error(cloned.stderr);
  const args = ['index', '--check', ...(options.wikiDir ? ['--wiki', options.wikiDir] : [])];
  if (options.built) {
    const check = runBuiltCli(args, clone);
    return { status: check.status, output: check.stdout + check.stderr };
  }
  const check = await runCli(args, clone);
  return { status: check.code, output: check.stdout + check.stderr };
}

const showAtHead = (repo: GitRepo, relPath: string): string => repo.git('show', `HEAD:${relPath}`);

/** The work tree is exactly HEAD: nothing modified, staged or left untracked. */
const statusOf = (repo: GitRepo): string => repo.git('status', '--porcelain', '--untracked-files=all');

const invalidPage = (title: string) => wikiPage({ category: 'concepts', title, created: '2026-04-24' });

describe('pre-commit hook: valid commits', () => {
  it('commits a valid new page together with its regenerated folder, ancestor and root indexes', async () => {
    const repo = await hookedWikiRepo();
    repo.write({ 'concepts/ops/queue-draining.md': wikiPage({ category: 'concepts', title: 'Queue Draining', links: ['concepts/cache-warming.md'] }) });
    repo.git('add', 'concepts/ops/queue-draining.md');

    const commit = repo.commit('add queue draining');
    expect(commit.status, commit.stderr).toBe(0);
    expect(commit.stderr).toContain('regenerated and staged');

    expect(repo.committedPaths().sort()).toEqual(['concepts/_index.md', 'concepts/ops/_index.md', 'concepts/ops/queue-draining.md', 'index.md']);
    expect(showAtHead(repo, 'concepts/ops/_index.md')).toContain('[Queue Draining](queue-draining.md)');
    expect(showAtHead(repo, 'index.md')).toContain('[Concepts](concepts/_index.md) — 4 pages, 2 levels deep');
    // The committed bytes are what `index --check` (the built CLI) calls fresh, and the work tree holds the same bytes.
    expect(await committedIndexesAreFresh(repo, { built: true })).toEqual({ status: 0, output: expect.stringContaining('up to date') });
    for (const index of ['index.md', 'concepts/_index.md', 'concepts/ops/_index.md']) expect(repo.read(index)).toBe(showAtHead(repo, index));
    expect(statusOf(repo)).toBe('');
  });

  it('commits an edit to an existing page with the indexes its new title changes', async () => {
    const repo = await hookedWikiRepo();
    repo.write({ 'entities/redis.md': wikiPage({ category: 'entities', title: 'Redis Cluster', links: ['concepts/retry-budgets.md'] }) });
    repo.git('add', 'entities/redis.md');

    const commit = repo.commit('retitle redis');
    expect(commit.status, commit.stderr).toBe(0);
    // The root index lists counts only, so it is unchanged and not in the commit.
    expect(repo.committedPaths().sort()).toEqual(['entities/_index.md', 'entities/redis.md']);
    expect(showAtHead(repo, 'entities/_index.md')).toContain('[Redis Cluster](redis.md)');
    expect((await committedIndexesAreFresh(repo)).status).toBe(0);
  });

  it('deleting a page (git rm) regenerates its folder index and the root index', async () => {
    const repo = await hookedWikiRepo();
    repo.git('rm', '--quiet', 'concepts/retry-budgets.md');
    // The one page linking to it drops the link in the same commit (a link left behind blocks it).
    repo.write({ 'entities/redis.md': wikiPage({ category: 'entities', title: 'Redis' }) });
    repo.git('add', 'entities/redis.md');

    const commit = repo.commit('drop retry budgets');
    expect(commit.status, commit.stderr).toBe(0);
    expect(repo.committedPaths().sort()).toEqual(['concepts/_index.md', 'concepts/retry-budgets.md', 'entities/redis.md', 'index.md']);
    expect(showAtHead(repo, 'concepts/_index.md')).not.toContain('Retry Budgets');
    expect(showAtHead(repo, 'index.md')).toContain('— 2 pages, 2 levels deep');
    expect((await committedIndexesAreFresh(repo)).status).toBe(0);
    expect(statusOf(repo)).toBe('');
  });

  it('leaves a hand-written _index.md alone: not rewritten, not staged', async () => {
    const handWritten = '# Entities\n\nThe people and systems we deal with, curated by hand.\n';
    const repo = await hookedWikiRepo();
    // Committed past the hook (--no-verify): the hand-written file is in HEAD before the hook ever runs.
    repo.write({ 'entities/_index.md': handWritten });
    repo.git('commit', '--quiet', '--no-verify', '--all', '-m', 'hand-written entities index');

    repo.write({ 'entities/postgres.md': wikiPage({ category: 'entities', title: 'Postgres' }) });
    repo.git('add', 'entities/postgres.md');
    const commit = repo.commit('add postgres');
    expect(commit.status, commit.stderr).toBe(0);
    expect(repo.committedPaths().sort()).toEqual(['entities/postgres.md', 'index.md']);
    expect(repo.read('entities/_index.md')).toBe(handWritten);
    expect(showAtHead(repo, 'entities/_index.md')).toBe(handWritten);
    expect(statusOf(repo)).toBe('');
  });

  it("writes the new folder's _index.md beside a hand-written root index.md, as index --check expects", async () => {
    // The hand-written root index is no generated file, but concepts/_index.md is: the wiki keeps
    // generated indexes, so a page in a new folder needs that folder's _index.md.
    const handWrittenRoot = '# Our wiki\n\nStart with the concepts, then the ideas.\n';
    const repo = await createRepo(dirs, {
      'schema.md': schemaPage(['concepts', 'ideas']),
      'index.md': handWrittenRoot,
      'concepts/one.md': wikiPage({ category: 'concepts', title: 'One' }),
    });
    const indexed = await runAsBuilt(['index'], repo.root);
    expect(indexed.status, indexed.stderr).toBe(0);
    repo.git('add', '--all');
    repo.git('commit', '--quiet', '--no-verify', '-m', 'wiki with a hand-written root index');
    await installHooks(repo);

    repo.write({ 'ideas/good.md': wikiPage({ category: 'ideas', title: 'Good' }) });
    repo.git('add', 'ideas/good.md');
    const commit = repo.commit('add a good idea');
    expect(commit.status, commit.stderr).toBe(0);
    expect(repo.committedPaths().sort()).toEqual(['ideas/_index.md', 'ideas/good.md']);
    expect(showAtHead(repo, 'ideas/_index.md')).toContain('[Good](good.md)');
    expect(repo.read('index.md')).toBe(handWrittenRoot);
    expect(showAtHead(repo, 'index.md')).toBe(handWrittenRoot);
    expect(await committedIndexesAreFresh(repo)).toEqual({ status: 0, output: expect.stringContaining('up to date') });
    expect(statusOf(repo)).toBe('');
  });

  it('works when the wiki lives in a wiki/ subfolder of the repository', async () => {
    const repo = await hookedInSubfolder.copy(dirs);
    repo.write({ 'wiki/concepts/ops/queue-draining.md': wikiPage({ category: 'concepts', title: 'Queue Draining' }) });
    repo.git('add', 'wiki/concepts/ops/queue-draining.md');

    const commit = repo.commit('add queue draining');
    expect(commit.status, commit.stderr).toBe(0);
    expect(repo.committedPaths().sort()).toEqual(
      ['concepts/_index.md', 'concepts/ops/_index.md', 'concepts/ops/queue-draining.md', 'index.md'].map((p) => inWiki('wiki', p)),
    );
    expect(await committedIndexesAreFresh(repo, { wikiDir: 'wiki' })).toEqual({ status: 0, output: expect.stringContaining('up to date') });

    const bad = invalidPage('Broken Date');
    repo.write({ 'wiki/concepts/broken-date.md': bad });
    repo.git('add', 'wiki/concepts/broken-date.md');
    const head = repo.head();
    const blocked = repo.commit('add a broken page');
    expect(blocked.status).not.toBe(0);
    expect(blocked.stderr).toContain(`wiki/concepts/broken-date.md:${lineOfField(bad, 'created')}: created must be ISO-8601 UTC`);
    expect(repo.head()).toBe(head);
  });

  it('a commit that touches no wiki page does no index work', async () => {
    const repo = await hookedWithReadme.copy(dirs);
    // Make the committed concepts index stale (a page committed past the hook), so any index work would show.
    repo.write({ 'concepts/unindexed.md': wikiPage({ category: 'concepts', title: 'Unindexed' }) });
    repo.git('add', 'concepts/unindexed.md');
    expect(repo.commit('skip the hook', '--no-verify').status).toBe(0);
    expect((await runCli(['index', '--check'], repo.root)).code).toBe(1);

    repo.write({ 'README.md': '# Readme\n\nMore words.\n', 'log.md': '# Wiki Log\n', 'tools/build.sh': 'echo hi\n' });
    repo.git('add', '--all');
    const commit = repo.commit('docs only');
    expect(commit.status, commit.stderr).toBe(0);
    expect(commit.stderr).not.toContain('regenerated');
    expect(repo.committedPaths().sort()).toEqual(['README.md', 'log.md', 'tools/build.sh']);
    expect(statusOf(repo)).toBe('');
  });
});

describe('pre-commit hook: invalid commits', () => {
  it("checks a repository's first commit too (no HEAD yet: everything staged is new), blocking an invalid page", async () => {
    const repo = await createRepo(dirs, { ...sampleWiki(), 'concepts/broken-date.md': invalidPage('Broken Date') });
    expect((await installHooks(repo)).status).toBe(0);
    repo.git('add', '--all');
    const blocked = repo.commit('first commit');
    expect(blocked.status).not.toBe(0);
    expect(blocked.stderr).toContain('concepts/broken-date.md');
    expect(repo.head()).toBeUndefined();

    repo.git('rm', '--quiet', '--cached', 'concepts/broken-date.md');
    const commit = repo.commit('first commit');
    expect(commit.status, commit.stderr).toBe(0);
    const committed = repo.git('ls-tree', '-r', '--name-only', 'HEAD').split('\n');
    expect(committed).toContain('concepts/retry-budgets.md');
    expect(committed).not.toContain('concepts/broken-date.md');
  });

  it('a bulk import that regenerates over a hundred index files commits under a tight file-descriptor limit', async () => {
    const repo = await hookedWikiRepo();
    const count = 150;
    repo.write(
      Object.fromEntries(
        Array.from({ length: count }, (_, i) => [`concepts/bulk-${i}/page-${i}.md`, wikiPage({ category: 'concepts', title: `Bulk Page ${i}` })]),
      ),
    );
    repo.git('add', '--all');
    // The limit binds the hook's CLI too: 128 descriptors, where a git process per index file at once needed three each.
    const commit = run('sh', ['-c', 'ulimit -n 128 && git commit --quiet -m "bulk import"'], repo.root);
    expect(commit.status, commit.stderr).toBe(0);
    expect(repo.committedPaths()).toEqual(expect.arrayContaining([`concepts/bulk-0/_index.md`, `concepts/bulk-${count - 1}/_index.md`]));
    expect(statusOf(repo)).toBe('');
  });

  it('blocks an invalid page with a message naming the file and line, and commits nothing', async () => {
    const repo = await hookedWikiRepo();
    const bad = invalidPage('Broken Date');
    repo.write({ 'concepts/ops/broken-date.md': bad });
    repo.git('add', 'concepts/ops/broken-date.md');
    const head = repo.head();
    const indexesBefore = ['index.md', 'concepts/_index.md', 'concepts/ops/_index.md'].map((p) => repo.read(p));

    const commit = repo.commit('add a broken page');
    expect(commit.status).not.toBe(0);
    expect(commit.stderr).toContain(`concepts/ops/broken-date.md:${lineOfField(bad, 'created')}: created must be ISO-8601 UTC`);
    expect(commit.stderr).toContain('commit blocked');
    expect(repo.head()).toBe(head);
    // No index work behind the writer's back: nothing else staged, no index file touched.
    expect(repo.stagedPaths()).toEqual(['concepts/ops/broken-date.md']);
    expect(['index.md', 'concepts/_index.md', 'concepts/ops/_index.md'].map((p) => repo.read(p))).toEqual(indexesBefore);
  });

  it('git commit --no-verify commits the same invalid page, with no index work', async () => {
    const repo = await hookedWikiRepo();
    repo.write({ 'concepts/broken-date.md': invalidPage('Broken Date') });
    repo.git('add', 'concepts/broken-date.md');

    const commit = repo.commit('add it anyway', '--no-verify');
    expect(commit.status, commit.stderr).toBe(0);
    expect(repo.committedPaths()).toEqual(['concepts/broken-date.md']);
  });

  it('validates the STAGED content: an invalid staged page fixed only in the work tree is still blocked', async () => {
    const repo = await hookedWikiRepo();
    const bad = invalidPage('Broken Date');
    repo.write({ 'concepts/broken-date.md': bad });
    repo.git('add', 'concepts/broken-date.md');
    repo.write({ 'concepts/broken-date.md': wikiPage({ category: 'concepts', title: 'Broken Date' }) });
    const head = repo.head();

    const commit = repo.commit('fixed, but not staged');
    expect(commit.status).not.toBe(0);
    expect(commit.stderr).toContain(`concepts/broken-date.md:${lineOfField(bad, 'created')}:`);
    expect(repo.head()).toBe(head);
  });

  it('validates the STAGED content: a valid staged page broken only in the work tree commits the staged version', async () => {
    const repo = await hookedWikiRepo();
    const good = wikiPage({ category: 'concepts', title: 'Staged Title' });
    const broken = wikiPage({ category: 'concepts', title: 'Work Tree Title', created: 'yesterday' });
    repo.write({ 'concepts/page.md': good });
    repo.git('add', 'concepts/page.md');
    repo.write({ 'concepts/page.md': broken });

    const commit = repo.commit('staged version is fine');
    expect(commit.status, commit.stderr).toBe(0);
    expect(showAtHead(repo, 'concepts/page.md')).toBe(good);
    // The index was built from the staged page, not the work tree's.
    expect(showAtHead(repo, 'concepts/_index.md')).toContain('[Staged Title](page.md)');
    expect(showAtHead(repo, 'concepts/_index.md')).not.toContain('Work Tree Title');
    expect(repo.read('concepts/page.md')).toBe(broken);
    expect(statusOf(repo)).toBe(' M concepts/page.md\n');
  });

  it('reports a link to a page that exists only in the work tree (untracked, not staged) as broken', async () => {
    const repo = await hookedWikiRepo();
    const linker = wikiPage({ category: 'concepts', title: 'Linker', links: ['concepts/not-yet-staged.md'] });
    repo.write({ 'concepts/linker.md': linker, 'concepts/not-yet-staged.md': wikiPage({ category: 'concepts', title: 'Not Yet Staged' }) });
    repo.git('add', 'concepts/linker.md');
    const head = repo.head();

    const commit = repo.commit('link to an unstaged page');
    expect(commit.status).not.toBe(0);
    const seeAlsoLine = linker.split('\n').indexOf('- [concepts/not-yet-staged.md](/concepts/not-yet-staged.md)') + 1;
    expect(commit.stderr).toContain(`concepts/linker.md:${seeAlsoLine}: broken markdown link: /concepts/not-yet-staged.md`);
    expect(repo.head()).toBe(head);
  });

  it('accepts a link to a page that is staged but deleted from the work tree', async () => {
    const repo = await hookedWikiRepo();
    repo.write({
      'concepts/linker.md': wikiPage({ category: 'concepts', title: 'Linker', links: ['concepts/staged-only.md'] }),
      'concepts/staged-only.md': wikiPage({ category: 'concepts', title: 'Staged Only' }),
    });
    repo.git('add', 'concepts/linker.md', 'concepts/staged-only.md');
    repo.remove('concepts/staged-only.md');

    const commit = repo.commit('link to a staged page');
    expect(commit.status, commit.stderr).toBe(0);
    expect(repo.committedPaths()).toContain('concepts/staged-only.md');
    expect(showAtHead(repo, 'concepts/_index.md')).toContain('[Staged Only](staged-only.md)');
    expect((await committedIndexesAreFresh(repo)).status).toBe(0);
  });
});

// `git commit -a` and `git commit <paths>` commit a temporary index that git names in GIT_INDEX_FILE:
// the hook must validate and stage into that index, not .git/index.
describe('pre-commit hook: commits that stage as they commit (-a, <paths>)', () => {
  const retitled = (created?: string) =>
    wikiPage({ category: 'entities', title: 'Redis Cluster', links: ['concepts/retry-budgets.md'], ...(created ? { created } : {}) });

  it.each([[['--all']], [['--', 'entities/redis.md']], [['--include', '--', 'entities/redis.md']]])(
    'git commit %j blocks an invalid edit it stages',
    async (args) => {
      const repo = await hookedWikiRepo();
      const bad = retitled('2026-04-24');
      repo.write({ 'entities/redis.md': bad });
      const head = repo.head();

      const commit = repo.commit('edit redis', ...args);
      expect(commit.stderr).toContain(`entities/redis.md:${lineOfField(bad, 'created')}: created must be ISO-8601 UTC`);
      expect(commit.status).not.toBe(0);
      expect(repo.head()).toBe(head);
    },
  );

  it('git commit --all commits the regenerated index of the page it stages', async () => {
    const repo = await hookedWikiRepo();
    repo.write({ 'entities/redis.md': retitled() });

    const commit = repo.commit('retitle redis', '--all');
    expect(commit.status, commit.stderr).toBe(0);
    expect(repo.committedPaths().sort()).toEqual(['entities/_index.md', 'entities/redis.md']);
    expect(showAtHead(repo, 'entities/_index.md')).toContain('[Redis Cluster](redis.md)');
    expect((await committedIndexesAreFresh(repo)).status).toBe(0);
  });
});

// The regenerated index is staged as a blob; a working copy with unstaged edits of its own keeps them.
it('pre-commit hook keeps unstaged work-tree edits to an index file', async () => {
  const repo = await hookedWikiRepo();
  const notes = '# Entities\n\nNotes I have not staged yet.\n';
  repo.write({ 'entities/_index.md': notes, 'entities/postgres.md': wikiPage({ category: 'entities', title: 'Postgres' }) });
  repo.git('add', 'entities/postgres.md');

  const commit = repo.commit('add postgres');
  expect(commit.status, commit.stderr).toBe(0);
  expect(showAtHead(repo, 'entities/_index.md')).toContain('[Postgres](postgres.md)');
  expect(repo.read('entities/_index.md')).toBe(notes);
});
