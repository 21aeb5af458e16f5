// Validate mode: the checked-out wiki against the upstream rules, faults as annotations on the
// exact file and line (GitHub shows only the first 10 error annotations of a step, so the job
// summary carries the full list), stale index files reported the same way, and a failed check on
// errors. On a pull request only the pages it changes are checked, so a wiki with old faults can
// adopt the check without fixing everything first.
import * as core from '@actions/core';
import path from 'node:path';
import { changedPages } from '../cli/validate-command.js';
import { type Workspace, requireWikiRoot } from '../config/workspace.js';
import { emitAnnotations } from '../report/diagnostics-format.js';
import { type Diagnostic, hasErrors } from '../wiki/diagnostics.js';
import { affectedIndexDirs, outdatedIndexFiles, planIndexFiles } from '../wiki/index-files.js';
import { openWikiLayout } from '../wiki/open.js';
import { validateWiki } from '../wiki/validator.js';

/**
 * `indexFilesHandled`: index files (wiki-relative) a maintain run has just refreshed on the branch,
 * which this checkout, taken before that commit, still shows stale.
 */
export async function validateCheckout(workspace: Workspace, workspaceDir: string, changedSince?: string, indexFilesHandled: ReadonlySet<string> = new Set()): Promise<void> {
  const wikiRoot = requireWikiRoot(workspace);
  const layout = await openWikiLayout(wikiRoot, workspace.config);
  let only: string[] | undefined;
  if (changedSince) {
    try {
      only = await changedPages(workspace.repoRoot, wikiRoot, changedSince, layout.pages);
    } catch {
      core.notice(`the pull request's base ${changedSince.slice(0, 12)} is not in the checkout (use actions/checkout with fetch-depth: 0): validating the whole wiki`);
    }
  }
  const { diagnostics, checked } = await validateWiki(layout, only);
  const plans = await planIndexFiles(layout, { policy: workspace.config.indexes, ...(only ? { onlyDirs: affectedIndexDirs(only) } : {}) });
  const stale: Diagnostic[] = outdatedIndexFiles(plans)
    .filter((p) => !indexFilesHandled.has(p.path))
    .map((p) => ({ severity: 'error', code: 'stale-index', path: p.path, line: 1, message: `index file is ${p.status === 'missing' ? 'missing' : 'stale'}: run 'wiki-steward index' and commit the result` }));
  const all = [...diagnostics, ...stale];
  await emitAnnotations(all, { wikiRoot, repoRoot: workspace.repoRoot, cwd: workspaceDir });
  const errors = all.filter((d) => d.severity === 'error');
  const scope = only ? `${checked.length} changed pages checked` : `${checked.length} pages checked`;
  await core.summary
    .addHeading('wiki-steward: validate', 2)
    .addRaw(`${scope} in \`${path.relative(workspace.repoRoot, wikiRoot) || '.'}\`: ${errors.length} errors, ${all.length - errors.length} warnings.`, true)
    .addTable([
      [{ data: 'File', header: true }, { data: 'Line', header: true }, { data: 'Fault', header: true }],
      ...all.map((d) => [d.path, String(d.line), d.message]),
    ])
    .write();
  if (hasErrors(all)) core.setFailed(`${errors.length} wiki errors in ${new Set(errors.map((d) => d.path)).size} files`);
}
