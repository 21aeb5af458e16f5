// Named rules (issue 15): every diagnostic carries its rule, `.wiki-steward.yml` `validate` tunes
// each rule's severity (a preset, then per-rule overrides), `validate --summary` counts by rule.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, VALIDATE_RULES, parseConfig } from '../../src/config/config.js';
import { openWorkspace } from '../../src/config/workspace.js';
import type { Reporter } from '../../src/jobs/reporter.js';
import { validateCheckout } from '../../src/jobs/validate.js';
import type { Diagnostic } from '../../src/wiki/diagnostics.js';
import { MAX_QUOTED, cutValue } from '../../src/wiki/diagnostics.js';
import { ruleSeverities } from '../../src/wiki/rules.js';
import { runCli } from '../helpers/cli-in-process.js';
import { TempDirs } from '../helpers/git-repo.js';
import { lineOfField, wikiPage } from '../helpers/wiki-pages.js';
import { makeWiki, page } from '../helpers/wiki-fixture.js';
import { createWikiRepo, installHooks } from '../helpers/wiki-repo.js';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

const badDate = (p: string): string => p.replace('created: "2026-05-01T10:00:00Z"', 'created: 2026-05-01');
const CONFIG = '.wiki-steward.yml';

describe('named rules', () => {
  it('ends every text line with the rule, as eslint and markdownlint do', async () => {
    const wiki = await makeWiki({
      'concepts/bad.md': badDate(page({ title: 'Bad', type: 'concepts', body: 'See [nothing](/concepts/none.md).' })),
      'concepts/raw.md': 'no frontmatter\n',
    });
    const run = await runCli(['validate'], wiki);
    expect(run.code).toBe(1);
    expect(run.stdout.trim().split('\n')).toEqual([
      "concepts/bad.md:6: created must be ISO-8601 UTC like 2026-04-24T13:00:00Z, got '2026-05-01' [timestamps]",
      'concepts/bad.md:17: broken markdown link: /concepts/none.md (no file concepts/none.md in the wiki) [broken-link]',
      "concepts/raw.md:1: no YAML frontmatter: the page must start with a '---' line and close the block with another '---' line [frontmatter]",
    ]);
    const json = JSON.parse((await runCli(['validate', '--format', 'json'], wiki)).stdout);
    expect(json.diagnostics.map((d: { rule: string }) => d.rule)).toEqual(['timestamps', 'broken-link', 'frontmatter']);
  });

  it('a rule set to warn or off changes the verdict and the exit code', async () => {
    const wiki = await makeWiki({ 'concepts/bad.md': badDate(page({ title: 'Bad', type: 'concepts' })) });
    expect((await runCli(['validate'], wiki)).code).toBe(1);

    await writeFile(path.join(wiki, CONFIG), 'validate:\n  rules:\n    timestamps: warn\n');
    const warned = await runCli(['validate'], wiki);
    expect(warned.code).toBe(0);
    expect(warned.stdout.trim()).toBe("concepts/bad.md:6: warning: created must be ISO-8601 UTC like 2026-04-24T13:00:00Z, got '2026-05-01' [timestamps]");
    expect(warned.stderr).toContain('1 page checked: 0 errors, 1 warning');

    await writeFile(path.join(wiki, CONFIG), 'validate:\n  rules:\n    timestamps: "off"\n');
    const silenced = await runCli(['validate'], wiki);
    expect(silenced.code).toBe(0);
    expect(silenced.stdout).toBe('');
    expect(silenced.stderr).toContain('1 page checked: 0 errors, 0 warnings');

    // A warning can be made an error too.
    const dialect = await makeWiki({ 'concepts/a.md': page({ title: 'A', type: 'concepts', extra: 'draft: True\n' }) });
    expect((await runCli(['validate'], dialect)).code).toBe(0);
    await writeFile(path.join(dialect, CONFIG), 'validate:\n  rules:\n    yaml-dialect: error\n');
    const strict = await runCli(['validate'], dialect);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/^concepts\/a\.md:\d+: frontmatter field 'draft'.* \[yaml-dialect\]$/m);
  });

  it('an unknown rule name, severity or preset in the config is a ConfigError naming it', async () => {
    const parse = (text: string) => () => parseConfig(text, CONFIG);
    expect(parse('validate:\n  rules:\n    timestamp: warn\n')).toThrow(ConfigError);
    expect(parse('validate:\n  rules:\n    timestamp: warn\n')).toThrow("unknown rule 'validate.rules.timestamp' (known: unreadable,");
    expect(parse('validate:\n  rules:\n    tags: warning\n')).toThrow('\'validate.rules.tags\' must be one of error, warn, off, got "warning"');
    expect(parse('validate:\n  preset: relaxed\n')).toThrow("'validate.preset' must be one of upstream, lenient");
    expect(parse('validate:\n  severity: warn\n')).toThrow("unknown key 'validate.severity'");
    expect(parseConfig('validate:\n  preset: lenient\n  rules:\n    broken-link: warn\n', CONFIG).validate).toEqual({
      preset: 'lenient',
      rules: { 'broken-link': 'warn' },
      types: 'folder',
    });

    const wiki = await makeWiki({ 'concepts/a.md': page({ title: 'A', type: 'concepts' }), [CONFIG]: 'validate:\n  rules:\n    no-such-rule: "off"\n' });
    const run = await runCli(['validate'], wiki);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown rule 'validate.rules.no-such-rule'");
  });

  it('upstream (the default) keeps every rule as upstream has it', () => {
    const upstream = ruleSeverities({ preset: 'upstream', rules: {} });
    expect(Object.keys(upstream)).toEqual([...VALIDATE_RULES]);
    expect(
      Object.entries(upstream)
        .filter(([, s]) => s !== 'error')
        .map(([r]) => r),
    ).toEqual(['yaml-dialect', 'wikilink', 'not-followed']);
  });

  it('lenient relaxes format and convention rules but never silences a broken link or a parse error', async () => {
    const lenient = ruleSeverities({ preset: 'lenient', rules: {} });
    expect(Object.values(lenient)).not.toContain('off');
    for (const rule of ['unreadable', 'page-too-large', 'unsafe-file-name', 'check-failed', 'frontmatter', 'broken-link', 'stale-index'] as const)
      expect(lenient[rule]).toBe('error');

    const wiki = await makeWiki({
      // A page not made by upstream's plugin: a title and nothing else of upstream's format.
      'notes/foreign.md': '---\ntitle: Foreign\n---\nSee [gone](gone.md).\n',
      'notes/broken-yaml.md': '---\ntitle: [unclosed\n---\nBody.\n',
      'notes/plain.md': '---\ntitle: Plain\n---\nJust text.\n',
      [CONFIG]: 'validate:\n  preset: lenient\n',
    });
    const run = await runCli(['validate'], wiki);
    expect(run.code).toBe(1);
    const lines = run.stdout.trim().split('\n');
    const errors = lines.filter((l) => !l.includes(': warning: '));
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^notes\/broken-yaml\.md:\d+: malformed frontmatter: .* \[frontmatter\]$/);
    expect(errors[1]).toBe('notes/foreign.md:4: broken markdown link: gone.md (no file notes/gone.md in the wiki) [broken-link]');
    expect(lines.filter((l) => l.startsWith('notes/plain.md')).every((l) => l.includes(': warning: '))).toBe(true);
    expect(lines.some((l) => l.startsWith('notes/plain.md') && l.endsWith('[required-field]'))).toBe(true);

    // Only the config's own words can turn a link check off.
    await writeFile(path.join(wiki, CONFIG), 'validate:\n  preset: lenient\n  rules:\n    broken-link: "off"\n');
    const off = await runCli(['validate'], wiki);
    expect(off.stdout).not.toContain('[broken-link]');
    expect(off.code).toBe(1); // the parse error is still an error
  });

  it('--summary counts findings by rule and names the five folders with the most', async () => {
    const pages: Record<string, string> = {};
    // Folder i gets i + 1 pages with a bad date; 'a' also gets a broken link and a dialect warning.
    ['a', 'b', 'c', 'd', 'e', 'f'].forEach((folder, i) => {
      for (let n = 0; n <= i; n++) pages[`${folder}/p${n}.md`] = badDate(page({ title: `P${n}`, type: folder }));
    });
    pages['a/link.md'] = page({ title: 'Link', type: 'a', body: '[x](missing.md)', extra: 'draft: True\n' });
    const wiki = await makeWiki(pages);
    const run = await runCli(['validate', '--summary'], wiki);
    expect(run.code).toBe(1);
    expect(run.stdout.trim().split('\n')).toEqual([
      'findings by rule:',
      '  timestamps    21 errors, 0 warnings',
      '  yaml-dialect  0 errors, 1 warning',
      '  broken-link   1 error, 0 warnings',
      'folders with the most findings:',
      '  f  6 findings',
      '  e  5 findings',
      '  d  4 findings',
      '  a  3 findings',
      '  c  3 findings',
    ]);
    const json = JSON.parse((await runCli(['validate', '--summary', '--format', 'json'], wiki)).stdout);
    expect(json.summary.rules).toEqual([
      { rule: 'timestamps', errors: 21, warnings: 0 },
      { rule: 'yaml-dialect', errors: 0, warnings: 1 },
      { rule: 'broken-link', errors: 1, warnings: 0 },
    ]);
    expect(json.summary.folders).toHaveLength(5);

    const clean = await makeWiki({ 'concepts/a.md': page({ title: 'A', type: 'concepts' }) });
    const alone = await runCli(['validate', '--summary'], clean);
    expect(alone.code).toBe(0);
    expect(alone.stdout.trim()).toBe('no findings');
  });

  it('cuts a 500-character value to 117 characters and an ellipsis, in every format', async () => {
    expect(cutValue('x'.repeat(MAX_QUOTED))).toBe('x'.repeat(MAX_QUOTED));
    expect(cutValue('x'.repeat(500))).toBe(`${'x'.repeat(117)}…`);

    const long = 'y'.repeat(500);
    const wiki = await makeWiki({
      'concepts/a.md': page({ title: 'A', type: 'concepts', body: `[far](${long}.md)` }).replace('created: "2026-05-01T10:00:00Z"', `created: "${long}"`),
    });
    const text = await runCli(['validate'], wiki);
    expect(text.stdout.trim().split('\n')).toEqual([
      `concepts/a.md:6: created must be ISO-8601 UTC like 2026-04-24T13:00:00Z, got '${'y'.repeat(116)}… [timestamps]`,
      `concepts/a.md:17: broken markdown link: ${'y'.repeat(117)}… (no file concepts/${'y'.repeat(108)}… in the wiki) [broken-link]`,
    ]);
    const json = JSON.parse((await runCli(['validate', '--format', 'json'], wiki)).stdout);
    expect(json.diagnostics.map((d: { message: string }) => d.message)).toEqual([
      `created must be ISO-8601 UTC like 2026-04-24T13:00:00Z, got '${'y'.repeat(116)}…`,
      `broken markdown link: ${'y'.repeat(117)}… (no file concepts/${'y'.repeat(108)}… in the wiki)`,
    ]);
    expect(json.diagnostics[1].field).toBe(`${long}.md`); // the field keeps the whole target
  });

  it('the hook and the Action validate job give the same verdicts as validate', async () => {
    const repo = await createWikiRepo(dirs, { files: { [CONFIG]: 'validate:\n  rules:\n    timestamps: warn\n' } });
    await installHooks(repo);
    const bad = wikiPage({ category: 'concepts', title: 'Broken Date', created: '2026-04-24' });
    repo.write({ 'concepts/broken-date.md': bad });
    repo.git('add', 'concepts/broken-date.md');
    const commit = repo.commit('a page with a date upstream refuses');
    expect(commit.status, commit.stderr).toBe(0);
    expect(commit.stderr).toContain(`concepts/broken-date.md:${lineOfField(bad, 'created')}: warning: created must be ISO-8601 UTC`);
    expect(commit.stderr).toContain('[timestamps]');

    const annotated: Diagnostic[] = [];
    const failures: string[] = [];
    const reporter: Reporter = {
      info: () => {},
      notice: () => {},
      warning: () => {},
      secret: () => {},
      summary: async () => {},
      annotate: async (found) => void annotated.push(...found),
      fail: (message) => void failures.push(message),
    };
    const workspace = await openWorkspace({ cwd: repo.root });
    await validateCheckout(workspace, reporter, { cwd: repo.root });
    expect(annotated.length).toBeGreaterThan(0);
    expect(new Set(annotated.map((d) => `${d.path} ${d.rule} ${d.severity}`))).toEqual(new Set(['concepts/broken-date.md timestamps warning']));
    expect(failures).toEqual([]);

    const cliRun = await runCli(['validate'], repo.root);
    expect(cliRun.code).toBe(0);
    expect(cliRun.stdout).toContain(': warning: created must be ISO-8601 UTC');
  });
});
