// The capture pull request, from opening to closing the loop: one branch per question
// (`wiki-steward/capture/<issue>`, follow-ups `-c<comment-id>`), one commit built through the Git
// Data API with no custom author or committer (so GitHub signs it as verified); re-runs update the
// same PR, a branch a human has pushed to is left alone, a PR another merge left behind is rebuilt
// on the new base by the same commit step, and when it closes the asker hears what happened.
// A failure half-way leaves nothing behind: no branch without its PR.
import { type CapturePlan, captureFiles } from '../capture/capture-plan.js';
import { type Workspace, repoPathOf, wikiPathOf } from '../config/workspace.js';
import type { WikiTree } from '../wiki/tree.js';
import type { Reporter } from './reporter.js';
import type { Trace } from '../answer/trace.js';
import type { ClosedCapture, Question } from './question.js';
import type { GitHubClient } from '../github/octokit.js';
import type { RepoRef } from '../github/octokit.js';
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

  const page = repoPathOf(o, o.plan.path);
  const commit = await writeCaptureBranch(github, writes, repo, { branch, exists: branchSha !== undefined, baseSha, files: o.plan.files, wikiPrefix: o.wikiPrefix, message: `wiki: capture "${o.plan.path}" from #${o.question.issueNumber}` });

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

/**
 * The one commit step of a capture branch, for opening and rebuilding alike: the files (wiki-relative)
 * committed on the current base, the branch force-moved to it, so it always merges cleanly.
 */
async function writeCaptureBranch(
  github: GitHubClient,
  writes: RepoWrites,
  repo: RepoRef,
  o: { branch: string; exists: boolean; baseSha: string; files: ReadonlyMap<string, string>; wikiPrefix: string; message: string },
): Promise<string> {
  const files = [...o.files].map(([file, content]) => ({ path: repoPathOf(o, file), content }));
  const commit = await commitFiles(github, writes, repo, o.baseSha, files, o.message);
  await setBranch(github, writes, repo, o.branch, commit, o.exists, true);
  return commit;
}

const NEEDS_REBASE = '<!-- wiki-steward:needs-rebase -->';

export interface CaptureRebuilds {
  refreshed: number[];
  /** Capture PRs a person pushed to: told they need a rebase, left alone. */
  humanEdited: number[];
}

/**
 * Capture pull requests that another merge left behind (their branch no longer starts from the
 * base): each rebuilt on the new base, its capture page as it stands on the branch with freshly
 * planned index files, unless a person has pushed to it (then one "needs a rebase" comment).
 */
export async function rebuildCapturePrs(github: GitHubClient, writes: RepoWrites, repo: RepoRef, o: { base: string; baseSha: string; tree: WikiTree; workspace: Workspace }): Promise<CaptureRebuilds> {
  const result: CaptureRebuilds = { refreshed: [], humanEdited: [] };
  const pulls = await github.paginate(github.rest.pulls.list, { ...repo, state: 'open', base: o.base, per_page: 100 });
  for (const pull of pulls.filter((p) => p.head.ref.startsWith(CAPTURE_BRANCH_PREFIX))) {
    const marker = readCaptureMarker(pull.body);
    if (!marker) continue;
    const branchSha = await refSha(github, repo, pull.head.ref);
    if (!branchSha) continue;
    const parent = (await github.rest.git.getCommit({ ...repo, commit_sha: branchSha })).data.parents[0]?.sha;
    if (parent === o.baseSha) continue;
    if (branchSha !== marker.commit) {
      result.humanEdited.push(pull.number);
      const comments = await github.paginate(github.rest.issues.listComments, { ...repo, issue_number: pull.number, per_page: 100 });
      if (!comments.some((c) => (c.body ?? '').includes(NEEDS_REBASE))) {
        await writes.run(`POST /repos/${repo.owner}/${repo.repo}/issues/${pull.number}/comments (needs a rebase)`, () =>
          github.rest.issues.createComment({ ...repo, issue_number: pull.number, body: `${o.base} has moved on and this branch has commits from a person, so wiki-steward leaves it alone: it needs a rebase (and \`wiki-steward index\`) before merging.\n${NEEDS_REBASE}` }),
        undefined);
      }
      continue;
    }
    const page = await github.rest.repos.getContent({ ...repo, path: marker.page, ref: pull.head.ref });
    const content = 'content' in page.data && typeof page.data.content === 'string' ? Buffer.from(page.data.content, 'base64').toString('utf8') : undefined;
    const wikiPage = wikiPathOf(o.workspace, marker.page);
    if (content === undefined || wikiPage === undefined) continue;
    const files = await captureFiles(o.tree, o.workspace.config, wikiPage, content);
    const commit = await writeCaptureBranch(github, writes, repo, { branch: pull.head.ref, exists: true, baseSha: o.baseSha, files, wikiPrefix: o.workspace.wikiPrefix, message: `wiki: capture "${wikiPage}" rebuilt on ${o.base}` });
    const body = rewriteCaptureMarker(pull.body ?? '', commit);
    await writes.run(`PATCH /repos/${repo.owner}/${repo.repo}/pulls/${pull.number} (marker)`, () => github.rest.pulls.update({ ...repo, pull_number: pull.number, body }), undefined);
    result.refreshed.push(pull.number);
  }
  return result;
}

const closedMarker = (pr: number) => `<!-- wiki-steward:capture-closed pr=${pr} -->`;

export async function handleClosedCapture(github: GitHubClient, writes: RepoWrites, repo: RepoRef, pull: ClosedCapture, serverUrl: string, reporter: Reporter): Promise<string | undefined> {
  const marker = readCaptureMarker(pull.body);
  await deleteBranch(github, writes, repo, pull.branch);
  if (!marker) {
    reporter.info(`Capture PR #${pull.number} has no steward marker: branch deleted, nothing to reply.`);
    return undefined;
  }
  const body = pull.merged
    ? `The capture page for this question is in the wiki: [\`${marker.page}\`](${serverUrl}/${repo.owner}/${repo.repo}/blob/${pull.mergeCommitSha ?? 'HEAD'}/${marker.page.split('/').map(encodeURIComponent).join('/')}) was merged in #${pull.number}. It records the question as asked and still open: once a reviewer writes the answer on that page and deletes its \`captured_by\` line, the wiki covers it and asking again is answered from it.`
    : `The capture pull request #${pull.number} was closed without merging, so the wiki still does not cover this question.`;
  // A re-run of the same event must not reply twice.
  const comments = await github.paginate(github.rest.issues.listComments, { ...repo, issue_number: marker.issueNumber, per_page: 100 });
  if (comments.some((c) => c.user?.type === 'Bot' && (c.body ?? '').includes(closedMarker(pull.number)))) return undefined;
  return writes.run(
    `POST /repos/${repo.owner}/${repo.repo}/issues/${marker.issueNumber}/comments (capture #${pull.number} ${pull.merged ? 'merged' : 'closed'})`,
    async () => (await github.rest.issues.createComment({ ...repo, issue_number: marker.issueNumber, body: `${body}\n${closedMarker(pull.number)}` })).data.html_url,
    '',
  );
}

export async function deleteBranch(github: GitHubClient, writes: RepoWrites, repo: RepoRef, branch: string): Promise<void> {
  await writes.run(`DELETE /repos/${repo.owner}/${repo.repo}/git/refs/heads/${branch}`, async () => {
    await github.rest.git.deleteRef({ ...repo, ref: `heads/${branch}` }).catch((e: { status?: number }) => {
      if (e.status !== 422 && e.status !== 404) throw e;
    });
  }, undefined);
}
