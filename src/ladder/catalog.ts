// Step A's working memory: one entry per page (path, title, one-line summary, tags, category), taken
// from the on-disk index files where they list the page and from the page itself otherwise; tags
// always from frontmatter. Built in one pass over the wiki, then reused for every question.
import type { StewardConfig } from '../config/config.js';
import { type PyValue, comparePathParts, pyStr } from '../wiki/python-compat.js';
import { readFrontmatter } from '../wiki/frontmatter.js';
import { type IndexEntry, decodeURIComponentSafe, isIndexFilePath, parseIndexFile } from '../wiki/index-entries.js';
import { type WikiLayout, escapeUnsafeName, parentDir } from '../wiki/layout.js';
import { layoutOf } from '../wiki/open.js';
import { fileStem, firstParagraph } from '../wiki/page-summary.js';
import { readPages } from '../wiki/page-limit.js';
import { type WikiSchema, parseSchema } from '../wiki/schema-file.js';
import { type FileText, type WikiTree } from '../wiki/tree.js';
import { resolveWikiPath } from '../wiki/validator.js';
import { type WikilinkResolver, findWikilinks, wikilinkResolver } from '../wiki/wikilinks.js';
import { type BodyCounts, type RelevanceIndex, RelevanceCounter } from './relevance.js';
import { AcronymCollector } from './acronyms.js';
import { type FoldedText, type TermPattern, foldText, foldedWords } from './text-match.js';

export interface WikiEntry {
  path: string;
  category: string;
  title: string;
  summary: string;
  tags: string[];
  /** Frontmatter `aliases:`. */
  aliases: string[];
  /** The page's own headings, without the `#`s. */
  headings: string[];
  /** Texts of links (markdown or `[[wikilinks]]`, whose text is `|text` else this page's title) from other pages. */
  linkTexts: string[];
  /** The index file the title and summary came from, when one lists the page. */
  listedIn?: string;
  /** A capture still open (see `isOpenCapture`): a record of a gap, never coverage. */
  openCapture: boolean;
  folded: { title: FoldedText; summary: FoldedText };
}

export interface WikiCatalog {
  root: string;
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
  /** Reads pages in full (for steps C and E). */
  readPages(paths: readonly string[]): Promise<Map<string, string>>;
  /**
   * Entries that may match a term (a superset, in entry order): those holding every word of it in
   * their title, summary or tags. Lets step B look at a handful of entries instead of all of them.
   */
  mayMatch(pattern: TermPattern): readonly WikiEntry[];
}

