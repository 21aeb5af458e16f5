// The answer a reviewer wrote. When a capture pull request for a discussion's question has merged
// and its page no longer carries `captured_by` (deleted in the pull request, or by a later push),
// the question is asked again of the wiki as it now is, that answer is posted as a new top-level
// comment saying that a reviewer wrote the page, and the comment is marked as the discussion's
// answer. Only here does the steward mark an answer: an answer the wiki alone produced is the
// asker's or a maintainer's to accept. Once per capture: the comment's key names the capture pull
// request, and twin runs (the merge's `pull_request` and `push` events) converge on one comment.
import type { Stats } from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { repoPathOf } from '../config/workspace.js';
import { answerSignature, workflowRunUrl } from '../github/answer-signature.js';
import { renderComment } from '../github/answer-comment.js';
import { findAnswerComment, upsertAnswerComment } from '../github/comment-helper.js';
import { readDiscussion } from '../github/discussions.js';
import type { StewardIdentity } from '../github/identity.js';
import type { GitHubClient } from '../github/octokit.js';
import { discussionThread } from '../github/question-thread.js';
import type { RepoWrites } from '../github/repo-writes.js';
import { readFrontmatter, stringList } from '../wiki/frontmatter.js';
import { isOpenCapture } from '../wiki/open-capture.js';
import { type AskContext, askFromCheckout } from './ask-checkout.js';
import { captureBranch, readCaptureMarker } from './capture-pr.js';
import { askedText } from './question.js';

/** A merged capture of a discussion's own question (not a follow-up's). */
export interface MergedDiscussionCapture {
  discussionNumber: number;
  pullNumber: number;
  /** The capture page, repository-relative, as the pull request's marker names it. */
  page: string;
}

export interface ReviewedAnswerContext extends AskContext {
  github: GitHubClient;
  writes: RepoWrites;
  identity: StewardIdentity;
}

export type ReviewedAnswer =
  { status: 'posted' | 'already'; url: string; marked: boolean } | { status: 'still-open' | 'no-page' | 'no-discussion' | 'locked'; reason: string };

/** The key of the reviewed answer's comment: one per capture pull request. */
const reviewedKey = (c: MergedDiscussionCapture) => `reviewed-discussion-${c.discussionNumber}-pr-${c.pullNumber}`;

/** The question an answer comment's key answers: a reviewed answer's is its discussion's own (`discussion-N`), any other key its own. */
export const questionOfKey = (key: string): string => /^reviewed-(discussion-\d+)-pr-\d+$/.exec(key)?.[1] ?? key;

/**
 * Whether the checked-out capture page has been accepted (it exists, inside the wiki, without
 * `captured_by`), its tags, and when the capture was made (its `created` stamp, when it reads as a time).
 */
async function readPage(ctx: AskContext, page: string): Promise<{ state: 'accepted' | 'still-open' | 'no-page'; tags: string[]; created?: number }> {
  const none = { state: 'no-page' as const, tags: [] };
  const { workspace } = ctx;
  if (!workspace.wikiRoot) return none;
  // The marker is the steward's own, but a path is checked before it is read all the same.
  const file = path.resolve(workspace.repoRoot, page);
  const inWiki = path.relative(workspace.wikiRoot, file);
  if (inWiki.startsWith('..') || path.isAbsolute(inWiki) || repoPathOf(workspace, inWiki.split(path.sep).join('/')) !== page) return none;
  if (!(await isPlainFile(workspace.wikiRoot, inWiki))) return none;
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return none;
  const fm = readFrontmatter(text);
  if (fm.kind !== 'ok') return { state: 'accepted', tags: [] };
  const created = typeof fm.data.created === 'string' ? Date.parse(fm.data.created) : Number.NaN;
  return { state: isOpenCapture(fm.data) ? 'still-open' : 'accepted', tags: stringList(fm.data.tags), ...(Number.isFinite(created) && { created }) };
}

/**
 * Whether `rel` is a regular file reached through real folders of the wiki. The wiki never follows
 * a symbolic link (wiki/tree.ts): a page linked to a file elsewhere is no page, and is not read.
 */
async function isPlainFile(root: string, rel: string): Promise<boolean> {
  let at = root;
  let stat: Stats | undefined;
  for (const part of rel.split(path.sep)) {
    at = path.join(at, part);
    stat = await lstat(at).catch(() => undefined);
    if (!stat || stat.isSymbolicLink()) return false;
  }
  return !!stat?.isFile();
}

