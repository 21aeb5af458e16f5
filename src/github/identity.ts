// Who the steward is: the account of the token it runs with, plus the logins configured in
// `ask.steward_logins` (Action input `steward-logins`). GraphQL `query { viewer { login } }`
// answers for the workflow's GITHUB_TOKEN (as `github-actions[bot]`), for GitHub App installation
// tokens (as the App's bot) and for personal tokens alike; REST `GET /user` refuses the first two.
// The steward edits, and the digest reads, only comments written by one of these accounts, and it
// never answers a question one of them asked.
import { type Clock, scaledSleeps, systemClock } from '../net/clock.js';
import { DEFAULT_RETRY_POLICY, JsonHttpClient, testWaitScale } from '../net/http-json.js';
import type { GitHubClient } from './octokit.js';

export class StewardIdentity {
  private readonly logins: ReadonlySet<string>;

  constructor(
    /** The token's account, when GitHub said (undefined: only the configured logins are known). */
    readonly viewer: string | undefined,
    readonly configured: readonly string[] = [],
  ) {
    this.logins = new Set([viewer, ...configured].filter((l): l is string => !!l).map((l) => l.toLowerCase()));
  }

  /** Whether this account (a comment's or an issue's author, an asker) is the steward. */
  owns(user: { login?: string | null } | null | undefined): boolean {
    return !!user?.login && this.logins.has(user.login.toLowerCase());
  }

  /** The steward's logins, for log lines. */
  describe(): string {
    return [...this.logins].join(', ') || 'nobody';
  }
}

/** The query every kind of token can answer: which account it belongs to. */
export const VIEWER_QUERY = 'query { viewer { login } }';

/**
 * The steward's identity for this run. When GitHub cannot say who the token is, the configured
 * logins alone are the identity if there are any; without them the run cannot tell its own
 * comments from anyone else's and stops with the reason.
 */
export async function stewardIdentity(
  github: GitHubClient,
  configured: readonly string[],
  viewerLogin: () => Promise<string> = () => viewerThroughOctokit(github),
): Promise<{ identity: StewardIdentity; problem?: string }> {
  try {
    return { identity: new StewardIdentity(await viewerLogin(), configured) };
  } catch (error) {
    const problem = `could not ask GitHub which account the token belongs to (GraphQL ${VIEWER_QUERY}): ${(error as Error).message}`;
    if (configured.length === 0) throw new Error(`${problem}; set steward-logins (config ask.steward_logins) to the steward's account`);
    return { identity: new StewardIdentity(undefined, configured), problem: `${problem}; using steward-logins (${configured.join(', ')}) only` };
  }
}

const viewerThroughOctokit = async (github: GitHubClient): Promise<string> => (await github.graphql<{ viewer: { login: string } }>(VIEWER_QUERY)).viewer.login;

/** GitHub's GraphQL endpoint for a REST base URL (GitHub Enterprise Server: REST at /api/v3, GraphQL at /api/graphql). */
const graphqlUrl = (restBase: string): URL => new URL(`${restBase.replace(/\/+$/, '').replace(/\/api\/v3$/, '/api')}/graphql`);

/**
 * The viewer query sent beside octokit, with retries: it is a read, but octokit's throttling
 * counts every GraphQL request as a write and would hold the answer's first write back a second.
 */
export function viewerLoginOf(restBase: string, token: string, env: NodeJS.ProcessEnv, clock: Clock = systemClock): () => Promise<string> {
  const http = new JsonHttpClient(DEFAULT_RETRY_POLICY, scaledSleeps(clock, testWaitScale(env)));
  http.mask(token);
  return async () => {
    const { status, body } = await http.request({
      provider: 'github',
      method: 'POST',
      url: graphqlUrl(restBase),
      headers: { authorization: `bearer ${token}`, accept: 'application/json', 'user-agent': 'wiki-steward' },
      body: { query: VIEWER_QUERY },
    });
    const answer = body as { data?: { viewer?: { login?: string } } | null; errors?: Array<{ message?: string }> } | null;
    const login = answer?.data?.viewer?.login;
    if (!login) throw new Error(`HTTP ${status}: ${answer?.errors?.map((e) => e.message).join('; ') || 'no viewer in the answer'}`);
    return login;
  };
}

/** The identity, asked for once and only when a job needs it. */
export function identitySource(
  github: GitHubClient,
  configured: readonly string[],
  onProblem: (problem: string) => void = () => {},
  viewerLogin?: () => Promise<string>,
): () => Promise<StewardIdentity> {
  let asked: Promise<StewardIdentity> | undefined;
  return () =>
    (asked ??= stewardIdentity(github, configured, viewerLogin).then(({ identity, problem }) => {
      if (problem) onProblem(problem);
      return identity;
    }));
}
