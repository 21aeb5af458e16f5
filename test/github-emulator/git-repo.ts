// A real git repository behind one emulated GitHub repository: a bare repository in a temporary
// directory, driven with git plumbing (`hash-object`, `mktree`, `commit-tree`, `update-ref`,
// `cat-file`, `merge-tree --write-tree`), so every sha the emulator hands out is a real object id
// and tests can run any git command against `dir`.
//
// Calls are synchronous (spawnSync): a request is answered atomically, as GitHub does, and test
// helpers such as `state.fileAt(...)` can be used inside `expect(...)`. Each call takes a few
// milliseconds. Git is run with the system and global configuration switched off (no signing hooks,
// no autocrlf, no user-specific defaults) and without inherited GIT_* variables, so a test run from a
// git hook cannot leak GIT_DIR or GIT_INDEX_FILE into the emulator.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { devNull, tmpdir } from 'node:os';
import path from 'node:path';

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

const SHA_RE = /^[0-9a-f]{40}$/;

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
    if (part === '' || part === '.' || part === '..' || part.toLowerCase() === '.git') throw new GitInputError('bad-path', `malformed path component in ${JSON.stringify(p)}`);
  }
}

let checkedVersion: [number, number] | undefined;

export class GitRepo {
  private constructor(
    /** The bare repository (GIT_DIR). */
    readonly dir: string,
  ) {}

