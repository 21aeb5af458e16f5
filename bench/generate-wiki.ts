// A deterministic generator of large upstream-format wikis (reference/upstream-format.md §1-2) for
// the benchmark: schema.md, log.md, raw/ evidence, 6-8 categories nested up to category/a/b/page.md,
// pages with full frontmatter and 2-8 KB bodies that link to other pages, and a small share of
// pages that break exactly one validator rule each; or, with `shape: 'obsidian'`, the same wiki as an
// Obsidian vault writes it (see GenerateOptions.shape). Same seed and options, same bytes. Also makes
// questions for the answer engine from the wiki's own vocabulary (generateQuestions).
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type FaultKind = 'bad-date' | 'missing-field' | 'broken-link' | 'wrong-overall' | 'type-mismatch' | 'missing-source';
export const FAULT_KINDS: readonly FaultKind[] = ['bad-date', 'missing-field', 'broken-link', 'wrong-overall', 'type-mismatch', 'missing-source'];

export interface GenerateOptions {
  pages: number;
  seed?: number;
  /** Share of pages that break one validator rule (default 0.05; ignored in the Obsidian shape). */
  invalidRate?: number;
  /**
   * `upstream` (default): upstream's format, slug file names, `[text](/path.md)` links. `obsidian`:
   * files named by their title, 5-9 path-less `[[Title]]` links per page, and a date-only
   * `created: 2026-05-01` on every page, the one finding each page gets under upstream's rules.
   */
  shape?: WikiShape;
}

export type WikiShape = 'upstream' | 'obsidian';

export interface GeneratedWiki {
  /** Every page, wiki-relative, in generation order. */
  pages: string[];
  /** The pages that break a rule, wiki-relative. */
  invalid: string[];
  /** Which rule each invalid page breaks. */
  faults: Record<string, FaultKind>;
  categories: string[];
  rawFiles: string[];
  /** What each page's frontmatter says (as planned: a page with a fault may omit it), in `pages` order. */
  meta: Array<{ path: string; title: string; tags: string[] }>;
}

// ---------------------------------------------------------------------------------------------
// Seeded randomness (mulberry32): no dependency, identical output on every platform.

class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** `count` distinct items (fewer when the list is shorter). */
  sample<T>(items: readonly T[], count: number): T[] {
    const chosen = new Set<number>();
    const n = Math.min(count, items.length);
    while (chosen.size < n) chosen.add(Math.floor(this.next() * items.length));
    return [...chosen].map((i) => items[i]!);
  }
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }
}

// ---------------------------------------------------------------------------------------------
// Vocabulary.

const CATEGORY_POOL: ReadonlyArray<{ name: string; weight: number; singular: string }> = [
  { name: 'concepts', weight: 5, singular: 'concept' },
  { name: 'entities', weight: 3, singular: 'entity' },
  { name: 'how-to', weight: 3, singular: 'howto' },
  { name: 'queries', weight: 2, singular: 'query' },
  { name: 'ideas', weight: 2, singular: 'idea' },
  { name: 'sources', weight: 3, singular: 'source' },
  { name: 'projects', weight: 2, singular: 'project' },
  { name: 'patterns', weight: 2, singular: 'pattern' },
];

const FOLDERS = [
  'core',
  'ops',
  'research',
  'storage',
  'networking',
  'internals',
  'tooling',
  'vendors',
  'apis',
  'pipelines',
  'reliability',
  'security',
  'data',
  'infra',
  'frontend',
  'backend',
  'ml',
  'search',
  'caching',
  'messaging',
  'scheduling',
  'observability',
  'testing',
  'migrations',
  'archive-notes',
  'legacy',
  'platform',
  'clients',
];

const TAGS = [
  'api',
  'rate-limit',
  'browser',
  'research',
  'pattern',
  'workaround',
  'database',
  'cache',
  'queue',
  'search',
  'security',
  'auth',
  'testing',
  'ci',
  'deploy',
  'observability',
  'performance',
  'storage',
  'networking',
  'llm',
  'embedding',
  'scraping',
  'parsing',
  'scheduling',
  'concurrency',
  'reliability',
  'cost',
  'config',
  'migration',
  'tooling',
  'python',
  'typescript',
  'rust',
  'go',
  'infra',
  'cloud',
  'devops',
  'frontend',
  'backend',
  'data',
];

