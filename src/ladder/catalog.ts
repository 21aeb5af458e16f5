// Step A's working memory: one entry per page (path, title, one-line summary, tags, category), taken
// from the on-disk index files where they list the page and from the page itself otherwise; tags
// always from frontmatter. Built in one pass over the wiki, then reused for every question.
import path from 'node:path';
import type { StewardConfig } from '../config/config.js';
import { comparePathParts } from '../wiki/python-compat.js';
import { type IndexEntry, isIndexFilePath, parseIndexFile } from '../wiki/index-entries.js';
import { type WikiLayout, escapeUnsafeName } from '../wiki/layout.js';
import { layoutOf } from '../wiki/open.js';
import { readPages } from '../wiki/page-limit.js';
import { type WikiSchema, parseSchema } from '../wiki/schema-file.js';
import { type FileText, type WikiTree } from '../wiki/tree.js';
import { wikilinkResolver } from '../wiki/wikilinks.js';
import { type RelevanceIndex, RelevanceCounter, restoredRelevance } from './relevance.js';
import { type CatalogCache } from './catalog-cache.js';
import { AcronymCollector } from './acronyms.js';
import { builtinStopwords } from './signal-terms.js';
import { readCatalogPages } from './catalog-pages.js';
import { type PageFacts } from './page-facts.js';
import { lowerBound } from './sorted-search.js';
import { type TermPattern, foldText, foldedWords } from './text-match.js';
import { type WikiEntry } from './wiki-entry.js';

export type { WikiEntry } from './wiki-entry.js';

export interface WikiCatalog {
  root: string;
  /** Whether this load read the pages, or took a snapshot whose every file key was current (catalog-cache.ts). */
  loadedFrom: 'pages' | 'snapshot';
  layout: WikiLayout;
  entries: WikiEntry[];
  byPath: Map<string, WikiEntry>;
  /** An entry's position in `entries` (the relevance index's page number). */
  indexOf(path: string): number;
  schema: WikiSchema | undefined;
  /** Fielded relevance over every entry (same order as `entries`). */
  relevance: RelevanceIndex;
  /** Acronyms the wiki spells out ("Backend for Frontend (BFF)"): folded acronym → its expansions. */
  acronyms: ReadonlyMap<string, readonly string[]>;
  /** Index files present, wiki-relative (root first). */
  indexFiles: string[];
  /** Pages that could not be read, with why. */
  unreadable: Array<{ path: string; reason: string }>;
  /** Reads pages in full (for steps C and E), in the order asked; pages that cannot be read are left out. */
  readPages(paths: readonly string[]): Promise<Map<string, string>>;
  /**
   * Entries that may match a term (a superset, in entry order): those holding every word of it in
   * their title, summary or tags. Lets step B look at a handful of entries instead of all of them.
   */
  mayMatch(pattern: TermPattern): readonly WikiEntry[];
}

/**
 * Page texts kept for the session's later questions (a batch reads the same pages again and again),
 * up to this many characters; past it the cache starts afresh. The catalog is the wiki as loaded.
 */
const PAGE_TEXT_CACHE_CHARS = 32 * 1024 * 1024;

/** Folded word → indexes of the entries whose title, summary or tags hold it. */
function buildPostings(entries: readonly WikiEntry[]): Map<string, number[]> {
  const postings = new Map<string, number[]>();
  entries.forEach((entry, i) => {
    const words = new Set([...entry.folded.title.words, ...entry.folded.summary.words, ...entry.tags.flatMap((t) => foldedWords(t))]);
    for (const word of words) {
      const list = postings.get(word);
      if (list) list.push(i);
      else postings.set(word, [i]);
    }
  });
  return postings;
}

/**
 * The catalog of the wiki in `tree`. With a `cache`, a snapshot whose every file key is current
 * stands for the load; otherwise the load runs and leaves one for the next run.
 */
