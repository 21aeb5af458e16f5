// Fault injection: FaultList and its types (502s, secondary and primary rate limits, delays,
// dropped connections on matching requests), and the two race hooks: another client's work just
// before a request (`race`) and an answer held back until the test says (`hold`). Separate: the
// server consults it before anything else, and again before it sends an answer.
import { randomUUID } from 'node:crypto';
import { DOCS } from './helpers.js';

export interface FaultMatch {
  /** HTTP method (case-insensitive) or a regex over it. Omitted: any. */
  method?: string | RegExp;
  /** Regex over (or exact string equal to) the request pathname, without the query. Omitted: any. */
  path?: RegExp | string;
  /** Route template, e.g. '/repos/{owner}/{repo}/issues/{issue_number}/comments'. */
  route?: string;
  /** Extra predicate over the parsed JSON request body. */
  body?: (body: unknown) => boolean;
  /** Query parameters the request must carry, each with exactly this value (others may be there too). */
  query?: Record<string, string>;
  /**
   * For POST /graphql: a root field the operation selects, by name (a string, or a regex over the
   * name), e.g. 'markDiscussionCommentAsAnswer' or 'repository'. A request selecting several root
   * fields matches when any of them does.
   */
  graphql?: string | RegExp;
  /** For POST /graphql: the operation's kind. */
  operation?: 'query' | 'mutation';
}

/** What a match is tested against: the request as the server parsed it. */
export interface MatchedRequest {
  method: string;
  path: string;
  route: string | null;
  body: unknown;
  query?: Record<string, string>;
  /** For POST /graphql: the operation and the root fields it selects (by name and response key). */
  graphql?: { operation: 'query' | 'mutation' | 'subscription'; fields: Array<{ name: string; key: string }> };
}

export interface Fault {
  match?: FaultMatch;
  /** How many matching requests fail (default 1). Use Infinity for a permanent failure. */
  times?: number;
  /** Let this many matching requests through before failing (default 0). */
  skip?: number;
  /** Response status (ignored when `reset` is true). */
  status?: number;
  /** Extra response headers; they override the emulator's defaults (x-ratelimit-*, content-type). */
  headers?: Record<string, string | number>;
  /**
   * Response body: an object (sent as JSON) or a string (sent as is), or a function of the matched
   * request that returns one. Default: a GitHub-style error.
   */
  body?: unknown;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Drop the connection instead of answering. */
  reset?: boolean;
}

/** Another client's work, run just before a matching request is handled (a race, made deterministic). */
export interface Interleaving {
  match?: FaultMatch;
  /** How many matching requests it runs before (default 1). */
  times?: number;
  /** Let this many matching requests through first (default 0). */
  skip?: number;
  /** The other client's work: state changes, or a whole other run of the Action (awaited). */
  run: () => unknown;
}

/**
 * An answer held back: the matching request is handled as usual (its state change made, its answer
 * computed from the state as it is then) and the answer is sent only once `until` has settled.
 * Two clients that both read before either writes, made deterministic: hold the first one's read
 * until the second one has written. `until` may return at once, to observe that a request was
 * handled (the state holds its change) before its client sees the answer.
 */
export interface HeldAnswer {
  match?: FaultMatch;
  /** How many matching requests it holds (default 1). */
  times?: number;
  /** Let this many matching requests through first (default 0). */
  skip?: number;
  /** Awaited before the answer goes out; it gets the request and the status it is about to get. */
  until: (handled: MatchedRequest & { status: number }) => unknown;
}

export interface ActiveFault extends Fault {
  /** How many requests this fault has answered so far. */
  hits: number;
  /** How many matching requests it let through (counts down `skip`). */
  passed: number;
}

const SECONDARY_RATE_LIMIT_MESSAGE =
  'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID ';

export class FaultList {
  private readonly list: ActiveFault[] = [];
  private readonly interleavings: Array<Interleaving & { hits: number; passed: number }> = [];
  private readonly holds: Array<HeldAnswer & { hits: number; passed: number }> = [];

  constructor(private readonly clock: () => Date) {}

  /** Adds faults; each answers up to `times` matching requests (default 1), in the order added. */
  push(...faults: Fault[]): number {
    for (const f of faults) this.list.push({ ...f, hits: 0, passed: 0 });
    return this.list.length;
  }

  /** Faults that can still fire. */
  get pending(): ActiveFault[] {
    return this.list.filter((f) => f.hits < (f.times ?? 1));
  }

  /** Every fault added, with its hit counts. */
  get all(): readonly ActiveFault[] {
    return this.list;
  }

  clear(): void {
    this.list.length = 0;
    this.interleavings.length = 0;
    this.holds.length = 0;
  }

  /**
   * Runs `run` (awaited) just before the next matching request is handled, as if another client's
   * requests had landed in between: e.g. a twin run that creates the ref this request is about to
   * create. The request then proceeds against the changed state (faults, auth and routing as usual).
   */
  race(interleaving: Interleaving): void {
    this.interleavings.push({ ...interleaving, hits: 0, passed: 0 });
  }

  /** Runs the interleavings that match this request (the server calls it first). */
  async interleave(req: MatchedRequest): Promise<void> {
    for (const i of this.interleavings) {
      if (i.hits >= (i.times ?? 1) || !matches(i.match, req)) continue;
      if (i.passed < (i.skip ?? 0)) {
        i.passed++;
        continue;
      }
      i.hits++;
      await i.run();
    }
  }

  /**
   * Holds the answer to the next matching request until `until` settles (see HeldAnswer): the
   * request has been handled, so its client waits with an answer that the state may since have
   * outgrown — e.g. a list that says "no comment yet" while another run creates one.
   */
  hold(held: HeldAnswer): void {
    this.holds.push({ ...held, hits: 0, passed: 0 });
  }