const ADJECTIVES = [
  'distributed',
  'eager',
  'incremental',
  'persistent',
  'rate-limited',
  'reactive',
  'replicated',
  'sampled',
  'lock-free',
  'cached',
  'eventual',
  'lazy',
  'rolling',
  'scheduled',
  'transactional',
  'windowed',
  'sharded',
  'streaming',
  'batched',
  'idempotent',
  'optimistic',
  'pessimistic',
  'tiered',
  'adaptive',
  'bounded',
  'hierarchical',
  'speculative',
  'durable',
  'ephemeral',
  'versioned',
  'partitioned',
  'federated',
  'compressed',
  'encrypted',
  'layered',
  'pooled',
  'weighted',
  'deferred',
  'atomic',
  'consistent',
  'elastic',
  'fenced',
  'leased',
  'quorum',
  'vectorised',
  'columnar',
  'async',
  'blocking',
  'multi-tenant',
  'zero-copy',
];

const NOUNS = [
  'spooler',
  'cursor',
  'hydration',
  'replica',
  'consensus',
  'dedupe',
  'lock',
  'checkpoint',
  'mirror',
  'dispatcher',
  'watermark',
  'reconciler',
  'journal',
  'pagination',
  'scheduler',
  'ingest',
  'compaction',
  'ledger',
  'lease',
  'retry',
  'backoff',
  'queue',
  'index',
  'tokenizer',
  'embedder',
  'reranker',
  'crawler',
  'parser',
  'planner',
  'router',
  'gateway',
  'proxy',
  'cache',
  'snapshot',
  'manifest',
  'registry',
  'allocator',
  'sampler',
  'aggregator',
  'buffer',
  'pipeline',
  'worker',
  'coordinator',
  'heartbeat',
  'election',
  'outbox',
  'inbox',
  'changelog',
  'bloom filter',
  'hash ring',
  'rate limiter',
  'circuit breaker',
  'connection pool',
  'write-ahead log',
  'vector store',
  'prompt cache',
  'context window',
  'eval harness',
  'feature flag',
  'migration runner',
  'schema registry',
  'token bucket',
  'event bus',
  'state machine',
  'job runner',
  'blob store',
  'search index',
  'webhook relay',
  'session store',
  'audit trail',
];

const SUFFIXES = [
  'failure modes',
  'tuning',
  'limits',
  'checklist',
  'setup',
  'patterns',
  'pitfalls',
  'gotchas',
  'benchmarks',
  'overview',
  'internals',
  'trade-offs',
  'playbook',
  'design notes',
  'migration guide',
  'cost model',
  'sizing',
  'observability',
  'testing strategy',
  'recovery',
  'hardening',
  'anti-patterns',
  'glossary',
  'comparison',
  'rollout',
];

const ENTITY_PREFIXES = [
  'Acme',
  'Northwind',
  'Globex',
  'Initech',
  'Umbrella',
  'Hooli',
  'Vandelay',
  'Stark',
  'Wayne',
  'Tyrell',
  'Cyberdyne',
  'Soylent',
  'Aperture',
  'Wonka',
  'Gringotts',
  'Oscorp',
  'Massive',
  'Dunder',
  'Pied Piper',
  'Monarch',
];
const ENTITY_KINDS = ['API', 'SDK', 'Platform', 'Service', 'Database', 'Gateway', 'Cloud', 'Runtime', 'Toolkit', 'Engine'];
const HOWTO_VERBS = ['Configure', 'Debug', 'Tune', 'Migrate', 'Deploy', 'Monitor', 'Benchmark', 'Secure', 'Scale', 'Test', 'Roll back', 'Profile'];
const QUERY_OPENERS = ['When to use', 'Why not use', 'How big should', 'What breaks in', 'Choosing between', 'Is it safe to shard'];

