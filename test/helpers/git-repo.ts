// Real git repositories in temp folders, for tests that need git itself (hooks, staging, commits).
// Every git process runs with an isolated environment: no global or system config is read (so a
// developer's core.hooksPath or commit.gpgsign cannot leak in), nothing global is ever written, and
// the identity comes from environment variables. Git's automatic housekeeping after a commit
// (`gc --auto`, `maintenance run --auto`, one more process each time) is off: these repositories
// live for one test.
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** process.env minus anything that would point git at another repository or config, plus an identity. */
export function isolatedGitEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: os.devNull,
    GIT_CONFIG_COUNT: '2',
    GIT_CONFIG_KEY_0: 'gc.auto',
    GIT_CONFIG_VALUE_0: '0',
    GIT_CONFIG_KEY_1: 'maintenance.auto',
    GIT_CONFIG_VALUE_1: 'false',
    GIT_AUTHOR_NAME: 'Wiki Tester',
    GIT_AUTHOR_EMAIL: 'tester@example.com',
    GIT_COMMITTER_NAME: 'Wiki Tester',
    GIT_COMMITTER_EMAIL: 'tester@example.com',
    ...extra,
  };
}

const asResult = (r: SpawnSyncReturns<string>): RunResult => {
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

/** Runs a process to completion with the isolated environment; never throws on a non-zero exit. */
export function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): RunResult {
  return asResult(spawnSync(command, args, { cwd, env: isolatedGitEnv(env), encoding: 'utf8' }));
}

/** Temp folders made by a test, removed together by `cleanup()`. */
export class TempDirs {
  private readonly made: string[] = [];

  async make(prefix = 'ws-test-'): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    this.made.push(dir);
    return dir;
  }

  async cleanup(): Promise<void> {
    await Promise.all(this.made.splice(0).map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 5 })));
  }
}

export interface GitRepo {
  /** Absolute path of the work tree. */
  readonly root: string;
  /** Runs git; throws with git's output when it exits non-zero. Returns stdout. */
  git(...args: string[]): string;
  /** Runs git and returns the whole result, whatever the exit code. */
  tryGit(...args: string[]): RunResult;
  /** Writes files (repository-relative paths), creating folders. Nothing is staged. */
  write(files: Record<string, string>): void;
  read(relPath: string): string;
  exists(relPath: string): boolean;
  /** Removes a file from the work tree only (the staging area keeps it). */
  remove(relPath: string): void;
  /** `git commit -m message [...args]`: the hook runs. Returns the result; never throws. */
  commit(message: string, ...args: string[]): RunResult;
  /** HEAD's commit id, or undefined before the first commit. */
  head(): string | undefined;
  /** Paths changed by the HEAD commit (`git show --name-only`). */
  committedPaths(): string[];
  /** Paths staged against HEAD. */
  stagedPaths(): string[];
}

export function openRepo(root: string): GitRepo {
  const abs = (rel: string) => path.join(root, ...rel.split('/'));
  const tryGit = (...args: string[]) => run('git', args, root);
  const git = (...args: string[]) => {
    const r = tryGit(...args);
    if (r.status !== 0) throw new Error(`git ${args.join(' ')} exited ${r.status}:\n${r.stdout}${r.stderr}`);
    return r.stdout;
  };
  const lines = (out: string) => out.split('\n').filter(Boolean);
  return {
    root,
    git,
    tryGit,
    write(files) {
      for (const [rel, content] of Object.entries(files)) {
        mkdirSync(path.dirname(abs(rel)), { recursive: true });
        writeFileSync(abs(rel), content);
      }
    },
    read: (rel) => readFileSync(abs(rel), 'utf8'),
    exists: (rel) => existsSync(abs(rel)),
    remove: (rel) => rmSync(abs(rel)),
    commit: (message, ...args) => tryGit('commit', '-m', message, ...args),
    head() {
      const r = tryGit('rev-parse', '--verify', '--quiet', 'HEAD');
      return r.status === 0 ? r.stdout.trim() : undefined;
    },
    committedPaths: () => lines(git('show', '--name-only', '--format=', 'HEAD')),
    stagedPaths: () => lines(git('diff', '--cached', '--name-only')),
  };
}

/** `git init` in a new temp folder (branch `main`), optionally with files written (not staged). */
export async function createRepo(dirs: TempDirs, files: Record<string, string> = {}): Promise<GitRepo> {
  const repo = openRepo(await dirs.make('ws-repo-'));
  repo.git('init', '--quiet', '--initial-branch=main');
  repo.write(files);
  return repo;
}
