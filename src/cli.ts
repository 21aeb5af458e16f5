#!/usr/bin/env node
// The `wiki-steward` executable: a thin shell over the core.
import { main } from './cli/program.js';

// A reader that stops early (`wiki-steward ask … | head -1`) closes the pipe: the output is no
// longer wanted, which is not a failure to report with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await main(process.argv.slice(2));
