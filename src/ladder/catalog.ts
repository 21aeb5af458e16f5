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
import { type WikilinkResolver, wikilinkResolver } from '../wiki/wikilinks.js';
import { type BodyCounts, type Field, type FieldCounts, type RelevanceIndex, RelevanceCounter, restoredRelevance } from './relevance.js';
import { type CatalogCache } from './catalog-cache.js';
import { type CatalogSnapshot, type FileKeys, type KeptLine, type KeptPage, type SnapshotRest, keysDigest } from './snapshot-file.js';
import { AcronymCollector } from './acronyms.js';
import { builtinStopwords } from './signal-terms.js';
import { readCatalogPages } from './catalog-pages.js';
import { type PageFacts, type ReadPage } from './page-facts.js';
import { holdsFields, keptBytes, keptEntry } from './kept-entries.js';
import { type WordIndex, buildWordIndex, entriesHolding, entriesThatMayMatch, nameWords, phraseWords, wordsByEntry } from './word-index.js';
import { type TermPattern, foldText } from './text-match.js';
import { type WikiEntry } from './wiki-entry.js';

export type { WikiEntry } from './wiki-entry.js';

export interface WikiCatalog {
  root: string;
  /**
   * Whether this load read every page, took a snapshot whose every file key was current, or read
   * only the pages that changed since the snapshot (catalog-cache.ts): `patched snapshot` when no
   * change reached another page's entry (see patchedLoad), else `updated snapshot`.
   */
  loadedFrom: 'pages' | 'snapshot' | 'patched snapshot' | 'updated snapshot';
  /** How many pages this load read (the others came from the snapshot). */
  pagesRead: number;
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
  /** The entries (positions, ascending) whose aliases or the texts of links to them hold the folded word. */
  phraseHolders(word: string): Int32Array;
}

/**
 * Page texts kept for the session's later questions (a batch reads the same pages again and again),
 * up to this many characters; past it the cache starts afresh. The catalog is the wiki as loaded.
 */
const PAGE_TEXT_CACHE_CHARS = 32 * 1024 * 1024;

/**
 * The catalog of the wiki in `tree`. With a `cache`, a snapshot whose every file key is current
 * stands for the load; one whose keys differ for some pages gives the facts of the others, and only
 * the pages that changed (or came) are read. When none of those changes reaches another page's
 * entry, only the changed pages' entries are rebuilt (patchedLoad); otherwise what spans pages
 * (index listings, link texts, wikilinks, acronyms) is worked out again, as a load with no snapshot
 * works it out. The ranking's statistics are rebuilt whenever any page is read. Any load that read
 * pages leaves a snapshot for the next run.
 */
