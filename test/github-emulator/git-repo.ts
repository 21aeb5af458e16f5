// A real git repository behind one emulated GitHub repository: a bare repository in a temporary
// directory, in git's own on-disk format, so every sha the emulator hands out is a real object id
// and tests can run any git command against `dir`.
//
// Calls are synchronous: a request is answered atomically, as GitHub does, and test helpers such as
// `state.fileAt(...)` can be used inside `expect(...)`. A spawn from a test worker costs more than
// the request it serves (the worker's whole memory is mapped into the child), so what git's files
// backend does simply is done here: objects are written and read as loose objects
// (./loose-objects.ts; what git packed is read through git), and an ordinary loose ref is moved or
// deleted under its `.lock` file as git does it. Git itself does the history (`rev-list`,
// `merge-base`), diffs and merges (`merge-tree --write-tree`), and every case the fast paths leave
// aside (a packed ref to delete, a symbolic ref, an identity git would clean up). Answers about
// objects named by full sha are remembered (bounded); refs are read from the files git keeps them
// in on every call, never cached, so a `git push` into `dir` is seen at once.
// A new repository is a copy of one made by `git init` once per process, and a seed directory's
// objects are written by git once per content (its files' names, sizes and times) and copied after.
// Git is run with the system and global configuration switched off (no signing hooks,
// no autocrlf, no user-specific defaults) and without inherited GIT_* variables, so a test run from a
// git hook cannot leak GIT_DIR or GIT_INDEX_FILE into the emulator.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import { devNull, tmpdir } from 'node:os';
import path from 'node:path';
import { looseObjectHeader, objectId, parseTree, readLooseObject, treeObject, typeOfMode, writeLooseObject } from './loose-objects.js';

export type GitObjectType = 'blob' | 'tree' | 'commit' | 'tag';

export interface GitIdent {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  time: number;
  /** Git's timezone form, e.g. '+0000', '-0530'. */
  tz: string;
}

export interface ParsedCommit {
  sha: string;
  tree: string;
  parents: string[];
  author: GitIdent;
  committer: GitIdent;
  /** The message without git's trailing newline. */
  message: string;
  /** The armored signature from the `gpgsig` header, or null. */
  signature: string | null;
  /** The commit object without its `gpgsig` header: what the signature signs (null when unsigned). */
  payload: string | null;
  /** The raw commit object. */
  raw: string;
}

export interface TreeEntry {
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  path: string;
  /** Blob size in bytes (undefined for trees and submodules). */
  size?: number;
}

export interface TreeChange {
  path: string;
  mode?: string;
  type?: 'blob' | 'tree' | 'commit';
  /** An existing object; null deletes the path. */
  sha?: string | null;
  /** UTF-8 content written as a new blob. */
  content?: string;
}

export interface MergeCheck {
  clean: boolean;
  /** The merged tree (with conflict markers when not clean). */
  tree: string | null;
  /** Paths with conflicts. */
  conflicts: string[];
}

/** Thrown by GitRepo methods for problems a request caused (bad sha, missing path, …). */
export class GitInputError extends Error {
  constructor(
    readonly code: 'missing-object' | 'wrong-type' | 'bad-path' | 'missing-path' | 'conflict',
    message: string,
  ) {
    super(message);
  }
}

/** Thrown inside GitRepo when an object it would read here is not stored loose: git answers instead. */
class NotLoose extends Error {}

const SHA_RE = /^[0-9a-f]{40}$/;
/** A revision that names an object by full sha (optionally `<sha>:<path>`): what it means never changes. */
const IMMUTABLE_REV = /^[0-9a-f]{40}(:|$)/;
/** Loose ref files git's ref iteration skips: lock files, temporaries and names check-ref-format refuses. */
const BAD_LOOSE_REF = /(^|\/)\.|\.lock(\/|$)|\.\.|@\{|[\x00-\x20\x7f~^:?*[\\]|\.$/;
/** Mode strings whose value git's mktree reads (octal digits only); `writeLeaves` computes tree ids only for these. */
const OCTAL_MODE = /^0*[0-7]{1,7}$/;

/** One tree's entries as `git mktree -z` reads them. */
function mktreeInput(entries: Array<{ mode: string; type: string; sha: string; name: string }>): string {
  return entries.map((e) => `${e.mode} ${e.type} ${e.sha}\t${e.name}\0`).join('');
}

/**
 * A map that forgets its least recently used entries once their total weight (by default their
 * number) passes `maxWeight`, so remembering object contents cannot grow without bound.
 */
class Lru<V> {
  private readonly map = new Map<string, V>();
  private weight = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    const old = this.map.get(key);
    if (old !== undefined) {
      this.map.delete(key);
      this.weight -= this.weigh(old);
    }
    this.map.set(key, value);
    this.weight += this.weigh(value);
    for (const [k, v] of this.map) {
      if (this.weight <= this.maxWeight || this.map.size === 1) break;
      this.map.delete(k);
      this.weight -= this.weigh(v);
    }
  }
}

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: devNull,
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'GitHub emulator',
    GIT_AUTHOR_EMAIL: 'emulator@github.test',
    GIT_COMMITTER_NAME: 'GitHub emulator',
    GIT_COMMITTER_EMAIL: 'emulator@github.test',
    LC_ALL: 'C',
    ...extra,
  };
}

/** `git --version` as [major, minor]. */
export function gitVersion(): [number, number] {
  const out = spawnSync('git', ['--version'], { encoding: 'utf8', env: cleanEnv() });
  const m = /(\d+)\.(\d+)/.exec(out.stdout ?? '');
  if (!m) throw new Error(`cannot run git: ${out.error?.message ?? out.stderr}`);
  return [Number(m[1]), Number(m[2])];
}

