// `wiki-steward hooks install | uninstall` against real repositories, with git itself running the
// installed hook on real commits. Each test starts from a copy of a repository prepared once for
// the file (see wikiRepoTemplate). The first test runs `hooks install` through the built CLI; the
// rest run install and uninstall in-process as that CLI would (runAsBuilt: the hook they write names
// the built CLI), and every commit runs the built CLI through the hook, as git runs it.
import { accessSync, chmodSync, constants, readFileSync, readdirSync, realpathSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { builtCli, runAsBuilt, runCli } from '../helpers/cli.js';
import { type GitRepo, TempDirs } from '../helpers/git-repo.js';
import { wikiPage } from '../helpers/wiki-pages.js';
import { installHooks, wikiRepoTemplate } from '../helpers/wiki-repo.js';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

/** The sample wiki committed with fresh indexes, no hook. */
const plain = wikiRepoTemplate();
/** The same with our hook installed (by the built CLI, as the first test checks it). */
const hooked = wikiRepoTemplate({ hooks: true });
afterAll(() => Promise.all([plain.cleanup(), hooked.cleanup()]));

const isExecutable = (file: string): boolean => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** Files in a hooks folder that are pre-commit hooks (git's *.sample templates aside). */
const preCommitFiles = (hooksDir: string): string[] =>
  readdirSync(hooksDir)
    .filter((name) => name.startsWith('pre-commit') && !name.endsWith('.sample'))
    .sort();

const hooksDirOf = (repo: GitRepo) => path.join(repo.root, '.git', 'hooks');

/** Stages a new valid page, so a commit has something for every hook to look at. */
function stageValidPage(repo: GitRepo, title = 'Fresh Page'): void {
  repo.write({ [`concepts/${title.toLowerCase().replaceAll(' ', '-')}.md`]: wikiPage({ category: 'concepts', title }) });
  repo.git('add', '--all');
}

/** Puts a hand-made pre-commit hook in place, as another tool would have. */
function writeExistingHook(repo: GitRepo, body: string, mode = 0o755): string {
  const script = `#!/bin/sh\n# someone else's hook\n${body}\n`;
  const file = path.join(hooksDirOf(repo), 'pre-commit');
  writeFileSync(file, script);
  chmodSync(file, mode);
  return script;
}

const modeOf = (file: string): number => statSync(file).mode & 0o777;

describe('hooks install', () => {
  it('writes an executable pre-commit hook into .git/hooks that calls the built CLI by path', async () => {
    const repo = await plain.copy(dirs);
    const result = runCli(['hooks', 'install'], repo.root);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain('pre-commit hook installed');

    const hook = path.join(hooksDirOf(repo), 'pre-commit');
    expect(statSync(hook).isFile()).toBe(true);
    expect(isExecutable(hook)).toBe(true);
    const script = readFileSync(hook, 'utf8');
    expect(script.startsWith('#!/bin/sh\n')).toBe(true);
    expect(script).toContain('# installed by wiki-steward');
    expect(script).toContain(realpathSync(builtCli()));
    expect(script).toContain(process.execPath);
    expect(script).not.toMatch(/\bnpx\b/);
    expect(script).toContain('hooks pre-commit');
  });

  it('is idempotent: a second install says "already installed", writes nothing and leaves one identical hook', async () => {
    // Installed as the first test installs it.
    const repo = await hooked.copy(dirs);
    const hook = path.join(hooksDirOf(repo), 'pre-commit');
    const first = readFileSync(hook, 'utf8');
    const written = statSync(hook).mtimeMs;
    utimesSync(hook, new Date(written - 60_000), new Date(written - 60_000));
    const stamped = statSync(hook).mtimeMs;

    const again = await installHooks(repo);
    expect(again.stderr).toContain('pre-commit hook already installed');
    expect(again.stderr).not.toContain('updated');
    expect(again.stderr).not.toContain('existing hook');
    expect(preCommitFiles(hooksDirOf(repo))).toEqual(['pre-commit']);
    expect(readFileSync(hook, 'utf8')).toBe(first);
    expect(statSync(hook).mtimeMs).toBe(stamped);
    expect(isExecutable(hook)).toBe(true);
  });

  it('says "updated" only when the hook changes: an older hook calling another CLI path is rewritten', async () => {
    // Installed as the first test installs it.
    const repo = await hooked.copy(dirs);
    const hook = path.join(hooksDirOf(repo), 'pre-commit');
    const current = readFileSync(hook, 'utf8');
    writeFileSync(hook, current.replace(realpathSync(builtCli()), '/opt/old/wiki-steward/dist/cli.js'));

    const again = await installHooks(repo);
    expect(again.stderr).toContain('pre-commit hook updated');
    expect(readFileSync(hook, 'utf8')).toBe(current);
  });

  it('respects core.hooksPath: the hook lands in that folder, and git runs it from there', async () => {
    const repo = await plain.copy(dirs);
    repo.git('config', 'core.hooksPath', '.githooks');
    const result = await installHooks(repo);
    expect(result.stderr).toContain(path.join('.githooks', 'pre-commit'));

    const hook = path.join(repo.root, '.githooks', 'pre-commit');
    expect(isExecutable(hook)).toBe(true);
    expect(readFileSync(hook, 'utf8')).toContain('# installed by wiki-steward');
    expect(preCommitFiles(hooksDirOf(repo))).toEqual([]);

    // Proof that it is the hook git uses: an invalid page is blocked.
    repo.write({ 'concepts/bad.md': wikiPage({ category: 'concepts', title: 'Bad', created: '2026-04-24' }) });
    repo.git('add', 'concepts/bad.md');
    const before = repo.head();
    const commit = repo.commit('add an invalid page');
    expect(commit.status).not.toBe(0);
    expect(commit.stderr).toContain('concepts/bad.md');
    expect(repo.head()).toBe(before);
  });

  it('chains an existing hook: it is kept, still runs first on every commit, and the commit succeeds', async () => {
    const repo = await plain.copy(dirs);
    const ran = path.join(repo.root, '.git', 'existing-hook-ran');
    writeExistingHook(repo, `echo ran >> '${ran}'`);

    const result = await installHooks(repo);
    expect(result.stderr).toContain('installed (the existing hook runs first)');
    expect(preCommitFiles(hooksDirOf(repo))).toEqual(['pre-commit', 'pre-commit.wiki-steward-chained']);

    stageValidPage(repo);
    const commit = repo.commit('add a page');
    expect(commit.status, commit.stderr).toBe(0);
    expect(readFileSync(ran, 'utf8')).toBe('ran\n');
    // Our part ran too: the folder index was regenerated into the commit.
    expect(repo.committedPaths()).toContain('concepts/_index.md');
  });

  it('chains an existing hook that fails: the commit is still blocked', async () => {
    const repo = await plain.copy(dirs);
    writeExistingHook(repo, "echo 'existing hook says no' >&2\nexit 3");
    await installHooks(repo);

    stageValidPage(repo);
    const before = repo.head();
    const commit = repo.commit('add a page');
    expect(commit.status).not.toBe(0);
    expect(commit.stderr).toContain('existing hook says no');
    expect(repo.head()).toBe(before);
  });

  it('a second install over a chained hook keeps the chain as it is', async () => {
    const repo = await plain.copy(dirs);
    const original = writeExistingHook(repo, 'exit 0');
    await installHooks(repo);
    const again = await installHooks(repo);
    expect(again.stderr).toContain('pre-commit hook already installed');
    expect(preCommitFiles(hooksDirOf(repo))).toEqual(['pre-commit', 'pre-commit.wiki-steward-chained']);
    expect(readFileSync(path.join(hooksDirOf(repo), 'pre-commit.wiki-steward-chained'), 'utf8')).toBe(original);
  });
});

describe('hooks uninstall', () => {
  it('removes our hook when it chained nothing', async () => {
    // Installed as the first test installs it.
    const repo = await hooked.copy(dirs);
    const result = await runAsBuilt(['hooks', 'uninstall'], repo.root);
    expect(result.stderr).toContain('pre-commit hook removed');
    expect(preCommitFiles(hooksDirOf(repo))).toEqual([]);

    // With no hook, an invalid page commits.
    repo.write({ 'concepts/bad.md': wikiPage({ category: 'concepts', title: 'Bad', created: '2026-04-24' }) });
    repo.git('add', '--all');
    expect(repo.commit('no hook any more').status).toBe(0);
  });

  it('restores the hook it chained, byte for byte and executable, and that hook runs alone again', async () => {
    const repo = await plain.copy(dirs);
    const ran = path.join(repo.root, '.git', 'existing-hook-ran');
    const original = writeExistingHook(repo, `echo ran >> '${ran}'`);
    await installHooks(repo);

    const result = await runAsBuilt(['hooks', 'uninstall'], repo.root);
    expect(result.stderr).toContain('the hook it chained is back in place');
    const hook = path.join(hooksDirOf(repo), 'pre-commit');
    expect(preCommitFiles(hooksDirOf(repo))).toEqual(['pre-commit']);
    expect(readFileSync(hook, 'utf8')).toBe(original);
    expect(isExecutable(hook)).toBe(true);

    // Only the restored hook runs: an invalid page is no longer blocked, and the old hook still ran.
    repo.write({ 'concepts/bad.md': wikiPage({ category: 'concepts', title: 'Bad', created: '2026-04-24' }) });
    repo.git('add', '--all');
    expect(repo.commit('old hook only').status).toBe(0);
    expect(readFileSync(ran, 'utf8')).toBe('ran\n');
  });

  it('leaves a hook it did not install alone', async () => {
    const repo = await plain.copy(dirs);
    const original = writeExistingHook(repo, 'exit 0');
    const result = await runAsBuilt(['hooks', 'uninstall'], repo.root);
    expect(result.stderr).toContain('not installed; nothing to do');
    expect(readFileSync(path.join(hooksDirOf(repo), 'pre-commit'), 'utf8')).toBe(original);
  });
});

// A hook git does not run (not executable) is a disabled hook: chaining must not switch it on, and
// uninstalling must put back exactly what was there.
describe('a disabled (non-executable) existing hook', () => {
  it('stays disabled after install: kept with its mode, not run, and our check still runs', async () => {
    const repo = await plain.copy(dirs);
    const ran = path.join(repo.root, '.git', 'disabled-hook-ran');
    writeExistingHook(repo, `echo ran >> '${ran}'\nexit 1`, 0o644);
    // Git itself ignores it: a commit goes through.
    stageValidPage(repo, 'Before Install');
    expect(repo.commit('before install').status).toBe(0);

    const result = await installHooks(repo);
    expect(result.stderr).toContain('not executable');
    const chained = path.join(hooksDirOf(repo), 'pre-commit.wiki-steward-chained');
    expect(modeOf(chained)).toBe(0o644);
    expect(isExecutable(chained)).toBe(false);

    stageValidPage(repo);
    const commit = repo.commit('add a page');
    expect(commit.status, commit.stderr).toBe(0);
    expect(repo.exists('.git/disabled-hook-ran')).toBe(false);
    expect(repo.committedPaths()).toContain('concepts/_index.md');

    // An invalid page is still blocked by our part.
    repo.write({ 'concepts/bad.md': wikiPage({ category: 'concepts', title: 'Bad', created: '2026-04-24' }) });
    repo.git('add', 'concepts/bad.md');
    expect(repo.commit('bad').status).not.toBe(0);
  });

  it('uninstall restores it byte for byte with its mode 644: commits are not blocked by it', async () => {
    const repo = await plain.copy(dirs);
    const original = writeExistingHook(repo, 'exit 1', 0o644);
    await installHooks(repo);

    const result = await runAsBuilt(['hooks', 'uninstall'], repo.root);
    expect(result.stderr).toContain('the hook it chained is back in place');
    const hook = path.join(hooksDirOf(repo), 'pre-commit');
    expect(preCommitFiles(hooksDirOf(repo))).toEqual(['pre-commit']);
    expect(readFileSync(hook, 'utf8')).toBe(original);
    expect(modeOf(hook)).toBe(0o644);

    stageValidPage(repo);
    const commit = repo.commit('after uninstall');
    expect(commit.status, commit.stderr).toBe(0);
  });

  it('an executable hook with an unusual mode (700) comes back with that mode', async () => {
    const repo = await plain.copy(dirs);
    writeExistingHook(repo, 'exit 0', 0o700);
    await installHooks(repo);
    expect(modeOf(path.join(hooksDirOf(repo), 'pre-commit.wiki-steward-chained'))).toBe(0o700);
    await runAsBuilt(['hooks', 'uninstall'], repo.root);
    expect(modeOf(path.join(hooksDirOf(repo), 'pre-commit'))).toBe(0o700);
  });
});
