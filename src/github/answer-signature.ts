// The last visible line of every answer comment: who answered, from which wiki commit, in which
// workflow run, and the one invitation to react with 👍 or 👎 (the digest counts those reactions on
// the answer comment). A reader can check the answer against exactly what the steward read.
import type { Trace } from '../answer/trace.js';
import type { RepoRef } from './octokit.js';

/**
 * The run that is writing, as the Actions environment names it
 * (`$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID`, the attempt when it is a
 * re-run); undefined outside a workflow run.
 */
export function workflowRunUrl(env: NodeJS.ProcessEnv, serverUrl: string, repo: RepoRef): string | undefined {
  if (!env.GITHUB_RUN_ID) return undefined;
  const attempt = Number(env.GITHUB_RUN_ATTEMPT ?? '1');
  return `${serverUrl}/${repo.owner}/${repo.repo}/actions/runs/${env.GITHUB_RUN_ID}${attempt > 1 ? `/attempts/${attempt}` : ''}`;
}

/** How every signature line begins (an answer's last visible line is found by it). */
export const SIGNATURE_START = '<sub>Answered by wiki-steward';

export function answerSignature(
  trace: Pick<Trace, 'answerer' | 'provider_fault' | 'wiki'>,
  o: { serverUrl: string; repo: RepoRef; runUrl: string | undefined },
): string {
  // A provider that failed for good left the answer to the offline answerer: say who really answered.
  // The answerer's name comes from settings (a model name): one line of plain text whatever it holds.
  const name = trace.answerer
    .replace(/[\s`<>[\]]+/g, ' ')
    .trim()
    .slice(0, 100);
  const answerer = trace.provider_fault ? `offline answerer, standing in for ${name}` : `${name} answerer`;
  const commit = trace.wiki.commit;
  const wiki = commit
    ? `from the wiki at [\`${commit.slice(0, 7)}\`](${o.serverUrl}/${o.repo.owner}/${o.repo.repo}/tree/${commit})`
    : 'from a wiki with no commit recorded';
  const run = o.runUrl ? ` · [workflow run](${o.runUrl})` : '';
  return `${SIGNATURE_START} (${answerer}) ${wiki}${run} · Helpful? React with 👍 or 👎.</sub>`;
}
