// The GitHub client: @actions/github's octokit with the retry and throttling plugins. Writes are
// spaced and rate limits honoured as GitHub asks; the test-only `WIKI_STEWARD_TEST_WAIT_SCALE`
// shrinks every wait for test suites against a local emulator, with the plugins still on (and is
// refused in a workflow that talks to github.com).
import { getOctokit } from '@actions/github';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import Bottleneck from 'bottleneck';
import { testWaitScale } from '../net/http-json.js';

export type GitHubClient = ReturnType<typeof getOctokit>;

/** Retries allowed after a primary or secondary rate limit, and the longest wait we accept. */
const RATE_LIMIT_RETRIES = 2;
const MAX_RATE_LIMIT_WAIT_S = 60;

/** Where the client tells of rate limits, and registers the token as a secret (in a workflow). */
export interface GitHubClientLog {
  warning(message: string): void;
  secret(value: string): void;
}

export function createGitHubClient(token: string, env: NodeJS.ProcessEnv, log: GitHubClientLog): GitHubClient {
  // Masked in a workflow's log wherever it would appear; outside a workflow the mask command would
  // itself print the token.
  if (env.GITHUB_ACTIONS === 'true') log.secret(token);
  const scale = testWaitScale(env);
  const group = (id: string, maxConcurrent: number, minTime: number) => new Bottleneck.Group({ id, maxConcurrent, minTime: Math.round(minTime * scale) });
  const onLimit = (kind: string) => (retryAfter: number, options: { method?: string; url?: string }, _octokit: unknown, retryCount: number) => {
    const retrying = retryCount < RATE_LIMIT_RETRIES && retryAfter <= MAX_RATE_LIMIT_WAIT_S;
    log.warning(`GitHub ${kind} rate limit on ${options.method} ${options.url}: ${retrying ? `retrying after ${retryAfter} s` : 'giving up'}`);
    return retrying;
  };
  return getOctokit(
    token,
    {
      ...(env.GITHUB_API_URL ? { baseUrl: env.GITHUB_API_URL } : {}),
      // The plugin's groups (write 1 s apart, notifications 3 s) are options it reads but does not type.
      throttle: {
        onRateLimit: onLimit('primary'),
        onSecondaryRateLimit: onLimit('secondary'),
        retryAfterBaseValue: 1000 * scale,
        global: group('wiki-steward-global', 10, 0),
        write: group('wiki-steward-write', 1, 1000),
        notifications: group('wiki-steward-notifications', 1, 3000),
        search: group('wiki-steward-search', 1, 2000),
      } as NonNullable<Parameters<typeof getOctokit>[1]>['throttle'],
      // 429 belongs to the throttling plugin; the retry plugin takes 5xx and network faults.
      retry: { doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451], retryAfterBaseValue: 1000 * scale },
    },
    retry,
    throttling,
  );
}

/** A repository, as every call names it. */
export interface RepoRef {
  owner: string;
  repo: string;
}
