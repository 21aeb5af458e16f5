// The wiki as it will be committed: paths from git's staging area, content read from staged blobs.
import type { GitCommandManager } from '../git/git-command-manager.js';
import { gitBlobTree } from '../wiki/git-tree.js';
import type { WikiTree } from '../wiki/tree.js';

/** `wikiPrefix` is the wiki root relative to the repository root ('' when the wiki is the repository). */
export async function loadStagedTree(git: GitCommandManager, repoRoot: string, wikiPrefix: string): Promise<WikiTree> {
  return gitBlobTree(git, repoRoot, wikiPrefix, await git.stagedEntries(wikiPrefix), 'not in the staging area');
}
