// The real built CLI (dist/cli.js, built by test/global-setup.ts), run as a child process.
import { type Stats, cpSync, existsSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { runCli as runInProcess } from './cli-in-process.js';
import { type RunResult, isolatedGitEnv, run } from './git-repo.js';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = path.join(PROJECT_ROOT, 'dist');

let snapshot: string | undefined;
let snapshotDir: string | undefined;
const removeSnapshot = (): void => {
  if (snapshotDir) rmSync(snapshotDir, { recursive: true, force: true });
  [snapshot, snapshotDir] = [undefined, undefined];
};
// After the test file that imports this (vitest ends its workers without an 'exit' event).
afterAll(removeSnapshot);

/** A finished build: scripts/build.mjs writes the worker bundle after the split build, and makes cli.js executable last. */
const finished = (dist: string): Stats | undefined => {
  const cli = path.join(dist, 'cli.js');
  if (!existsSync(cli) || !existsSync(path.join(dist, 'chunks', 'catalog-worker.js'))) return undefined;
  const stat = statSync(cli);
  return (stat.mode & 0o111) !== 0 ? stat : undefined;
};
const sameFile = (a: Stats | undefined, b: Stats | undefined): boolean => !!a && !!b && a.ino === b.ino && a.mtimeMs === b.mtimeMs && a.size === b.size;

/**
 * The built CLI this test file runs: dist/ as the global setup built it, copied on first use into a
 * temp folder of its own, beside a link to the project's node_modules (so its packages resolve as
 * from dist/). Another run rebuilding dist/ meanwhile (it removes dist/ first) cannot take the CLI
 * away mid-test; a copy caught in the middle of such a rebuild is made again. Removed after the test
 * file. Hooks installed by it name this copy.
 */
export function builtCli(): string {
  if (snapshot) return snapshot;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wiki-steward-built-cli-'));
  symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const copy = path.join(dir, 'dist');
  for (let attempt = 1; ; attempt++) {
    const before = finished(DIST);
    if (before) {
      rmSync(copy, { recursive: true, force: true });
      cpSync(DIST, copy, { recursive: true });
      if (finished(copy) && sameFile(before, finished(DIST))) break;
    }
    if (attempt === 100) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`no finished build in ${DIST}: test/global-setup.ts builds it (node scripts/build.mjs --cli)`);
    }
    // Another run is rebuilding dist/: a moment, then again.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  }
  [snapshotDir, snapshot] = [dir, path.join(copy, 'cli.js')];
  return snapshot;
}

/** `node <built CLI> ...args` in `cwd`, with the isolated git environment. Never throws on a non-zero exit. */
export function runCli(args: readonly string[], cwd: string): RunResult {
  return run(process.execPath, [builtCli(), ...args], cwd);
}

/** Like runCli, but throws with the output when the exit code is not 0. */
export function cli(args: readonly string[], cwd: string): RunResult {
  const r = runCli(args, cwd);
  if (r.status !== 0) throw new Error(`wiki-steward ${args.join(' ')} exited ${r.status}:\n${r.stdout}${r.stderr}`);
  return r;
}

/**
 * `wiki-steward ...args` run in this process in place of the built CLI, with the same isolated
 * environment: a hook it installs names the built CLI, so git still runs the real executable on
 * every commit. For set-up, and for commands a test judges by what they wrote; a test about the
 * built CLI itself uses runCli. Never throws on a non-zero exit.
 */
export async function runAsBuilt(args: string[], cwd: string): Promise<RunResult> {
  const r = await runInProcess(args, cwd, { env: isolatedGitEnv(), cliScript: builtCli() });
  return { status: r.code, stdout: r.stdout, stderr: r.stderr };
}
