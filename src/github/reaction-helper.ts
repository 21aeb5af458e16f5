// Conversation manners on the question itself: 👀 as soon as a run starts answering it, taken away
// when the answer is posted, and 😕 in its place when the run ends in error. Reactions are a
// courtesy: a reaction GitHub refuses is logged and never fails the run or holds up the answer.
// They need nothing beyond what answering has (issues: write), and go through the write boundary
// like every other write, so a dry run makes none.
import type { GitHubClient, RepoRef } from './octokit.js';
import type { RepoWrites } from './repo-writes.js';

/** What the steward reacts to: the issue, or the `/wiki ask` comment when `commentId` is set. */
export interface ReactionSubject {
  issueNumber: number;
  commentId?: number | undefined;
}

/** The acknowledgement of one question; the first of `done()` / `failed()` settles it, later calls do nothing. */
export interface Acknowledgement {
  /** The answer is posted: the 👀 goes. */
  done(): Promise<void>;
  /** The run ended in error: the 👀 goes and 😕 takes its place. */
  failed(): Promise<void>;
}

type Content = 'eyes' | 'confused';
const EMOJI: Record<Content, string> = { eyes: '👀', confused: '😕' };

/** Adds 👀 to the question; a failure is a warning, and the handle then has no 👀 to take away. */
export async function acknowledge(
  github: GitHubClient,
  writes: RepoWrites,
  repo: RepoRef,
  subject: ReactionSubject,
  log: { warning(message: string): void },
): Promise<Acknowledgement> {
  const path = `/repos/${repo.owner}/${repo.repo}/issues/${subject.commentId === undefined ? subject.issueNumber : `comments/${subject.commentId}`}/reactions`;
  const what = subject.commentId === undefined ? `issue #${subject.issueNumber}` : `comment ${subject.commentId}`;
  const courtesy = <T>(doing: string, describe: string, write: () => Promise<T>): Promise<T | undefined> =>
    writes.run<T | undefined>(describe, write, undefined).catch((error: unknown) => {
      log.warning(`Could not ${doing} ${what} (the answer is not affected): ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    });
  // GitHub answers 200 with the existing reaction when the account already gave it (an earlier
  // run of the steward): removing that one later is still removing the steward's own.
  const add = (content: Content) =>
    courtesy(`add ${EMOJI[content]} to`, `POST ${path} (${content})`, async () => {
      const { data } =
        subject.commentId === undefined
          ? await github.rest.reactions.createForIssue({ ...repo, issue_number: subject.issueNumber, content })
          : await github.rest.reactions.createForIssueComment({ ...repo, comment_id: subject.commentId, content });
      return data.id;
    });
  // A 👀 already gone is what removing it wants: a twin run of the question (the same account, so
  // GitHub handed both runs the same reaction) or a person took it away first.
  const gone = (error: { status?: number }) => {
    if (error.status !== 404) throw error;
  };
  const remove = (reactionId: number) =>
    courtesy(`remove ${EMOJI.eyes} from`, `DELETE ${path}/${reactionId} (eyes)`, async () => {
      if (subject.commentId === undefined)
        await github.rest.reactions.deleteForIssue({ ...repo, issue_number: subject.issueNumber, reaction_id: reactionId }).catch(gone);
      else await github.rest.reactions.deleteForIssueComment({ ...repo, comment_id: subject.commentId, reaction_id: reactionId }).catch(gone);
    });

  // Undefined in a dry run or when GitHub refused: then there is no 👀 to take away.
  const eyes = await add('eyes');
  let settled = false;
  const settle = async (then?: Content) => {
    if (settled) return;
    settled = true;
    if (eyes !== undefined) await remove(eyes);
    if (then) await add(then);
  };
  return { done: () => settle(), failed: () => settle('confused') };
}
