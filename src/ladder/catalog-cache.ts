// The catalog's snapshot between runs: what a load computed (entries, acronyms, the ranking's
// postings), kept with a key per file it read, so a later run over the same files skips reading and
// counting every page. Keys: a tracked file git reports unchanged is keyed by its blob id; any other
// (changed, untracked, outside git) by size, modification and change times and inode. A snapshot of
// another steward version, layout or configuration, or whose keys differ in any file, is not used
// (the load runs and writes a new one); one that is partial, unreadable or malformed is ignored too.
// It is data (a checked JSON header and typed arrays), never code, and only ranks: the answerer
// quotes the pages it reads in this run. Writing it is best effort: a folder that cannot be written
// costs the next run its head start, nothing else.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { lstat, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StewardConfig } from '../config/config.js';
import { GitCommandManager } from '../git/git-command-manager.js';
import type { Postings } from './relevance.js';
import type { FoldedText } from './text-match.js';
import type { WikiEntry } from './wiki-entry.js';

/** Bumped whenever what the snapshot holds or means changes: a snapshot of another layout is ignored. */
const SNAPSHOT_SCHEMA = 1;
const MAGIC = Buffer.from('WSCATLG\n', 'latin1');
/** Past this a snapshot file is not read (a wiki whose snapshot is this large loads cold). */
const MAX_SNAPSHOT_BYTES = 1024 * 1024 * 1024;
const HEADER_AT = MAGIC.length + 4;

/** What a load computed, as kept (see loadCatalog). */
export interface CatalogSnapshot {
  /** Every file the load read (pages, index files, schema.md), wiki-relative, with its key, in the order read. */
  keys: Array<[path: string, key: string]>;
  entries: WikiEntry[];
  acronyms: Array<[acronym: string, expansions: string[]]>;
  unreadable: Array<{ path: string; reason: string }>;
  /** The ranking's folded words by id, and its postings (see RelevanceIndex.parts). */
  vocabulary: readonly string[];
  postings: Postings;
}

export interface CatalogCache {
  /** Each path's key as it is now (see the file's head). */
  keysOf(paths: readonly string[]): Promise<Array<[string, string]>>;
  /** The snapshot kept for this wiki, layout and configuration, when there is a well-formed one. */
  read(): Promise<CatalogSnapshot | undefined>;
  /** Keeps the snapshot for the next run; never fails (a folder that cannot be written keeps nothing). */
  write(snapshot: CatalogSnapshot): Promise<void>;
}

export interface CatalogCacheOptions {
  /** The steward's version: a snapshot another version wrote is not used. */
  stewardVersion: string;
  /** Where a relative `cache.dir` is taken from. */
  repoRoot: string;
  /** The wiki's HEAD commit and the files that differ from it (GitCommandManager.headState), when in git. */
  head?: { commit: string | undefined; changed: ReadonlySet<string> };
}

/**
 * Where the snapshots of the wiki at `root` are kept: `cache.dir` (relative to `repoRoot`) when the
 * configuration names one, else `<git dir>/wiki-steward/`; none outside git without `cache.dir`.
 * The Action saves and restores this folder with the Actions cache.
 */
export async function snapshotFolder(root: string, config: StewardConfig, repoRoot: string): Promise<string | undefined> {
  if (config.cache.dir !== undefined) return path.resolve(repoRoot, config.cache.dir);
  return new GitCommandManager(root).gitDir().then(
    (d) => path.join(d, 'wiki-steward'),
    () => undefined,
  );
}

/**
 * The cache for a wiki on disk whose tree holds `files`: in `cache.dir` when the configuration names
 * one, else in `<git dir>/wiki-steward/`; none outside git without `cache.dir`.
 */