const VERBS = [
  'keeps',
  'reports',
  'uses',
  'claims',
  'retries',
  'compacts',
  'writes',
  'reads',
  'flushes',
  'drops',
  'merges',
  'splits',
  'batches',
  'replays',
  'checks',
  'tracks',
  'expires',
  'renews',
  'throttles',
  'buffers',
  'serialises',
  'rebalances',
  'acknowledges',
  'rejects',
  'promotes',
  'evicts',
  'pins',
  'streams',
  'samples',
  'indexes',
];
const OBJECTS = [
  'the ledger',
  'every lease',
  'its checkpoints',
  'stale entries',
  'the write path',
  'each batch',
  'the hot set',
  'pending jobs',
  'the backlog',
  'cold shards',
  'the retry budget',
  'open cursors',
  'the manifest',
  'warm replicas',
  'each request',
  'the token bucket',
  'late events',
  'the outbox',
  'old snapshots',
  'the session table',
  'partial pages',
  'the schema',
  'dirty buffers',
  'the audit trail',
  'slow consumers',
  'the election term',
  'orphaned locks',
];
const ADVERBS = [
  'atomically',
  'twice',
  'lazily',
  'eagerly',
  'in order',
  'out of band',
  'under load',
  'on restart',
  'per tenant',
  'at most once',
  'at least once',
  'without blocking',
  'in the background',
  'on every tick',
  'before the deadline',
  'after a timeout',
  'with jitter',
  'in bulk',
  'per shard',
  'on the hot path',
];
/** The same verbs after a plural subject, worked out once (this runs millions of times). */
const VERB_BASES = VERBS.map((verb) =>
  verb
    .replace(/ies$/, 'y')
    .replace(/(ch|sh|x|ss)es$/, '$1')
    .replace(/([^s])s$/, '$1'),
);
const CONNECTORS = ['because', 'while', 'unless', 'so that', 'after', 'before', 'even when', 'as long as', 'whereas', 'until'];
const OPENERS = [
  'In practice',
  'Under load',
  'By default',
  'In our tests',
  'For small wikis',
  'On a cold start',
  'In production',
  'During a failover',
  'With many tenants',
  'After the migration',
  'In the worst case',
  'Most of the time',
];
const CODE_SPANS = [
  '`max_retries=5`',
  '`--dry-run`',
  '`GET /v1/items`',
  '`lease_ttl: 30s`',
  '`SELECT count(*)`',
  '`fsync()`',
  '`backoff=2`',
  '`queue.drain()`',
  '`git gc --aggressive`',
  '`RATE_LIMIT=100`',
  '`[x](not-a-link.md)`',
  '`ETag`',
  '`If-None-Match`',
  '`429 Too Many Requests`',
  '`--concurrency 8`',
  '`cursor.next()`',
  '`O(n log n)`',
];
const SECTION_HEADINGS = [
  'Details',
  'How it works',
  'Trade-offs',
  'Failure modes',
  'When to use it',
  'Configuration',
  'Observations',
  'Open questions',
  'Caveats',
  'Examples',
  'Background',
  'Measurements',
  'Operational notes',
  'Alternatives',
];
const CODE_BLOCKS = [
  'retry(max=5, backoff=2)  # [not a link](nowhere.md)\nlease.renew(ttl=30)',
  'const cursor = store.open({ batch: 500 });\nfor await (const page of cursor) flush(page);',
  '$ curl -sS -H "If-None-Match: $ETAG" https://api.example.invalid/v1/items\nHTTP/1.1 304 Not Modified',
  'queue:\n  workers: 8\n  visibility_timeout: 30s\n  dead_letter: after 5 attempts',
  'SELECT shard, count(*) FROM leases WHERE expires_at < now() GROUP BY shard;',
];

// ---------------------------------------------------------------------------------------------
// Planning: every page's place, title and metadata before any text is written, so links can
// point at pages that exist.

interface PagePlan {
  path: string;
  category: string;
  title: string;
  tags: string[];
  sources: string[];
  created: string;
  updated: string;
  scores: [number, number, number, number];
  ratedBy: 'human' | 'ingester';
  links: number[];
  fault?: FaultKind;
}

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const titleCase = (s: string): string => s.split(' ').map(capitalize).join(' ');
const slugify = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

