// Outcome labels (`wiki:answered`, `wiki:gap`, `wiki:cold`, `wiki:error`): created when missing,
// and only the current outcome's label left on the issue or discussion.
import type { StewardConfig } from '../config/config.js';
import type { Outcome } from '../answer/trace.js';
import type { GitHubClient } from './octokit.js';
import type { RepoRef } from './octokit.js';
import type { ThreadLabels } from './question-thread.js';
import type { RepoWrites } from './repo-writes.js';

const COLORS: Record<Outcome, string> = { answered: '0e8a16', gap: 'fbca04', cold: 'c5def5', error: 'b60205' };
const DESCRIPTIONS: Record<Outcome, string> = {
  answered: 'wiki-steward answered this from the wiki',
  gap: 'The wiki covers part of this question',
  cold: 'The wiki has nothing on this question yet',
  error: 'wiki-steward could not answer this now',
};

/** Leaves only the outcome's label of the four on the question, creating it in the repository when missing. */
export async function setOutcomeLabel(
  github: GitHubClient,
  writes: RepoWrites,
  repo: RepoRef,
  question: ThreadLabels,
  outcome: Outcome,
  labels: StewardConfig['labels'],
): Promise<void> {
  const current = await question.current();
  const name = labels[outcome];
  const stale = (['answered', 'gap', 'cold', 'error'] as const).map((o) => labels[o]).filter((l) => l !== name && current.includes(l));
  for (const old of stale) await question.remove(old);
  if (current.includes(name)) return;
  const exists = await github.rest.issues.getLabel({ ...repo, name }).then(
    () => true,
    (error: { status?: number }) => {
      if (error.status === 404) return false;
      throw error;
    },
  );
  if (!exists) {
    await writes.run(
      `POST /repos/${repo.owner}/${repo.repo}/labels (${name})`,
      () => github.rest.issues.createLabel({ ...repo, name, color: COLORS[outcome], description: DESCRIPTIONS[outcome] }).catch(ignoreAlreadyExists),
      undefined,
    );
  }
  await question.add(name);
}

/** Two runs may race to create the label; the loser's 422 is not a failure. */
function ignoreAlreadyExists(error: { status?: number }): undefined {
  if (error.status === 422) return undefined;
  throw error;
}
