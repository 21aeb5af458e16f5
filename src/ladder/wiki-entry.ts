// One page as the catalog holds it: its own module so the catalog's snapshot (snapshot-file.ts) can
// check and rebuild entries without importing the catalog that imports it.
import { type FoldedText } from './text-match.js';

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

/** An entry's category: the first folder of its path (the path itself for a page at the root). */
export function entryCategory(path: string): string {
  const slash = path.indexOf('/');
  return slash < 0 ? path : path.slice(0, slash);
}
