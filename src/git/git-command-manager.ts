// Every git call the project makes, in one place: simple-git for ordinary commands, and one streamed
// `git cat-file --batch` for reading many blobs at once (one process, not one per page).
import { spawn } from 'node:child_process';
import { type SimpleGit, simpleGit } from 'simple-git';

/** Where a repository is: its work tree's top and its git directory, absolute. */
export interface GitPlaces {
  top: string;
  gitDir: string;
}

export interface StagedEntry {
  /** Repository-relative path. */
  path: string;
  mode: string;
  sha: string;
}

/**
 * Variables git sets for a hook to say which repository and which index it works on
 * (`git commit -a` and `git commit <paths>` commit a temporary index named by GIT_INDEX_FILE).
 * simple-git strips inherited GIT_* variables unless they are allowed.
 */
const REPOSITORY_ENVIRONMENT = [
  'GIT_INDEX_FILE',
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_NOSYSTEM',
];

/** How many `hash-object` processes stageContents runs at once. */
const OBJECTS_WRITTEN_AT_ONCE = 8;

export class GitCommandManager {
  private readonly git: SimpleGit;

  constructor(readonly cwd: string) {
    // simple-git's default completion: done when git's output closes, or 50 ms after git exits
    // when a process it started (an fsmonitor hook's daemon) still holds the output. Its timer
    // holds a run's exit up to 50 ms past its last git process; waiting for the output alone would
    // hold it for as long as such a process lives (test/git/held-output.test.ts).
    this.git = simpleGit({ baseDir: cwd, allowEnvironment: REPOSITORY_ENVIRONMENT });
  }

  /**
   * The commit HEAD points at (undefined outside a repository or before the first commit), and the
   * files under this folder whose text is not that commit's: modified, staged, deleted, untracked
   * or ignored, relative to this folder. A commit names the text read only when none of it is
   * here. With them, the repository's places (see `places`), undefined outside one. Two git
   * processes: one `rev-parse` for the places, the folder's place in the tree and HEAD, one `status`.
   */
  async headState(): Promise<{ commit: string | undefined; changed: Set<string>; places: GitPlaces | undefined }> {
    let prefix = '';
    let commit: string | undefined;
    let places: GitPlaces | undefined;
    // Before the first commit `--verify` fails quietly, after printing the places: those still stand.
    const place = this.git.raw(['rev-parse', '--show-toplevel', '--absolute-git-dir', '--show-prefix', '--verify', '--quiet', 'HEAD']);
    // `--branch` puts a `## branch` entry first, so the output is never empty: simple-git waits 50 ms
    // more for a command that printed nothing (a clean tree's status), on every question.
    // Every stat field compared, whatever the repository's config trusts: an edit of the same size
    // with its modification time set back still moves the change time and may move the inode.
    // Asked beside rev-parse (neither waits on the other), and read only when there is a HEAD.
    const status = this.git.raw([
      ...['-c', 'core.trustctime=true', '-c', 'core.checkStat=default'],
      ...['status', '--porcelain=v1', '--branch', '-z', '--untracked-files=all', '--ignored=matching', '--', '.'],
    ]);
    status.catch(() => undefined);
    try {
      const [top = '', gitDir = '', where = '', head = ''] = (await place).split('\n').map((line) => line.trim());
      places = top && gitDir ? { top, gitDir } : undefined;
      prefix = where;
      commit = /^[0-9a-f]{40,64}$/.test(head) ? head : undefined;
    } catch {
      commit = undefined;
    }
    const changed = new Set<string>();
    if (commit === undefined) return { commit, changed, places };
    const fields = (await status).split('\0');
    for (let i = 0; i < fields.length; i++) {
      const entry = fields[i]!;
      if (entry.length < 4 || (i === 0 && entry.startsWith('## '))) continue;
      // A rename or copy is followed by the path it came from: both differ from HEAD.
      const paths = /^[RC]/.test(entry) ? [entry.slice(3), fields[++i] ?? ''] : [entry.slice(3)];
      for (const p of paths) if (p.startsWith(prefix)) changed.add(p.slice(prefix.length));
    }
    return { commit, changed, places };
  }

  /**
   * Blob ids of the files in the staging area under the working directory, keyed by path relative to
   * it (stage 0 only). Files marked assume-unchanged or skip-worktree are left out: `status` does not
   * look at them, so their blob says nothing of the file on disk.
   */
  async indexBlobs(): Promise<Map<string, string>> {
    const blobs = new Map<string, string>();
    // `-v` tags each file: `H` for one `status` compares (lowercase for assume-unchanged, `S` for skip-worktree).
    for (const line of (await this.git.raw(['ls-files', '--stage', '-v', '-z', '--', '.'])).split('\0')) {
      const m = /^H \d+ ([0-9a-f]{40,64}) 0\t(.+)$/s.exec(line);
      if (m) blobs.set(m[2]!, m[1]!);
    }
    return blobs;
  }

