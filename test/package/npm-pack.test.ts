// The package as users get it: `npm pack` the project, install the tarball into an empty folder
// with `npm ci --offline`, and run the `wiki-steward` bin through npx.
//
// Offline needs no registry metadata when the folder has a complete lockfile: npm ci then fetches
// every tarball by its integrity from npm's cache, which the project's own `npm ci` has just filled.
// That lockfile is derived from ours: the tarball, plus our lockfile's production entries at the
// same paths (the tree npm already resolved and installed for the project).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/cli.js';
import { type RunResult, TempDirs, isolatedGitEnv, openRepo } from '../helpers/git-repo.js';
import { sampleWiki, wikiPage } from '../helpers/wiki-pages.js';

/** Kills an npm that hangs (vitest cannot interrupt a synchronous spawn): far above any run on a loaded machine, never a measure. */
const NPM_HANG_GUARD_MS = 240_000;
const dirs = new TempDirs();

/**
 * npm with the test's isolated environment, minus the npm_* variables a parent `npm test` exports
 * (npm_config_local_prefix and friends would point npm back at the project); the cache stays.
 */
function npm(command: 'npm' | 'npx', args: readonly string[], cwd: string): RunResult {
  const env = isolatedGitEnv();
  const keep = new Set(['npm_config_cache', 'npm_config_userconfig', 'npm_config_globalconfig', 'npm_config_registry']);
  for (const key of Object.keys(env)) if (/^npm_/i.test(key) && !keep.has(key.toLowerCase())) delete env[key];
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: NPM_HANG_GUARD_MS });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const must = (what: string, r: RunResult): RunResult => {
  if (r.status !== 0) throw new Error(`${what} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r;
};

interface LockEntry {
  dev?: boolean;
  devOptional?: boolean;
  [field: string]: unknown;
}

/**
 * Where the registry serves a locked package. Lockfiles written with omit-lockfile-registry-resolved
 * leave it out, and npm then asks the registry's metadata for it, which offline it cannot.
 */
function registryTarballUrl(lockKey: string, entry: LockEntry): string {
  const name = (entry.name as string | undefined) ?? lockKey.slice(lockKey.lastIndexOf('node_modules/') + 'node_modules/'.length);
  const registry = (process.env.npm_config_registry ?? 'https://registry.npmjs.org/').replace(/\/?$/, '/');
  return `${registry}${name}/-/${name.split('/').pop()}-${entry.version as string}.tgz`;
}

/** A project that depends on the tarball only, with a lockfile npm ci can install offline. */
function writeInstallProject(dir: string, tarball: string): void {
  const ours = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  const ourLock = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const spec = `file:${path.relative(dir, tarball)}`;
  // Our overrides come along: the lockfile holds the versions they chose.
  const manifest = { name: 'pack-test', version: '1.0.0', private: true, dependencies: { 'wiki-steward': spec }, overrides: ours.overrides };
  const production = Object.entries(ourLock.packages)
    .filter(([key, entry]) => key.startsWith('node_modules/') && !entry.dev && !entry.devOptional)
    .map(([key, entry]) => [key, { ...entry, resolved: entry.resolved ?? registryTarballUrl(key, entry) }] as const);
  const lock = {
    name: manifest.name,
    version: manifest.version,
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: manifest.name, version: manifest.version, dependencies: manifest.dependencies },
      'node_modules/wiki-steward': {
        version: ours.version,
        resolved: spec,
        integrity: `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`,
        license: ours.license,
        dependencies: ours.dependencies,
        bin: ours.bin,
        engines: ours.engines,
      },
      ...Object.fromEntries(production),
    },
  };
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(path.join(dir, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
}

const writeFiles = (root: string, files: Record<string, string>) => openRepo(root).write(files);

describe('the packed npm package', () => {
  let installDir = '';
  let tarball = '';

  beforeAll(async () => {
    const packDir = await dirs.make('ws-pack-');
    // dist/ was built by test/global-setup.ts. --ignore-scripts skips the prepack rebuild, which
    // deletes dist/ first and would pull the CLI from under test files running in parallel.
    const packed = must('npm pack', npm('npm', ['pack', '--pack-destination', packDir, '--ignore-scripts', '--json'], PROJECT_ROOT));
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    tarball = path.join(packDir, info!.filename);
    expect(info!.files.map((f) => f.path)).toContain('dist/cli.js');

    installDir = await dirs.make('ws-install-');
    writeInstallProject(installDir, tarball);
    must(
      "npm ci --offline (the tarballs must be in npm's cache: run `npm ci` in the project first)",
      npm('npm', ['ci', '--offline', '--no-audit', '--no-fund'], installDir),
    );
  });

  afterAll(() => dirs.cleanup());

  it('installs the tarball as a dependency with a wiki-steward bin', () => {
    const manifest = JSON.parse(readFileSync(path.join(installDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(manifest.dependencies['wiki-steward']).toMatch(/wiki-steward-.*\.tgz$/);
    const installed = JSON.parse(readFileSync(path.join(installDir, 'node_modules/wiki-steward/package.json'), 'utf8')) as { name: string };
    expect(installed.name).toBe('wiki-steward');
  });

  it('npx --no-install wiki-steward --help exits 0 and lists validate, index and hooks', () => {
    const help = npx(['--help']);
    expect(help.status, help.stderr).toBe(0);
    for (const command of ['validate', 'index', 'hooks']) expect(help.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
  });

  it('npx --no-install wiki-steward validate --wiki <valid wiki> exits 0; an invalid page makes it exit 1', async () => {
    const wiki = await dirs.make('ws-valid-wiki-');
    writeFiles(wiki, sampleWiki());
    const valid = npx(['validate', '--wiki', wiki]);
    expect(valid.status, valid.stdout + valid.stderr).toBe(0);
    expect(valid.stderr).toContain('4 pages checked: 0 errors');

    writeFiles(wiki, { 'concepts/broken.md': wikiPage({ category: 'concepts', title: 'Broken', created: '2026-04-24' }) });
    const invalid = npx(['validate', '--wiki', wiki]);
    expect(invalid.status).toBe(1);
    expect(invalid.stdout).toContain('broken.md');
  });

  it('the installed CLI installs a pre-commit hook that runs it by path on real commits', () => {
    // The install folder doubles as a project repository with a wiki in wiki/.
    const repo = openRepo(installDir);
    repo.git('init', '--quiet', '--initial-branch=main');
    writeFiles(installDir, { '.gitignore': 'node_modules/\n', ...Object.fromEntries(Object.entries(sampleWiki()).map(([p, t]) => [`wiki/${p}`, t])) });
    must('wiki-steward index', npx(['index']));
    repo.git('add', '--all');
    repo.git('commit', '--quiet', '-m', 'wiki');

    const installed = npx(['hooks', 'install']);
    expect(installed.status, installed.stderr).toBe(0);
    const script = readFileSync(path.join(installDir, '.git', 'hooks', 'pre-commit'), 'utf8');
    expect(script).not.toMatch(/\bnpx\b/);
    expect(script).toContain('node_modules/wiki-steward/dist/cli.js');

    repo.write({ 'wiki/concepts/broken.md': wikiPage({ category: 'concepts', title: 'Broken', created: '2026-04-24' }) });
    repo.git('add', 'wiki/concepts/broken.md');
    const blocked = repo.commit('broken page');
    expect(blocked.status).not.toBe(0);
    expect(blocked.stderr).toContain('wiki/concepts/broken.md');

    repo.write({ 'wiki/concepts/broken.md': wikiPage({ category: 'concepts', title: 'Fixed' }) });
    repo.git('add', 'wiki/concepts/broken.md');
    const committed = repo.commit('fixed page');
    expect(committed.status, committed.stderr).toBe(0);
    expect(repo.committedPaths()).toContain('wiki/concepts/_index.md');
  });

  const npx = (args: readonly string[]) => npm('npx', ['--no-install', 'wiki-steward', ...args], installDir);
});
