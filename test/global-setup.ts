// Builds dist/cli.js once before any test file runs, so tests can spawn the real CLI.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

export default function setup(): void {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: projectRoot, encoding: 'utf8' });
  if (build.status !== 0) {
    throw new Error(`node scripts/build.mjs failed (exit ${build.status ?? build.signal}):\n${build.stdout}${build.stderr}`);
  }
}