/**
 * True when git would write this name and address as they are. Git's ident code drops '<', '>' and
 * line breaks anywhere and "crud" (control characters, space, `,:;"\\'`) at either end, and
 * refuses an empty name; such identities are left to git itself.
 */
function identWrittenAsGiven(i: GitIdent): boolean {
  const crud = /^[\x00-\x20,:;<>"\\']|[\x00-\x20,:;<>"\\']$/;
  return i.name !== '' && !/[<>\n]/.test(i.name + i.email) && !crud.test(i.name) && (i.email === '' || !crud.test(i.email)) && /^[+-]\d{4}$/.test(i.tz);
}

/** A commit object's header lines, each ending in a line break: tree, parents, author, committer. */
function commitHeader(tree: string, parents: string[], author: GitIdent, committer: GitIdent): string {
  return [`tree ${tree}`, ...parents.map((p) => `parent ${p}`), `author ${identLine(author)}`, `committer ${identLine(committer)}`]
    .map((l) => `${l}\n`)
    .join('');
}

/** Formats an ident line value: "Name <email> 1700000000 +0000". */
function identLine(i: GitIdent): string {
  return `${i.name} <${i.email}> ${i.time} ${i.tz}`;
}

function parseIdent(value: string): GitIdent {
  const m = /^(.*) <([^>]*)> (\d+) ([+-]\d{4})$/.exec(value);
  if (!m) return { name: value, email: '', time: 0, tz: '+0000' };
  return { name: m[1] ?? '', email: m[2] ?? '', time: Number(m[3]), tz: m[4] ?? '+0000' };
}

/** A date string (ISO 8601 with offset) → seconds and git timezone. */
export function identTime(date: string | Date): { time: number; tz: string } {
  if (date instanceof Date) return { time: Math.floor(date.getTime() / 1000), tz: '+0000' };
  const ms = Date.parse(date);
  if (Number.isNaN(ms)) throw new GitInputError('bad-path', `invalid date: ${date}`);
  const m = /([+-])(\d\d):?(\d\d)$/.exec(date);
  const tz = m ? `${m[1]}${m[2]}${m[3]}` : '+0000';
  return { time: Math.floor(ms / 1000), tz };
}

/** Checks one path of a tree entry the way git does (no empty, '.', '..' or '.git' components). */
function checkPath(p: string): void {
  if (p === '' || p.startsWith('/') || p.endsWith('/') || p.includes('\0')) throw new GitInputError('bad-path', `malformed path: ${JSON.stringify(p)}`);
  for (const part of p.split('/')) {
    if (part === '' || part === '.' || part === '..' || part.toLowerCase() === '.git')
      throw new GitInputError('bad-path', `malformed path component in ${JSON.stringify(p)}`);
  }
}

let checkedVersion: [number, number] | undefined;

/** This process's scratch folder for the repositories that new ones are copied from; removed when the process exits. */
let cacheRoot: string | undefined;
function cacheDir(name: string): string {
  if (cacheRoot === undefined) {
    const root = mkdtempSync(path.join(tmpdir(), 'gh-emulator-cache-'));
    process.once('exit', () => rmSync(root, { recursive: true, force: true }));
    cacheRoot = root;
  }
  return path.join(cacheRoot, name);
}

/** What a directory holds, by file: name, type, size, mode and change time (`.git` left out); equal fingerprints, equal trees. */
function directoryFingerprint(dir: string): string {
  const hash = createHash('sha256').update(dir);
  const walk = (rel: string): void => {
    for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (rel === '' && entry.name === '.git') continue;
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      const stat = lstatSync(path.join(dir, child), { bigint: true });
      hash.update(`${child}\0${stat.mode}\0${stat.size}\0${stat.mtimeNs}\0${stat.ctimeNs}\0`);
      if (entry.isDirectory()) walk(child);
    }
  };
  walk('');
  return hash.digest('hex');
}

/** check-ref-format's verdict by name. */
const validRefNames = new Map<string, boolean>();

/** Seed directories already written as git objects: fingerprint → the repository holding them and their tree. */
const seededTrees = new Map<string, { objects: string; tree: string }>();

export class GitRepo {
  /** Types of objects known to exist (git wrote them or reported them); a missing object is never remembered, since a push may add it. */
  private readonly types = new Lru<GitObjectType>(100_000);
  /** Sizes of blobs read for `lsTree`, by sha. */
  private readonly blobSizes = new Lru<number>(100_000);
  /** Answers to queries about objects named by full sha (see `ask`), by arguments, weighed in bytes. */
  private readonly answers = new Lru<{ status: number; stdout: Buffer }>(64 * 1024 * 1024, (a) => a.stdout.length + 100);

  private constructor(
    /** The bare repository (GIT_DIR). */
    readonly dir: string,
  ) {}

  /** The repository at `dir`, as the emulator made it (for test helpers that read its refs). */
  static at(dir: string): GitRepo {
    return new GitRepo(dir);
  }

