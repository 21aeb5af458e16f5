// The Action's reporter: the step's log, secrets masked, annotations on files and lines (the
// GitHub adapter formats them), the job summary (posted text: mentions and markers neutralised,
// each summary at most 65,536 characters), and a failed step.
import { annotationLines } from '../github/annotations.js';
import { postableBody } from '../github/posted-text.js';
import type { Reporter } from '../jobs/reporter.js';
import type { Step } from './step.js';

export function actionsReporter(step: Step): Reporter {
  return {
    info: (message) => step.info(message),
    notice: (message) => step.command('notice', message),
    warning: (message) => step.command('warning', message),
    secret: (value) => step.command('add-mask', value),
    // Each summary within GitHub's body limit too: a step's summaries share GitHub's 1 MiB.
    summary: (markdown) => step.appendSummary(postableBody(markdown)),
    annotate: async (diagnostics, paths) => {
      for (const line of annotationLines(diagnostics, paths)) step.info(line);
    },
    fail: (message) => step.fail(message),
  };
}
