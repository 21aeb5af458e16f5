// Answering an issue: one question asked in an issue or a `/wiki ask` comment becomes one comment
// with a verified, cited answer (permalinks at the commit read), an outcome label, a capture pull
// request for a cold or gap outcome, and a summary; 👀 on the question while it is answered (😕 if
// the run fails; reaction-helper.ts). The steward never answers itself (its identity:
// the token's account and the configured steward logins) nor any other bot, edits only comments it
// wrote, and a run that loses the race to a twin run of the same question leaves the work to it
// (the capture branch or pull request) or converges on one comment with it (comment-helper.ts).
import { questionWithContext } from '../answer/ask.js';
import type { Trace } from '../answer/trace.js';
import { answerMarkers, answerWithNote, renderComment, traceFromComment } from '../github/answer-comment.js';
import { answerSignature, workflowRunUrl } from '../github/answer-signature.js';
import { capturesOutcome, planCapture } from '../capture/capture-plan.js';
import { type CapturePrResult, CaptureRefusedError, TwinRunError, deleteBranch, openCapturePr } from './capture-pr.js';
import { type AnswerPlace, type UpsertResult, findAnswerComment, upsertAnswerComment } from '../github/comment-helper.js';
import { type QuestionThread, discussionThread, issueThread } from '../github/question-thread.js';
import type { StewardIdentity } from '../github/identity.js';
import { updatePull } from '../github/writes-text.js';
import { type Question, isBot } from './question.js';
import { setOutcomeLabel } from '../github/label-helper.js';
import type { GitHubClient } from '../github/octokit.js';
import { mayAsk } from '../github/permission-helper.js';
import type { RepoRef } from '../github/octokit.js';
import { type Acknowledgement, acknowledge } from '../github/reaction-helper.js';
import { RepoWrites } from '../github/repo-writes.js';
import { type AskContext, askFromCheckout } from './ask-checkout.js';
import type { Reporter } from './reporter.js';

export interface AnswerContext extends AskContext {
  github: GitHubClient;
  /** Capture pull requests: people asked to review, and whether they open as drafts. */
  reviewers: string[];
  draft: boolean;
  dryRun: boolean;
  sender: { login: string; type?: string } | undefined;
  /** Who the steward is (asked of GitHub once, when needed). */
  identity: () => Promise<StewardIdentity>;
}

export interface AnswerResult {
  outcome?: Trace['outcome'];
  /** The model tokens the question spent (none offline). */
  tokens?: Trace['tokens'];
  branch?: Trace['branch'];
  commentUrl?: string;
  pullRequestUrl?: string;
  skipped?: string;
}

async function withdrawCapture(github: GitHubClient, writes: RepoWrites, repo: RepoRef, capture: CapturePrResult): Promise<void> {
  await updatePull(github, writes, repo, capture.number, { state: 'closed' }, 'close').catch(() => undefined);
  await deleteBranch(github, writes, repo, capture.branch).catch(() => undefined);
}

/** Says what a run did about a twin run's comment beside its own (comment-helper.ts), or why it could not look. */
function reportConvergence(reporter: Reporter, posted: UpsertResult): void {
  if (posted.problem) reporter.warning(`The answer is posted, but a twin run's answer comment may remain beside it: ${posted.problem}`);
  const c = posted.converged;
  if (!c) return;
  const deleted = c.deleted.join(', ');
  const what = posted.created
    ? `kept this run's comment ${c.kept} (the oldest) and deleted ${deleted}`
    : c.updated
      ? `kept comment ${c.kept} (the oldest), put this run's answer (to a later edit of the question) in it, and deleted ${deleted}`
      : `kept comment ${c.kept} (the oldest) with its answer (to the same or a later edit of the question), and deleted ${deleted}`;
  reporter.info(`Another run of this question answered at the same time: ${what}.`);
}

/** The summary's line on what a model cost: tokens in and out, and how they were counted; nothing offline. */
const tokensLine = (trace: Trace): string =>
  trace.tokens.input + trace.tokens.output === 0
    ? ''
    : `Model tokens: ${trace.tokens.input} in, ${trace.tokens.output} out${trace.tokens.counted ? ` (counted by ${trace.tokens.counted})` : ''}.\n\n`;

