// Builds dist/ (the CLI as npm installs it) once before any test file runs, so the hook, package and
// built-CLI tests can spawn the real executable. The Action's bundles are committed, and `npm test`
// checks them against a fresh build before vitest starts; the bundle tests run that committed copy.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

export default function setup(): void {
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--cli'], { cwd: projectRoot, encoding: 'utf8' });
  if (build.status !== 0) {
    throw new Error(`node scripts/build.mjs --cli failed (exit ${build.status ?? build.signal}):\n${build.stdout}${build.stderr}`);
  }
}
