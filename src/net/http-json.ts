// JSON over HTTP for model and search providers: a timeout on every attempt, retries with
// exponential backoff on 429, 5xx and network faults (a server's `retry-after` wins), and a record
// of every call for the trace; every wait and time-out runs on the client's Clock, and a question's
// calls run under one deadline on it (`underDeadline`): none starts once it has passed, the one in
// flight is aborted, and no back-off is slept past it. Secrets travel in headers only, and nothing
// that comes back carries them: every string of a provider's answer and every error is masked
// here, where provider data enters, so no caller can forget — the keys given to `mask`, the values
// of the credential headers each request sends, and credentials written into a base URL
// (`http://user:secret@host`, which are sent as Basic authentication instead, when the request
// carries no other).

import { type Clock, Deadline, firstAborted, systemClock } from './clock.js';

export interface ProviderCall {
  provider: string;
  /** Method and path, never the query string (it may hold a key) nor the host; or the RPC method. */
  request: string;
  /**
   * The HTTP status; for a call that is not HTTP (the Copilot CLI's JSON-RPC), `ok` or `error`;
   * `deadline`: the question's deadline ended it (in flight, or before a retry it would have slept past).
   */
  status: number | 'ok' | 'error' | 'timeout' | 'network-error' | 'deadline';
  retries: number;
  ms: number;
  tokens?: { input: number; output: number };
}

export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    message: string,
    /**
     * `unavailable`: the provider could not be reached or started at all (a missing CLI, no token);
     * `deadline`: the question's deadline passed before it answered (or before it was asked).
     */
    readonly status: number | 'timeout' | 'network-error' | 'malformed' | 'unavailable' | 'deadline',
    readonly retryable: boolean,
  ) {
    super(`${provider}: ${message}`);
    this.name = 'ProviderError';
  }
}

export interface RetryPolicy {
  retries: number;
  /** First backoff; doubles each retry, with jitter. */
  baseDelayMs: number;
  /** Longest wait we accept, from backoff or from `retry-after`. */
  maxDelayMs: number;
  timeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 3, baseDelayMs: 500, maxDelayMs: 30_000, timeoutMs: 60_000 };

/** The test-only switch that shortens every deliberate wait (back-off, `retry-after`, GitHub's write spacing). */
export const TEST_WAIT_SCALE = 'WIKI_STEWARD_TEST_WAIT_SCALE';

/**
 * How much of each deliberate wait to keep, from 0 to 1: `WIKI_STEWARD_TEST_WAIT_SCALE`, 1 when it
 * is unset. It is for test suites against local emulators, and is refused in a workflow run that
 * talks to github.com, where shorter spacing would break GitHub's rules for integrations.
 * Time-outs are never scaled: a test that exercises one drives it with its own clock.
 */
export function testWaitScale(env: NodeJS.ProcessEnv): number {
  const raw = env[TEST_WAIT_SCALE];
  if (raw === undefined || raw.trim() === '') return 1;
  const scale = Number(raw);
  if (!(scale >= 0 && scale <= 1)) throw new Error(`${TEST_WAIT_SCALE} must be a number from 0 to 1, got '${raw}'`);
  if (env.GITHUB_ACTIONS === 'true' && talksToGitHubCom(env.GITHUB_API_URL)) {
    throw new Error(
      `${TEST_WAIT_SCALE} is a switch for test suites against a local GitHub emulator; it is refused in a workflow that talks to github.com. ` +
        "Remove it from the workflow's env.",
    );
  }
  return scale;
}

const talksToGitHubCom = (apiUrl: string | undefined): boolean => {
  if (apiUrl === undefined || apiUrl === '') return true;
  try {
    return new URL(apiUrl).hostname.toLowerCase() === 'api.github.com';
  } catch {
    return false;
  }
};

export interface JsonRequest {
  provider: string;
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: unknown;
  /** Whether a 204 No Content is an answer (with no body), as a lookup that found nothing may give; else it is a malformed reply. */
  noContentAnswers?: boolean;
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: unknown;
  /** The trace record of this call; the caller may add the tokens it cost. */
  call: ProviderCall;
}

/** `retry-after` as seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const retryableStatus = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;

/** The provider's own error message from a JSON error body, whatever its shape. */
function errorDetail(body: unknown, fallback: string): string {
  const b = body as { error?: { message?: string; detail?: string } | string; detail?: { error?: string } | string; message?: string } | undefined;
  const message =
    (typeof b?.error === 'object' ? (b.error.message ?? b.error.detail) : b?.error) ??
    (typeof b?.detail === 'object' ? b.detail.error : b?.detail) ??
    b?.message;
  return typeof message === 'string' && message !== '' ? message.slice(0, 300) : fallback;
}

/** What a secret becomes wherever a provider's answer or error repeats it. */
export const MASK = '[masked]';

