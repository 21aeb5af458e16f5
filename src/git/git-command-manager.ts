// Every git call the project makes, in one place: simple-git for ordinary commands, and one streamed
// `git cat-file --batch` for reading many blobs at once (one process, not one per page).
import { spawn } from 'node:child_process';
import { type SimpleGit, simpleGit } from 'simple-git';

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

export class GitCommandManager {
  private readonly git: SimpleGit;

  constructor(readonly cwd: string) {
    this.git = simpleGit({ baseDir: cwd, allowEnvironment: REPOSITORY_ENVIRONMENT });
  }

  /** The commit HEAD points at, or undefined outside a repository or before the first commit. */
  async headCommit(): Promise<string | undefined> {
    try {
      return (await this.git.revparse(['HEAD'])).trim() || undefined;
    } catch {
      return undefined;
    }
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
    const hasHead = await this.git.raw(['rev-parse', '--verify', '--quiet', 'HEAD']).then(
      (out) => out.trim() !== '',
      () => false,
    );
    // Before the first commit everything staged is new.
    const out = await this.git.raw(hasHead ? ['diff', '--cached', '--name-only', '--no-renames', '-z'] : ['ls-files', '-z']);
    return out.split('\0').filter(Boolean);
  }

  /** Files changed between `base` (its merge base with HEAD) and HEAD, repository-relative; deleted ones left out. */
  async changedSince(base: string): Promise<string[]> {
    const out = await this.git.raw(['diff', '--name-only', '--no-renames', '--diff-filter=ACMRT', '-z', `${base}...HEAD`]);
    return out.split('\0').filter(Boolean);
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

  /** Stores content as a blob and stages it at each path, without touching the working tree. */
  async stageContents(files: ReadonlyArray<{ path: string; content: string }>): Promise<void> {
    if (files.length === 0) return;
    const lines: string[] = [];
    for (const file of files) {
      const sha = (await this.run(['hash-object', '-w', '--stdin'], file.content)).toString().trim();
      lines.push(`100644 ${sha}\t${file.path}`);
    }
    await this.run(['update-index', '--add', '-z', '--index-info'], lines.map((l) => `${l}\0`).join(''));
  }

  /** Runs git with input on stdin (simple-git has no stdin); the hook's environment is kept. */
  private run(args: string[], input: string): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const child = spawn('git', args, { cwd: this.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
      const chunks: Buffer[] = [];
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => chunks.push(c));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`git ${args[0]} failed (${code}): ${stderr.trim()}`))));
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
}
