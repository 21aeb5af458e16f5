// Writing generated files into a wiki (and the catalog's snapshots into their folder) without ever
// leaving one half-written: each file is written beside its target and renamed over it, so a reader
// sees the old bytes or the new, never a mix (a snapshot's reader may also find none for a moment:
// see removeReplaced). A writer killed between the two steps leaves its temp file behind: the next
// run removes it.
import { lstat, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { STEWARD_TEMP_FILE } from './tree.js';
import { resolveWikiPath } from './wiki-path.js';

export interface AtomicWriteOptions {
  /**
   * Remove the file this replaces just before the new one is renamed into place, instead of renaming
   * over it: for a file a reader may find missing for a moment (the catalog's snapshot, a cache).
   * Renaming over a file makes ext4 write the new file's blocks out before the rename returns (its
   * `auto_da_alloc`, which keeps a replaced file from reading empty after a crash): 35 ms for a
   * 58 MB snapshot, against 3 ms to remove it. A snapshot cut short by a crash reads as malformed
   * and is written anew.
   */
  removeReplaced?: boolean;
}

/** `content`: text, bytes, or bytes in parts (written one after another, never joined in memory). */
export async function writeWikiFileAtomically(
  wikiRoot: string,
  relPath: string,
  content: string | Buffer | readonly Buffer[],
  options: AtomicWriteOptions = {},
): Promise<void> {
  const safe = resolveWikiPath('', relPath);
  if (safe === undefined || safe === '' || safe !== relPath) throw new Error(`refusing to write outside the wiki root: ${relPath}`);
  const target = path.join(wikiRoot, safe);
  await makeDirsNotThroughLinks(wikiRoot, safe.split('/').slice(0, -1));
  if ((await lstatOrUndefined(target))?.isSymbolicLink()) throw new LinkedPathError(target);
  const temp = `${target}.wiki-steward-${process.pid}.tmp`;
  try {
    // 'wx': a temp name someone planted (a link, a file) is never written through.
    await rm(temp, { force: true });
    await writeFile(temp, content, { flag: 'wx' });
    // Never a folder's contents: `rm` without `recursive` refuses one, and the rename below would too.
    if (options.removeReplaced) await rm(target, { force: true });
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** A write refused because a component of its path is a symbolic link. */
export class LinkedPathError extends Error {
  constructor(readonly linked: string) {
    super(`refusing to write through the symbolic link ${linked}: the steward writes only into real folders of the wiki`);
  }
}

const lstatOrUndefined = (p: string) =>
  lstat(p).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });

/**
 * The wiki root and each folder below it down to the target's, made one at a time: none may be a
 * symbolic link (a `queries` linked outside the repository, or onto `concepts`, would receive the
 * write), and none may be a file.
 */
async function makeDirsNotThroughLinks(wikiRoot: string, dirs: readonly string[]): Promise<void> {
  let dir = wikiRoot;
  for (const part of ['', ...dirs]) {
    dir = path.join(dir, part);
    const stat = await lstatOrUndefined(dir);
    if (stat?.isSymbolicLink()) throw new LinkedPathError(dir);
    if (stat && !stat.isDirectory()) throw new Error(`cannot write into ${dir}: it is a file, not a folder`);
    // The root may be new with its parents (a first capture); below it, one folder at a time.
    if (!stat)
      await mkdir(dir, { recursive: part === '' }).catch((error: NodeJS.ErrnoException) => (error.code === 'EEXIST' ? undefined : Promise.reject(error)));
  }
}

/** A writer has no reason to hold its temp file this long: the write and the rename take milliseconds. */
export const TEMP_FILE_MAX_AGE_MS = 60_000;

/** True when a process with this id is running (one we may not signal counts: it exists). */
function isRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes temp files an interrupted write left (wiki-relative paths, as the tree lists them): only
 * names of our own pattern, and only when the process that wrote one is gone or the file is older
 * than a minute (a process id can be reused; a live writer is never that slow). Returns the paths
 * removed. A file that vanishes or cannot be removed meanwhile is skipped.
 */
export async function removeStaleTempFiles(wikiRoot: string, relPaths: readonly string[], now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  for (const rel of relPaths) {
    const match = STEWARD_TEMP_FILE.exec(rel);
    if (!match || resolveWikiPath('', rel) !== rel) continue;
    const file = path.join(wikiRoot, rel);
    try {
      const stat = await lstat(file);
      if (!stat.isFile()) continue;
      const abandoned = !isRunning(Number(match[1])) || now - stat.mtimeMs > TEMP_FILE_MAX_AGE_MS;
      if (!abandoned) continue;
      await rm(file);
      removed.push(rel);
    } catch {
      // Gone already, or not ours to remove: nothing to do.
    }
  }
  return removed;
}
