// Workflow annotations: one per diagnostic, on its repository-relative file and line. Used by the
// Action and by `validate --format github`; each shell writes the lines to its own log. What is
// about the run rather than a page (validate's summary, the findings a cap left out) is a notice.
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

/** A notice on the run's page, on no file: a message about the whole validation. */
export const noticeLine = (message: string): string => workflowCommand('notice', message, { title: 'wiki-steward validate' });
