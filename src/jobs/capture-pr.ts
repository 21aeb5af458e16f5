// The capture pull request, from opening to closing the loop: one branch per question
// (`wiki-steward/capture/<issue>`, follow-ups `-c<comment-id>`), one commit built through the Git
// Data API with no custom author or committer (so GitHub signs it as verified); re-runs update the
// same PR, a branch a human has pushed to is left alone, a PR another merge left behind is rebuilt
// on the new base by the same commit step (when it closes: capture-closed.ts).
// A failure half-way leaves nothing behind: no branch without its PR. Two runs of the same question
// at once (a re-run while the first still runs) end with one branch and one PR: the run that loses
// the race to create them stops, its twin finishes the work (TwinRunError).
// Titles and bodies go out through the text write helpers (mentions and markers neutralised); the
// steward's marker is the PR body's trailer, and the last marker in a body is the one that counts.
import { type CapturePlan, captureFiles } from '../capture/capture-plan.js';
import { type Workspace, repoPathOf, wikiPathOf } from '../config/workspace.js';
import type { WikiTree } from '../wiki/tree.js';
import type { Trace } from '../answer/trace.js';
import type { Question } from './question.js';
import type { GitHubClient } from '../github/octokit.js';
import type { RepoRef } from '../github/octokit.js';
import { GitHubWriteError, type RepoWrites } from '../github/repo-writes.js';
import { QUOTED_QUESTION_LIMIT } from '../github/answer-comment.js';
import { commitFiles, refSha, setBranch } from '../github/git-data.js';
import type { StewardIdentity } from '../github/identity.js';
import { BODY_LIMIT, type StewardText, fitVisible } from '../github/posted-text.js';
import { createComment, createPull, updatePull } from '../github/writes-text.js';
import { boundedList, clip } from '../markdown/bound.js';
import { inlineCode } from '../markdown/code.js';
import { inertText } from '../markdown/inert.js';

export const CAPTURE_BRANCH_PREFIX = 'wiki-steward/capture/';
const CAPTURE_MARKER = /<!-- wiki-steward:capture key=([\w-]+) issue=(\d+) page=(\S+) commit=([0-9a-f]{40}) -->/g;
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

/** The last capture marker of a PR body (the steward's trailer), and where it stands. */
function lastCaptureMarker(body: string): { marker: CaptureMarker; index: number; length: number } | undefined {
  const m = [...body.matchAll(CAPTURE_MARKER)].at(-1);
  if (!m) return undefined;
  // The body is text anyone with write access can edit: a page that does not decode is no marker.
  let page: string;
  try {
    page = decodeURIComponent(m[3]!);
  } catch {
    return undefined;
  }
  return { marker: { key: m[1]!, issueNumber: Number(m[2]), page, commit: m[4]! }, index: m.index, length: m[0].length };
}

export function readCaptureMarker(body: string | null | undefined): CaptureMarker | undefined {
  return lastCaptureMarker(body ?? '')?.marker;
}

/** The PR body with its marker pointing at a new steward commit (after a rebuild on a new base). */
export function rewriteCaptureMarker(body: string, commit: string): StewardText {
  const found = lastCaptureMarker(body);
  if (!found) return { text: body };
  const text = `${body.slice(0, found.index)}${body.slice(found.index + found.length)}`.trimEnd();
  return { text, markers: [markerText({ ...found.marker, commit })] };
}

const markerText = (m: CaptureMarker): string =>
  `<!-- wiki-steward:capture key=${m.key} issue=${m.issueNumber} page=${encodeURIComponent(m.page)} commit=${m.commit} -->`;

/** This run lost the race to create the capture branch or PR to a twin run of the same question. */
export class TwinRunError extends Error {
  constructor(readonly branch: string) {
    super(`another run of this question got there first (it created ${branch}); that run opens the pull request and posts the answer`);
    this.name = 'TwinRunError';
  }
}

/** GitHub's 422 for a ref or a pull request that a concurrent run has just created. */
const alreadyCreated = (error: unknown): boolean =>
  error instanceof GitHubWriteError && error.status === 422 && /Reference already exists|A pull request already exists/i.test(error.reason);

/**
 * The token may not open the capture: the repository forbids Actions pull requests, or the job's
 * permissions do not let its token write contents or pull requests. The asker still gets the
 * answer; the step then fails with what to change.
 */
export class CaptureRefusedError extends Error {}

