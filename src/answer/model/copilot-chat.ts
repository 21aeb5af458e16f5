// GitHub Copilot as a chat model, through `@github/copilot-sdk` driving the Copilot CLI over JSON-RPC
// on its stdio. In an organisation-owned repository whose policy allows it, the workflow's token with
// `copilot-requests: write` is enough; elsewhere, a personal access token with Copilot access.
//
// The SDK is imported only when this provider is chosen, so the CLI and the other providers never
// load it (nor the native FFI library it can use, which the stdio connection here never loads).
// Copilot is an agent with tools; here it gets none: no tools are offered, every permission
// request is refused, the session works in an empty folder, and the CLI's environment is an allow
// list (what a program needs to run, and the CLI's own settings), so it holds no key but its own.
// The token reaches the CLI as COPILOT_GITHUB_TOKEN in its environment, the path GitHub documents
// for workflow (installation) tokens as for personal ones, never a stored login. The pages travel
// as data in the prompt, and the reply is held to our JSON schema by the caller (parsing, one
// repair, the cite contract), since the SDK's messages take no schema. What the CLI sends back
// passes a gate first (copilot-wire.ts): whole messages of at most MAX_RESPONSE_BYTES, and a CLI
// that stops fails the call waiting on it at once.
import { accessSync, closeSync, constants, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import type { CopilotClient } from '@github/copilot-sdk';
import { type Clock, firstAborted, raceSignal } from '../../net/clock.js';
import { type JsonHttpClient, ProviderError } from '../../net/http-json.js';
import { type ChatModel, type ChatReply, type ChatRequest, schemaInPrompt } from './chat-model.js';
import { CopilotWire } from './copilot-wire.js';

/** Included in every paid Copilot plan at no premium-request cost (late 2026). */
export const COPILOT_DEFAULT_MODEL = 'gpt-5-mini';
/** The Copilot CLI's executable name on PATH. */
export const COPILOT_CLI = 'copilot';
const INSTALL_HINT = 'Install it (`npm install -g @github/copilot`)';

/** Tokens the CLI is given, in order of preference: a dedicated Copilot token, else the workflow's. */
export const COPILOT_TOKEN_VARIABLES = ['COPILOT_GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_TOKEN'] as const;

/**
 * The environment the CLI gets, by name: what a program needs to run where it is started (and to
 * reach the network through a proxy), and nothing else of ours; then its own token.
 */
const RUN_VARIABLES = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'TERM',
  'HTTPS_PROXY',
  'HTTP_PROXY',
  'NO_PROXY',
  'https_proxy',
  'http_proxy',
  'no_proxy',
  'NODE_EXTRA_CA_CERTS',
  'NODE_USE_ENV_PROXY',
];
/** And on Windows, where a name is the same variable in any case. */
const WINDOWS_VARIABLES = [
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'USERPROFILE',
  'HOMEDRIVE',
  'HOMEPATH',
  'USERNAME',
  'USERDOMAIN',
  'COMPUTERNAME',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
  'ALLUSERSPROFILE',
  'PUBLIC',
  'PROGRAMFILES',
  'PROGRAMFILES(X86)',
  'PROGRAMW6432',
  'COMMONPROGRAMFILES',
  'COMMONPROGRAMFILES(X86)',
  'COMMONPROGRAMW6432',
  'OS',
  'PROCESSOR_ARCHITECTURE',
  'NUMBER_OF_PROCESSORS',
];
/** The locale's categories and the XDG base folders (XDG_CONFIG_HOME, XDG_RUNTIME_DIR, XDG_DATA_DIRS…). */
const RUN_PATTERNS = [/^LC_[A-Z]+$/, /^XDG_[A-Z]+_(HOME|DIRS?)$/];
/** The CLI's own settings (COPILOT_HOME…), but never one that names a secret or widens its permissions (COPILOT_ALLOW_ALL). */
const COPILOT_SETTING = /^COPILOT_[A-Z0-9_]+$/;
const SECRET_WORD = /TOKEN|SECRET|PASSW|CREDENTIAL|COOKIE|AUTH|(^|_)(API_?)?KEY(_|$)|(^|_)PAT(_|$)/i;
const WIDENS_PERMISSIONS = /^COPILOT_ALLOW/i;