function titleFor(rng: Rng, category: string): string {
  const thing = `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`;
  switch (category) {
    case 'entities':
      return `${rng.pick(ENTITY_PREFIXES)} ${titleCase(rng.pick(NOUNS))} ${rng.pick(ENTITY_KINDS)}`;
    case 'how-to':
      return `${rng.pick(HOWTO_VERBS)} ${thing} ${rng.pick(['safely', 'in production', 'for large wikis', 'step by step', 'with zero downtime', 'locally'])}`;
    case 'queries':
      return `${rng.pick(QUERY_OPENERS)} ${thing} ${rng.pick(SUFFIXES)}`;
    case 'ideas':
      return `Idea ${titleCase(thing)} ${rng.pick(['for ingest', 'for search', 'for the index', 'for captures', 'for reviews', 'for costs'])}`;
    default:
      return titleCase(`${thing} ${rng.pick(SUFFIXES)}`);
  }
}

/**
 * Pages per folder on average. Upstream's ingester proposes splitting a folder whose `_index.md`
 * passes 8 KB (about 30-40 entries), so a maintained wiki keeps folders around this size.
 */
const PAGES_PER_FOLDER = 40;

/** The folders of one category: itself, some `a` folders, and `a/b` folders under some of those. */
function categoryFolders(rng: Rng, category: string, pageCount: number): string[] {
  const wanted = Math.max(1, Math.round(pageCount / PAGES_PER_FOLDER));
  const topLevel = Math.min(FOLDERS.length, Math.max(1, Math.round(Math.sqrt(wanted))));
  const folders = [category];
  for (const a of rng.sample(FOLDERS, topLevel)) {
    folders.push(`${category}/${a}`);
    const perA = Math.max(0, Math.round((2 * (wanted - 1 - topLevel)) / topLevel));
    for (const b of rng.sample(
      FOLDERS.filter((f) => f !== a),
      rng.int(0, perA),
    ))
      folders.push(`${category}/${a}/${b}`);
  }
  return folders;
}

const DAY = 86_400_000;
const EPOCH = Date.UTC(2025, 0, 1);
const isoSeconds = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function planRawFiles(rng: Rng, count: number): string[] {
  const names = new Set<string>();
  while (names.size < count) {
    const day = isoSeconds(EPOCH + rng.int(0, 480) * DAY).slice(0, 10);
    const ext = rng.chance(0.85) ? 'md' : rng.pick(['txt', 'json', 'html']);
    names.add(
      `raw/${day}-${slugify(`${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)} ${rng.pick(['notes', 'thread', 'paper', 'docs', 'transcript', 'changelog'])}`)}-${names.size}.${ext}`,
    );
  }
  return [...names].sort();
}

function planPages(rng: Rng, count: number, categories: string[], rawFiles: string[], shape: WikiShape): PagePlan[] {
  const weights = categories.map((c) => CATEGORY_POOL.find((p) => p.name === c)!.weight);
  const total = weights.reduce((a, b) => a + b, 0);
  const perCategory = weights.map((w) => Math.floor((count * w) / total));
  for (let i = 0; perCategory.reduce((a, b) => a + b, 0) < count; i++) perCategory[i % categories.length]!++;

  const slugs = new Set<string>();
  const pages: PagePlan[] = [];
  categories.forEach((category, ci) => {
    const n = perCategory[ci]!;
    const folders = categoryFolders(rng, category, n);
    for (let i = 0; i < n; i++) {
      let title = titleFor(rng, category);
      for (let attempt = 0; slugs.has(slugify(title)) && attempt < 20; attempt++) title = titleFor(rng, category);
      for (let k = 2; slugs.has(slugify(title)); k++) title = `${title.replace(/ \d+$/, '')} ${k}`;
      slugs.add(slugify(title));
      // Every folder gets at least one page, then an equal chance of each further one.
      const folder = i < folders.length ? folders[i]! : rng.pick(folders);
      const created = EPOCH + rng.int(0, 480 * 24 * 3600) * 1000;
      const updated = rng.chance(0.4) ? created : created + rng.int(0, 60 * 24 * 3600) * 1000;
      const scores = [rng.int(1, 5), rng.int(2, 5), rng.int(2, 5), rng.int(1, 5)] as [number, number, number, number];
      const sources = rng.chance(0.35) ? ['conversation'] : rng.sample(rawFiles, rng.int(1, 3));
      pages.push({
        path: `${folder}/${shape === 'obsidian' ? title : slugify(title)}.md`,
        category,
        title,
        tags: rng.sample(TAGS, rng.int(1, 5)),
        sources,
        created: isoSeconds(created),
        updated: isoSeconds(updated),
        scores,
        ratedBy: rng.chance(0.2) ? 'human' : 'ingester',
        links: [],
      });
    }
  });
  for (let i = 0; i < pages.length; i++) {
    if (pages.length < 2) break;
    const wanted = Math.min(shape === 'obsidian' ? rng.int(5, 9) : rng.int(3, 10), pages.length - 1);
    const links = new Set<number>();
    while (links.size < wanted) {
      const j = rng.int(0, pages.length - 1);
      if (j !== i) links.add(j);
    }
    pages[i]!.links = [...links];
  }
  return pages;
}

