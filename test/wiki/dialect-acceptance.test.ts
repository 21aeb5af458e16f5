// Acceptance for issue 15: a wiki in another dialect (Obsidian-style [[wikilinks]], date-only
// timestamps, singular types, no quality blocks), assembled from real prose (the example wiki and
// the eng-standards wiki, 273 pages; see helpers/dialect-wiki.ts), with a known set of planted
// defects. `validate --suggest-config` writes a config under which `validate` reports exactly those
// defects as errors, and the digest's orphans and the ladder's link texts count wikilinks.
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAskSession } from '../../src/answer/ask.js';
import { DEFAULT_CONFIG } from '../../src/config/config.js';
import { openWorkspace } from '../../src/config/workspace.js';
import { wikiHealth } from '../../src/digest/wiki-health.js';
import { openWikiLayout } from '../../src/wiki/open.js';
import { findWikilinks } from '../../src/markdown/links.js';
import { wikilinkResolver } from '../../src/wiki/wikilinks.js';
import { runCli } from '../helpers/cli-in-process.js';
import { assembleDialectWiki } from '../helpers/dialect-wiki.js';
import { makeWiki, page } from '../helpers/wiki-fixture.js';
import { readFile } from 'node:fs/promises';

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

const tempRoot = async (): Promise<string> => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'ws-dialect-'));
  roots.push(root);
  return root;
};

/** Assembled once for the file; each test gets its own copy (a test writes its config into it). */
let assembled: ReturnType<typeof assembleDialectWiki> | undefined;
async function otherDialectWiki() {
  const wiki = await (assembled ??= tempRoot().then(assembleDialectWiki));
  const root = await tempRoot();
  await cp(wiki.root, root, { recursive: true });
  return { ...wiki, root };
}