export async function openCatalogCache(
  root: string,
  files: ReadonlySet<string>,
  config: StewardConfig,
  options: CatalogCacheOptions,
): Promise<CatalogCache | undefined> {
  const git = new GitCommandManager(root);
  const dir = await snapshotFolder(root, config, options.repoRoot);
  if (dir === undefined) return undefined;
  const configText = JSON.stringify(config);
  // One snapshot per wiki root: a changed setting or version rewrites it rather than leaving another beside it.
  const file = path.join(dir, `catalog-${digest([root]).slice(0, 16)}.bin`);
  const stamp = digest([String(SNAPSHOT_SCHEMA), options.stewardVersion, codeDigest(), root, configText, ...[...files].sort()]);
  const head = options.head?.commit !== undefined ? options.head : undefined;
  const blobs = head ? await git.indexBlobs().catch(() => undefined) : undefined;
  return {
    keysOf: async (paths) =>
      paths.map((p) => {
        const blob = blobs?.get(p);
        return [p, blob !== undefined && !head!.changed.has(p) ? `blob ${blob}` : statKey(path.join(root, p))];
      }),
    read: async () => {
      try {
        const info = await lstat(file);
        if (!info.isFile() || info.size > MAX_SNAPSHOT_BYTES) return undefined;
        return decodeSnapshot(await readFile(file), stamp);
      } catch {
        return undefined;
      }
    },
    write: async (snapshot) => {
      const temp = `${file}.${process.pid}.tmp`;
      try {
        await mkdir(dir, { recursive: true });
        // Never through a symbolic link: the folder must be a real one, and the temp name new ('wx').
        if (!(await lstat(dir)).isDirectory()) return;
        await writeFile(temp, encodeSnapshot(snapshot, stamp), { flag: 'wx' });
        await rename(temp, file);
      } catch {
        await rm(temp, { force: true }).catch(() => undefined);
      }
    },
  };
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
 */
function statKey(file: string): string {
  const info = statSync(file, { bigint: true, throwIfNoEntry: false });
  return info ? `stat ${info.size}:${info.mtimeNs}:${info.ctimeNs}:${info.ino}` : 'missing';
}

interface Header {
  stamp: string;
  keys: CatalogSnapshot['keys'];
  entries: WikiEntry[];
  acronyms: CatalogSnapshot['acronyms'];
  unreadable: CatalogSnapshot['unreadable'];
  vocabulary: string[];
  postings: number;
}

/**
 * The file: MAGIC, the JSON header's length (uint32 LE), the header, zeros to a multiple of 8,
 * then the postings' pseudo-frequencies (Float64), offsets and entries (Int32), little-endian.
 */
function encodeSnapshot(snapshot: CatalogSnapshot, stamp: string): Buffer {
  const { postings, ...rest } = snapshot;
  const header: Header = { stamp, ...rest, vocabulary: [...rest.vocabulary], postings: postings.entries.length };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const start = align8(HEADER_AT + json.length);
  const out = Buffer.alloc(start + postings.pseudoFrequencies.byteLength + postings.offsets.byteLength + postings.entries.byteLength);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(json.length, MAGIC.length);
  json.copy(out, HEADER_AT);
  let at = start;
  for (const array of [postings.pseudoFrequencies, postings.offsets, postings.entries]) {
    out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
    at += array.byteLength;
  }
  return out;
}

const align8 = (n: number): number => Math.ceil(n / 8) * 8;

/** The snapshot in `bytes` when it is whole, well formed and of this `stamp`; else undefined. */
export function decodeSnapshot(bytes: Buffer, stamp: string): CatalogSnapshot | undefined {
  if (bytes.length < HEADER_AT || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const headerLength = bytes.readUInt32LE(MAGIC.length);
  if (HEADER_AT + headerLength > bytes.length) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(bytes.toString('utf8', HEADER_AT, HEADER_AT + headerLength));
  } catch {
    return undefined;
  }
  if (!isHeader(header) || header.stamp !== stamp) return undefined;
  const words = header.vocabulary.length;
  const count = header.postings;
  const start = align8(HEADER_AT + headerLength);
  if (bytes.length !== start + 8 * count + 4 * (words + 1) + 4 * count) return undefined;
  const pseudoFrequencies = new Float64Array(copyOf(bytes, start, 8 * count));
  const offsets = new Int32Array(copyOf(bytes, start + 8 * count, 4 * (words + 1)));
  const entries = new Int32Array(copyOf(bytes, start + 8 * count + 4 * (words + 1), 4 * count));
  const postings = { offsets, entries, pseudoFrequencies };
  if (!postingsHold(postings, header.entries.length) || new Set(header.vocabulary).size !== words) return undefined;
  return { keys: header.keys, entries: header.entries, acronyms: header.acronyms, unreadable: header.unreadable, vocabulary: header.vocabulary, postings };
}

/** Bytes [at, at + length) in a buffer of their own (aligned for a typed array, whatever the file buffer's offset). */
const copyOf = (bytes: Buffer, at: number, length: number): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset + at, bytes.byteOffset + at + length) as ArrayBuffer;

/** Offsets rise from 0 to the postings' count; each word's pages ascend, within the catalog; every weight positive. */
function postingsHold({ offsets, entries, pseudoFrequencies }: Postings, pages: number): boolean {
  if (offsets[0] !== 0 || offsets[offsets.length - 1] !== entries.length) return false;
  for (let w = 0; w + 1 < offsets.length; w++) {
    if (offsets[w + 1]! < offsets[w]!) return false;
    for (let k = offsets[w]!; k < offsets[w + 1]!; k++) {
      const entry = entries[k]!;
      if (entry < 0 || entry >= pages || (k > offsets[w]! && entry <= entries[k - 1]!)) return false;
    }
  }
  return pseudoFrequencies.every((f) => Number.isFinite(f) && f > 0);
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPair = <A, B>(v: unknown, first: (x: unknown) => x is A, second: (x: unknown) => x is B): v is [A, B] =>
  Array.isArray(v) && v.length === 2 && first(v[0]) && second(v[1]);

function isFolded(v: unknown): v is FoldedText {
  return isObject(v) && isStrings(v.words) && isString(v.joined) && isString(v.raw);
}

function isEntry(v: unknown): v is WikiEntry {
  if (!isObject(v) || !isObject(v.folded)) return false;
  const { path, category, title, summary, tags, aliases, headings, linkTexts, listedIn, openCapture, folded } = v;
  return (
    [path, category, title, summary].every(isString) &&
    [tags, aliases, headings, linkTexts].every(isStrings) &&
    (listedIn === undefined || isString(listedIn)) &&
    typeof openCapture === 'boolean' &&
    isFolded(folded.title) &&
    isFolded(folded.summary)
  );
}

function isHeader(v: unknown): v is Header {
  return (
    isObject(v) &&
    isString(v.stamp) &&
    Array.isArray(v.keys) &&
    v.keys.every((k) => isPair(k, isString, isString)) &&
    Array.isArray(v.entries) &&
    v.entries.every(isEntry) &&
    Array.isArray(v.acronyms) &&
    v.acronyms.every((a) => isPair(a, isString, isStrings)) &&
    Array.isArray(v.unreadable) &&
    v.unreadable.every((u) => isObject(u) && isString(u.path) && isString(u.reason)) &&
    isStrings(v.vocabulary) &&
    Number.isSafeInteger(v.postings) &&
    (v.postings as number) >= 0
  );
}
