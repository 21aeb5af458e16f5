// `validate --changed-since` and the Action's pull-request validation: only the pages a change
// touches are checked, so a wiki with old faults can adopt the check without fixing them first.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, runCli } from '../helpers/cli.js';
import { type GitRepo, TempDirs } from '../helpers/git-repo.js';
import { isolatedGitEnv } from '../helpers/git-repo.js';
import { wikiPage } from '../helpers/wiki-pages.js';
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
    expect(result.status).toBe(1);
    const createdLine =
      repo
        .read('wiki/concepts/new-fault.md')
        .split('\n')
        .findIndex((l) => l.startsWith('created:')) + 1;
    expect(result.stdout).toContain(`::error title=wiki-steward timestamps,file=wiki/concepts/new-fault.md,line=${createdLine}::`);
    expect(result.stdout).not.toContain('old-fault.md');
    expect(readFileSync(summary, 'utf8')).toContain('2 changed pages checked in `wiki`: 1 error');
  });

  it('reports stale index files the same way', async () => {
    const { repo, base } = await repoWithOldFault();
    repo.write({ 'wiki/concepts/another.md': wikiPage({ category: 'concepts', title: 'Another' }) });
    repo.git('add', '--all');
    repo.git('commit', '--quiet', '--no-verify', '-m', 'no index update');
    const event = path.join(await dirs.make('ws-event-'), 'event.json');
    writeFileSync(event, JSON.stringify({ action: 'synchronize', pull_request: { number: 3, head: { ref: 'change' }, base: { ref: 'main', sha: base } } }));
    const result = spawnSync(process.execPath, [bundle], {
      encoding: 'utf8',
      env: isolatedGitEnv({ PATH: process.env.PATH, GITHUB_WORKSPACE: repo.root, GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: event }),
    });
    expect(result.stdout).toContain('file=wiki/concepts/_index.md,line=1::index file is stale');
  });
});
