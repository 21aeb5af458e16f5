import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds dist/cli.js once: the hook and package tests run the real built CLI.
    globalSetup: ['test/global-setup.ts'],
    // Tests that spawn git and node processes need more than the 5 s default.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The JSON report lets .ci/run print one plain "N passed, N failed" line at the end.
    reporters: ['default', ['json', { outputFile: '.test-results/vitest.json' }]],
  },
});
