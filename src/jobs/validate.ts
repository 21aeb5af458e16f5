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
import { explainRemovals, pagesBrokenByRemovals, removedSince } from '../wiki/removed-targets.js';
import { validateSummary } from '../report/diagnostics-format.js';
import type { Reporter } from './reporter.js';

/** Pages of the wiki changed since `base`, so a wiki with old faults can adopt the check gradually. */
export async function changedPages(workspace: Workspace, base: string, pages: readonly string[]): Promise<string[]> {
  const changed = await new GitCommandManager(workspace.repoRoot).changedSince(base);
  const inWiki = new Set(changed.map((p) => wikiPathOf(workspace, p)).filter((p): p is string => p !== undefined));
  return pages.filter((p) => inWiki.has(p));
}

export interface ChangeValidation extends WikiValidation {
  /** The pages changed since the base (those validated in full). */
  changed: string[];
  /** Pages the change did not touch that link to or cite a file it deletes or moves away. */
  brokenByRemovals: string[];
}

/**
 * What a change since `base` (a pull request's base) can break: its changed pages in full, and the
 * pages elsewhere that link to or cite a file it deletes or moves away, as the pre-commit hook
 * checks them. Throws when `base` is not in the checkout.
 */
export async function validateChangedSince(workspace: Workspace, layout: WikiLayout, base: string): Promise<ChangeValidation> {
  const git = new GitCommandManager(workspace.repoRoot);
  const changed = await changedPages(workspace, base, layout.pages);
  const removed = await removedSince(git, workspace, layout.tree, base);
  const { diagnostics, checked } = await validateWiki(layout, changed, workspace.config.validate);
  const broken = await pagesBrokenByRemovals(git, workspace, layout, removed, new Set(checked), 'this pull request');
  return {
    changed,
    checked,
    diagnostics: [...explainRemovals(diagnostics, removed, 'this pull request'), ...broken],
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
  let change: ChangeValidation | undefined;
  if (options.changedSince) {
    try {
      change = await validateChangedSince(workspace, layout, options.changedSince);
    } catch {
      reporter.notice(
        `the pull request's base ${options.changedSince.slice(0, 12)} is not in the checkout ` +
          '(use actions/checkout with fetch-depth: 0): validating the whole wiki',
      );
    }
  }
  const only = change?.changed;
  const { diagnostics, checked } = change ?? (await validateWiki(layout, undefined, workspace.config.validate));
  const plans = await planIndexFiles(layout, {
    policy: workspace.config.indexes,
    provenance: workspaceIndexProvenance(workspace),
    ...(only ? { onlyDirs: affectedIndexDirs(only) } : {}),
  });
  const all = applyRules([...diagnostics, ...staleIndexDiagnostics(plans, options.indexFilesHandled)], workspace.config.validate);
  await reporter.annotate(all, { wikiRoot, repoRoot: workspace.repoRoot, cwd: options.cwd });
  const errors = all.filter((d) => d.severity === 'error');
  const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const alsoBroken = change?.brokenByRemovals.length ? `, and ${count(change.brokenByRemovals.length, 'page')} linking to what it deletes or moves` : '';
  const scope = `${count(checked.length, only ? 'changed page' : 'page')} checked${alsoBroken}`;
  await reporter.summary(validateSummary({ scope, folder: workspace.wikiPrefix || '.', errors: errors.length, diagnostics: all }));
  if (hasErrors(all)) reporter.fail(`${errors.length} wiki errors in ${new Set(errors.map((d) => d.path)).size} files`);
}
