// GitHub Copilot as a chat model, through `@github/copilot-sdk` driving the Copilot CLI over JSON-RPC
// on its stdio. A workflow needs no key of its own: the workflow's token with `copilot-requests:
// write`, or a fine-grained token with the Copilot Requests permission, is enough.
//
// The SDK is imported only when this provider is chosen, so the CLI and the other providers never
// load it (nor the native FFI library it can use, which the stdio connection here never loads).
// Copilot is an agent with tools; here it gets none: no tools are offered, every permission
// request is refused, the session works in an empty folder, and the CLI's environment carries no
// other key. The token reaches the CLI as COPILOT_GITHUB_TOKEN in its environment, the path GitHub
// documents for workflow (installation) tokens as for personal ones, never a stored login. The
// pages travel as data in the prompt, and the reply is held to our JSON schema by the caller
// (parsing, one repair, the cite contract), since the SDK's messages take no schema.
import { accessSync, closeSync, constants, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import type { CopilotClient } from '@github/copilot-sdk';
import { type Clock, raceSignal } from '../../net/clock.js';
import { type JsonHttpClient, ProviderError } from '../../net/http-json.js';
import { type ChatModel, type ChatReply, type ChatRequest, schemaInPrompt } from './chat-model.js';

/** Included in every paid Copilot plan at no premium-request cost (late 2026). */
export const COPILOT_DEFAULT_MODEL = 'gpt-5-mini';
/** The Copilot CLI's executable name on PATH. */
export const COPILOT_CLI = 'copilot';
const INSTALL_HINT = 'Install it (`npm install -g @github/copilot`)';

/** Tokens the CLI is given, in order of preference: a dedicated Copilot token, else the workflow's. */
export const COPILOT_TOKEN_VARIABLES = ['COPILOT_GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_TOKEN'] as const;

/** Environment variables never passed to the Copilot CLI: other providers' keys and every token but its own. */
const SECRET_VARIABLE = /TOKEN|SECRET|PASSWORD|_KEY$|^INPUT_/i;

const NOT_AUTHORISED_CAUSES =
  "Possible causes: the workflow's `permissions:` lack `copilot-requests: write`; " +
  'the organisation\'s policy "Copilot CLI billed to the organization" is off; ' +
  "the token's account has no Copilot seat; " +
  'or COPILOT_GITHUB_TOKEN is not a fine-grained token with the Copilot Requests permission.';

/** Data of the session's `session.error` event (the SDK's ErrorData), as far as this model reads it. */
interface SessionError {
  errorType: string;
  message: string;
  statusCode?: number;
  errorCode?: string;
}

export interface CopilotOptions {
  model: string;
  /** The CLI's path: given, or found on PATH (undefined: not installed). */
  cliPath: string | undefined;
  token: string | undefined;
  /** Longest wait for one reply, and for the CLI to answer a request at all. */
  timeoutMs: number;
  /** Where calls are recorded for the trace, and secrets masked. */
  calls: JsonHttpClient;
  env: NodeJS.ProcessEnv;
  /** What every wait here runs on: the reply's time-out and the CLI's grace to stop. */
  clock: Clock;
}

/** The first executable named `name` on PATH, as `which` finds it. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    // The SDK runs a `.js` path with node itself; anything else is executed, a script by the
    // interpreter its `#!` line names, which must be there too (a spawn that fails that way after
    // the SDK's own check leaves it writing to a dead pipe, an unhandled rejection that ends the run).
    if (file.endsWith('.js')) return true;
    accessSync(file, constants.X_OK);
    const interpreter = /^#!\s*(\S+)/.exec(firstBytes(file, 256))?.[1];
    return interpreter === undefined || isExecutable(interpreter);
  } catch {
    return false;
  }
}

function firstBytes(file: string, count: number): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(count);
    return buffer.toString('latin1', 0, readSync(fd, buffer, 0, count, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * The CLI's process, which the SDK (1.0.14, pinned) keeps in a private field and gives no accessor
 * for; undefined if a later SDK keeps it elsewhere (then stop() and forceStop() alone end it).
 */
function cliProcessOf(client: CopilotClient): ChildProcess | undefined {
  const child = (client as unknown as { cliProcess?: unknown }).cliProcess;
  return child instanceof EventEmitter && typeof (child as ChildProcess).kill === 'function' ? (child as ChildProcess) : undefined;
}

/** How long a CLI asked to shut down may take before it is killed. */
const STOP_GRACE_MS = 2000;

/** How far past our own time-out (on the clock) the SDK's real-time one is set, as a backstop. */
const SDK_TIMEOUT_MARGIN_MS = 2000;

/**
 * The SDK echoes the CLI's standard error to ours: while a CLI runs, what reaches our stderr is
 * masked like every provider text. Returns the undo.
 */
function maskStderr(masked: (text: string) => string): () => void {
  const write = process.stderr.write;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) =>
    (write as (...args: unknown[]) => boolean).call(process.stderr, typeof chunk === 'string' ? masked(chunk) : chunk, ...rest)) as typeof process.stderr.write;
  return () => {
    process.stderr.write = write;
  };
}

