// A page's sections as the answerer quotes them: its title, each heading as readable text with its
// line and level, which sections only point elsewhere (Sources, See also: never quoted) or sum the
// page up (Summary: its first sentence leads), and the blocks that may hold a quote in each.
import { type FoldedText, foldText } from '../ladder/text-match.js';
import { frontmatterBlock } from '../markdown/body.js';
import { type Block, isPipedRow, markdownBlocks } from '../markdown/blocks.js';
import { readableText } from '../markdown/readable-text.js';

export interface Section {
  /** The heading as readable text; above the first heading, the page's title. */
  heading: string;
  /** 1-based line of the heading; above the first heading, the body's first line that is not blank. */
  line: number;
  /** Heading level (1–6); 0 above the first heading. */
  level: number;
  folded: FoldedText;
  /** A section of pointers elsewhere (Sources, References, See also, …): never quoted. */
  reference: boolean;
  /** A section that sums the page up (Summary, Overview, TL;DR, …): its first sentence is a lead. */
  summary: boolean;
}

/** A block that may hold a quote: a paragraph, list item, blockquote or table body row, in its section. */
export interface QuotableBlock {
  block: Block;
  section: Section;
}

/**
 * Headings of sections that point elsewhere rather than say anything. The rule: after any
 * numbering, the heading starts with a pointer word (Sources, References, Bibliography,
 * Citations, Footnotes, See also, Related, Links, External links, Further reading, Backlinks,
 * Cross-references) and then ends, or goes on with a colon, a parenthesis, "and …", or one plural
 * word naming more pages ("Related standards", "Sources and further reading"; not "Source code
 * layout" or "Links between services").
 */
const POINTER_HEADING_WORDS = [
  'sources?',
  'references?',
  'refs',
  'bibliography',
  'citations?',
  'footnotes',
  'see also',
  'related',
  'links',
  'external links',
  'useful links',
  'further reading',
  'reading list',
  'backlinks',
  'cross[- ]references?',
];
const REFERENCE_HEADING = new RegExp(String.raw`^(?:${POINTER_HEADING_WORDS.join('|')})(?:$|\s*[:(]|\s+(?:and|&)\s|\s+\p{L}+s$)`, 'iu');
/** Headings of sections that sum the page up. */
const SUMMARY_HEADING = /^(?:summary|overview|tl;?\s?dr|in short|in brief|abstract|at a glance|key (?:points|takeaways?)|definition)\b/i;

const stripNumbering = (heading: string) => heading.replace(/^[\s\d.)§-]*(?=\p{L})/u, '').replace(/^[^\p{L}\p{N}]+/u, '');

function makeSection(heading: string, line: number, level: number): Section {
  const plain = stripNumbering(heading);
  return {
    heading,
    line,
    level,
    folded: foldText(heading),
    reference: level > 0 && REFERENCE_HEADING.test(plain),
    summary: level > 0 && SUMMARY_HEADING.test(plain),
  };
}

/** The frontmatter's `title:` line, unquoted: the page's title as a reader of the file sees it. */
function frontmatterTitle(block: string): string | undefined {
  const title = /^title:[ \t]*(.+?)[ \t]*$/m.exec(block)?.[1];
  return title?.replace(/^(["'])(.*)\1$/, '$2');
}

const QUOTABLE_KINDS: ReadonlySet<Block['kind']> = new Set(['paragraph', 'item', 'quote', 'table-row']);

/** A page's sections and the blocks that may hold a quote, each in its section. */
export function readSections(path: string, text: string, lines: readonly string[]): { blocks: QuotableBlock[]; sections: Section[]; title: string } {
  const frontmatter = frontmatterBlock(text);
  const first = (frontmatter?.body.line ?? 1) - 1;
  const pageBlocks = markdownBlocks(lines, first);
  const h1 = pageBlocks.find((b) => b.kind === 'heading' && b.level === 1 && b.text !== '');
  const title = (frontmatter && frontmatterTitle(frontmatter.block)) ?? (h1 ? readableText(h1.text) : path.split('/').at(-1)!.replace(/\.md$/i, ''));
  // The top section starts at the body's first line with something on it ("Read more" points there).
  let top = first;
  while (top < lines.length - 1 && lines[top]!.trim() === '') top++;
  let section = makeSection(title, Math.min(top + 1, lines.length), 0);
  const sections = [section];
  /** The section that made the current one a reference section, to leave it at a heading of its level. */
  let referenceLevel = Infinity;
  const blocks: QuotableBlock[] = [];
  for (const block of pageBlocks) {
    if (block.kind === 'heading') {
      section = makeSection(readableText(block.text), block.line, block.level);
      if (block.level <= referenceLevel) referenceLevel = section.reference ? block.level : Infinity;
      else section.reference = true;
      sections.push(section);
    }
    // A table's body row states a fact (its header only names columns), when written with its outer
    // pipes: readable text reads those as cells.
    else if (QUOTABLE_KINDS.has(block.kind) && (block.kind !== 'table-row' || isPipedRow(block.text))) blocks.push({ block, section });
  }
  return { blocks, sections, title };
}