/** Fence lines and heading lines, matched over the whole body (no array of its lines). */
const FENCE_OR_HEADING = /^(?:```|~~~).*$|^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm;
const LINK = /\[([^\]]+)\]\(([^)\s]+?\.md)(?:#[^)\s]*)?\)/g;

const stringList = (value: PyValue | undefined): string[] => {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string').map((v) => v.trim()).filter(Boolean);
  if (typeof value === 'string') return value.split(',').map((v) => v.trim()).filter(Boolean);
  return [];
};

interface PageFacts {
  title: string;
  ownSummary: string;
  tags: string[];
  aliases: string[];
  headings: string[];
  /** Links to other pages; a `[[wikilink]]` without `|text` has no text (the target's title stands). */
  links: Array<{ target: string; text?: string }>;
  /** The body's words, counted for the ranking as the page is read (the text is not kept). */
  body: BodyCounts;
  openCapture: boolean;
}

/**
 * A page the steward wrote for a question it could not answer is a record of that gap until a
 * reviewer writes the answer and deletes its `captured_by` line. Captures made before that mark
 * existed carry the `capture` tag on a `queries` page instead.
 */
export function isOpenCapture(path: string, data: Readonly<Record<string, PyValue>> | undefined): boolean {
  if (!data) return false;
  if (data.captured_by !== undefined && data.captured_by !== null) return true;
  return path.split('/')[0] === 'queries' && stringList(data.tags).includes('capture');
}

function readPageFacts(path: string, text: string, counter: RelevanceCounter, acronyms: AcronymCollector, resolveWikilink: WikilinkResolver): PageFacts {
  const fm = readFrontmatter(text);
  const data = fm.kind === 'ok' ? fm.data : undefined;
  const title = data && 'title' in data ? pyStr(data.title!) : fileStem(path);
  const declared = data ? [data.summary, data.description].find((v): v is string => typeof v === 'string' && v.trim() !== '') : undefined;
  const close = text.indexOf('\n---\n');
  const body = fm.kind === 'none' || close < 0 ? text : text.slice(close + 5);
  const headings: string[] = [];
  let inFence = false;
  for (const m of body.matchAll(FENCE_OR_HEADING)) {
    if (m[1] === undefined) inFence = !inFence;
    else if (!inFence) headings.push(m[1]);
  }
  acronyms.add(body);
  const links: PageFacts['links'] = [];
  for (const m of body.matchAll(LINK)) {
    const target = m[2]!;
    if (/^[a-z]+:/i.test(target)) continue;
    const resolved = resolveWikiPath(target.startsWith('/') ? '' : parentDir(path), decodeURIComponentSafe(target));
    if (resolved) links.push({ target: resolved, text: m[1]! });
  }
  for (const link of findWikilinks(body)) {
    const resolved = resolveWikilink(link.target);
    if (resolved) links.push(link.text ? { target: resolved, text: link.text } : { target: resolved });
  }
  return {
    title,
    ownSummary: declared?.trim() ?? firstBodyParagraph(text),
    tags: stringList(data?.tags).map((t) => t.replace(/^#/, '')),
    aliases: stringList(data?.aliases),
    headings,
    links,
    body: counter.countBody(body),
    openCapture: isOpenCapture(path, data),
  };
}

/** Upstream's one-line summary, skipping a leading `# Heading` paragraph that says nothing new. */
function firstBodyParagraph(text: string): string {
  const first = firstParagraph(text);
  if (!first.startsWith('#')) return first;
  const close = text.indexOf('\n---\n', 4);
  const rest = close < 0 ? '' : text.slice(close + 5).trim().split(/\n\s*\n/).find((p) => p.trim() !== '' && !p.trim().startsWith('#'));
  return rest ? rest.replace(/\s+/g, ' ').trim().slice(0, 200) : first;
}

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


export async function loadCatalog(tree: WikiTree, config: StewardConfig): Promise<WikiCatalog> {
  const layout = layoutOf(tree, config);
  const indexFiles = [...tree.files].filter(isIndexFilePath).sort((a, b) => (a === 'index.md' ? -1 : b === 'index.md' ? 1 : comparePathParts(a, b)));
  const facts = new Map<string, PageFacts>();
  const counter = new RelevanceCounter();
  const acronymCollector = new AcronymCollector();
  const indexTexts = new Map<string, string>();
  const unreadable: WikiCatalog['unreadable'] = [];
  let schema: WikiSchema | undefined;
  const pages = new Set(layout.pages.filter((p) => !isIndexFilePath(p)));
  const resolveWikilink = wikilinkResolver(pages);
  // Pages over the page size limit are not read (see wiki/page-limit.ts): unreadable, with why.
  await readPages(tree, [...pages], (path, file: FileText) => {
    if (file.ok) facts.set(path, readPageFacts(path, file.text, counter, acronymCollector, resolveWikilink));
    else unreadable.push({ path, reason: file.reason });
  });
  for (const path of layout.unsafeNames) {
    unreadable.push({ path: escapeUnsafeName(path), reason: 'its file name holds a line break or other control character' });
  }
  await tree.readEach([...indexFiles, ...(tree.files.has('schema.md') ? ['schema.md'] : [])], (path, file: FileText) => {
    if (!file.ok) return;
    if (path === 'schema.md') schema = parseSchema(file.text);
    else indexTexts.set(path, file.text);
  });

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
  const positions = new Map(entries.map((e, i) => [e.path, i]));
  const postings = buildPostings(entries);
  const vocabulary = [...postings.keys()];
  return {
    root: tree.root,
    layout,
    entries,
    mayMatch(pattern) {
      if (pattern.noSpaceScript || pattern.words.length === 0) return entries; // no words to look up: every entry
      let hits: Set<number> | undefined;
      pattern.words.forEach((word, i) => {
        const last = i === pattern.words.length - 1 && word.length >= 4;
        const here = new Set<number>();
        for (const w of last ? vocabulary.filter((v) => v.startsWith(word)) : [word]) for (const e of postings.get(w) ?? []) here.add(e);
        hits = hits ? new Set([...hits].filter((e) => here.has(e))) : here;
      });
      return [...hits!].sort((a, b) => a - b).map((i) => entries[i]!);
    },
    byPath: new Map(entries.map((e) => [e.path, e])),
    indexOf: (path) => positions.get(path) ?? -1,
    relevance,
    acronyms,
    schema,
    indexFiles,
    unreadable,
    async readPages(paths) {
      const out = new Map<string, string>();
      await readPages(tree, paths, (path, file) => {
        if (file.ok) out.set(path, file.text);
      });
      return out;
    },
  };
}
