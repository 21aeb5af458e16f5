// Acceptance for issue 15: a wiki in another dialect (Obsidian-style [[wikilinks]], date-only
// timestamps, singular types, no quality blocks), made from the real prose of examples/wiki, with a
// known set of planted defects. `validate --suggest-config` writes a config under which `validate`
// reports exactly those defects as errors, and the digest counts wikilinks as links.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/config.js';
import { wikiHealth } from '../../src/digest/wiki-health.js';
import { openWikiLayout } from '../../src/wiki/open.js';
import { isIndexFile, resolveWikiPath } from '../../src/wiki/validator.js';
import { blankCode } from '../../src/wiki/wikilinks.js';
import { runCli } from '../helpers/cli-in-process.js';
import { makeWiki, page } from '../helpers/wiki-fixture.js';

const EXAMPLE = path.resolve(import.meta.dirname, '../../examples/wiki');
const SINGULAR: Record<string, string> = { concepts: 'concept', entities: 'entity', queries: 'query', ideas: 'idea', 'how-to': 'how-to' };
const MARKDOWN_LINK = /\[([^\]]*)\]\(([^)\s]+)\)/g;
const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

/** The page in the other dialect: wikilinks between pages, date-only timestamps, singular type, no quality block. */
function convert(text: string, pagePath: string, pages: ReadonlySet<string>, stemCount: ReadonlyMap<string, number>): string {
  const close = text.indexOf('\n---\n') + 5;
  const frontmatter = text
    .slice(0, close)
    .replace(/^(created|updated): "?([0-9]{4}-[0-9]{2}-[0-9]{2})T[^"\n]*"?$/gm, '$1: $2')
    .replace(/^type: (\S+)$/m, (_, type: string) => `type: ${SINGULAR[type] ?? type}`)
    .replace(/^quality:\n(?: {2}.*\n)*/m, '');
  const body = text.slice(close);
  const code = blankCode(body);
  const dir = pagePath.includes('/') ? pagePath.slice(0, pagePath.lastIndexOf('/')) : '';
  const out = body.replace(MARKDOWN_LINK, (match: string, label: string, target: string, offset: number) => {
    if (code[offset] !== '[') return match; // inside code
    const [file, anchor] = target.split('#') as [string, string | undefined];
    const resolved = resolveWikiPath(file.startsWith('/') ? '' : dir, file);
    if (!resolved || !pages.has(resolved)) return match;
    const stem = resolved.slice(resolved.lastIndexOf('/') + 1).replace(/\.md$/, '');
    const slug = (stemCount.get(stem)! > 1 ? resolved.replace(/\.md$/, '') : stem) + (anchor ? `#${anchor}` : '');
    return label === stem || label === '' ? `[[${slug}]]` : `[[${slug}|${label}]]`;
  });
  return frontmatter + out;
}

/** Inserts `line` after the body's first paragraph; returns the page and the 1-based line it landed on. */
function plant(text: string, line: string): { text: string; line: number } {
  const lines = text.split('\n');
  const bodyStart = lines.indexOf('---', 1) + 1;
  let at = bodyStart;
  while (at < lines.length && lines[at]!.trim() === '') at++;
  while (at < lines.length && lines[at]!.trim() !== '') at++;
  lines.splice(at, 0, '', line);
  return { text: lines.join('\n'), line: at + 2 };
}