/**
 * The Copilot CLI's environment: the variables of `env` it needs to run (RUN_VARIABLES, the locale,
 * XDG folders, its own non-secret COPILOT_* settings) and COPILOT_GITHUB_TOKEN set to `token`.
 * Every other variable stays ours: other providers' keys, tokens, database and webhook URLs,
 * registry credentials, the Action's inputs.
 */
export function copilotEnvironment(env: NodeJS.ProcessEnv, token: string, platform: NodeJS.Platform = process.platform): Record<string, string> {
  const windows = platform === 'win32';
  const named = new Set(windows ? [...RUN_VARIABLES, ...WINDOWS_VARIABLES].map((name) => name.toUpperCase()) : RUN_VARIABLES);
  const passed: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const key = windows ? name.toUpperCase() : name;
    const setting = COPILOT_SETTING.test(key) && !SECRET_WORD.test(key) && !WIDENS_PERMISSIONS.test(key);
    if (named.has(key) || RUN_PATTERNS.some((pattern) => pattern.test(key)) || setting) passed[name] = value;
  }
  passed.COPILOT_GITHUB_TOKEN = token;
  return passed;
}

/**
 * What to do when Copilot refuses: the protocol does not say which of these it was, so the note
 * names both ways GitHub allows (its page "Using Copilot CLI in GitHub Actions with GITHUB_TOKEN",
 * and the Copilot CLI's README for the personal token).
 */
const NOT_AUTHORISED_FIX =
  "The workflow's token (GITHUB_TOKEN) can use Copilot only in an organisation-owned repository whose Copilot policy " +
  '"Allow use of Copilot CLI billed to the organization" is on, and only with `permissions: copilot-requests: write` on the job. ' +
  'Elsewhere, personal repositories included, store a personal access token with Copilot access ' +
  '(a fine-grained token with the Copilot Requests permission) as a secret and pass it as COPILOT_GITHUB_TOKEN; ' +
  'if you already do, that token has no Copilot access.';

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
  /** Where calls are recorded for the trace, and secrets masked; its deadline (one question's) bounds every request. */
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

/**
 * Puts `wire`'s gate on the CLI's stdout the moment the SDK has spawned it, before the SDK's reader
 * is connected to it: the SDK (1.0.14, pinned and bundled) spawns in its private startCLIServer()
 * and reads `cliProcess.stdout` in the next step. An SDK without that step is refused, since its
 * reader would read the CLI unguarded.
 */
function gateOutput(client: CopilotClient, wire: CopilotWire): void {
  const sdk = client as unknown as { startCLIServer?: (...args: unknown[]) => Promise<void> };
  const spawnCli = sdk.startCLIServer;
  if (typeof spawnCli !== 'function') {
    const message = "this @github/copilot-sdk has no startCLIServer step to guard the CLI's output: use the 1.0.14 bundled with wiki-steward";
    throw new ProviderError('copilot', message, 'unavailable', false);
  }
  sdk.startCLIServer = async (...args: unknown[]) => {
    await spawnCli.apply(client, args);
    const child = cliProcessOf(client);
    if (!child) throw new ProviderError('copilot', 'the SDK started no Copilot CLI process to read', 'unavailable', false);
    wire.attach(child);
  };
}

/**
 * What the wire saw (a message past the cap, or cut off), when it did, over whatever the SDK made
 * of the CLI's end that followed.
 */
function wireFirst(error: unknown, wire: CopilotWire | undefined): unknown {
  return wire?.fault && wire.fault.kind !== 'stopped' ? wire.fault : error;
}

/** How long a CLI asked to shut down may take before it is killed. */
const STOP_GRACE_MS = 2000;

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

type Session = Awaited<ReturnType<CopilotClient['createSession']>>;

/** One CLI and what was set up for it, ended together. */
interface LiveCli {
  client: CopilotClient;
  wire: CopilotWire;
  workingDirectory: string;
  unmaskStderr: () => void;
}

export class CopilotChatModel implements ChatModel {
  readonly provider = 'copilot';
  readonly model: string;
  private starting: Promise<LiveCli> | undefined;
  /** The CLI from its construction on, so that one whose start failed or timed out is still ended. */
  private cli: LiveCli | undefined;
  /** The ends under way, in order: a new CLI starts once the last one is ended (its stderr unmasked). */
  private ended: Promise<void> = Promise.resolve();

  constructor(private readonly options: CopilotOptions) {
    this.model = options.model;
  }