export async function loadCatalog(tree: WikiTree, config: StewardConfig, cache?: CatalogCache): Promise<WikiCatalog> {
  const layout = layoutOf(tree, config);
  const indexFiles = [...tree.files].filter(isIndexFilePath).sort((a, b) => (a === 'index.md' ? -1 : b === 'index.md' ? 1 : comparePathParts(a, b)));
  const pages = new Set(layout.pages.filter((p) => !isIndexFilePath(p)));
  const metaFiles = [...indexFiles, ...(tree.files.has('schema.md') ? ['schema.md'] : [])];
  // Keyed before reading: a file changed while it is read leaves a key the next run sees differ.
  const keys = await cache?.keysOf([...pages, ...metaFiles]);
  const kept = keys && (await cache!.read());
  if (kept && sameKeys(kept.keys, keys!) && kept.entries.every((e) => pages.has(e.path))) {
    const { schema } = await readMetaFiles(
      tree,
      ['schema.md'].filter((f) => metaFiles.includes(f)),
    );
    const relevance = restoredRelevance(kept.entries.length, kept.vocabulary, kept.postings);
    return assembleCatalog(tree, layout, {
      loadedFrom: 'snapshot',
      entries: kept.entries,
      relevance,
      acronyms: new Map(kept.acronyms),
      schema,
      indexFiles,
      unreadable: kept.unreadable,
    });
  }
  const facts = new Map<string, PageFacts>();
  const counter = new RelevanceCounter(builtinStopwords());
  const acronymCollector = new AcronymCollector();
  const unreadable: WikiCatalog['unreadable'] = [];
  const resolveWikilink = wikilinkResolver(pages, { wikiName: path.basename(tree.root) });
  // Pages over the page size limit are not read (see wiki/page-limit.ts): unreadable, with why.
  // Chunks merge in page order, so facts, word ids and acronyms come out as one pass gives them.
  for (const chunk of await readCatalogPages(tree, [...pages], resolveWikilink)) {
    const ids = counter.adopt(chunk.vocabulary);
    // The first chunk's ids are already this counter's (it adopts them in order): nothing to remap.
    const remap = ids.some((id, k) => id !== k);
    for (const [path, f] of chunk.facts) {
      if (remap) for (let k = 0; k < f.body.ids.length; k++) f.body.ids[k] = ids[f.body.ids[k]!]!;
      facts.set(path, f);
    }
    unreadable.push(...chunk.unreadable);
    acronymCollector.merge(chunk.acronyms);
  }
  for (const path of layout.unsafeNames) {
    unreadable.push({ path: escapeUnsafeName(path), reason: 'its file name holds a line break or other control character' });
  }
  const { schema, indexTexts } = await readMetaFiles(tree, metaFiles);

  // Index files speak for the pages they list: the first listing (root first, then by path) wins.
  const listed = new Map<string, IndexEntry>();
  for (const file of indexFiles) {
    const text = indexTexts.get(file);
    if (text === undefined) continue;
    for (const entry of parseIndexFile(file, text, { resolveWikilink })) {
      if (facts.has(entry.path) && !listed.has(entry.path)) listed.set(entry.path, entry);
    }
  }

  const linkTexts = new Map<string, string[]>();
  for (const [from, f] of facts) {
    for (const link of f.links) {
      const target = facts.get(link.target);
      if (link.target === from || !target) continue;
      const text = link.text ?? target.title;
      const list = linkTexts.get(link.target);
      if (list) list.push(text);
      else linkTexts.set(link.target, [text]);
    }
  }

  const entries: WikiEntry[] = [];
  for (const path of layout.pages) {
    const f = facts.get(path);
    if (!f) continue;
    const index = listed.get(path);
    const title = index?.title || f.title;
    const summary = index?.summary || f.ownSummary;
    entries.push({
      path,
      category: path.split('/')[0]!,
      title,
      summary,
      tags: f.tags,
      aliases: f.aliases,
      headings: f.headings,
      linkTexts: [...new Set(linkTexts.get(path) ?? [])],
      ...(index ? { listedIn: index.indexFile } : {}),
      openCapture: f.openCapture,
      folded: { title: foldText(title), summary: foldText(summary) },
    });
  }
  const relevance = counter.build(
    entries.map((e) => ({
      fields: { title: [e.title], aliases: e.aliases, tags: e.tags, summary: [e.summary], headings: e.headings, links: e.linkTexts },
      body: facts.get(e.path)!.body,
    })),
  );
  const acronyms = acronymCollector.result();
  if (keys) await cache!.write({ keys, entries, acronyms: [...acronyms], unreadable, ...relevance.parts() });
  return assembleCatalog(tree, layout, {
    loadedFrom: 'pages',
    entries,
    relevance,
    acronyms,
    schema,
    indexFiles,
    unreadable,
  });
}

