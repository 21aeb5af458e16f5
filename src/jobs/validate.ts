// Validation as a job, for the Action and `wiki-steward validate`: the pages a change touched (or
// all), and stale or missing index files reported like faults. The Action annotates the exact
// file and line (GitHub shows only the first 10 error annotations of a step, so the summary lists
// them too, its first 300: report/diagnostics-format.ts) and fails the check on errors; on a pull
// request only the pages it changes are checked, so a wiki with old faults can adopt the check
// without fixing everything.
import { type Workspace, requireWikiRoot, wikiPathOf } from '../config/workspace.js';
import { GitCommandManager } from '../git/git-command-manager.js';
import { type Diagnostic, hasErrors } from '../wiki/diagnostics.js';
import { type IndexFilePlans, affectedIndexDirs, outdatedIndexFiles, planIndexFiles } from '../wiki/index-files.js';
import { workspaceIndexProvenance } from '../wiki/index-provenance.js';
import { openWikiLayout } from '../wiki/open.js';
import { applyRules } from '../wiki/rules.js';
import { type WikiValidation, validateWiki } from '../wiki/validator.js';
import type { WikiLayout } from '../wiki/layout.js';
import { type RemovedTargets, explainRemovals, pagesBrokenByRemovals, removedSince } from '../wiki/removed-targets.js';
import { validateSummary } from '../report/diagnostics-format.js';
import type { Reporter } from './reporter.js';

/** Pages of the wiki changed since `base`, so a wiki with old faults can adopt the check gradually. */
export async function changedPages(workspace: Workspace, base: string, pages: readonly string[]): Promise<string[]> {
  const changed = await new GitCommandManager(workspace.repoRoot).changedSince(base);
  const inWiki = new Set(changed.map((p) => wikiPathOf(workspace, p)).filter((p): p is string => p !== undefined));
  return pages.filter((p) => inWiki.has(p));
}

/** What the commits since a pull request's base do to the wiki. */
export interface WikiChange {
  /** The pages they add or change (those validated in full). */
  changed: string[];
  /** The files and folders they delete or move away. */
  removed: RemovedTargets;
}

/** The wiki's change since `base`; throws when `base` is not in the checkout (a shallow clone). */
export async function changeSince(workspace: Workspace, layout: WikiLayout, base: string): Promise<WikiChange> {
  const git = new GitCommandManager(workspace.repoRoot);
  return { changed: await changedPages(workspace, base, layout.pages), removed: await removedSince(git, workspace, layout.tree, base) };
}

export interface ChangeValidation extends WikiValidation {
  /** Pages the change did not touch that link to or cite a file it deletes or moves away. */
  brokenByRemovals: string[];
}

/**
 * What a change can break: its changed pages in full, and the pages elsewhere that link to or cite
 * a file it deletes or moves away, as the pre-commit hook checks them.
 */
export async function validateChange(workspace: Workspace, layout: WikiLayout, change: WikiChange): Promise<ChangeValidation> {
  const { diagnostics, checked } = await validateWiki(layout, change.changed, workspace.config.validate);
  const git = new GitCommandManager(workspace.repoRoot);
  const broken = await pagesBrokenByRemovals(git, workspace, layout, change.removed, new Set(checked), 'this pull request');
  return {
    checked,
    diagnostics: [...explainRemovals(diagnostics, change.removed, 'this pull request'), ...broken],
    brokenByRemovals: [...new Set(broken.map((d) => d.path))],
  };
}

/** Stale or missing index files (the rule of `outdatedIndexFiles`), as error diagnostics. */
export const staleIndexDiagnostics = (plans: IndexFilePlans, handled: ReadonlySet<string> = new Set()): Diagnostic[] =>
  outdatedIndexFiles(plans)
    .filter((p) => !handled.has(p.path))
    .map((p) => ({
      severity: 'error',
      rule: 'stale-index',
      code: 'stale-index',
      path: p.path,
      line: 1,
      message: `index file is ${p.status === 'missing' ? 'missing' : 'stale'}: run 'wiki-steward index' and commit the result`,
    }));

/**
 * The Action's validation of its checkout. `indexFilesHandled`: index files (wiki-relative) a
 * maintain run has just refreshed on the branch, which this checkout, taken before that commit,
 * still shows stale.
 */
export async function validateCheckout(
  workspace: Workspace,
  reporter: Reporter,
  options: { cwd: string; changedSince?: string | undefined; indexFilesHandled?: ReadonlySet<string> },
): Promise<void> {
  const wikiRoot = requireWikiRoot(workspace);
  const layout = await openWikiLayout(wikiRoot, workspace.config);
  let change: WikiChange | undefined;
  if (options.changedSince) {
    try {
      change = await changeSince(workspace, layout, options.changedSince);
    } catch {
      reporter.notice(
        `the pull request's base ${options.changedSince.slice(0, 12)} is not in the checkout ` +
          '(use actions/checkout with fetch-depth: 0): validating the whole wiki',
      );
    }
  }
  const only = change?.changed;
  const validation: ChangeValidation = change
    ? await validateChange(workspace, layout, change)
    : { ...(await validateWiki(layout, undefined, workspace.config.validate)), brokenByRemovals: [] };
  const { diagnostics, checked } = validation;
  const plans = await planIndexFiles(layout, {
    policy: workspace.config.indexes,
    provenance: workspaceIndexProvenance(workspace),
    ...(only ? { onlyDirs: affectedIndexDirs(only) } : {}),
  });
  const all = applyRules([...diagnostics, ...staleIndexDiagnostics(plans, options.indexFilesHandled)], workspace.config.validate);
  await reporter.annotate(all, { wikiRoot, repoRoot: workspace.repoRoot, cwd: options.cwd });
  const errors = all.filter((d) => d.severity === 'error');
  const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const alsoBroken = validation.brokenByRemovals.length ? `, and ${count(validation.brokenByRemovals.length, 'page')} linking to what it deletes or moves` : '';
  const scope = `${count(checked.length, only ? 'changed page' : 'page')} checked${alsoBroken}`;
  await reporter.summary(validateSummary({ scope, folder: workspace.wikiPrefix || '.', errors: errors.length, diagnostics: all }));
  if (hasErrors(all)) reporter.fail(`${errors.length} wiki errors in ${new Set(errors.map((d) => d.path)).size} files`);
}
