// What a load takes from a snapshot whose file keys differ for some pages (catalog.ts decides when):
// either only the changed pages' entries rebuilt, the rest as kept (patchedLoad), or the facts of
// every unchanged page for a load that works out again what spans pages (keptParts). The snapshot
// is untrusted (snapshot-file.ts checks its parts); what either gives equals a load with no snapshot.
import { type WikiTree } from '../wiki/tree.js';
import { withKeysReadAgain } from './catalog-cache.js';
import { type BodyCounts, type FieldCounts, RelevanceCounter } from './relevance.js';
import { type CatalogSnapshot, type CatalogSnapshotParts, type FileKeys, type KeptLine, type KeptPage, type SnapshotRest } from './snapshot-file.js';
import { type LoadedCatalog, foldedEntry, listingsOf, pageWikilinks, readMetaFiles, readOrKeep, shortFields, unfoldedEntry } from './catalog-parts.js';
import { type PageFacts, type ReadPage } from './page-facts.js';
import { holdsFields, keptBytes, keptEntry } from './kept-entries.js';
import { nameWords, patchedWordIndex, phraseWords, wordsByEntry } from './word-index.js';
import { type WikiEntry } from './wiki-entry.js';

/** The files a load keys, as loadCatalog lists them, and the pages whose names are unsafe. */
interface LoadFiles {
  pages: readonly string[];
  indexFiles: readonly string[];
  metaFiles: readonly string[];
  unsafe: LoadedCatalog['unreadable'];
}

/**
 * A load that reads only the pages whose keys differ and rebuilds only their entries: when the
 * wiki's pages, index files, schema and attributes files are the snapshot's, and every changed page
 * is still readable, titled, linking and spelling out acronyms as the snapshot has it, nothing that
 * spans pages moved (listings, link texts, wikilinks, acronyms), so every other entry is the kept
 * one. The ranking's statistics are rebuilt from the counts as any load builds them, and what is
 * loaded (with the snapshot to write for it) is what a load with no snapshot gives. When any of that
 * does not hold (or the snapshot turns out malformed), nothing is loaded: the caller's update works
 * out everything that spans pages instead, with the pages this read (over `counter`'s ids).
 */
export async function patchedLoad(
  tree: WikiTree,
  { pages, indexFiles, metaFiles, unsafe }: LoadFiles,
  kept: CatalogSnapshot,
  keys: FileKeys,
  counter: RelevanceCounter,
): Promise<{ loaded: LoadedCatalog; snapshot: CatalogSnapshotParts } | { read: ReadonlyMap<string, ReadPage> } | undefined> {
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
  const { schema, indexTexts, passing } = await readMetaFiles(tree, metaFiles);
  const listed = listingsOf(indexFiles, indexTexts, new Set(kept.entries.map((e) => e.path)), pageWikilinks(tree, pages));
  const remap = counter.remapper(kept.relevance.vocabulary);
  const entries: WikiEntry[] = [];
  const fieldCounts: FieldCounts[] = [];
  const rebuilt = new Set<number>();
  kept.entries.forEach((keptOne, at) => {
    const f = changedFacts.get(keptOne.path);
    const counts = rest.fieldCounts[at]!;
    // Links to a page whose title is unchanged, from pages whose links are unchanged: as kept.
    const entry = f && unfoldedEntry(keptOne.path, f, listed.get(keptOne.path), keptOne.linkTexts);
    if (entry && !holdsFields(keptBytes(keptOne)!, entry)) {
      rebuilt.add(at);
      entries.push(foldedEntry(entry));
      fieldCounts.push(counter.countFields(shortFields(entry)));
    } else {
      // A changed page's entry as kept, but listed as the index files list it now.
      entries.push(entry ? keptEntry(entry.path, entry.listedIn, keptBytes(keptOne)!) : keptOne);
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
  const names = patchedWordIndex(kept.names, new Map([...rebuilt].map((at) => [at, nameWords(entries[at]!)])));
  const phrases = patchedWordIndex(kept.phrases, new Map([...rebuilt].map((at) => [at, phraseWords(entries[at]!)])));
  const snapshot: CatalogSnapshotParts = {
    keys: withKeysReadAgain(keys, passing),
    entries,
    acronyms: kept.acronyms,
    unreadable: kept.unreadable,
    relevance: relevance.parts(),
    names,
    phrases,
    fieldCounts,
    pages: written,
  };
  const loaded: LoadedCatalog = {
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
  };
  return { loaded, snapshot };
}

/** What of a page's facts reaches other pages' entries or the wiki's tables: its title, links, wikilinks and acronyms. */
const crossPageFacts = (f: PageFacts): string =>
  JSON.stringify([f.title, f.links, f.wikilinks, [...f.acronyms].map(([acronym, forms]) => [acronym, [...forms]])]);

/** Whether two lists of file keys name the same files, in the same order, with the same keys. */
const sameKeys = (a: ReadonlyArray<readonly [string, string]>, b: ReadonlyArray<readonly [string, string]>): boolean =>
  a.length === b.length && a.every(([p, key], i) => p === b[i]![0] && key === b[i]![1]);

/**
 * Whether a snapshot's entries and unreadable pages are the tree's pages, each once (entries in page
 * order), listed in none but its index files: a snapshot forged with every key current names no
 * other file for a question to read or show.
 */
export function holdsPages(kept: CatalogSnapshot, pages: readonly string[], indexFiles: readonly string[]): boolean {
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
export async function keptParts(kept: CatalogSnapshot, keys: FileKeys, counter: RelevanceCounter): Promise<KeptParts | undefined> {
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
export interface KeptWords {
  names(): readonly string[];
  phrases(): readonly string[];
}
