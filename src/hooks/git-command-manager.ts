// Every git call the hooks make, in one place: simple-git for ordinary commands, and one streamed
// `git cat-file --batch` for reading many blobs at once (one process, not one per page).
import { spawn } from 'node:child_process';
import { type SimpleGit, simpleGit } from 'simple-git';

export interface StagedEntry {
  /** Repository-relative path. */
  path: string;
  mode: string;
  sha: string;
}

export class GitCommandManager {
  private readonly git: SimpleGit;

  constructor(readonly cwd: string) {
    this.git = simpleGit({ baseDir: cwd });
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

  async add(paths: string[]): Promise<void> {
    if (paths.length > 0) await this.git.raw(['add', '--', ...paths]);
  }

  /** Reads many blobs with one `git cat-file --batch` process. */
  readBlobs(shas: readonly string[]): Promise<Map<string, Buffer>> {
    const blobs = new Map<string, Buffer>();
    const unique = [...new Set(shas)];
    if (unique.length === 0) return Promise.resolve(blobs);
    return new Promise((resolve, reject) => {
      const child = spawn('git', ['cat-file', '--batch'], { cwd: this.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
      const chunks: Buffer[] = [];
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => chunks.push(c));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('error', reject);
      child.on('close', (code) => {
        if (code !== 0) return reject(new Error(`git cat-file --batch failed (${code}): ${stderr.trim()}`));
        const out = Buffer.concat(chunks);
        let at = 0;
        while (at < out.length) {
          const eol = out.indexOf(10, at);
          const header = out.subarray(at, eol).toString();
          const [sha, type, size] = header.split(' ');
          if (type === 'missing' || size === undefined) {
            at = eol + 1;
            continue;
          }
          const length = Number(size);
          blobs.set(sha!, out.subarray(eol + 1, eol + 1 + length));
          at = eol + 1 + length + 1;
        }
        resolve(blobs);
      });
      child.stdin.end(`${unique.join('\n')}\n`);
    });
  }
}
