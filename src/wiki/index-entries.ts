// Reading what index files say about pages, in every shape wikis use: upstream's generated
// `_index.md`, the legacy sectioned `index.md`, hand-written lists, per-area `index.<area>.md`, and
// Obsidian `[[slug]]`, `[[path/slug]]` and `[[slug|alias]]` entries.
import { DIRECTORY_INDEX, ROOT_INDEX, parentDir } from './layout.js';
import { resolveWikiPath } from './wiki-path.js';
import type { WikilinkResolver } from './wikilinks.js';

export interface IndexEntry {
  /** The index file that lists the page. */
  indexFile: string;
  /** 1-based line of the entry in that file. */
  line: number;
  /** Wiki-relative path of the page the entry points at. */
  path: string;
  title: string;
  /** The one-line summary after the link, without upstream's `(q: x.xx)` marker. */
  summary: string;
}

/** A folder's index file, below the root. */
const IN_A_FOLDER = `/${DIRECTORY_INDEX}`;

/** Root `index.md`, per-area `index.<area>.md` at the root, and every `_index.md`. */
export function isIndexFilePath(relPath: string): boolean {
  if (relPath === ROOT_INDEX || /^index\.[^/]+\.md$/.test(relPath)) return true;
  return relPath === DIRECTORY_INDEX || relPath.endsWith(IN_A_FOLDER);
}

// Bracketed text holds no bracket and a target no `(`: each `[` of a long line then looks no
// further than the next one (an index line of many `[` was read in time quadratic in its length).
const MARKDOWN_ENTRY = /\[([^[\]]*)\]\(([^()\s]+\.md)(?:#[^()\s]*)?\)/;
const WIKILINK_ENTRY = /\[\[([^[\]|#]+)(?:#[^[\]|]*)?(?:\|([^[\]]+))?\]\]/;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+/;
const QUALITY_MARKER = /^\(q: [^)]*\)\s*/;
const SEPARATOR = /^\s*(?:\u2014|\u2013|--?|:|\|)\s*/;

export interface ParseIndexOptions {
  /** Resolves an Obsidian `[[slug]]` or `[[path/slug]]` target to a page (see `wikilinkResolver`). */
  resolveWikilink: WikilinkResolver;
}

/** Every page entry an index file lists: list items that link to a `.md` page. */
export function parseIndexFile(indexFile: string, text: string, options: ParseIndexOptions): IndexEntry[] {
  const entries: IndexEntry[] = [];
  const baseDir = parentDir(indexFile);
  text.split('\n').forEach((raw, i) => {
    if (!LIST_ITEM.test(raw)) return;
    const line = raw.replace(LIST_ITEM, '');
    const markdown = MARKDOWN_ENTRY.exec(line);
    const wikilink = markdown ? null : WIKILINK_ENTRY.exec(line);
    const match = markdown ?? wikilink;
    // An entry starts with its link; links later in a line are prose, not entries.
    if (!match || match.index > 2) return;
    let path: string | undefined;
    let title: string;
    if (markdown) {
      const target = decodeURIComponentSafe(markdown[2]!);
      path = resolveWikiPath(target.startsWith('/') ? '' : baseDir, target);
      title = markdown[1]!.trim();
    } else {
      path = options.resolveWikilink(wikilink![1]!.trim());
      // A bare [[slug]] names the page without titling it: the page's own title stands.
      title = (wikilink![2] ?? '').trim();
    }
    if (!path || path.endsWith(IN_A_FOLDER) || path === DIRECTORY_INDEX) return;
    const rest = line
      .slice(match.index + match[0].length)
      .replace(SEPARATOR, '')
      .replace(QUALITY_MARKER, '')
      .trim();
    entries.push({ indexFile, line: i + 1, path, title, summary: rest });
  });
  return entries;
}

/** `%20` and friends decoded, or the text as it is when it is not valid percent-encoding. */
export function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
