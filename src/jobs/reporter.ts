// What a job tells the person running it, whichever shell runs it: the Action sends it to the
// workflow log, annotations and the job summary (action/actions-reporter.ts); the CLI prints it.
import type { Diagnostic } from '../wiki/diagnostics.js';
import type { DiagnosticPaths } from '../report/diagnostics-format.js';

export interface Reporter {
  info(message: string): void;
  /** Something a maintainer should see, though nothing failed. */
  notice(message: string): void;
  warning(message: string): void;
  /** A value (a key, a token) to mask wherever the run's output would show it. */
  secret(value: string): void;
  /** Markdown for the run's summary page. */
  summary(markdown: string): Promise<void>;
  /** Diagnostics on the files and lines they name. */
  annotate(diagnostics: readonly Diagnostic[], paths: DiagnosticPaths): Promise<void>;
  /** The run ends failed, with this reason, after the job finishes. */
  fail(message: string): void;
}
