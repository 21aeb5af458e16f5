// Hostile or pathological pages, on real files: each costs one diagnostic for that page (or is left
// out where it cannot be listed), never the run, and never the rest of the wiki. An input that
// would hang or exhaust memory is proven bounded by what comes back (the refusal names the limit it
// stopped at); the test time limit is only a safety net, never the measure.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/config.js';
import { loadCatalog } from '../../src/ladder/catalog.js';
import { MAX_FRONTMATTER_EXPANSION } from '../../src/wiki/frontmatter.js';
import { parseMiniYaml } from '../../src/wiki/mini-yaml.js';
import { MAX_PAGE_BYTES } from '../../src/wiki/page-limit.js';
import { loadFileTree } from '../../src/wiki/tree.js';
import { runCli } from '../helpers/cli-in-process.js';
import { makeWiki, page } from '../helpers/wiki-fixture.js';

interface JsonDiagnostic {
  path: string;
  code: string;
  line: number;
  message: string;
  severity: string;
}

const validateJson = async (wiki: string) => {
  const run = await runCli(['validate', '--wiki', wiki, '--format', 'json'], wiki);
  expect(run.code, run.stderr).not.toBe(2);
  return { code: run.code, report: JSON.parse(run.stdout) as { checked: number; errors: number; diagnostics: JsonDiagnostic[] } };
};

/** Ten levels of `&a [*a, *a, … ×9]`: 9^10 (3.5 billion) values once the aliases are expanded. */
function billionLaughs(): string {
  const lines = [`lol0: &a0 [${Array(9).fill('"lol"').join(', ')}]`];
  for (let level = 1; level < 10; level++)
    lines.push(
      `lol${level}: &a${level} [${Array(9)
        .fill(`*a${level - 1}`)
        .join(', ')}]`,
    );
  return `${lines.join('\n')}\n`;
}

const good = page({ title: 'Good', type: 'concepts' });
const badDate = page({ title: 'Bad Date', type: 'concepts' }).replace('created: "2026-05-01T10:00:00Z"', 'created: 2026-05-01');

