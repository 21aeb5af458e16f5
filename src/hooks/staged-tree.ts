// The wiki as it will be committed: paths from git's staging area, content read from staged blobs.
import path from 'node:path';
import { type FileText, type WikiTree, addAncestors, decodePageBytes } from '../wiki/tree.js';
import type { GitCommandManager } from './git-command-manager.js';

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
    async readMany(paths) {
      const blobs = await git.readBlobs(paths.map((p) => shaOf.get(p)).filter((s): s is string => s !== undefined));
      const out = new Map<string, FileText>();
      for (const p of paths) {
        const blob = blobs.get(shaOf.get(p) ?? '');
        out.set(p, blob ? decodePageBytes(blob) : { ok: false, reason: 'not in the staging area' });
      }
      return out;
    },
  };
}