  /**
   * Every configuration setting in force here (system, user, repository), as `[key, value]` in
   * git's order; keys lowercased as git prints them. The whole list, filtered by the caller:
   * `--get-regexp` prints nothing when nothing matches, and simple-git waits 50 ms more for a
   * command that prints nothing.
   */
  async settings(): Promise<Array<[key: string, value: string]>> {
    const list = await this.git.raw(['config', '--list', '-z']).catch(() => '');
    return list
      .split('\0')
      .filter(Boolean)
      .map((entry) => {
        const at = entry.indexOf('\n');
        return at < 0 ? [entry, ''] : [entry.slice(0, at), entry.slice(at + 1)];
      });
  }

  /** The tree id of `folder` (repository-relative, '' for the root) at HEAD; undefined when HEAD or the folder is missing. */
  async headTreeId(folder: string): Promise<string | undefined> {
    try {
      const id = (await this.git.raw(['rev-parse', '--verify', '--quiet', `HEAD:${folder}`])).trim();
      return /^[0-9a-f]{40,64}$/.test(id) ? id : undefined;
    } catch {
      return undefined;
    }
  }

  /** The work tree's top and the repository's git directory (a linked worktree's own), absolute; undefined outside git. */
  async places(): Promise<GitPlaces | undefined> {
    const out = await this.git.raw(['rev-parse', '--show-toplevel', '--absolute-git-dir']).catch(() => '');
    const [top, gitDir] = out.split('\n').map((line) => line.trim());
    return top && gitDir ? { top, gitDir } : undefined;
  }

  async topLevel(): Promise<string> {
    return (await this.git.revparse(['--show-toplevel'])).trim();
  }

  /** The hooks folder git uses (honours core.hooksPath), absolute. */
  async hooksDir(): Promise<string> {
    return (await this.git.raw(['rev-parse', '--path-format=absolute', '--git-path', 'hooks'])).trim();
  }

  /** Paths (repository-relative) that the staging area changes against HEAD, renames split into delete + add. */
  async stagedChanges(): Promise<string[]> {
    // Before the first commit `diff --cached` compares with the empty tree: everything staged is new.
    const out = await this.git.raw(['diff', '--cached', '--name-only', '--no-renames', '-z']);
    return out.split('\0').filter(Boolean);
  }

  /** Files changed between `base` (its merge base with HEAD) and HEAD, repository-relative; deleted ones left out. */
  async changedSince(base: string): Promise<string[]> {
    const out = await this.git.raw(['diff', '--name-only', '--no-renames', '--diff-filter=ACMRT', '-z', `${base}...HEAD`]);
    return out.split('\0').filter(Boolean);
  }

  /** Files the commits since `base` (merge base…HEAD) delete, and those they move (from → to). */
  async removedSince(base: string): Promise<{ deleted: string[]; renamed: Map<string, string> }> {
    const fields = (await this.git.raw(['diff', '--name-status', '-M', '-z', '--diff-filter=DR', `${base}...HEAD`])).split('\0');
    const deleted: string[] = [];
    const renamed = new Map<string, string>();
    for (let at = 0; at < fields.length && fields[at] !== '';) {
      const status = fields[at]!;
      if (status.startsWith('R')) {
        renamed.set(fields[at + 1]!, fields[at + 2]!);
        at += 3;
      } else {
        deleted.push(fields[at + 1]!);
        at += 2;
      }
    }
    return { deleted, renamed };
  }

  /** Every staged regular file under `prefix` (repository-relative folder, '' for all). */
  async stagedEntries(prefix: string): Promise<StagedEntry[]> {
    const out = await this.git.raw(['ls-files', '--stage', '-z', '--', prefix === '' ? '.' : prefix]);
    const entries: StagedEntry[] = [];
    for (const record of out.split('\0')) {
      if (!record) continue;
      const tab = record.indexOf('\t');
      const [mode, sha] = record.slice(0, tab).split(' ') as [string, string];
      // Regular files only: symlinks (120000) and submodules (160000) are not followed.
      if (mode === '100644' || mode === '100755') entries.push({ path: record.slice(tab + 1), mode, sha });
    }
    return entries;
  }

