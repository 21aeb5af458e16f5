// Scripts for the stand-in Copilot CLI (copilot-stand-in.js), written to a temp folder one per run:
// the environment that points a run at one, a reader for what the stand-in logged, and waits for
// what it does (a message logged, its process gone), so a test can expire its clock at the moment
// the scenario is in place instead of guessing how long that takes. Every stand-in a script
// started is killed at the end, whatever it was told to ignore.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const COPILOT_STAND_IN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'copilot-stand-in.js');

/** One line of the stand-in's log: its launch (argv, pid, token, environment, cwd) or a message it received. */
export interface StandInLogLine {
  launch?: string[];
  pid?: number;
  token?: string | null;
  envNames?: string[];
  /** The whole environment it was started with. */
  env?: Record<string, string>;
  cwd?: string;
  method?: string;
  params?: Record<string, unknown> | null;
  signal?: string;
}

export interface StandInScript {
  /** COPILOT_STAND_IN and COPILOT_STAND_IN_LOG for the run. */
  env: { COPILOT_STAND_IN: string; COPILOT_STAND_IN_LOG: string };
  log(): Promise<StandInLogLine[]>;
  /** Resolves with the first line the stand-in logged that `matches` (a message received, its launch), once it has. */
  whenLogged(matches: (line: StandInLogLine) => boolean): Promise<StandInLogLine>;
  /** Resolves once the stand-in this script launched has started and its process is gone (exited, or killed and reaped). */
  whenGone(): Promise<void>;
}

/** Whether a process with this pid is running (a zombie not yet reaped counts as running). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolves once `check` returns a value: for what another process does, which sends no event this
 * process can wait on. It looks every 10 ms and never gives up (the test's time limit is the net):
 * no outcome depends on how soon it sees the change.
 */
export async function until<T>(check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export class CopilotScenarios {
  private dir: string | undefined;
  private count = 0;
  private readonly logs: string[] = [];

  /** The script's files, written. */
  async write(scenario: object): Promise<StandInScript> {
    this.dir ??= await mkdtemp(path.join(os.tmpdir(), 'ws-copilot-'));
    this.count++;
    const scenarioFile = path.join(this.dir, `scenario-${this.count}.json`);
    const logFile = path.join(this.dir, `log-${this.count}.jsonl`);
    await writeFile(scenarioFile, JSON.stringify(scenario));
    await writeFile(logFile, '');
    this.logs.push(logFile);
    const whenLogged = (matches: (line: StandInLogLine) => boolean) => until(async () => (await readLog(logFile)).find(matches));
    return {
      env: { COPILOT_STAND_IN: scenarioFile, COPILOT_STAND_IN_LOG: logFile },
      log: () => readLog(logFile),
      whenLogged,
      whenGone: async () => {
        const { pid } = await whenLogged((line) => line.pid !== undefined);
        await until(() => (isAlive(pid!) ? undefined : true));
      },
    };
  }

  /** Kills any stand-in still running and removes the files. */
  async cleanup(): Promise<void> {
    for (const logFile of this.logs) {
      for (const { pid } of await readLog(logFile).catch(() => [])) {
        if (pid === undefined) continue;
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }
}

/** The lines logged so far: whole lines only (a line still being written has no line break yet). */
async function readLog(file: string): Promise<StandInLogLine[]> {
  return (await readFile(file, 'utf8'))
    .split('\n')
    .slice(0, -1)
    .filter(Boolean)
    .map((line) => JSON.parse(line) as StandInLogLine);
}