  /** Creates a bare repository whose HEAD points at `defaultBranch`. */
  static init(dir: string, defaultBranch: string): GitRepo {
    checkedVersion ??= gitVersion();
    const [major, minor] = checkedVersion;
    if (major < 2 || (major === 2 && minor < 38)) {
      throw new Error(`the GitHub emulator needs git >= 2.38 (merge-tree --write-tree); found ${major}.${minor}`);
    }
    mkdirSync(dir, { recursive: true });
    const repo = new GitRepo(dir);
    repo.run(['init', '--quiet', '--bare', `--initial-branch=${defaultBranch}`, dir]);
    // Refs and objects written by the API are never garbage-collected behind the tests' back.
    repo.run(['config', 'gc.auto', '0']);
    return repo;
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

  // -- objects -------------------------------------------------------------------------------

  /** The type of an object, or null when it does not exist. */
  objectType(sha: string): GitObjectType | null {
    if (!SHA_RE.test(sha)) return null;
    const res = this.run(['cat-file', '-t', sha], { allowFail: true });
    return res.status === 0 ? (res.stdout.toString('utf8').trim() as GitObjectType) : null;
  }

  writeBlob(content: Buffer | string): string {
    return this.text(['hash-object', '-w', '--stdin'], { input: content }).trim();
  }

  readBlob(sha: string): Buffer {
    return this.run(['cat-file', 'blob', sha]).stdout;
  }

  /** Entries of a tree (one level, or every blob/submodule below it when recursive), with blob sizes. */
  lsTree(treeish: string, opts: { recursive?: boolean; showTrees?: boolean; path?: string } = {}): TreeEntry[] {
    const args = ['ls-tree', '-z', '-l', '--full-tree'];
    if (opts.recursive) args.push('-r');
    if (opts.recursive && opts.showTrees) args.push('-t');
    args.push(treeish);
    if (opts.path !== undefined) args.push('--', opts.path);
    const out = this.text(args);
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

  /** Writes one tree level (entries' paths are plain names). */
  mktree(entries: Array<{ mode: string; type: string; sha: string; name: string }>): string {
    const input = entries.map((e) => `${e.mode} ${e.type} ${e.sha}\t${e.name}\0`).join('');
    return this.text(['mktree', '-z', '--missing'], { input }).trim();
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
    for (const c of changes) {
      checkPath(c.path);
      if (c.sha === null) {
        if (removeUnder(c.path) === 0) throw new GitInputError('missing-path', `path ${c.path} does not exist in the base tree`);
        continue;
      }
      let sha: string;
      let type = c.type ?? (c.mode === '040000' ? 'tree' : c.mode === '160000' ? 'commit' : 'blob');
      if (c.content !== undefined) {
        sha = this.writeBlob(Buffer.from(c.content, 'utf8'));
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
    const write = (dir: Dir): string => {
      const entries: Array<{ mode: string; type: string; sha: string; name: string }> = [];
      for (const [name, leaf] of dir.files) entries.push({ ...leaf, name });
      for (const [name, sub] of dir.dirs) entries.push({ mode: '040000', type: 'tree', sha: write(sub), name });
      return this.mktree(entries);
    };
    return write(root);
  }

  readCommit(sha: string): ParsedCommit {
    const raw = this.text(['cat-file', 'commit', sha]);
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
    const args = ['commit-tree', '--no-gpg-sign', tree];
    for (const p of parents) args.push('-p', p);
    return this.text(args, {
      input: message.endsWith('\n') ? message : `${message}\n`,
      env: {
        GIT_AUTHOR_NAME: author.name,
        GIT_AUTHOR_EMAIL: author.email,
        GIT_AUTHOR_DATE: `@${author.time} ${author.tz}`,
        GIT_COMMITTER_NAME: committer.name,
        GIT_COMMITTER_EMAIL: committer.email,
        GIT_COMMITTER_DATE: `@${committer.time} ${committer.tz}`,
      },
    }).trim();
  }

  /**
   * Writes a commit object carrying a `gpgsig` header. `sign` receives the unsigned object (the
   * payload) and returns the armored signature. Returns the sha.
   */
  writeSignedCommit(tree: string, parents: string[], message: string, author: GitIdent, committer: GitIdent, sign: (payload: string) => string): string {
    const head = [`tree ${tree}`, ...parents.map((p) => `parent ${p}`), `author ${identLine(author)}`, `committer ${identLine(committer)}`];
    const body = message.endsWith('\n') ? message : `${message}\n`;
    const payload = `${head.join('\n')}\n\n${body}`;
    const signature = sign(payload);
    const sig = `gpgsig ${signature.split('\n').join('\n ')}`;
    const object = `${head.join('\n')}\n${sig}\n\n${body}`;
    return this.text(['hash-object', '-t', 'commit', '-w', '--stdin'], { input: object }).trim();
  }

  // -- refs ----------------------------------------------------------------------------------

  /** The object a full ref name (exactly that ref, no revision syntax) points at, or null. */
  refSha(fullRef: string): string | null {
    if (!fullRef.startsWith('refs/')) return null;
    return this.refs(fullRef).find((r) => r.ref === fullRef)?.sha ?? null;
  }

  /** Every ref (sorted by name) with the sha and type of the object it points at. */
  refs(prefix = 'refs/'): Array<{ ref: string; sha: string; type: GitObjectType }> {
    const out = this.text(['for-each-ref', '--format=%(refname)%00%(objectname)%00%(objecttype)', prefix.replace(/[^/]*$/, '') || 'refs/']);
    return out
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const [ref, sha, type] = l.split('\0');
        return { ref: ref ?? '', sha: sha ?? '', type: (type ?? 'commit') as GitObjectType };
      })
      .filter((r) => r.ref.startsWith(prefix))
      .sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
  }

  /** True when the repository has no refs at all (GitHub: "Git Repository is empty."). */
  isEmpty(): boolean {
    return this.text(['for-each-ref', '--count=1', '--format=%(refname)']).trim() === '';
  }

  isValidRefName(fullRef: string): boolean {
    return this.run(['check-ref-format', fullRef], { allowFail: true }).status === 0;
  }

  /** Atomically sets a ref; with `oldSha` the update only happens when the ref still has that value ('' = must not exist). */
  updateRef(fullRef: string, sha: string, oldSha?: string): boolean {
    const args = ['update-ref', '-m', 'github-emulator', fullRef, sha];
    if (oldSha !== undefined) args.push(oldSha === '' ? '0'.repeat(40) : oldSha);
    return this.run(args, { allowFail: true }).status === 0;
  }

  deleteRef(fullRef: string, oldSha?: string): boolean {
    const args = ['update-ref', '-d', fullRef];
    if (oldSha !== undefined) args.push(oldSha);
    return this.run(args, { allowFail: true }).status === 0;
  }

  /** Resolves a branch, tag or (abbreviated) commit sha to a commit sha, or null. No revision syntax (`~`, `^`, `..`). */
  resolveCommit(ref: string): string | null {
    if (!/^[\w.\/-]+$/.test(ref) || ref.startsWith('-') || ref.includes('..')) return null;
    const candidates = [`refs/heads/${ref}`, `refs/tags/${ref}`];
    if (ref.startsWith('refs/')) candidates.unshift(ref);
    if (/^[0-9a-f]{4,40}$/.test(ref)) candidates.push(ref);
    for (const c of candidates) {
      const res = this.run(['rev-parse', '-q', '--verify', `${c}^{commit}`], { allowFail: true });
      if (res.status === 0) return res.stdout.toString('utf8').trim();
    }
    return null;
  }

  /** Resolves a tree sha, or a commit/branch/tag to its tree, or null. */
  resolveTree(treeish: string): string | null {
    if (SHA_RE.test(treeish) && this.objectType(treeish) === 'tree') return treeish;
    const commit = this.resolveCommit(treeish);
    return commit ? this.text(['rev-parse', `${commit}^{tree}`]).trim() : null;
  }

  // -- history -------------------------------------------------------------------------------

  isAncestor(ancestor: string, descendant: string): boolean {
    return this.run(['merge-base', '--is-ancestor', ancestor, descendant], { allowFail: true }).status === 0;
  }

  mergeBase(a: string, b: string): string | null {
    const res = this.run(['merge-base', a, b], { allowFail: true });
    return res.status === 0 ? res.stdout.toString('utf8').trim() : null;
  }

  /** Commits reachable from `head` but not from `base`, oldest first. */
  commitsBetween(base: string, head: string): string[] {
    return this.text(['rev-list', '--reverse', '--topo-order', `${base}..${head}`]).split('\n').filter(Boolean);
  }

  /** Changed files between two commits with added and deleted line counts (binary files count 0). */
  diffStat(from: string, to: string): { files: number; additions: number; deletions: number } {
    const out = this.text(['diff', '--numstat', '-z', '--no-renames', from, to]);
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
    if (res.status === 0) return { clean: true, tree: lines[0]?.trim() ?? null, conflicts: [] };
    if (res.status !== 1) return { clean: false, tree: null, conflicts: [] };
    const conflicts = new Set<string>();
    for (const line of lines.slice(1)) {
      if (line === '') break;
      const tab = line.indexOf('\t');
      if (tab > 0) conflicts.add(line.slice(tab + 1));
    }
    return { clean: false, tree: lines[0]?.trim() ?? null, conflicts: [...conflicts] };
  }

  /**
   * Replays `commit` (one parent) onto `onto` and returns the resulting tree, or a conflict:
   * a cherry-pick done with merge-tree. A throwaway commit with `onto`'s tree and `commit`'s parent
   * as its only parent makes that parent the merge base.
   */
  cherryPickTree(commit: string, onto: string, ident: GitIdent): MergeCheck {
    const c = this.readCommit(commit);
    const ontoTree = this.text(['rev-parse', `${onto}^{tree}`]).trim();
    const parent = c.parents[0];
    if (!parent) return this.mergeTrees(onto, commit);
    const synthetic = this.commitTree(ontoTree, [parent], 'cherry-pick base\n', ident, ident);
    return this.mergeTrees(synthetic, commit);
  }

  /** Commits the files of a directory (honoring its .gitignore files) as a tree; returns the tree sha. */
  treeFromDirectory(worktree: string): string {
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