// ---------------------------------------------------------------------------------------------
// Rendering.

const mean2 = (scores: readonly number[]): number => Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 100) / 100;

function sentence(rng: Rng, subject: string): string {
  const parts = [rng.chance(0.3) ? `${rng.pick(OPENERS)}, the` : 'The', subject, rng.pick(VERBS), rng.pick(OBJECTS), rng.pick(ADVERBS)];
  if (rng.chance(0.55)) parts.push(rng.pick(CONNECTORS), rng.pick(OBJECTS), rng.pick(VERB_BASES), rng.pick(OBJECTS));
  if (rng.chance(0.2)) parts.push('with', rng.pick(CODE_SPANS));
  const text = parts.join(' ');
  return `${text}.`;
}

function paragraph(rng: Rng, subject: string, inlineLink?: string): string {
  const sentences: string[] = [];
  const n = rng.int(3, 7);
  for (let i = 0; i < n; i++) sentences.push(sentence(rng, rng.chance(0.5) ? subject : rng.pick(NOUNS)));
  if (inlineLink) sentences.splice(rng.int(0, sentences.length), 0, `See ${inlineLink} for the related details.`);
  return sentences.join(' ');
}

function bulletList(rng: Rng, subject: string, ordered: boolean): string {
  const n = rng.int(3, 6);
  const items: string[] = [];
  for (let i = 0; i < n; i++) {
    const item = `${capitalize(rng.pick(VERB_BASES))} ${rng.pick(OBJECTS)} ${rng.pick(ADVERBS)}${rng.chance(0.3) ? ` (${rng.pick(CODE_SPANS)})` : ''}; the ${subject} ${rng.pick(VERBS)} ${rng.pick(OBJECTS)}.`;
    items.push(ordered ? `${i + 1}. ${item}` : `- ${item}`);
  }
  return items.join('\n');
}

function renderBody(rng: Rng, page: PagePlan, pages: readonly PagePlan[], brokenLink: string | undefined, shape: WikiShape): string {
  const subject = page.title.toLowerCase();
  const targetSize = rng.int(2048, 8192);
  const linkTexts = page.links.map((j, k) => {
    const target = pages[j]!;
    if (shape === 'obsidian') return `[[${target.title}]]`;
    const href = k === 0 && brokenLink ? brokenLink : `/${target.path}${rng.chance(0.1) ? '#details' : ''}`;
    return `[${rng.chance(0.7) ? target.title : target.path.slice(0, -3)}](${href})`;
  });
  // Roughly half the links sit in the prose, the rest under "See also".
  const inline = linkTexts.slice(0, Math.ceil(linkTexts.length / 2));
  const seeAlso = linkTexts.slice(inline.length);

  const blocks: string[] = [`${page.title} — ${sentence(rng, subject)}`, '## Overview', paragraph(rng, subject, inline.shift())];
  let size = blocks.join('\n\n').length + seeAlso.join('\n').length + 200;
  while (size < targetSize || inline.length > 0) {
    const section: string[] = [`## ${rng.pick(SECTION_HEADINGS)}`, paragraph(rng, subject, inline.shift())];
    const roll = rng.next();
    if (roll < 0.35) section.push(bulletList(rng, subject, page.category === 'how-to'));
    else if (roll < 0.5) section.push(`\`\`\`\n${rng.pick(CODE_BLOCKS)}\n\`\`\``);
    if (rng.chance(0.5)) section.push(paragraph(rng, subject));
    const text = section.join('\n\n');
    blocks.push(text);
    size += text.length + 2;
  }
  blocks.push('## See also', seeAlso.length > 0 ? seeAlso.map((l) => `- ${l}`).join('\n') : '- (nothing yet)');
  return `${blocks.join('\n\n')}\n`;
}