export async function loadCatalog(tree: WikiTree, config: StewardConfig, cache?: CatalogCache): Promise<WikiCatalog> {
  const layout = layoutOf(tree, config);
  const indexFiles = [...tree.files].filter(isIndexFilePath).sort((a, b) => (a === 'index.md' ? -1 : b === 'index.md' ? 1 : comparePathParts(a, b)));
  const pages = [...new Set(layout.pages.filter((p) => !isIndexFilePath(p)))];
  const metaFiles = [...indexFiles, ...(tree.files.has('schema.md') ? ['schema.md'] : [])];
  // The attributes files in the wiki's folders say how its pages are checked out (those at its root
  // and above are in the snapshot's stamp): keyed too, and when one differs no page's facts are kept.
  const attributes = [...tree.files].filter((f) => f.endsWith('/.gitattributes')).sort(comparePathParts);
  // Keyed before reading: a file changed while it is read leaves a key the next run sees differ.
  const keys = await cache?.keysOf([...pages, ...metaFiles, ...attributes]);
  const kept = keys && (await cache!.read());
  const unsafe = layout.unsafeNames.map((path) => ({ path: escapeUnsafeName(path), reason: 'its file name holds a line break or other control character' }));
  if (kept && kept.keysDigest === keysDigest(keys!) && holdsPages(kept, pages, indexFiles)) {
    const { schema } = await readMetaFiles(
      tree,
      metaFiles.filter((f) => f === 'schema.md'),
    );
    return assembleCatalog(tree, layout, {
      loadedFrom: 'snapshot',
      pagesRead: 0,
      entries: kept.entries,
      relevance: restoredRelevance(kept.entries.length, kept.relevance),
      names: kept.names,
      phrases: kept.phrases,
      acronyms: new Map(kept.acronyms),
      schema,
      indexFiles,
      unreadable: [...kept.unreadable, ...unsafe],
    });
  }
  const counter = new RelevanceCounter(builtinStopwords());
  const patch = kept ? await patchedLoad(tree, layout, { pages, indexFiles, metaFiles, unsafe }, kept, keys!, cache!, counter) : undefined;
  if (patch && 'catalog' in patch) return patch.catalog;
  const reuse = kept && (await keptParts(kept, keys!, counter));
  // The pages the patch read are not read again.
  const read = await readOrKeep(tree, pages, counter, new Map([...(reuse?.pages ?? []), ...(patch?.read ?? [])]));
  const unreadable = read.flatMap((page) => ('unreadable' in page ? [{ path: page.path, reason: page.unreadable }] : []));
  const facts = new Map(read.flatMap((page) => ('facts' in page ? [[page.path, page.facts] as const] : [])));
  const acronymCollector = new AcronymCollector();
  for (const f of facts.values()) acronymCollector.merge(f.acronyms);
  const { schema, indexTexts } = await readMetaFiles(tree, metaFiles);
  const resolveWikilink = wikilinkResolver(pages, { wikiName: path.basename(tree.root) });

  const listed = listingsOf(indexFiles, indexTexts, facts, resolveWikilink);
  const linkTexts = linkTextsOf(facts, resolveWikilink);

  const entries: WikiEntry[] = [];
  const fieldCounts: FieldCounts[] = [];
  const keptWords: Array<KeptWords | undefined> = [];
  for (const path of layout.pages) {
    const f = facts.get(path);
    if (!f) continue;
    const index = listed.get(path);
    const title = index?.title || f.title;
    const summary = index?.summary || f.ownSummary;
    const entry: Omit<WikiEntry, 'folded'> = {
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
    };
    // An entry the snapshot holds as it is now is the kept one (its folding and counts too); any other is counted.
    const same = reuse?.entry(entry);
    entries.push(same?.entry ?? { ...entry, folded: { title: foldText(title), summary: foldText(summary) } });
    fieldCounts.push(same?.fieldCounts() ?? counter.countFields(shortFields(entry)));
    keptWords.push(same?.words);
  }
  const relevance = counter.build(entries.map((e, i) => ({ fields: fieldCounts[i]!, body: facts.get(e.path)!.body })));
  const acronyms = acronymCollector.result();
  const names = buildWordIndex(entries, (e, i) => keptWords[i]?.names() ?? nameWords(e));
  const phrases = buildWordIndex(entries, (e, i) => keptWords[i]?.phrases() ?? phraseWords(e));
  const keyOf = new Map(keys);
  if (keys) {
    await cache!.write({
      keys,
      entries,
      acronyms: [...acronyms],
      unreadable,
      relevance: relevance.parts(),
      names,
      phrases,
      fieldCounts,
      pages: read.map((page) => ({ ...page, key: keyOf.get(page.path)! })),
    });
  }
  return assembleCatalog(tree, layout, {
    loadedFrom: reuse ? 'updated snapshot' : 'pages',
    pagesRead: read.length - (reuse?.pages.size ?? 0),
    entries,
    relevance,
    names,
    phrases,
    acronyms,
    schema,
    indexFiles,
    unreadable: [...unreadable, ...unsafe],
  });
}

/** The files a load keys, as loadCatalog lists them, and the pages whose names are unsafe. */
interface LoadFiles {
  pages: readonly string[];
  indexFiles: readonly string[];
  metaFiles: readonly string[];
  unsafe: WikiCatalog['unreadable'];
}

