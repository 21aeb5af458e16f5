// What `npm publish` would upload, from `npm publish --dry-run --json`, and the package metadata
// users and the registry read. Offline and self-contained: --ignore-scripts skips the prepack
// rebuild (it deletes dist/ first, under test files running in parallel; test/global-setup.ts has
// just built it), npm gets an empty cache of its own (the dry run writes the packed tarball into
// its cache) and `offline`, so it never reaches a registry: npm 11's dry run otherwise asks the
// registry for the package's published versions.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/cli.js';

interface Packed {
  name: string;
  version: string;
  filename: string;
  files: Array<{ path: string; size: number; mode: number }>;
}
interface Manifest {
  name: string;
  version: string;
  license: string;
  description: string;
  engines: { node: string };
  bin: Record<string, string>;
  files: string[];
  repository: { type: string; url: string };
  homepage: string;
  bugs: { url: string };
  keywords: string[];
  publishConfig?: Record<string, unknown>;
  private?: boolean;
}

const manifest = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as Manifest;
let cache = '';
let packed: Packed;
let paths: string[] = [];

beforeAll(() => {
  cache = mkdtempSync(path.join(os.tmpdir(), 'ws-npm-cache-'));
  // A parent `npm test` exports npm_* variables (npm_config_local_prefix, npm_config_dry_run…);
  // the npm below must read only this project's own settings. Outside GitHub's OIDC, so npm 11's
  // trusted-publishing probe has nothing to find even when this suite runs in a workflow.
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) && !/^npm_config_(userconfig|globalconfig|registry)$/i.test(key)) continue;
    if (/^(ACTIONS_ID_TOKEN_REQUEST_|NPM_ID_TOKEN$|NODE_AUTH_TOKEN$|GITHUB_ACTIONS$)/.test(key)) continue;
    env[key] = value;
  }
  const r = spawnSync('npm', ['publish', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: PROJECT_ROOT,
    env: {
      ...env,
      npm_config_cache: cache,
      npm_config_offline: 'true',
      npm_config_update_notifier: 'false',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
    },
    encoding: 'utf8',
    // A hang guard only (vitest cannot interrupt a synchronous spawn): far above any run on a loaded machine.
    timeout: 240_000,
  });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`npm publish --dry-run exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  // npm 11 keys the report by package name; npm 10 printed the report itself.
  const report = JSON.parse(r.stdout) as Packed | Record<string, Packed>;
  packed = 'files' in report ? (report as Packed) : (report as Record<string, Packed>)[manifest.name]!;
  paths = packed.files.map((f) => f.path);
});

afterAll(() => {
  if (cache) rmSync(cache, { recursive: true, force: true });
});

describe('npm publish --dry-run', () => {
  it("publishes wiki-steward at package.json's version", () => {
    expect(packed.name).toBe('wiki-steward');
    expect(packed.version).toBe(manifest.version);
    expect(manifest.private).toBeUndefined();
  });

  it('ships the CLI, package.json, README.md, LICENSE and CHANGELOG.md', () => {
    expect(paths).toEqual(expect.arrayContaining(['dist/cli.js', 'package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']));
  });

  it('ships nothing but those and dist/: no sources, tests, fixtures, benchmarks, eval banks, Action bundle or tarballs', () => {
    const allowed = new Set(['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']);
    expect(paths.filter((p) => !allowed.has(p) && !p.startsWith('dist/'))).toEqual([]);
    for (const prefix of ['test/', 'src/', '.bench/', 'bench/', 'eval/', 'action/', 'examples/', 'scripts/', 'node_modules/', '.github/', '.ci/']) {
      expect(
        paths.filter((p) => p.startsWith(prefix)),
        prefix,
      ).toEqual([]);
    }
    expect(paths.filter((p) => /\.(tgz|ts|map)$/.test(p) && !p.endsWith('.d.ts'))).toEqual([]);
  });

  it('every module dist/ imports is in the package', () => {
    const shipped = new Set(paths);
    for (const file of paths.filter((p) => p.endsWith('.js'))) {
      const text = readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
      // As esbuild writes them, in double quotes: the JSDoc types in bundled packages' comments
      // (`{import('./cache').Entry}`) are not imports.
      for (const [, spec] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)"(\.{1,2}\/[^"]+)"/g)) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec!));
        expect(shipped.has(target), `${file} imports ${spec} (missing: was dist/ rebuilt by another test run just now? rerun)`).toBe(true);
      }
    }
  });

  it('bin.wiki-steward points at a shipped, executable node script', () => {
    const bin = manifest.bin['wiki-steward'];
    expect(bin).toBeDefined();
    const target = path.posix.normalize(bin!);
    expect(paths).toContain(target);
    const entry = packed.files.find((f) => f.path === target)!;
    expect(entry.mode & 0o111, `${target} mode ${entry.mode.toString(8)}`).not.toBe(0);
    expect(readFileSync(path.join(PROJECT_ROOT, target), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
  });
});

describe('package.json metadata', () => {
  it('engines.node is >=20, the oldest Node the CLI is built and tested for', () => {
    expect(manifest.engines.node).toBe('>=20');
  });

  it('names the repository, homepage, issue tracker, license and keywords', () => {
    expect(manifest.repository).toEqual({ type: 'git', url: 'git+https://github.com/wiki-steward/wiki-steward.git' });
    expect(manifest.homepage).toBe('https://github.com/wiki-steward/wiki-steward#readme');
    expect(manifest.bugs).toEqual({ url: 'https://github.com/wiki-steward/wiki-steward/issues' });
    expect(manifest.license).toBe('MIT');
    expect(manifest.keywords).toEqual(expect.arrayContaining(['wiki', 'markdown', 'karpathy-wiki', 'github-action', 'pre-commit']));
    expect(manifest.description.length).toBeGreaterThan(20);
  });

  it('files lists what npm does not include by itself (CHANGELOG.md) besides dist/', () => {
    expect(manifest.files).toEqual(expect.arrayContaining(['dist', 'CHANGELOG.md']));
  });

  it('publishes publicly, with provenance', () => {
    expect(manifest.publishConfig).toEqual({ access: 'public', provenance: true });
  });
});

describe('LICENSE and CHANGELOG.md', () => {
  it('LICENSE is the MIT license of the wiki-steward contributors', () => {
    const license = readFileSync(path.join(PROJECT_ROOT, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) 2026 wiki-steward contributors\n/);
    expect(license).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
  });

  it('CHANGELOG.md follows Keep a Changelog: an Unreleased section first, then versions newest first, each dated', () => {
    const changelog = readFileSync(path.join(PROJECT_ROOT, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toMatch(/^# Changelog\n/);
    expect(changelog).toContain('https://keepachangelog.com/');
    const headings = [...changelog.matchAll(/^## (.*)$/gm)].map((m) => m[1]!);
    expect(headings[0]).toBe('[Unreleased]');
    for (const heading of headings.slice(1)) expect(heading).toMatch(/^\[\d+\.\d+\.\d+(-[\w.]+)?\] - \d{4}-\d{2}-\d{2}$/);
    for (const section of changelog.split(/^## /m).slice(1)) {
      for (const sub of section.matchAll(/^### (.*)$/gm)) expect(['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security']).toContain(sub[1]);
    }
  });
});