describe('a wiki in another dialect (issue 15)', () => {
  it('validate --suggest-config fits the dialect; validate then reports exactly the planted defects as errors', async () => {
    const wiki = await otherDialectWiki();
    expect(wiki.converted.length).toBe(57 + 216);
    expect(wiki.wikilinks).toBeGreaterThan(2000);

    const suggest = await runCli(['validate', '--suggest-config'], wiki.root);
    expect(suggest.code).toBe(0);
    const config = suggest.stdout;
    expect(config).toMatch(/^# Suggested by `wiki-steward validate --suggest-config` from 273 pages\.$/m);
    expect(config).toMatch(/^ {4}timestamps: warn +# 271 of 271 pages use other timestamps \(271 date-only like \d{4}-\d{2}-\d{2}\)$/m);
    expect(config).toMatch(/^ {4}quality: "off" +# no page has a quality block$/m);
    expect(config).toMatch(/^ {4}wikilink: error +# links are \[\[wikilinks\]\] \(\d+\) rather than markdown \(\d+\); 5 unresolved/m);
    expect(config).toMatch(/^ {4}required-field: error +# .*\(title on 2\): defects, not the dialect$/m);
    // Its types are its folders' names in the singular (issue 26): accepted, so a wrong type would be an error.
    expect(config).toMatch(/^ {2}types: singular +# \d+ of 271 pages with a type name their folder in the singular/m);
    expect(config).toMatch(/^ {4}type-category: error +# type equals the top folder or its singular on 100% of the pages with a type \(271 of 271\)$/m);
    // eng-standards names its sources by paths on its author's machine: the dialect, not damage.
    expect(config).toMatch(/^ {4}missing-source: warn +# \d+ of 271 pages name sources not in the wiki$/m);
    for (const rule of ['frontmatter', 'broken-link', 'wikilink', 'unreadable', 'page-too-large', 'unsafe-file-name', 'check-failed', 'stale-index']) {
      expect(config).toMatch(new RegExp(`^ {4}${rule}: error `, 'm'));
    }
    await writeFile(path.join(wiki.root, '.wiki-steward.yml'), `${config}\n`);

    const run = await runCli(['validate', '--format', 'json'], wiki.root);
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout) as {
      errors: number;
      diagnostics: Array<{ severity: string; rule: string; path: string; line: number; field?: string; code: string }>;
    };
    const errors = json.diagnostics
      .filter((d) => d.severity === 'error')
      .map((d) => ({ rule: d.rule, path: d.path, line: d.line, code: d.code, field: d.field }));
    const planted = [
      ...wiki.broken.map((b) => ({ rule: 'wikilink', path: b.path, line: b.line, code: 'broken-wikilink', field: b.target })),
      ...wiki.unparseable.map((p) => ({ rule: 'frontmatter', path: p, line: 2, code: 'malformed-frontmatter', field: undefined })),
      ...wiki.untitled.map((p) => ({ rule: 'required-field', path: p, line: 1, code: 'missing-field', field: 'title' })),
    ];
    const order = (a: { path: string; line: number }, b: { path: string; line: number }) => a.path.localeCompare(b.path) || a.line - b.line;
    expect(errors.sort(order)).toEqual(planted.sort(order));
    expect(json.errors).toBe(9);
  });

  it('orphans and link texts count wikilinks: in a wiki linked almost only by [[…]], pages are not orphans', async () => {
    const wiki = await otherDialectWiki();
    const settings = { ...DEFAULT_CONFIG, validate: { preset: 'upstream' as const, rules: {} } };
    const layout = await openWikiLayout(wiki.root, settings);
    // The oracle: pages no other page links to by a [[wikilink]] (the one markdown link left points at no page).
    const resolve = wikilinkResolver(layout.pages);
    const inbound = new Set<string>();
    for (const p of wiki.converted) {
      for (const link of findWikilinks(await readFile(path.join(wiki.root, p), 'utf8'))) {
        const target = resolve(link.target);
        if (target && target !== p) inbound.add(target);
      }
    }
    const expected = wiki.converted.filter((p) => !inbound.has(p)).sort();
    const health = await wikiHealth(layout, { now: new Date('2026-12-01T00:00:00Z'), staleDays: 180 });
    expect(health.orphans.sort()).toEqual(expected);
    expect(expected.length).toBeLessThan(wiki.converted.length / 4);

    // Link texts (the ladder's "backlinks"): `[[slug|text]]` gives its text, `[[slug]]` the page's title.
    const session = await openAskSession(await openWorkspace({ cwd: wiki.root, wikiFlag: wiki.root }));
    const withLinkTexts = session.catalog!.entries.filter((e) => e.linkTexts.length > 0);
    expect(withLinkTexts.length).toBe(wiki.converted.length - expected.length);
    expect(session.catalog!.byPath.get('concepts/cite-contract.md')!.linkTexts.length).toBeGreaterThan(0);
  });

  it('suggest-config judges type ↔ folder on the pages that have a type, not on those without one', async () => {
    const untyped = (title: string) => page({ title, type: 'x' }).replace(/^type: x\n/m, '');
    const wiki = await makeWiki({ 'concepts/a.md': untyped('A'), 'concepts/b.md': untyped('B'), 'concepts/c.md': page({ title: 'C', type: 'idea' }) });
    const suggest = await runCli(['validate', '--suggest-config'], wiki);
    expect(suggest.stdout).toMatch(/^ {4}required-field: warn +# the dialect lacks type \(missing on 2 of 3 pages\)/m);
    expect(suggest.stdout).toMatch(/^ {4}type-category: "off" +# type equals the top folder on 0% of the pages with a type \(0 of 1\)$/m);
    await rm(wiki, { recursive: true, force: true });
  });

  it('the wikilink rule: off under upstream; under lenient unknown and ambiguous targets are errors, code and resolved links are not', async () => {
    const body = 'See [[cache]], [[dup]], [[how-to/dup|the guide]] and [[gone#part|x]].\n\n`[[in-code]]`\n\n```\n[[fenced]]\n```\n[[nowhere]]\n';
    const wiki = await makeWiki({
      'concepts/a.md': page({ title: 'A', type: 'concepts', body }),
      'concepts/cache.md': page({ title: 'Cache', type: 'concepts' }),
      'concepts/dup.md': page({ title: 'Dup', type: 'concepts' }),
      'how-to/dup.md': page({ title: 'Dup', type: 'how-to' }),
    });
    const upstream = await runCli(['validate'], wiki);
    expect(upstream.code).toBe(0);
    expect(upstream.stdout).not.toContain('[wikilink]');
    await writeFile(path.join(wiki, '.wiki-steward.yml'), 'validate:\n  preset: lenient\n');
    const lenient = await runCli(['validate'], wiki);
    expect(lenient.code).toBe(1);
    expect(lenient.stdout.split('\n').filter((l) => l.endsWith('[wikilink]'))).toEqual([
      'concepts/a.md:17: broken wikilink: [[dup]] (2 files fit it equally: concepts/dup.md, how-to/dup.md) [wikilink]',
      'concepts/a.md:17: broken wikilink: [[gone]] (no file of the wiki fits it) [wikilink]',
      'concepts/a.md:24: broken wikilink: [[nowhere]] (no file of the wiki fits it) [wikilink]',
    ]);
    await rm(wiki, { recursive: true, force: true });
  });
});