export class CopilotChatModel implements ChatModel {
  readonly provider = 'copilot';
  readonly model: string;
  private starting: Promise<CopilotClient> | undefined;
  /** The client from its construction on, so that one whose start failed or timed out is still ended. */
  private live: CopilotClient | undefined;
  private unmaskStderr: (() => void) | undefined;
  private workingDirectory: string | undefined;

  constructor(private readonly options: CopilotOptions) {
    this.model = options.model;
  }

  async complete(request: ChatRequest): Promise<ChatReply> {
    const started = this.options.clock.now();
    const errors: SessionError[] = [];
    const usage = { input: 0, output: 0 };
    let session: Awaited<ReturnType<CopilotClient['createSession']>> | undefined;
    try {
      const client = await this.started();
      session = await this.within(
        client.createSession({
          model: this.model,
          systemMessage: { mode: 'replace', content: `${request.system}\n\n${schemaInPrompt(request.schema)}` },
          availableTools: [],
          onPermissionRequest: () => ({ kind: 'reject', feedback: 'No tools are allowed: answer only from the pages in the message.' }),
          streaming: false,
        }),
        'start a session',
      );
      session.on('session.error', (event) => {
        errors.push(event.data);
      });
      session.on('assistant.usage', (event) => {
        usage.input += event.data.inputTokens ?? 0;
        usage.output += event.data.outputTokens ?? 0;
      });
      // The SDK's own time-out is a real timer: it is set past ours, which runs on the clock.
      const reply = await this.within(session.sendAndWait({ prompt: request.user }, this.options.timeoutMs + SDK_TIMEOUT_MARGIN_MS), 'answer');
      const text = reply?.data.content;
      if (typeof text !== 'string' || text.trim() === '') throw new ProviderError(this.provider, 'the reply has no message', 'malformed', true);
      this.record(started, 'ok', usage);
      return { text: this.options.calls.masked(text), usage };
    } catch (error) {
      const fault = this.fault(error, errors);
      this.record(started, fault.status === 'timeout' ? 'timeout' : 'error', usage);
      // A CLI that stopped answering is not asked again: the next call starts a new one.
      if (fault.status === 'timeout' || fault.status === 'unavailable') await this.forceStop();
      throw fault;
    } finally {
      await session?.disconnect().catch(() => undefined);
    }
  }

  /** Ends the CLI at the end of a run (it would otherwise keep the process alive). */
  close(): Promise<void> {
    return this.end(false);
  }

  private forceStop(): Promise<void> {
    return this.end(true);
  }