describe('page attacks: YAML alias bombs', () => {
  // 9^10 values expanded would never finish: that validate returns at all, with the refusal naming
  // the expansion limit it stopped at, is the proof that the check is bounded.
  it('a billion-laughs frontmatter is one diagnostic for its page, refused at the expansion limit, and the rest of the wiki is validated', async () => {
    const wiki = await makeWiki({
      'concepts/bomb.md': page({ title: 'Bomb', type: 'concepts', extra: billionLaughs() }),
      'concepts/good.md': good,
      'concepts/bad-date.md': badDate,
    });
    const { code, report } = await validateJson(wiki);
    expect(code).toBe(1);
    expect(report.checked).toBe(3);
    const bomb = report.diagnostics.filter((d) => d.path === 'concepts/bomb.md');
    expect(bomb).toHaveLength(1);
    expect(bomb[0]).toMatchObject({ code: 'yaml-alias-expansion', severity: 'error', line: 1 });
    expect(bomb[0]!.message).toMatch(/aliases expand to more than [\d,]+ characters of values/);
    expect(bomb[0]!.message).toContain(`more than ${MAX_FRONTMATTER_EXPANSION.toLocaleString('en-US')} characters`);
    expect(report.diagnostics.filter((d) => d.path === 'concepts/good.md')).toEqual([]);
    expect(report.diagnostics.filter((d) => d.path === 'concepts/bad-date.md').map((d) => d.code)).toEqual(['bad-date']);
  });

  it("the digest's health scan reads the same page without hanging, and names it invalid", async () => {
    const wiki = await makeWiki({ 'concepts/bomb.md': page({ title: 'Bomb', type: 'concepts', extra: billionLaughs() }), 'concepts/good.md': good });
    const run = await runCli(['digest', '--wiki', wiki, '--format', 'json'], wiki);
    expect(run.code, run.stderr).toBe(0);
    const health = (JSON.parse(run.stdout) as { health: { invalid: Array<{ path: string; messages: string[] }> } }).health;
    expect(health.invalid.map((i) => i.path)).toEqual(['concepts/bomb.md']);
    expect(health.invalid[0]!.messages).toHaveLength(1);
    expect(health.invalid[0]!.messages[0]).toContain(`more than ${MAX_FRONTMATTER_EXPANSION.toLocaleString('en-US')} characters`);
  });

  it('an alias that contains itself (a cycle) is refused the same way', async () => {
    const wiki = await makeWiki({
      'concepts/cycle.md': page({ title: 'Cycle', type: 'concepts', extra: 'loop: &l [*l, {again: *l}]\n' }),
      'concepts/good.md': good,
    });
    const { report } = await validateJson(wiki);
    const cycle = report.diagnostics.filter((d) => d.path === 'concepts/cycle.md');
    expect(cycle.map((d) => d.code)).toEqual(['yaml-alias-expansion']);
    expect(cycle[0]!.message).toMatch(/contains itself/);
  });

  it('ordinary anchors and aliases still read, and still get the usual YAML-difference warning', async () => {
    const wiki = await makeWiki({ 'concepts/anchors.md': page({ title: 'Anchors', type: 'concepts', extra: 'base: &b [x, y]\ncopy: *b\n' }) });
    const { code, report } = await validateJson(wiki);
    expect(code).toBe(0);
    expect(report.diagnostics.map((d) => d.code)).toEqual(['yaml-difference', 'yaml-difference']);
  });

  it("the upstream dialect never expands aliases: it reads the bomb's lines as plain strings", () => {
    const { data } = parseMiniYaml(billionLaughs());
    // Every level is its own line read as text: nothing refers to anything, so there is nothing to expand.
    expect(Object.keys(data)).toEqual(Array.from({ length: 10 }, (_, level) => `lol${level}`));
    expect(data.lol0).toBe(`&a0 [${Array(9).fill('"lol"').join(', ')}]`);
    for (let level = 1; level < 10; level++)
      expect(data[`lol${level}`]).toBe(
        `&a${level} [${Array(9)
          .fill(`*a${level - 1}`)
          .join(', ')}]`,
      );
  });
});