function renderFrontmatter(rng: Rng, page: PagePlan, pages: readonly PagePlan[], categories: readonly string[], shape: WikiShape): string {
  const fault = page.fault;
  let { created, updated } = page;
  let ratedAt = updated;
  if (fault === 'bad-date') {
    const which = rng.int(0, 2);
    if (which === 0) created = created.slice(0, 10);
    else if (which === 1) updated = updated.replace('Z', '+02:00');
    else ratedAt = ratedAt.replace('T', ' ');
  }
  let type = page.category;
  if (fault === 'type-mismatch') {
    const singular = CATEGORY_POOL.find((c) => c.name === page.category)!.singular;
    type = rng.chance(0.5) ? singular : rng.pick(categories.filter((c) => c !== page.category));
  }
  const sources =
    fault === 'missing-source' ? [...page.sources.filter((s) => s !== 'conversation'), `raw/${slugify(page.title)}-missing-capture.md`] : page.sources;
  const expected = mean2(page.scores);
  const overall = fault === 'wrong-overall' ? (expected <= 4.5 ? expected + 0.5 : expected - 0.75) : expected;
  const omitted = fault === 'missing-field' ? rng.pick(['title', 'tags', 'sources', 'created', 'updated', 'quality']) : undefined;

  const lines: string[] = ['---'];
  const field = (name: string, ...text: string[]) => {
    if (name !== omitted) lines.push(...text);
  };
  field('title', `title: "${page.title}"`);
  field('type', `type: ${type}`);
  field('tags', ...(rng.chance(0.7) ? [`tags: [${page.tags.join(', ')}]`] : ['tags:', ...page.tags.map((t) => `  - ${t}`)]));
  field('sources', ...(sources.length === 1 && sources[0] === 'conversation' ? ['sources: [conversation]'] : ['sources:', ...sources.map((s) => `  - ${s}`)]));
  if (page.links.length > 0 && rng.chance(0.3))
    lines.push('related:', ...page.links.slice(0, 3).map((j) => (shape === 'obsidian' ? `  - "[[${pages[j]!.title}]]"` : `  - /${pages[j]!.path}`)));
  if (page.category === 'ideas') lines.push(`status: ${rng.pick(['proposed', 'exploring', 'parked'])}`, `priority: ${rng.pick(['low', 'medium', 'high'])}`);
  field('created', shape === 'obsidian' ? `created: ${created.slice(0, 10)}` : `created: "${created}"`);
  field('updated', `updated: "${updated}"`);
  const [accuracy, completeness, signal, interlinking] = page.scores;
  field(
    'quality',
    'quality:',
    `  accuracy: ${accuracy}`,
    `  completeness: ${completeness}`,
    `  signal: ${signal}`,
    `  interlinking: ${interlinking}`,
    `  overall: ${overall.toFixed(2)}`,
    `  rated_at: "${ratedAt}"`,
    `  rated_by: ${page.ratedBy}`,
  );
  lines.push('---', '');
  return lines.join('\n');
}

function renderSchema(categories: readonly string[]): string {
  return [
    '# Wiki Schema',
    '',
    '## Role',
    'main',
    '',
    '## Categories',
    ...categories.map((c) => `- \`${c}/\` — ${c === 'ideas' ? 'requires `status:` and `priority:` frontmatter' : 'generated category'}`),
    '',
    '## Tag Taxonomy (bounded)',
    ...TAGS.map((t) => `- \`#${t}\``),
    '',
    '## Tag Synonyms',
    '- rate-limit == throttling',
    '- llm == language-model',
    '',
    '## Numeric Thresholds',
    '- Split a concept page at 2+ sources or 200+ lines.',
    '- Archive a raw source referenced by 5+ pages.',
    '- Restructure a category at 500+ pages.',
    '',
  ].join('\n');
}

