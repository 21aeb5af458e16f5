// Obsidian `[[wikilinks]]` as links: finding them in a page body (never inside code spans or
// fences) and resolving them the way Obsidian does: the exact path first, else the shortest
// unique path whose file stem (and folders, when given) match, case-insensitively. An ambiguous
// or unknown target is not a link.
import { resolveWikiPath } from './wiki-path.js';

export interface Wikilink {
  /** The target as written: `slug` or `path/slug`, without `#heading` or `|text`. */
  target: string;
  /** The `|text` part, when there is one. */
  text?: string;
}

/** Resolves a wikilink target to a wiki-relative page path, or undefined. */
export type WikilinkResolver = (target: string) => string | undefined;

const WIKILINK = /!?\[\[([^[\]\n|#]*)(?:#[^[\]\n|]*)?(?:\|([^[\]\n]*))?\]\]/g;

/** Every `[[…]]` in `markdown` outside code, in order. */
export function findWikilinks(markdown: string): Wikilink[] {
  if (!markdown.includes('[[')) return [];
  const links: Wikilink[] = [];
  for (const m of blankCode(markdown).matchAll(WIKILINK)) {
    const target = m[1]!.trim();
    if (target === '') continue; // `[[#heading]]`: the page itself
    const text = m[2]?.trim();
    links.push(text ? { target, text } : { target });
  }
  return links;
}

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

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;

/** `markdown` with fenced code blocks and code spans blanked out (same length, same lines). */
export function blankCode(markdown: string): string {
  if (!markdown.includes('`') && !markdown.includes('~~~')) return markdown;
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    if (fence !== undefined) {
      const close = line.trim();
      if (close.startsWith(fence) && /^[`~]+$/.test(close) && close[0] === fence[0]) fence = undefined;
      out.push(blank(line));
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    if (open) {
      fence = open[1]!;
      out.push(blank(line));
    } else out.push(line);
  }
  return blankCodeSpans(out.join('\n'));
}

/** Code spans blanked: a run of backticks closes on the next run of exactly as many. */
function blankCodeSpans(text: string): string {
  if (!text.includes('`')) return text;
  let out = '';
  let i = 0;
  const unclosed = new Set<number>();
  while (i < text.length) {
    const tick = text.indexOf('`', i);
    if (tick < 0) break;
    let length = 1;
    while (text[tick + length] === '`') length++;
    const run = '`'.repeat(length);
    let stop = unclosed.has(length) ? -1 : text.indexOf(run, tick + length);
    while (stop >= 0 && (text[stop + length] === '`' || text[stop - 1] === '`')) stop = text.indexOf(run, stop + 1);
    if (stop < 0) unclosed.add(length);
    const end = stop >= 0 ? stop + length : tick + length;
    out += text.slice(i, tick) + (stop >= 0 ? text.slice(tick, end).replace(/[^\n]/g, ' ') : text.slice(tick, end));
    i = end;
  }
  return out + text.slice(i);
}
