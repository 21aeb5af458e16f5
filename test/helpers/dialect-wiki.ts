// A wiki in another dialect than upstream's (Obsidian-style [[wikilinks]], date-only timestamps,
// singular types, no quality blocks), assembled from real prose: the example wiki (57 pages) and
// the eng-standards wiki (216 pages, CC BY 4.0, see fixtures/wikis/eng-standards/SOURCE.md), with
// a known set of planted defects. The conversion keeps every page's text; it changes only:
// - frontmatter: `created`/`updated` date-only (eng-standards' `added`/`last_updated` become them),
//   `type` the folder's singular, no `quality` block, an empty `sources` where a page had none;
// - links: a markdown link to a page becomes a [[wikilink]] (path-qualified when two pages share the
//   stem); a link or wikilink that dangles in the source (eng-standards' cross-wiki links to sibling
//   wikis not copied) becomes its text, so the only broken links are the planted ones.
// Only eng-standards' category folders are taken (its root index, overview and log are not), and
// the index files are rebuilt by `wiki-steward index` before the defects are planted.
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_CONFIG } from '../../src/config/config.js';
import { openWikiLayout } from '../../src/wiki/open.js';
import { blankCode } from '../../src/markdown/code.js';
import { isIndexFile } from '../../src/wiki/validator.js';
import { resolveWikiPath } from '../../src/wiki/wiki-path.js';
import { wikilinkResolver } from '../../src/wiki/wikilinks.js';
import { runCli } from './cli-in-process.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/wikis');
export const EXAMPLE_WIKI = path.resolve(import.meta.dirname, '../../examples/wiki');
export const ENG_STANDARDS_WIKI = path.join(FIXTURES, 'eng-standards/wiki');
const ENG_STANDARDS_FOLDERS = ['concepts', 'standards', 'sources'];

