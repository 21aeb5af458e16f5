// Workflow annotations: one per diagnostic, on its repository-relative file and line. Used by the
// Action and by `validate --format github`; each shell writes the lines to its own log.
import { type DiagnosticPaths, displayPath } from '../report/diagnostics-format.js';
import type { Diagnostic } from '../wiki/diagnostics.js';
import { workflowCommand } from './workflow-commands.js';

export function annotationLines(diagnostics: readonly Diagnostic[], paths: DiagnosticPaths): string[] {
  return diagnostics.map((d) =>
    workflowCommand(d.severity === 'error' ? 'error' : 'warning', d.message, {
      title: `wiki-steward ${d.rule}`,
      file: displayPath(d, paths.repoRoot, paths),
      line: d.line,
    }),
  );
}
