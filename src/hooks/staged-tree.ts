// The wiki as it will be committed: paths from git's staging area, content read from staged blobs.
import path from 'node:path';
import { type WikiTree, addAncestors, decodePageBytes } from '../wiki/tree.js';

const BLOB_CHUNK = 2000;
import type { GitCommandManager } from '../git/git-command-manager.js';

/** `wikiPrefix` is the wiki root relative to the repository root ('' when the wiki is the repository). */
export async function loadStagedTree(git: GitCommandManager, repoRoot: string, wikiPrefix: string): Promise<WikiTree> {
  const entries = await git.stagedEntries(wikiPrefix);
  const strip = wikiPrefix === '' ? 0 : wikiPrefix.length + 1;
  const shaOf = new Map(entries.map((e) => [e.path.slice(strip), e.sha]));
  const files = new Set(shaOf.keys());
  const dirs = new Set<string>();
  addAncestors(files, dirs);
  return {
    root: path.join(repoRoot, wikiPrefix),
    files,
    dirs,
    skipped: [],
    async readEach(paths, visit) {
      // One `git cat-file --batch` per chunk keeps memory bounded on a whole-wiki read.
      for (let at = 0; at < paths.length; at += BLOB_CHUNK) {
        const chunk = paths.slice(at, at + BLOB_CHUNK);
        const blobs = await git.readBlobs(chunk.map((p) => shaOf.get(p)).filter((s): s is string => s !== undefined));
        for (const p of chunk) {
          const blob = blobs.get(shaOf.get(p) ?? '');
          visit(p, blob ? decodePageBytes(blob) : { ok: false, reason: 'not in the staging area' });
        }
      }
    },
  };
}
