// The capture pull request: one branch per question (`wiki-steward/capture/<issue>`, follow-ups
// `-c<comment-id>`), one commit built through the Git Data API with no custom author or committer
// (so GitHub signs it as verified), re-runs update the same PR, and a branch a human has pushed to
// is left alone. A failure half-way leaves nothing behind: no branch without its PR.
import type { CapturePlan } from '../capture/capture-plan.js';
import type { Trace } from '../answer/trace.js';
import type { Question } from '../action/event.js';
import type { GitHubClient } from '../github/octokit.js';
import type { RepoRef } from '../github/permission-helper.js';
import type { RepoWrites } from '../github/repo-writes.js';
import { commitFiles, refSha, setBranch } from '../github/git-data.js';
import { neutralizeMentions } from '../github/answer-comment.js';

export const CAPTURE_BRANCH_PREFIX = 'wiki-steward/capture/';
const CAPTURE_MARKER = /<!-- wiki-steward:capture key=([\w-]+) issue=(\d+) page=(\S+) commit=([0-9a-f]{40}) -->/;
const TITLE_LIMIT = 200;

export const captureBranch = (q: Pick<Question, 'issueNumber' | 'commentId'>): string =>
  `${CAPTURE_BRANCH_PREFIX}${q.issueNumber}${q.commentId !== undefined ? `-c${q.commentId}` : ''}`;

export interface CaptureMarker {
  key: string;
  issueNumber: number;
  /** The capture file, repository-relative. */
  page: string;
  /** The commit the steward last wrote to the branch. */
  commit: string;
}

export function readCaptureMarker(body: string | null | undefined): CaptureMarker | undefined {
  const m = CAPTURE_MARKER.exec(body ?? '');
  return m ? { key: m[1]!, issueNumber: Number(m[2]), page: decodeURIComponent(m[3]!), commit: m[4]! } : undefined;
}

/** The PR body with its marker pointing at a new steward commit (after a rebuild on a new base). */
export function rewriteCaptureMarker(body: string, commit: string): string {
  const marker = readCaptureMarker(body);
  return marker ? body.replace(CAPTURE_MARKER, markerText({ ...marker, commit })) : body;
}

const markerText = (m: CaptureMarker): string => `<!-- wiki-steward:capture key=${m.key} issue=${m.issueNumber} page=${encodeURIComponent(m.page)} commit=${m.commit} -->`;

export class PullRequestsForbiddenError extends Error {
  constructor() {
    super(
      "GitHub Actions may not create pull requests in this repository: turn on 'Allow GitHub Actions to create and approve pull requests' (Settings → Actions → General → Workflow permissions), or pass a GitHub App or fine-grained token as github-token",
    );
  }
}

export interface CapturePrOptions {
  github: GitHubClient;
  writes: RepoWrites;
  repo: RepoRef;
  question: Question;
  trace: Trace;
  plan: CapturePlan;
  /** Repository-relative folder of the wiki ('' when the wiki is the repository). */
  wikiPrefix: string;
  labels: string[];
  reviewers: string[];
  draft: boolean;
  /** The answer, rendered with permalinks, for the PR body. */
  answer: string;
}

export type CapturePrResult =
  | { status: 'opened' | 'updated'; url: string; number: number; branch: string }
  | { status: 'human-edited'; url: string; number: number; branch: string };

const repoPath = (prefix: string, file: string) => (prefix ? `${prefix}/${file}` : file);

function prBody(o: CapturePrOptions, marker: CaptureMarker): string {
  const q = o.trace.question.length > 2000 ? `${o.trace.question.slice(0, 2000)}…` : o.trace.question;
  return [
    `Captures the gap from #${o.question.issueNumber}.`,
    '',
    `The wiki ${o.trace.outcome === 'cold' ? 'had no page for' : 'covered only part of'} this question, so this adds \`${marker.page}\`${o.plan.bootstrap ? ' and starts the wiki (`schema.md`, `index.md`)' : ''}${o.plan.files.size > 1 ? ' with its regenerated index files' : ''}. Edit it into a real page, set \`rated_by: human\` when you have checked it, and merge.`,
    '',
    '### Question',
    '',
    ...neutralizeMentions(q).split('\n').map((l) => `> ${l}`),
    '',
    '### The answer given',
    '',
    neutralizeMentions(o.answer),
    '',
    `What was missing: ${o.trace.missing.length > 0 ? o.trace.missing.map((m) => `\`${neutralizeMentions(m).replaceAll('`', "'")}\``).join(', ') : 'a full answer'}.`,
    '',
    markerText(marker),
  ].join('\n');
}

