// The largest page anything reads in full. Pages are prose a person or a model keeps up to date;
// one far past this size is a dump or an attack, and parsing it (frontmatter, links, the ranking's
// word counts) costs time and memory out of all proportion. Such a page is reported once and not
// parsed: `validate` gives it one diagnostic, the ask catalog lists it as unreadable, and index
// files list it by its file name.
import { type FileText, type WikiTree, tooLarge } from './tree.js';

/** 2 MB: about 300,000 words, far more than any page a person reads. */
export const MAX_PAGE_BYTES = 2 * 1024 * 1024;

/** The page as read, or too-large when its text is over the limit (for trees that cannot tell before reading). */
export function withinPageLimit(file: FileText): FileText {
  // A UTF-8 character is at most 3 bytes per UTF-16 unit: short texts need no byte count.
  if (!file.ok || file.text.length <= MAX_PAGE_BYTES / 3) return file;
  const bytes = Buffer.byteLength(file.text);
  return bytes > MAX_PAGE_BYTES ? tooLarge(bytes, MAX_PAGE_BYTES) : file;
}

/** Reads pages (not index files or schema.md) with the page size limit applied. */
export const readPages = (tree: Pick<WikiTree, 'readEach'>, paths: readonly string[], visit: (path: string, file: FileText) => void): Promise<void> =>
  tree.readEach(paths, (path, file) => visit(path, withinPageLimit(file)), { maxBytes: MAX_PAGE_BYTES });
