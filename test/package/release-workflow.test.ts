// The release workflow (.github/workflows/release.yml) and CI's publish dry run, read as data:
// a version tag, and nothing else, publishes; the job that publishes signs provenance with the
// id-token and nothing more; the version check, the release notes and the major tag are real
// scripts, run here on fabricated checkouts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/cli.js';
import { type Step, allSteps, granted, jobsFor, loadWorkflow, parseOutputs, runScript, upstreamJobs } from './workflow-model.js';

const release = loadWorkflow('release.yml');
const ci = loadWorkflow('ci.yml');

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A folder standing in for a checkout: package.json with `version`, and CHANGELOG.md. */
function checkout(version: string, changelog = `# Changelog\n\n## [${version}] - 2026-01-01\n\n### Added\n\n- Things.\n`): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ws-release-'));
  temps.push(dir);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'wiki-steward', version }));
  writeFileSync(path.join(dir, 'CHANGELOG.md'), changelog);
  return dir;
}

/** Runs a step's script in `dir` with the step's own env (expressions replaced by `values`). */
function runStep(step: Step, dir: string, values: Record<string, string>) {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(step.env ?? {})) {
    if (!(name in values)) throw new Error(`step '${step.name}': no value given for env ${name} (${value})`);
    env[name] = values[name]!;
  }
  const outputFile = path.join(dir, 'github-output');
  writeFileSync(outputFile, '');
  const r = runScript(step.run!, dir, { ...env, GITHUB_OUTPUT: outputFile, RUNNER_TEMP: dir });
  return { ...r, outputs: parseOutputs(readFileSync(outputFile, 'utf8')) };
}

const find = (predicate: (step: Step) => boolean) => allSteps(release).filter(({ step }) => predicate(step));
const only = <T>(list: T[], what: string): T => {
  if (list.length !== 1) throw new Error(`expected one ${what}, found ${list.length}`);
  return list[0]!;
};

const publish = only(
  find((s) => /\bnpm publish\b/.test(s.run ?? '')),
  'npm publish step',
);
const versionCheck = only(
  find((s) => s.id === 'version'),
  "step with id 'version'",
);
const notes = only(
  find((s) => s.id === 'notes'),
  "step with id 'notes'",
);
const moveMajor = only(
  find((s) => /\bgit tag -f\b/.test(s.run ?? '')),
  'git tag -f step',
);
const githubRelease = only(
  find((s) => /\bgh release create\b/.test(s.run ?? '')),
  'gh release create step',
);
const pack = only(
  find((s) => /\bnpm pack\b/.test(s.run ?? '')),
  'npm pack step',
);
const upload = only(
  find((s) => s.uses?.startsWith('actions/upload-artifact@') ?? false),
  'upload-artifact step',
);
const download = only(
  find((s) => s.uses?.startsWith('actions/download-artifact@') ?? false),
  'download-artifact step',
);
const TARBALL = '"$RUNNER_TEMP/package/wiki-steward-$VERSION.tgz"';

/** Whether `later` runs after `earlier`: a later step of the same job, or a job that needs it. */
const after = (later: { jobId: string; index: number }, earlier: { jobId: string; index: number }) =>
  later.jobId === earlier.jobId ? later.index > earlier.index : upstreamJobs(release, later.jobId).has(earlier.jobId);

