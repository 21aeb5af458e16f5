import { symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, parseConfig } from '../../src/config/config.js';
import { openWorkspace } from '../../src/config/workspace.js';
import { runCli } from '../helpers/cli-in-process.js';
import { makeWiki, page } from '../helpers/wiki-fixture.js';

describe('.wiki-steward.yml', () => {
  it('fills defaults and reads every documented key', () => {
    expect(parseConfig('', 'x')).toEqual(DEFAULT_CONFIG);
    const config = parseConfig(
      'wiki: docs/kb\ncategories:\n  exclude: [reference]\nladder:\n  inline_max: 3\n  stopwords: [widget]\nlabels:\n  trigger: ask\ncapture:\n  mode: pending\nindexes: never\n',
      'x',
    );
    expect(config).toMatchObject({
      wiki: 'docs/kb',
      categories: { include: [], exclude: ['reference'] },
      ladder: { inlineMax: 3, stopwords: ['widget'] },
      labels: { trigger: 'ask', answered: 'wiki:answered' },
      capture: { mode: 'pending' },
      indexes: 'never',
    });
  });

  it.each([
    ['wikki: wiki\n', "unknown key 'wikki'"],
    ['ladder:\n  inline: 3\n', "unknown key 'ladder.inline'"],
    ['ladder:\n  inline_max: 0\n', "'ladder.inline_max' must be a whole number from 1 to 1000, got 0"],
    ['capture:\n  mode: later\n', '\'capture.mode\' must be one of queries, pending, got "later"'],
    ['categories: [a]\n', "'categories' must be a mapping"],
    ['indexes: [auto\n', 'not valid YAML'],
  ])('rejects %j naming the key', (text, message) => {
    expect(() => parseConfig(text, '.wiki-steward.yml')).toThrow(message);
  });

  it('applies precedence: flag > config file > auto-detection', async () => {
    const repo = await makeWiki({ 'wiki/schema.md': '# S\n', 'kb/schema.md': '# S\n', 'other/index.md': '# Wiki Index\n\n' });
    expect((await openWorkspace({ cwd: repo })).wikiRoot).toBe(path.join(repo, 'wiki')); // wiki/ comes before `.`
    await writeFile(path.join(repo, '.wiki-steward.yml'), 'wiki: kb\n');
    expect((await openWorkspace({ cwd: repo })).wikiRoot).toBe(path.join(repo, 'kb'));
    expect((await openWorkspace({ cwd: repo, wikiFlag: 'other' })).wikiRoot).toBe(path.join(repo, 'other'));
  });

  it('is an error, not a guess, when a given path is not a wiki', async () => {
    const repo = await makeWiki({ 'notes/readme.md': 'hi' });
    const run = await runCli(['validate', '--wiki', 'notes'], repo);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--wiki notes');
    expect(run.stderr).toContain('is not a wiki (it has no schema.md or index.md)');
    await writeFile(path.join(repo, '.wiki-steward.yml'), 'wiki: nowhere\n');
    expect((await runCli(['validate'], repo)).stderr).toMatch(/'wiki: nowhere' in .*\.wiki-steward\.yml: .* is not a directory/);
  });

  it('reads a wiki named by --wiki through a symbolic link, with the settings of the repository that holds it', async () => {
    const elsewhere = await makeWiki({ '.git/HEAD': 'ref: refs/heads/main\n', 'wiki/schema.md': '# S\n', '.wiki-steward.yml': 'ladder:\n  inline_max: 2\n' });
    const here = await makeWiki({ '.git/HEAD': 'ref: refs/heads/main\n', '.wiki-steward.yml': 'ladder:\n  inline_max: [broken\n' });
    await symlink(path.join(elsewhere, 'wiki'), path.join(here, 'linked'));
    // The folder behind the link, read with its own repository's settings (not the broken file where the command ran).
    const workspace = await openWorkspace({ cwd: here, wikiFlag: 'linked' });
    expect(workspace).toMatchObject({ wikiRoot: path.join(elsewhere, 'wiki'), repoRoot: elsewhere, wikiPrefix: 'wiki' });
    expect(workspace.config.ladder.inlineMax).toBe(2);
    const run = await runCli(['ask', '--wiki', 'linked', '--json', 'What is in the schema?'], here);
    expect(run.code, run.stderr).toBe(0);
  });

  it('refuses a configured or detected wiki folder that links outside the repository', async () => {
    const outside = await makeWiki({ 'secret/index.md': '# Index\n' });
    const repo = await makeWiki({ '.git/HEAD': 'ref: refs/heads/main\n' });
    const { rm } = await import('node:fs/promises');
    await rm(path.join(repo, 'schema.md'));
    await symlink(path.join(outside, 'secret'), path.join(repo, 'wiki'));
    await expect(openWorkspace({ cwd: repo })).rejects.toThrow(/wiki: .* is a symbolic link to .*secret, outside the repository/);
    await writeFile(path.join(repo, '.wiki-steward.yml'), 'wiki: wiki\n');
    await expect(openWorkspace({ cwd: repo })).rejects.toThrow(/is a symbolic link to .*secret, outside the repository/);
    // Named on the command line, the same folder is the user's choice.
    expect((await openWorkspace({ cwd: repo, wikiFlag: 'wiki' })).wikiRoot).toBe(path.join(outside, 'secret'));
    await writeFile(path.join(repo, '.wiki-steward.yml'), `wiki: ${path.relative(repo, path.join(outside, 'secret'))}\n`);
    await expect(openWorkspace({ cwd: repo })).rejects.toThrow(/secret is outside the repository/);
  });

  it('leaves excluded categories out of validation and indexes', async () => {
    const repo = await makeWiki({
      'concepts/a.md': page({ title: 'Alpha', type: 'concepts' }),
      'reference/imported.md': 'no frontmatter at all\n',
      '.wiki-steward.yml': 'categories:\n  exclude: [reference]\n',
    });
    const run = await runCli(['validate'], repo);
    expect(run.code).toBe(0);
    await runCli(['index'], repo);
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(path.join(repo, 'index.md'), 'utf8')).not.toContain('Reference');
  });
});

