// Deleting or renaming a file other pages link to (or cite as a source) breaks those pages although
// none of them is staged: the hook finds them in the staged tree and blocks the commit, naming each
// page and line, as it does for broken links in staged pages. Each test starts from a copy of the
// linked repository, prepared once for the file (see wikiRepoTemplate).
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-in-process.js';
import { type GitRepo, TempDirs, run } from '../helpers/git-repo.js';
import { lineOfField, wikiPage } from '../helpers/wiki-pages.js';
import { wikiRepoTemplate } from '../helpers/wiki-repo.js';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

const TARGET = 'concepts/retry-budgets.md';

/** A page with extra body text after what wikiPage writes. */
const pageWith = (spec: Parameters<typeof wikiPage>[0], extra: string): string => `${wikiPage(spec)}\n${extra}\n`;
const lineOf = (text: string, needle: string): number => {
  const index = text.split('\n').findIndex((l) => l.includes(needle));
  if (index < 0) throw new Error(`no line with ${needle}`);
  return index + 1;
};

// Three pages link to the target, each its own way; a fourth only mentions it in code.
const backoff = pageWith({ category: 'concepts', title: 'Backoff' }, 'Spend [the budget](retry-budgets.md) first. Also [gone](nowhere.md).');
const throttling = pageWith({ category: 'concepts', title: 'Throttling' }, 'See [limits](../retry-budgets.md#limits).');
const memcached = pageWith(
  { category: 'entities', title: 'Memcached' },
  'Not a link: `[x](/concepts/retry-budgets.md)`.\n\n```\n[y](../concepts/retry-budgets.md)\n```',
);
const sourced = wikiPage({ category: 'concepts', title: 'Sourced', sources: ['raw/article.md'] });
const redis = () => wikiPage({ category: 'entities', title: 'Redis', links: ['concepts/retry-budgets.md'] });

/** The sample wiki and the pages above, committed with fresh indexes, the hook installed by the built CLI. */
const linked = wikiRepoTemplate({
  hooks: true,
  files: {
    'concepts/backoff.md': backoff,
    'concepts/ops/throttling.md': throttling,
    'entities/memcached.md': memcached,
    'concepts/sourced.md': sourced,
    'raw/article.md': '# An article\n',
  },
});
afterAll(() => linked.cleanup());

const linkedWikiRepo = (): Promise<GitRepo> => linked.copy(dirs);

/** `wiki-steward index --check` (in-process) on a fresh clone of HEAD: 0 means every committed index file is fresh. */
async function committedIndexesAreFresh(repo: GitRepo): Promise<number> {
  const clone = path.join(await dirs.make('ws-clone-'), 'clone');
  const cloned = run('git', ['clone', '--quiet', repo.root, clone], path.dirname(clone));
  if (cloned.status !== 0) throw new Error(cloned.stderr);
  return (await runCli(['index', '--check'], clone)).code;
}

const seeAlsoLine = (text: string, target: string) => text.split('\n').indexOf(`- [${target}](/${target})`) + 1;

