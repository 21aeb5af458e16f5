// What the catalog takes from one page as it reads it: title, own summary, tags, aliases, headings,
// links and the body's word counts. Its own module so the catalog's worker threads (see
// catalog-worker.ts) run the very code the sequential load runs.
import { type PyValue, pyRStrip, pyStr } from '../wiki/python-compat.js';
import { readFrontmatter } from '../wiki/frontmatter.js';
import { decodeURIComponentSafe } from '../wiki/index-entries.js';
import { markdownLinks } from '../wiki/markdown-links.js';
import { parentDir } from '../wiki/layout.js';
import { fileStem, firstParagraph } from '../wiki/page-summary.js';
import { type FileText } from '../wiki/tree.js';
import { resolveWikiPath } from '../wiki/validator.js';
import { type WikilinkResolver, findWikilinks } from '../wiki/wikilinks.js';
import { type AcronymFindings, AcronymCollector } from './acronyms.js';
import { type BodyCounts, RelevanceCounter } from './relevance.js';

/**
 * Fence lines and heading lines, matched over the whole body (no array of its lines). A heading's
 * closing `#`s are cut afterwards (see headingText): an expression that ends `[ \t]*#*[ \t]*$`
 * rescans a long run of `#` or spaces from each of its characters.
 */
const FENCE_OR_HEADING = /^(?:```|~~~).*$|^#{1,6}[ \t]+(.+)$/gm;

/** A heading's text as `(.+?)[ \t]*#*[ \t]*$` captures it: without its closing `#`s and the spaces around them, but never empty. */
export function headingText(line: string): string {
  const text = pyRStrip(pyRStrip(pyRStrip(line, ' \t'), '#'), ' \t');
  return text === '' ? line[0]! : text;
}

const stringList = (value: PyValue | undefined): string[] => {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string').map((v) => v.trim()).filter(Boolean);
  if (typeof value === 'string') return value.split(',').map((v) => v.trim()).filter(Boolean);
  return [];
};

export interface PageFacts {
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

export function readPageFacts(path: string, text: string, counter: RelevanceCounter, acronyms: AcronymCollector, resolveWikilink: WikilinkResolver): PageFacts {
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
    else if (!inFence) headings.push(headingText(m[1]));
  }
  acronyms.add(body);
  const links: PageFacts['links'] = [];
  for (const link of markdownLinks(body)) {
    // A link to a page: `[text](page.md)` or `[text](page.md#section)`, with some text.
    const target = link.target.split('#')[0]!;
    if (link.text === '' || !/.\.md$/.test(target) || /^[a-z]+:/i.test(target)) continue;
    const resolved = resolveWikiPath(target.startsWith('/') ? '' : parentDir(path), decodeURIComponentSafe(target));
    if (resolved) links.push({ target: resolved, text: link.text });
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

/** Pages read on their own (a chunk of the catalog's pages), with their own counter and collector. */
export interface ChunkFacts {
  /** The readable pages' facts, in the order read. */
  facts: Array<[path: string, facts: PageFacts]>;
  unreadable: Array<{ path: string; reason: string }>;
  /** The chunk counter's folded words, by folded id: what the bodies' `ids` refer to. */
  vocabulary: string[];
  acronyms: AcronymFindings;
}

/** Gathers a chunk's facts as `read` hands its pages over (in order), counted apart from any other chunk. */
export async function readChunkFacts(
  read: (visit: (path: string, file: FileText) => void) => Promise<void> | void,
  resolveWikilink: WikilinkResolver,
  stopwords: ReadonlySet<string>,
): Promise<ChunkFacts> {
  const counter = new RelevanceCounter(stopwords);
  const acronyms = new AcronymCollector();
  const chunk: ChunkFacts = { facts: [], unreadable: [], vocabulary: [], acronyms: new Map() };
  await read((path, file) => {
    if (file.ok) chunk.facts.push([path, readPageFacts(path, file.text, counter, acronyms, resolveWikilink)]);
    else chunk.unreadable.push({ path, reason: file.reason });
  });
  return { ...chunk, vocabulary: counter.vocabulary(), acronyms: acronyms.findings() };
}