  /** Awaits the holds that match this handled request (the server calls it just before it answers). */
  async release(handled: MatchedRequest & { status: number }): Promise<void> {
    for (const h of this.holds) {
      if (h.hits >= (h.times ?? 1) || !matches(h.match, handled)) continue;
      if (h.passed < (h.skip ?? 0)) {
        h.passed++;
        continue;
      }
      h.hits++;
      await h.until(handled);
    }
  }

  /** 403 (or 429) "You have exceeded a secondary rate limit…" with `retry-after` (seconds; null: no header). */
  secondaryRateLimit(opts: { match?: FaultMatch; times?: number; retryAfter?: number | null; status?: 403 | 429 } = {}): void {
    const status = opts.status ?? 403;
    const retryAfter = opts.retryAfter === undefined ? 1 : opts.retryAfter;
    this.push({
      ...(opts.match ? { match: opts.match } : {}),
      times: opts.times ?? 1,
      status,
      headers: retryAfter === null ? {} : { 'retry-after': String(retryAfter) },
      body: {
        message: `${SECONDARY_RATE_LIMIT_MESSAGE}${randomUUID().toUpperCase().slice(0, 23)}.`,
        documentation_url: 'https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
        status: String(status),
      },
    });
  }

  /** 403 (or 429) "API rate limit exceeded" with x-ratelimit-remaining: 0 and a reset `resetInSeconds` from now. */
  primaryRateLimit(opts: { match?: FaultMatch; times?: number; resetInSeconds?: number; status?: 403 | 429; limit?: number } = {}): void {
    const status = opts.status ?? 403;
    const limit = opts.limit ?? 5000;
    const reset = Math.floor(this.clock().getTime() / 1000) + (opts.resetInSeconds ?? 1);
    this.push({
      ...(opts.match ? { match: opts.match } : {}),
      times: opts.times ?? 1,
      status,
      headers: {
        'x-ratelimit-limit': String(limit),
        'x-ratelimit-remaining': '0',
        'x-ratelimit-used': String(limit),
        'x-ratelimit-reset': String(reset),
        'x-ratelimit-resource': 'core',
      },
      body: {
        message: 'API rate limit exceeded for installation ID 1.',
        documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-rate-limits',
        status: String(status),
      },
    });
  }

  /** A 5xx (default 502) with GitHub's bare error body. `times: Infinity` for a permanent failure. */
  serverError(opts: { match?: FaultMatch; times?: number; status?: number } = {}): void {
    const status = opts.status ?? 502;
    this.push({
      ...(opts.match ? { match: opts.match } : {}),
      times: opts.times ?? 1,
      status,
      body: { message: status === 502 ? 'Server Error' : 'Service Unavailable', documentation_url: DOCS, status: String(status) },
    });
  }

  /**
   * A GraphQL error answer (HTTP 200, as GitHub answers errors in GraphQL) to the next request that
   * selects the root field `field` (a mutation such as 'markDiscussionCommentAsAnswer', or a query
   * field): `{"data": {<key>: null, …}, "errors": [{type?, message, path: [<key>]}]}`, with every root
   * field of the request null under its response key. The state is not changed. Default message:
   * GitHub's "Something went wrong while executing your query…".
   */
  graphqlError(opts: { field: string | RegExp; message?: string; type?: string; times?: number; skip?: number }): void {
    const message =
      opts.message ??
      `Something went wrong while executing your query. Please include \`${randomUUID().toUpperCase().slice(0, 18)}\` when reporting this issue.`;
    this.push({
      match: { method: 'POST', route: '/graphql', graphql: opts.field },
      times: opts.times ?? 1,
      ...(opts.skip !== undefined ? { skip: opts.skip } : {}),
      status: 200,
      body: (req: MatchedRequest) => {
        const fields = req.graphql?.fields ?? [];
        const hit = fields.find((f) => nameMatches(opts.field, f.name));
        return {
          data: Object.fromEntries(fields.map((f) => [f.key, null])),
          errors: [{ ...(opts.type ? { type: opts.type } : {}), message, ...(hit ? { path: [hit.key] } : {}) }],
        };
      },
    });
  }

  /** Finds the fault that answers this request, counting the hit. */
  take(req: MatchedRequest): ActiveFault | undefined {
    for (const f of this.list) {
      if (f.hits >= (f.times ?? 1)) continue;
      if (!matches(f.match, req)) continue;
      if (f.passed < (f.skip ?? 0)) {
        f.passed++;
        continue;
      }
      f.hits++;
      return f;
    }
    return undefined;
  }
}

function matches(m: FaultMatch | undefined, req: MatchedRequest): boolean {
  if (!m) return true;
  if (m.method !== undefined) {
    if (typeof m.method === 'string' ? m.method.toUpperCase() !== req.method : !m.method.test(req.method)) return false;
  }
  if (m.path !== undefined) {
    if (typeof m.path === 'string' ? m.path !== req.path : !m.path.test(req.path)) return false;
  }
  if (m.route !== undefined && m.route !== req.route) return false;
  if (m.body && !m.body(req.body)) return false;
  if (m.query && !Object.entries(m.query).every(([k, v]) => req.query?.[k] === v)) return false;
  if (m.graphql !== undefined && !req.graphql?.fields.some((f) => nameMatches(m.graphql as string | RegExp, f.name))) return false;
  if (m.operation !== undefined && req.graphql?.operation !== m.operation) return false;
  return true;
}

function nameMatches(pattern: string | RegExp, name: string): boolean {
  return typeof pattern === 'string' ? pattern === name : pattern.test(name);
}