  /** Creates a bare repository whose HEAD points at `defaultBranch`. */
  static init(dir: string, defaultBranch: string): GitRepo {
    checkedVersion ??= gitVersion();
    const [major, minor] = checkedVersion;
    if (major < 2 || (major === 2 && minor < 38)) {
      throw new Error(`the GitHub emulator needs git >= 2.38 (merge-tree --write-tree); found ${major}.${minor}`);
    }
    const template = cacheDir('empty.git');
    if (!existsSync(template)) {
      // `readRefs` reads the files ref backend; git >= 2.45 can be told to use it whatever its default.
      const refFormat = major > 2 || minor >= 45 ? ['--ref-format=files'] : [];
      const made = new GitRepo(template);
      made.run(['init', '--quiet', '--bare', ...refFormat, template], { cwd: tmpdir() });
      // Refs and objects written by the API are never garbage-collected behind the tests' back.
      made.run(['config', 'gc.auto', '0']);
      // Sample hooks: a dozen files every copy would carry and never run.
      rmSync(path.join(template, 'hooks'), { recursive: true, force: true });
    }
    mkdirSync(path.dirname(dir), { recursive: true });
    cpSync(template, dir, { recursive: true });
    writeFileSync(path.join(dir, 'HEAD'), `ref: refs/heads/${defaultBranch}\n`);
    return new GitRepo(dir);
  }

  /** Runs git in the repository; throws on a non-zero exit unless `allowFail`. */
  run(
    args: string[],
    opts: { input?: string | Buffer; env?: Record<string, string>; allowFail?: boolean; cwd?: string } = {},
  ): { status: number; stdout: Buffer; stderr: string } {
    const res = spawnSync('git', args, {
      cwd: opts.cwd ?? this.dir,
      env: cleanEnv({ GIT_DIR: this.dir, ...opts.env }),
      input: opts.input,
      maxBuffer: 256 * 1024 * 1024,
    });
    if (res.error) throw res.error;
    const status = res.status ?? -1;
    const out = { status, stdout: res.stdout, stderr: res.stderr.toString('utf8') };
    if (status !== 0 && !opts.allowFail) throw new Error(`git ${args.join(' ')} failed (${status}): ${out.stderr.trim()}`);
    return out;
  }

  private text(args: string[], opts: Parameters<GitRepo['run']>[1] = {}): string {
    return this.run(args, opts).stdout.toString('utf8');
  }

  /**
   * `run` for a read-only query. When every revision in `revs` is a full sha the answer cannot
   * change and is remembered. Exit 0 and 1 are answers (1: "not an ancestor", "no merge base");
   * other failures, such as 128 for a missing object, are not kept: a push may add the object.
   */
  private ask(revs: string[], args: string[], opts: { allowFail?: boolean } = {}): { status: number; stdout: Buffer } {
    if (!revs.every((r) => IMMUTABLE_REV.test(r))) return this.run(args, opts);
    const key = GitRepo.answerKey(args, opts.allowFail === true);
    const known = this.answers.get(key);
    if (known) return known;
    const res = this.run(args, opts);
    if (res.status === 0 || (opts.allowFail && res.status === 1)) this.answers.set(key, { status: res.status, stdout: res.stdout });
    return res;
  }

  private static answerKey(args: string[], allowFail: boolean): string {
    return `${allowFail ? 'allow-fail' : 'strict'}\0${args.join('\0')}`;
  }

  private get objects(): string {
    return path.join(this.dir, 'objects');
  }

  /** The object when it is stored loose (read in this process); undefined when only git can say (packed, or missing). */
  private loose(sha: string): { type: GitObjectType; content: Buffer } | undefined {
    const found = readLooseObject(this.objects, sha);
    if (found) this.types.set(sha, found.type);
    return found;
  }

  /** `git cat-file <type> <sha>`: a loose object read here, anything else (a packed object, a wrong type, a missing one) from git. */
  private content(type: GitObjectType, sha: string): Buffer {
    const found = SHA_RE.test(sha) ? this.loose(sha) : undefined;
    if (found?.type === type) return found.content;
    return this.ask([sha], ['cat-file', type, sha]).stdout;
  }

  /** A tree's entries, read loose, or a `NotLoose` throw: the caller then asks git. */
  private looseTree(sha: string): ReturnType<typeof parseTree> {
    const found = this.loose(sha);
    if (found?.type !== 'tree') throw new NotLoose();
    return parseTree(found.content);
  }

  /** A loose blob's size, from its object's header; a `NotLoose` throw otherwise. */
  private looseBlobSize(sha: string): number {
    const known = this.blobSizes.get(sha);
    if (known !== undefined) return known;
    const header = looseObjectHeader(this.objects, sha);
    if (header?.type !== 'blob') throw new NotLoose();
    this.blobSizes.set(sha, header.size);
    return header.size;
  }

  // -- objects -------------------------------------------------------------------------------

  /** The type of an object, or null when it does not exist. */
  objectType(sha: string): GitObjectType | null {
    if (!SHA_RE.test(sha)) return null;
    return this.objectTypes([sha]).get(sha) ?? null;
  }

  /** The types of those of `shas` (full shas) that exist, asking git once about the ones not known yet. */
  private objectTypes(shas: string[]): Map<string, GitObjectType> {
    const found = new Map<string, GitObjectType>();
    const unknown: string[] = [];
    for (const sha of new Set(shas)) {
      const type = this.types.get(sha) ?? this.loose(sha)?.type;
      if (type) found.set(sha, type);
      else unknown.push(sha);
    }
    if (unknown.length === 0) return found;
    const out = this.text(['cat-file', '--batch-check=%(objectname) %(objecttype)'], { input: `${unknown.join('\n')}\n` });
    for (const line of out.split('\n')) {
      // "<sha> <type>", or "<sha> missing".
      const [sha, type] = line.split(' ');
      if (!sha || !type || type === 'missing') continue;
      found.set(sha, type as GitObjectType);
      this.types.set(sha, type as GitObjectType);
    }
    return found;
  }