const sameKeys = (a: ReadonlyArray<readonly [string, string]>, b: ReadonlyArray<readonly [string, string]>): boolean =>
  a.length === b.length && a.every(([p, key], i) => p === b[i]![0] && key === b[i]![1]);

/** schema.md parsed and the index files' texts, of those among `files` that can be read. */
async function readMetaFiles(tree: WikiTree, files: readonly string[]): Promise<{ schema: WikiSchema | undefined; indexTexts: Map<string, string> }> {
  let schema: WikiSchema | undefined;
  const indexTexts = new Map<string, string>();
  await tree.readEach(files, (path, file: FileText) => {
    if (!file.ok) return;
    if (path === 'schema.md') schema = parseSchema(file.text);
    else indexTexts.set(path, file.text);
  });
  return { schema, indexTexts };
}

/** The catalog over entries loaded or kept: the lookups every question uses. */
function assembleCatalog(
  tree: WikiTree,
  layout: WikiLayout,
  loaded: Pick<WikiCatalog, 'loadedFrom' | 'entries' | 'relevance' | 'acronyms' | 'schema' | 'indexFiles' | 'unreadable'>,
): WikiCatalog {
  const { entries } = loaded;
  const positions = new Map(entries.map((e, i) => [e.path, i]));
  const postings = buildPostings(entries);
  // Sorted, so the words a prefix starts are one run found by binary search.
  const vocabulary = [...postings.keys()].sort();
  const wordsStartingWith = (prefix: string): string[] => {
    const words: string[] = [];
    for (let i = lowerBound(0, vocabulary.length, (k) => vocabulary[k]! < prefix); vocabulary[i]?.startsWith(prefix); i++) words.push(vocabulary[i]!);
    return words;
  };
  return {
    root: tree.root,
    layout,
    ...loaded,
    mayMatch(pattern) {
      if (pattern.noSpaceScript || pattern.words.length === 0) return entries; // no words to look up: every entry
      let hits: Set<number> | undefined;
      pattern.words.forEach((word, i) => {
        const last = i === pattern.words.length - 1 && word.length >= 4;
        const here = new Set<number>();
        for (const w of last ? wordsStartingWith(word) : [word]) for (const e of postings.get(w) ?? []) here.add(e);
        hits = hits ? new Set([...hits].filter((e) => here.has(e))) : here;
      });
      return [...hits!].sort((a, b) => a - b).map((i) => entries[i]!);
    },
    byPath: new Map(entries.map((e) => [e.path, e])),
    indexOf: (path) => positions.get(path) ?? -1,
    readPages: keptPageReader(tree),
  };
}

/**
 * `readPages` for a session: pages read in full, in the order asked, those that cannot be read left
 * out; texts kept (up to PAGE_TEXT_CACHE_CHARS) so a later question does not read them again.
 */
function keptPageReader(tree: WikiTree): WikiCatalog['readPages'] {
  let kept = new Map<string, string>();
  let keptChars = 0;
  return async (paths) => {
    const fresh = new Map<string, string>();
    await readPages(
      tree,
      paths.filter((path) => !kept.has(path)),
      (path, file) => {
        if (file.ok) fresh.set(path, file.text);
      },
    );
    const out = new Map<string, string>();
    for (const path of paths) {
      const text = fresh.get(path) ?? kept.get(path);
      if (text !== undefined) out.set(path, text);
    }
    for (const [path, text] of fresh) {
      if (keptChars + text.length > PAGE_TEXT_CACHE_CHARS) [kept, keptChars] = [new Map(), 0];
      kept.set(path, text);
      keptChars += text.length;
    }
    return out;
  };
}