export async function openCapturePr(o: CapturePrOptions): Promise<CapturePrResult> {
  const { github, writes, repo } = o;
  const branch = captureBranch(o.question);
  const { data: repository } = await github.rest.repos.get({ owner: repo.owner, repo: repo.repo });
  const base = repository.default_branch;
  const baseSha = (await refSha(github, repo, base))!;
  const branchSha = await refSha(github, repo, branch);
  const open = (await github.rest.pulls.list({ ...repo, state: 'open', head: `${repo.owner}:${branch}`, per_page: 10 })).data[0];
  const previous = readCaptureMarker(open?.body);
  if (branchSha && open && previous && previous.commit !== branchSha) {
    return { status: 'human-edited', url: open.html_url, number: open.number, branch };
  }

  const page = repoPath(o.wikiPrefix, o.plan.path);
  const files = [...o.plan.files].map(([file, content]) => ({ path: repoPath(o.wikiPrefix, file), content }));
  const commit = await commitFiles(github, writes, repo, baseSha, files, `wiki: capture "${o.plan.path}" from #${o.question.issueNumber}`);
  // Our own branch is rebuilt on the current base each time, so it always merges cleanly.
  await setBranch(github, writes, repo, branch, commit, branchSha !== undefined, true);

  const marker: CaptureMarker = { key: o.question.key, issueNumber: o.question.issueNumber, page, commit };
  const title = `wiki: capture "${o.trace.question.split('\n')[0]!.slice(0, TITLE_LIMIT - 20)}"`;
  const body = prBody(o, marker);
  try {
    if (open) {
      await writes.run(`PATCH /repos/${repo.owner}/${repo.repo}/pulls/${open.number}`, () => github.rest.pulls.update({ ...repo, pull_number: open.number, title, body }), undefined);
      return { status: 'updated', url: open.html_url, number: open.number, branch };
    }
    const created = await writes.run(
      `POST /repos/${repo.owner}/${repo.repo}/pulls (${branch} → ${base})`,
      async () => {
        const { data } = await github.rest.pulls.create({ ...repo, title, head: branch, base, body, draft: o.draft });
        return { html_url: data.html_url, number: data.number };
      },
      { html_url: '', number: 0 },
    );
    if (o.labels.length > 0) {
      await writes.run(`POST /repos/${repo.owner}/${repo.repo}/issues/${created.number}/labels (${o.labels.join(', ')})`, () => github.rest.issues.addLabels({ ...repo, issue_number: created.number, labels: o.labels }), undefined);
    }
    if (o.reviewers.length > 0) {
      await writes.run(`POST /repos/${repo.owner}/${repo.repo}/pulls/${created.number}/requested_reviewers`, () => github.rest.pulls.requestReviewers({ ...repo, pull_number: created.number, reviewers: o.reviewers }), undefined);
    }
    return { status: 'opened', url: created.html_url, number: created.number, branch };
  } catch (error) {
    if (!branchSha) await deleteBranch(github, writes, repo, branch).catch(() => undefined);
    if (/not permitted to create or approve pull requests/i.test((error as Error).message)) throw new PullRequestsForbiddenError();
    throw error;
  }
}

export async function deleteBranch(github: GitHubClient, writes: RepoWrites, repo: RepoRef, branch: string): Promise<void> {
  await writes.run(`DELETE /repos/${repo.owner}/${repo.repo}/git/refs/heads/${branch}`, async () => {
    await github.rest.git.deleteRef({ ...repo, ref: `heads/${branch}` }).catch((e: { status?: number }) => {
      if (e.status !== 422 && e.status !== 404) throw e;
    });
  }, undefined);
}
