// Obsidian `[[wikilinks]]` as links: resolving a target (found by markdown/links.ts, never inside
// code) the way Obsidian does: the exact path first, else the shortest unique path whose file stem
// (and folders, when given) match, case-insensitively. An ambiguous or unknown target is not a link.
import { resolveWikiPath } from './wiki-path.js';

/** Resolves a wikilink target to a wiki-relative page path, or undefined. */
export type WikilinkResolver = (target: string) => string | undefined;

/** A resolver over `pages` (wiki-relative `.md` paths). */
export function wikilinkResolver(pages: Iterable<string>): WikilinkResolver {
  const byPath = new Map<string, string[]>();
  const byStem = new Map<string, string[]>();
  for (const page of pages) {
    const lower = page.toLowerCase();
    push(byPath, lower, page);
    push(byStem, stemOf(lower), page);
  }
  return (raw) => {
    const normal = resolveWikiPath('', raw.trim().replace(/\\/g, '/'));
    if (!normal) return undefined;
    const wanted = (/\.md$/i.test(normal) ? normal : `${normal}.md`).toLowerCase();
    const exact = byPath.get(wanted);
    if (exact) return exact.length === 1 ? exact[0] : exact.find((p) => p === normal || p === `${normal}.md`);
    // Folders in the target narrow the stem's pages to those whose path ends with them.
    const fits = (byStem.get(stemOf(wanted)) ?? []).filter((p) => p.toLowerCase().endsWith(`/${wanted}`));
    const depth = (p: string) => p.split('/').length;
    const shortest = Math.min(...fits.map(depth));
    const best = fits.filter((p) => depth(p) === shortest);
    return best.length === 1 ? best[0] : undefined;
  };
}

const stemOf = (lowerPath: string): string => lowerPath.slice(lowerPath.lastIndexOf('/') + 1).replace(/\.md$/, '');

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