  writeBlob(content: Buffer | string): string {
    return this.writeBlobs([typeof content === 'string' ? Buffer.from(content, 'utf8') : content])[0] as string;
  }

  /** Writes blobs as loose objects (one already there is not written again); returns their ids. */
  private writeBlobs(blobs: Buffer[]): string[] {
    return blobs.map((blob) => {
      const sha = writeLooseObject(this.objects, 'blob', blob);
      this.types.set(sha, 'blob');
      return sha;
    });
  }

  readBlob(sha: string): Buffer {
    // A copy: an answer git gave is remembered and shared by every later read.
    return Buffer.from(this.content('blob', sha));
  }

  /** Entries of a tree (one level, or every blob/submodule below it when recursive), with blob sizes. */
  lsTree(treeish: string, opts: { recursive?: boolean; showTrees?: boolean; path?: string } = {}): TreeEntry[] {
    try {
      const listed = this.lsTreeLoose(treeish, opts);
      if (listed) return listed;
    } catch (err) {
      if (!(err instanceof NotLoose)) throw err;
    }
    const args = ['ls-tree', '-z', '-l', '--full-tree'];
    if (opts.recursive) args.push('-r');
    if (opts.recursive && opts.showTrees) args.push('-t');
    args.push(treeish);
    if (opts.path !== undefined) args.push('--', opts.path);
    const out = this.ask([treeish], args).stdout.toString('utf8');
    const entries: TreeEntry[] = [];
    for (const line of out.split('\0')) {
      if (!line) continue;
      const tab = line.indexOf('\t');
      const [mode, type, sha, size] = line.slice(0, tab).split(/\s+/);
      entries.push({
        mode: mode ?? '',
        type: type as TreeEntry['type'],
        sha: sha ?? '',
        path: line.slice(tab + 1),
        ...(type === 'blob' && size !== undefined && size !== '-' ? { size: Number(size) } : {}),
      });
    }
    return entries;
  }

