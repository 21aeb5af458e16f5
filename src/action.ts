// The GitHub Action entry: a thin shell over the same core as the CLI. Today it validates the
// checked-out wiki and annotates faults; the answering modes build on this entry.
import * as core from '@actions/core';
import path from 'node:path';
import { openWorkspace, requireWikiRoot } from './config/workspace.js';
import { emitAnnotations } from './report/diagnostics-format.js';
import { hasErrors } from './wiki/diagnostics.js';
import { openWikiLayout } from './wiki/open.js';
import { validateWiki } from './wiki/validator.js';

async function run(): Promise<void> {
  const workspaceDir = process.env.GITHUB_WORKSPACE;
  if (!workspaceDir) throw new Error('GITHUB_WORKSPACE is not set: run this action in a workflow, after actions/checkout');
  const wikiPath = core.getInput('wiki-path');
  const workspace = await openWorkspace({ cwd: workspaceDir, wikiFlag: wikiPath || undefined });
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

run().catch((error: unknown) => core.setFailed(error instanceof Error ? error.message : String(error)));
