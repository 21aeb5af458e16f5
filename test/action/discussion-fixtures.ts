// What the discussion tests share: a question asked in a discussion, its capture pull request, and
// the page a reviewer writes from the capture.
import type { GitHubEmulator } from '../github-emulator/emulator.js';
import { expectExit, type RunResult } from './harness.js';

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