/** The refusal `error` is, said as what to change, or undefined for any other fault. */
function captureRefusal(error: unknown): CaptureRefusedError | undefined {
  const message = (error as Error).message ?? '';
  if (/not permitted to create or approve pull requests/i.test(message))
    return new CaptureRefusedError(
      "GitHub Actions may not create pull requests in this repository: turn on 'Allow GitHub Actions to create and approve pull requests' " +
        '(Settings → Actions → General → Workflow permissions), or pass a GitHub App or fine-grained token as github-token',
    );
  if (error instanceof GitHubWriteError && error.status === 403 && /Resource not accessible by integration/i.test(error.reason))
    return new CaptureRefusedError(
      `the workflow's token may not ${error.describe}: give the job \`contents: write\` and \`pull-requests: write\`, ` +
        'or set the input `capture-pull-requests: false` to answer only',
    );
  return undefined;
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
  { status: 'opened' | 'updated'; url: string; number: number; branch: string } | { status: 'human-edited'; url: string; number: number; branch: string };

/** Terms named in "What was missing", and the characters of each. */
const MISSING_TERMS = 25;
const TERM_CHARS = 200;

/** The PR body within GitHub's limit: everything whole but the answer, which is cut (with a note) to the room the rest leaves. */
function prBody(o: CapturePrOptions, marker: CaptureMarker): StewardText {
  const q = o.trace.question.length > QUOTED_QUESTION_LIMIT ? `${o.trace.question.slice(0, QUOTED_QUESTION_LIMIT)}…` : o.trace.question;
  const missed = o.trace.outcome === 'cold' ? 'had no page for' : 'covered only part of';
  const startsWiki = o.plan.bootstrap ? ' and starts the wiki (`schema.md`, `index.md`)' : '';
  const withIndexes = o.plan.files.size > 1 ? ' with its regenerated index files' : '';
  const missing = boundedList(
    o.trace.missing.map((m) => inlineCode(clip(m, TERM_CHARS))),
    MISSING_TERMS,
  );
  const markers = [markerText(marker)];
  const text = fitVisible(
    [
      [
        o.question.place.kind === 'discussion'
          ? `Captures the gap from discussion #${o.question.issueNumber} (${o.question.place.url}).`
          : `Captures the gap from #${o.question.issueNumber}.`,
        '',
        `The wiki ${missed} this question, so this adds \`${marker.page}\`${startsWiki}${withIndexes}. ` +
          'Edit it into a real page, set `rated_by: human` when you have checked it, and merge.',
        '',
        '### Question',
        '',
        // The asker's words, as the capture page has them: no HTML, no images.
        ...q.split('\n').map((l) => `> ${inertText(l)}`),
        '',
        '### The answer given',
      ].join('\n'),
      { flexible: o.answer, what: 'Answer' },
      `What was missing: ${missing.length > 0 ? missing.join(', ') : 'a full answer'}.`,
    ],
    BODY_LIMIT - markers.reduce((n, m) => n + m.length + 1, 0),
  );
  return { text, markers };
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
  const commit = await writeCaptureBranch(github, writes, repo, {
    branch,
    exists: branchSha !== undefined,
    baseSha,
    files: o.plan.files,
    wikiPrefix: o.wikiPrefix,
    message: `wiki: capture "${o.plan.path}" from #${o.question.issueNumber}`,
  }).catch((error: unknown) => {
    // The branch appeared between the look-up above and its creation: a twin run made it.
    throw alreadyCreated(error) ? new TwinRunError(branch) : (captureRefusal(error) ?? error);
  });

  const marker: CaptureMarker = { key: o.question.key, issueNumber: o.question.issueNumber, page, commit };
  const title = `wiki: capture "${o.trace.question.split('\n')[0]!.slice(0, TITLE_LIMIT - 20)}"`;
  const body = prBody(o, marker);
  try {
    if (open) {
      await updatePull(github, writes, repo, open.number, { title, body });
      return { status: 'updated', url: open.html_url, number: open.number, branch };
    }
    const created = await createPull(github, writes, repo, { title, head: branch, base, body, draft: o.draft });
    if (o.labels.length > 0) {
      await writes.run(
        `POST /repos/${repo.owner}/${repo.repo}/issues/${created.number}/labels (${o.labels.join(', ')})`,
        () => github.rest.issues.addLabels({ ...repo, issue_number: created.number, labels: o.labels }),
        undefined,
      );
    }
    if (o.reviewers.length > 0) {
      await writes.run(
        `POST /repos/${repo.owner}/${repo.repo}/pulls/${created.number}/requested_reviewers`,
        () => github.rest.pulls.requestReviewers({ ...repo, pull_number: created.number, reviewers: o.reviewers }),
        undefined,
      );
    }
    return { status: 'opened', url: created.html_url, number: created.number, branch };
  } catch (error) {
    // A twin opened the pull request on this branch first: the branch is its now, and the work is done.
    if (alreadyCreated(error)) throw new TwinRunError(branch);
    if (!branchSha) await deleteBranch(github, writes, repo, branch).catch(() => undefined);
    throw captureRefusal(error) ?? error;
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
export async function rebuildCapturePrs(
  github: GitHubClient,
  writes: RepoWrites,
  repo: RepoRef,
  o: { base: string; baseSha: string; tree: WikiTree; workspace: Workspace; identity: () => Promise<StewardIdentity> },
): Promise<CaptureRebuilds> {
  const result: CaptureRebuilds = { refreshed: [], humanEdited: [] };
  const pulls = await github.paginate(github.rest.pulls.list, { ...repo, state: 'open', base: o.base, per_page: 100 });
  // Only the steward's own capture PRs, from this repository: anyone can open a PR (from a fork
  // too) whose branch is named like a capture branch and whose body carries a forged marker.
  const fullName = `${repo.owner}/${repo.repo}`.toLowerCase();
  const named = pulls.filter((p) => p.head.ref.startsWith(CAPTURE_BRANCH_PREFIX) && p.head.repo?.full_name?.toLowerCase() === fullName);
  if (named.length === 0) return result;
  const identity = await o.identity();
  for (const pull of named.filter((p) => identity.owns(p.user))) {
    const marker = readCaptureMarker(pull.body);
    if (!marker) continue;
    const branchSha = await refSha(github, repo, pull.head.ref);
    if (!branchSha) continue;
    const parent = (await github.rest.git.getCommit({ ...repo, commit_sha: branchSha })).data.parents[0]?.sha;
    if (parent === o.baseSha) continue;
    if (branchSha !== marker.commit) {
      result.humanEdited.push(pull.number);
      const comments = await github.paginate(github.rest.issues.listComments, { ...repo, issue_number: pull.number, per_page: 100 });
      // Its own notice only: a marker in anyone else's comment must not silence it.
      if (!comments.some((c) => identity.owns(c.user) && (c.body ?? '').trimEnd().endsWith(NEEDS_REBASE))) {
        const text =
          `${o.base} has moved on and this branch has commits from a person, so wiki-steward leaves it alone: ` +
          'it needs a rebase (and `wiki-steward index`) before merging.';
        await createComment(github, writes, repo, pull.number, { text, markers: [NEEDS_REBASE] }, 'needs a rebase');
      }
      continue;
    }
    const page = await github.rest.repos.getContent({ ...repo, path: marker.page, ref: pull.head.ref });
    const content = 'content' in page.data && typeof page.data.content === 'string' ? Buffer.from(page.data.content, 'base64').toString('utf8') : undefined;
    const wikiPage = wikiPathOf(o.workspace, marker.page);
    if (content === undefined || wikiPage === undefined) continue;
    const files = await captureFiles(o.tree, o.workspace.config, wikiPage, content);
    const commit = await writeCaptureBranch(github, writes, repo, {
      branch: pull.head.ref,
      exists: true,
      baseSha: o.baseSha,
      files,
      wikiPrefix: o.workspace.wikiPrefix,
      message: `wiki: capture "${wikiPage}" rebuilt on ${o.base}`,
    });
    const body = rewriteCaptureMarker(pull.body ?? '', commit);
    await updatePull(github, writes, repo, pull.number, { body }, 'marker');
    result.refreshed.push(pull.number);
  }
  return result;
}

export async function deleteBranch(github: GitHubClient, writes: RepoWrites, repo: RepoRef, branch: string): Promise<void> {
  await writes.run(
    `DELETE /repos/${repo.owner}/${repo.repo}/git/refs/heads/${branch}`,
    async () => {
      await github.rest.git.deleteRef({ ...repo, ref: `heads/${branch}` }).catch((e: { status?: number }) => {
        if (e.status !== 422 && e.status !== 404) throw e;
      });
    },
    undefined,
  );
}
