// Which folders are categories and which files are pages, by upstream's discovery rules
// (reference/upstream-format.md §1.4), narrowed by the config's include/exclude lists.
import { compareCodePoints, comparePathParts } from './python-compat.js';
import type { WikiTree } from './tree.js';

/** Never categories, and never walked into for pages. Dot-folders are excluded too. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(['raw', 'index', 'archive', 'inbox']);
export const DIRECTORY_INDEX = '_index.md';
export const ROOT_INDEX = 'index.md';

export interface CategoryFilter {
  include: readonly string[];
  exclude: readonly string[];
}

export interface WikiLayout {
  tree: WikiTree;
  /** Category folder names, in code-point order. */
  categories: string[];
  /** Every page (a category's `*.md` below no reserved or dot folder, not `_index.md`), in path order. */
  pages: string[];
  counts: Map<string, number>;
  /** Deepest page per category, counted in path parts from the category (0 when empty). */
  depths: Map<string, number>;
  /** Directories that get an `_index.md`: each category and every folder below it that is not hidden. */
  indexedDirs: string[];
  /**
   * Files that would be pages but whose path holds a line break or another control character: such
   * a name would split a diagnostic line or an index entry, so they are not pages (see `isUnsafeName`).
   */
  unsafeNames: string[];
}

/** Control characters and Unicode line and paragraph separators: never printed raw in a line. */
const UNSAFE_CHARACTER = /[\p{Cc}\u2028\u2029]/u;
const UNSAFE_CHARACTERS = /[\p{Cc}\u2028\u2029]/gu;
export const isUnsafeName = (relPath: string): boolean => UNSAFE_CHARACTER.test(relPath);

const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };
export const escapeCharacter = (ch: string): string => SHORT_ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** The path with control characters escaped as in a JSON string (`a\nb.md`), safe on one line. */
export const escapeUnsafeName = (relPath: string): string => relPath.replace(UNSAFE_CHARACTERS, escapeCharacter);

/** The path as a JSON string, every control character and line separator escaped: `"a\nb.md"`. */
export const quoteName = (relPath: string): string => JSON.stringify(relPath).replace(UNSAFE_CHARACTERS, escapeCharacter);

export const isHiddenName = (name: string): boolean => name.startsWith('.') || RESERVED_NAMES.has(name);
const basename = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
export const parentDir = (p: string): string => {
  const at = p.lastIndexOf('/');
  return at < 0 ? '' : p.slice(0, at);
};

export function discoverLayout(tree: WikiTree, filter: CategoryFilter = { include: [], exclude: [] }): WikiLayout {
  const anyCategories = [...tree.dirs]
    .filter((d) => d !== '' && !d.includes('/') && !isHiddenName(d))
    .filter((d) => (filter.include.length === 0 || filter.include.includes(d)) && !filter.exclude.includes(d));
  const categories = anyCategories.filter((d) => !isUnsafeName(d)).sort(compareCodePoints);
  const anyCategorySet = new Set(anyCategories);
  const categorySet = new Set(categories);
  const pages: string[] = [];
  const unsafeNames: string[] = [];
  const counts = new Map(categories.map((c) => [c, 0]));
  const depths = new Map(categories.map((c) => [c, 0]));
  for (const file of tree.files) {
    if (!file.endsWith('.md') || basename(file) === DIRECTORY_INDEX) continue;
    const parts = file.split('/');
    const category = parts[0]!;
    if (parts.length < 2 || !anyCategorySet.has(category)) continue;
    if (parts.slice(1, -1).some(isHiddenName)) continue;
    if (isUnsafeName(file)) {
      unsafeNames.push(file);
      continue;
    }
    pages.push(file);
    counts.set(category, counts.get(category)! + 1);
    depths.set(category, Math.max(depths.get(category)!, parts.length - 1));
  }
  pages.sort(comparePathParts);
  unsafeNames.sort(comparePathParts);
  const indexedDirs = [...tree.dirs]
    .filter((d) => {
      const parts = d.split('/');
      return categorySet.has(parts[0]!) && !parts.slice(1).some(isHiddenName) && !isUnsafeName(d);
    })
    .sort(comparePathParts);
  return { tree, categories, pages, counts, depths, indexedDirs, unsafeNames };
}

/** The category a wiki-relative path belongs to, if any. */
export function categoryOf(layout: WikiLayout, relPath: string): string | undefined {
  const first = relPath.split('/')[0]!;
  return layout.categories.includes(first) && relPath.includes('/') ? first : undefined;
}