describe('the example wiki documents the real config', () => {
  it('its full reference block parses as a valid .wiki-steward.yml with the real defaults', async () => {
    const { readFile } = await import('node:fs/promises');
    const { fileURLToPath } = await import('node:url');
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../examples/wiki/how-to/configure-wiki-steward-yml.md');
    const block = /## Full reference with defaults\n\n```yaml\n([\s\S]*?)```/.exec(await readFile(file, 'utf8'))![1]!;
    const config = parseConfig(block, 'configure-wiki-steward-yml.md');
    expect({ ...config, wiki: undefined }).toEqual(DEFAULT_CONFIG);
  });
});

describe('validate settings', () => {
  it("validate.types: upstream's folder names by default, singular when set, a bad value named", () => {
    expect(DEFAULT_CONFIG.validate.types).toBe('folder');
    expect(parseConfig('validate:\n  types: singular\n', 'x').validate).toEqual({ preset: 'upstream', rules: {}, types: 'singular' });
    expect(() => parseConfig('validate:\n  types: plural\n', '.wiki-steward.yml')).toThrow(`'validate.types' must be one of folder, singular, got "plural"`);
  });
});

describe('provider and asking settings', () => {
  it('reads answerer, search and ask sections, and refuses keys in the file', () => {
    const config = parseConfig(
      'answerer:\n  provider: openai\n  model: llama3.1\n  base_url: http://localhost:11434/v1\n  budget_pages: 12\nsearch:\n  provider: searxng\n  base_url: https://search.example.org\nask:\n  min_permission: write\n',
      'x',
    );
    expect(config.answerer).toMatchObject({ provider: 'openai', model: 'llama3.1', baseUrl: 'http://localhost:11434/v1', budgetPages: 12, timeoutMs: 60_000 });
    expect(config.search).toMatchObject({ provider: 'searxng', baseUrl: 'https://search.example.org', maxResults: 3 });
    expect(config.ask).toEqual({ command: '/wiki', minPermission: 'write', refusal: 'comment', stewardLogins: [] });
    expect(() => parseConfig('answerer:\n  api_key: sk-123\n', '.wiki-steward.yml')).toThrow("'answerer.api_key': secrets are never read from this file");
    expect(() => parseConfig('ask:\n  command: /wiki ask\n', '.wiki-steward.yml')).toThrow(`'ask.command' must be one word such as /wiki, got "/wiki ask"`);
    // A key that exists only to be refused is never offered as a known one.
    expect(() => parseConfig('answerer:\n  key: x\n', '.wiki-steward.yml')).toThrow(
      /unknown key 'answerer.key' \(known: answerer.provider, [^)]*deadline_ms\)$/,
    );
    expect(() => parseConfig('search:\n  base_url: ftp://x\n', '.wiki-steward.yml')).toThrow("'search.base_url' must be an http(s) URL");
    expect(parseConfig('answerer:\n  propose_terms: true\n', 'x').answerer.proposeTerms).toBe(true);
    expect(() => parseConfig('answerer:\n  propose_terms: "yes"\n', '.wiki-steward.yml')).toThrow(`'answerer.propose_terms' must be true or false, got "yes"`);
  });

  it("answerer.deadline_ms: one deadline per question, 5 min by default (below the example workflow's 10-minute job), a bad value named", () => {
    expect(DEFAULT_CONFIG.answerer.deadlineMs).toBe(300_000);
    expect(parseConfig('answerer:\n  deadline_ms: 120000\n', 'x').answerer.deadlineMs).toBe(120_000);
    for (const [value, shown] of [
      ['0', '0'],
      ['999', '999'],
      ['3600001', '3600001'],
      ['-1', '-1'],
      ['2500.5', '2500.5'],
      ['"5m"', '"5m"'],
      ['"300000"', '"300000"'],
    ] as const) {
      expect(() => parseConfig(`answerer:\n  deadline_ms: ${value}\n`, '.wiki-steward.yml')).toThrow(
        `.wiki-steward.yml: 'answerer.deadline_ms' must be a whole number from 1000 to 3600000, got ${shown}`,
      );
    }
  });

  it('a bad answerer.deadline_ms stops `ask` before any question, naming the file and the key', async () => {
    const repo = await makeWiki({
      'concepts/a.md': page({ title: 'Alpha', type: 'concepts' }),
      '.wiki-steward.yml': 'answerer:\n  deadline_ms: 5 minutes\n',
    });
    const run = await runCli(['ask', 'What is alpha?'], repo);
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`.wiki-steward.yml: 'answerer.deadline_ms' must be a whole number from 1000 to 3600000, got "5 minutes"`);
  });

  it('lets flags win over the file', async () => {
    const { providerOptions } = await import('../../src/answer/providers.js');
    const { resolveSettings } = await import('../../src/config/settings.js');
    const config = parseConfig('answerer:\n  provider: anthropic\n  model: claude-x\nsearch:\n  provider: brave\n', 'x');
    expect(providerOptions(resolveSettings(config, {}), {})).toMatchObject({ llm: 'anthropic', llmModel: 'claude-x', web: 'brave' });
    expect(providerOptions(resolveSettings(config, { llm: 'offline', web: 'none' }), {})).toMatchObject({ llm: 'offline', web: 'none', proposeTerms: false });
    expect(providerOptions(resolveSettings(config, { llmTerms: true }), {})).toMatchObject({ proposeTerms: true });
    expect(providerOptions(resolveSettings(config, {}), {}).deadlineMs).toBe(300_000);
    expect(providerOptions(parseConfig('answerer:\n  deadline_ms: 90000\n', 'x'), {}).deadlineMs).toBe(90_000);
  });
});
