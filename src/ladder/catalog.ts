// Step A's working memory: one entry per page (path, title, one-line summary, tags, category), taken
// from the on-disk index files where they list the page and from the page itself otherwise; tags
// always from frontmatter. Built in one pass over the wiki, then reused for every question.
import type { StewardConfig } from '../config/config.js';
import { comparePathParts } from '../wiki/python-compat.js';
import { isIndexFilePath } from '../wiki/index-entries.js';
import { type WikiLayout, escapeUnsafeName } from '../wiki/layout.js';
import { layoutOf } from '../wiki/open.js';
import { readPages } from '../wiki/page-limit.js';
import { type WikiSchema } from '../wiki/schema-file.js';
import { type WikiTree } from '../wiki/tree.js';
import { type FieldCounts, type RelevanceIndex, RelevanceCounter, restoredRelevance } from './relevance.js';
import { type CatalogCache, withKeysReadAgain } from './catalog-cache.js';
import { type CatalogSnapshotParts, keysDigest } from './snapshot-file.js';
import { AcronymCollector } from './acronyms.js';
import { builtinStopwords } from './signal-terms.js';
import {
  type LoadedCatalog,
  type LoadedFrom,
  foldedEntry,
  linkTextsOf,
  listingsOf,
  pageWikilinks,
  readMetaFiles,
  readOrKeep,
  shortFields,
  unfoldedEntry,
} from './catalog-parts.js';
import { type KeptWords, holdsPages, keptParts, patchedLoad } from './snapshot-reuse.js';
import { buildWordIndex, entriesHolding, entriesThatMayMatch, nameWords, phraseWords } from './word-index.js';
import { type TermPattern } from './text-match.js';
import { type WikiEntry } from './wiki-entry.js';

export type { WikiEntry } from './wiki-entry.js';

export interface WikiCatalog {
  root: string;
  /**
   * Whether this load read every page, took a snapshot whose every file key was current, or read
   * only the pages that changed since the snapshot (catalog-cache.ts): `patched snapshot` when no
   * change reached another page's entry (see patchedLoad), else `updated snapshot`.
   */
  loadedFrom: LoadedFrom;
  /** How many pages this load read (the others came from the snapshot). */
  pagesRead: number;
  layout: WikiLayout;
  entries: WikiEntry[];
  /** The entry at a path: a lookup of `indexOf`'s positions, not a map of its own. */
  byPath: Pick<ReadonlyMap<string, WikiEntry>, 'get' | 'has'>;
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
  /**
   * Keeps this load's snapshot for the next run (see catalog-cache.ts), when it read pages: on the
   * first call, which a command makes once it has answered (encoding and writing the snapshot is
   * most of what a cold load costs beyond reading the pages). Never fails; a load that read no
   * pages, or has no cache, has nothing to write.
   */
  persist(): Promise<void>;
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
    return assembleCatalog(tree, layout, nothingToWrite, {
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
  const patch = kept ? await patchedLoad(tree, { pages, indexFiles, metaFiles, unsafe }, kept, keys!, counter) : undefined;
  if (patch && 'loaded' in patch) return assembleCatalog(tree, layout, snapshotWriter(cache!, patch.snapshot), patch.loaded);
  const reuse = kept && (await keptParts(kept, keys!, counter));
  // The pages the patch read are not read again.
  const read = await readOrKeep(tree, pages, counter, new Map([...(reuse?.pages ?? []), ...(patch?.read ?? [])]));
  const unreadable = read.flatMap((page) => ('unreadable' in page ? [{ path: page.path, reason: page.unreadable }] : []));
  const facts = new Map(read.flatMap((page) => ('facts' in page ? [[page.path, page.facts] as const] : [])));
  const acronymCollector = new AcronymCollector();
  for (const f of facts.values()) acronymCollector.merge(f.acronyms);
  const { schema, indexTexts, passing } = await readMetaFiles(tree, metaFiles);
  const resolveWikilink = pageWikilinks(tree, pages);

  const listed = listingsOf(indexFiles, indexTexts, facts, resolveWikilink);
  const linkTexts = linkTextsOf(facts, resolveWikilink);

  const entries: WikiEntry[] = [];
  const fieldCounts: FieldCounts[] = [];
  const keptWords: Array<KeptWords | undefined> = [];
  for (const path of layout.pages) {
    const f = facts.get(path);
    if (!f) continue;
    const entry = unfoldedEntry(path, f, listed.get(path), [...new Set(linkTexts.get(path) ?? [])]);
    // An entry the snapshot holds as it is now is the kept one (its folding and counts too); any other is counted.
    const same = reuse?.entry(entry);
    entries.push(same?.entry ?? foldedEntry(entry));
    fieldCounts.push(same?.fieldCounts() ?? counter.countFields(shortFields(entry)));
    keptWords.push(same?.words);
  }
  const relevance = counter.build(entries.map((e, i) => ({ fields: fieldCounts[i]!, body: facts.get(e.path)!.body })));
  const acronyms = acronymCollector.result();
  const names = buildWordIndex(entries, (e, i) => keptWords[i]?.names() ?? nameWords(e));
  const phrases = buildWordIndex(entries, (e, i) => keptWords[i]?.phrases() ?? phraseWords(e));
  // The pages and meta files that could not be read for a passing reason are read again next time.
  const keptKeys = keys && withKeysReadAgain(keys, new Set([...passing, ...read.flatMap((page) => ('passing' in page && page.passing ? [page.path] : []))]));
  const keyOf = new Map(keptKeys);
  const persist = keptKeys
    ? snapshotWriter(cache!, {
        keys: keptKeys,
        entries,
        acronyms: [...acronyms],
        unreadable,
        relevance: relevance.parts(),
        names,
        phrases,
        fieldCounts,
        pages: read.map((page) => ({ ...page, key: keyOf.get(page.path)! })),
      })
    : nothingToWrite;
  return assembleCatalog(tree, layout, persist, {
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

const nothingToWrite = async (): Promise<void> => undefined;

/** `persist` for a load that computed `snapshot`: it writes the snapshot once, on its first call. */
function snapshotWriter(cache: CatalogCache, snapshot: CatalogSnapshotParts): () => Promise<void> {
  let written: Promise<void> | undefined;
  return () => (written ??= cache.write(snapshot));
}

/** The catalog over entries loaded or kept: the lookups every question uses. */
function assembleCatalog(tree: WikiTree, layout: WikiLayout, persist: () => Promise<void>, { names, phrases, ...loaded }: LoadedCatalog): WikiCatalog {
  const { entries } = loaded;
  // A loop rather than a Map of pairs: on a large wiki the pairs were garbage a warm load made by the thousand.
  const positions = new Map<string, number>();
  entries.forEach((e, i) => positions.set(e.path, i));
  return {
    root: tree.root,
    layout,
    ...loaded,
    persist,
    mayMatch: (pattern) => entriesThatMayMatch(names, entries, pattern),
    phraseHolders: (word) => entriesHolding(phrases, word),
    byPath: {
      get: (path) => {
        const at = positions.get(path);
        return at === undefined ? undefined : entries[at];
      },
      has: (path) => positions.has(path),
    },
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
