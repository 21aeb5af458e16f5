// The root `index.md` and every `_index.md`, byte for byte as upstream's
// `wiki-build-index.py --rebuild-all` writes them (reference/upstream-format.md §1.5-1.6), and the
// policy that never lets a generated file overwrite a hand-written one.
import { type PageSummary, summarizePage } from './page-summary.js';
import { DIRECTORY_INDEX, ROOT_INDEX, type WikiLayout, isHiddenName, isUnsafeName, parentDir } from './layout.js';
import { readPages } from './page-limit.js';
import { pyRStrip } from '../markdown/py-strip.js';
import { compareCodePoints, pyTitle } from './python-compat.js';

/** `auto`: write absent files and files already in generated form. `always`: overwrite. `never`: leave all. */
import type { IndexPolicy } from '../config/config.js';

export type IndexFileStatus = 'fresh' | 'stale' | 'missing' | 'hand-written';

export interface IndexFilePlan {
  /** Wiki-relative path of the index file. */
  path: string;
  status: IndexFileStatus;
  /** The bytes upstream's builder would write. */
  expected: string;
  /** The file as it is now, when it exists. */
  current?: string;
  /** For a directory index: each page it lists (wiki-relative) and the entry line that lists it. */
  entries?: ReadonlyMap<string, string>;
  /**
   * Set (with status `hand-written`) on a file in generated form that a person has edited since the
   * builder wrote it: `lastCommit` is the last commit that changed the file.
   */
  handEdited?: { lastCommit: string };
}

const EM_DASH = '\u2014';
const PREVIEW_TITLES = 5;

const ROOT_GENERATED = /^# Wiki Index\n\n(?:- \[[^\n]*\]\([^\n]*\/_index\.md\) \u2014 \d+ pages(?:, \d+ levels deep)?\n)*$/;
const ROOT_INIT_TEMPLATE = /^# Wiki Index\n(?:\n## [^\n]+\n\(empty\)\n)*\n?$/;
const DIRECTORY_GENERATED =
  /^# [^\n]*\n\n## Pages \(in this directory\)\n(?:\(none\)\n|(?:- \[[^\n]*\n)+)\n## Subdirectories\n(?:\(none\)\n|(?:(?:- \[| {2}- )[^\n]*\n)+)\n$/;

/** Upstream's `wiki init` template for the root index: the builder's too. */
export const isRootInitTemplate = (text: string): boolean => ROOT_INIT_TEMPLATE.test(text);

/** True when the text is what the builder writes (so regenerating it loses nothing a person wrote). */
export function isGeneratedForm(indexPath: string, text: string): boolean {
  if (indexPath === ROOT_INDEX) return ROOT_GENERATED.test(text) || ROOT_INIT_TEMPLATE.test(text);
  return DIRECTORY_GENERATED.test(text);
}

export const indexPathOf = (dir: string): string => (dir === '' ? ROOT_INDEX : `${dir}/${DIRECTORY_INDEX}`);

/** `str.rstrip(' \u2014')`: strips a trailing run of spaces and em dashes, not a suffix. */
const stripEntryTail = (line: string): string => pyRStrip(line, ' \u2014');

