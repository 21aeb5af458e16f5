// Index plans over trees git holds share page summaries by path and blob: the hook plans the staged
// tree, then its provenance check plans the last commit and its parent, and a page that is the same
// blob in both is read and summarised once. The plans come out as plans without the sharing give.
import { afterEach, describe, expect, it } from 'vitest';
import { GitCommandManager } from '../../src/git/git-command-manager.js';
import { loadStagedTree } from '../../src/hooks/staged-tree.js';
import { gitBlobTree } from '../../src/wiki/git-tree.js';
import { type BlobSummaries, planIndexFiles } from '../../src/wiki/index-files.js';
import { discoverLayout } from '../../src/wiki/layout.js';
import type { WikiTree } from '../../src/wiki/tree.js';
import { TempDirs, createRepo } from '../helpers/git-repo.js';
import { sampleWiki, wikiPage } from '../helpers/wiki-pages.js';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

/** The tree, with the paths each read asked for noted (the reads themselves are the tree's). */
function noting(tree: WikiTree, read: string[]): WikiTree {
  return { ...tree, readEach: (paths, visit, options) => (read.push(...paths), tree.readEach(paths, visit, options)) };
}

describe('index plans sharing summaries by blob', () => {
  it('reads in the second tree only the page whose blob differs, and plans as without sharing', async () => {
    const repo = await createRepo(dirs, sampleWiki());
    repo.git('add', '--all');
    repo.git('commit', '--quiet', '--no-verify', '-m', 'wiki');
    const edited = 'concepts/retry-budgets.md';
    repo.write({ [edited]: wikiPage({ category: 'concepts', title: 'Retry budgets, renamed' }) });
    repo.git('add', edited);
    const git = new GitCommandManager(repo.root);
    const staged = await loadStagedTree(git, repo.root, '');
    const committed = gitBlobTree(git, repo.root, '', await git.treeEntries('HEAD', ''), 'not in HEAD');

    const summaries: BlobSummaries = new Map();
    const [stagedReads, committedReads] = [[] as string[], [] as string[]];
    const stagedPlans = await planIndexFiles(discoverLayout(noting(staged, stagedReads)), { policy: 'always', summaries });
    const committedPlans = await planIndexFiles(discoverLayout(noting(committed, committedReads)), { policy: 'always', summaries });

    const pagesRead = (reads: string[]) => reads.filter((p) => !p.endsWith('index.md'));
    expect(pagesRead(stagedReads).length).toBeGreaterThan(1);
    expect(pagesRead(committedReads)).toEqual([edited]);
    const alone = async (tree: WikiTree) => [...(await planIndexFiles(discoverLayout(tree), { policy: 'always' }))];
    expect([...stagedPlans]).toEqual(await alone(staged));
    expect([...committedPlans]).toEqual(await alone(committed));
    expect(committedPlans.find((p) => p.path === 'concepts/_index.md')!.expected).not.toContain('renamed');
    expect(stagedPlans.find((p) => p.path === 'concepts/_index.md')!.expected).toContain('renamed');
  });
});
