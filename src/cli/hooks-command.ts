import { realpathSync } from 'node:fs';
import path from 'node:path';
import { requireWikiRoot } from '../config/workspace.js';
import { GitCommandManager } from '../git/git-command-manager.js';
import { installHook, uninstallHook } from '../hooks/install.js';
import { runPreCommit } from '../hooks/pre-commit.js';
import { formatText } from '../report/diagnostics-format.js';
import { hasErrors } from '../wiki/diagnostics.js';
import { type CliIo, EXIT, openCliWorkspace } from './context.js';

/** The CLI script the hook will call: the one now running, unless the caller names another. */
const hookedCli = (io: CliIo): string => realpathSync(io.cliScript ?? process.argv[1] ?? '');

export async function hooksInstallCommand(io: CliIo): Promise<number> {
  const result = await installHook(new GitCommandManager(io.cwd), { node: process.execPath, cli: hookedCli(io) });
  const shown = (p: string) => path.relative(io.cwd, p) || p;
  switch (result.outcome) {
    case 'manager': {
      // The snippet alone goes to stdout, so it can be appended as it is.
      const { manager } = result;
      io.stderr(
        `wiki-steward: ${manager.label} manages this repository's git hooks (${manager.evidence}): nothing was installed and no file was changed. ` +
          `To run the check from ${manager.label}, ${manager.how} ${shown(manager.configFile)}:`,
      );
      io.stdout(manager.snippet);
      if (result.earlierHook) {
        io.stderr(
          `wiki-steward: a pre-commit hook installed earlier by wiki-steward is still in ${shown(result.hookPath)}; ` +
            "'wiki-steward hooks uninstall' removes it and puts back any hook it chained",
        );
      }
      return EXIT.ok;
    }
    case 'refused':
      io.stderr(`wiki-steward: ${result.reason}${result.line ? ':' : '.'}`);
      if (result.line) io.stdout(result.line);
      return EXIT.ok;
    case 'installed-chained':
      io.stderr(
        result.chainedRuns
          ? `pre-commit hook installed (the existing hook runs first): ${shown(result.hookPath)}`
          : 'pre-commit hook installed; the existing hook is kept as it was, not executable, so it stays disabled ' +
              `(git did not run it either): ${shown(result.hookPath)}`,
      );
      return EXIT.ok;
    default: {
      const said = { installed: 'installed', updated: 'updated', 'already-installed': 'already installed; nothing changed' }[result.outcome];
      io.stderr(`pre-commit hook ${said}: ${shown(result.hookPath)}`);
      return EXIT.ok;
    }
  }
}

export async function hooksUninstallCommand(io: CliIo): Promise<number> {
  const { outcome, hookPath } = await uninstallHook(new GitCommandManager(io.cwd));
  const said = { removed: 'removed', 'restored-chained': 'removed; the hook it chained is back in place', 'not-installed': 'not installed; nothing to do' }[
    outcome
  ];
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
    const broken = new Set(result.brokenByRemovals);
    const todo: string[] = [];
    if (hasErrors(result.diagnostics.filter((d) => !broken.has(d.path)))) todo.push(`fix the errors above in ${result.validated.length} staged page(s)`);
    if (broken.size > 0) todo.push(`update the ${broken.size} page(s) above that link to or cite what this commit deletes or moves, and stage them`);
    io.stderr(`wiki-steward: commit blocked: ${todo.join('; ')}, or commit with --no-verify`);
    return EXIT.faults;
  }
  if (result.staged.length > 0) io.stderr(`wiki-steward: regenerated and staged ${result.staged.join(', ')}`);
  const keptStaged = new Set(result.keptStaged);
  for (const kept of result.keptEdits.filter((p) => !keptStaged.has(p))) {
    io.stderr(`wiki-steward: ${kept} has unstaged edits in the working tree; they were left in place (the commit gets the regenerated file)`);
  }
  for (const kept of result.keptStaged) {
    io.stderr(`wiki-steward: ${kept}: the commit gets the regenerated file; the version you staged stays staged for a later commit`);
  }
  return EXIT.ok;
}