describe('release.yml', () => {
  it('is started by version tags only', () => {
    expect(Object.keys(release.on)).toEqual(['push']);
    const push = release.on.push as Record<string, unknown>;
    expect(Object.keys(push)).toEqual(['tags']);
    expect(push.tags).toEqual(['v*.*.*']);
    const pushed = (ref: string) => jobsFor(release, { name: 'push', ref, payload: { ref } });
    expect(pushed('refs/tags/v0.1.0')).toEqual(Object.keys(release.jobs));
    expect(pushed('refs/tags/v1.2.0-rc.1')).toEqual(Object.keys(release.jobs));
    for (const ref of ['refs/heads/main', 'refs/tags/v0', 'refs/tags/v1.2', 'refs/tags/release-1']) expect(pushed(ref), ref).toEqual([]);
    for (const name of ['pull_request', 'workflow_dispatch', 'release']) expect(jobsFor(release, { name, payload: {} }), name).toEqual([]);
  });

  it('the job that publishes has id-token: write (provenance) and runs npm publish --provenance with the npm token', () => {
    expect(publish.step.run).toMatch(/^npm publish --provenance --access public\b/);
    expect(publish.step.run).not.toContain('--dry-run');
    expect(granted(release, publish.jobId)).toEqual({ contents: 'read', 'id-token': 'write' });
    expect(publish.step.env?.NODE_AUTH_TOKEN).toBe('${{ secrets.NPM_TOKEN }}');
    const setupNode = release.jobs[publish.jobId]!.steps!.find((s) => s.uses?.startsWith('actions/setup-node@'));
    expect(setupNode?.with).toMatchObject({ 'node-version': 24, 'registry-url': 'https://registry.npmjs.org' });
  });

  it('publishes the tarball it packed, and hands the same tarball to the GitHub release', () => {
    expect(pack.jobId).toBe(publish.jobId);
    expect(after(publish, pack)).toBe(true);
    expect(publish.step.run!.endsWith(TARBALL)).toBe(true);
    expect(upload.jobId).toBe(publish.jobId);
    expect(after(upload, publish)).toBe(true);
    expect(upload.step.with?.path).toBe('${{ runner.temp }}/package/wiki-steward-${{ needs.check.outputs.version }}.tgz');
    expect(download.jobId).toBe(githubRelease.jobId);
    expect(after(githubRelease, download)).toBe(true);
    expect(download.step.with).toEqual({ name: upload.step.with?.name, path: '${{ runner.temp }}/package' });
    expect(githubRelease.step.run).toContain(TARBALL);
  });

  it('the pack step makes wiki-steward-<version>.tgz where the publish step looks for it', () => {
    const temp = mkdtempSync(path.join(os.tmpdir(), 'ws-release-pack-'));
    temps.push(temp);
    // --ignore-scripts: prepack would rebuild dist/ under the tests running in parallel.
    const r = runScript(pack.step.run!, PROJECT_ROOT, {
      VERSION: JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')).version as string,
      RUNNER_TEMP: temp,
      npm_config_ignore_scripts: 'true',
      npm_config_cache: path.join(temp, 'cache'),
      npm_config_offline: 'true',
    });
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });

  it('least privilege: only the publishing job has the id-token, only the job that tags and releases can write', () => {
    expect(release.permissions).toEqual({});
    for (const jobId of Object.keys(release.jobs)) {
      const perms = granted(release, jobId)!;
      expect(perms['id-token'] === 'write', jobId).toBe(jobId === publish.jobId);
      expect(perms.contents, jobId).toBe(jobId === moveMajor.jobId ? 'write' : 'read');
      expect(
        Object.keys(perms).filter((s) => !['contents', 'id-token'].includes(s)),
        jobId,
      ).toEqual([]);
    }
    expect(moveMajor.jobId).not.toBe(publish.jobId);
  });

  it("checks that the tag names package.json's version, before the tests and before publishing", () => {
    expect(versionCheck.step.env?.TAG).toBe('${{ github.ref_name }}');
    expect(after(publish, versionCheck)).toBe(true);
    const tests = only(
      find((s) => s.run === 'bash .ci/run'),
      'test step',
    );
    expect(after(tests, versionCheck)).toBe(true);
    expect(after(publish, tests)).toBe(true);

    const ok = runStep(versionCheck.step, checkout('0.1.0'), { TAG: 'v0.1.0' });
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.outputs).toEqual({ version: '0.1.0', 'major-tag': 'v0', 'dist-tag': 'latest', prerelease: 'false' });

    const wrong = runStep(versionCheck.step, checkout('0.1.0'), { TAG: 'v0.2.0' });
    expect(wrong.status).not.toBe(0);
    expect(wrong.stdout).toContain("::error::tag v0.2.0 does not match package.json's version 0.1.0");
    expect(wrong.outputs).toEqual({});
  });

  it('the major tag: v0 for 0.x.y, vN otherwise; a pre-release publishes as next and moves no major tag', () => {
    const outputs = (version: string) => runStep(versionCheck.step, checkout(version), { TAG: `v${version}` }).outputs;
    expect(outputs('0.9.12')).toMatchObject({ 'major-tag': 'v0', 'dist-tag': 'latest', prerelease: 'false' });
    expect(outputs('1.2.3')).toMatchObject({ 'major-tag': 'v1', 'dist-tag': 'latest', prerelease: 'false' });
    expect(outputs('12.0.0')).toMatchObject({ 'major-tag': 'v12' });
    expect(outputs('2.0.0-rc.1')).toMatchObject({ 'major-tag': 'v2', 'dist-tag': 'next', prerelease: 'true' });
    expect(publish.step.run).toContain('--tag "$DIST_TAG"');
    expect(publish.step.env?.DIST_TAG).toBe(`\${{ needs.${versionCheck.jobId}.outputs.dist-tag }}`);
    expect(moveMajor.step.if).toBe(`needs.${versionCheck.jobId}.outputs.prerelease == 'false'`);
  });

  it('moves the major tag to the released commit after publishing, and pushes it', () => {
    expect(after(moveMajor, publish)).toBe(true);
    expect(moveMajor.step.run).toContain('git tag -f "$MAJOR_TAG" HEAD');
    expect(moveMajor.step.run).toContain('git push -f origin "refs/tags/$MAJOR_TAG"');
    expect(moveMajor.step.env?.MAJOR_TAG).toBe(`\${{ needs.${versionCheck.jobId}.outputs.major-tag }}`);
  });

  it('the tag move works on a real repository: the major tag follows each release', () => {
    const repo = mkdtempSync(path.join(os.tmpdir(), 'ws-release-git-'));
    const remote = mkdtempSync(path.join(os.tmpdir(), 'ws-release-remote-'));
    temps.push(repo, remote);
    const git = (...args: string[]) => {
      const r = runScript(`git ${args.map((a) => `'${a}'`).join(' ')}`, repo, {
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: os.devNull,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t',
      });
      if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
      return r.stdout.trim();
    };
    runScript('git init --quiet --bare .', remote, { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull });
    git('init', '--quiet', '--initial-branch=main');
    git('remote', 'add', 'origin', remote);
    const tagMove = (message: string) => {
      git('commit', '--quiet', '--allow-empty', '-m', message);
      const r = runScript(moveMajor.step.run!, repo, { MAJOR_TAG: 'v0', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull });
      expect(r.status, r.stderr).toBe(0);
      return git('rev-parse', 'HEAD');
    };
    const first = tagMove('0.1.0');
    expect(runScript('git rev-parse v0^{commit}', remote, {}).stdout.trim()).toBe(first);
    const second = tagMove('0.2.0');
    expect(second).not.toBe(first);
    expect(runScript('git rev-parse v0^{commit}', remote, {}).stdout.trim()).toBe(second);
  });

  it("creates the GitHub release after publishing, with CHANGELOG.md's section as its notes", () => {
    expect(after(githubRelease, publish)).toBe(true);
    expect(githubRelease.step.run).toMatch(/gh release create "\$TAG" --verify-tag .*--notes-file/);
    expect(githubRelease.step.env).toMatchObject({
      GH_TOKEN: '${{ github.token }}',
      TAG: '${{ github.ref_name }}',
      NOTES: `\${{ needs.${notes.jobId}.outputs.notes }}`,
    });
    expect(githubRelease.step.run).toContain('--notes-file "$RUNNER_TEMP/release-notes.md"');
    expect(release.jobs[notes.jobId]!.outputs?.notes).toBe('${{ steps.notes.outputs.notes }}');
    expect(after(publish, notes)).toBe(true);
  });

  it("the release notes are the version's section, without the next section or link definitions; no section fails the release", () => {
    const changelog = [
      '# Changelog',
      '',
      '## [Unreleased]',
      '',
      '- Not yet.',
      '',
      '## [1.2.3] - 2026-02-01',
      '',
      '### Fixed',
      '',
      '- A bug, see [docs].',
      '',
      '## [1.2.2] - 2026-01-01',
      '',
      '- Older.',
      '',
      '[Unreleased]: https://example.com/compare/v1.2.3...HEAD',
      '[1.2.3]: https://example.com/v1.2.3',
      '',
    ].join('\n');
    const ok = runStep(notes.step, checkout('1.2.3', changelog), { VERSION: '1.2.3' });
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.outputs.notes!.trim()).toBe('### Fixed\n\n- A bug, see [docs].');

    for (const version of ['1.2', '9.9.9']) {
      const missing = runStep(notes.step, checkout(version, changelog), { VERSION: version });
      expect(missing.status, version).not.toBe(0);
      expect(missing.stdout).toContain(`no '## [${version}] - YYYY-MM-DD' section`);
    }
  });

  it("this project's CHANGELOG.md gives the notes once its Unreleased heading becomes the version's", () => {
    const ours = readFileSync(path.join(PROJECT_ROOT, 'CHANGELOG.md'), 'utf8');
    expect(ours).toMatch(/^## \[Unreleased\]$/m);
    const { version } = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
    const released = ours.replace(/^## \[Unreleased\]$/m, `## [Unreleased]\n\n## [${version}] - 2026-12-01`);
    const r = runStep(notes.step, checkout(version, released), { VERSION: version });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.notes).toContain('### Added');
    expect(r.outputs.notes).not.toContain('[Unreleased]:');
  });

  it('runs the test suite, which checks that the committed Action bundle matches a fresh build', () => {
    const tests = only(
      find((s) => s.run === 'bash .ci/run'),
      'test step',
    );
    expect(granted(release, tests.jobId)).toEqual({ contents: 'read' });
    const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    // `npm test` runs the check through its own script, beside the typecheck and the linter.
    expect(pkg.scripts.test).toMatch(/\bcheck:bundle\b/);
    expect(pkg.scripts['check:bundle']).toBe('node scripts/build.mjs --check');
    expect(readFileSync(path.join(PROJECT_ROOT, '.ci', 'run'), 'utf8')).toMatch(/^npm test$/m);
    expect(release.text).toContain('node scripts/build.mjs --check');
  });
});

describe("ci.yml's publish dry run", () => {
  const job = Object.entries(ci.jobs).find(([, j]) => (j.steps ?? []).some((s) => /\bnpm publish --dry-run\b/.test(s.run ?? '')));

  it('runs npm publish --dry-run and npm pack --dry-run --json after npm ci', () => {
    expect(job).toBeDefined();
    const runs = job![1].steps!.map((s) => s.run).filter(Boolean);
    expect(runs).toEqual(['npm ci --no-audit --no-fund', 'npm publish --dry-run --offline', 'npm pack --dry-run --json']);
  });

  it('has no secrets and no write permission', () => {
    const [jobId, j] = job!;
    expect(JSON.stringify(j)).not.toMatch(/secrets\.|NODE_AUTH_TOKEN|NPM_TOKEN/);
    expect(granted(ci, jobId)).toEqual({ contents: 'read' });
    expect(jobsFor(ci, { name: 'pull_request', payload: { action: 'opened' } })).toContain(jobId);
    expect(jobsFor(ci, { name: 'push', ref: 'refs/heads/main', payload: {} })).toContain(jobId);
  });
});
