// `validate --summary` (the counts instead of the list) and `--max-findings N` (the first N and how
// many more), in each format; the exit code counts every finding whatever is printed.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-in-process.js';
import { makeWiki, page } from '../helpers/wiki-fixture.js';

const badDate = (p: string): string => p.replace('created: "2026-05-01T10:00:00Z"', 'created: 2026-05-01');

describe('wiki-steward validate --summary and --max-findings', () => {
  // The first finding is a warning (a YAML 1.1 boolean); the two after it are errors.
  const setup = () =>
    makeWiki({
      'concepts/a.md': page({ title: 'A', type: 'concepts', extra: 'draft: True\n' }),
      'concepts/b.md': badDate(page({ title: 'B', type: 'concepts' })),
      'notes/c.md': badDate(page({ title: 'C', type: 'notes' })),
    });
  const summaryLines = [
    'findings by rule:',
    '  timestamps    2 errors, 0 warnings',
    '  yaml-dialect  0 errors, 1 warning',
    'folders with the most findings:',
    '  concepts  2 findings',
    '  notes     1 finding',
  ];

  it('without either flag, every format lists every finding', async () => {
    const wiki = await setup();
    const text = await runCli(['validate'], wiki);
    expect(text.stdout.trim().split('\n')).toHaveLength(3);
    const json = JSON.parse((await runCli(['validate', '--format', 'json'], wiki)).stdout);
    expect(json.diagnostics).toHaveLength(3);
    expect(json.omitted).toBe(0);
    const github = await runCli(['validate', '--format', 'github'], wiki);
    expect(
      github.stdout
        .trim()
        .split('\n')
        .filter((l) => /^::(error|warning) /.test(l)),
    ).toHaveLength(3);
    expect(github.stdout).not.toContain('::notice');
  });

  it('--summary prints only the counts by rule and the top folders, and exits 1 on any error', async () => {
    const wiki = await setup();
    const text = await runCli(['validate', '--summary'], wiki);
    expect(text.code).toBe(1);
    expect(text.stdout.trim().split('\n')).toEqual(summaryLines);
    expect(text.stderr.trim()).toBe('3 pages checked: 2 errors, 1 warning');

    const json = await runCli(['validate', '--summary', '--format', 'json'], wiki);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(Object.keys(report)).toEqual(['wiki', 'checked', 'errors', 'summary']);
    expect(report).toMatchObject({ checked: 3, errors: 2 });
    expect(report.summary.folders).toEqual([
      { folder: 'concepts', findings: 2 },
      { folder: 'notes', findings: 1 },
    ]);

    // In a workflow, the summary is one notice on the run's page instead of an annotation per finding.
    const github = await runCli(['validate', '--summary', '--format', 'github'], wiki);
    expect(github.code).toBe(1);
    expect(github.stdout.trim().split('\n')).toEqual([`::notice title=wiki-steward validate::${summaryLines.join('%0A')}`]);
  });

  it('--max-findings N lists the first N and how many more, and the exit code still counts every finding', async () => {
    const wiki = await setup();
    const text = await runCli(['validate', '--max-findings', '1'], wiki);
    const lines = text.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^concepts\/a\.md:\d+: warning: .*\[yaml-dialect\]$/);
    expect(lines[1]).toBe('… and 2 more findings, not listed (--max-findings)');
    // Only a warning is shown; the errors left out still fail the run.
    expect(text.code).toBe(1);
    expect(text.stderr.trim()).toBe('3 pages checked: 2 errors, 1 warning');

    const json = await runCli(['validate', '--max-findings', '2', '--format', 'json'], wiki);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report.diagnostics.map((d: { path: string }) => d.path)).toEqual(['concepts/a.md', 'concepts/b.md']);
    expect(report).toMatchObject({ errors: 2, omitted: 1 });

    const github = await runCli(['validate', '--max-findings', '2', '--format', 'github'], wiki);
    expect(github.code).toBe(1);
    const annotations = github.stdout.trim().split('\n');
    expect(annotations).toHaveLength(3);
    expect(annotations[0]).toMatch(/^::warning title=wiki-steward yaml-dialect,file=concepts\/a\.md,/);
    expect(annotations[1]).toMatch(/^::error title=wiki-steward timestamps,file=concepts\/b\.md,/);
    expect(annotations[2]).toBe('::notice title=wiki-steward validate::… and 1 more finding, not listed (--max-findings)');
  });

  it('--max-findings at or above the number of findings lists them all and no "more" line', async () => {
    const wiki = await setup();
    const text = await runCli(['validate', '--max-findings', '3'], wiki);
    expect(text.stdout.trim().split('\n')).toHaveLength(3);
    expect(text.stdout).not.toContain('more finding');
    const json = JSON.parse((await runCli(['validate', '--max-findings', '50', '--format', 'json'], wiki)).stdout);
    expect(json).toMatchObject({ omitted: 0 });
    expect(json.diagnostics).toHaveLength(3);

    const clean = await makeWiki({ 'concepts/a.md': page({ title: 'A', type: 'concepts' }) });
    const none = await runCli(['validate', '--max-findings', '1'], clean);
    expect(none).toMatchObject({ code: 0, stdout: '' });
  });

  it.each(['0', '-1', '2.5', '1e3', 'ten', ''])('refuses --max-findings %j as a usage error naming the flag', async (value) => {
    const wiki = await setup();
    const run = await runCli(['validate', '--max-findings', value], wiki);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/option '--max-findings <n>' argument .* is invalid\. must be a whole number of at least 1/);
    expect(run.stdout).toBe('');
  });

  it('refuses --max-findings with --summary, which lists no finding', async () => {
    const wiki = await setup();
    const run = await runCli(['validate', '--summary', '--max-findings', '5'], wiki);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--max-findings.*--summary/);
  });
});
