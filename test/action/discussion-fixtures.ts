// What the discussion tests share: the questions they ask, the hooks and repository each test runs
// against, the GraphQL mutations the runs sent, a question asked in a discussion, its capture pull
// request, and the page a reviewer writes from the capture.
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { GitHubEmulator } from '../github-emulator/emulator.js';
import type { RecordedRequest } from '../github-emulator/server.js';
import { type RunResult, type Workspace, closeChecked, expectExit, makeWorkspace, removeTempDirs, runStep, seededRepo } from './harness.js';

/** A question the seeded wiki answers. */
export const COVERED = 'How do I install the pre-commit hook?';
/** A question it has nothing on: answered cold, and captured. */
export const COLD = 'How do I bake sourdough bread?';
/** The login the Action posts as. */
export const STEWARD = 'github-actions[bot]';

export interface SeededRepo {
  gh: GitHubEmulator;
  ws: Workspace;
}

/**
 * Registers a discussion test file's hooks: one template workspace for the file, a repository seeded
 * from it for each test (handed to `seeded`, which keeps it and grants the file's permissions),
 * the emulator closed and its answers checked after each test, the temporary folders removed at
 * the end. `current` reads the file's repository, as a test may have seeded another in its place.
 * Returns the template and what the tests ask through the current repository: `run` (an event
 * through `runStep`), `ask` (a discussion question) and `comments` (all of a discussion's).
 */
export function discussionRepo({ seeded, current }: { seeded: (repo: SeededRepo) => void; current: () => SeededRepo }) {
  let template: Workspace;
  beforeAll(async () => {
    template = await makeWorkspace();
  });
  beforeEach(async () => {
    seeded(await seededRepo(template));
  });
  afterEach(() => closeChecked(current().gh));
  afterAll(removeTempDirs);
  return {
    template: () => template,
    run: (eventName: string, payload: unknown, inputs?: Record<string, string>, workspace = current().ws) =>
      runStep({ githubEnv: current().gh.env(), workspace, eventName, payload, ...(inputs ? { inputs } : {}) }),
    ask: (title: string, opts?: DiscussionQuestion) => discussionQuestion(current().gh, title, opts),
    comments: (n: number) => current().gh.state.allDiscussionComments(n),
  };
}

/** The GraphQL query text a request sent ('' when none). */
export const graphqlQuery = (q: RecordedRequest): string => String((q.body as { query?: string } | undefined)?.query ?? '');

/** The GraphQL requests sent since the `since`-th request. */
export const graphqlRequests = (gh: GitHubEmulator, since = 0): RecordedRequest[] => gh.requests.slice(since).filter((q) => q.route === '/graphql');

/** The mutations sent since the `since`-th request, by the field each calls first: `addDiscussionComment`, … */
export const discussionMutations = (gh: GitHubEmulator, since = 0) =>
  graphqlRequests(gh, since)
    .filter((q) => /^\s*mutation/.test(graphqlQuery(q)))
    .map((q) => graphqlQuery(q).match(/\{\s*(\w+)/)?.[1]);

export interface DiscussionQuestion {
  category?: string;
  labels?: string[];
  user?: string;
  body?: string;
}

/** A discussion asked as issues are: in the Q&A category, labelled `question`, by alice unless told otherwise. */
export function discussionQuestion(gh: GitHubEmulator, title: string, opts: DiscussionQuestion = {}) {
  return gh.state.addDiscussion({
    title,
    body: opts.body ?? '',
    user: opts.user ?? 'alice',
    category: opts.category ?? 'Q&A',
    labels: opts.labels ?? ['question'],
  });
}

/** What the reviewer writes: the answer, and the `captured_by` line deleted (the `capture` tag stays). */
export const reviewedPage = (text: string): string =>
  text
    .replace(/^captured_by: .*\n/m, '')
    .replace(/\n---\n[\s\S]*$/, '\n---\nBake sourdough bread at 250 °C for 20 minutes with steam, then 20 minutes without.\n');

/** A cold discussion question answered, and its capture pull request: the page's path and text on the branch. */
export async function capturedDiscussion(
  gh: GitHubEmulator,
  run: (eventName: string, payload: unknown) => Promise<RunResult>,
  title: string,
  opts: DiscussionQuestion = {},
) {
  const d = discussionQuestion(gh, title, opts);
  expectExit(await run('discussion', gh.events.discussion('created', d.number)), 0);
  const pull = gh.state.pulls.find((p) => p.head === `wiki-steward/capture/${d.number}`)!;
  const file = decodeURIComponent(/page=([^ ]+)/.exec(pull.body ?? '')![1]!);
  return { d, pull, file, text: gh.state.fileAt(pull.head, file)! };
}
