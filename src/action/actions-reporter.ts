// The Action's reporter: the workflow log, secrets masked, annotations on files and lines (the
// GitHub adapter writes them), the job summary (posted text: mentions and markers neutralised),
// and a failed step.
import * as core from '@actions/core';
import { emitAnnotations } from '../github/annotations.js';
import { postable } from '../github/posted-text.js';
import type { Reporter } from '../jobs/reporter.js';

export const actionsReporter: Reporter = {
  info: (message) => core.info(message),
  notice: (message) => core.notice(message),
  warning: (message) => core.warning(message),
  secret: (value) => core.setSecret(value),
  summary: async (markdown) => {
    await core.summary.addRaw(postable(markdown), true).write();
  },
  annotate: emitAnnotations,
  fail: (message) => core.setFailed(message),
};
