// Obsidian `[[wikilinks]]` as links: resolving a target (found by markdown/links.ts, never inside
// code) the way Obsidian does. A target names a file of the wiki: a note with or without its `.md`,
// any other file with its extension. The exact path wins, else the shortest unique path whose name
// (and folders, when given) match, case-insensitively. A target that starts with the wiki folder's
// own name (`[[wiki/concepts/x]]`, written from the vault root above it) is read from the wiki root.
// Nothing outside the wiki root is ever looked at. An ambiguous or unknown target is not a link.
import { compareCodePoints } from './python-compat.js';
import { resolveWikiPath } from './wiki-path.js';

/** Resolves a wikilink target to a wiki-relative file path, or undefined. */
export type WikilinkResolver = (target: string) => string | undefined;

/** What a target fits: one file, several equally, or nothing. */
export type WikilinkFit = { path: string } | { ambiguous: readonly string[] } | undefined;

export interface WikilinkOptions {
  /** The wiki folder's own name (its root's basename): a target starting with it is read from the root. */
  wikiName?: string | undefined;
  /**
   * Frontmatter `aliases:` by page, tried when no file fits (a lenient rule beyond Obsidian, whose
   * `[[Alias]]` links are written `[[page|Alias]]`).
   */
  aliases?: ReadonlyMap<string, readonly string[]> | undefined;
}

/** What each target fits among `files` (wiki-relative paths, notes and attachments alike). */
export function wikilinkFinder(files: Iterable<string>, options: WikilinkOptions = {}): (target: string) => WikilinkFit {
  // The files are taken now, their lookups built when a first target comes: most loads meet no
  // wikilink, and on a 10,000-page wiki building them is a twentieth of a load that reads one page.
  const paths = [...files];
  const aliases = [...(options.aliases ?? [])];
  let built: ReturnType<typeof fileLookups> | undefined;
  const lookups = () => (built ??= fileLookups(paths, aliases));
  const prefix = options.wikiName ? `${options.wikiName.toLowerCase()}/` : undefined;

  const fit = (normal: string): WikilinkFit => {
    const { byPath, byName } = lookups();
    const wanted = normal.toLowerCase();
    // A note's `.md` may be left out; a file named exactly as written comes second.
    for (const candidate of wanted.endsWith('.md') ? [wanted] : [`${wanted}.md`, wanted]) {
      const exact = byPath.get(candidate);
      if (exact) return one(exact.length === 1 ? exact : exact.filter((p) => p === normal || p === `${normal}.md`), exact);
    }
    // Folders in the target narrow the name's files to those whose path ends with them.
    const name = wanted.slice(wanted.lastIndexOf('/') + 1);
    const fits = (byName.get(name) ?? []).filter((p) => {
      const lower = p.toLowerCase();
      return lower.endsWith(`/${wanted}`) || lower.endsWith(`/${wanted}.md`);
    });
    if (fits.length === 0) return undefined;
    const depth = (p: string) => p.split('/').length;
    const shortest = Math.min(...fits.map(depth));
    return one(
      fits.filter((p) => depth(p) === shortest),
      fits,
    );
  };

  return (raw) => {
    const normal = resolveWikiPath('', raw.trim().replace(/\\/g, '/'));
    if (!normal) return undefined;
    const found = fit(normal);
    if (found) return found;
    if (prefix && normal.toLowerCase().startsWith(prefix)) {
      const fromRoot = fit(normal.slice(prefix.length));
      if (fromRoot) return fromRoot;
    }
    const aliased = lookups().byAlias.get(normal.toLowerCase());
    return aliased ? one(aliased, aliased) : undefined;
  };
}

/** The files by lowercased path and by name (a note's also without `.md`), and the pages by alias. */
function fileLookups(files: readonly string[], aliases: ReadonlyArray<readonly [string, readonly string[]]>) {
  const byPath = new Map<string, string[]>();
  const byName = new Map<string, string[]>();
  for (const file of files) {
    const lower = file.toLowerCase();
    push(byPath, lower, file);
    const name = lower.slice(lower.lastIndexOf('/') + 1);
    push(byName, name, file);
    // A note answers to its name without `.md` too.
    if (name.endsWith('.md')) push(byName, name.slice(0, -3), file);
  }
  const byAlias = new Map<string, string[]>();
  for (const [page, names] of aliases) {
    for (const alias of new Set(names.map((n) => n.trim().toLowerCase()))) if (alias !== '') push(byAlias, alias, page);
  }
  return { byPath, byName, byAlias };
}

/** A resolver over `files`: the one file a target fits, or undefined. */
export function wikilinkResolver(files: Iterable<string>, options: WikilinkOptions = {}): WikilinkResolver {
  const find = wikilinkFinder(files, options);
  return (target) => {
    const found = find(target);
    return found && 'path' in found ? found.path : undefined;
  };
}

/** The one file, or those that fit equally in code-point order (the tree's walk order is the file system's). */
const one = (best: readonly string[], all: readonly string[]): WikilinkFit =>
  best.length === 1 ? { path: best[0]! } : { ambiguous: [...(best.length > 1 ? best : all)].sort(compareCodePoints) };

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
