// Wiki health for the digest: invalid pages (with the validator's messages), broken links, orphan
// pages (no inbound link, markdown or `[[wikilink]]`, from any other page; index files do not
// count), stale pages, low-quality
// pages not rated by a person, oversized `_index.md` files, too many categories, pages too deep.
import path from 'node:path';
import type { ValidateSettings } from '../config/config.js';
import { bodyOf } from '../markdown/body.js';
import { findWikilinks, markdownLinks } from '../markdown/links.js';
import { readFrontmatter } from '../wiki/frontmatter.js';
import { type WikiLayout, parentDir } from '../wiki/layout.js';
import { isPyDict, pyToFloat } from '../wiki/python-compat.js';
import { MAX_PATH_PARTS, validateWiki } from '../wiki/validator.js';
import { isIndexFilePath } from '../wiki/index-entries.js';
import { readPages } from '../wiki/page-limit.js';
import { resolveWikiPath } from '../wiki/wiki-path.js';
import { wikilinkResolver } from '../wiki/wikilinks.js';

export interface HealthOptions {
  now: Date;
  staleDays: number;
  /** `validate` settings, so "invalid" means what `validate` says (upstream's verdicts when not given). */
  rules?: ValidateSettings;
}

export interface WikiHealth {
  pages: number;
  categories: number;
  invalid: Array<{ path: string; messages: string[] }>;
  brokenLinks: Array<{ path: string; line: number; target: string }>;
  orphans: string[];
  stale: Array<{ path: string; updated: string }>;
  lowQuality: Array<{ path: string; overall: number }>;
  oversizedIndexes: Array<{ path: string; bytes: number }>;
  tooDeep: string[];
  /** Page path → `updated` date, for "most asked-about pages that are oldest". */
  updated: Map<string, string>;
}

/** The upstream thresholds: an `_index.md` past 8 KB should split; more than 8 categories is too many. */
export const INDEX_SIZE_LIMIT = 8192;
export const CATEGORY_LIMIT = 8;
export const LOW_QUALITY = 3.0;

export async function wikiHealth(layout: WikiLayout, options: HealthOptions): Promise<WikiHealth> {
  const { diagnostics } = await validateWiki(layout, undefined, options.rules);
  const byPage = new Map<string, string[]>();
  for (const d of diagnostics.filter((x) => x.severity === 'error')) byPage.set(d.path, [...(byPage.get(d.path) ?? []), `${d.line}: ${d.message}`]);
  const inbound = new Map<string, number>(layout.pages.map((p) => [p, 0]));
  const health: WikiHealth = {
    pages: layout.pages.length,
    categories: layout.categories.length,
    invalid: [...byPage].map(([path, messages]) => ({ path, messages })),
    brokenLinks: diagnostics.filter((d) => d.code === 'broken-link').map((d) => ({ path: d.path, line: d.line, target: d.field ?? '' })),
    orphans: [],
    stale: [],
    lowQuality: [],
    oversizedIndexes: [],
    tooDeep: layout.pages.filter((p) => p.split('/').length > MAX_PATH_PARTS),
    updated: new Map(),
  };
  const staleBefore = options.now.getTime() - options.staleDays * 86_400_000;
  const indexes = [...layout.tree.files].filter(isIndexFilePath);
  const resolveWikilink = wikilinkResolver(layout.pages, { wikiName: path.basename(layout.tree.root) });
  const linkTo = (from: string, resolved: string | undefined) => {
    if (resolved && resolved !== from && inbound.has(resolved)) inbound.set(resolved, inbound.get(resolved)! + 1);
  };
  // Pages over the size limit are not parsed here either (validation reports them).
  await readPages(layout.tree, [...layout.pages, ...indexes], (path, file) => {
    if (!file.ok) return;
    if (isIndexFilePath(path)) {
      const bytes = Buffer.byteLength(file.text);
      if (path !== 'index.md' && bytes > INDEX_SIZE_LIMIT) health.oversizedIndexes.push({ path, bytes });
      return;
    }
    const body = bodyOf(file.text);
    for (const link of markdownLinks(body)) {
      const target = link.target.split('#')[0]!;
      if (target === '' || /^[a-z]+:/i.test(target)) continue;
      linkTo(path, resolveWikiPath(target.startsWith('/') ? '' : parentDir(path), target));
    }
    for (const link of findWikilinks(body)) linkTo(path, resolveWikilink(link.target));
    const fm = readFrontmatter(file.text);
    if (fm.kind !== 'ok') return;
    const updated = fm.data.updated;
    if (typeof updated === 'string') {
      health.updated.set(path, updated);
      if (Date.parse(updated) < staleBefore) health.stale.push({ path, updated });
    }
    const quality = fm.data.quality;
    if (isPyDict(quality) && quality.rated_by !== 'human') {
      const overall = pyToFloat(quality.overall);
      if (overall !== undefined && overall < LOW_QUALITY) health.lowQuality.push({ path, overall });
    }
  });
  health.orphans = [...inbound].filter(([, n]) => n === 0).map(([p]) => p);
  health.stale.sort((a, b) => a.updated.localeCompare(b.updated));
  health.lowQuality.sort((a, b) => a.overall - b.overall);
  return health;
}