async function otherDialectWiki() {
  const root = await mkdtemp(path.join(os.tmpdir(), 'ws-dialect-'));
  roots.push(root);
  await cp(EXAMPLE, root, { recursive: true });
  const layout = await openWikiLayout(root, DEFAULT_CONFIG);
  const pages = new Set(layout.pages);
  const stemCount = new Map<string, number>();
  for (const p of pages) {
    const stem = p.slice(p.lastIndexOf('/') + 1).replace(/\.md$/, '');
    stemCount.set(stem, (stemCount.get(stem) ?? 0) + 1);
  }
  const converted = [...pages].filter((p) => !isIndexFile(p));
  let wikilinks = 0;
  for (const p of converted) {
    const text = convert(await readFile(path.join(root, p), 'utf8'), p, pages, stemCount);
    wikilinks += (text.match(/\[\[/g) ?? []).length;
    await writeFile(path.join(root, p), text);
  }
  // The planted defects.
  const broken: Array<{ path: string; line: number; target: string }> = [];
  for (const [p, target] of [
    ['concepts/overview.md', 'no-such-page'],
    ['how-to/ask-from-the-cli.md', 'concepts/ghost'],
    ['entities/ollama.md', 'ollama-2'],
  ] as const) {
    const planted = plant(await readFile(path.join(root, p), 'utf8'), `See also [[${target}]] for more.`);
    await writeFile(path.join(root, p), planted.text);
    broken.push({ path: p, line: planted.line, target });
  }
  const unparseable = 'entities/octokit.md';
  const octokit = await readFile(path.join(root, unparseable), 'utf8');
  await writeFile(path.join(root, unparseable), octokit.replace(/^title: .*$/m, 'title: [Octokit'));
  const untitled = 'entities/searxng.md';
  const searxng = await readFile(path.join(root, untitled), 'utf8');
  await writeFile(path.join(root, untitled), searxng.replace(/^title: .*\n/m, ''));
  return { root, converted, wikilinks, broken, unparseable, untitled };
}

describe('a wiki in another dialect (issue 15)', () => {
  it('validate --suggest-config fits the dialect; validate then reports exactly the planted defects as errors', async () => {
    const wiki = await otherDialectWiki();
    expect(wiki.converted.length).toBe(57);
    expect(wiki.wikilinks).toBeGreaterThan(100);

    const suggest = await runCli(['validate', '--suggest-config'], wiki.root);
    expect(suggest.code).toBe(0);
    const config = suggest.stdout;
    expect(config).toMatch(/^ {4}timestamps: warn +# 56 of 56 pages use other timestamps \(56 date-only like 2026-05-01\)$/m);
    expect(config).toMatch(/^ {4}quality: "off" +# no page has a quality block$/m);
    expect(config).toMatch(/^ {4}wikilink: error +# links are \[\[wikilinks\]\] \(\d+\) rather than markdown \(\d+\); 3 unresolved/m);
    expect(config).toMatch(/^ {4}required-field: error /m);
    expect(config).toMatch(/^ {4}type-category: (warn|"off") +# type equals the top folder on \d+% of pages/m);
    for (const rule of ['frontmatter', 'broken-link', 'wikilink', 'unreadable', 'page-too-large', 'unsafe-file-name', 'check-failed']) {
      expect(config).toMatch(new RegExp(`^ {4}${rule}: error `, 'm'));
    }
    await writeFile(path.join(wiki.root, '.wiki-steward.yml'), `${config}\n`);

    const run = await runCli(['validate', '--format', 'json'], wiki.root);
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout) as { errors: number; diagnostics: Array<{ severity: string; rule: string; path: string; line: number; field?: string; code: string }> };
    const errors = json.diagnostics.filter((d) => d.severity === 'error').map((d) => ({ rule: d.rule, path: d.path, line: d.line, code: d.code, field: d.field }));
    expect(json.errors).toBe(5);
    expect(errors).toEqual(
      expect.arrayContaining([
        ...wiki.broken.map((b) => ({ rule: 'wikilink', path: b.path, line: b.line, code: 'broken-wikilink', field: b.target })),
        expect.objectContaining({ rule: 'frontmatter', path: wiki.unparseable, code: 'malformed-frontmatter' }),
        { rule: 'required-field', path: wiki.untitled, line: 1, code: 'missing-field', field: 'title' },
      ]),
    );

    // The digest counts wikilinks as links: no page is an orphan that was not one with markdown links.
    const settings = { ...DEFAULT_CONFIG, validate: { preset: 'upstream' as const, rules: {} } };
    const now = { now: new Date('2026-12-01T00:00:00Z'), staleDays: 180 };
    const before = await wikiHealth(await openWikiLayout(EXAMPLE, settings), now);
    const after = await wikiHealth(await openWikiLayout(wiki.root, settings), now);
    expect(after.orphans.sort()).toEqual(before.orphans.sort());
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
      'concepts/a.md:17: broken wikilink: [[dup]] (more than one page fits it) [wikilink]',
      'concepts/a.md:17: broken wikilink: [[gone]] (no page fits it) [wikilink]',
      'concepts/a.md:24: broken wikilink: [[nowhere]] (no page fits it) [wikilink]',
    ]);
    await rm(wiki, { recursive: true, force: true });
  });
});
