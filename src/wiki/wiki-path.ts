// Wiki-relative paths of links: one resolver for markdown links, wikilinks and sources entries.

/**
 * Resolves a link against a wiki-relative directory. Leading slashes mean the wiki root.
 * Returns undefined when the path climbs out of the wiki root: nothing outside it is ever looked at.
 */
export function resolveWikiPath(fromDir: string, target: string): string | undefined {
  const parts = fromDir === '' || target.startsWith('/') ? [] : fromDir.split('/');
  for (const part of target.replace(/^\/+/, '').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}
