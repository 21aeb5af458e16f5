// Workflow annotations: one per diagnostic, on its repository-relative file and line, written by the
// Actions toolkit (which escapes the fields). Used by the Action and by `validate --format github`.
import * as core from '@actions/core';
import { type DiagnosticPaths, displayPath } from '../report/diagnostics-format.js';
import type { Diagnostic } from '../wiki/diagnostics.js';

export async function emitAnnotations(diagnostics: readonly Diagnostic[], paths: DiagnosticPaths): Promise<void> {
  for (const d of diagnostics) {
    const properties = { file: displayPath(d, paths.repoRoot, paths), startLine: d.line, title: `wiki-steward ${d.rule}` };
    if (d.severity === 'error') core.error(d.message, properties);
    else core.warning(d.message, properties);
  }
}
