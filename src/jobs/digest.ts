// Digest mode (schedule / workflow_dispatch) and `wiki-steward digest --repo`: read back the
// steward's answer comments (their trace JSON and reactions) and the capture pull requests for
// one period, add the wiki's health, and keep one issue per period — created, then updated in
// place. Reads are paginated (100 a page); writes stay within the run's budget.
//
// The period's issue is the oldest issue the steward opened with the digest label whose body ends
// with the period's marker (`<!-- wiki-steward:digest period=2026-W49 -->`). Two digest runs at
// once (a schedule and a manual run) may both find none and both open one, so a run that opened
// one lists them again and keeps the oldest (the lowest number: GitHub numbers issues in creation
// order); the others are closed as not planned — issues cannot be deleted through the REST API —
// and each run that opened one of them says on it which issue is kept. The kept issue is not
// rewritten: both runs read the same repository a moment apart.
import { readCaptureMarker } from './capture-pr.js';
import { markerKey, traceFromComment } from '../github/answer-comment.js';
import { discussionsSince } from '../github/discussions.js';
import { questionOfKey } from './reviewed-answer.js';
import type { StewardConfig } from '../config/config.js';
import { type AnswerRecord, type AskedIn, type CaptureRecord, type DigestReport, buildDigest, renderDigest } from '../digest/digest-report.js';
import { type Period, inPeriod } from '../digest/period.js';
import { wikiHealth } from '../digest/wiki-health.js';
import type { Workspace } from '../config/workspace.js';
import { openWikiLayout } from '../wiki/open.js';
import type { GitHubClient } from '../github/octokit.js';
import type { RepoRef } from '../github/octokit.js';
import type { RepoWrites } from '../github/repo-writes.js';
import { type StewardIdentity, identitySource } from '../github/identity.js';
import { closeIssueNotPlanned, createComment, createIssue, updateIssueBody } from '../github/writes-text.js';
import { oldestAfterCreating, problemOf } from '../github/twin-runs.js';

export const digestTitle = (period: Period): string => `wiki-steward digest ${period.label}`;

/** The marker a digest issue's body ends with: the period it reports. */
const digestMarker = (period: Period): string => `<!-- wiki-steward:digest period=${period.label} -->`;

/** The period of a digest issue's trailing marker (markers anywhere else do not count: `postable` breaks them). */
function digestPeriodOf(body: string): string | undefined {
  return /(?:^|\r?\n)<!-- wiki-steward:digest period=(\d{4}-(?:W\d{2}|\d{2})) -->\s*$/.exec(body)?.[1];
}

interface DigestIssue {
  number: number;
  url: string;
  open: boolean;
}

/** The period's digest issues: the steward's, with the digest label and the period's marker, oldest first. */
async function digestIssues(github: GitHubClient, repo: RepoRef, label: string, period: Period, identity: StewardIdentity): Promise<DigestIssue[]> {
  const items = await github.paginate(github.rest.issues.listForRepo, { ...repo, labels: label, state: 'all', per_page: 100 });
  return items
    .filter((i) => !i.pull_request && identity.owns(i.user) && digestPeriodOf(i.body ?? '') === period.label)
    .map((i) => ({ number: i.number, url: i.html_url, open: i.state === 'open' }))
    .sort((a, b) => a.number - b.number);
}

/** The answer a comment holds, on an issue or in a discussion alike: one the steward wrote in the period, with the trace in its trailer. */
function answerOf(
  period: Period,
  identity: StewardIdentity,
  c: { user: { login?: string | null } | null | undefined; body: string | undefined; createdAt: string },
): Pick<AnswerRecord, 'trace' | 'questionKey'> | undefined {
  if (!identity.owns(c.user) || !inPeriod(period, c.createdAt)) return undefined;
  const body = c.body ?? '';
  const trace = traceFromComment(body);
  if (!trace) return undefined;
  const key = markerKey(body);
  return { trace, ...(key ? { questionKey: questionOfKey(key) } : {}) };
}

/** Where a capture pull request's question was asked, by its marker's key (`discussion-N`, `discussion-comment-ID`). */
const captureAskedIn = (key: string): AskedIn => (/^discussion-/.test(key) ? 'discussion' : 'issue');

