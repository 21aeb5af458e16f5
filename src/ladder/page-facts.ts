// What the catalog takes from one page as it reads it: title, own summary, tags, aliases, headings,
// links, the acronyms it spells out and the body's word counts. Its own module so the catalog's
// worker threads (see catalog-worker.ts) run the very code the sequential load runs. The facts of a
// page depend on that page alone (wikilinks are kept as written, resolved by the catalog against the
// pages of the moment), so the catalog's snapshot can keep them for a page whose file is unchanged.
import { bodyOf } from '../markdown/body.js';
import { type Block, atxHeading, markdownBlocks } from '../markdown/blocks.js';
import { findWikilinks, markdownLinks } from '../markdown/links.js';
import { upstreamDescription } from '../markdown/upstream-dialect.js';
import { readFrontmatter, stringList } from '../wiki/frontmatter.js';
import { decodeURIComponentSafe } from '../wiki/index-entries.js';
import { parentDir } from '../wiki/layout.js';
import { isOpenCapture } from '../wiki/open-capture.js';
import { fileStem } from '../wiki/page-summary.js';
import { pyStr } from '../wiki/python-compat.js';
import { type FileText } from '../wiki/tree.js';
import { resolveWikiPath } from '../wiki/wiki-path.js';
import { type AcronymFindings, AcronymCollector } from './acronyms.js';
import { type BodyCounts, RelevanceCounter } from './relevance.js';
import { defineKnobs } from './tuning.js';

export interface PageFacts {
  title: string;
  ownSummary: string;
  tags: string[];
  aliases: string[];
  headings: string[];
  /** Markdown links to other pages, resolved to wiki paths. */
  links: Array<{ target: string; text: string }>;
  /** `[[wikilinks]]` as written (which page one names depends on the wiki's pages); without `|text` the target's title stands. */
  wikilinks: Array<{ target: string; text?: string }>;
  /** The acronyms the page spells out (see AcronymCollector), merged by the catalog in page order. */
  acronyms: AcronymFindings;
  /** The body's words, counted for the ranking as the page is read (the text is not kept). */
  body: BodyCounts;
  openCapture: boolean;
}

export function readPageFacts(path: string, text: string, counter: RelevanceCounter): PageFacts {
  const fm = readFrontmatter(text);
  const data = fm.kind === 'ok' ? fm.data : undefined;
  const title = data && 'title' in data ? pyStr(data.title!) : fileStem(path);
  const declared = data ? [data.summary, data.description].find((v): v is string => typeof v === 'string' && v.trim() !== '') : undefined;
  const body = bodyOf(text);
  // The blocks the answerer quotes from: the sections ranked are the sections quoted.
  const blocks = markdownBlocks(body.split('\n'));
  const acronyms = new AcronymCollector();
  acronyms.add(body);
  const links: PageFacts['links'] = [];
  for (const link of markdownLinks(body)) {
    // A link to a page: `[text](page.md)` or `[text](page.md#section)`, with some text.
    const target = link.target.split('#')[0]!;
    if (link.text === '' || !/.\.md$/.test(target) || /^[a-z]+:/i.test(target)) continue;
    const resolved = resolveWikiPath(target.startsWith('/') ? '' : parentDir(path), decodeURIComponentSafe(target));
    if (resolved) links.push({ target: resolved, text: link.text });
  }
  return {
    title,
    ownSummary: declared?.trim() ?? bodySummary(text, blocks),
    tags: stringList(data?.tags).map((t) => t.replace(/^#/, '')),
    aliases: stringList(data?.aliases),
    headings: blocks.filter((block) => block.kind === 'heading' && block.text !== '').map((block) => block.text),
    links,
    wikilinks: findWikilinks(body),
    acronyms: acronyms.findings(),
    body: counter.countBody(body),
    openCapture: isOpenCapture(data),
  };
}

const PAGE_FACTS = defineKnobs('ladder/page-facts', {
  SUMMARY_LIMIT: { value: 200, off: Number.POSITIVE_INFINITY, means: "characters of a page's first block taken as its summary when it has none" },
});

/** Upstream's one-line summary; when that is the page's leading heading, which says nothing new, the first block after it. */
function bodySummary(text: string, blocks: readonly Block[]): string {
  const description = upstreamDescription(text);
  if (!atxHeading(description)) return description;
  const first = blocks.find((block) => block.kind !== 'heading');
  return first ? first.text.replace(/\s+/g, ' ').trim().slice(0, PAGE_FACTS.SUMMARY_LIMIT) : description;
}

/**
 * A page as read: its facts, or why it could not be read; `passing` when the reason is not the
 * file's content (a read that failed, a file gone), which a later read may not meet.
 */
export type ReadPage = { path: string; facts: PageFacts } | { path: string; unreadable: string; passing?: true };

/** Pages read on their own (a chunk of the catalog's pages), with their own counter. */
export interface ChunkFacts {
  /** The pages, in the order read. */
  pages: ReadPage[];
  /** The chunk counter's folded words, by folded id: what the bodies' `ids` refer to. */
  vocabulary: string[];
}

/** Gathers a chunk's facts as `read` hands its pages over (in order), counted apart from any other chunk. */
export async function readChunkFacts(
  read: (visit: (path: string, file: FileText) => void) => Promise<void> | void,
  stopwords: ReadonlySet<string>,
): Promise<ChunkFacts> {
  const counter = new RelevanceCounter(stopwords);
  const pages: ReadPage[] = [];
  await read((path, file) =>
    pages.push(
      file.ok
        ? { path, facts: readPageFacts(path, file.text, counter) }
        : { path, unreadable: file.reason, ...(file.problem === undefined && { passing: true as const }) },
    ),
  );
  return { pages, vocabulary: counter.vocabulary() };
}