/**
 * A load that reads only the pages whose keys differ and rebuilds only their entries: when the
 * wiki's pages, index files, schema and attributes files are the snapshot's, and every changed page
 * is still readable, titled, linking and spelling out acronyms as the snapshot has it, nothing that
 * spans pages moved (listings, link texts, wikilinks, acronyms), so every other entry is the kept
 * one. The ranking's statistics are rebuilt from the counts as any load builds them, and the result
 * is what a load with no snapshot gives. When any of that does not hold (or the snapshot turns out
 * malformed), no catalog: the caller's update works out everything that spans pages instead, with
 * the pages this read (over `counter`'s ids, as the caller's).
 */
async function patchedLoad(
  tree: WikiTree,
  layout: WikiLayout,
  { pages, indexFiles, metaFiles, unsafe }: LoadFiles,
  kept: CatalogSnapshot,
  keys: FileKeys,
  cache: CatalogCache,
  counter: RelevanceCounter,
): Promise<{ catalog: WikiCatalog } | { read: ReadonlyMap<string, ReadPage> } | undefined> {
  if (!holdsPages(kept, pages, indexFiles)) return undefined;
  let rest: SnapshotRest;
  let before: KeptPage[];
  // Keys list the pages first, in page order, then the other files: those all as they were.
  let changed: number[];
  try {
    rest = await kept.rest();
    if (rest.keys.length !== keys.length || rest.pages.count !== pages.length || !rest.keys.every(([p], i) => p === keys[i]![0])) return undefined;
    changed = pages.flatMap((_, i) => (keys[i]![1] === rest.keys[i]![1] ? [] : [i]));
    if (changed.length === 0 || !sameKeys(rest.keys.slice(pages.length), keys.slice(pages.length))) return undefined;
    before = changed.map((i) => rest.pages.page(i));
  } catch {
    return undefined;
  }
  const now = await readOrKeep(
    tree,
    changed.map((i) => pages[i]!),
    counter,
    undefined,
  );
  const read = new Map(now.map((page) => [page.path, page]));
  const changedFacts = new Map<string, PageFacts>();
  for (const [k, page] of now.entries()) {
    const old = before[k]!;
    if (!('facts' in page) || !('facts' in old) || old.path !== page.path || crossPageFacts(old.facts) !== crossPageFacts(page.facts)) return { read };
    changedFacts.set(page.path, page.facts);
  }
  const { schema, indexTexts } = await readMetaFiles(tree, metaFiles);
  const positions = new Map(kept.entries.map((e, i) => [e.path, i]));
  const listed = listingsOf(indexFiles, indexTexts, positions, wikilinkResolver(pages, { wikiName: path.basename(tree.root) }));
  const remap = counter.remapper(kept.relevance.vocabulary);
  const keptNames = wordsByEntry(kept.names, kept.entries.length);
  const keptPhrases = wordsByEntry(kept.phrases, kept.entries.length);
  const entries: WikiEntry[] = [];
  const fieldCounts: FieldCounts[] = [];
  const rebuilt = new Set<number>();
  kept.entries.forEach((keptOne, at) => {
    const f = changedFacts.get(keptOne.path);
    const counts = rest.fieldCounts[at]!;
    const index = f && listed.get(keptOne.path);
    const entry: Omit<WikiEntry, 'folded'> | undefined = f && {
      path: keptOne.path,
      category: keptOne.category,
      title: index?.title || f.title,
      summary: index?.summary || f.ownSummary,
      tags: f.tags,
      aliases: f.aliases,
      headings: f.headings,
      // Links to a page whose title is unchanged, from pages whose links are unchanged: as kept.
      linkTexts: keptOne.linkTexts,
      ...(index ? { listedIn: index.indexFile } : {}),
      openCapture: f.openCapture,
    };
    if (entry && !holdsFields(keptBytes(keptOne)!, entry)) {
      rebuilt.add(at);
      entries.push({ ...entry, folded: { title: foldText(entry.title), summary: foldText(entry.summary) } });
      fieldCounts.push(counter.countFields(shortFields(entry)));
    } else {
      entries.push(keptOne);
      fieldCounts.push({ ...counts, ids: remap(counts.ids) });
    }
  });
  // Each page as kept (its line, its body's counts over this counter's ids) or as read now.
  const bodies = new Map<string, BodyCounts>();
  const written: Array<KeptPage | KeptLine> = pages.map((p, i) => {
    const f = changedFacts.get(p);
    if (f) {
      bodies.set(p, f.body);
      return { path: p, key: keys[i]![1], facts: f };
    }
    const { line, body } = rest.pages.line(i);
    const counted = { ...body, ids: remap(body.ids) };
    bodies.set(p, counted);
    return { line, body: counted };
  });
  const relevance = counter.build(entries.map((e, at) => ({ fields: fieldCounts[at]!, body: bodies.get(e.path)! })));
  const names = buildWordIndex(entries, (e, at) => (rebuilt.has(at) ? nameWords(e) : keptNames[at]!));
  const phrases = buildWordIndex(entries, (e, at) => (rebuilt.has(at) ? phraseWords(e) : keptPhrases[at]!));
  await cache.write({
    keys,
    entries,
    acronyms: kept.acronyms,
    unreadable: kept.unreadable,
    relevance: relevance.parts(),
    names,
    phrases,
    fieldCounts,
    pages: written,
  });
  const catalog = assembleCatalog(tree, layout, {
    loadedFrom: 'patched snapshot',
    pagesRead: changed.length,
    entries,
    relevance,
    names,
    phrases,
    acronyms: new Map(kept.acronyms),
    schema,
    indexFiles: [...indexFiles],
    unreadable: [...kept.unreadable, ...unsafe],
  });
  return { catalog };
}