/**
 * The period's answers (the trace trailing each of the steward's own answer comments, on issues
 * and in discussions: comments by anyone else, and traces anywhere else in a comment, do not
 * count) and capture pull requests. A repository with Discussions turned off has no discussion
 * answers (discussionsSince).
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
    const answer = answerOf(period, identity, { user: c.user, body: c.body, createdAt: c.created_at });
    if (!answer) continue;
    const issueNumber = Number(/\/issues\/(\d+)$/.exec(c.issue_url)?.[1] ?? 0);
    const reactions = { up: c.reactions?.['+1'] ?? 0, down: c.reactions?.['-1'] ?? 0 };
    answers.push({ ...answer, where: 'issue', issueNumber, url: c.html_url, createdAt: c.created_at, reactions });
  }
  const discussions = await discussionsSince(github, repo, period.start).catch((error: unknown) => {
    throw new Error(`could not read the repository's discussions (the digest's token needs discussions: read): ${problemOf(error)}`);
  });
  for (const d of discussions) {
    for (const c of d.comments) {
      const answer = answerOf(period, identity, c);
      if (answer) answers.push({ ...answer, where: 'discussion', issueNumber: d.number, url: c.url, createdAt: c.createdAt, reactions: c.reactions });
    }
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
        ...(marker ? { where: captureAskedIn(marker.key), issueNumber: marker.issueNumber } : {}),
      };
    });
  return { answers, captures };
}

export interface DigestRun {
  report: DigestReport;
  markdown: string;
  issueUrl?: string;
  /** Set when another run opened this period's issue too: the one kept, and those closed. */
  converged?: { kept: number; closed: number[] };
  /** Why the run could not check for, or close, a twin run's digest issue (its own is open). */
  problem?: string;
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
  if (!github || !writes || !repo || !identity) return { report, markdown };
  const steward = await identity();
  const label = config.labels.digest;
  const existing = (await digestIssues(github, repo, label, period, steward))[0];
  // Every list and field of the report is bounded (renderDigest); the write bounds the whole body too.
  const body = { text: markdown, markers: [digestMarker(period)] };
  if (existing) {
    await updateIssueBody(github, writes, repo, existing.number, body, title);
    return { report, markdown, issueUrl: existing.url };
  }
  const mine = await createIssue(github, writes, repo, { title, body, labels: [label] });
  // A dry run opened nothing, so there is nothing to converge.
  if (mine.number === 0) return { report, markdown, issueUrl: mine.url };
  try {
    const converged = await convergeDigest(github, writes, repo, { label, period, identity: steward }, { number: mine.number, url: mine.url, open: true });
    return { report, markdown, ...converged };
  } catch (error) {
    return { report, markdown, issueUrl: mine.url, problem: problemOf(error) };
  }
}

/** After opening `mine`: keep the period's oldest digest issue, close the others still open. */
async function convergeDigest(
  github: GitHubClient,
  writes: RepoWrites,
  repo: RepoRef,
  o: { label: string; period: Period; identity: StewardIdentity },
  mine: DigestIssue,
): Promise<Pick<DigestRun, 'issueUrl' | 'converged'>> {
  const { kept, others } = await oldestAfterCreating(
    () => digestIssues(github, repo, o.label, o.period, o.identity),
    mine,
    (i) => i.number,
    'the digest issues',
  );
  if (others.length === 0) return { issueUrl: mine.url };
  const closed: number[] = [];
  for (const other of others) {
    if (other.number === mine.number) {
      // Only the run that opened a duplicate says so on it: a twin closing it too leaves one note, not two.
      const text = `Closed: two digest runs opened an issue for ${o.period.label} at the same time, and the older one, #${kept.number}, is kept.`;
      await createComment(github, writes, repo, mine.number, text, `digest ${o.period.label} kept in #${kept.number}`);
    } else if (!other.open) continue;
    await closeIssueNotPlanned(github, writes, repo, other.number, `digest ${o.period.label} kept in #${kept.number}`);
    closed.push(other.number);
  }
  return { issueUrl: kept.url, converged: { kept: kept.number, closed } };
}

/** What a digest run says about a twin run's issue for the same period (or why it could not look). */
export function digestRaceLines(run: Pick<DigestRun, 'converged' | 'problem'>): Array<{ text: string; warning?: true }> {
  const lines: Array<{ text: string; warning?: true }> = [];
  if (run.problem)
    lines.push({ text: `The digest issue is open, but a twin run's digest issue for the same period may remain beside it: ${run.problem}`, warning: true });
  const c = run.converged;
  if (c) {
    const closed = c.closed.length === 0 ? 'nothing left to close' : `closed ${c.closed.map((n) => `#${n}`).join(', ')} as not planned`;
    lines.push({ text: `Another digest run opened this period's issue at the same time: kept #${c.kept} (the oldest), ${closed}.` });
  }
  return lines;
}