/** Headers whose values are credentials: whatever a server echoes of them is masked. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'x-api-key', 'api-key', 'x-subscription-token', 'proxy-authorization']);

/** Credentials written into a URL, decoded and as written; the URL without them. */
export function urlCredentials(url: URL): { secrets: string[]; user: string; password: string; bare: URL } {
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const user = decode(url.username);
  const password = decode(url.password);
  return { secrets: [url.username, url.password, user, password].filter((s) => s !== ''), user, password, bare };
}

export class JsonHttpClient {
  readonly calls: ProviderCall[] = [];
  private readonly secrets = new Set<string>();
  private current: Deadline | undefined;

  constructor(
    private readonly policy: RetryPolicy = DEFAULT_RETRY_POLICY,
    private readonly clock: Clock = systemClock,
  ) {}

  /** The deadline every call through this client is under now (one question's), if any. */
  get deadline(): Deadline | undefined {
    return this.current;
  }

  /**
   * Runs `work` (one question) with every call through this client under one deadline of `ms` on
   * this client's clock, named `what` in the faults it causes: once it passes no call starts, the
   * call in flight is aborted, and no back-off is slept past it. No deadline when none is given.
   */
  async underDeadline<T>(deadline: { ms: number; what: string } | undefined, work: () => Promise<T>): Promise<T> {
    const outer = this.current;
    this.current = deadline === undefined ? outer : new Deadline(this.clock, deadline.ms, deadline.what);
    try {
      return await work();
    } finally {
      this.current = outer;
    }
  }

  /** The fault of a call that is not made because the deadline has passed (nothing is recorded: no call was made). */
  notAsked(provider: string, deadline: Deadline): ProviderError {
    return new ProviderError(provider, `not asked: ${deadline.what} had passed`, 'deadline', false);
  }

  /** Values never to repeat, whatever a server echoes back (keys, tokens): masked in answers and errors. */
  mask(secret: string): void {
    if (secret.length >= 4) this.secrets.add(secret);
  }

  /** Records a provider call made by other means than HTTP (the Copilot CLI), for the trace. */
  record(call: ProviderCall): void {
    this.calls.push({ ...call, request: this.masked(call.request) });
  }

