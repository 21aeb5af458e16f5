// Installing the pre-commit hook: into the folder git really uses (core.hooksPath honoured),
// chaining a hook that is already there instead of overwriting it, idempotent, and calling the
// installed CLI directly so nothing is downloaded at commit time.
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { GitCommandManager } from '../git/git-command-manager.js';

export const HOOK_MARKER = '# installed by wiki-steward';
export const CHAINED_SUFFIX = '.wiki-steward-chained';
const HOOK = 'pre-commit';

export interface HookCommand {
  /** Absolute path of the node binary. */
  node: string;
  /** Absolute path of the CLI script. */
  cli: string;
}

const shellQuote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/** The hook script. Git runs hooks from the top of the work tree, so a CLI inside it is named relative to it. */
export function hookScript(command: HookCommand, repoRoot: string): string {
  const relative = path.relative(repoRoot, command.cli);
  const cli = relative.startsWith('..') || path.isAbsolute(relative) ? shellQuote(command.cli) : `"$(git rev-parse --show-toplevel)"/${shellQuote(relative)}`;
  return `#!/bin/sh
${HOOK_MARKER}: validates staged wiki pages and regenerates their index files.
# Remove with 'wiki-steward hooks uninstall'; skip once with 'git commit --no-verify'.
chained="$(dirname "$0")/${HOOK}${CHAINED_SUFFIX}"
if [ -x "$chained" ]; then
  "$chained" "$@" || exit $?
fi
cli=${cli}
if [ ! -f "$cli" ]; then
  echo "wiki-steward: pre-commit hook cannot find $cli; reinstall (npm install, then 'wiki-steward hooks install') or commit with --no-verify" >&2
  exit 1
fi
exec ${shellQuote(command.node)} "$cli" hooks pre-commit
`;
}

export type InstallOutcome = 'installed' | 'updated' | 'installed-chained';

export async function installHook(git: GitCommandManager, command: HookCommand): Promise<{ outcome: InstallOutcome; hookPath: string }> {
  const dir = await git.hooksDir();
  const repoRoot = await git.topLevel();
  await mkdir(dir, { recursive: true });
  const hookPath = path.join(dir, HOOK);
  const chainedPath = hookPath + CHAINED_SUFFIX;
  let outcome: InstallOutcome = 'installed';
  if (existsSync(hookPath)) {
    const current = await readFile(hookPath, 'utf8');
    if (current.includes(HOOK_MARKER)) outcome = 'updated';
    else {
      if (existsSync(chainedPath)) throw new Error(`${chainedPath} already exists: move it away before installing`);
      await rename(hookPath, chainedPath);
      await chmod(chainedPath, 0o755);
      outcome = 'installed-chained';
    }
  }
  const temp = `${hookPath}.tmp-${process.pid}`;
  await writeFile(temp, hookScript(command, repoRoot), { mode: 0o755 });
  await rename(temp, hookPath);
  return { outcome, hookPath };
}

export type UninstallOutcome = 'removed' | 'restored-chained' | 'not-installed';

export async function uninstallHook(git: GitCommandManager): Promise<{ outcome: UninstallOutcome; hookPath: string }> {
  const hookPath = path.join(await git.hooksDir(), HOOK);
  if (!existsSync(hookPath) || !(await readFile(hookPath, 'utf8')).includes(HOOK_MARKER)) return { outcome: 'not-installed', hookPath };
  const chainedPath = hookPath + CHAINED_SUFFIX;
  if (existsSync(chainedPath)) {
    await rename(chainedPath, hookPath);
    return { outcome: 'restored-chained', hookPath };
  }
  await rm(hookPath);
  return { outcome: 'removed', hookPath };
}