/** The thread the question was asked in, where its answer goes. */
function threadOf(ctx: AnswerContext, writes: RepoWrites, question: Question): QuestionThread {
  const { place } = question;
  return place.kind === 'discussion'
    ? discussionThread(ctx.github, writes, ctx.repo, { number: question.issueNumber, nodeId: place.nodeId, followUp: place.followUp })
    : issueThread(ctx.github, writes, ctx.repo, question.issueNumber, question.commentId);
}

export async function answerQuestion(ctx: AnswerContext, question: Question): Promise<AnswerResult> {
  if (isBot(ctx.sender) || isBot(question.asker)) {
    ctx.reporter.info(`Skipping: questions from bots are not answered (sender ${ctx.sender?.login}, asker ${question.asker.login}).`);
    return { skipped: 'bot' };
  }
  if (question.locked) {
    ctx.reporter.info(`Skipping: issue #${question.issueNumber} is locked.`);
    return { skipped: 'locked' };
  }
  const identity = await ctx.identity();
  if (identity.owns(ctx.sender) || identity.owns(question.asker)) {
    ctx.reporter.info(`Skipping: the steward never answers itself (${identity.describe()}; sender ${ctx.sender?.login}, asker ${question.asker.login}).`);
    return { skipped: 'self' };
  }
  const writes = new RepoWrites(ctx.dryRun, (message) => ctx.reporter.info(message));
  const thread = threadOf(ctx, writes, question);
  if (!(await thread.askingCommentExists())) {
    ctx.reporter.info(`Skipping: the ${ctx.workspace.config.ask.command} ask comment ${question.commentId} was deleted before this run.`);
    return { skipped: 'deleted' };
  }
  const { config } = ctx.workspace;
  const where: AnswerPlace = { thread: thread.comments, key: question.key, identity, editedAt: question.editedAt };
  const permission = await mayAsk(ctx.github, ctx.repo, question.asker.login, config.ask.minPermission);
  if (!permission.allowed) {
    ctx.reporter.info(`Not answering: @${question.asker.login} has role '${permission.role}', below min-permission '${config.ask.minPermission}'.`);
    if (config.ask.refusal === 'comment') await refuse(ctx, question, where);
    return { skipped: 'permission' };
  }

  // 👀 before the wiki is loaded: the asker sees at once that the question was taken up.
  const seen = await acknowledge(thread.reactions, ctx.reporter);
  try {
    return await answerAcknowledged(ctx, question, { writes, where, seen, thread });
  } catch (error) {
    // No-op once the answer is posted: what failed after it (a label, a refused capture) is the maintainers' to fix.
    await seen.failed();
    throw error;
  }
}

/**
 * The refusal for an asker below `min-permission`: one short comment. A question already answered
 * (a maintainer approved it by adding the trigger label) keeps its answer, which gains one line: the
 * change is not answered until a maintainer adds the label again.
 */
async function refuse(ctx: AnswerContext, question: Question, where: AnswerPlace): Promise<void> {
  const { config } = ctx.workspace;
  const label = `\`${config.labels.trigger}\``;
  const existing = await findAnswerComment(where.thread, question.key, where.identity);
  if (existing && traceFromComment(existing.body)) {
    const note =
      `**The question has changed since this answer**, and the change is not answered: wiki-steward answers questions from people with ` +
      `${config.ask.minPermission} access or more, and the answer above is to the question as a maintainer approved it. ` +
      `A maintainer can have it answered anew by adding the ${label} label again (remove it, then add it back).`;
    const noted = answerWithNote(existing.body, note);
    // Through the question's thread: a discussion's answer is a GraphQL comment, not an issue comment.
    if (noted) await where.thread.update(existing.id, noted);
    ctx.reporter.info(`The answer given before stays${noted ? ', with a line saying the change needs the label again' : ''}: ${existing.url}`);
    return;
  }
  const text =
    `Thanks for the question. wiki-steward answers questions from people with ${config.ask.minPermission} access or more; ` +
    `a maintainer can ask for you by adding the ${label} label.`;
  reportConvergence(ctx.reporter, await upsertAnswerComment(where, { text, markers: answerMarkers(question.key, question.editedAt) }, existing ?? null));
}

