// Git's loose object format, read and written in this process: `objects/<2 hex>/<38 hex>` holding
// the zlib-deflated bytes "<type> <size>\0<content>", named by the sha-1 of those bytes. The
// emulator writes every object it makes this way (the bytes git's own `hash-object -w` would write,
// so git reads them as its own), and reads loose objects without starting a process: a spawn from
// a test worker costs more than the whole request it serves. Objects git packed (after a `git push`
// or a `git gc` into the repository) are not loose: readers get `undefined` and ask git.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { constants as zlibConstants, deflateSync, inflateSync } from 'node:zlib';

export type LooseObjectType = 'blob' | 'tree' | 'commit' | 'tag';

const TYPES = new Set<string>(['blob', 'tree', 'commit', 'tag']);

/** Git's object id (SHA-1 repositories): sha1 of "<type> <size>\0<content>". */
export function objectId(type: LooseObjectType, content: Buffer): string {
  return createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

const objectPath = (objectsDir: string, sha: string) => path.join(objectsDir, sha.slice(0, 2), sha.slice(2));

let scratchCounter = 0;

/**
 * Writes an object unless it is already there, as git does: to a temporary file in the object's
 * folder, then renamed into place, so a reader never sees half an object. Returns its id.
 */
export function writeLooseObject(objectsDir: string, type: LooseObjectType, content: Buffer): string {
  const sha = objectId(type, content);
  const file = objectPath(objectsDir, sha);
  if (existsSync(file)) return sha;
  mkdirSync(path.dirname(file), { recursive: true });
  const scratch = path.join(path.dirname(file), `tmp_obj_${process.pid}_${scratchCounter++}`);
  const fd = openSync(scratch, 'wx', 0o444);
  try {
    writeSync(fd, deflateSync(Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content])));
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(scratch, file);
  } catch (err) {
    rmSync(scratch, { force: true });
    throw err;
  }
  return sha;
}

/** The compressed bytes of a loose object, or undefined when none is stored loose (packed, or missing). */
function storedObject(objectsDir: string, sha: string): Buffer | undefined {
  try {
    return readFileSync(objectPath(objectsDir, sha));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** A loose object's type and content, or undefined when it is not stored loose (packed, or missing). */
export function readLooseObject(objectsDir: string, sha: string): { type: LooseObjectType; content: Buffer } | undefined {
  const stored = storedObject(objectsDir, sha);
  if (!stored) return undefined;
  const raw = inflateSync(stored);
  const nul = raw.indexOf(0);
  const [type, size] = raw
    .subarray(0, nul < 0 ? 0 : nul)
    .toString('latin1')
    .split(' ');
  const content = raw.subarray(nul + 1);
  if (nul < 0 || type === undefined || !TYPES.has(type) || Number(size) !== content.length || objectId(type as LooseObjectType, content) !== sha) {
    throw new Error(`corrupt loose object ${sha} in ${objectsDir}`);
  }
  return { type: type as LooseObjectType, content };
}

/** Compressed bytes inflated to read an object's header: more than a deflate block's code tables take. */
const HEADER_PREFIX_BYTES = 1024;

/**
 * A loose object's type and size, from its header alone (the first bytes, inflated as far as they
 * go), or undefined when it is not stored loose.
 */
export function looseObjectHeader(objectsDir: string, sha: string): { type: LooseObjectType; size: number } | undefined {
  const stored = storedObject(objectsDir, sha);
  if (!stored) return undefined;
  // A deflate stream can open with a block's code tables (a few hundred bytes at most) before the
  // first byte it decodes; the whole object is inflated only if a prefix does not reach the header.
  let m: RegExpExecArray | null = null;
  for (const length of [HEADER_PREFIX_BYTES, stored.length]) {
    const head = inflateSync(stored.subarray(0, length), { finishFlush: zlibConstants.Z_SYNC_FLUSH }).subarray(0, 32).toString('latin1');
    m = /^(blob|tree|commit|tag) (\d+)\0/.exec(head);
    if (m || length >= stored.length) break;
  }
  if (!m) throw new Error(`corrupt loose object ${sha} in ${objectsDir}`);
  return { type: m[1] as LooseObjectType, size: Number(m[2]) };
}

/** The type of object a tree entry's mode names, as git reads it: a directory, a submodule's commit, else a blob. */
export function typeOfMode(mode: string): 'blob' | 'tree' | 'commit' {
  const bits = Number.parseInt(mode, 8) & 0o170000;
  return bits === 0o040000 ? 'tree' : bits === 0o160000 ? 'commit' : 'blob';
}

export interface RawTreeEntry {
  /** The mode as stored, without leading zeros ("100644", "40000", "160000"). */
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  name: string;
}

/** The entries of a tree object: "<octal mode> <name>\0<20-byte sha>", repeated. */
export function parseTree(content: Buffer): RawTreeEntry[] {
  const entries: RawTreeEntry[] = [];
  let at = 0;
  while (at < content.length) {
    const space = content.indexOf(0x20, at);
    const nul = content.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 21 > content.length) throw new Error('corrupt tree object');
    const mode = content.subarray(at, space).toString('latin1');
    entries.push({
      mode,
      type: typeOfMode(mode),
      name: content.subarray(space + 1, nul).toString('utf8'),
      sha: content.subarray(nul + 1, nul + 21).toString('hex'),
    });
    at = nul + 21;
  }
  return entries;
}

/** A tree object as git's mktree writes it: entries sorted as git sorts them (a directory as "name/"), "<octal mode> <name>\0<raw sha>". */
export function treeObject(entries: Array<{ mode: string; sha: string; name: string }>): Buffer {
  const parsed = entries.map((e) => {
    const mode = Number.parseInt(e.mode, 8);
    const isDir = (mode & 0o170000) === 0o040000;
    return { mode, sha: e.sha, name: Buffer.from(e.name, 'utf8'), key: Buffer.from(isDir ? `${e.name}/` : e.name, 'utf8') };
  });
  parsed.sort((a, b) => Buffer.compare(a.key, b.key));
  return Buffer.concat(parsed.flatMap((e) => [Buffer.from(`${e.mode.toString(8)} `), e.name, Buffer.from([0]), Buffer.from(e.sha, 'hex')]));
}
