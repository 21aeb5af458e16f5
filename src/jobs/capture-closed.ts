// When a capture pull request closes: the steward's own (its marker, author and head repository
// say so) loses its branch unless another open pull request uses it, and the question hears what
// happened — a discussion's question whose page the reviewer accepted gets the reviewed answer
// (reviewed-answer.ts), any other question a reply saying the page was merged, or not.
import { readDiscussion } from '../github/discussions.js';
import type { StewardIdentity } from '../github/identity.js';
import type { GitHubClient, RepoRef } from '../github/octokit.js';
import { type CommentThread, discussionThread, issueThread } from '../github/question-thread.js';
import type { RepoWrites } from '../github/repo-writes.js';
import type { AskContext } from './ask-checkout.js';
import { type CaptureMarker, captureBranch, deleteBranch, readCaptureMarker } from './capture-pr.js';
import type { ClosedCapture } from './question.js';
import type { Reporter } from './reporter.js';
import { postReviewedAnswer } from './reviewed-answer.js';

const closedMarker = (pr: number) => `<!-- wiki-steward:capture-closed pr=${pr} -->`;

/**
 * A PR named like a capture branch closed. Only the steward's own capture PR counts: its marker
 * names this very branch, the steward's identity opened it, and its head is a branch of this
 * repository. Anyone can open a PR (from a fork, through `pull_request_target`, or from the
 * steward's own branch) whose name and body look like one; such a PR deletes nothing and gets no
 * reply. The steward's PR gets one reply on the question's issue (merged: the page's permalink),
 * and its branch is deleted unless another open PR still has it as its head.
 */
export async function handleClosedCapture(
  github: GitHubClient,
  writes: RepoWrites,
  repo: RepoRef,
  pull: ClosedCapture,
  o: { serverUrl: string; reporter: Reporter; identity: () => Promise<StewardIdentity>; ask: AskContext },
): Promise<string | undefined> {
  const { serverUrl, reporter } = o;
  const notOurs = (why: string) => {
    reporter.info(`PR #${pull.number} (${pull.branch}) ${why}: not the steward's capture PR, so its branch is kept and nothing is replied.`);
    return undefined;
  };
  const fullName = `${repo.owner}/${repo.repo}`;
  if (pull.headRepo?.toLowerCase() !== fullName.toLowerCase()) {
    return notOurs(`comes from ${pull.headRepo ?? 'a repository that no longer exists'}, not from ${fullName}`);
  }
  const marker = readCaptureMarker(pull.body);
  if (!marker) return notOurs('has no steward marker');
  const markedBranch = captureBranch({ issueNumber: marker.issueNumber, ...commentOfKey(marker.key) });
  if (markedBranch !== pull.branch) return notOurs(`carries a marker for ${markedBranch}`);
  const identity = await o.identity();
  if (!identity.owns({ login: pull.author })) return notOurs(`was opened by ${pull.author ?? 'nobody known'}, not by the steward (${identity.describe()})`);

  // The branch is the steward's; another open PR on it (a re-asked question's new capture PR, or a
  // person's PR from it) still needs it.
  const others = (await github.paginate(github.rest.pulls.list, { ...repo, state: 'open', head: `${repo.owner}:${pull.branch}`, per_page: 100 })).filter(
    (p) => p.number !== pull.number,
  );
  if (others.length > 0) {
    reporter.info(
      `Capture PR #${pull.number} closed; its branch ${pull.branch} is kept: open PR ${others.map((p) => `#${p.number}`).join(', ')} still uses it.`,
    );
  } else {
    await deleteBranch(github, writes, repo, pull.branch);
  }
  // A discussion's own question whose page the reviewer accepted in the pull request: the reviewed answer, marked.
  const discussion = /^discussion-(\d+)$/.exec(marker.key);
  if (pull.merged && discussion) {
    const reviewed = await postReviewedAnswer(
      { ...o.ask, github, writes, identity },
      { discussionNumber: Number(discussion[1]), pullNumber: pull.number, page: marker.page },
    );
    if ('url' in reviewed) {
      reporter.info(
        `Capture PR #${pull.number} merged with its page accepted: ` +
          `the reviewed answer ${reviewed.status === 'already' ? 'was already posted' : `is posted${reviewed.marked ? ' and marked' : ''}`}: ${reviewed.url}.`,
      );
      return reviewed.url;
    }
    reporter.info(`Capture PR #${pull.number} merged; no reviewed answer yet: ${reviewed.reason}.`);
  }
  const thread = await captureThread(github, writes, repo, marker);
  if (typeof thread === 'string') {
    reporter.info(`Capture PR #${pull.number} closed; the question it captured (${marker.key}) ${thread}, so nothing is replied.`);
    return undefined;
  }
  const pageUrl = `${serverUrl}/${repo.owner}/${repo.repo}/blob/${pull.mergeCommitSha ?? 'HEAD'}/${marker.page.split('/').map(encodeURIComponent).join('/')}`;
  const text = pull.merged
    ? `The capture page for this question is in the wiki: [\`${marker.page}\`](${pageUrl}) was merged in #${pull.number}. ` +
      'It records the question as asked and still open: once a reviewer writes the answer on that page and deletes its `captured_by` line, ' +
      'the wiki covers it and asking again is answered from it.'
    : `The capture pull request #${pull.number} was closed without merging, so the wiki still does not cover this question.`;
  // A re-run of the same event must not reply twice: the steward's own reply ends with this marker.
  const comments = await thread.comments();
  if (comments.some((c) => identity.owns(c.user ?? undefined) && c.body.trimEnd().endsWith(closedMarker(pull.number)))) return undefined;
  const reply = await thread.create({ text, markers: [closedMarker(pull.number)] });
  return reply.url;
}

/** Where a capture's question was asked: its issue's conversation, or its discussion; or why there is no replying there. */
async function captureThread(github: GitHubClient, writes: RepoWrites, repo: RepoRef, marker: CaptureMarker): Promise<CommentThread | string> {
  if (!marker.key.startsWith('discussion-')) return issueThread(github, writes, repo, marker.issueNumber).comments;
  const discussion = await readDiscussion(github, repo, marker.issueNumber);
  if (!discussion) return 'is gone';
  // GitHub refuses a bot's comment on a locked discussion.
  if (discussion.locked) return `is in locked discussion #${discussion.number}`;
  return discussionThread(github, writes, repo, { number: discussion.number, nodeId: discussion.nodeId }).comments;
}

/** The follow-up comment a capture marker's key names (`comment-<id>`), for its branch name. */
const commentOfKey = (key: string): { commentId?: number } => {
  const m = /^(?:discussion-)?comment-(\d+)$/.exec(key);
  return m ? { commentId: Number(m[1]) } : {};
};
