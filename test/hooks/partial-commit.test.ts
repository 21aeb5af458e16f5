// `git commit -- <paths>` and `git commit --only <paths>` commit a temporary index (HEAD plus those
// paths, named by GIT_INDEX_FILE), while the real index keeps whatever else was staged and becomes
// .git/index when the commit lands. The index files the hook regenerates into the temporary index
// must land in the real index too, or the real index holds a staged revert of them afterwards.
// Each test starts from a copy of a repository prepared once for the file (see wikiRepoTemplate).
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli as runBuiltCli } from '../helpers/cli.js';
import { runCli } from '../helpers/cli-in-process.js';
import { type GitRepo, TempDirs, openRepo, run } from '../helpers/git-repo.js';
import { wikiPage } from '../helpers/wiki-pages.js';
import { wikiRepoTemplate } from '../helpers/wiki-repo.js';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

/** The sample wiki, committed with fresh indexes; `hooked` has the hook installed by the built CLI. */
const unhooked = wikiRepoTemplate();
const hooked = wikiRepoTemplate({ hooks: true });
afterAll(() => Promise.all([unhooked.cleanup(), hooked.cleanup()]));

const hookedWikiRepo = (): Promise<GitRepo> => hooked.copy(dirs);

const status = (repo: GitRepo): string => repo.git('status', '--porcelain', '--untracked-files=all');
/** Paths whose staged content differs from HEAD (the real index, as `git status` reads it). */
const stagedAgainstHead = (repo: GitRepo): string[] => repo.git('diff', '--cached', '--name-only').split('\n').filter(Boolean).sort();
const isIndexFile = (p: string): boolean => p === 'index.md' || p.endsWith('_index.md');

/** `wiki-steward index --check` (in-process) on a fresh clone of HEAD: 0 means every committed index file is fresh. */
async function committedIndexesAreFresh(repo: GitRepo): Promise<number> {
  const clone = path.join(await dirs.make('ws-clone-'), 'clone');
  const cloned = run('git', ['clone', '--quiet', repo.root, clone], path.dirname(clone));
  if (cloned.status !== 0) throw new Error(cloned.stderr);
  return (await runCli(['index', '--check'], clone)).code;
}

const pageA = wikiPage({ category: 'concepts', title: 'Queue Draining' });
const pageB = wikiPage({ category: 'entities', title: 'Redis Cluster', links: ['concepts/retry-budgets.md'] });
const pageBSameFolder = wikiPage({ category: 'concepts', title: 'Retry Budgets Revised', scores: [5, 4, 4, 3] });