export async function postReviewedAnswer(ctx: ReviewedAnswerContext, capture: MergedDiscussionCapture): Promise<ReviewedAnswer> {
  const { state } = await readPage(ctx, capture.page);
  if (state === 'no-page') return { status: 'no-page', reason: `${capture.page} is not a page of the checked-out wiki` };
  if (state === 'still-open') return { status: 'still-open', reason: `${capture.page} still carries captured_by` };
  const discussion = await readDiscussion(ctx.github, ctx.repo, capture.discussionNumber);
  if (!discussion) return { status: 'no-discussion', reason: `discussion #${capture.discussionNumber} is gone` };
  // GitHub refuses a bot's comment on a locked discussion, and the steward answers no locked question.
  // Not now, then: a push that touches the page once the discussion is unlocked posts it.
  if (discussion.locked) return { status: 'locked', reason: `discussion #${discussion.number} is locked` };
  const thread = discussionThread(ctx.github, ctx.writes, ctx.repo, { number: discussion.number, nodeId: discussion.nodeId });
  const key = reviewedKey(capture);
  const where = { thread: thread.comments, key, identity: ctx.identity };
  const existing = await findAnswerComment(thread.comments, key, ctx.identity);
  if (existing) return { status: 'already', url: existing.url, marked: false };

  const { trace } = await askFromCheckout(ctx, askedText(discussion.title, discussion.body, ctx.workspace.config.ask.command));
  const pullUrl = `${ctx.serverUrl}/${ctx.repo.owner}/${ctx.repo.repo}/pull/${capture.pullNumber}`;
  const footer = ['', `**A reviewer wrote the page this answer comes from:** \`${capture.page}\`, added in ${pullUrl}.`];
  const signature = answerSignature(trace, { serverUrl: ctx.serverUrl, repo: ctx.repo, runUrl: workflowRunUrl(ctx.env, ctx.serverUrl, ctx.repo) });
  const posted = await upsertAnswerComment(where, renderComment({ key, trace, answer: trace.answer, footer, signature }), null);
  // The comment that stands once any twin run converged; none in a dry run.
  const kept = posted.id;
  if (kept === 0 || !discussion.category.isAnswerable) {
    if (kept !== 0)
      ctx.reporter.info(
        `Discussion #${discussion.number} is in '${discussion.category.name}', which takes no answer: the reviewed answer is posted, not marked.`,
      );
    return { status: 'posted', url: posted.url, marked: false };
  }
  // An answer the asker or a maintainer chose is theirs: the reviewed answer stands beside it, unmarked.
  if (discussion.answer && discussion.answer.id !== kept && !ctx.identity.owns(discussion.answer.user)) {
    const chosen = `${discussion.answer.user?.login ?? 'ghost'}'s comment ${discussion.answer.id}`;
    ctx.reporter.info(`Discussion #${discussion.number} already has an answer a person chose (${chosen}): the reviewed answer is posted, not marked.`);
    return { status: 'posted', url: posted.url, marked: false };
  }
  // GitHub may refuse the mark (a locked discussion, a category changed meanwhile): the comment stays, and the refusal is said.
  const marked = await thread.markAnswer(kept).then(
    () => true,
    (error: unknown) => {
      ctx.reporter.warning(
        `The reviewed answer is posted (${posted.url}) but GitHub refused to mark it as the answer of discussion #${discussion.number}: ` +
          `${error instanceof Error ? error.message : String(error)}`,
      );
      return false;
    },
  );
  return { status: 'posted', url: posted.url, marked };
}

/**
 * After a push to the default branch: the capture pages it changed that a reviewer has now accepted
 * (their `capture` tag kept as history, `captured_by` gone) and that a merged capture pull request
 * of a discussion's question added get their reviewed answer, once. Pages are read from the
 * checkout; a push that touches no such page asks GitHub nothing. The pull requests are looked
 * through most recently updated first, back to the oldest accepted page's capture: a busy
 * repository may have closed hundreds since.
 */
export async function reviewedAnswersAfterPush(
  ctx: Omit<ReviewedAnswerContext, 'identity'> & { identity: () => Promise<StewardIdentity> },
  changed: readonly string[],
): Promise<ReviewedAnswer[]> {
  const accepted = new Set<string>();
  // A capture pull request was merged after its page's `created` stamp, so last updated no earlier.
  // Not opened after it: a question asked again captures anew on the open pull request's branch,
  // its page stamped then, days after the pull request opened.
  let updatedSince = Number.POSITIVE_INFINITY;
  for (const page of new Set(changed.filter((p) => p.endsWith('.md')))) {
    const read = await readPage(ctx, page);
    if (read.state !== 'accepted' || !read.tags.includes('capture')) continue;
    accepted.add(page);
    updatedSince = Math.min(updatedSince, (read.created ?? Number.NEGATIVE_INFINITY) - CLOCK_SLACK_MS);
  }
  if (accepted.size === 0) return [];
  const identity = await ctx.identity();
  const answers: ReviewedAnswer[] = [];
  // Most recently updated first, page by page, until every accepted page has its pull request, the
  // pull requests were last updated before the oldest capture, or MAX_CLOSED_PULLS were looked at.
  let looked = 0;
  const pages = ctx.github.paginate.iterator(ctx.github.rest.pulls.list, { ...ctx.repo, state: 'closed', sort: 'updated', direction: 'desc', per_page: 100 });
  for await (const { data: pulls } of pages) {
    for (const pull of pulls) {
      if (!pull.merged_at || !identity.owns(pull.user ?? undefined) || pull.head.repo?.full_name !== `${ctx.repo.owner}/${ctx.repo.repo}`) continue;
      const marker = readCaptureMarker(pull.body);
      const discussion = marker && /^discussion-(\d+)$/.exec(marker.key);
      // As when the pull request closes: the marker must name this very branch and its own discussion.
      if (!marker || !discussion || Number(discussion[1]) !== marker.issueNumber || captureBranch(marker) !== pull.head.ref) continue;
      if (!accepted.delete(marker.page)) continue;
      answers.push(await postReviewedAnswer({ ...ctx, identity }, { discussionNumber: Number(discussion[1]), pullNumber: pull.number, page: marker.page }));
    }
    looked += pulls.length;
    const oldest = pulls.at(-1);
    if (accepted.size === 0 || !oldest || looked >= MAX_CLOSED_PULLS || Date.parse(oldest.updated_at) < updatedSince) break;
  }
  return answers;
}

/** How far GitHub's clock may be behind the runner's that stamped a capture page. */
const CLOCK_SLACK_MS = 60 * 60 * 1000;
/** The closed pull requests looked through at most, most recently updated first: the bound for a page with no `created` stamp, and for any look. */
const MAX_CLOSED_PULLS = 1_000;
