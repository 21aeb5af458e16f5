// `validate --changed-since` and the Action's pull-request validation: only the pages a change
// touches are checked, so a wiki with old faults can adopt the check without fixing them first,
// and the pages a change breaks by deleting or moving what they link to.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, runCli } from '../helpers/cli.js';
import { type GitRepo, TempDirs, createRepo } from '../helpers/git-repo.js';
import { isolatedGitEnv } from '../helpers/git-repo.js';
import { schemaPage, wikiPage } from '../helpers/wiki-pages.js';
import { wikiRepoTemplate } from '../helpers/wiki-repo.js';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());
const bundle = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../action/index.js');

/**
 * main: the wiki (in wiki/) with a page that has an old fault; branch `change` (checked out): a new
 * faulty page and a fine one, indexed. Prepared once for the file; each test gets a copy.
 */
const withOldFault = wikiRepoTemplate({
  wikiDir: 'wiki',
  files: { 'wiki/concepts/old-fault.md': 'no frontmatter here\n' },
  arrange(repo) {
    repo.git('checkout', '--quiet', '-b', 'change');
    repo.write({
      'wiki/concepts/new-fault.md': wikiPage({ category: 'concepts', title: 'New Fault' }).replace(/^created: .*$/m, 'created: 2026-05-01'),
      'wiki/concepts/fine.md': wikiPage({ category: 'concepts', title: 'Fine' }),
    });
    cli(['index'], repo.root);
    repo.git('add', '--all');
    repo.git('commit', '--quiet', '--no-verify', '-m', 'change');
  },
});
afterAll(() => withOldFault.cleanup());

/** main: a target page and two pages linking to it; each test's branch takes the target away. */
const withLinkedTarget = wikiRepoTemplate({
  wikiDir: 'wiki',
  files: {
    'wiki/concepts/target.md': wikiPage({ category: 'concepts', title: 'Target' }),
    'wiki/concepts/first-linker.md': wikiPage({ category: 'concepts', title: 'First Linker', links: ['concepts/target.md'] }),
    'wiki/concepts/second-linker.md': wikiPage({ category: 'concepts', title: 'Second Linker', links: ['concepts/target.md'] }),
  },
});
afterAll(() => withLinkedTarget.cleanup());

/** A copy whose branch `change` runs `git` with these arguments, re-indexes and commits; main is the base. */
async function repoTakingTargetAway(...gitArgs: string[]): Promise<{ repo: GitRepo; base: string }> {
  const repo = await withLinkedTarget.copy(dirs);
  repo.git('checkout', '--quiet', '-b', 'change');
  repo.git(...gitArgs);
  cli(['index'], repo.root);
  repo.git('add', '--all');
  repo.git('commit', '--quiet', '--no-verify', '-m', 'take the target away');
  return { repo, base: repo.git('rev-parse', 'main').trim() };
}

/** The bundled Action on a pull_request event from `change` onto `base`: its output, exit status and summary. */
async function validateAction(repo: GitRepo, base: string): Promise<{ status: number | null; stdout: string; summary: string }> {
  const outside = await dirs.make('ws-event-');
  const event = path.join(outside, 'event.json');
  writeFileSync(event, JSON.stringify({ action: 'synchronize', pull_request: { number: 3, head: { ref: 'change' }, base: { ref: 'main', sha: base } } }));
  const summary = path.join(outside, 'summary.md');
  writeFileSync(summary, '');
  const result = spawnSync(process.execPath, [bundle], {
    encoding: 'utf8',
    env: isolatedGitEnv({
      PATH: process.env.PATH,
      GITHUB_WORKSPACE: repo.root,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: event,
      GITHUB_STEP_SUMMARY: summary,
    }),
  });
  return { status: result.status, stdout: result.stdout, summary: readFileSync(summary, 'utf8') };
}

async function repoWithOldFault(): Promise<{ repo: GitRepo; base: string }> {
  const repo = await withOldFault.copy(dirs);
  return { repo, base: repo.git('rev-parse', 'main').trim() };
}