  async complete(request: ChatRequest): Promise<ChatReply> {
    // The question's deadline (on the client every call is recorded in): none is started past it.
    const deadline = this.options.calls.deadline;
    if (deadline?.passed()) throw this.options.calls.notAsked(this.provider, deadline);
    const started = this.options.clock.now();
    const errors: SessionError[] = [];
    const usage = { input: 0, output: 0 };
    let session: Session | undefined;
    let cli: LiveCli | undefined;
    try {
      cli = await this.started();
      session = await this.within(
        cli.client.createSession({
          model: this.model,
          systemMessage: { mode: 'replace', content: `${request.system}\n\n${schemaInPrompt(request.schema)}` },
          availableTools: [],
          onPermissionRequest: () => ({ kind: 'reject', feedback: 'No tools are allowed: answer only from the pages in the message.' }),
          streaming: false,
        }),
        'start a session',
        cli.wire,
      );
      session.on('session.error', (event) => {
        errors.push(event.data);
      });
      session.on('assistant.usage', (event) => {
        usage.input += event.data.inputTokens ?? 0;
        usage.output += event.data.outputTokens ?? 0;
      });
      const text = await this.within(this.answer(session, request.user), 'answer', cli.wire);
      if (typeof text !== 'string' || text.trim() === '') throw new ProviderError(this.provider, 'the reply has no message', 'malformed', true);
      this.record(started, 'ok', usage);
      return { text: this.options.calls.masked(text), usage };
    } catch (error) {
      const fault = this.fault(error, errors, cli?.wire ?? this.cli?.wire);
      this.record(started, fault.status === 'timeout' || fault.status === 'deadline' ? fault.status : 'error', usage);
      // A CLI that stopped answering, was cut off mid-answer, or is gone, is not asked again: the next call starts a new one.
      if (fault.status === 'timeout' || fault.status === 'deadline' || fault.status === 'unavailable' || cli?.wire.fault) await this.forceStop();
      throw fault;
    } finally {
      await session?.disconnect().catch(() => undefined);
    }
  }

  /**
   * Sends the prompt and waits for the turn's end, as the SDK's sendAndWait() does but without its
   * own real-time timer (which would outlive a failed call): the only wait is within()'s, on the
   * clock, beside the CLI's end.
   */
  private async answer(session: Session, prompt: string): Promise<string | undefined> {
    let content: string | undefined;
    let settle!: (error?: Error) => void;
    const turn = new Promise<Error | undefined>((resolve) => (settle = resolve));
    const unsubscribe = [
      session.on('assistant.message', (event) => {
        content = event.data.content;
      }),
      session.on('session.idle', (event) => {
        if (event.data.mode !== 'autopilot') settle();
      }),
      session.on('session.error', (event) => settle(new Error(event.data.message))),
    ];
    try {
      await session.send({ prompt });
      const error = await turn;
      if (error) throw error;
      return content;
    } finally {
      for (const off of unsubscribe) off();
    }
  }

  /** Ends the CLI at the end of a run (it would otherwise keep the process alive). */
  close(): Promise<void> {
    return this.end(false);
  }

  private forceStop(): Promise<void> {
    return this.end(true);
  }

  /** Ends the CLI there is (at once when `force`), after any end already under way. */
  private end(force: boolean): Promise<void> {
    const cli = this.cli;
    this.cli = undefined;
    this.starting = undefined;
    this.ended = this.ended.then(() => (cli ? this.shut(cli, force) : undefined)).catch(() => undefined);
    return this.ended;
  }

  /**
   * Asks the CLI to shut down and kills it when it has not within STOP_GRACE_MS (at once when
   * `force`, or when it is gone already); then lets go of its pipes, its stderr mask and its folder.
   * Never rejects.
   */
  private async shut({ client, wire, workingDirectory, unmaskStderr }: LiveCli, force: boolean): Promise<void> {
    try {
      // Taken before stop(), which lets go of it: a CLI that ignores SIGTERM must still be killed.
      const child = cliProcessOf(client);
      const stopped =
        force || wire.fault
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
    } finally {
      // Its pipes closed before its stderr is unmasked: nothing it wrote late can reach ours unmasked,
      // and nothing of it (a pipe a process it left holds open) keeps this process alive.
      wire.close();
      unmaskStderr();
      rmSync(workingDirectory, { recursive: true, force: true });
    }
  }

