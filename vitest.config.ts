import { devNull } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds dist/cli.js once: the hook and package tests run the real built CLI.
    globalSetup: ['test/global-setup.ts'],
    // A safety net, never a measure: a test's outcome must not depend on the machine's speed, so the
    // limit sits far above any test's time on a loaded 2-core machine (`npm run test:loaded`), and
    // only a hang reaches it.
    testTimeout: 300_000,
    // Much test time is spent waiting on spawned git and node processes and on local servers, so
    // more files than cores run at once (vitest's default is cores − 1). Measured on 2 cores with
    // the static checks beside the suite: 3 workers 175 s, 2 workers 184 s, 4 workers 190–198 s
    // (a fourth worker adds its own module graph and makes every spawn fork more memory).
    maxWorkers: 3,
    // Test files share a worker's loaded modules (vitest's `isolate: false`): importing the project
    // afresh for each of ~80 files cost a fifth of the suite's CPU. It is safe because no test
    // changes shared state: none writes process.env or process.cwd() (in-process runs take an env
    // object and a cwd), and spies are undone after every test (`restoreMocks`).
    isolate: false,
    restoreMocks: true,
    // Git run in-process (the CLI and the Action under test) reads no developer's global or system
    // config, as every git a test spawns does (test/helpers/git-repo.ts).
    env: { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: devNull },
    hookTimeout: 300_000,
    // The JSON report lets .ci/run print one plain "N passed, N failed" line at the end.
    reporters: ['default', ['json', { outputFile: '.test-results/vitest.json' }]],
  },
});
