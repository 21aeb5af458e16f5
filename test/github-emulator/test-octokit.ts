// A real octokit for tests that talk to the GitHub emulator: `getOctokit` from @actions/github with
// @octokit/plugin-retry and @octokit/plugin-throttling switched on, as the Action builds it, but
// with the waits cut to (near) zero: the throttling plugin's Bottleneck groups get minTime 0
// (instead of 1 s between writes and 3 s between content-creating writes) and retry-after values
// are read as milliseconds instead of seconds (retryAfterBaseValue: 1), in both plugins.
import { getOctokit } from '@actions/github';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import Bottleneck from 'bottleneck/light.js';

export interface LimitEvent {
  kind: 'rate-limit' | 'secondary-rate-limit';
  retryAfter: number;
  method: string;
  url: string;
  retryCount: number;
}

export interface TestOctokitOptions {
  /** How many times a rate-limited request is retried (default 2). */
  rateLimitRetries?: number;
  /** plugin-retry's retries for 5xx and other retryable errors (default 3). */
  retries?: number;
  /** Collects octokit's log.warn / log.error lines (default: dropped). */
  log?: string[];
}

export type TestOctokit = ReturnType<typeof getOctokit>;

export function createTestOctokit(
  baseUrl: string,
  token = 'ghs_emulator_token',
  opts: TestOctokitOptions = {},
): { octokit: TestOctokit; limits: LimitEvent[] } {
  const limits: LimitEvent[] = [];
  const maxRetries = opts.rateLimitRetries ?? 2;
  const handler =
    (kind: LimitEvent['kind']) =>
    (retryAfter: number, options: { method: string; url: string }, _octokit: unknown, retryCount: number): boolean => {
      limits.push({ kind, retryAfter, method: options.method, url: options.url, retryCount });
      return retryCount < maxRetries;
    };
  const throttle = {
    onRateLimit: handler('rate-limit'),
    onSecondaryRateLimit: handler('secondary-rate-limit'),
    retryAfterBaseValue: 1,
    fallbackSecondaryRateRetryAfter: 1,
    global: new Bottleneck.Group({ minTime: 0, maxConcurrent: 10 }),
    write: new Bottleneck.Group({ minTime: 0, maxConcurrent: 1 }),
    notifications: new Bottleneck.Group({ minTime: 0, maxConcurrent: 1 }),
    search: new Bottleneck.Group({ minTime: 0, maxConcurrent: 1 }),
  };
  const logLine = (level: string) => (message: string) => {
    opts.log?.push(`${level}: ${message}`);
  };
  const octokit = getOctokit(
    token,
    {
      baseUrl,
      throttle,
      // 429 belongs to the throttling plugin, as in the Action (see DESIGN / ecosystem notes §8.3).
      retry: { retryAfterBaseValue: 1, retries: opts.retries ?? 3, doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] },
      log: { debug: () => {}, info: () => {}, warn: logLine('warn'), error: logLine('error') },
    },
    retry,
    throttling,
  );
  return { octokit, limits };
}
