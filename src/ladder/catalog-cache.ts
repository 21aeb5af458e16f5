// The catalog's snapshot between runs: what a load computed, kept with a key per file it read, so a
// later run over the same files skips reading and counting every page. Keys: a tracked file git
// reports unchanged is keyed by its blob id; any other (changed, untracked, outside git) by size,
// modification and change times and inode, unless the file changed too shortly before the load for
// those to be trusted, or could not be read for a passing reason, or (keyed by blob) changed after
// git's status looked: then under a key no file has, so the next load reads it again. A snapshot whose every key is current stands for the
// load; one whose keys differ for some pages gives the load the facts of the pages that did not
// change (catalog.ts reads the others, and recomputes what spans pages when a change reaches it). A snapshot of
// another steward version, layout or configuration, or of other git filter drivers or attributes
// files (which change how a blob is checked out), or one that is partial, unreadable or malformed,
// is not used, and the load writes a new one. It is data (checked JSON and typed arrays, in the
// layout of snapshot-file.ts), never code, and only ranks: the answerer quotes the pages it reads in
// this run. Writing it is best effort: a folder that cannot be written costs the next run its head
// start, nothing else.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { lstat, readFile, readdir, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StewardConfig } from '../config/config.js';
import { GitCommandManager, type GitPlaces } from '../git/git-command-manager.js';
import { STEWARD_TEMP_FILE } from '../wiki/tree.js';
import { removeStaleTempFiles, writeWikiFileAtomically } from '../wiki/write-files.js';
import { type CatalogSnapshot, type CatalogSnapshotParts, type FileKeys, encodeSnapshot, readSnapshot } from './snapshot-file.js';

/** Bumped whenever what the snapshot holds or means changes: a snapshot of another layout is ignored. */
const SNAPSHOT_SCHEMA = 3;

export interface CatalogCache {
  /** Each path's key as it is now (see the file's head). */
  keysOf(paths: readonly string[]): Promise<Array<[string, string]>>;
  /** The snapshot kept for this wiki, layout and configuration, when there is a well-formed one. */
  read(): Promise<CatalogSnapshot | undefined>;
  /** Keeps the snapshot for the next run; never fails (a folder that cannot be written keeps nothing). */
  write(snapshot: CatalogSnapshotParts): Promise<void>;
}

export interface CatalogCacheOptions {
  /** The steward's version: a snapshot another version wrote is not used. */
  stewardVersion: string;
  /** Where a relative `cache.dir` is taken from. */
  repoRoot: string;
  /** The wiki's HEAD commit, the files that differ from it and the repository's places (GitCommandManager.headState), when in git. */
  head?: ReturnType<GitCommandManager['headState']>;
  /** The time of day in milliseconds since 1970, which files' time stamps are compared with (see settledStatKey); Date.now by default. */
  wallClock?: () => number;
}

/**
 * Where the snapshots of the wiki at `root` are kept: `cache.dir` (relative to `repoRoot`) when the
 * configuration names one, else `<git dir>/wiki-steward/`; none outside git without `cache.dir`.
 * The Action saves and restores this folder with the Actions cache.
 */
export async function snapshotFolder(
  root: string,
  config: StewardConfig,
  repoRoot: string,
  // Asked for only without `cache.dir`: a folder the configuration names needs no git process.
  places: () => Promise<GitPlaces | undefined> = () => new GitCommandManager(root).places(),
): Promise<string | undefined> {
  if (config.cache.dir !== undefined) return path.resolve(repoRoot, config.cache.dir);
  const gitDir = (await places())?.gitDir;
  return gitDir && path.join(gitDir, 'wiki-steward');
}

