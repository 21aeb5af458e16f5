// Runs the CLI in-process with captured output, the way a shell would see it.
import { main } from '../../src/cli/program.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[], cwd: string, options: { columns?: number } = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    cwd,
    ...options,
    stdout: (t) => (stdout += t.endsWith('\n') ? t : `${t}\n`),
    stderr: (t) => (stderr += t.endsWith('\n') ? t : `${t}\n`),
  });
  return { code, stdout, stderr };
}