  private started(): Promise<LiveCli> {
    this.starting ??= this.start();
    return this.starting;
  }

  private async start(): Promise<LiveCli> {
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
    await this.ended;
    const workingDirectory = mkdtempSync(path.join(os.tmpdir(), 'wiki-steward-copilot-'));
    const unmaskStderr = maskStderr((text) => this.options.calls.masked(text));
    const wire = new CopilotWire();
    let client: CopilotClient;
    try {
      client = new CopilotClient({
        connection: RuntimeConnection.forStdio({ path: cliPath }),
        useLoggedInUser: false,
        workingDirectory,
        env: copilotEnvironment(this.options.env, token),
      });
      gateOutput(client, wire);
    } catch (error) {
      unmaskStderr();
      rmSync(workingDirectory, { recursive: true, force: true });
      throw error;
    }
    const cli: LiveCli = { client, wire, workingDirectory, unmaskStderr };
    this.cli = cli;
    // A CLI gone between calls is ended at once (its connection and reader disposed), not asked again.
    wire.gone.catch(() => {
      if (this.cli === cli) void this.forceStop();
    });
    try {
      await this.within(client.start(), 'start', wire);
    } catch (error) {
      await this.forceStop();
      throw wireFirst(error, wire);
    }
    return cli;
  }

  /**
   * The SDK waits for ever on a request the CLI never answers: every request is raced against the
   * time-out on the clock and the question's deadline, and against the CLI's end, which fails it at once.
   */
  private async within<T>(work: Promise<T>, what: 'start' | 'start a session' | 'answer', wire: CopilotWire): Promise<T> {
    const { timeoutMs } = this.options;
    const deadline = this.options.calls.deadline;
    const message = what === 'answer' ? `no answer from Copilot within ${timeoutMs} ms` : `the Copilot CLI did not ${what} within ${timeoutMs} ms`;
    const { signal, release } = firstAborted(this.options.clock.timeout(timeoutMs), deadline?.signal);
    try {
      return await raceSignal(Promise.race([work, wire.gone]), signal, () =>
        deadline?.signal.aborted
          ? new ProviderError(
              this.provider,
              what === 'answer' ? `no answer from Copilot by ${deadline.what}` : `the Copilot CLI did not ${what} by ${deadline.what}`,
              'deadline',
              false,
            )
          : new ProviderError(this.provider, message, 'timeout', true),
      );
    } finally {
      release();
    }
  }

  /** What went wrong, said so a person can fix it: the SDK's protocol and the wire tell these cases apart. */
  private fault(error: unknown, sessionErrors: readonly SessionError[], wire: CopilotWire | undefined): ProviderError {
    const says = (message: string, status: ProviderError['status'], retryable = false) =>
      new ProviderError(this.provider, this.options.calls.masked(message), status, retryable);
    const ours = (known: ProviderError) => says(known.message.replace(/^copilot: /, ''), known.status, known.retryable);
    if (error instanceof ProviderError && (error.status === 'timeout' || error.status === 'deadline')) return ours(error);
    const reported = sessionErrors.at(-1);
    if (reported) {
      const detail = `${reported.errorType}${reported.errorCode ? ` ${reported.errorCode}` : ''}: ${reported.message}`;
      if (reported.errorType === 'authentication' || reported.errorType === 'authorization') {
        return says(`Copilot did not authorise this request (${detail}). ${NOT_AUTHORISED_FIX}`, reported.statusCode ?? 403);
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
    error = wireFirst(error, wire);
    if (error instanceof ProviderError) return ours(error);
    const message = firstLine(error);
    if (/protocol version mismatch/i.test(message))
      return says(`this Copilot CLI does not speak the protocol of @github/copilot-sdk: update the CLI (${message})`, 'unavailable');
    if (/not found at|ENOENT|EACCES/.test(message))
      return says(`the Copilot CLI could not be started (${message}). ${INSTALL_HINT} or fix copilot-cli-path.`, 'unavailable');
    if (/exited|connection|stream|disposed|EPIPE/i.test(message)) return says(`the Copilot CLI stopped (${message})`, 'unavailable', true);
    return says(`the Copilot CLI failed (${message})`, 'unavailable');
  }

  private record(started: number, status: 'ok' | 'error' | 'timeout' | 'deadline', tokens: { input: number; output: number }): void {
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
