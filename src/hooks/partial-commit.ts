// `git commit <paths>` / `git commit --only <paths>` (a "partial commit") builds two indexes: a
// temporary one (HEAD plus those paths) that it commits and hands to the hook in GIT_INDEX_FILE,
// and the real one (everything already staged, plus those paths) that it holds locked as
// `<index>.lock` and puts in place of `<index>` once the commit is made. Files the hook stages into
// the temporary index only would be committed, while the real index kept their old version: a
// staged revert of them after the commit. So what the hook stages is staged in the real index too,
// wherever the real index still held what the commit started from.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { GitCommandManager, StagedEntry } from '../git/git-command-manager.js';

/** Git's name for the temporary index of a partial commit (`next-index-<pid>.lock` in the git folder). */
const TEMPORARY_INDEX = /^next-index-[0-9]+\.lock$/;

/**
 * The locked real index (absolute path) when this hook runs inside a partial commit; undefined for
 * every other commit (plain, `-a` and `--include` commit the index they hand the hook).
 */
export async function partialCommitRealIndex(git: GitCommandManager, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const given = env.GIT_INDEX_FILE;
  if (!given || !TEMPORARY_INDEX.test(path.basename(given))) return undefined;
  const lock = `${await git.defaultIndexFile()}.lock`;
  // Git holds the real index locked for the whole commit; without the lock this is not git's partial commit.
  return existsSync(lock) ? lock : undefined;
}

/**
 * Stages `staged` (entries just staged into the commit's index) in the real index as well, for each
 * path whose real-index entry is still the one the commit's index held before (`before`); a path the
 * user staged another version of keeps that version. Returns the paths kept that way.
 */
export async function stageInRealIndexToo(
  git: GitCommandManager,
  realIndex: string,
  before: ReadonlyMap<string, StagedEntry>,
  staged: readonly StagedEntry[],
): Promise<string[]> {
  const real = await git.indexEntries(
    staged.map((e) => e.path),
    realIndex,
  );
  const same = (a: StagedEntry | undefined, b: StagedEntry | undefined) =>
    a === undefined ? b === undefined : b !== undefined && a.sha === b.sha && a.mode === b.mode;
  const follow = staged.filter((e) => same(before.get(e.path), real.get(e.path)));
  await git.setIndexEntries(follow, realIndex);
  return staged.filter((e) => !follow.includes(e)).map((e) => e.path);
}