function renderLog(rng: Rng, rawFiles: readonly string[], pages: readonly PagePlan[]): string {
  const lines = ['# Wiki Log', '', '## [2025-01-01] init | wiki created', ''];
  for (const raw of rawFiles.slice(0, 400)) {
    const touched = rng.sample(pages, rng.int(1, 4)).map((p) => p.path);
    lines.push(
      `## [${raw.slice(4, 14)}T${String(rng.int(0, 23)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}:00Z] ingest | ${path.basename(raw)}`,
      `- Source: ${raw}`,
      `- Pages created: ${touched[0]}`,
      `- Pages touched: ${touched.slice(1).join(', ') || '(none)'}`,
      `- Capture ID: ${createHash('sha1').update(raw).digest('hex').slice(0, 12)}`,
      '',
    );
  }
  return lines.join('\n');
}

function renderRaw(rng: Rng, raw: string): string {
  const subject = `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`;
  if (raw.endsWith('.json'))
    return `${JSON.stringify({ captured: raw.slice(4, 14), subject, notes: [sentence(rng, subject), sentence(rng, subject)] }, null, 2)}\n`;
  if (raw.endsWith('.html')) return `<html><body><h1>${subject}</h1><p>${paragraph(rng, subject)}</p></body></html>\n`;
  return `# Captured: ${subject}\n\n${paragraph(rng, subject)}\n\n${paragraph(rng, subject)}\n`;
}

// ---------------------------------------------------------------------------------------------
// Writing.

/** Synchronous writes: for ten thousand small files they are several times faster than fs/promises. */
function writeAll(root: string, files: Map<string, string>): void {
  const dirs = new Set<string>();
  for (const rel of files.keys()) dirs.add(path.dirname(path.join(root, rel)));
  for (const dir of [...dirs].sort()) mkdirSync(dir, { recursive: true });
  for (const [rel, text] of files) writeFileSync(path.join(root, rel), text);
}

