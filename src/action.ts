// The GitHub Action entry: a thin shell over the same core as the CLI.
import * as core from '@actions/core';
import { runAction } from './action/run-action.js';

runAction().catch((error: unknown) => core.setFailed(error instanceof Error ? error.message : String(error)));