  /** A text with every secret known to this client replaced by `[masked]`. */
  masked(text: string): string {
    let safe = text;
    // Longest first, so a secret that contains another is masked whole.
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) safe = safe.replaceAll(secret, MASK);
    return safe;
  }

  /** A parsed JSON answer with every string in it (keys included) masked. */
  private maskDeep(value: unknown): unknown {
    if (typeof value === 'string') return this.masked(value);
    if (Array.isArray(value)) return value.map((v) => this.maskDeep(v));
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.masked(k), this.maskDeep(v)]));
    return value;
  }

  private error(provider: string, message: string, status: ProviderError['status'], retryable: boolean): ProviderError {
    return new ProviderError(provider, this.masked(message), status, retryable);
  }

  /** The request as sent: credentials out of the URL (into Basic authentication), every credential value masked from now on. */
  private prepare(req: JsonRequest): { url: URL; headers: Record<string, string> } {
    const headers = { ...req.headers };
    let url = req.url;
    if (url.username !== '' || url.password !== '') {
      const credentials = urlCredentials(url);
      for (const secret of credentials.secrets) this.mask(secret);
      url = credentials.bare;
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) {
        headers.authorization = `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`;
      }
    }
    for (const [name, value] of Object.entries(headers)) {
      if (!CREDENTIAL_HEADERS.has(name.toLowerCase())) continue;
      // `Bearer <key>`, `Basic <base64>`: the credential after the scheme; otherwise the whole value.
      this.mask(/^(?:Bearer|Basic|Token)\s+(\S.*)$/i.exec(value)?.[1] ?? value);
    }
    return { url, headers };
  }

  async request(req: JsonRequest): Promise<JsonResponse> {
    // One question's deadline, fixed for the whole call (with its retries).
    const deadline = this.current;
    if (deadline?.passed()) throw this.notAsked(req.provider, deadline);
    const started = this.clock.now();
    const label = `${req.method} ${req.url.pathname}`;
    const { url, headers } = this.prepare(req);
    const record = (status: ProviderCall['status'], retries: number) => {
      const call: ProviderCall = { provider: req.provider, request: label, status, retries, ms: Math.round(this.clock.now() - started) };
      this.calls.push(call);
      return call;
    };
    const attempts = (n: number) => `${n} attempt${n === 1 ? '' : 's'}`;
    /** The call ended by the question's deadline, `attempt` being the last made. */
    const pastDeadline = (attempt: number, fault?: string): ProviderError => {
      record('deadline', attempt);
      const message = fault ? `${fault}; not retried: the wait before the next attempt would end past ${deadline!.what}` : `no answer by ${deadline!.what}`;
      return this.error(req.provider, `${message} (after ${attempts(attempt + 1)})`, 'deadline', false);
    };
    /** The wait before the next attempt; when it would end at or past the deadline, the call ends here instead. */
    const waitToRetry = async (ms: number, attempt: number, fault: string): Promise<void> => {
      if (deadline && ms >= deadline.remaining()) throw pastDeadline(attempt, fault);
      await this.sleep(ms);
    };
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0 && deadline?.passed()) {
        // A wait that overran (a real clock is never exact): the retry is not made.
        throw pastDeadline(attempt - 1);
      }
      let response: Response;
      let text: string;
      const timeout = this.clock.timeout(this.policy.timeoutMs);
      // The attempt ends at its own time-out or at the deadline, whichever comes first.
      const { signal, release } = firstAborted(timeout, deadline?.signal);
      try {
        response = await fetch(url, {
          method: req.method,
          headers: { accept: 'application/json', ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
          ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
          // A redirect is never followed: fetch would resend the key headers and the body (pages of
          // the wiki) to wherever it points.
          redirect: 'manual',
          signal,
        });
        // The body is read under the same timeout: a server that stalls mid-body is a timeout too.
        text = await readCapped(response, MAX_RESPONSE_BYTES);
      } catch (error) {
        if (error instanceof ResponseTooLarge) {
          record('error', attempt);
          throw this.error(req.provider, error.message, 'malformed', false);
        }
        if (deadline?.passed()) throw pastDeadline(attempt);
        // The attempt's own time-out tells a time-out from a network fault, wherever the abort landed.
        const timedOut = (error as Error).name === 'TimeoutError' || (timeout.aborted && (timeout.reason as Error | undefined)?.name === 'TimeoutError');
        if (attempt < this.policy.retries) {
          await waitToRetry(
            this.backoff(attempt),
            attempt,
            timedOut ? `no answer within ${this.policy.timeoutMs} ms` : `network error: ${(error as Error).message}`,
          );
          continue;
        }
        record(timedOut ? 'timeout' : 'network-error', attempt);
        throw this.error(
          req.provider,
          timedOut
            ? `no answer within ${this.policy.timeoutMs} ms (after ${attempts(attempt + 1)})`
            : `network error after ${attempts(attempt + 1)}: ${(error as Error).message}`,
          timedOut ? 'timeout' : 'network-error',
          true,
        );
      } finally {
        release();
      }
      if (response.status >= 300 && response.status < 400) {
        record(response.status, attempt);
        const to = redirectTarget(response.headers.get('location'), url);
        throw this.error(
          req.provider,
          `HTTP ${response.status}: redirected to ${to}; redirects are not followed (the key and the request would go with it): ` +
            "set the provider's base URL to where it answers",
          response.status,
          false,
        );
      }
      let body: unknown;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = undefined;
      }
      if (response.ok) {
        if (response.status === 204 && req.noContentAnswers) return { status: 204, headers: response.headers, body: undefined, call: record(204, attempt) };
        if (body === undefined) {
          if (attempt < this.policy.retries) {
            await waitToRetry(this.backoff(attempt), attempt, `answered ${response.status} with a body that is not JSON`);
            continue;
          }
          record(response.status, attempt);
          throw this.error(req.provider, `answered ${response.status} with a body that is not JSON`, 'malformed', true);
        }
        return { status: response.status, headers: response.headers, body: this.maskDeep(body), call: record(response.status, attempt) };
      }
      const detail = `HTTP ${response.status}: ${errorDetail(body, response.statusText || 'request failed')}`;
      if (retryableStatus(response.status) && attempt < this.policy.retries) {
        const wait = retryAfterMs(response.headers.get('retry-after')) ?? this.backoff(attempt);
        if (wait <= this.policy.maxDelayMs) {
          await waitToRetry(wait, attempt, detail);
          continue;
        }
      }
      record(response.status, attempt);
      throw this.error(req.provider, detail, response.status, retryableStatus(response.status));
    }
  }

  private sleep(ms: number): Promise<void> {
    return this.clock.sleep(ms);
  }

  private backoff(attempt: number): number {
    const exponential = this.policy.baseDelayMs * 2 ** attempt;
    return Math.min(this.policy.maxDelayMs, exponential / 2 + Math.random() * (exponential / 2));
  }
}

/**
 * The most a provider's reply body may hold. The longest real answer (a model's reply of a few
 * thousand tokens, a page of search results) is tens of kilobytes; an endless body is cut here
 * instead of being buffered until the time-out.
 */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

class ResponseTooLarge extends Error {}

/** The body as text, or ResponseTooLarge once it passes `limit` bytes (the rest is not read). */
async function readCapped(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new ResponseTooLarge(`the reply body passed ${limit} bytes and was not read further`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Where a redirect points, as origin and path (never its query, which may carry anything). */
function redirectTarget(location: string | null, from: URL): string {
  if (!location) return 'nowhere (no location)';
  try {
    const to = new URL(location, from);
    return `${to.origin}${to.pathname}`;
  } catch {
    return 'an address that does not parse';
  }
}

/** Joins a base URL and a path, keeping the base's own path (`…/v1` + `chat/completions`). */
export const endpoint = (base: string, path: string): URL => new URL(path, base.endsWith('/') ? base : `${base}/`);
