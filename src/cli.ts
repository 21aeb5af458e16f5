#!/usr/bin/env node
// The `wiki-steward` executable: a thin shell over the core.
import { main } from './cli/program.js';

process.exitCode = await main(process.argv.slice(2));