describe('a partial commit (git commit -- <path>) with another page staged', () => {
  it.each([[['--']], [['--only', '--']]])('git commit %j B: A stays staged as it was, no index file is left staged or modified', async (flags) => {
    const repo = await hookedWikiRepo();
    repo.write({ 'concepts/queue-draining.md': pageA });
    repo.git('add', 'concepts/queue-draining.md');
    repo.write({ 'entities/redis.md': pageB });

    const commit = repo.commit('retitle redis only', ...flags, 'entities/redis.md');
    expect(commit.status, commit.stderr).toBe(0);
    expect(repo.committedPaths().sort()).toEqual(['entities/_index.md', 'entities/redis.md']);
    // A is staged exactly as before, and nothing else: no staged revert of entities/_index.md.
    expect(status(repo)).toBe('A  concepts/queue-draining.md\n');
    expect(stagedAgainstHead(repo)).toEqual(['concepts/queue-draining.md']);
    expect(repo.git('show', ':concepts/queue-draining.md')).toBe(pageA);

    // The next ordinary commit commits exactly A with its regenerated indexes, and leaves the tree clean.
    const next = repo.commit('add queue draining');
    expect(next.status, next.stderr).toBe(0);
    expect(repo.committedPaths().sort()).toEqual(['concepts/_index.md', 'concepts/queue-draining.md', 'index.md']);
    expect(repo.git('show', 'HEAD:entities/_index.md')).toContain('[Redis Cluster](redis.md)');
    expect(status(repo)).toBe('');
    expect(await committedIndexesAreFresh(repo)).toBe(0);
  });

  it('A and B in the same folder: the folder index committed with B is the one the real index holds', async () => {
    const repo = await hookedWikiRepo();
    repo.write({ 'concepts/queue-draining.md': pageA });
    repo.git('add', 'concepts/queue-draining.md');
    repo.write({ 'concepts/retry-budgets.md': pageBSameFolder });

    const commit = repo.commit('revise retry budgets only', '--', 'concepts/retry-budgets.md');
    expect(commit.status, commit.stderr).toBe(0);
    expect(repo.committedPaths().sort()).toEqual(['concepts/_index.md', 'concepts/retry-budgets.md']);
    // Committed without A (A was not part of this commit), with B's new title.
    const committedIndex = repo.git('show', 'HEAD:concepts/_index.md');
    expect(committedIndex).toContain('Retry Budgets Revised');
    expect(committedIndex).not.toContain('Queue Draining');
    expect(status(repo)).toBe('A  concepts/queue-draining.md\n');

    const next = repo.commit('add queue draining');
    expect(next.status, next.stderr).toBe(0);
    expect(repo.committedPaths().sort()).toEqual(['concepts/_index.md', 'concepts/queue-draining.md', 'index.md']);
    expect(repo.git('show', 'HEAD:concepts/_index.md')).toContain('Queue Draining');
    expect(status(repo)).toBe('');
    expect(await committedIndexesAreFresh(repo)).toBe(0);
  });

  it('an index file the user staged a version of themselves keeps that staged version', async () => {
    const repo = await hookedWikiRepo();
    const ownIndex = `${repo.read('concepts/_index.md')}\nA note staged by hand.\n`;
    repo.write({ 'concepts/_index.md': ownIndex });
    repo.git('add', 'concepts/_index.md');
    repo.write({ 'concepts/retry-budgets.md': pageBSameFolder });

    const commit = repo.commit('revise retry budgets only', '--', 'concepts/retry-budgets.md');
    expect(commit.status, commit.stderr).toBe(0);
    expect(commit.stderr).toContain('concepts/_index.md: the commit gets the regenerated file; the version you staged stays staged');
    expect(repo.git('show', 'HEAD:concepts/_index.md')).toContain('Retry Budgets Revised');
    // What the user staged is still staged, and their working copy is untouched.
    expect(repo.git('show', ':concepts/_index.md')).toBe(ownIndex);
    expect(repo.read('concepts/_index.md')).toBe(ownIndex);
    expect(stagedAgainstHead(repo)).toEqual(['concepts/_index.md']);
  });

  it('a partial commit the hook blocks leaves the real index and the index files as they were', async () => {
    const repo = await hookedWikiRepo();
    repo.write({ 'concepts/queue-draining.md': pageA });
    repo.git('add', 'concepts/queue-draining.md');
    repo.write({ 'entities/redis.md': wikiPage({ category: 'entities', title: 'Redis Cluster', created: 'yesterday' }) });
    const head = repo.head();
    const indexBefore = repo.read('entities/_index.md');

    const commit = repo.commit('broken redis only', '--', 'entities/redis.md');
    expect(commit.status).not.toBe(0);
    expect(repo.head()).toBe(head);
    expect(status(repo)).toBe('A  concepts/queue-draining.md\n M entities/redis.md\n');
    expect(repo.read('entities/_index.md')).toBe(indexBefore);
  });
});

// Every kind of commit, from the same starting point (A staged, B edited but not staged): afterwards
// the real index holds HEAD for every file the user did not stage, and no index file is left
// staged or modified.
describe.each([
  ['plain', [] as string[], [' M entities/redis.md']],
  ['--all', ['--all'], []],
  ['-- B', ['--', 'entities/redis.md'], ['A  concepts/queue-draining.md']],
  ['--only B', ['--only', 'entities/redis.md'], ['A  concepts/queue-draining.md']],
  ['--include B', ['--include', 'entities/redis.md'], []],
])('after git commit %s', (_name, flags, leftover) => {
  it('the real index matches HEAD except what the user still has staged; no index file is left behind', async () => {
    const repo = await hookedWikiRepo();
    repo.write({ 'concepts/queue-draining.md': pageA });
    repo.git('add', 'concepts/queue-draining.md');
    repo.write({ 'entities/redis.md': pageB });

    const commit = repo.commit('a commit', ...flags);
    expect(commit.status, commit.stderr).toBe(0);
    const lines = status(repo).split('\n').filter(Boolean);
    expect(lines.filter((l) => isIndexFile(l.slice(3)))).toEqual([]);
    expect(lines).toEqual(leftover);
  });
});

it('a partial commit in a linked worktree (its own index, hooks shared with the main one) leaves its index clean', async () => {
  const main = await unhooked.copy(dirs);
  const worktree = openRepo(path.join(await dirs.make('ws-worktree-'), 'wt'));
  main.git('worktree', 'add', '--quiet', '-b', 'side', worktree.root);
  const install = runBuiltCli(['hooks', 'install'], worktree.root);
  expect(install.status, install.stderr).toBe(0);
  expect(install.stderr).toContain('pre-commit hook installed');

  worktree.write({ 'concepts/queue-draining.md': pageA });
  worktree.git('add', 'concepts/queue-draining.md');
  worktree.write({ 'entities/redis.md': pageB });
  const commit = worktree.commit('retitle redis only', '--', 'entities/redis.md');
  expect(commit.status, commit.stderr).toBe(0);
  expect(worktree.committedPaths().sort()).toEqual(['entities/_index.md', 'entities/redis.md']);
  expect(status(worktree)).toBe('A  concepts/queue-draining.md\n');
  // The main work tree's index was not touched.
  expect(status(main)).toBe('');
});