/** What of a page's facts reaches other pages' entries or the wiki's tables: its title, links, wikilinks and acronyms. */
const crossPageFacts = (f: PageFacts): string =>
  JSON.stringify([f.title, f.links, f.wikilinks, [...f.acronyms].map(([acronym, forms]) => [acronym, [...forms]])]);

/** Index files speak for the pages they list (of `readable`): the first listing (root first, then by path) wins. */
function listingsOf(
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
function linkTextsOf(facts: ReadonlyMap<string, PageFacts>, resolveWikilink: WikilinkResolver): Map<string, string[]> {
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

/** An entry's texts in the ranking's short fields. */
const shortFields = (e: Omit<WikiEntry, 'folded'>): Record<Exclude<Field, 'body'>, readonly string[]> => ({
  title: [e.title],
  aliases: e.aliases,
  tags: e.tags,
  summary: [e.summary],
  headings: e.headings,
  links: e.linkTexts,
});

const sameKeys = (a: ReadonlyArray<readonly [string, string]>, b: ReadonlyArray<readonly [string, string]>): boolean =>
  a.length === b.length && a.every(([p, key], i) => p === b[i]![0] && key === b[i]![1]);

/**
 * Whether a snapshot's entries and unreadable pages are the tree's pages, each once (entries in page
 * order), listed in none but its index files: a snapshot forged with every key current names no
 * other file for a question to read or show.
 */
function holdsPages(kept: CatalogSnapshot, pages: readonly string[], indexFiles: readonly string[]): boolean {
  const unreadable = new Set(kept.unreadable.map((u) => u.path));
  const readable = pages.filter((p) => !unreadable.has(p));
  return (
    unreadable.size === kept.unreadable.length &&
    readable.length + unreadable.size === pages.length &&
    sameStrings(
      kept.entries.map((e) => e.path),
      readable,
    ) &&
    kept.entries.every((e) => e.listedIn === undefined || indexFiles.includes(e.listedIn))
  );
}

const sameStrings = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * What of a snapshot whose keys differ a load can still use, over `counter`'s word ids: the pages
 * whose key is current, and, for an entry whose own fields are as the snapshot has them, the kept
 * entry and its field counts. Undefined when the snapshot's parts turn out malformed, or an attributes
 * file in the wiki's folders differs (a cold load).
 */
async function keptParts(kept: CatalogSnapshot, keys: FileKeys, counter: RelevanceCounter): Promise<KeptParts | undefined> {
  let keptPages: KeptPage[], keptCounts, keptKeys;
  try {
    const rest = await kept.rest();
    ({ fieldCounts: keptCounts, keys: keptKeys } = rest);
    // Every line parsed (and checked) before any word is remapped into the counter.
    keptPages = Array.from({ length: rest.pages.count }, (_, i) => rest.pages.page(i));
  } catch {
    return undefined;
  }
  const attributeKeys = (all: FileKeys) => all.filter(([p]) => p.endsWith('/.gitattributes'));
  if (!sameKeys(attributeKeys(keptKeys), attributeKeys(keys))) return undefined;
  const remap = counter.remapper(kept.relevance.vocabulary);
  const current = new Map(keys);
  const pages = new Map<string, KeptPage>();
  for (const page of keptPages) {
    if (current.get(page.path) !== page.key) continue;
    pages.set(page.path, 'facts' in page ? { ...page, facts: { ...page.facts, body: { ...page.facts.body, ids: remap(page.facts.body.ids) } } } : page);
  }
  const positions = new Map(kept.entries.map((e, i) => [e.path, i]));
  // Each kept entry's words in the word indexes, read back from them once (cheaper than folding every entry's texts again).
  let names: string[][] | undefined;
  let phrases: string[][] | undefined;
  return {
    pages,
    entry(entry) {
      const at = positions.get(entry.path);
      if (at === undefined) return undefined;
      const bytes = keptBytes(kept.entries[at]!);
      if (bytes === undefined || !holdsFields(bytes, entry)) return undefined;
      const counts = keptCounts[at]!;
      return {
        entry: keptEntry(entry.path, entry.listedIn, bytes),
        fieldCounts: () => ({ ...counts, ids: remap(counts.ids) }),
        words: {
          names: () => (names ??= wordsByEntry(kept.names, kept.entries.length))[at]!,
          phrases: () => (phrases ??= wordsByEntry(kept.phrases, kept.entries.length))[at]!,
        },
      };
    },
  };
}

/** What a load that reads some pages takes from the snapshot. */
interface KeptParts {
  /** The pages whose key is current. */
  pages: Map<string, KeptPage>;
  /** For an entry whose own fields are as the snapshot has them, what of it the snapshot holds: the kept entry (as listed now), its counts and words. */
  entry(entry: Omit<WikiEntry, 'folded'>): { entry: WikiEntry; fieldCounts(): FieldCounts; words: KeptWords } | undefined;
}

/** A kept entry's words in the name and phrase word indexes. */
interface KeptWords {
  names(): readonly string[];
  phrases(): readonly string[];
}

/**
 * Every page in page order, read or (when `kept` holds it) taken from the snapshot or an earlier
 * read of this load, bodies counted over `counter`'s ids. Pages over the size limit are not read (see wiki/page-limit.ts): unreadable,
 * with why.
 */
async function readOrKeep(
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
  {
    names,
    phrases,
    ...loaded
  }: Pick<WikiCatalog, 'loadedFrom' | 'pagesRead' | 'entries' | 'relevance' | 'acronyms' | 'schema' | 'indexFiles' | 'unreadable'> & {
    names: WordIndex;
    phrases: WordIndex;
  },
): WikiCatalog {
  const { entries } = loaded;
  const positions = new Map(entries.map((e, i) => [e.path, i]));
  return {
    root: tree.root,
    layout,
    ...loaded,
    mayMatch: (pattern) => entriesThatMayMatch(names, entries, pattern),
    phraseHolders: (word) => entriesHolding(phrases, word),
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
