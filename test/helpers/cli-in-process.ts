// Runs the CLI in-process with captured output, the way a shell would see it: the environment is
// an object of the test's own (the process's when omitted), so no test changes process.env.
import { main } from '../../src/cli/program.js';
import { type Clock, systemClock } from '../../src/net/clock.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface InProcessOptions {
  columns?: number;
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
  /** The CLI script a hook installed by this run calls (see CliIo.cliScript). */
  cliScript?: string;
}

export async function runCli(args: string[], cwd: string, options: InProcessOptions = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    cwd,
    ...(options.columns !== undefined ? { columns: options.columns } : {}),
    env: options.env ?? process.env,
    clock: options.clock ?? systemClock,
    ...(options.cliScript !== undefined ? { cliScript: options.cliScript } : {}),
    stdout: (t) => (stdout += t.endsWith('\n') ? t : `${t}\n`),
    stderr: (t) => (stderr += t.endsWith('\n') ? t : `${t}\n`),
  });
  return { code, stdout, stderr };
}