/** The cache for a wiki on disk (see snapshotFolder for where); none outside git without `cache.dir`. */
export async function openCatalogCache(root: string, config: StewardConfig, options: CatalogCacheOptions): Promise<CatalogCache | undefined> {
  const wallClock = options.wallClock ?? Date.now;
  // Before anything is awaited: no later than git's status (asked for just before) looks at the files.
  const openedNs = BigInt(wallClock()) * 1_000_000n;
  const git = new GitCommandManager(root);
  // The places from HEAD's state when it was asked for them, not from a git process of their own.
  const places =
    options.head?.then(
      ({ places }) => places,
      () => undefined,
    ) ?? git.places();
  // The staging area's blob ids are read beside HEAD's state (git's answers do not wait on each other), and used when there is a HEAD.
  const [dir, blobs, state, checkout] = await Promise.all([
    snapshotFolder(root, config, options.repoRoot, () => places),
    git.indexBlobs().catch(() => undefined),
    options.head,
    checkoutSettings(root, git, places),
  ]);
  if (dir === undefined) return undefined;
  const head = state?.commit !== undefined ? state : undefined;
  // One snapshot per wiki root: a changed setting or version rewrites it rather than leaving another beside it.
  const file = path.join(dir, `catalog-${digest([root]).slice(0, 16)}.bin`);
  const stamp = digest([String(SNAPSHOT_SCHEMA), options.stewardVersion, codeDigest(), root, JSON.stringify(config), checkout]);
  // The files whose size and times this run took too soon after their last change to key them by.
  const unsettled = new Set<string>();
  return {
    keysOf: async (paths) => {
      const settledBefore = BigInt(wallClock()) * 1_000_000n - SETTLING_NS;
      return paths.map((p) => {
        const blob = head && blobs?.get(p);
        if (blob && !head.changed.has(p)) return [p, `blob ${blob}`];
        const { key, settled } = statKey(path.join(root, p), settledBefore);
        if (!settled) unsettled.add(p);
        return [p, key];
      });
    },
    // Not through a symbolic link in place of the folder either (as `write`).
    read: async () => ((await lstat(dir).catch(() => undefined))?.isDirectory() ? readSnapshot(file, stamp).catch(() => undefined) : undefined),
    write: async (snapshot) => {
      const name = path.basename(file);
      try {
        // A run stopped while it wrote (`ask` writes after its answer, when one may well stop it)
        // leaves its temp file: cleared once its writer is gone, or it would pile up.
        const strays = (await readdir(dir).catch(() => [])).filter((other) => other.startsWith(`${name}.`) && STEWARD_TEMP_FILE.test(other));
        await removeStaleTempFiles(dir, strays);
        // Never through a symbolic link: the folder must be a real one.
        await writeWikiFileAtomically(
          dir,
          name,
          encodeSnapshot(
            withUnsettledKeys(snapshot, unsettled, (p) => changedSince(path.join(root, p), openedNs)),
            stamp,
          ),
          // A reader that finds no snapshot for a moment loads without one.
          { removeReplaced: true },
        );
      } catch {
        // Best effort: a folder that cannot be written keeps nothing.
      }
    },
  };
}

/**
 * What turns a blob into the file checked out besides the blob itself, for the stamp: a file
 * checked out through another driver or encoding (git-crypt unlocked) is other bytes of the same
 * blob. The filter drivers as configured (`filter.*`: git-crypt, LFS), and the attributes files that
 * say which files they and `working-tree-encoding` apply to, with their contents ('' for a missing
 * one): every `.gitattributes` from the wiki's root up to the work tree's top (those below the root
 * are keyed by the load), the repository's `info/attributes`, the user's (`core.attributesFile`,
 * else git's default) and the system's.
 */
async function checkoutSettings(root: string, git: GitCommandManager, places: Promise<GitPlaces | undefined>): Promise<string> {
  const [settings, where] = await Promise.all([git.settings(), places]);
  const filters = settings.filter(([key]) => key.startsWith('filter.')).map(([key, value]) => `${key}=${value}`);
  const userFile = settings.find(([key]) => key === 'core.attributesfile')?.[1];
  // From the wiki's root (as git sees it, links resolved) up to the top, the top included.
  const folders: string[] = [];
  const top = where?.top;
  const here = await realpath(root).catch(() => path.resolve(root));
  for (let dir = here; top && (dir === top || dir.startsWith(`${top}${path.sep}`)); dir = path.dirname(dir)) {
    folders.push(dir);
    if (dir === top) break;
  }
  const home = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  const files = [
    ...folders.map((dir) => path.join(dir, '.gitattributes')),
    ...(where ? [path.join(where.gitDir, 'info', 'attributes')] : []),
    userFile ? path.resolve(userFile.replace(/^~(?=\/|$)/, os.homedir())) : path.join(home, 'git', 'attributes'),
    '/etc/gitattributes',
  ];
  const contents = await Promise.all(files.map((file) => readFile(file, 'utf8').catch(() => '')));
  return [...filters, ...files.map((file, i) => `${file}\0${contents[i]}`)].join('\0');
}