  /**
   * Stores content as a blob and stages it at each path, without touching the working tree.
   * Returns the entries staged.
   */
  async stageContents(files: ReadonlyArray<{ path: string; content: string }>): Promise<StagedEntry[]> {
    if (files.length === 0) return [];
    // A few at a time, not one after another (git writes each object to a temp file and renames
    // it in), nor all at once: a bulk import can regenerate thousands, and a process each would
    // run out of file descriptors.
    const entries: StagedEntry[] = [];
    for (let at = 0; at < files.length; at += OBJECTS_WRITTEN_AT_ONCE) {
      const written = files.slice(at, at + OBJECTS_WRITTEN_AT_ONCE).map(async (file): Promise<StagedEntry> => {
        const sha = (await this.run(['hash-object', '-w', '--stdin'], file.content)).toString().trim();
        return { path: file.path, mode: '100644', sha };
      });
      entries.push(...(await Promise.all(written)));
    }
    await this.setIndexEntries(entries);
    return entries;
  }

  /** Sets entries (blobs already in the object store) in an index: `indexFile`, else the one this process was given. */
  async setIndexEntries(entries: readonly StagedEntry[], indexFile?: string): Promise<void> {
    if (entries.length === 0) return;
    const input = entries.map((e) => `${e.mode} ${e.sha}\t${e.path}\0`).join('');
    await this.run(['update-index', '--add', '-z', '--index-info'], input, { indexFile });
  }

  /** The entries of `paths` (repository-relative) in an index: `indexFile`, else the one this process was given. */
  async indexEntries(paths: readonly string[], indexFile?: string): Promise<Map<string, StagedEntry>> {
    const found = new Map<string, StagedEntry>();
    if (paths.length === 0) return found;
    const out = (await this.run(['--literal-pathspecs', 'ls-files', '--stage', '-z', '--', ...paths], '', { indexFile })).toString();
    for (const record of out.split('\0')) {
      if (!record) continue;
      const tab = record.indexOf('\t');
      const [mode, sha] = record.slice(0, tab).split(' ') as [string, string];
      found.set(record.slice(tab + 1), { path: record.slice(tab + 1), mode, sha });
    }
    return found;
  }

  /**
   * The index file of this repository when no GIT_INDEX_FILE names another one: during
   * `git commit <paths>` the hook is given a temporary index, and this is the real one.
   */
  async defaultIndexFile(): Promise<string> {
    return (await this.run(['rev-parse', '--path-format=absolute', '--git-path', 'index'], '', { indexFile: null })).toString().trim();
  }

  /** The repository's common git folder (shared by its worktrees), absolute. */
  async commonDir(): Promise<string> {
    return (await this.git.raw(['rev-parse', '--path-format=absolute', '--git-common-dir'])).trim();
  }

  /**
   * Staged files under `prefix` (repository-relative folder, '' for all) whose staged content holds
   * any of `needles` as plain text; repository-relative paths. One `git grep --cached`, binary files skipped.
   */
  async stagedFilesContaining(needles: readonly string[], prefix: string): Promise<string[]> {
    const patterns = [...new Set(needles)].filter((n) => n !== '' && !n.includes('\n'));
    if (patterns.length === 0) return [];
    const args = [
      '--literal-pathspecs',
      'grep',
      '--cached',
      '-l',
      '-z',
      '-I',
      '-F',
      '--full-name',
      '--no-color',
      '-f',
      '-',
      '--',
      prefix === '' ? '.' : prefix,
    ];
    // git grep exits 1 when nothing matches.
    const out = await this.run(args, `${patterns.join('\n')}\n`, { okExitCodes: [0, 1] });
    return out.toString().split('\0').filter(Boolean);
  }

  /** Renames the staging area makes against HEAD (old path → new path, repository-relative). */
  async stagedRenames(): Promise<Map<string, string>> {
    const renames = new Map<string, string>();
    // Before the first commit `diff --cached` compares with the empty tree: nothing is renamed.
    const fields = (await this.git.raw(['diff', '--cached', '-M', '--name-status', '-z', '--diff-filter=R'])).split('\0');
    for (let at = 0; at + 2 < fields.length; at += 3) {
      if (fields[at]!.startsWith('R')) renames.set(fields[at + 1]!, fields[at + 2]!);
    }
    return renames;
  }