/** The answer itself, once the question is acknowledged: `seen` is settled when the comment is posted. */
async function answerAcknowledged(
  ctx: AnswerContext,
  question: Question,
  { writes, where, seen, thread }: { writes: RepoWrites; where: AnswerPlace; seen: Acknowledgement; thread: QuestionThread },
): Promise<AnswerResult> {
  const workspace = ctx.workspace;
  const { config } = workspace;
  const serverUrl = ctx.serverUrl;
  const text = question.commentId !== undefined ? questionWithContext(question.text, question.issueTitle) : question.text;
  const { session, trace, fault } = await askFromCheckout(ctx, text);
  const footer =
    trace.outcome === 'error'
      ? ['', `**This question could not be answered now.** ${trace.error ?? ''} Nothing is lost: re-run the workflow, or edit the issue to ask again.`]
      : [];
  // Cold and gap grow the wiki by review: a capture pull request, linked from the answer.
  let capture: CapturePrResult | undefined;
  let captureRefused: Error | undefined;
  if (config.capture.pullRequests && capturesOutcome(trace.outcome)) {
    // The tree the catalog already walked: the capture plans against the same files the answer read.
    const tree = session.catalog?.layout.tree;
    const plan = await planCapture(
      tree,
      config,
      trace,
      question.place.kind === 'discussion'
        ? { url: question.place.url, label: `discussion #${question.issueNumber}` }
        : { url: `${serverUrl}/${ctx.repo.owner}/${ctx.repo.repo}/issues/${question.issueNumber}`, label: `#${question.issueNumber}` },
      new Date(),
    );
    const opened = await openCapturePr({
      github: ctx.github,
      writes,
      repo: ctx.repo,
      question,
      trace,
      plan,
      // With no wiki yet, the capture bootstraps one in `wiki/`.
      wikiPrefix: workspace.wikiRoot ? workspace.wikiPrefix : 'wiki',
      labels: [config.labels.capture],
      reviewers: ctx.reviewers,
      draft: ctx.draft,
      answer: trace.answer,
    }).catch((error: unknown) => {
      // The asker still gets the answer; the step then fails with what to change.
      if (error instanceof TwinRunError) return error;
      if (!(error instanceof CaptureRefusedError)) throw error;
      captureRefused = error;
      return undefined;
    });
    if (opened instanceof TwinRunError) {
      // Two runs of this question at once: the twin created the branch or the PR first and posts the answer.
      ctx.reporter.info(`Stopping: ${opened.message}.`);
      // The twin reacts with the same account (GitHub hands it the same 👀): one of the two removes it.
      await seen.done();
      await ctx.reporter.summary(`## wiki-steward: left to a twin run\n\nTwo runs answered issue #${question.issueNumber} at once; ${opened.message}.`);
      return { outcome: trace.outcome, branch: trace.branch, skipped: 'twin' };
    }
    capture = opened;
  }
  if (captureRefused) footer.push('', `No capture pull request could be opened: ${captureRefused.message}.`);
  if (capture) {
    footer.push(
      '',
      capture.status === 'human-edited'
        ? `A person has pushed to the capture pull request ${capture.url}, so it was left as it is; update it there if the answer above adds something.`
        : `The wiki does not fully cover this yet: ${capture.url} adds a capture page for a reviewer to complete and merge.`,
    );
  }
  const signature = answerSignature(trace, { serverUrl, repo: ctx.repo, runUrl: workflowRunUrl(ctx.env, serverUrl, ctx.repo) });
  const body = renderComment({ key: question.key, editedAt: question.editedAt, trace, answer: trace.answer, footer, signature });
  let url: string;
  try {
    const posted = await upsertAnswerComment(where, body);
    reportConvergence(ctx.reporter, posted);
    url = posted.url;
  } catch (error) {
    // No pull request without its comment link: a PR opened in this run is withdrawn.
    if (capture?.status === 'opened') await withdrawCapture(ctx.github, writes, ctx.repo, capture);
    throw error;
  }
  await (trace.outcome === 'error' ? seen.failed() : seen.done());
  // The label follows the issue's or discussion's own question; a follow-up's outcome is in its comment.
  if (question.commentId === undefined) await setOutcomeLabel(ctx.github, writes, ctx.repo, thread.labels, trace.outcome, config.labels);

  if (captureRefused) throw captureRefused;
  // The summary shows what people read (the visible text, without the hidden trailer), under the provider's fault.
  await ctx.reporter.summary(
    `## wiki-steward: ${trace.outcome} (${trace.branch})\n\n${fault ? `> [!WARNING]\n> ${fault}\n\n` : ''}${tokensLine(trace)}${body.text}`,
  );
  return { outcome: trace.outcome, branch: trace.branch, commentUrl: url, tokens: trace.tokens, ...(capture ? { pullRequestUrl: capture.url } : {}) };
}