/**
 * The steward's code as well as its version: a rebuilt bundle of the same version may count
 * differently. By content, not modification time: a snapshot the Actions cache restores onto a fresh
 * runner, whose copy of the same bundle is newly written, must still be current.
 */
function codeDigest(): string {
  try {
    return createHash('sha256')
      .update(readFileSync(fileURLToPath(import.meta.url)))
      .digest('hex');
  } catch {
    return 'unreadable';
  }
}

const digest = (parts: readonly string[]): string => createHash('sha256').update(parts.join('\0')).digest('hex');

/**
 * Size, modification and change times (nanoseconds) and inode: an edit that keeps the size and sets
 * the modification time back still moves the change time, which no tool can set. A missing file is
 * keyed as missing, which no snapshot of a read file holds.
 *
 * `settled`: whether the file's last change is older than `settledBefore`. A file system stamps
 * times to its own granularity (two seconds on FAT, a clock tick elsewhere), so an edit made just
 * after this run read a file can leave it with the same size and times: a key taken that soon
 * would say the edited file is the one read. Git's index meets the same race ("racy git").
 */
function statKey(file: string, settledBefore: bigint): { key: string; settled: boolean } {
  const info = statSync(file, { bigint: true, throwIfNoEntry: false });
  if (!info) return { key: 'missing', settled: true };
  const changedLast = info.mtimeNs > info.ctimeNs ? info.mtimeNs : info.ctimeNs;
  return { key: `stat ${info.size}:${info.mtimeNs}:${info.ctimeNs}:${info.ino}`, settled: changedLast < settledBefore };
}

/**
 * How long after its last change a file's size and times key it: the coarsest granularity a wiki's
 * file system may stamp times to (FAT's two seconds), and as much again for the clock to differ.
 */
const SETTLING_NS = 4_000_000_000n;

/**
 * What no file's key ever is (keysOf gives blob, stat and missing keys), so the next load reads
 * the file again: kept for the files whose key was taken too soon after they changed or that
 * changed after git's status looked (the write sees to those), and for the pages and meta files a
 * load could not read for a passing reason (a failed read, a file gone meanwhile; the load sees to
 * those, with withKeysReadAgain).
 */
const UNSETTLED_KEY = 'unsettled';

/**
 * `keys` with UNSETTLED_KEY for the files in `reread`. Kept under its own key, a file the load could
 * not read (a page it listed as unreadable, an index file whose listings it went without) would
 * stay so in every later load, even once it reads again.
 */
export const withKeysReadAgain = (keys: FileKeys, reread: ReadonlySet<string>): FileKeys =>
  reread.size === 0 ? keys : keys.map(([p, key]) => [p, reread.has(p) ? UNSETTLED_KEY : key]);

/**
 * Whether the file changed at or after `sinceNs` (or is gone). Git's status vouches for a file's
 * blob as it found it: one edited after it looked may have been read edited, and a blob key would
 * stand for that read once the file is HEAD's again (a checkout, an undo).
 */
function changedSince(file: string, sinceNs: bigint): boolean {
  const info = statSync(file, { bigint: true, throwIfNoEntry: false });
  return !info || info.ctimeNs >= sinceNs;
}

/**
 * The snapshot with UNSETTLED_KEY for the files in `unsettled` and the files keyed by blob that this
 * load read (all but the pages kept as lines) and that `changedAfterGit` says changed after git's
 * status looked.
 */
function withUnsettledKeys(snapshot: CatalogSnapshotParts, unsettled: ReadonlySet<string>, changedAfterGit: (p: string) => boolean): CatalogSnapshotParts {
  // Keys list the pages first, in the order of `pages`.
  const readBlobs = snapshot.keys.filter(([p, key], i) => key.startsWith('blob ') && !snapshot.pages[i]?.line && changedAfterGit(p)).map(([p]) => p);
  if (unsettled.size === 0 && readBlobs.length === 0) return snapshot;
  const reread = new Set([...unsettled, ...readBlobs]);
  return {
    ...snapshot,
    keys: withKeysReadAgain(snapshot.keys, reread),
    pages: snapshot.pages.map((p) => ('path' in p && reread.has(p.path) && !p.line ? { ...p, key: UNSETTLED_KEY } : p)),
  };
}
