// The Action's work, chosen from the event (`mode: auto`) or the `mode` input:
//   issues, issue_comment → answer; pull_request, push elsewhere → validate;
//   push to the default branch → maintain; schedule, workflow_dispatch → digest.
import * as core from '@actions/core';
import { existsSync, readFileSync } from 'node:fs';
import { type AnswerResult, answerQuestion } from '../jobs/answer-issue.js';
import { type EventPayload, type Work, workForEvent } from './event.js';
import { effectiveSettings, readInputs } from './inputs.js';
import { openWorkspace } from '../config/workspace.js';
import { createGitHubClient } from '../github/octokit.js';
import { validateCheckout } from '../jobs/validate.js';
import { handleClosedCapture } from '../jobs/capture-closed.js';
import { RepoWrites } from '../github/repo-writes.js';
import { runDigest } from '../jobs/digest.js';
import { maintainWiki } from '../jobs/maintain.js';
import { periodOf, previousPeriod } from '../digest/period.js';
import { wikiHealth } from '../digest/wiki-health.js';
import { openWikiLayout } from '../wiki/open.js';

const DAY_MS = 86_400_000;

export async function runAction(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const inputs = readInputs(env);
  const workspaceDir = env.GITHUB_WORKSPACE;
  if (!workspaceDir || !existsSync(workspaceDir)) {
    throw new Error('GITHUB_WORKSPACE is not set or missing: run this action in a workflow, after actions/checkout');
  }
  const eventName = env.GITHUB_EVENT_NAME ?? '';
  const payload = readEvent(env.GITHUB_EVENT_PATH);
  // Opened once: every mode below works from this checkout and its config.
  const workspace = await openWorkspace({
    cwd: workspaceDir,
    wikiFlag: inputs.wikiPath,
    override: (config) => {
      if (inputs.captureMode) config.capture.mode = inputs.captureMode;
    },
  });
  const settings = effectiveSettings(inputs, workspace.config);
  const triggers = { triggerLabel: settings.triggerLabel, command: settings.command };
  const work: Work = inputs.mode === 'auto' ? workForEvent(eventName, payload, triggers) : workForMode(inputs.mode, eventName, payload, triggers);
  core.info(`wiki-steward: ${work.kind}${work.kind === 'skip' ? ` (${work.reason})` : ''} for ${eventName || 'no event'}`);

  if (work.kind === 'skip') return;
  if (work.kind === 'validate') return validateCheckout(workspace, workspaceDir, payload.pull_request?.base?.sha);

  if (!inputs.token) throw new Error("no GitHub token: pass 'github-token' (default: ${{ github.token }})");
  const repository = env.GITHUB_REPOSITORY ?? '';
  const [owner, repo] = repository.split('/');
  if (!owner || !repo) throw new Error(`GITHUB_REPOSITORY must be owner/repo, got '${repository}'`);
  const github = createGitHubClient(inputs.token, env);
  if (work.kind === 'maintain') {
    // Maintain first; a validation failure afterwards does not undo it.
    const maintained = await maintainWiki(github, new RepoWrites(inputs.dryRun), { owner, repo }, workspace, env.GITHUB_SHA);
    core.info(
      `maintain: ${maintained.indexFiles.length} stale index files${maintained.committed ? ` committed (${maintained.committed.slice(0, 7)})` : maintained.pullRequestUrl ? ` proposed in ${maintained.pullRequestUrl}` : ''}; capture PRs rebuilt: ${maintained.refreshedCaptures.map((n) => `#${n}`).join(', ') || 'none'}; left for a person: ${maintained.humanEdited.map((n) => `#${n}`).join(', ') || 'none'}`,
    );
    core.setOutput('pull-request-url', maintained.pullRequestUrl ?? '');
    const handled = maintained.committed || maintained.pullRequestUrl ? new Set(maintained.indexFiles) : new Set<string>();
    return validateCheckout(workspace, workspaceDir, undefined, handled);
  }
  if (work.kind === 'digest') {
    const config = workspace.config;
    // A scheduled run early in a period (the usual Monday-morning schedule) reports the period that
    // just ended, which would otherwise never get its final update; a manual run updates the current one.
    // WIKI_STEWARD_NOW pins the clock for tests; nobody sets it in a workflow.
    const now = env.WIKI_STEWARD_NOW ? new Date(env.WIKI_STEWARD_NOW) : new Date();
    const current = periodOf(config.digest.period, now);
    const period = eventName === 'schedule' && now.getTime() - current.start.getTime() < DAY_MS ? previousPeriod(current) : current;
    const health = workspace.wikiRoot ? await wikiHealth(await openWikiLayout(workspace.wikiRoot, config), { now, staleDays: config.digest.staleDays }) : undefined;
    const digest = await runDigest(github, new RepoWrites(inputs.dryRun, config.digest.maxWrites), { owner, repo }, period, config, health, now);
    await core.summary.addRaw(digest.markdown, true).write();
    core.setOutput('comment-url', digest.issueUrl ?? '');
    return;
  }
  if (work.kind === 'capture-closed') {
    const serverUrl = (env.GITHUB_SERVER_URL ?? 'https://github.com').replace(/\/$/, '');
    const reply = await handleClosedCapture(github, new RepoWrites(inputs.dryRun), { owner, repo }, work.pull, serverUrl);
    core.setOutput('comment-url', reply ?? '');
    return;
  }
  const result: AnswerResult = await answerQuestion({ github, repo: { owner, repo }, inputs, settings, env, workspace, sender: payload.sender }, work.question);
  core.setOutput('ladder-branch', result.branch ?? '');
  core.setOutput('outcome', result.outcome ?? '');
  core.setOutput('comment-url', result.commentUrl ?? '');
  core.setOutput('pull-request-url', result.pullRequestUrl ?? '');
}

function readEvent(eventPath: string | undefined): EventPayload {
  if (!eventPath || !existsSync(eventPath)) return {};
  return JSON.parse(readFileSync(eventPath, 'utf8')) as EventPayload;
}

/** An explicit mode runs that work whatever the event, still reading the question from it. */
function workForMode(mode: Exclude<ReturnType<typeof readInputs>['mode'], 'auto'>, eventName: string, payload: EventPayload, triggers: { triggerLabel: string; command: string }): Work {
  if (mode !== 'answer') return { kind: mode };
  const work = workForEvent(eventName, payload, triggers);
  return work.kind === 'answer' ? work : { kind: 'skip', reason: `mode 'answer' but the ${eventName || 'missing'} event holds no question` };
}
