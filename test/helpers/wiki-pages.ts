// Page texts in the exact upstream format (the frontmatter layout of the compat fixture
// concepts/eager-cursor-tuning.md), valid unless a field is overridden to something invalid.

export interface PageSpec {
  /** The category folder: becomes `type`. */
  category: string;
  title: string;
  /** Wiki-relative paths of other pages ('concepts/x.md'): listed in `related` and linked under "See also". */
  links?: string[];
  tags?: string[];
  /** Each must exist in the wiki, or be 'conversation' (the default). */
  sources?: string[];
  /** ISO-8601 UTC; anything else makes the page invalid. */
  created?: string;
  updated?: string;
  /** accuracy, completeness, signal, interlinking (1..5); `overall` is their mean. */
  scores?: [number, number, number, number];
  /** The first body paragraph (what the index lists after the title). */
  summary?: string;
}

const STAMP = '2026-04-24T13:00:00Z';

/** 'Eager Cursor Tuning' → 'eager-cursor-tuning' */
export const slugOf = (title: string): string =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Where a page with this spec conventionally lives: `category/slug.md`. */
export const pagePath = (spec: Pick<PageSpec, 'category' | 'title'>): string => `${spec.category}/${slugOf(spec.title)}.md`;

export function wikiPage(spec: PageSpec): string {
  const links = spec.links ?? [];
  const [accuracy, completeness, signal, interlinking] = spec.scores ?? [4, 4, 5, 3];
  // Four integer scores: the mean has at most two decimals, so it needs no rounding.
  const overall = (accuracy + completeness + signal + interlinking) / 4;
  const created = spec.created ?? STAMP;
  const updated = spec.updated ?? created;
  const lines = [
    '---',
    `title: "${spec.title}"`,
    `type: ${spec.category}`,
    `tags: [${(spec.tags ?? ['testing']).join(', ')}]`,
    'sources:',
    ...(spec.sources ?? ['conversation']).map((s) => `  - ${s}`),
    ...(links.length > 0 ? ['related:', ...links.map((l) => `  - /${l}`)] : []),
    `created: "${created}"`,
    `updated: "${updated}"`,
    'quality:',
    `  accuracy: ${accuracy}`,
    `  completeness: ${completeness}`,
    `  signal: ${signal}`,
    `  interlinking: ${interlinking}`,
    `  overall: ${overall}`,
    `  rated_at: "${updated}"`,
    '  rated_by: ingester',
    '---',
    '',
    `${spec.title} — ${spec.summary ?? 'a page written for a test.'}`,
    '',
    '## Details',
    '',
    `What ${spec.title} is about, in a sentence or two.`,
    ...(links.length > 0 ? ['', '## See also', ...links.map((l) => `- [${l}](/${l})`)] : []),
  ];
  return `${lines.join('\n')}\n`;
}

/** The 1-based line of the first frontmatter line starting with `key:` (where diagnostics point). */
export function lineOfField(pageText: string, key: string): number {
  const index = pageText.split('\n').findIndex((line) => line.startsWith(`${key}:`));
  if (index < 0) throw new Error(`no '${key}:' line in the page`);
  return index + 1;
}

/** A `schema.md` naming the categories (its presence is what marks a folder as a wiki). */
export function schemaPage(categories: readonly string[]): string {
  return `# Wiki Schema\n\n## Categories\n${categories.map((c) => `- \`${c}/\` — test category`).join('\n')}\n`;
}

/**
 * A small valid wiki (wiki-relative path → text): two categories, a nested folder, cross links.
 * Index files are not included: build them with `wiki-steward index`.
 */
export function sampleWiki(): Record<string, string> {
  const pages: PageSpec[] = [
    { category: 'concepts', title: 'Cache Warming', links: ['concepts/ops/lease-renewal.md', 'entities/redis.md'] },
    { category: 'concepts', title: 'Retry Budgets', scores: [5, 4, 4, 3] },
    { category: 'concepts', title: 'Lease Renewal', links: ['concepts/cache-warming.md'] },
    { category: 'entities', title: 'Redis', links: ['concepts/retry-budgets.md'] },
  ];
  const files: Record<string, string> = { 'schema.md': schemaPage(['concepts', 'entities']) };
  files['concepts/cache-warming.md'] = wikiPage(pages[0]!);
  files['concepts/retry-budgets.md'] = wikiPage(pages[1]!);
  files['concepts/ops/lease-renewal.md'] = wikiPage(pages[2]!);
  files['entities/redis.md'] = wikiPage(pages[3]!);
  return files;
}