  /**
   * `lsTree` answered from loose objects, for a full sha (optionally `<sha>:<path>`) and, with
   * `path`, the one entry at exactly that path (what ls-tree prints for a plain path, not
   * recursive). Undefined for anything else; a `NotLoose` throw when an object is not loose.
   */
  private lsTreeLoose(treeish: string, opts: { recursive?: boolean; showTrees?: boolean; path?: string }): TreeEntry[] | undefined {
    const named = /^([0-9a-f]{40})(?::(.+))?$/.exec(treeish);
    const plainPath = (p: string) => p.split('/').every((part) => part !== '' && part !== '.' && part !== '..' && !/[*?[\\]/.test(part));
    if (!named || (named[2] !== undefined && !plainPath(named[2]))) return undefined;
    if (opts.path !== undefined && (opts.recursive || !plainPath(opts.path))) return undefined;
    const start = this.loose(named[1] as string);
    if (start === undefined) throw new NotLoose();
    let tree = start.type === 'commit' ? /^tree ([0-9a-f]{40})\n/.exec(start.content.toString('latin1'))?.[1] : start.type === 'tree' ? named[1] : undefined;
    if (tree === undefined) return undefined;
    const entry = (e: ReturnType<typeof parseTree>[number], full: string): TreeEntry => ({
      // ls-tree prints the mode as six octal digits.
      mode: Number.parseInt(e.mode, 8).toString(8).padStart(6, '0'),
      type: e.type,
      sha: e.sha,
      path: full,
      ...(e.type === 'blob' ? { size: this.looseBlobSize(e.sha) } : {}),
    });
    /** The entry at `rel` below `root`, or undefined when there is none. */
    const at = (root: string, rel: string): ReturnType<typeof parseTree>[number] | undefined => {
      const parts = rel.split('/');
      let found: ReturnType<typeof parseTree>[number] | undefined;
      let current: string | undefined = root;
      for (const part of parts) {
        if (current === undefined) return undefined;
        found = this.looseTree(current).find((e) => e.name === part);
        current = found?.type === 'tree' ? found.sha : undefined;
      }
      return found;
    };
    if (named[2] !== undefined) {
      const sub = at(tree, named[2]);
      // git fails on a path that is not a tree: let it say so.
      if (sub?.type !== 'tree') return undefined;
      tree = sub.sha;
    }
    if (opts.path !== undefined) {
      const found = at(tree, opts.path);
      return found ? [entry(found, opts.path)] : [];
    }
    const out: TreeEntry[] = [];
    const walk = (sha: string, prefix: string): void => {
      for (const e of this.looseTree(sha)) {
        const full = `${prefix}${e.name}`;
        if (e.type === 'tree' && opts.recursive) {
          if (opts.showTrees) out.push(entry(e, full));
          walk(e.sha, `${full}/`);
        } else {
          out.push(entry(e, full));
        }
      }
    };
    walk(tree, '');
    return out;
  }

  /** Writes one tree level (entries' paths are plain names). */
  mktree(entries: Array<{ mode: string; type: string; sha: string; name: string }>): string {
    // git's mktree refuses an entry whose type is not its mode's: let it say so.
    if (entries.every((e) => OCTAL_MODE.test(e.mode) && typeOfMode(e.mode) === e.type)) {
      const written = writeLooseObject(this.objects, 'tree', treeObject(entries));
      this.types.set(written, 'tree');
      return written;
    }
    const sha = this.text(['mktree', '-z', '--missing'], { input: mktreeInput(entries) }).trim();
    this.types.set(sha, 'tree');
    return sha;
  }

  /**
   * Builds a tree from `baseTree` (or nothing) plus changes, as POST /git/trees does: paths may be
   * nested ('docs/a.md'); `sha: null` deletes a file or directory; `content` writes a blob; a `tree`
   * entry replaces the whole directory. Missing intermediate directories are created and emptied
   * ones disappear.
   */
  buildTree(baseTree: string | null, changes: TreeChange[]): string {
    // Flatten the base to its leaves (blobs and submodules) by path.
    const leaves = new Map<string, { mode: string; type: string; sha: string }>();
    if (baseTree) for (const e of this.lsTree(baseTree, { recursive: true })) leaves.set(e.path, { mode: e.mode, type: e.type, sha: e.sha });
    const removeUnder = (dir: string): number => {
      let n = 0;
      for (const p of [...leaves.keys()]) {
        if (p === dir || p.startsWith(`${dir}/`)) {
          leaves.delete(p);
          n++;
        }
      }
      return n;
    };
    const blobs: Buffer[] = [];
    for (const c of changes) {
      checkPath(c.path);
      if (c.sha === null) {
        if (removeUnder(c.path) === 0) throw new GitInputError('missing-path', `path ${c.path} does not exist in the base tree`);
        continue;
      }
      let sha: string;
      let type = c.type ?? (c.mode === '040000' ? 'tree' : c.mode === '160000' ? 'commit' : 'blob');
      if (c.content !== undefined) {
        // Written below, together with the others.
        const blob = Buffer.from(c.content, 'utf8');
        blobs.push(blob);
        sha = objectId('blob', blob);
        type = 'blob';
      } else if (typeof c.sha === 'string') {
        sha = c.sha;
        if (type !== 'commit') {
          const actual = this.objectType(sha);
          if (actual !== type) throw new GitInputError(actual ? 'wrong-type' : 'missing-object', `tree.sha ${sha} is not a valid ${type}`);
        }
      } else {
        throw new GitInputError('bad-path', `tree entry ${c.path} needs a sha or content`);
      }
      const mode = c.mode ?? (type === 'tree' ? '040000' : type === 'commit' ? '160000' : '100644');
      // A file replaces a directory of the same name and vice versa; parents that are files go.
      removeUnder(c.path);
      const parts = c.path.split('/');
      for (let i = 1; i < parts.length; i++) leaves.delete(parts.slice(0, i).join('/'));
      if (type === 'tree') {
        for (const e of this.lsTree(sha, { recursive: true })) leaves.set(`${c.path}/${e.path}`, { mode: e.mode, type: e.type, sha: e.sha });
      } else {
        leaves.set(c.path, { mode, type, sha });
      }
    }
    this.writeBlobs(blobs);
    return this.writeLeaves(leaves);
  }

  /** Writes nested trees for a flat path → leaf map; returns the root tree. */
  private writeLeaves(leaves: Map<string, { mode: string; type: string; sha: string }>): string {
    interface Dir {
      files: Map<string, { mode: string; type: string; sha: string }>;
      dirs: Map<string, Dir>;
    }
    const root: Dir = { files: new Map(), dirs: new Map() };
    for (const [p, leaf] of leaves) {
      const parts = p.split('/');
      let dir = root;
      for (const part of parts.slice(0, -1)) {
        let next = dir.dirs.get(part);
        if (!next) {
          next = { files: new Map(), dirs: new Map() };
          dir.dirs.set(part, next);
        }
        dir = next;
      }
      dir.files.set(parts[parts.length - 1] ?? '', leaf);
    }
    // A mode that is not plain octal digits goes to git alone: its id is whatever git makes of it.
    const write = (dir: Dir): string => {
      const entries: Array<{ mode: string; type: string; sha: string; name: string }> = [];
      for (const [name, leaf] of dir.files) entries.push({ ...leaf, name });
      for (const [name, sub] of dir.dirs) entries.push({ mode: '040000', type: 'tree', sha: write(sub), name });
      return this.mktree(entries);
    };
    return write(root);
  }

  readCommit(sha: string): ParsedCommit {
    const raw = this.content('commit', sha).toString('utf8');
    const split = raw.indexOf('\n\n');
    const head = split < 0 ? raw : raw.slice(0, split);
    const message = (split < 0 ? '' : raw.slice(split + 2)).replace(/\n$/, '');
    const headers: Array<[string, string]> = [];
    for (const line of head.split('\n')) {
      if (line.startsWith(' ') && headers.length > 0) {
        const last = headers[headers.length - 1] as [string, string];
        last[1] += `\n${line.slice(1)}`;
      } else {
        const space = line.indexOf(' ');
        headers.push([line.slice(0, space), line.slice(space + 1)]);
      }
    }
    const get = (k: string) => headers.find(([h]) => h === k)?.[1];
    const signature = get('gpgsig') ?? null;
    let payload: string | null = null;
    if (signature !== null) {
      // The signed payload is the object with the gpgsig header (and its continuation lines) removed.
      const lines = raw.split('\n');
      const out: string[] = [];
      let skipping = false;
      let inHeader = true;
      for (const line of lines) {
        if (inHeader && line === '') inHeader = false;
        if (inHeader && line.startsWith('gpgsig ')) {
          skipping = true;
          continue;
        }
        if (skipping && line.startsWith(' ')) continue;
        skipping = false;
        out.push(line);
      }
      payload = out.join('\n');
    }
    return {
      sha,
      tree: get('tree') ?? '',
      parents: headers.filter(([h]) => h === 'parent').map(([, v]) => v),
      author: parseIdent(get('author') ?? ''),
      committer: parseIdent(get('committer') ?? ''),
      message,
      signature,
      payload,
      raw,
    };
  }

  /** `git commit-tree`: an unsigned commit with the given identities (the message gets git's trailing newline). */
  commitTree(tree: string, parents: string[], message: string, author: GitIdent, committer: GitIdent): string {
    const body = message.endsWith('\n') ? message : `${message}\n`;
    if (identWrittenAsGiven(author) && identWrittenAsGiven(committer) && !body.includes('\0')) {
      return this.writeCommitObject(`${commitHeader(tree, parents, author, committer)}\n${body}`);
    }
    // Git cleans such names and addresses its own way: let it write the commit.
    const args = ['commit-tree', '--no-gpg-sign', tree];
    for (const p of parents) args.push('-p', p);
    const sha = this.text(args, {
      input: body,
      env: {
        GIT_AUTHOR_NAME: author.name,
        GIT_AUTHOR_EMAIL: author.email,
        GIT_AUTHOR_DATE: `@${author.time} ${author.tz}`,
        GIT_COMMITTER_NAME: committer.name,
        GIT_COMMITTER_EMAIL: committer.email,
        GIT_COMMITTER_DATE: `@${committer.time} ${committer.tz}`,
      },
    }).trim();
    this.types.set(sha, 'commit');
    return sha;
  }

  /**
   * Writes a commit object carrying a `gpgsig` header. `sign` receives the unsigned object (the
   * payload) and returns the armored signature. Returns the sha.
   */
  writeSignedCommit(tree: string, parents: string[], message: string, author: GitIdent, committer: GitIdent, sign: (payload: string) => string): string {
    const head = commitHeader(tree, parents, author, committer);
    const body = message.endsWith('\n') ? message : `${message}\n`;
    const signature = sign(`${head}\n${body}`);
    return this.writeCommitObject(`${head}gpgsig ${signature.split('\n').join('\n ')}\n\n${body}`);
  }

  private writeCommitObject(object: string): string {
    const sha = writeLooseObject(this.objects, 'commit', Buffer.from(object, 'utf8'));
    this.types.set(sha, 'commit');
    return sha;
  }

  // -- refs ----------------------------------------------------------------------------------

  /**
   * Every ref under refs/ and the object id it resolves to, read the way git's files backend stores
   * them: a loose file under refs/ (a sha, or "ref: <target>" for a symbolic ref) wins over the
   * same name in packed-refs. Read afresh on every call, so writes from outside (`git push`,
   * `git pack-refs`) are seen at once; loose files are read before packed-refs, so a concurrent
   * pack-refs (which writes packed-refs, then deletes the loose files) cannot hide a ref. Broken
   * and dangling refs are left out, as for-each-ref leaves them out.
   */
  private readRefs(): Map<string, string> {
    const loose = new Map<string, string>();
    const walk = (rel: string): void => {
      let entries;
      try {
        entries = readdirSync(path.join(this.dir, rel), { withFileTypes: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw err;
      }
      for (const e of entries) {
        const name = `${rel}/${e.name}`;
        if (e.isDirectory()) walk(name);
        else if (!BAD_LOOSE_REF.test(name)) {
          try {
            loose.set(name, readFileSync(path.join(this.dir, name), 'utf8'));
          } catch (err) {
            // Renamed or deleted by git since the directory was listed.
            if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
          }
        }
      }
    };
    walk('refs');
    const packed = this.packedRefs();
    // Git follows at most 5 symbolic refs (SYMREF_MAXDEPTH).
    const resolve = (name: string, depth: number): string | undefined => {
      const content = loose.has(name) ? loose.get(name) : packed.get(name);
      if (content === undefined || depth > 5) return undefined;
      const symref = /^ref:\s*(\S+)\s*$/.exec(content);
      if (symref) return resolve(symref[1] as string, depth + 1);
      return /^([0-9a-fA-F]{40})(\s|$)/.exec(content)?.[1]?.toLowerCase();
    };
    const refs = new Map<string, string>();
    for (const name of new Set([...loose.keys(), ...packed.keys()])) {
      const sha = resolve(name, 0);
      if (sha) refs.set(name, sha);
    }
    return refs;
  }

  /** The object a full ref name (exactly that ref, no revision syntax) points at, or null. */
  refSha(fullRef: string): string | null {
    return this.readRefs().get(fullRef) ?? null;
  }

  /** Every ref (sorted by name) with the sha and type of the object it points at. */
  refs(prefix = 'refs/'): Array<{ ref: string; sha: string; type: GitObjectType }> {
    const matching = [...this.readRefs()].filter(([ref]) => ref.startsWith(prefix));
    const types = this.objectTypes(matching.map(([, sha]) => sha));
    return matching
      .map(([ref, sha]) => {
        const type = types.get(sha);
        // for-each-ref fails the same way.
        if (!type) throw new Error(`${ref} points at the missing object ${sha}`);
        return { ref, sha, type };
      })
      .sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
  }

  /** True when the repository has no refs at all (GitHub: "Git Repository is empty."). */
  isEmpty(): boolean {
    return this.readRefs().size === 0;
  }

  isValidRefName(fullRef: string): boolean {
    // A name's validity is a property of the name (and of git's version): asked once per process.
    let valid = validRefNames.get(fullRef);
    if (valid === undefined) {
      valid = this.run(['check-ref-format', fullRef], { allowFail: true }).status === 0;
      validRefNames.set(fullRef, valid);
    }
    return valid;
  }

  /**
   * Atomically sets a ref; with `oldSha` the update only happens when the ref still has that value
   * ('' = must not exist). Done here as git's files backend does it (a `<ref>.lock` file created
   * exclusively, checked, then renamed over the ref) when the ref is an ordinary loose one; git
   * does the rest (a symbolic ref, a name a directory or another ref stands in the way of).
   */
  updateRef(fullRef: string, sha: string, oldSha?: string): boolean {
    const done = this.updateLooseRef(fullRef, sha, oldSha);
    if (done !== undefined) return done;
    const args = ['update-ref', '-m', 'github-emulator', fullRef, sha];
    if (oldSha !== undefined) args.push(oldSha === '' ? '0'.repeat(40) : oldSha);
    return this.run(args, { allowFail: true }).status === 0;
  }

  deleteRef(fullRef: string, oldSha?: string): boolean {
    const done = this.updateLooseRef(fullRef, null, oldSha);
    if (done !== undefined) return done;
    const args = ['update-ref', '-d', fullRef];
    if (oldSha !== undefined) args.push(oldSha);
    return this.run(args, { allowFail: true }).status === 0;
  }

  /**
   * `updateRef` (or, with `sha` null, `deleteRef`) on a loose ref; undefined when git must do it:
   * the name is not plain, the ref is symbolic or packed (a delete rewrites packed-refs), or a file
   * or directory is in the way. A ref whose name is a prefix folder of another's (or the reverse)
   * is refused, as git refuses it.
   */
  private updateLooseRef(fullRef: string, sha: string | null, oldSha: string | undefined): boolean | undefined {
    if (!/^refs\/[\w./-]+$/.test(fullRef) || !this.isValidRefName(fullRef)) return undefined;
    if (sha !== null && (!SHA_RE.test(sha) || this.objectType(sha) === null)) return undefined;
    const file = path.join(this.dir, fullRef);
    const refs = this.readRefs();
    if ([...refs.keys()].some((name) => name.startsWith(`${fullRef}/`) || fullRef.startsWith(`${name}/`))) return false;
    const lock = `${file}.lock`;
    try {
      mkdirSync(path.dirname(file), { recursive: true });
    } catch {
      return undefined;
    }
    try {
      closeSync(openSync(lock, 'wx'));
    } catch (err) {
      // Another writer holds the lock: git fails the same way.
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      return undefined;
    }
    try {
      let loose: string | undefined;
      try {
        loose = readFileSync(file, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
      }
      if (loose !== undefined && !SHA_RE.test(loose.trim())) return undefined;
      const packed = this.packedRefs().get(fullRef);
      // Deleting a ref that is not there: done, unless it had to have a value.
      if (sha === null && loose === undefined) return packed === undefined ? oldSha === undefined : undefined;
      const current = loose?.trim() ?? packed;
      if (oldSha !== undefined && (oldSha === '' ? current !== undefined : current !== oldSha)) return false;
      if (sha === null) {
        if (packed !== undefined) return undefined;
        rmSync(file);
        rmSync(lock);
        this.removeEmptyRefFolders(path.dirname(fullRef));
        return true;
      }
      writeFileSync(lock, `${sha}\n`);
      renameSync(lock, file);
      return true;
    } finally {
      rmSync(lock, { force: true });
    }
  }

  /** The refs packed-refs lists, by name. */
  private packedRefs(): Map<string, string> {
    let text = '';
    try {
      text = readFileSync(path.join(this.dir, 'packed-refs'), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    // "<sha> <name>"; the "# pack-refs with:" header and "^<sha>" peeled lines do not match.
    return new Map([...text.matchAll(/^([0-9a-f]{40}) (refs\/.+)$/gm)].map((m) => [m[2] as string, m[1] as string]));
  }

  /** After a delete, the ref's folders that are now empty go, as git removes them (never refs/ or its first level). */
  private removeEmptyRefFolders(folder: string): void {
    for (let rel = folder; rel.split('/').length > 2; rel = path.posix.dirname(rel)) {
      try {
        rmdirSync(path.join(this.dir, rel));
      } catch {
        return;
      }
    }
  }

  /** Resolves a branch, tag or (abbreviated) commit sha to a commit sha, or null. No revision syntax (`~`, `^`, `..`). */
  resolveCommit(ref: string): string | null {
    if (!/^[\w./-]+$/.test(ref) || ref.startsWith('-') || ref.includes('..')) return null;
    const candidates = [`refs/heads/${ref}`, `refs/tags/${ref}`];
    if (ref.startsWith('refs/')) candidates.unshift(ref);
    if (/^[0-9a-f]{4,40}$/.test(ref)) candidates.push(ref);
    const refs = this.readRefs();
    for (const c of candidates) {
      const sha = this.revParseCommit(c, refs);
      if (sha) return sha;
    }
    return null;
  }

  /**
   * `git rev-parse -q --verify <name>^{commit}` for a name without revision syntax, answered from
   * `refs` as git would: a full sha stands for itself, else the first of git's ref rules
   * (ref_rev_parse_rules) that names a ref wins. Only when no ref matches and the name could be an
   * abbreviated sha or describe output ("…-g1a2b3c") is git asked.
   */
  private revParseCommit(name: string, refs: Map<string, string>): string | null {
    if (SHA_RE.test(name)) return this.peelToCommit(name);
    for (const rule of [name, `refs/${name}`, `refs/tags/${name}`, `refs/heads/${name}`, `refs/remotes/${name}`, `refs/remotes/${name}/HEAD`]) {
      const sha = refs.get(rule);
      if (sha) return this.peelToCommit(sha);
    }
    if (!/^[0-9a-f]{4,40}$/i.test(name) && !/-g[0-9a-f]+$/i.test(name)) return null;
    const res = this.run(['rev-parse', '-q', '--verify', `${name}^{commit}`], { allowFail: true });
    return res.status === 0 ? res.stdout.toString('utf8').trim() : null;
  }

  /** `<sha>^{commit}`: a commit itself, what a tag (or chain of tags) points at; null for anything else or a missing object. */
  private peelToCommit(sha: string): string | null {
    let current = sha;
    for (;;) {
      const type = this.objectType(current);
      if (type === 'commit') return current;
      if (type !== 'tag') return null;
      const target = /^object ([0-9a-f]{40})\n/.exec(this.content('tag', current).toString('utf8'))?.[1];
      if (!target) return null;
      current = target;
    }
  }

  /** Resolves a tree sha, or a commit/branch/tag to its tree, or null. */
  resolveTree(treeish: string): string | null {
    if (SHA_RE.test(treeish) && this.objectType(treeish) === 'tree') return treeish;
    const commit = this.resolveCommit(treeish);
    return commit ? this.readCommit(commit).tree : null;
  }

  // -- history -------------------------------------------------------------------------------

  isAncestor(ancestor: string, descendant: string): boolean {
    return this.ask([ancestor, descendant], ['merge-base', '--is-ancestor', ancestor, descendant], { allowFail: true }).status === 0;
  }

  mergeBase(a: string, b: string): string | null {
    const res = this.ask([a, b], ['merge-base', a, b], { allowFail: true });
    return res.status === 0 ? res.stdout.toString('utf8').trim() : null;
  }

  /** Commits reachable from `head` but not from `base`, oldest first. */
  commitsBetween(base: string, head: string): string[] {
    return this.ask([base, head], ['rev-list', '--reverse', '--topo-order', `${base}..${head}`])
      .stdout.toString('utf8')
      .split('\n')
      .filter(Boolean);
  }

  /** Changed files between two commits with added and deleted line counts (binary files count 0). */
  diffStat(from: string, to: string): { files: number; additions: number; deletions: number } {
    const out = this.ask([from, to], ['diff', '--numstat', '-z', '--no-renames', from, to]).stdout.toString('utf8');
    let files = 0;
    let additions = 0;
    let deletions = 0;
    for (const rec of out.split('\0')) {
      const m = /^(\d+|-)\t(\d+|-)\t/.exec(rec);
      if (!m) continue;
      files++;
      if (m[1] !== '-') additions += Number(m[1]);
      if (m[2] !== '-') deletions += Number(m[2]);
    }
    return { files, additions, deletions };
  }

  /**
   * A real three-way merge of two commits without touching any worktree:
   * `git merge-tree --write-tree` (git ≥ 2.38). Unrelated histories count as a conflict.
   */
  mergeTrees(ours: string, theirs: string): MergeCheck {
    const res = this.run(['merge-tree', '--write-tree', '--no-messages', ours, theirs], { allowFail: true });
    const lines = res.stdout.toString('utf8').split('\n');
    if (res.status !== 0 && res.status !== 1) return { clean: false, tree: null, conflicts: [] };
    const tree = lines[0]?.trim() ?? null;
    // merge-tree writes the merged tree, conflicts or not.
    if (tree && SHA_RE.test(tree)) this.types.set(tree, 'tree');
    if (res.status === 0) return { clean: true, tree, conflicts: [] };
    const conflicts = new Set<string>();
    for (const line of lines.slice(1)) {
      if (line === '') break;
      const tab = line.indexOf('\t');
      if (tab > 0) conflicts.add(line.slice(tab + 1));
    }
    return { clean: false, tree, conflicts: [...conflicts] };
  }

  /**
   * Replays `commit` (one parent) onto `onto` and returns the resulting tree, or a conflict:
   * a cherry-pick done with merge-tree. A throwaway commit with `onto`'s tree and `commit`'s parent
   * as its only parent makes that parent the merge base.
   */
  cherryPickTree(commit: string, onto: string, ident: GitIdent): MergeCheck {
    const c = this.readCommit(commit);
    const ontoTree = this.readCommit(onto).tree;
    const parent = c.parents[0];
    if (!parent) return this.mergeTrees(onto, commit);
    const synthetic = this.commitTree(ontoTree, [parent], 'cherry-pick base\n', ident, ident);
    return this.mergeTrees(synthetic, commit);
  }

  /** Commits the files of a directory (honoring its .gitignore files) as a tree; returns the tree sha. */
  treeFromDirectory(worktree: string): string {
    const key = directoryFingerprint(worktree);
    let seeded = seededTrees.get(key);
    if (seeded === undefined) {
      const store = GitRepo.init(cacheDir(`seed-${seededTrees.size}.git`), 'main');
      seeded = { objects: path.join(store.dir, 'objects'), tree: store.writeDirectory(worktree) };
      seededTrees.set(key, seeded);
    }
    cpSync(seeded.objects, path.join(this.dir, 'objects'), { recursive: true, force: false });
    this.types.set(seeded.tree, 'tree');
    return seeded.tree;
  }

  /** Writes a working directory's files as objects (as `git add -A` sees them) and returns its tree. */
  private writeDirectory(worktree: string): string {
    const scratch = mkdtempSync(path.join(tmpdir(), 'gh-emulator-index-'));
    try {
      const env = { GIT_INDEX_FILE: path.join(scratch, 'index'), GIT_WORK_TREE: worktree };
      this.run(['add', '-A', '--', '.'], { env, cwd: worktree });
      return this.text(['write-tree'], { env, cwd: worktree }).trim();
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
}
