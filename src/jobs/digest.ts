// Digest mode (schedule / workflow_dispatch) and `wiki-steward digest --repo`: read back the
// steward's answer comments (their trace JSON and reactions) and the capture pull requests for
// one period, add the wiki's health, and keep one issue per period — created, then updated in
// place. Reads are paginated (100 a page); writes stay within the run's budget.
import { readCaptureMarker } from './capture-pr.js';
import { traceFromComment } from '../github/answer-comment.js';
import type { StewardConfig } from '../config/config.js';
import { type AnswerRecord, type CaptureRecord, type DigestReport, buildDigest, renderDigest } from '../digest/digest-report.js';
import { type Period, inPeriod } from '../digest/period.js';
import { wikiHealth } from '../digest/wiki-health.js';
import type { Workspace } from '../config/workspace.js';
import { openWikiLayout } from '../wiki/open.js';
import type { GitHubClient } from '../github/octokit.js';
import type { RepoRef } from '../github/octokit.js';
import type { RepoWrites } from '../github/repo-writes.js';
import { type StewardIdentity, identitySource } from '../github/identity.js';
import { createIssue, updateIssueBody } from '../github/writes-text.js';

export const digestTitle = (period: Period): string => `wiki-steward digest ${period.label}`;

/**
 * The period's answers (the trace trailing each of the steward's own answer comments: comments by
 * anyone else, and traces anywhere else in a comment, do not count) and capture pull requests.
 */
export async function readRepoActivity(
  github: GitHubClient,
  repo: RepoRef,
  period: Period,
  config: StewardConfig,
  identity: StewardIdentity,
): Promise<{ answers: AnswerRecord[]; captures: CaptureRecord[] }> {
  const comments = await github.paginate(github.rest.issues.listCommentsForRepo, { ...repo, since: period.start.toISOString(), per_page: 100 });
  const answers: AnswerRecord[] = [];
  for (const c of comments) {
    if (!identity.owns(c.user) || !inPeriod(period, c.created_at)) continue;
    const trace = traceFromComment(c.body ?? '');
    if (!trace) continue;
    const issueNumber = Number(/\/issues\/(\d+)$/.exec(c.issue_url)?.[1] ?? 0);
    answers.push({ trace, issueNumber, url: c.html_url, createdAt: c.created_at, reactions: { up: c.reactions?.['+1'] ?? 0, down: c.reactions?.['-1'] ?? 0 } });
  }
  const items = await github.paginate(github.rest.issues.listForRepo, { ...repo, labels: config.labels.capture, state: 'all', per_page: 100 });
  const captures: CaptureRecord[] = items
    .filter((i) => i.pull_request)
    .map((i) => {
      const marker = readCaptureMarker(i.body);
      return {
        number: i.number,
        title: i.title,
        url: i.html_url,
        createdAt: i.created_at,
        mergedAt: i.pull_request?.merged_at ?? null,
        state: i.state === 'open' ? 'open' : 'closed',
        ...(marker ? { issueNumber: marker.issueNumber } : {}),
      };
    });
  return { answers, captures };
}

export interface DigestRun {
  report: DigestReport;
  markdown: string;
  issueUrl?: string;
}

/**
 * The period's digest, for the Action and `wiki-steward digest`: the wiki's health and, with a
 * client, the repository's answers and captures; posted (created, then updated in place) when
 * `writes` is given.
 */
export async function runDigest(
  workspace: Workspace,
  o: {
    github?: GitHubClient | undefined;
    writes?: RepoWrites | undefined;
    repo?: RepoRef | undefined;
    period: Period;
    now: Date;
    /** The steward's identity (default: asked of GitHub for the client's token, plus `ask.steward_logins`). */
    identity?: (() => Promise<StewardIdentity>) | undefined;
  },
): Promise<DigestRun> {
  const { github, writes, repo, period, now } = o;
  const config = workspace.config;
  const health = workspace.wikiRoot
    ? await wikiHealth(await openWikiLayout(workspace.wikiRoot, config), { now, staleDays: config.digest.staleDays, rules: config.validate })
    : undefined;
  const identity = github ? (o.identity ?? identitySource(github, config.ask.stewardLogins)) : undefined;
  const activity = github && repo && identity ? await readRepoActivity(github, repo, period, config, await identity()) : { answers: [], captures: [] };
  const report = buildDigest({ period, now, ...activity, health });
  const title = digestTitle(period);
  const markdown = renderDigest(report, title);
  if (!github || !writes || !repo) return { report, markdown };
  const existing = (await github.paginate(github.rest.issues.listForRepo, { ...repo, labels: config.labels.digest, state: 'all', per_page: 100 })).find(
    (i) => !i.pull_request && i.title === title,
  );
  // Every list and field of the report is bounded (renderDigest); the write bounds the whole body too.
  if (existing) {
    await updateIssueBody(github, writes, repo, existing.number, markdown, title);
    return { report, markdown, issueUrl: existing.html_url };
  }
  const url = await createIssue(github, writes, repo, { title, body: markdown, labels: [config.labels.digest] });
  return { report, markdown, issueUrl: url };
}