  /**
   * Runs git with input on stdin (simple-git has no stdin); the hook's environment is kept, except
   * GIT_INDEX_FILE when `indexFile` names another index (a path) or none (null: git's default).
   */
  private run(args: string[], input: string, options: { indexFile?: string | null | undefined; okExitCodes?: number[] } = {}): Promise<Buffer> {
    let env: NodeJS.ProcessEnv | undefined;
    if (options.indexFile !== undefined) {
      env = { ...process.env };
      if (options.indexFile === null) delete env.GIT_INDEX_FILE;
      else env.GIT_INDEX_FILE = options.indexFile;
    }
    const ok = options.okExitCodes ?? [0];
    return new Promise((resolve, reject) => {
      const child = spawn('git', args, { cwd: this.cwd, stdio: ['pipe', 'pipe', 'pipe'], ...(env ? { env } : {}) });
      // First: a process that could not start (no file descriptors left) has no pipes, and says why here.
      child.on('error', reject);
      if (!child.stdout || !child.stderr || !child.stdin) return;
      const chunks: Buffer[] = [];
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => chunks.push(c));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      // A git that exits without reading all its input (nothing to read, or a failure reported on
      // close) closes the pipe: that is not an error of its own.
      child.stdin.on('error', () => undefined);
      child.on('close', (code) =>
        code !== null && ok.includes(code)
          ? resolve(Buffer.concat(chunks))
          : reject(new Error(`git ${args.find((a) => !a.startsWith('-'))} failed (${code}): ${stderr.trim()}`)),
      );
      child.stdin.end(input);
    });
  }

  /** Reads many blobs with one `git cat-file --batch` process. */
  async readBlobs(shas: readonly string[]): Promise<Map<string, Buffer>> {
    const blobs = new Map<string, Buffer>();
    const unique = [...new Set(shas)];
    if (unique.length === 0) return blobs;
    const out = await this.run(['cat-file', '--batch'], `${unique.join('\n')}\n`);
    let at = 0;
    while (at < out.length) {
      const eol = out.indexOf(10, at);
      const [sha, type, size] = out.subarray(at, eol).toString().split(' ');
      if (type === 'missing' || size === undefined) {
        at = eol + 1;
        continue;
      }
      const length = Number(size);
      blobs.set(sha!, out.subarray(eol + 1, eol + 1 + length));
      at = eol + 1 + length + 1;
    }
    return blobs;
  }

  /**
   * The last commit that changed each of these paths (repository-relative), from one `git log`
   * stopped as soon as every path is found; a path never committed is absent. Read-only.
   */
  lastCommitsTouching(paths: readonly string[]): Promise<Map<string, string>> {
    const wanted = new Set(paths);
    const found = new Map<string, string>();
    if (wanted.size === 0) return Promise.resolve(found);
    const args = ['--literal-pathspecs', 'log', '--format=%x01%H', '--name-only', '--no-renames', '-z', '--', ...wanted];
    return new Promise((resolve, reject) => {
      const child = spawn('git', args, { cwd: this.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
      let pending = '';
      let stderr = '';
      let done = false;
      // One record per commit: \x01<sha>\0\n<path>\0<path>\0…
      const take = (record: string) => {
        const end = record.indexOf('\0');
        if (end < 0) return;
        const sha = record.slice(0, end);
        for (const name of record
          .slice(end + 1)
          .replace(/^\n/, '')
          .split('\0')) {
          if (wanted.has(name) && !found.has(name)) found.set(name, sha);
        }
      };
      const finish = () => {
        if (done) return;
        done = true;
        child.kill();
        resolve(found);
      };
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        if (done) return;
        pending += chunk;
        const records = pending.split('\x01');
        pending = records.pop()!;
        for (const record of records) take(record);
        if (found.size === wanted.size) finish();
      });
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('error', (error) => {
        if (!done) reject(error);
        done = true;
      });
      child.on('close', (code) => {
        if (done) return;
        if (code !== 0) {
          done = true;
          reject(new Error(`git log failed (${code}): ${stderr.trim()}`));
          return;
        }
        take(pending);
        finish();
      });
    });
  }

  /** Regular files of a commit's tree under `prefix` (repository-relative folder, '' for all), with their blobs. Read-only. */
  async treeEntries(commit: string, prefix: string): Promise<StagedEntry[]> {
    const out = (
      await this.run(['--literal-pathspecs', 'ls-tree', '-r', '-z', '--full-tree', commit, ...(prefix === '' ? [] : ['--', prefix])], '')
    ).toString();
    const entries: StagedEntry[] = [];
    for (const record of out.split('\0')) {
      if (!record) continue;
      const tab = record.indexOf('\t');
      const [mode, type, sha] = record.slice(0, tab).split(' ') as [string, string, string];
      if (type === 'blob' && (mode === '100644' || mode === '100755')) entries.push({ path: record.slice(tab + 1), mode, sha });
    }
    return entries;
  }

  /** Absolute path of a file in the repository's git folder (`git rev-parse --git-path`; per worktree). Read-only. */
  async gitPath(name: string): Promise<string> {
    return (await this.git.raw(['rev-parse', '--path-format=absolute', '--git-path', name])).trim();
  }
}
