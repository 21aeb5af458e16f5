// A git process that cannot start (no file descriptors left for its pipes) is a failed call the
// caller sees, not an unhandled error that ends the whole process: the hook then reports it.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/cli.js';
import { TempDirs, createRepo, isolatedGitEnv } from '../helpers/git-repo.js';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

describe('git processes that cannot start', () => {
  it('reject the call when the process has no file descriptors left for their pipes', async () => {
    const dir = await dirs.make('ws-no-descriptors-');
    const script = path.join(dir, 'git-without-descriptors.mjs');
    const banner = { js: "import { createRequire as __wsCreateRequire } from 'node:module'; const require = __wsCreateRequire(import.meta.url);" };
    await build({
      absWorkingDir: PROJECT_ROOT,
      entryPoints: ['test/helpers/git-without-descriptors.ts'],
      outfile: script,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      banner,
      logLevel: 'warning',
    });
    const repo = await createRepo(dirs);
    // A low limit, so the helper reaches it at once.
    const r = spawnSync('sh', ['-c', `ulimit -n 256 && exec "${process.execPath}" "${script}"`], { cwd: repo.root, env: isolatedGitEnv(), encoding: 'utf8' });
    expect(r.stderr).not.toContain('Unhandled');
    expect(r.stdout.trim()).toBe('rejected: EMFILE');
    expect(r.status).toBe(0);
  });
});
