import { realpathSync } from 'node:fs';
import path from 'node:path';
import { requireWikiRoot } from '../config/workspace.js';
import { GitCommandManager } from '../git/git-command-manager.js';
import { installHook, uninstallHook } from '../hooks/install.js';
import { runPreCommit } from '../hooks/pre-commit.js';
import { formatText } from '../report/diagnostics-format.js';
import { hasErrors } from '../wiki/diagnostics.js';
import { type CliIo, EXIT, openCliWorkspace } from './context.js';

/** The CLI script now running: what the hook will call. */
const runningCli = (): string => realpathSync(process.argv[1] ?? '');

export async function hooksInstallCommand(io: CliIo): Promise<number> {
  const { outcome, hookPath } = await installHook(new GitCommandManager(io.cwd), { node: process.execPath, cli: runningCli() });
  const said = { installed: 'installed', updated: 'updated', 'installed-chained': 'installed (the existing hook runs first)' }[outcome];
  io.stderr(`pre-commit hook ${said}: ${path.relative(io.cwd, hookPath) || hookPath}`);
  return EXIT.ok;
}

export async function hooksUninstallCommand(io: CliIo): Promise<number> {
  const { outcome, hookPath } = await uninstallHook(new GitCommandManager(io.cwd));
  const said = { removed: 'removed', 'restored-chained': 'removed; the hook it chained is back in place', 'not-installed': 'not installed; nothing to do' }[outcome];
  io.stderr(`pre-commit hook ${said}: ${path.relative(io.cwd, hookPath) || hookPath}`);
  return EXIT.ok;
}

export async function preCommitCommand(io: CliIo): Promise<number> {
  const workspace = await openCliWorkspace(io, undefined);
  if (!workspace.wikiRoot) return EXIT.ok; // no wiki in this repository: nothing to guard
  const wikiRoot = requireWikiRoot(workspace);
  const git = new GitCommandManager(workspace.repoRoot);
  const result = await runPreCommit(git, workspace);
  const paths = { wikiRoot, repoRoot: workspace.repoRoot, cwd: io.cwd };
  if (result.diagnostics.length > 0) io.stderr(formatText(result.diagnostics, paths));
  if (hasErrors(result.diagnostics)) {
    io.stderr(`wiki-steward: commit blocked: fix the errors above in ${result.validated.length} staged page(s), or commit with --no-verify`);
    return EXIT.faults;
  }
  if (result.staged.length > 0) io.stderr(`wiki-steward: regenerated and staged ${result.staged.join(', ')}`);
  for (const kept of result.keptEdits) io.stderr(`wiki-steward: ${kept} has unstaged edits in the working tree; they were left in place (the commit gets the regenerated file)`);
  return EXIT.ok;
}
