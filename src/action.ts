// The GitHub Action entry: a thin shell over the same core as the CLI, given the process's own
// environment and stdout as the runner starts it.
import { runAction } from './action/run-action.js';

process.exitCode = await runAction({ env: process.env, write: (text) => process.stdout.write(text) });
