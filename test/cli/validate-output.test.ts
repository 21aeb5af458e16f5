import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-in-process.js';
import { makeWiki, page } from '../helpers/wiki-fixture.js';

describe('wiki-steward validate output', () => {
  const setup = () =>
    makeWiki({
      'concepts/good.md': page({ title: 'Good', type: 'concepts' }),
      'concepts/bad.md': page({ title: 'Bad', type: 'concepts', body: 'See [nothing](/concepts/none.md).' }).replace(
        'created: "2026-05-01T10:00:00Z"',
        'created: 2026-05-01',
      ),
    });

  it('prints path:line: message [rule] relative to the current directory and exits 1', async () => {
    const wiki = await setup();
    const run = await runCli(['validate', '--wiki', '.'], wiki);
    expect(run.code).toBe(1);
    expect(run.stdout.trim().split('\n')).toEqual([
      "concepts/bad.md:6: created must be ISO-8601 UTC like 2026-04-24T13:00:00Z, got '2026-05-01' [timestamps]",
      'concepts/bad.md:17: broken markdown link: /concepts/none.md (no file concepts/none.md in the wiki) [broken-link]',
    ]);
    const fromInside = await runCli(['validate', '--wiki', '..', 'bad.md'], path.join(wiki, 'concepts'));
    expect(fromInside.stdout).toMatch(/^bad\.md:6: /);
  });

  it('--format json gives machine-readable diagnostics', async () => {
    const wiki = await setup();
    const run = await runCli(['validate', '--format', 'json'], wiki);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ checked: 2, errors: 2 });
    expect(report.diagnostics[0]).toMatchObject({
      path: 'concepts/bad.md',
      file: 'concepts/bad.md',
      line: 6,
      rule: 'timestamps',
      code: 'bad-date',
      field: 'created',
      severity: 'error',
    });
  });

  it('--format github prints workflow annotations on repository-relative paths', async () => {
    const repo = await makeWiki({ 'wiki/schema.md': '# S\n', 'wiki/concepts/bad.md': 'no frontmatter\n' });
    // The annotations are the command's own output (the CLI's stdout), as a workflow step reads it.
    const run = await runCli(['validate', '--format', 'github'], repo);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('::error title=wiki-steward frontmatter,file=wiki/concepts/bad.md,line=1::no YAML frontmatter');
  });

  it('validates only the pages named, and refuses paths outside the wiki', async () => {
    const wiki = await setup();
    expect((await runCli(['validate', 'concepts/good.md'], wiki)).code).toBe(0);
    const outside = await runCli(['validate', '..'], wiki);
    expect(outside).toMatchObject({ code: 2 });
    expect(outside.stderr).toContain('not inside the wiki');
  });
});