/** Writes a wiki of `options.pages` pages into `dir` (created if needed) and says what it wrote. */
export async function generateWiki(dir: string, options: GenerateOptions): Promise<GeneratedWiki> {
  const rng = new Rng(options.seed ?? 20260424);
  const shape = options.shape ?? 'upstream';
  const invalidRate = shape === 'obsidian' ? 0 : (options.invalidRate ?? 0.05);
  const categoryCount = Math.min(CATEGORY_POOL.length, rng.int(6, 8));
  const categories = CATEGORY_POOL.slice(0, categoryCount)
    .map((c) => c.name)
    .sort();
  const rawFiles = planRawFiles(rng, Math.max(6, Math.round(options.pages / 25)));
  const pages = planPages(rng, options.pages, categories, rawFiles, shape);

  // Faults go to a random spread of pages, the kinds dealt out in turn so each is represented.
  const invalidCount = Math.min(pages.length, Math.round(pages.length * invalidRate));
  const order = rng.shuffle(pages.map((_, i) => i));
  const faults: Record<string, FaultKind> = {};
  order.slice(0, invalidCount).forEach((pageIndex, k) => {
    const page = pages[pageIndex]!;
    page.fault = FAULT_KINDS[k % FAULT_KINDS.length]!;
    faults[page.path] = page.fault;
  });

  const files = new Map<string, string>();
  files.set('schema.md', renderSchema(categories));
  files.set('log.md', renderLog(rng, rawFiles, pages));
  files.set('.wiki-config', `role = "main"\ncreated = "2025-01-01"\n`);
  files.set('.gitignore', '.locks/\n.ingest.log\n.wiki-config.local\n');
  for (const raw of rawFiles) files.set(raw, renderRaw(rng, raw));
  const referencedBy = new Map<string, string[]>(rawFiles.map((r) => [r, []]));
  for (const page of pages) {
    for (const s of page.sources) referencedBy.get(s)?.push(page.path);
    const brokenLink = page.fault === 'broken-link' ? `/${page.path.replace(/\.md$/, '')}-draft-never-written.md` : undefined;
    files.set(page.path, renderFrontmatter(rng, page, pages, categories, shape) + renderBody(rng, page, pages, brokenLink, shape));
  }
  const manifest: Record<string, unknown> = {};
  for (const raw of rawFiles) {
    manifest[raw] = {
      copied_at: `${raw.slice(4, 14)}T09:00:00Z`,
      last_ingested: `${raw.slice(4, 14)}T09:05:00.000000Z`,
      origin: 'conversation',
      referenced_by: referencedBy.get(raw)!.sort(),
      sha256: createHash('sha256').update(files.get(raw)!).digest('hex'),
    };
  }
  files.set('.manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
  writeAll(dir, files);

  const invalid = pages.filter((p) => p.fault).map((p) => p.path);
  return { pages: pages.map((p) => p.path), invalid, faults, categories, rawFiles, meta: pages.map((p) => ({ path: p.path, title: p.title, tags: p.tags })) };
}

// ---------------------------------------------------------------------------------------------
// Questions: what a reader of this wiki might ask, from its own titles and tags, with the words
// that shape a question (stopwords) and some words the wiki never uses.

/** Words that appear nowhere in a generated wiki (none is in the vocabulary above, even stemmed). */
const FOREIGN_WORDS = [
  'kubernetes',
  'zeppelin',
  'marmalade',
  'fjord',
  'walrus',
  'saxophone',
  'tundra',
  'origami',
  'quokka',
  'nebula',
  'tarragon',
  'gazebo',
  'mandolin',
  'pelican',
  'sonnet',
  'glacier',
  'lantern',
  'velvet',
  'harbour',
  'meadow',
];
const QUESTION_OPENERS = [
  'How does the',
  'What is the',
  'Why is our',
  'When should we use the',
  'Is there a way to tune the',
  'What happens to the',
  'Where do we keep the',
  'How do I configure',
  'Which',
  'Can you explain the',
  'What breaks when the',
  'Do we have notes on',
];
const QUESTION_CLOSERS = ['?', ' work?', ' fail?', ' in production?', ' under load?', ' for us?', ' at all?', ' these days?'];

/** A run of 2-4 words of a title, as written (so entity names keep their capitals). */
function titleWords(rng: Rng, title: string, count = rng.int(2, 4)): string[] {
  const words = title.split(' ');
  const n = Math.min(count, words.length);
  const start = rng.int(0, words.length - n);
  return words.slice(start, start + n);
}

/** Titles keep their capitals only for names (entities); everything else is asked in lowercase. */
const asAsked = (words: string[], category: string): string => (category === 'entities' ? words.join(' ') : words.join(' ').toLowerCase());

/**
 * `count` questions over a generated wiki, deterministic for a seed. The mix: 2-4 words of one
 * page's title (45%), title words and a tag (20%), words of two titles (15%), title words with
 * words the wiki does not hold (12%), and only such words (8%, which the ladder answers cold).
 */
export function generateQuestions(wiki: GeneratedWiki, count: number, seed = 20260424): string[] {
  const rng = new Rng(seed ^ 0x5bd1e995);
  const categoryOf = (p: string) => p.split('/')[0]!;
  const questions: string[] = [];
  for (let i = 0; i < count; i++) {
    const page = rng.pick(wiki.meta);
    const own = asAsked(titleWords(rng, page.title), categoryOf(page.path));
    const roll = rng.next();
    let body: string;
    if (roll < 0.45) body = `${rng.pick(QUESTION_OPENERS)} ${own}`;
    else if (roll < 0.65)
      body = `${rng.pick(QUESTION_OPENERS)} ${asAsked(titleWords(rng, page.title, rng.int(1, 2)), categoryOf(page.path))} with ${rng.pick(page.tags)}`;
    else if (roll < 0.8) {
      const other = rng.pick(wiki.meta);
      body = `${rng.pick(QUESTION_OPENERS)} ${asAsked(titleWords(rng, page.title, rng.int(1, 2)), categoryOf(page.path))} or the ${asAsked(titleWords(rng, other.title, 2), categoryOf(other.path))}`;
    } else if (roll < 0.92) body = `${rng.pick(QUESTION_OPENERS)} ${own} near the ${rng.sample(FOREIGN_WORDS, rng.int(1, 2)).join(' ')}`;
    else body = `${rng.pick(QUESTION_OPENERS)} ${rng.sample(FOREIGN_WORDS, rng.int(2, 3)).join(' ')}`;
    questions.push(`${body}${rng.pick(QUESTION_CLOSERS)}`);
  }
  return questions;
}