describe('deleting a page others link to', () => {
  it('git rm of a page three pages link to is blocked, naming each linking page and line', async () => {
    const repo = await linkedWikiRepo();
    repo.git('rm', '--quiet', TARGET);
    const head = repo.head();
    const indexes = ['index.md', 'concepts/_index.md'].map((p) => repo.read(p));

    const commit = repo.commit('drop retry budgets');
    expect(commit.status).not.toBe(0);
    expect(repo.head()).toBe(head);
    const deleted = `this commit deletes ${TARGET}`;
    expect(commit.stderr).toContain(`concepts/backoff.md:${lineOf(backoff, '(retry-budgets.md)')}: broken markdown link: retry-budgets.md (${deleted})`);
    expect(commit.stderr).toContain(
      `concepts/ops/throttling.md:${lineOf(throttling, '../retry-budgets.md')}: broken markdown link: ../retry-budgets.md#limits (${deleted})`,
    );
    expect(commit.stderr).toContain(`entities/redis.md:${seeAlsoLine(redis(), TARGET)}: broken markdown link: /${TARGET} (${deleted})`);
    expect(commit.stderr).toContain('commit blocked');
    // Only what the deletion breaks: no code-only mention, no older fault of a page nobody staged.
    expect(commit.stderr).not.toContain('memcached');
    expect(commit.stderr).not.toContain('nowhere.md');
    // No index work behind the writer's back.
    expect(repo.stagedPaths()).toEqual([TARGET]);
    expect(['index.md', 'concepts/_index.md'].map((p) => repo.read(p))).toEqual(indexes);
  });

  it('the same deletion through git commit --all (removed from the work tree only) is blocked', async () => {
    const repo = await linkedWikiRepo();
    repo.remove(TARGET);
    const head = repo.head();
    const commit = repo.commit('drop retry budgets', '--all');
    expect(commit.status).not.toBe(0);
    expect(commit.stderr).toContain(`concepts/backoff.md:${lineOf(backoff, '(retry-budgets.md)')}: broken markdown link`);
    expect(repo.head()).toBe(head);
  });

  it('a rename that leaves the links behind is blocked, naming where the page went', async () => {
    const repo = await linkedWikiRepo();
    repo.git('mv', TARGET, 'concepts/retry-allowances.md');
    const commit = repo.commit('rename retry budgets');
    expect(commit.status).not.toBe(0);
    expect(commit.stderr).toContain(
      `concepts/ops/throttling.md:${lineOf(throttling, '../retry-budgets.md')}: broken markdown link: ../retry-budgets.md#limits (this commit moves ${TARGET} to concepts/retry-allowances.md)`,
    );
  });

  it('a rename with every link updated commits, with fresh indexes', async () => {
    const repo = await linkedWikiRepo();
    repo.git('mv', TARGET, 'concepts/retry-allowances.md');
    repo.write({
      // Staged now, so validated whole: its old link to nowhere.md goes too.
      'concepts/backoff.md': backoff.replace('(retry-budgets.md)', '(retry-allowances.md)').replace(' Also [gone](nowhere.md).', ''),
      'concepts/ops/throttling.md': throttling.replace('../retry-budgets.md', '../retry-allowances.md'),
      'entities/redis.md': wikiPage({ category: 'entities', title: 'Redis', links: ['concepts/retry-allowances.md'] }),
    });
    repo.git('add', 'concepts/backoff.md', 'concepts/ops/throttling.md', 'entities/redis.md');

    const commit = repo.commit('rename retry budgets');
    expect(commit.status, commit.stderr).toBe(0);
    expect(repo.committedPaths()).toContain('concepts/retry-allowances.md');
    expect(await committedIndexesAreFresh(repo)).toBe(0);
    expect(repo.git('status', '--porcelain')).toBe('');
  });

  it('deleting pages that only link to each other commits', async () => {
    const repo = await linkedWikiRepo();
    // cache-warming ↔ lease-renewal; redis is linked only from cache-warming.
    repo.git('rm', '--quiet', 'concepts/cache-warming.md', 'concepts/ops/lease-renewal.md');
    const commit = repo.commit('drop the pair');
    expect(commit.status, commit.stderr).toBe(0);
    expect(await committedIndexesAreFresh(repo)).toBe(0);
  });

  it('deleting a file a page cites in sources is blocked at that page’s sources line', async () => {
    const repo = await linkedWikiRepo();
    repo.git('rm', '--quiet', 'raw/article.md');
    const commit = repo.commit('drop the article');
    expect(commit.status).not.toBe(0);
    expect(commit.stderr).toContain(`concepts/sourced.md:${lineOfField(sourced, 'sources')}: sources entry does not exist in the wiki: raw/article.md`);
    expect(commit.stderr).toContain('this commit deletes raw/article.md');
  });

  it('deleting a whole folder others link into is blocked', async () => {
    const repo = await linkedWikiRepo();
    // cache-warming links to concepts/ops/lease-renewal.md.
    repo.git('rm', '--quiet', '-r', 'concepts/ops');
    const commit = repo.commit('drop ops');
    expect(commit.status).not.toBe(0);
    const cacheWarming = wikiPage({ category: 'concepts', title: 'Cache Warming', links: ['concepts/ops/lease-renewal.md', 'entities/redis.md'] });
    expect(commit.stderr).toContain(
      `concepts/cache-warming.md:${seeAlsoLine(cacheWarming, 'concepts/ops/lease-renewal.md')}: broken markdown link: /concepts/ops/lease-renewal.md`,
    );
  });
});
