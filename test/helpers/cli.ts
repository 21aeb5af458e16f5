// The real built CLI (dist/cli.js, built by test/global-setup.ts), run as a child process.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunResult, run } from './git-repo.js';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI_PATH = path.join(PROJECT_ROOT, 'dist', 'cli.js');

/** `node dist/cli.js ...args` in `cwd`, with the isolated git environment. Never throws on a non-zero exit. */
export function runCli(args: readonly string[], cwd: string): RunResult {
  return run(process.execPath, [CLI_PATH, ...args], cwd);
}

/** Like runCli, but throws with the output when the exit code is not 0. */
export function cli(args: readonly string[], cwd: string): RunResult {
  const r = runCli(args, cwd);
  if (r.status !== 0) throw new Error(`wiki-steward ${args.join(' ')} exited ${r.status}:\n${r.stdout}${r.stderr}`);
  return r;
}
