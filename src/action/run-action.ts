// The Action shell: read the event and the inputs, open the checkout once, pick the job, and
// write outputs. The work itself is in jobs/; `mode: auto` (or the `mode` input) chooses it:
//   issues, issue_comment → answer; pull_request, push elsewhere → validate;
//   push to the default branch → maintain; schedule, workflow_dispatch → digest.
// Everything the step reads and writes goes through its Step (action/step.ts): the bundle's entry
// gives it the process's environment and stdout, a test its own, so one run shares nothing with
// another.
import { existsSync, readFileSync } from 'node:fs';
import { openWorkspace, type Workspace } from '../config/workspace.js';
import { reportedPeriod } from '../digest/period.js';
import { identitySource, viewerLoginOf } from '../github/identity.js';
import { createGitHubClient } from '../github/octokit.js';
import { RepoWrites } from '../github/repo-writes.js';
import { answerQuestion } from '../jobs/answer-issue.js';
import type { AskContext } from '../jobs/ask-checkout.js';
import { handleClosedCapture } from '../jobs/capture-closed.js';
import { reviewedAnswersAfterPush } from '../jobs/reviewed-answer.js';
import { digestRaceLines, runDigest } from '../jobs/digest.js';
import { maintainWiki } from '../jobs/maintain.js';
import { validateCheckout } from '../jobs/validate.js';
import { actionsReporter } from './actions-reporter.js';
import { restoreCatalogSnapshot } from './catalog-cache-step.js';
import { type EventPayload, type Triggers, type Work, workForEvent } from './event.js';
import { type ActionInputs, type Mode, readInputs } from './inputs.js';
import { Step, type StepContext } from './step.js';

/** Runs the step and returns its exit code; a failure is an error annotation, never a stack trace. */
export async function runAction(context: StepContext): Promise<number> {
  const step = new Step(context);
  try {
    await runStep(step);
  } catch (error) {
    step.fail(error instanceof Error ? error.message : String(error));
  }
  return step.exitCode;
}

async function runStep(step: Step): Promise<void> {
  const { env } = step;
  const reporter = actionsReporter(step);
  const inputs = readInputs(step);
  const workspaceDir = env.GITHUB_WORKSPACE;
  if (!workspaceDir || !existsSync(workspaceDir)) {
    throw new Error('GITHUB_WORKSPACE is not set or missing: run this action in a workflow, after actions/checkout');
  }
  const eventName = env.GITHUB_EVENT_NAME ?? '';
  const payload = readEvent(env.GITHUB_EVENT_PATH);
  // Opened once, settings resolved once: every job below works from this checkout.
  const workspace = await openWorkspace({ cwd: workspaceDir, wikiFlag: inputs.wikiPath, overrides: inputs.settings });
  const config = workspace.config;
  const triggers = { triggerLabel: config.labels.trigger, command: config.ask.command, discussionCategories: config.discussions.categories };
  const work: Work = inputs.mode === 'auto' ? workForEvent(eventName, payload, triggers) : workForMode(inputs.mode, eventName, payload, triggers);
  step.info(`wiki-steward: ${work.kind}${work.kind === 'skip' ? ` (${work.reason})` : ''} for ${eventName || 'no event'}`);

  if (work.kind === 'skip') return;
  if (work.kind === 'validate') return validateCheckout(workspace, reporter, { cwd: workspaceDir, changedSince: payload.pull_request?.base?.sha });
  if (work.kind === 'digest') return runGitHubWork(step, inputs, workspace, work, eventName, payload, undefined);
  // The jobs that may ask the wiki: its catalog's snapshot comes from the Actions cache before, goes back after.
  const catalogCache = await restoreCatalogSnapshot(step, workspace, inputs.catalogCache);
  try {
    await runGitHubWork(step, inputs, workspace, work, eventName, payload, catalogCache.option);
  } finally {
    await catalogCache.save();
  }
}

