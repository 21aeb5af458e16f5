// The GitHub Action entry: a thin shell over the same core as the CLI, given the process's own
// environment and stdout as the runner starts it. When the step's work is done the process ends,
// with the step's code, once its output is flushed (action/exit.ts).
import { endProcess } from './action/exit.js';
import { runAction } from './action/run-action.js';

await endProcess(await runAction({ env: process.env, write: (text) => process.stdout.write(text) }));