describe('page attacks: huge pages', () => {
  it('a page with 150,000 broken links gets its diagnostics, and validate exits 1, not 2', async () => {
    const body = '[x](n.md)\n'.repeat(150_000);
    expect(body.length).toBeLessThan(MAX_PAGE_BYTES);
    const wiki = await makeWiki({ 'concepts/links.md': page({ title: 'Links', type: 'concepts', body }), 'concepts/bad-date.md': badDate });
    const run = await runCli(['validate', '--wiki', wiki], wiki);
    expect(run.code, run.stderr).toBe(1);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(150_001);
    expect(lines[0]).toBe("concepts/bad-date.md:6: created must be ISO-8601 UTC like 2026-04-24T13:00:00Z, got '2026-05-01' [timestamps]");
    expect(lines.at(-1)).toBe('concepts/links.md:150016: broken markdown link: n.md (no file concepts/n.md in the wiki) [broken-link]');
    expect(run.stderr).toContain('2 pages checked: 150001 errors, 0 warnings');
  });

  it('a page over the size limit is one diagnostic, and is not parsed further', async () => {
    const body = `${'See [gone](missing.md) and [gone too](/concepts/none.md). '.repeat(20)}\n\n`.repeat(3000);
    const huge = page({ title: 'Huge', type: 'wrong-type', body });
    expect(huge.length).toBeGreaterThan(MAX_PAGE_BYTES);
    const wiki = await makeWiki({ 'concepts/huge.md': huge, 'concepts/good.md': good });
    const run = await runCli(['validate', '--wiki', wiki], wiki);
    expect(run.code).toBe(1);
    const megabytes = (Buffer.byteLength(huge) / 1024 / 1024).toFixed(1);
    expect(run.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^concepts/huge\\.md:1: page is ${megabytes.replace('.', '\\.')} MB \\([\\d,]+ bytes\\), over the 2 MB limit for one page`),
      ),
    ]);
    const { report } = await validateJson(wiki);
    expect(report.diagnostics).toMatchObject([{ path: 'concepts/huge.md', code: 'page-too-large', severity: 'error', line: 1 }]);
    expect(report.checked).toBe(2);
    // Index files still list it, by its file name: its text is not read.
    expect((await runCli(['index', '--wiki', wiki], wiki)).code).toBe(0);
    expect(await readFile(path.join(wiki, 'concepts/_index.md'), 'utf8')).toContain('\n- [huge](huge.md)\n');
  });

  it('the ask catalog skips a page over the limit and lists it as unreadable, with the reason', async () => {
    const body = `${'Cache tuning, explained at great length. '.repeat(40)}\n\n`.repeat(1500);
    const wiki = await makeWiki({
      'concepts/huge.md': page({ title: 'Cache Tuning Encyclopedia', type: 'concepts', body }),
      'concepts/small.md': page({ title: 'Cache Tuning', type: 'concepts', body: 'Cache tuning in short: measure first.' }),
    });
    const catalog = await loadCatalog(await loadFileTree(wiki), DEFAULT_CONFIG);
    expect(catalog.entries.map((e) => e.path)).toEqual(['concepts/small.md']);
    expect(catalog.unreadable).toEqual([
      { path: 'concepts/huge.md', reason: expect.stringMatching(/^page is \d+\.\d MB \([\d,]+ bytes\), over the 2 MB limit/) },
    ]);
    const ask = await runCli(['ask', '--wiki', wiki, '--json', 'How does cache tuning work?'], wiki);
    const trace = JSON.parse(ask.stdout) as { outcome: string; read: string[]; notes: string[] };
    expect(trace.outcome).toBe('answered');
    expect(trace.read).toEqual(['concepts/small.md']);
    // The ladder's skip is said in the answer's notes.
    expect(trace.notes).toContainEqual(expect.stringMatching(/^1 page was skipped by the wiki search: concepts\/huge\.md \(page is .* over the 2 MB limit/));
  });

  it('a 150,000-line page under the limit is answered from, not an error', async () => {
    const body = `Cache tuning starts with measuring.\n\n${'- cache note\n'.repeat(150_000)}`;
    expect(body.length).toBeGreaterThan(1_000_000);
    expect(body.length).toBeLessThan(MAX_PAGE_BYTES - 1000);
    const wiki = await makeWiki({ 'concepts/lines.md': page({ title: 'Cache Tuning Lines', type: 'concepts', body }) });
    const ask = await runCli(['ask', '--wiki', wiki, '--json', 'How does cache tuning work?'], wiki);
    expect((JSON.parse(ask.stdout) as { outcome: string }).outcome).toBe('answered');
    expect(ask.code).toBe(0);
    expect((await validateJson(wiki)).code).toBe(0);
  });
});

describe('page attacks: files that are not pages, and names that break lines', () => {
  it('a binary .md is reported by validate and left out of the generated index files', async () => {
    const wiki = await makeWiki({
      'concepts/binary.md': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
      'concepts/good.md': good,
      'concepts/deep/also-binary.md': Buffer.from('---\ntitle: Not Text\n---\n\u0000\u0000'),
      'concepts/deep/fine.md': page({ title: 'Fine', type: 'concepts' }),
    });
    const { report } = await validateJson(wiki);
    expect(report.diagnostics.filter((d) => d.path.endsWith('binary.md')).map((d) => d.code)).toEqual(['unreadable', 'unreadable']);
    expect((await runCli(['index', '--wiki', wiki], wiki)).code).toBe(0);
    const concepts = await readFile(path.join(wiki, 'concepts/_index.md'), 'utf8');
    const deep = await readFile(path.join(wiki, 'concepts/deep/_index.md'), 'utf8');
    expect(concepts).not.toContain('binary');
    expect(concepts).toContain('- [Good](good.md)');
    expect(concepts).toContain('  - Fine\n');
    expect(deep).not.toContain('binary');
    expect(deep).not.toContain('Not Text');
    expect(deep).toContain('- [Fine](fine.md)');
    expect((await runCli(['index', '--check', '--wiki', wiki], wiki)).code).toBe(0);
  });

  it('a file name with a line break is one diagnostic with the name escaped, and never an index entry', async () => {
    const wiki = await makeWiki({
      'concepts/evil\nname.md': page({ title: 'Evil', type: 'concepts', body: 'See [nothing](none.md).' }),
      'concepts/tab\there.md': page({ title: 'Tabbed', type: 'concepts' }),
      'concepts/good.md': good,
    });
    const run = await runCli(['validate', '--wiki', wiki], wiki);
    expect(run.code).toBe(1);
    expect(run.stdout.trimEnd().split('\n')).toEqual([
      'concepts/evil\\nname.md:1: file name "concepts/evil\\nname.md" holds a line break or other control character: not checked, not indexed; rename the file [unsafe-file-name]',
      'concepts/tab\\there.md:1: file name "concepts/tab\\there.md" holds a line break or other control character: not checked, not indexed; rename the file [unsafe-file-name]',
    ]);
    expect(run.stderr).toContain('3 pages checked: 2 errors, 0 warnings');
    const { report } = await validateJson(wiki);
    expect(report.diagnostics.map((d) => [d.path, d.code])).toEqual([
      ['concepts/evil\\nname.md', 'unsafe-file-name'],
      ['concepts/tab\\there.md', 'unsafe-file-name'],
    ]);
    await runCli(['index', '--wiki', wiki], wiki);
    const concepts = await readFile(path.join(wiki, 'concepts/_index.md'), 'utf8');
    expect(concepts).toBe('# concepts\n\n## Pages (in this directory)\n- [Good](good.md) — (q: 3.25) Good in one paragraph.\n\n## Subdirectories\n(none)\n\n');
    const catalog = await loadCatalog(await loadFileTree(wiki), DEFAULT_CONFIG);
    expect(catalog.entries.map((e) => e.path)).toEqual(['concepts/good.md']);
    expect(catalog.unreadable.map((u) => u.path)).toEqual(['concepts/evil\\nname.md', 'concepts/tab\\there.md']);
  });

  it('a folder name with a line break is never an index entry or an index file', async () => {
    const wiki = await makeWiki({ 'concepts/bad\ndir/page.md': page({ title: 'Inside', type: 'concepts' }), 'concepts/good.md': good });
    const { report } = await validateJson(wiki);
    expect(report.diagnostics.map((d) => [d.path, d.code])).toEqual([['concepts/bad\\ndir/page.md', 'unsafe-file-name']]);
    const index = await runCli(['index', '--wiki', wiki], wiki);
    expect(index.code).toBe(0);
    const concepts = await readFile(path.join(wiki, 'concepts/_index.md'), 'utf8');
    expect(concepts).not.toContain('bad');
    await expect(readFile(path.join(wiki, 'concepts/bad\ndir/_index.md'), 'utf8')).rejects.toThrow(/ENOENT/);
  });
});

describe('validate summary', () => {
  it('pluralises: 1 page checked, 2 pages checked', async () => {
    const one = await makeWiki({ 'concepts/bad-date.md': badDate });
    expect((await runCli(['validate', '--wiki', one], one)).stderr).toContain('1 page checked: 1 error, 0 warnings');
    const two = await makeWiki({ 'concepts/good.md': good, 'concepts/anchors.md': page({ title: 'Anchors', type: 'concepts', extra: 'base: &b [x]\n' }) });
    expect((await runCli(['validate', '--wiki', two], two)).stderr).toContain('2 pages checked: 0 errors, 1 warning');
  });
});
