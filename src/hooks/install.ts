// Installing the pre-commit hook: into the folder git really uses (core.hooksPath honoured),
// chaining a hook that is already there instead of overwriting it, idempotent, and calling the
// installed CLI directly so nothing is downloaded at commit time. Another tool's guard is never
// weakened: with a hook manager, a hook that dispatches on its own name, or a hooks folder shared
// with other repositories, nothing is installed and the line to add is printed instead; a chained
// hook keeps its mode (a disabled hook stays disabled) and uninstalling puts it back as it was.
import { existsSync, realpathSync } from 'node:fs';
import { chmod, lstat, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { GitCommandManager } from '../git/git-command-manager.js';
import { type HookManager, detectHookManager, dispatchesOnOwnName, isInside } from './managers.js';

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

/** The CLI as the hook names it: relative to the top of the work tree when it lives inside it. */
function cliExpression(command: HookCommand, repoRoot: string): string {
  const relative = path.relative(repoRoot, command.cli);
  return relative.startsWith('..') || path.isAbsolute(relative) ? shellQuote(command.cli) : `"$(git rev-parse --show-toplevel)"/${shellQuote(relative)}`;
}

/** One shell line that runs the check, for a hook someone else owns. */
export const hookCommandLine = (command: HookCommand, repoRoot: string): string =>
  `${shellQuote(command.node)} ${cliExpression(command, repoRoot)} hooks pre-commit || exit $?`;

/** The hook script. Git runs hooks from the top of the work tree, so a CLI inside it is named relative to it. */
export function hookScript(command: HookCommand, repoRoot: string): string {
  return `#!/bin/sh
${HOOK_MARKER}: validates staged wiki pages and regenerates their index files.
# Remove with 'wiki-steward hooks uninstall'; skip once with 'git commit --no-verify'.
chained="$(dirname "$0")/${HOOK}${CHAINED_SUFFIX}"
if [ -x "$chained" ]; then
  "$chained" "$@" || exit $?
fi
cli=${cliExpression(command, repoRoot)}
if [ ! -f "$cli" ]; then
  echo "wiki-steward: pre-commit hook cannot find $cli; reinstall (npm install, then 'wiki-steward hooks install') or commit with --no-verify" >&2
  exit 1
fi
exec ${shellQuote(command.node)} "$cli" hooks pre-commit
`;
}

export type InstallResult =
  | { outcome: 'installed' | 'updated' | 'already-installed'; hookPath: string }
  /** An existing hook was kept beside ours; `chainedRuns` is false when it is not executable (git would not run it either). */
  | { outcome: 'installed-chained'; hookPath: string; chainedRuns: boolean }
  /** A hook manager owns the hooks: nothing written; `earlierHook` when a hook of ours from before is still in the hooks folder. */
  | { outcome: 'manager'; hookPath: string; manager: HookManager; earlierHook: boolean }
  /** Nothing written, for `reason`; `line` is what to add to the hook in place, when that is the way. */
  | { outcome: 'refused'; hookPath: string; reason: string; line?: string };

const readText = (file: string): Promise<string | undefined> => readFile(file, 'utf8').catch(() => undefined);

const isExecutableFile = async (file: string): Promise<boolean> => {
  try {
    return ((await stat(file)).mode & 0o111) !== 0;
  } catch {
    return false;
  }
};

/** realpath of the longest part of `p` that exists, the rest appended (the hooks folder may not exist yet). */
function realPathOf(p: string): string {
  const rest: string[] = [];
  for (let at = path.resolve(p); ; at = path.dirname(at)) {
    if (existsSync(at)) return path.join(realpathSync(at), ...rest.reverse());
    if (path.dirname(at) === at) return path.resolve(p);
    rest.push(path.basename(at));
  }
}

export async function installHook(git: GitCommandManager, command: HookCommand): Promise<InstallResult> {
  const dir = await git.hooksDir();
  const repoRoot = await git.topLevel();
  const hookPath = path.join(dir, HOOK);
  const chainedPath = hookPath + CHAINED_SUFFIX;

  // A hooks folder outside the repository serves others too (a global core.hooksPath): a hook there
  // would run, and chain, in every one of them.
  const realDir = realPathOf(dir);
  if (!isInside(realDir, realPathOf(repoRoot)) && !isInside(realDir, realPathOf(await git.commonDir()))) {
    return {
      outcome: 'refused',
      hookPath,
      reason:
        `core.hooksPath points outside this repository (${dir}): a hook there runs for every repository that uses that folder, so nothing was installed. ` +
        'Give this repository its own hooks folder (git config core.hooksPath .githooks) and install again',
    };
  }

  const current = existsSync(hookPath) ? await readText(hookPath) : undefined;
  const ours = current?.includes(HOOK_MARKER) ?? false;
  // The hook another tool put there: in place, or chained by an earlier install of ours.
  const theirs = ours ? (existsSync(chainedPath) ? await readText(chainedPath) : undefined) : current;
  const manager = detectHookManager({ repoRoot, hooksDir: dir, existingHook: theirs });
  if (manager) return { outcome: 'manager', hookPath, manager, earlierHook: ours };

  const script = hookScript(command, repoRoot);
  if (ours) {
    if (current === script && (await isExecutableFile(hookPath))) return { outcome: 'already-installed', hookPath };
    await writeHook(hookPath, script);
    return { outcome: 'updated', hookPath };
  }
  if (existsSync(hookPath) || (await lstat(hookPath).catch(() => undefined))) {
    if (theirs !== undefined && dispatchesOnOwnName(theirs)) {
      return {
        outcome: 'refused',
        hookPath,
        reason:
          `the existing hook ${hookPath} finds its work by its own file name ($0): moved aside to chain it, it would run the wrong thing or nothing, ` +
          'so nothing was installed. Add this line where that hook (or the script it runs) does its pre-commit work',
        line: hookCommandLine(command, repoRoot),
      };
    }
    if (existsSync(chainedPath)) throw new Error(`${chainedPath} already exists: move it away before installing`);
    // Renamed as it is: its content and its mode. A hook that is not executable is one git does not
    // run; ours runs the chained hook only when it is executable, so it stays disabled.
    await rename(hookPath, chainedPath);
    await writeHook(hookPath, script);
    return { outcome: 'installed-chained', hookPath, chainedRuns: await isExecutableFile(chainedPath) };
  }
  await mkdir(dir, { recursive: true });
  await writeHook(hookPath, script);
  return { outcome: 'installed', hookPath };
}

async function writeHook(hookPath: string, script: string): Promise<void> {
  const temp = `${hookPath}.tmp-${process.pid}`;
  await writeFile(temp, script, { mode: 0o755 });
  // The umask may have taken bits off the mode given to writeFile.
  await chmod(temp, 0o755);
  await rename(temp, hookPath);
}

export type UninstallOutcome = 'removed' | 'restored-chained' | 'not-installed';

export async function uninstallHook(git: GitCommandManager): Promise<{ outcome: UninstallOutcome; hookPath: string }> {
  const hookPath = path.join(await git.hooksDir(), HOOK);
  if (!existsSync(hookPath) || !((await readText(hookPath)) ?? '').includes(HOOK_MARKER)) return { outcome: 'not-installed', hookPath };
  const chainedPath = hookPath + CHAINED_SUFFIX;
  if (existsSync(chainedPath) || (await lstat(chainedPath).catch(() => undefined))) {
    // A rename puts back exactly what install moved aside: the same bytes and the same mode.
    await rename(chainedPath, hookPath);
    return { outcome: 'restored-chained', hookPath };
  }
  await rm(hookPath);
  return { outcome: 'removed', hookPath };
}