const SINGULAR: Record<string, string> = {
  concepts: 'concept',
  entities: 'entity',
  queries: 'query',
  ideas: 'idea',
  'how-to': 'how-to',
  standards: 'standard',
  sources: 'source',
};
const MARKDOWN_LINK = /\[([^\]]*)\]\(([^)\s]+)\)/g;
const WIKILINK = /\[\[([^[\]\n|#]*)(#[^[\]\n|]*)?(?:\|([^[\]\n]*))?\]\]/g;
const DATE = /^"?([0-9]{4}-[0-9]{2}-[0-9]{2})/;

const stemOf = (page: string) => page.slice(page.lastIndexOf('/') + 1).replace(/\.md$/, '');

/** Frontmatter in the dialect: date-only timestamps, singular type, no quality block, every required field. */
function convertFrontmatter(frontmatter: string, pagePath: string): string {
  const lines = frontmatter.split('\n');
  const value = (key: string) =>
    lines
      .find((l) => l.startsWith(`${key}:`))
      ?.slice(key.length + 1)
      .trim();
  const created = (value('created') ?? value('added') ?? '').match(DATE)?.[1];
  const updated = (value('updated') ?? value('last_updated') ?? '').match(DATE)?.[1];
  const folder = pagePath.split('/')[0]!;
  const kept = frontmatter.replace(/^(created|updated|added|last_updated|type): .*\n/gm, '').replace(/^quality:\n(?: {2}.*\n)*/m, '');
  const added = [
    `type: ${SINGULAR[folder] ?? folder}`,
    ...(created ? [`created: ${created}`] : []),
    ...(updated ? [`updated: ${updated}`] : []),
    ...(/^sources:/m.test(kept) ? [] : ['sources: []']),
  ];
  return kept.replace(/\n---\n$/, `\n${added.join('\n')}\n---\n`);
}

/** The body in the dialect: page links as wikilinks, dangling links as their text; code untouched. */
function convertBody(body: string, pagePath: string, pages: ReadonlySet<string>, stemCount: ReadonlyMap<string, number>): string {
  const resolve = wikilinkResolver(pages);
  const dir = pagePath.includes('/') ? pagePath.slice(0, pagePath.lastIndexOf('/')) : '';
  const slugOf = (page: string) => (stemCount.get(stemOf(page))! > 1 ? page.replace(/\.md$/, '') : stemOf(page));
  const outsideCode = (text: string) => {
    const code = blankCode(text);
    return (offset: number) => code[offset] === text[offset];
  };
  const inProse = outsideCode(body);
  const withLinks = body.replace(MARKDOWN_LINK, (match: string, label: string, target: string, offset: number) => {
    if (!inProse(offset) || /^[a-z]+:/i.test(target) || target.startsWith('#')) return match;
    const [file, anchor] = target.split('#') as [string, string | undefined];
    if (!file.endsWith('.md')) return match;
    const resolved = resolveWikiPath(file.startsWith('/') ? '' : dir, decodeURIComponent(file));
    if (!resolved || !pages.has(resolved)) return label;
    const slug = slugOf(resolved) + (anchor ? `#${anchor}` : '');
    return label === stemOf(resolved) || label === '' ? `[[${slug}]]` : `[[${slug}|${label}]]`;
  });
  const inProseNow = outsideCode(withLinks);
  return withLinks.replace(WIKILINK, (match: string, target: string, _heading: string | undefined, text: string | undefined, offset: number) =>
    !inProseNow(offset) || target.trim() === '' || resolve(target.trim()) ? match : (text ?? target).trim(),
  );
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

export interface DialectWiki {
  root: string;
  /** Every page converted (index files excluded). */
  converted: string[];
  /** [[wikilinks]] in the converted pages, before planting. */
  wikilinks: number;
  broken: Array<{ path: string; line: number; target: string }>;
  unparseable: string[];
  untitled: string[];
}

/** The assembled wiki in `root` (an empty folder), converted, indexed, and with its defects planted. */
export async function assembleDialectWiki(root: string): Promise<DialectWiki> {
  await cp(EXAMPLE_WIKI, root, { recursive: true });
  for (const folder of ENG_STANDARDS_FOLDERS) await cp(path.join(ENG_STANDARDS_WIKI, folder), path.join(root, folder), { recursive: true });
  const layout = await openWikiLayout(root, DEFAULT_CONFIG);
  const pages = new Set(layout.pages);
  const stemCount = new Map<string, number>();
  for (const p of pages) stemCount.set(stemOf(p), (stemCount.get(stemOf(p)) ?? 0) + 1);
  const converted = [...pages].filter((p) => !isIndexFile(p));
  let wikilinks = 0;
  for (const p of converted) {
    const text = await readFile(path.join(root, p), 'utf8');
    const close = text.indexOf('\n---\n', 3) + 5;
    const out = convertFrontmatter(text.slice(0, close), p) + convertBody(text.slice(close), p, pages, stemCount);
    wikilinks += (out.match(/\[\[/g) ?? []).length;
    await writeFile(path.join(root, p), out);
  }
  const indexed = await runCli(['index'], root);
  if (indexed.code !== 0) throw new Error(`index failed: ${indexed.stderr}`);

  const broken: DialectWiki['broken'] = [];
  for (const [p, target] of [
    ['concepts/overview.md', 'no-such-page'],
    ['how-to/ask-from-the-cli.md', 'concepts/ghost'],
    ['entities/ollama.md', 'ollama-2'],
    ['concepts/brittle-fracture.md', 'charpy-impact-test'],
    ['standards/api-570.md', 'standards/api-571-2'],
  ] as const) {
    const planted = plant(await readFile(path.join(root, p), 'utf8'), `See also [[${target}]] for more.`);
    await writeFile(path.join(root, p), planted.text);
    broken.push({ path: p, line: planted.line, target });
  }
  const unparseable = ['entities/octokit.md', 'standards/iso-9223.md'];
  for (const p of unparseable) {
    const text = await readFile(path.join(root, p), 'utf8');
    await writeFile(path.join(root, p), text.replace(/^title: (.*)$/m, 'title: [$1'));
  }
  const untitled = ['entities/searxng.md', 'concepts/cathodic-protection.md'];
  for (const p of untitled) {
    const text = await readFile(path.join(root, p), 'utf8');
    await writeFile(path.join(root, p), text.replace(/^title: .*\n/m, ''));
  }
  return { root, converted, wikilinks, broken, unparseable, untitled };
}
