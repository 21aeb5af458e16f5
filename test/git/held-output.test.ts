// A git command run through simple-git is done when git exits, even when a program git ran for it
// (here the repository's fsmonitor hook, which `status` runs) leaves a process behind that holds
// git's stderr open: `ask` must not wait for that process.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { GitCommandManager } from '../../src/git/git-command-manager.js';
import { TempDirs, createRepo } from '../helpers/git-repo.js';

const dirs = new TempDirs();
const leftBehind: string[] = [];
afterEach(async () => {
  for (const pidFile of leftBehind.splice(0)) {
    if (!existsSync(pidFile)) continue;
    for (const pid of readFileSync(pidFile, 'utf8').split('\n').filter(Boolean)) {
      try {
        process.kill(Number(pid));
      } catch {
        // Already gone.
      }
    }
  }
  await dirs.cleanup();
});

it('headState resolves while a process the fsmonitor hook left behind still holds git’s stderr', { timeout: 60_000 }, async () => {
  const repo = await createRepo(dirs, { 'wiki/a.md': 'a\n' });
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'first', '--no-verify');
  const pidFile = path.join(repo.root, '.git', 'left-behind.pid');
  leftBehind.push(pidFile);
  const hook = path.join(repo.root, '.git', 'fsmonitor-hook');
  // A hook that starts a helper in the background (its stdout away from git's capture, its stderr
  // inherited, as a daemon started without redirecting it would) and says it knows nothing: git
  // then compares every file itself.
  writeFileSync(hook, `#!/bin/sh\nsleep 600 >/dev/null &\necho $! >> '${pidFile}'\nexit 1\n`);
  chmodSync(hook, 0o755);
  repo.git('config', 'core.fsmonitor', hook);
  repo.write({ 'wiki/a.md': 'edited\n' });

  const state = await new GitCommandManager(path.join(repo.root, 'wiki')).headState();
  expect(state.changed).toEqual(new Set(['a.md']));
  // The helper is still running: git is done, its helper is not.
  expect(existsSync(pidFile)).toBe(true);
});