async function runGitHubWork(
  step: Step,
  inputs: ActionInputs,
  workspace: Workspace,
  work: Exclude<Work, { kind: 'skip' | 'validate' }>,
  eventName: string,
  payload: EventPayload,
  catalogCache: AskContext['catalogCache'],
): Promise<void> {
  const { env } = step;
  const reporter = actionsReporter(step);
  const config = workspace.config;
  const workspaceDir = env.GITHUB_WORKSPACE!;

  if (!inputs.token) throw new Error("no GitHub token: pass 'github-token' (default: ${{ github.token }})");
  const repository = env.GITHUB_REPOSITORY ?? '';
  const [owner, repo] = repository.split('/');
  if (!owner || !repo) throw new Error(`GITHUB_REPOSITORY must be owner/repo, got '${repository}'`);
  const github = createGitHubClient(inputs.token, env, reporter);
  const writes = (budget?: number) => new RepoWrites(inputs.dryRun, (message) => step.info(message), budget);
  // Who the steward is — the token's account plus steward-logins — asked of GitHub once, by the jobs that need it.
  const restBase = (env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/$/, '');
  const identity = identitySource(
    github,
    config.ask.stewardLogins,
    (problem) => reporter.warning(problem),
    viewerLoginOf(restBase, inputs.token, env, step.clock),
  );
  const serverUrl = (env.GITHUB_SERVER_URL ?? 'https://github.com').replace(/\/$/, '');
  // Copilot with no extra secret: the workflow's token (`github-token`) when the environment names none.
  const providerEnv = env.COPILOT_GITHUB_TOKEN || env.GH_TOKEN || env.GITHUB_TOKEN ? env : { ...env, GITHUB_TOKEN: inputs.token };
  if (work.kind === 'maintain') {
    // Maintain first; a validation failure afterwards does not undo it.
    const maintained = await maintainWiki(github, writes(), { owner, repo }, workspace, env.GITHUB_SHA, reporter, identity);
    const indexUpdate = maintained.committed
      ? ` committed (${maintained.committed.slice(0, 7)})`
      : maintained.pullRequestUrl
        ? ` proposed in ${maintained.pullRequestUrl}`
        : '';
    const pulls = (numbers: readonly number[]) => numbers.map((n) => `#${n}`).join(', ') || 'none';
    step.info(
      `maintain: ${maintained.indexFiles.length} stale index files${indexUpdate}; ` +
        `capture PRs rebuilt: ${pulls(maintained.refreshedCaptures)}; left for a person: ${pulls(maintained.humanEdited)}`,
    );
    step.setOutput('pull-request-url', maintained.pullRequestUrl ?? '');
    // Capture pages a reviewer accepted in this push: their discussions' reviewed answers.
    const changed = (payload.commits ?? []).flatMap((c) => [...(c.added ?? []), ...(c.modified ?? [])]);
    const ask = { workspace, env: providerEnv, clock: step.clock, reporter, serverUrl, repo: { owner, repo }, catalogCache };
    for (const reviewed of await reviewedAnswersAfterPush({ ...ask, github, writes: writes(), identity }, changed)) {
      if ('url' in reviewed) reporter.info(`A reviewer accepted a discussion's capture page: its reviewed answer is ${reviewed.url}.`);
      else reporter.info(`A reviewer accepted a discussion's capture page; no reviewed answer yet: ${reviewed.reason}.`);
    }
    const handled = maintained.committed || maintained.pullRequestUrl ? new Set(maintained.indexFiles) : new Set<string>();
    return validateCheckout(workspace, reporter, { cwd: workspaceDir, indexFilesHandled: handled });
  }
  if (work.kind === 'digest') {
    // WIKI_STEWARD_NOW pins the clock for tests; nobody sets it in a workflow.
    const now = env.WIKI_STEWARD_NOW ? new Date(env.WIKI_STEWARD_NOW) : new Date();
    const period = reportedPeriod(config.digest.period, now, eventName === 'schedule');
    const digest = await runDigest(workspace, { github, writes: writes(config.digest.maxWrites), repo: { owner, repo }, period, now, identity });
    for (const line of digestRaceLines(digest)) {
      if (line.warning) reporter.warning(line.text);
      else reporter.info(line.text);
    }
    await reporter.summary(digest.markdown);
    step.setOutput('comment-url', digest.issueUrl ?? '');
    return;
  }
  if (work.kind === 'capture-closed') {
    const ask = { workspace, env: providerEnv, clock: step.clock, reporter, serverUrl, repo: { owner, repo }, catalogCache };
    const reply = await handleClosedCapture(github, writes(), { owner, repo }, work.pull, { serverUrl, reporter, identity, ask });
    step.setOutput('comment-url', reply ?? '');
    return;
  }
  const result = await answerQuestion(
    {
      github,
      repo: { owner, repo },
      workspace,
      reporter,
      env: providerEnv,
      clock: step.clock,
      serverUrl,
      reviewers: inputs.reviewers,
      draft: inputs.draft,
      dryRun: inputs.dryRun,
      sender: payload.sender,
      identity,
      catalogCache,
    },
    work.question,
  );
  step.setOutput('ladder-branch', result.branch ?? '');
  step.setOutput('outcome', result.outcome ?? '');
  step.setOutput('input-tokens', String(result.tokens?.input ?? 0));
  step.setOutput('output-tokens', String(result.tokens?.output ?? 0));
  step.setOutput('comment-url', result.commentUrl ?? '');
  step.setOutput('pull-request-url', result.pullRequestUrl ?? '');
}

function readEvent(eventPath: string | undefined): EventPayload {
  if (!eventPath || !existsSync(eventPath)) return {};
  return JSON.parse(readFileSync(eventPath, 'utf8')) as EventPayload;
}

/** An explicit mode runs that work whatever the event, still reading the question from it. */
function workForMode(mode: Exclude<Mode, 'auto'>, eventName: string, payload: EventPayload, triggers: Triggers): Work {
  if (mode !== 'answer') return { kind: mode };
  const work = workForEvent(eventName, payload, triggers);
  return work.kind === 'answer' ? work : { kind: 'skip', reason: `mode 'answer' but the ${eventName || 'missing'} event holds no question` };
}