describe('validate --changed-since', () => {
  it('checks only the pages changed since the base, old faults aside', async () => {
    const { repo, base } = await repoWithOldFault();
    const whole = runCli(['validate'], repo.root);
    expect(whole.stdout).toContain('old-fault.md');
    const changed = runCli(['validate', '--changed-since', base], repo.root);
    expect(changed.status).toBe(1);
    expect(changed.stdout).toContain('wiki/concepts/new-fault.md:');
    expect(changed.stdout).not.toContain('old-fault.md');
    expect(changed.stderr).toContain('2 pages checked');
  });
});

describe('action: validate on a pull request', () => {
  it('annotates the changed pages on the right lines and fails the check; the summary lists every fault', async () => {
    const { repo, base } = await repoWithOldFault();
    const result = await validateAction(repo, base);
    expect(result.status).toBe(1);
    const createdLine =
      repo
        .read('wiki/concepts/new-fault.md')
        .split('\n')
        .findIndex((l) => l.startsWith('created:')) + 1;
    expect(result.stdout).toContain(`::error title=wiki-steward timestamps,file=wiki/concepts/new-fault.md,line=${createdLine}::`);
    expect(result.stdout).not.toContain('old-fault.md');
    expect(result.summary).toContain('2 changed pages checked in `wiki`: 1 error');
  });

  it('reports stale index files the same way', async () => {
    const { repo, base } = await repoWithOldFault();
    repo.write({ 'wiki/concepts/another.md': wikiPage({ category: 'concepts', title: 'Another' }) });
    repo.git('add', '--all');
    repo.git('commit', '--quiet', '--no-verify', '-m', 'no index update');
    const result = await validateAction(repo, base);
    expect(result.stdout).toContain('file=wiki/concepts/_index.md,line=1::index file is stale');
  });

  it("reports a new folder's missing _index.md beside a hand-written root index.md, as index --check does", async () => {
    const repo = await createRepo(dirs, {
      'wiki/schema.md': schemaPage(['concepts', 'ideas']),
      'wiki/index.md': '# Our wiki\n\nStart with the concepts.\n',
      'wiki/concepts/one.md': wikiPage({ category: 'concepts', title: 'One' }),
    });
    cli(['index'], repo.root);
    repo.git('add', '--all');
    repo.git('commit', '--quiet', '--no-verify', '-m', 'wiki with a hand-written root index');
    const base = repo.git('rev-parse', 'main').trim();
    repo.git('checkout', '--quiet', '-b', 'change');
    repo.write({ 'wiki/ideas/good.md': wikiPage({ category: 'ideas', title: 'Good' }) });
    repo.git('add', '--all');
    repo.git('commit', '--quiet', '--no-verify', '-m', 'no index update');
    expect(runCli(['index', '--check'], repo.root).stdout).toContain('+++ b/ideas/_index.md');
    const result = await validateAction(repo, base);
    expect(result.stdout).toContain('file=wiki/ideas/_index.md,line=1::index file is missing');
    expect(result.stdout).not.toContain('file=wiki/index.md');
  });

  it('fails a pull request that deletes a linked page: the pages linking to it are checked too', async () => {
    const { repo, base } = await repoTakingTargetAway('rm', '--quiet', 'wiki/concepts/target.md');
    const result = await validateAction(repo, base);
    expect(result.status).toBe(1);
    for (const linker of ['first-linker', 'second-linker']) {
      const line =
        repo
          .read(`wiki/concepts/${linker}.md`)
          .split('\n')
          .findIndex((l) => l.includes('(/concepts/target.md)')) + 1;
      expect(result.stdout).toContain(
        `::error title=wiki-steward broken-link,file=wiki/concepts/${linker}.md,line=${line}::broken markdown link: /concepts/target.md (this pull request deletes concepts/target.md)`,
      );
    }
    expect(result.summary).toContain('and 2 pages linking to what it deletes or moves');
  });

  it('names the move when a pull request moves a linked page, on the CLI too', async () => {
    const { repo, base } = await repoTakingTargetAway('mv', 'wiki/concepts/target.md', 'wiki/concepts/moved-target.md');
    const result = await validateAction(repo, base);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('(this pull request moves concepts/target.md to concepts/moved-target.md)');
    const run = runCli(['validate', '--changed-since', base], repo.root);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/wiki\/concepts\/first-linker\.md:\d+: broken markdown link: \/concepts\/target\.md \(this pull request moves/);
    expect(run.stdout).toContain('wiki/concepts/second-linker.md:');
  });
});
