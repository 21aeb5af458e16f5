// The wiki as git holds it — the staging area, or a commit — read from git's object store with
// nothing checked out: paths from the entries, content from their blobs, a chunk of blobs per
// `git cat-file --batch` so a whole-wiki read stays bounded in memory. The page size limit applies.
import path from 'node:path';
import type { GitCommandManager } from '../git/git-command-manager.js';
import { type WikiTree, addAncestors, decodePageBytes, tooLarge } from './tree.js';

const BLOB_CHUNK = 2000;

/**
 * `entries`: repository-relative paths with their blob shas, under `wikiPrefix` (the wiki root
 * relative to the repository root, '' when the wiki is the repository); `missing` says why a path
 * the tree was asked for has no blob.
 */
export function gitBlobTree(
  git: GitCommandManager,
  repoRoot: string,
  wikiPrefix: string,
  entries: ReadonlyArray<{ path: string; sha: string }>,
  missing: string,
): WikiTree {
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
    blobIds: shaOf,
    async readEach(paths, visit, options) {
      for (let at = 0; at < paths.length; at += BLOB_CHUNK) {
        const chunk = paths.slice(at, at + BLOB_CHUNK);
        const blobs = await git.readBlobs(chunk.map((p) => shaOf.get(p)).filter((s): s is string => s !== undefined));
        for (const p of chunk) {
          const blob = blobs.get(shaOf.get(p) ?? '');
          if (!blob) visit(p, { ok: false, reason: missing });
          else if (options?.maxBytes !== undefined && blob.length > options.maxBytes) visit(p, tooLarge(blob.length, options.maxBytes));
          else visit(p, decodePageBytes(blob));
        }
      }
    },
  };
}
