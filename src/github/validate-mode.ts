// Validate mode: the checked-out wiki against the upstream rules, faults as annotations on the
// exact file and line, the full list in the job summary, and a failed check on errors.
import * as core from '@actions/core';
import path from 'node:path';
import { openWorkspace, requireWikiRoot } from '../config/workspace.js';
import { emitAnnotations } from '../report/diagnostics-format.js';
import { hasErrors } from '../wiki/diagnostics.js';
import { openWikiLayout } from '../wiki/open.js';
import { validateWiki } from '../wiki/validator.js';

export async function validateCheckout(workspaceDir: string, wikiPath: string | undefined): Promise<void> {
  const workspace = await openWorkspace({ cwd: workspaceDir, wikiFlag: wikiPath });
  const wikiRoot = requireWikiRoot(workspace);
  const layout = await openWikiLayout(wikiRoot, workspace.config);
  const { diagnostics, checked } = await validateWiki(layout);
  await emitAnnotations(diagnostics, { wikiRoot, repoRoot: workspace.repoRoot, cwd: workspaceDir });
  const errors = diagnostics.filter((d) => d.severity === 'error');
  await core.summary
    .addHeading('wiki-steward: validate', 2)
    .addRaw(`${checked.length} pages checked in \`${path.relative(workspace.repoRoot, wikiRoot) || '.'}\`: ${errors.length} errors, ${diagnostics.length - errors.length} warnings.`, true)
    .addTable([
      [{ data: 'File', header: true }, { data: 'Line', header: true }, { data: 'Fault', header: true }],
      ...diagnostics.map((d) => [d.path, String(d.line), d.message]),
    ])
    .write();
  if (hasErrors(diagnostics)) core.setFailed(`${errors.length} wiki errors in ${new Set(errors.map((d) => d.path)).size} pages`);
}
