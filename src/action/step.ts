// One step as the Actions runner starts it: its environment (INPUT_*, GITHUB_*, RUNNER_*), the
// log it writes to, and the runner's file commands for outputs and the job summary. The bundle's
// entry passes the process's own; a test passes an environment object and a buffer, so the Action
// runs in-process exactly as in a runner, with no global state shared between runs.
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { type Clock, systemClock } from '../net/clock.js';
import { type AnnotationProperties, workflowCommand } from '../github/workflow-commands.js';

export interface StepContext {
  env: NodeJS.ProcessEnv;
  /** The step's log: text with its line breaks, as stdout receives it. */
  write: (text: string) => void;
  /** What the step's deliberate waits run on (provider back-off and time-outs). */
  clock?: Clock;
}

export class Step {
  readonly env: NodeJS.ProcessEnv;
  readonly clock: Clock;
  private readonly write: (text: string) => void;
  private failure: string | undefined;

  constructor(context: StepContext) {
    this.env = context.env;
    this.write = context.write;
    this.clock = context.clock ?? systemClock;
  }

  /** An input as the runner passes it: `INPUT_` + the name upper-cased, spaces as `_`; trimmed. */
  input(name: string): string {
    return (this.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
  }

  info(message: string): void {
    this.write(`${message}\n`);
  }

  command(name: 'debug' | 'notice' | 'warning' | 'error' | 'add-mask', message: string, properties?: AnnotationProperties): void {
    this.write(`${workflowCommand(name, message, properties)}\n`);
  }

  /** A step output, through the GITHUB_OUTPUT file command (a heredoc with a delimiter the value cannot hold). */
  setOutput(name: string, value: string): void {
    const file = this.env.GITHUB_OUTPUT;
    // Outside a runner (the bundle started by hand) there is no file: the value is logged instead.
    if (!file) return this.info(`output ${name}: ${value}`);
    const delimiter = `ghadelimiter_${randomUUID()}`;
    appendFileSync(file, `${name}<<${delimiter}\n${value}\n${delimiter}\n`, 'utf8');
  }

  /** Markdown appended to the job summary (GITHUB_STEP_SUMMARY). */
  async appendSummary(markdown: string): Promise<void> {
    const file = this.env.GITHUB_STEP_SUMMARY;
    if (!file) throw new Error('GITHUB_STEP_SUMMARY is not set: the job summary can only be written in a workflow step');
    await appendFile(file, `${markdown}\n`, 'utf8');
  }

  /** The step ends failed, with this reason (an error annotation), whatever else it does after. */
  fail(message: string): void {
    this.failure ??= message;
    this.command('error', message);
  }

  /** The step's exit code: 1 once anything failed it. */
  get exitCode(): number {
    return this.failure === undefined ? 0 : 1;
  }
}
