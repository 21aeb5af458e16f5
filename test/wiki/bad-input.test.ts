// Bad pages get clear per-page diagnostics; nothing in a page is ever executed or followed out of
// the wiki; one broken page never stops the rest.
import { mkdtemp, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-in-process.js';
import { makeWiki, page } from '../helpers/wiki-fixture.js';

const validateJson = async (wiki: string) => {
  const run = await runCli(['validate', '--wiki', wiki, '--format', 'json'], wiki);
  return {
    code: run.code,
    report: JSON.parse(run.stdout) as { checked: number; diagnostics: Array<{ path: string; code: string; line: number; message: string; severity: string }> },
  };
};

describe('bad input', () => {
  afterEach(() => {
    delete (globalThis as Record<string, unknown>).__wikiStewardPwned;
  });

  it('never executes ---js frontmatter, and says why the page has none', async () => {
    const js =
      "---js\n{ title: (function () { globalThis.__wikiStewardPwned = true; require('fs').writeFileSync('/tmp/ws-pwned', 'x'); return 'x'; })() }\n---\nBody.\n";
    const wiki = await makeWiki({ 'concepts/evil.md': js, 'concepts/evil2.md': js.replace('---js', '---javascript') });
    const { code, report } = await validateJson(wiki);
    expect(code).toBe(1);
    expect((globalThis as Record<string, unknown>).__wikiStewardPwned).toBeUndefined();
    const faults = report.diagnostics.filter((d) => d.path.startsWith('concepts/evil'));
    expect(faults.map((d) => d.code)).toEqual(['refused-language', 'refused-language']);
    expect(faults[0]!.message).toMatch(/never executed/);
    // The index builder reads the same pages: still nothing runs.
    expect((await runCli(['index', '--wiki', wiki], wiki)).code).toBe(0);
    expect((globalThis as Record<string, unknown>).__wikiStewardPwned).toBeUndefined();
  });

  it('reports malformed frontmatter on its line and keeps checking other pages', async () => {
    const wiki = await makeWiki({
      'concepts/bad.md': '---\ntitle: Bad\ntype: concepts\nsources:\n- raw/a.md\n---\nBody\n',
      'concepts/unterminated.md': '---\ntitle: X\ntags: [a, b\n---\nBody\n',
      'concepts/good.md': page({ title: 'Good', type: 'concepts' }),
    });
    const { report } = await validateJson(wiki);
    const bad = report.diagnostics.find((d) => d.path === 'concepts/bad.md')!;
    expect(bad).toMatchObject({ code: 'malformed-frontmatter', line: 5 });
    expect(bad.message).toContain("malformed line (no colon): '- raw/a.md'");
    expect(report.diagnostics.find((d) => d.path === 'concepts/unterminated.md')).toMatchObject({ code: 'malformed-frontmatter', line: 3 });
    expect(report.diagnostics.filter((d) => d.path === 'concepts/good.md')).toEqual([]);
    expect(report.checked).toBe(3);
  });

  it('reports binary and non-UTF-8 files instead of crashing', async () => {
    const wiki = await makeWiki({
      'concepts/binary.md': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
      'concepts/latin1.md': Buffer.concat([Buffer.from('---\ntitle: Caf'), Buffer.from([0xe9]), Buffer.from('\n---\n')]),
      'concepts/good.md': page({ title: 'Good', type: 'concepts' }),
    });
    const { report } = await validateJson(wiki);
    expect(report.diagnostics.find((d) => d.path === 'concepts/binary.md')).toMatchObject({ code: 'unreadable' });
    const latin1 = report.diagnostics.find((d) => d.path === 'concepts/latin1.md')!;
    expect(latin1.code).toBe('unreadable');
    expect(latin1.message).toMatch(/not valid UTF-8.*offset 14/);
    expect((await runCli(['index', '--wiki', wiki], wiki)).code).toBe(0);
  });

  it('reads CRLF pages exactly like LF pages', async () => {
    const lf = page({ title: 'Line Endings', type: 'concepts', body: 'First line\nsecond line.\n\nNext.' });
    const wiki = await makeWiki({ 'concepts/crlf.md': lf.replaceAll('\n', '\r\n'), 'other/lf.md': lf.replace('type: concepts', 'type: other') });
    const { code, report } = await validateJson(wiki);
    expect(report.diagnostics).toEqual([]);
    expect(code).toBe(0);
    await runCli(['index', '--wiki', wiki], wiki);
    const { readFile } = await import('node:fs/promises');
    const index = await readFile(path.join(wiki, 'concepts/_index.md'), 'utf8');
    expect(index).toContain('- [Line Endings](crlf.md) — (q: 3.25) First line second line.\n');
  });

  it('handles a 10 MB page: one diagnostic for it (over the page size limit), the rest checked', async () => {
    const body = `${'A long paragraph line with [a link](/concepts/small.md). '.repeat(20)}\n\n`.repeat(9000);
    const big = page({ title: 'Huge', type: 'concepts', body });
    expect(big.length).toBeGreaterThan(10_000_000);
    const wiki = await makeWiki({ 'concepts/huge.md': big, 'concepts/small.md': page({ title: 'Small', type: 'concepts' }) });
    const { code, report } = await validateJson(wiki);
    expect(code).toBe(1);
    expect(report.checked).toBe(2);
    expect(report.diagnostics).toMatchObject([
      { path: 'concepts/huge.md', code: 'page-too-large', line: 1, message: expect.stringContaining('over the 2 MB limit') },
    ]);
  });

  it('does not follow a symlink that points out of the wiki', async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), 'ws-outside-'));
    await writeFile(path.join(outside, 'secret.md'), page({ title: 'Secret Outside', type: 'concepts' }));
    const wiki = await makeWiki({
      'concepts/good.md': page({ title: 'Good', type: 'concepts', body: 'See [it](/concepts/leak.md) and [up](../../etc/passwd).' }),
    });
    await symlink(path.join(outside, 'secret.md'), path.join(wiki, 'concepts/leak.md'));
    await symlink(outside, path.join(wiki, 'concepts/linked-dir'));
    const { report } = await validateJson(wiki);
    expect(report.diagnostics.find((d) => d.path === 'concepts/leak.md')).toMatchObject({ code: 'not-followed', severity: 'warning' });
    const links = report.diagnostics.filter((d) => d.code === 'broken-link').map((d) => d.message);
    expect(links).toEqual([expect.stringContaining('/concepts/leak.md'), expect.stringContaining('outside the wiki root')]);
    await runCli(['index', '--wiki', wiki], wiki);
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(path.join(wiki, 'concepts/_index.md'), 'utf8')).not.toContain('Secret Outside');
  });
});
