// The parts of a catalog load (catalog.ts) that a load from the pages and a load from a snapshot
// (snapshot-reuse.ts) share: reading pages and the index files, and what spans pages (index
// listings, link texts), and what a load hands the catalog.
import path from 'node:path';
import { type IndexEntry, parseIndexFile } from '../wiki/index-entries.js';
import { type WikiSchema, parseSchema } from '../wiki/schema-file.js';
import { type FileText, type WikiTree } from '../wiki/tree.js';
import { type WikilinkResolver, wikilinkResolver } from '../wiki/wikilinks.js';
import type { Field, RelevanceCounter, RelevanceIndex } from './relevance.js';
import type { KeptPage } from './snapshot-file.js';
import { readCatalogPages } from './catalog-pages.js';
import type { PageFacts, ReadPage } from './page-facts.js';
import { foldText } from './text-match.js';
import type { WordIndex } from './word-index.js';
import { type WikiEntry, entryCategory } from './wiki-entry.js';

/** Where a load took the catalog from: see WikiCatalog.loadedFrom. */
export type LoadedFrom = 'pages' | 'snapshot' | 'patched snapshot' | 'updated snapshot';

/** What a load hands the catalog (catalog.ts' assembleCatalog builds the lookups over it). */
export interface LoadedCatalog {
  loadedFrom: LoadedFrom;
  pagesRead: number;
  entries: WikiEntry[];
  relevance: RelevanceIndex;
  names: WordIndex;
  phrases: WordIndex;
  acronyms: ReadonlyMap<string, readonly string[]>;
  schema: WikiSchema | undefined;
  indexFiles: string[];
  unreadable: Array<{ path: string; reason: string }>;
}

/** How the wiki's `[[wikilinks]]` resolve to its pages (the wiki's own name is its folder's). */
export const pageWikilinks = (tree: WikiTree, pages: readonly string[]): WikilinkResolver => wikilinkResolver(pages, { wikiName: path.basename(tree.root) });

/** Index files speak for the pages they list (of `readable`): the first listing (root first, then by path) wins. */
export function listingsOf(
  indexFiles: readonly string[],
  indexTexts: ReadonlyMap<string, string>,
  readable: { has(path: string): boolean },
  resolveWikilink: WikilinkResolver,
): Map<string, IndexEntry> {
  const listed = new Map<string, IndexEntry>();
  for (const file of indexFiles) {
    const text = indexTexts.get(file);
    if (text === undefined) continue;
    for (const entry of parseIndexFile(file, text, { resolveWikilink })) {
      if (readable.has(entry.path) && !listed.has(entry.path)) listed.set(entry.path, entry);
    }
  }
  return listed;
}

/** Each page's texts of the links to it from other pages (a wikilink without `|text` shows the page's title), in page order. */
export function linkTextsOf(facts: ReadonlyMap<string, PageFacts>, resolveWikilink: WikilinkResolver): Map<string, string[]> {
  const linkTexts = new Map<string, string[]>();
  for (const [from, f] of facts) {
    const wikilinks = f.wikilinks.flatMap((link) => {
      const target = resolveWikilink(link.target);
      return target ? [{ target, text: link.text }] : [];
    });
    for (const link of [...f.links, ...wikilinks]) {
      const target = facts.get(link.target);
      if (link.target === from || !target) continue;
      const text = link.text ?? target.title;
      const list = linkTexts.get(link.target);
      if (list) list.push(text);
      else linkTexts.set(link.target, [text]);
    }
  }
  return linkTexts;
}

/**
 * A page's entry but for its folding: its facts, with the title and summary of the index file that
 * lists it (`listing`) when that gives them, and the texts of the links to it.
 */
export const unfoldedEntry = (path: string, f: PageFacts, listing: IndexEntry | undefined, linkTexts: string[]): Omit<WikiEntry, 'folded'> => ({
  path,
  category: entryCategory(path),
  title: listing?.title || f.title,
  summary: listing?.summary || f.ownSummary,
  tags: f.tags,
  aliases: f.aliases,
  headings: f.headings,
  linkTexts,
  ...(listing ? { listedIn: listing.indexFile } : {}),
  openCapture: f.openCapture,
});

/** The entry with its title and summary folded (what matching a term reads). */
export const foldedEntry = (entry: Omit<WikiEntry, 'folded'>): WikiEntry => ({
  ...entry,
  folded: { title: foldText(entry.title), summary: foldText(entry.summary) },
});

/** An entry's texts in the ranking's short fields. */
export const shortFields = (e: Omit<WikiEntry, 'folded'>): Record<Exclude<Field, 'body'>, readonly string[]> => ({
  title: [e.title],
  aliases: e.aliases,
  tags: e.tags,
  summary: [e.summary],
  headings: e.headings,
  links: e.linkTexts,
});

/**
 * Every page in page order, read or (when `kept` holds it) taken from the snapshot or an earlier
 * read of this load, bodies counted over `counter`'s ids. Pages over the size limit are not read (see wiki/page-limit.ts): unreadable,
 * with why.
 */
export async function readOrKeep(
  tree: WikiTree,
  pages: readonly string[],
  counter: RelevanceCounter,
  kept: ReadonlyMap<string, ReadPage | KeptPage> | undefined,
): Promise<Array<ReadPage | KeptPage>> {
  const read = new Map<string, ReadPage>();
  // Chunks merge in page order, so word ids come out as one pass gives them.
  for (const chunk of await readCatalogPages(
    tree,
    pages.filter((p) => !kept?.has(p)),
  )) {
    const ids = counter.adopt(chunk.vocabulary);
    // Ids already this counter's (the first chunk of a load with nothing kept): nothing to remap.
    const remap = ids.some((id, k) => id !== k);
    for (const page of chunk.pages) {
      if (remap && 'facts' in page) for (let k = 0; k < page.facts.body.ids.length; k++) page.facts.body.ids[k] = ids[page.facts.body.ids[k]!]!;
      read.set(page.path, page);
    }
  }
  return pages.map((p) => read.get(p) ?? kept!.get(p)!);
}

/**
 * schema.md parsed and the index files' texts, of those among `files` that can be read; `passing`:
 * those that could not be read for a reason other than their content (a failed read, a file gone
 * meanwhile), which a later read may not meet.
 */
export async function readMetaFiles(
  tree: WikiTree,
  files: readonly string[],
): Promise<{ schema: WikiSchema | undefined; indexTexts: Map<string, string>; passing: Set<string> }> {
  let schema: WikiSchema | undefined;
  const indexTexts = new Map<string, string>();
  const passing = new Set<string>();
  await tree.readEach(files, (path, file: FileText) => {
    if (!file.ok) {
      if (file.problem === undefined) passing.add(path);
      return;
    }
    if (path === 'schema.md') schema = parseSchema(file.text);
    else indexTexts.set(path, file.text);
  });
  return { schema, indexTexts, passing };
}
