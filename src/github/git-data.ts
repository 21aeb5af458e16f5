// Commits through the Git Data API: blobs, one tree on the base commit's tree, one commit with no
// custom author or committer (GitHub then signs it as verified). Shared by capture pull requests
// and index maintenance.
import type { GitHubClient } from './octokit.js';
import type { RepoRef } from './octokit.js';
import type { RepoWrites } from './repo-writes.js';

const NO_SHA = '0'.repeat(40);

export async function refSha(github: GitHubClient, repo: RepoRef, branch: string): Promise<string | undefined> {
  return github.rest.git.getRef({ ...repo, ref: `heads/${branch}` }).then(
    (r) => r.data.object.sha,
    (e: { status?: number }) => {
      if (e.status === 404) return undefined;
      throw e;
    },
  );
}

/**
 * One commit on top of `baseSha` that writes `files` (repository-relative paths). File contents go
 * inline in the tree request (GitHub makes the blobs), so a commit costs three writes, not one per
 * file: writes are spaced a second apart, as GitHub asks.
 */
export async function commitFiles(
  github: GitHubClient,
  writes: RepoWrites,
  repo: RepoRef,
  baseSha: string,
  files: ReadonlyArray<{ path: string; content: string }>,
  message: string,
): Promise<string> {
  const where = `/repos/${repo.owner}/${repo.repo}/git`;
  const baseTree = (await github.rest.git.getCommit({ ...repo, commit_sha: baseSha })).data.tree.sha;
  const tree = files.map((file) => ({ path: file.path, mode: '100644' as const, type: 'blob' as const, content: file.content }));
  const treeSha = await writes.run(
    `POST ${where}/trees (${files.map((f) => f.path).join(', ')})`,
    async () => (await github.rest.git.createTree({ ...repo, base_tree: baseTree, tree })).data.sha,
    NO_SHA,
  );
  return writes.run(
    `POST ${where}/commits (${message})`,
    async () => (await github.rest.git.createCommit({ ...repo, message, tree: treeSha, parents: [baseSha] })).data.sha,
    NO_SHA,
  );
}

/** Points `branch` at `sha`, creating it when absent; `force` rewrites a branch the steward owns. */
export async function setBranch(
  github: GitHubClient,
  writes: RepoWrites,
  repo: RepoRef,
  branch: string,
  sha: string,
  exists: boolean,
  force: boolean,
): Promise<void> {
  const where = `/repos/${repo.owner}/${repo.repo}/git/refs`;
  if (exists) await writes.run(`PATCH ${where}/heads/${branch}`, () => github.rest.git.updateRef({ ...repo, ref: `heads/${branch}`, sha, force }), undefined);
  else await writes.run(`POST ${where} (refs/heads/${branch})`, () => github.rest.git.createRef({ ...repo, ref: `refs/heads/${branch}`, sha }), undefined);
}