  /** Asks the CLI to shut down and kills it when it has not within STOP_GRACE_MS (at once when `force`). */
  private async end(force: boolean): Promise<void> {
    const client = this.live;
    this.live = undefined;
    this.starting = undefined;
    if (client) {
      // Taken before stop(), which lets go of it: a CLI that ignores SIGTERM must still be killed.
      const child = cliProcessOf(client);
      const stopped = force
        ? false
        : await raceSignal(
            client.stop().then(
              (errors) => errors.length === 0,
              () => false,
            ),
            this.options.clock.timeout(STOP_GRACE_MS),
            () => new Error('the Copilot CLI did not stop in time'),
          ).catch(() => false);
      if (!stopped) {
        await client.forceStop().catch(() => undefined);
        if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    }
    this.unmaskStderr?.();
    this.unmaskStderr = undefined;
    if (this.workingDirectory) rmSync(this.workingDirectory, { recursive: true, force: true });
    this.workingDirectory = undefined;
  }

  private started(): Promise<CopilotClient> {
    this.starting ??= this.start();
    return this.starting;
  }

  private async start(): Promise<CopilotClient> {
    const { cliPath, token } = this.options;
    if (!cliPath) {
      throw new ProviderError(
        this.provider,
        `the Copilot CLI is not installed: no \`${COPILOT_CLI}\` on PATH. ` +
          'Install it in a step before this one (`npm install -g @github/copilot`), or set copilot-cli-path (config answerer.copilot_cli_path).',
        'unavailable',
        false,
      );
    }
    if (!isExecutable(cliPath)) {
      throw new ProviderError(
        this.provider,
        `the Copilot CLI at ${cliPath} does not exist or is not executable. ${INSTALL_HINT} or fix copilot-cli-path.`,
        'unavailable',
        false,
      );
    }
    if (!token)
      throw new ProviderError(
        this.provider,
        `no token for Copilot: set COPILOT_GITHUB_TOKEN, or give the workflow's token (GITHUB_TOKEN) \`permissions: copilot-requests: write\`.`,
        'unavailable',
        false,
      );
    const { CopilotClient, RuntimeConnection } = await import('@github/copilot-sdk');
    this.workingDirectory = mkdtempSync(path.join(os.tmpdir(), 'wiki-steward-copilot-'));
    const env = { ...Object.fromEntries(Object.entries(this.options.env).filter(([name]) => !SECRET_VARIABLE.test(name))), COPILOT_GITHUB_TOKEN: token };
    this.unmaskStderr = maskStderr((text) => this.options.calls.masked(text));
    const client = new CopilotClient({
      connection: RuntimeConnection.forStdio({ path: cliPath }),
      useLoggedInUser: false,
      workingDirectory: this.workingDirectory,
      env,
    });
    this.live = client;
    try {
      await this.within(client.start(), 'start');
    } catch (error) {
      await this.forceStop();
      throw error;
    }
    return client;
  }

  /**
   * The SDK waits for ever on a request the CLI never answers (a CLI that died before replying):
   * every request is raced against the time-out on the clock.
   */
  private within<T>(work: Promise<T>, what: 'start' | 'start a session' | 'answer'): Promise<T> {
    const { timeoutMs } = this.options;
    const message =
      what === 'answer'
        ? `no answer from Copilot within ${timeoutMs} ms (the Copilot CLI may have stopped mid-answer)`
        : `the Copilot CLI did not ${what} within ${timeoutMs} ms`;
    return raceSignal(work, this.options.clock.timeout(timeoutMs), () => new ProviderError(this.provider, message, 'timeout', true));
  }

  /** What went wrong, said so a person can fix it: the SDK's protocol tells these cases apart. */
  private fault(error: unknown, sessionErrors: readonly SessionError[]): ProviderError {
    const says = (message: string, status: ProviderError['status'], retryable = false) =>
      new ProviderError(this.provider, this.options.calls.masked(message), status, retryable);
    if (error instanceof ProviderError) return says(error.message.replace(/^copilot: /, ''), error.status, error.retryable);
    const reported = sessionErrors.at(-1);
    if (reported) {
      const detail = `${reported.errorType}${reported.errorCode ? ` ${reported.errorCode}` : ''}: ${reported.message}`;
      if (reported.errorType === 'authentication' || reported.errorType === 'authorization') {
        return says(`Copilot did not authorise this request (${detail}). ${NOT_AUTHORISED_CAUSES}`, reported.statusCode ?? 403);
      }
      if (reported.errorType === 'rate_limit' || reported.errorType === 'quota') {
        return says(
          `Copilot's ${reported.errorType === 'quota' ? 'quota' : 'rate limit'} was reached (${detail}). ` +
            'Try again later; an organisation can raise its Copilot request budget.',
          reported.statusCode ?? 429,
          true,
        );
      }
      return says(`Copilot reported an error (${detail}).`, reported.statusCode ?? 'unavailable');
    }
    const message = firstLine(error);
    if (/^Timeout after \d+ms waiting for session\.idle/.test(message))
      return says(`no answer from Copilot within ${this.options.timeoutMs} ms (the Copilot CLI may have stopped mid-answer)`, 'timeout', true);
    if (/protocol version mismatch/i.test(message))
      return says(`this Copilot CLI does not speak the protocol of @github/copilot-sdk: update the CLI (${message})`, 'unavailable');
    if (/not found at|ENOENT|EACCES/.test(message))
      return says(`the Copilot CLI could not be started (${message}). ${INSTALL_HINT} or fix copilot-cli-path.`, 'unavailable');
    if (/exited|connection|stream|disposed|EPIPE/i.test(message)) return says(`the Copilot CLI stopped (${message})`, 'unavailable', true);
    return says(`the Copilot CLI failed (${message})`, 'unavailable');
  }

  private record(started: number, status: 'ok' | 'error' | 'timeout', tokens: { input: number; output: number }): void {
    this.options.calls.record({
      provider: this.provider,
      request: 'session.send',
      status,
      retries: 0,
      ms: Math.round(this.options.clock.now() - started),
      tokens: { ...tokens },
    });
  }
}

/** The first line of an error's message: the SDK appends the CLI's whole stderr to some. */
const firstLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);
