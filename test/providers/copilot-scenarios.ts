// Scripts for the stand-in Copilot CLI (copilot-stand-in.js), written to a temp folder one per run:
// the environment that points a run at one, and a reader for what the stand-in logged. Every
// stand-in a script started is killed at the end, whatever it was told to ignore.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const COPILOT_STAND_IN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'copilot-stand-in.js');

/** One line of the stand-in's log: its launch (argv, pid, token, environment names, cwd) or a message it received. */
export interface StandInLogLine {
  launch?: string[];
  pid?: number;
  token?: string | null;
  envNames?: string[];
  cwd?: string;
  method?: string;
  params?: Record<string, unknown> | null;
  signal?: string;
}

export interface StandInScript {
  /** COPILOT_STAND_IN and COPILOT_STAND_IN_LOG for the run. */
  env: { COPILOT_STAND_IN: string; COPILOT_STAND_IN_LOG: string };
  log(): Promise<StandInLogLine[]>;
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
    return { env: { COPILOT_STAND_IN: scenarioFile, COPILOT_STAND_IN_LOG: logFile }, log: () => readLog(logFile) };
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

async function readLog(file: string): Promise<StandInLogLine[]> {
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as StandInLogLine);
}
