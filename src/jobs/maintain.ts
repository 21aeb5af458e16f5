// Maintain mode (push to the default branch): stale index files are regenerated and committed in
// one Git Data API commit — or, on a protected branch, proposed in one "refresh wiki indexes" pull
// request — and open capture pull requests that another merge left behind (stale or conflicting)
// are rebuilt on the new base, unless a person has pushed to them (then the PR is told it needs a
// rebase).
import { type Workspace, repoPathOf } from '../config/workspace.js';
import { outdatedIndexFiles, planIndexFiles } from '../wiki/index-files.js';
import { workspaceIndexProvenance } from '../wiki/index-provenance.js';
import { layoutOf } from '../wiki/open.js';
import { loadFileTree } from '../wiki/tree.js';
import { rebuildCapturePrs } from './capture-pr.js';
import type { Reporter } from './reporter.js';
import { commitFiles, refSha, setBranch } from '../github/git-data.js';
import type { StewardIdentity } from '../github/identity.js';
import type { GitHubClient } from '../github/octokit.js';
import type { RepoRef } from '../github/octokit.js';
import type { RepoWrites } from '../github/repo-writes.js';
import { createPull, updatePull } from '../github/writes-text.js';

export const REFRESH_BRANCH = 'wiki-steward/refresh-indexes';

export interface MaintainResult {
  indexFiles: string[];
  committed?: string;
  pullRequestUrl?: string;
  refreshedCaptures: number[];
  humanEdited: number[];
}

export async function maintainWiki(
  github: GitHubClient,
  writes: RepoWrites,
  repo: RepoRef,
  workspace: Workspace,
  checkedOutSha: string | undefined,
  reporter: Reporter,
  identity: () => Promise<StewardIdentity>,
): Promise<MaintainResult> {
  const result: MaintainResult = { indexFiles: [], refreshedCaptures: [], humanEdited: [] };
  if (!workspace.wikiRoot) return result;
  const inRepo = (p: string) => repoPathOf(workspace, p);
  const { data: repository } = await github.rest.repos.get({ owner: repo.owner, repo: repo.repo });
  const base = repository.default_branch;
  const baseSha = (await refSha(github, repo, base))!;
  const tree = await loadFileTree(workspace.wikiRoot);

  // 1. Index files, from the checkout — only when it is still the branch's head, so nothing newer is undone.
  // A generated file a person has edited is theirs (see index-provenance.ts): never committed over.
  const stale = outdatedIndexFiles(
    await planIndexFiles(layoutOf(tree, workspace.config), { policy: workspace.config.indexes, provenance: workspaceIndexProvenance(workspace) }),
  );
  result.indexFiles = stale.map((p) => p.path);
  if (stale.length > 0 && checkedOutSha && checkedOutSha !== baseSha) {
    reporter.notice(`${base} moved on since this checkout (${checkedOutSha.slice(0, 7)} → ${baseSha.slice(0, 7)}); the next run refreshes the index files`);
  } else if (stale.length > 0) {
    const files = stale.map((p) => ({ path: inRepo(p.path), content: p.expected }));
    const message = `wiki: refresh ${stale.length} index file${stale.length === 1 ? '' : 's'}`;
    const commit = await commitFiles(github, writes, repo, baseSha, files, message);
    try {
      await setBranch(github, writes, repo, base, commit, true, false);
      result.committed = commit;
    } catch (error) {
      const message = (error as Error).message;
      const movedOn = /not a fast.forward/i.test(message);
      // A protected branch refuses direct pushes: propose the same commit instead. Anything else fails the step.
      if (!movedOn && !/protected branch|through a pull request|HTTP 403/i.test(message)) throw error;
      if (movedOn) reporter.notice(`${base} moved on while the index files were being refreshed; the next run refreshes them`);
      else await proposeIndexRefresh(commit);
    }
  }

  async function proposeIndexRefresh(commit: string): Promise<void> {
    reporter.info(`cannot update ${base} directly; opening a pull request instead`);
    await setBranch(github, writes, repo, REFRESH_BRANCH, commit, (await refSha(github, repo, REFRESH_BRANCH)) !== undefined, true);
    const open = (await github.rest.pulls.list({ ...repo, state: 'open', head: `${repo.owner}:${REFRESH_BRANCH}`, per_page: 1 })).data[0];
    const staleList = stale.map((p) => `- \`${inRepo(p.path)}\``).join('\n');
    const body = `The index files below are stale after recent merges; this regenerates them exactly as \`wiki-steward index\` would.\n\n${staleList}`;
    if (open) {
      await updatePull(github, writes, repo, open.number, { body });
      result.pullRequestUrl = open.html_url;
    } else result.pullRequestUrl = (await createPull(github, writes, repo, { title: 'wiki: refresh wiki indexes', head: REFRESH_BRANCH, base, body })).html_url;
  }

  // 2. Capture pull requests left behind by other merges: rebuilt on the new base.
  const rebuilt = await rebuildCapturePrs(github, writes, repo, { base, baseSha, tree, workspace, identity });
  result.refreshedCaptures = rebuilt.refreshed;
  result.humanEdited = rebuilt.humanEdited;
  return result;
}
