// GitCommandManager.headState over real repositories: HEAD's commit, the files that differ from
// it, and the repository's places, from one rev-parse beside one status, before the first commit too.
import { mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GitCommandManager } from '../../src/git/git-command-manager.js';
import { TempDirs, createRepo } from '../helpers/git-repo.js';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

describe('headState', () => {
  it('gives the places before the first commit, and the commit and changed files after it, relative to a subfolder', async () => {
    const repo = await createRepo(dirs, { 'wiki/a.md': 'a\n', 'wiki/b.md': 'b\n', 'top.md': 'top\n' });
    const top = realpathSync(repo.root);
    const places = { top, gitDir: path.join(top, '.git') };
    const wiki = path.join(repo.root, 'wiki');
    expect(await new GitCommandManager(wiki).headState()).toEqual({ commit: undefined, changed: new Set(), places });
    repo.git('add', '-A');
    repo.git('-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-qm', 'first', '--no-verify');
    repo.write({ 'wiki/a.md': 'edited\n', 'wiki/c.md': 'new\n', 'top.md': 'edited\n' });
    const state = await new GitCommandManager(wiki).headState();
    expect(state).toEqual({ commit: repo.git('rev-parse', 'HEAD').trim(), changed: new Set(['a.md', 'c.md']), places });
  });

  it('gives nothing outside a repository', async () => {
    const folder = await dirs.make('ws-no-repo-');
    mkdirSync(path.join(folder, 'wiki'));
    expect(await new GitCommandManager(path.join(folder, 'wiki')).headState()).toEqual({ commit: undefined, changed: new Set(), places: undefined });
  });
});