export function renderRootIndex(layout: WikiLayout): string {
  const lines = ['# Wiki Index', ''];
  for (const category of layout.categories) {
    const depth = layout.depths.get(category) ?? 0;
    const display = pyTitle(category.replaceAll('-', ' ').replaceAll('_', ' '));
    lines.push(`- [${display}](${category}/_index.md) ${EM_DASH} ${layout.counts.get(category) ?? 0} pages${depth > 1 ? `, ${depth} levels deep` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

interface DirectoryListing {
  /** Pages directly in each directory, in path order. */
  own: Map<string, string[]>;
  /** Pages anywhere below each directory, in path order. */
  subtree: Map<string, string[]>;
}

function listPagesByDirectory(layout: WikiLayout): DirectoryListing {
  const own = new Map<string, string[]>();
  const subtree = new Map<string, string[]>();
  const push = (map: Map<string, string[]>, key: string, page: string) => {
    const list = map.get(key);
    if (list) list.push(page);
    else map.set(key, [page]);
  };
  for (const page of layout.pages) {
    let dir = parentDir(page);
    push(own, dir, page);
    while (dir !== '') {
      push(subtree, dir, page);
      dir = parentDir(dir);
    }
  }
  return { own, subtree };
}

function childDirectories(layout: WikiLayout, dir: string): string[] {
  const prefix = `${dir}/`;
  return [...layout.tree.dirs]
    .filter((d) => d.startsWith(prefix) && !d.slice(prefix.length).includes('/') && !isHiddenName(d.slice(prefix.length)) && !isUnsafeName(d))
    .sort(compareCodePoints);
}

export interface IndexPlanOptions {
  policy: IndexPolicy;
  /** Only these directories ('' for the root index); every index file when omitted. */
  onlyDirs?: ReadonlySet<string>;
  /**
   * Tells a generated index file a person has edited from one that is only stale (see
   * index-provenance.ts). Without it, every file in generated form counts as the builder's.
   */
  provenance?: IndexProvenance;
  /**
   * Page summaries to share with other plans over trees read from git: most pages are the same
   * blobs in the staged tree and in the commits before it (a provenance check plans those), and
   * are read and summarised once.
   */
  summaries?: BlobSummaries;
}

/** A generated index file that is not fresh: what it holds now, and what the builder writes today. */
export type ProvenanceCandidate = IndexFilePlan & { current: string };

export interface IndexProvenance {
  /** The candidates a person has edited since the builder wrote them, each with the last commit that changed it. */
  handEdited(candidates: readonly ProvenanceCandidate[]): Promise<Map<string, string>>;
}

/** A page's summary by `path\0blob id`: the same blob at the same path summarises the same in every tree git holds. */
export type BlobSummaries = Map<string, PageSummary | null>;

/**
 * The plans, and whether the wiki keeps generated index files at all: judged over the whole wiki,
 * not only the folders planned, so a plan for a few folders counts missing files as a plan for all
 * of them does.
 */
export type IndexFilePlans = IndexFilePlan[] & { readonly keepsGeneratedIndexes: boolean };

/** Whether an existing index file is the builder's by its form alone, as statusOf judges it. */
const ownedByBuilder = (indexPath: string, text: string, policy: IndexPolicy): boolean =>
  policy === 'always' || (policy === 'auto' && isGeneratedForm(indexPath, text));

/** Computes every index file the builder would write, reading only the pages those files need. */
export async function planIndexFiles(layout: WikiLayout, options: IndexPlanOptions): Promise<IndexFilePlans> {
  const dirs = layout.indexedDirs.filter((d) => !options.onlyDirs || options.onlyDirs.has(d));
  const includeRoot = !options.onlyDirs || options.onlyDirs.has('');
  const listing = listPagesByDirectory(layout);
  const children = new Map(dirs.map((d) => [d, childDirectories(layout, d)]));

  const needed = new Set<string>();
  for (const dir of dirs) {
    for (const page of listing.own.get(dir) ?? []) needed.add(page);
    for (const child of children.get(dir)!) {
      for (const page of (listing.subtree.get(child) ?? []).slice(0, PREVIEW_TITLES)) needed.add(page);
    }
  }
  const indexPaths = [...(includeRoot ? [ROOT_INDEX] : []), ...dirs.map(indexPathOf)];
  const existing = indexPaths.filter((p) => layout.tree.files.has(p));
  // null: a binary file, which is no page, so no index lists it.
  const summaries = new Map<string, PageSummary | null>();
  const byBlob = options.summaries;
  const blobKey = (page: string): string | undefined => {
    const blob = byBlob && layout.tree.blobIds?.get(page);
    return blob === undefined ? undefined : `${page}\0${blob}`;
  };
  const summarize = async (pages: readonly string[]) => {
    const unread: string[] = [];
    for (const page of pages) {
      if (summaries.has(page)) continue;
      const key = blobKey(page);
      const known = key === undefined ? undefined : byBlob!.get(key);
      if (known === undefined) unread.push(page);
      else summaries.set(page, known);
    }
    await readPages(layout.tree, unread, (file, read) => {
      const summary = read.ok ? summarizePage(file, read.text) : read.problem === 'binary' ? null : summarizePage(file, '');
      summaries.set(file, summary);
      const key = blobKey(file);
      if (key !== undefined) byBlob!.set(key, summary);
    });
  };
  await summarize([...needed]);
  const currentTexts = new Map<string, string>();
  await layout.tree.readEach(existing, (file, read) => {
    if (read.ok) currentTexts.set(file, read.text);
  });
  const listed = (pages: readonly string[]) => pages.filter((p) => summaries.get(p) !== null);
  /** The first titles below a folder, reading further when binary files were among the first. */
  const preview = async (below: readonly string[]): Promise<string[]> => {
    let shown = listed(below.slice(0, PREVIEW_TITLES));
    for (let read = PREVIEW_TITLES; shown.length < PREVIEW_TITLES && read < below.length; read += PREVIEW_TITLES) {
      await summarize(below.slice(read, read + PREVIEW_TITLES));
      shown = listed(below.slice(0, read + PREVIEW_TITLES)).slice(0, PREVIEW_TITLES);
    }
    return shown.map((p) => summaries.get(p)!.title);
  };

  const plans: IndexFilePlan[] = [];
  const plan = (indexPath: string, expected: string, entries?: ReadonlyMap<string, string>) => {
    const current = currentTexts.get(indexPath);
    const status = statusOf(indexPath, expected, current, layout.tree.files.has(indexPath), options.policy);
    plans.push({ path: indexPath, expected, current, status, ...(entries ? { entries } : {}) });
  };
  if (includeRoot) plan(ROOT_INDEX, renderRootIndex(layout));
  for (const dir of dirs) {
    const name = dir.slice(dir.lastIndexOf('/') + 1);
    const lines = [`# ${name}`, '', '## Pages (in this directory)'];
    const own = listed(listing.own.get(dir) ?? []);
    if (own.length === 0) lines.push('(none)');
    const entries = new Map<string, string>();
    for (const page of own) {
      const s = summaries.get(page)!;
      const entry = stripEntryTail(`- [${s.title}](${page.slice(dir.length + 1)}) ${EM_DASH} ${s.quality}${s.description}`);
      entries.set(page, entry);
      lines.push(entry);
    }
    lines.push('', '## Subdirectories');
    const subdirs = children.get(dir)!;
    if (subdirs.length === 0) lines.push('(none)');
    for (const child of subdirs) {
      const childName = child.slice(dir.length + 1);
      const below = listing.subtree.get(child) ?? [];
      lines.push(`- [${childName}/](${childName}/_index.md) ${EM_DASH} ${below.length} pages`);
      const titles = await preview(below);
      if (titles.length > 0) lines.push(`  - ${titles.join(', ')}`);
    }
    lines.push('');
    plan(indexPathOf(dir), `${lines.join('\n')}\n`, entries);
  }
  if (options.provenance && options.policy === 'auto') {
    const candidates = plans.filter((p): p is ProvenanceCandidate => p.status === 'stale' && p.current !== undefined);
    if (candidates.length > 0) {
      const edited = await options.provenance.handEdited(candidates);
      for (const p of candidates) {
        const lastCommit = edited.get(p.path);
        if (lastCommit !== undefined) Object.assign(p, { status: 'hand-written', handEdited: { lastCommit } });
      }
    }
  }
  // A generated file a person has since edited still shows the wiki keeps generated indexes.
  let keepsGeneratedIndexes = plans.some((p) => p.status === 'fresh' || p.status === 'stale' || p.handEdited !== undefined);
  if (!keepsGeneratedIndexes && options.onlyDirs) {
    const planned = new Set(indexPaths);
    const others = [ROOT_INDEX, ...layout.indexedDirs.map(indexPathOf)].filter((p) => !planned.has(p) && layout.tree.files.has(p));
    await layout.tree.readEach(others, (file, read) => {
      if (read.ok && ownedByBuilder(file, read.text, options.policy)) keepsGeneratedIndexes = true;
    });
  }
  return Object.assign(plans, { keepsGeneratedIndexes });
}

function statusOf(indexPath: string, expected: string, current: string | undefined, exists: boolean, policy: IndexPolicy): IndexFileStatus {
  if (!exists) return policy === 'never' ? 'hand-written' : 'missing';
  if (current === expected) return 'fresh';
  // A file that cannot be read as text is overwritten only when the policy says always.
  if (current === undefined) return policy === 'always' ? 'stale' : 'hand-written';
  return ownedByBuilder(indexPath, current, policy) ? 'stale' : 'hand-written';
}

/**
 * The index files that need writing: the one rule for validate, the hook, maintain, captures and
 * `index`. A wiki that keeps no generated index file at all is left without: missing files count
 * only once the wiki has adopted generated indexes — or when this write adopts them (`adopt`: an
 * explicit `wiki-steward index`, or a capture that starts a new wiki).
 */
export function outdatedIndexFiles(plans: IndexFilePlans, options: { adopt?: boolean } = {}): IndexFilePlan[] {
  const adopted = options.adopt === true || plans.keepsGeneratedIndexes;
  return plans.filter((p) => p.status === 'stale' || (adopted && p.status === 'missing'));
}

/** The directories whose index files change when these pages change: each parent and its ancestors. */
export function affectedIndexDirs(pagePaths: Iterable<string>): Set<string> {
  const dirs = new Set<string>(['']);
  for (const page of pagePaths) {
    let dir = parentDir(page);
    while (dir !== '') {
      dirs.add(dir);
      dir = parentDir(dir);
    }
  }
  return dirs;
}
