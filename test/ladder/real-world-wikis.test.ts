// `wiki-steward ask` on the kinds of wikis found in the wild (DESIGN.md, "Real-world wikis"): one
// committed fixture folder per variant under test/fixtures/wikis/, each a small wiki of real pages.
// Every trace is also checked for the public contract: paths wiki-relative with forward slashes,
// and every quote present (whitespace-normalised) at the lines it cites.
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Trace, WikiCitation } from '../../src/answer/trace.js';
import { runCli } from '../helpers/cli-in-process.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/wikis');
const copies: string[] = [];

afterAll(async () => {
  await Promise.all(copies.splice(0).map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 5 })));
});

/**
 * A private copy of a fixture wiki in a temp folder, so that no repository config, git history or
 * concurrent edit of the project leaks into the run (the temp folder is its own repository root).
 */
async function fixture(name: string): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), `ws-real-${name}-`));
  copies.push(root);
  await cp(path.join(FIXTURES, name), root, { recursive: true });
  return root;
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();
const nfc = (s: string): string => s.normalize('NFC');

/** A wiki-relative path: forward slashes, no leading slash or drive, no `.`/`..`/empty parts, and the file exists. */
function expectWikiRelative(root: string, p: string): void {
  expect(p, `path ${JSON.stringify(p)}`).not.toMatch(/\\/);
  expect(path.isAbsolute(p) || /^[A-Za-z]:/.test(p), `path ${JSON.stringify(p)} is absolute`).toBe(false);
  expect(
    p.split('/').every((part) => part !== '' && part !== '.' && part !== '..'),
    `path ${JSON.stringify(p)}`,
  ).toBe(true);
  expect(existsSync(path.join(root, ...p.split('/'))), `${p} exists in the wiki`).toBe(true);
}

const wikiCitations = (trace: Trace): WikiCitation[] => trace.citations.filter((c): c is WikiCitation => 'path' in c);

/** The contract every trace keeps, whatever the wiki looks like. */
async function expectTraceContract(root: string, trace: Trace): Promise<void> {
  for (const p of [...trace.oriented, ...trace.candidates.map((c) => c.path), ...trace.read, ...wikiCitations(trace).map((c) => c.path)]) {
    expectWikiRelative(root, p);
  }
  const candidatePaths = new Set(trace.candidates.map((c) => c.path));
  for (const p of trace.read) expect(candidatePaths.has(p), `read ${p} is a candidate`).toBe(true);
  for (const c of wikiCitations(trace)) {
    expect(trace.read, `cited ${c.path} was read`).toContain(c.path);
    const [first, last] = c.lines;
    const lines = (await readFile(path.join(root, ...c.path.split('/')), 'utf8')).split('\n');
    expect(first, `${c.path}: first line`).toBeGreaterThanOrEqual(1);
    expect(last, `${c.path}: last line`).toBeGreaterThanOrEqual(first);
    expect(last, `${c.path}: last line`).toBeLessThanOrEqual(lines.length);
    const cited = squash(lines.slice(first - 1, last).join('\n'));
    expect(squash(c.quote), `${c.path}: quote`).not.toBe('');
    expect(cited, `${c.path}:${first}-${last} holds the quote`).toContain(squash(c.quote));
  }
}

/** `wiki-steward ask --wiki . --json QUESTION` inside the wiki copy, parsed and checked against the contract. */
async function ask(root: string, question: string): Promise<Trace> {
  const run = await runCli(['ask', '--wiki', '.', '--json', question], root);
  expect(run.code, `${run.stdout}${run.stderr}`).toBe(0);
  const trace = JSON.parse(run.stdout) as Trace;
  expect(trace.question).toBe(question);
  await expectTraceContract(root, trace);
  return trace;
}

/** Answered inline from `page`: a candidate, read, and cited. */
function expectAnsweredFrom(trace: Trace, page: string): void {
  const where = JSON.stringify({
    branch: trace.branch,
    outcome: trace.outcome,
    terms: trace.signal_terms,
    candidates: trace.candidates.map((c) => c.path),
    missing: trace.missing,
  });
  expect(trace.branch, where).toBe('inline');
  expect(trace.outcome, where).toBe('answered');
  expect(
    trace.candidates.map((c) => nfc(c.path)),
    where,
  ).toContain(page);
  expect(trace.read.map(nfc)).toContain(page);
  expect(wikiCitations(trace).map((c) => nfc(c.path))).toContain(page);
  expect(trace.violations.filter((v) => v.action === 'dropped')).toEqual([]);
}

const candidate = (trace: Trace, page: string) => trace.candidates.find((c) => nfc(c.path) === page);

/** Every file of a fixture, wiki-relative. */
async function filesOf(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

describe('1. upstream format: generated _index.md files and root index.md (PostgreSQL operations notes)', () => {
  it('the committed index files are exactly what `wiki-steward index` builds, and the pages validate', async () => {
    const root = await fixture('upstream-postgres');
    expect((await filesOf(root)).filter((f) => f.endsWith('index.md')).sort()).toEqual([
      'concepts/_index.md',
      'entities/_index.md',
      'how-to/_index.md',
      'index.md',
    ]);
    const check = await runCli(['index', '--check', '--wiki', '.'], root);
    expect(check.code, check.stdout).toBe(0);
    const validate = await runCli(['validate', '--wiki', '.'], root);
    expect(validate.code, validate.stdout).toBe(0);
  });

  it('answers from a how-to page listed in its category _index.md', async () => {
    const root = await fixture('upstream-postgres');
    const trace = await ask(root, 'How do I add an index without locking the table?');
    expectAnsweredFrom(trace, 'how-to/add-an-index-without-locking-writes.md');
    expect(trace.candidates[0]!.path).toBe('how-to/add-an-index-without-locking-writes.md');
    expect(trace.candidates[0]!.title).toBe('Add an index without locking writes');
  });

  it('orients on the one category _index.md when every candidate sits in that category', async () => {
    const root = await fixture('upstream-postgres');
    const trace = await ask(root, 'What does transaction ID wraparound mean and how do we monitor it?');
    expectAnsweredFrom(trace, 'concepts/transaction-id-wraparound.md');
    expect(trace.oriented).toEqual(['schema.md', 'concepts/_index.md']);
  });

  it('answers a question naming a tool (PgBouncer) from its entity page', async () => {
    const root = await fixture('upstream-postgres');
    const trace = await ask(root, 'Which port does PgBouncer listen on?');
    expectAnsweredFrom(trace, 'entities/pgbouncer.md');
    expect(trace.citations.some((c) => 'quote' in c && c.quote.includes('6432'))).toBe(true);
  });

  it('a question the wiki does not cover is cold', async () => {
    const root = await fixture('upstream-postgres');
    const trace = await ask(root, 'How do we rotate the TLS certificates on the database servers?');
    expect(trace.branch).toBe('cold');
    expect(trace.outcome).toBe('cold');
    expect(trace.candidates).toEqual([]);
    expect(trace.citations).toEqual([]);
    expect(trace.oriented).toEqual(['schema.md', 'index.md']);
  });
});

describe('2. Obsidian [[slug]], [[path/slug]] and [[slug|alias]] links in index.md (kitchen notebook)', () => {
  it('[[slug|alias]]: the alias is the entry title, and a question matching only the alias finds the page', async () => {
    const root = await fixture('obsidian-kitchen');
    const page = 'techniques/bread/sourdough-starter.md';
    const text = await readFile(path.join(root, page), 'utf8');
    expect(text).toMatch(/^title: Sourdough starter$/m); // the page's own title does not say "levain"
    expect(await readFile(path.join(root, 'index.md'), 'utf8')).toContain('[[sourdough-starter|Levain]]');
    const trace = await ask(root, 'How do I know when the levain has peaked?');
    expectAnsweredFrom(trace, page);
    expect(candidate(trace, page)).toEqual({
      path: page,
      title: 'Levain',
      score: expect.any(Number),
      source: 'gate',
      matched: [{ term: 'levain', field: 'title' }],
    });
  });

  it('[[path/slug]]: a nested page linked by its wiki path', async () => {
    const root = await fixture('obsidian-kitchen');
    const trace = await ask(root, 'What is autolyse and why leave out the salt?');
    expectAnsweredFrom(trace, 'techniques/bread/autolyse.md');
    expect(candidate(trace, 'techniques/bread/autolyse.md')!.matched).toContainEqual({ term: 'autolyse', field: 'title' });
  });

  it('[[slug]]: a bare slug resolved to the one page with that file name', async () => {
    const root = await fixture('obsidian-kitchen');
    const trace = await ask(root, 'How long can I keep kombu?');
    expectAnsweredFrom(trace, 'ingredients/kombu.md');
  });

  it('a question the wiki does not cover is a gap, naming what is missing', async () => {
    const root = await fixture('obsidian-kitchen');
    const trace = await ask(root, 'How long do I smoke a brisket?');
    expect(trace.outcome).toBe('gap');
    expect(trace.missing).toContain('brisket');
  });
});

describe('3. summary: and description: in frontmatter, no index files (a Rust service runbook)', () => {
  it('has no index files at all', async () => {
    const root = await fixture('frontmatter-summaries');
    expect((await filesOf(root)).filter((f) => f.endsWith('index.md'))).toEqual([]);
  });

  it('summary: is the one-line summary the seed rule matches: a question whose only matching word is in it', async () => {
    const root = await fixture('frontmatter-summaries');
    const page = 'concepts/graceful-shutdown.md';
    const text = await readFile(path.join(root, page), 'utf8');
    expect(text).toMatch(/^summary: .*SIGTERM/m);
    // Neither the title nor the first body paragraph (upstream's fallback summary) says SIGTERM.
    const firstParagraph = text.split('\n---\n')[1]!.trim().split('\n\n')[0]!;
    expect(firstParagraph).not.toContain('SIGTERM');
    const trace = await ask(root, 'What happens on SIGTERM?');
    expectAnsweredFrom(trace, page);
    expect(trace.candidates).toEqual([
      { path: page, title: 'Graceful shutdown', score: expect.any(Number), source: 'gate', matched: [{ term: 'SIGTERM', field: 'summary' }] },
    ]);
    expect(trace.oriented).toEqual(['schema.md']);
  });

  it('description: serves as the summary too', async () => {
    const root = await fixture('frontmatter-summaries');
    const page = 'concepts/backpressure.md';
    expect(await readFile(path.join(root, page), 'utf8')).toMatch(/^description: .*growing memory/m);
    const trace = await ask(root, 'Why does memory grow?');
    expectAnsweredFrom(trace, page);
    expect(candidate(trace, page)!.matched).toEqual([
      { term: 'memory', field: 'summary' },
      { term: 'grow', field: 'summary' },
    ]);
  });

  it('a question the wiki does not cover is a gap, naming what is missing', async () => {
    const root = await fixture('frontmatter-summaries');
    const trace = await ask(root, 'How do I rotate the Kafka SASL credentials?');
    expect(trace.outcome).toBe('gap');
    expect(trace.missing).toContain('SASL');
  });
});

describe('4. singular type (type: concept) — validation fails, ask still works (a beekeeping club wiki)', () => {
  it('validate rejects the singular types', async () => {
    const root = await fixture('singular-type');
    const run = await runCli(['validate', '--wiki', '.'], root);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("type 'concept'");
    expect(run.stdout).toContain("type 'guide'");
  });

  it('answers from a guide page whose type is "guide"', async () => {
    const root = await fixture('singular-type');
    const trace = await ask(root, 'When do we treat varroa with oxalic acid?');
    expectAnsweredFrom(trace, 'guides/oxalic-acid-treatment.md');
    expect(trace.candidates[0]!.path).toBe('guides/oxalic-acid-treatment.md');
  });

  it('answers from a concept page whose type is "concept"', async () => {
    const root = await fixture('singular-type');
    const trace = await ask(root, 'What are the signs of swarming?');
    expectAnsweredFrom(trace, 'concepts/swarming.md');
    expect(trace.oriented).toEqual(['schema.md', 'concepts/_index.md']);
  });

  it('a question the wiki does not cover is a gap, naming what is missing', async () => {
    const root = await fixture('singular-type');
    const trace = await ask(root, 'How do we harvest beeswax from old combs?');
    expect(['gap', 'cold']).toContain(trace.outcome);
    expect(trace.outcome).not.toBe('answered');
    expect(trace.missing).toContain('beeswax');
  });
});

describe('5. per-area index files index.<area>.md at the root (home lab notes)', () => {
  it('has area index files and no index.md or _index.md', async () => {
    const root = await fixture('per-area-indexes');
    expect((await filesOf(root)).filter((f) => f.endsWith('.md') && f.includes('index')).sort()).toEqual([
      'index.network.md',
      'index.services.md',
      'index.storage.md',
    ]);
  });

  it("takes the entry's title and summary from the area index: a question matching only the index summary", async () => {
    const root = await fixture('per-area-indexes');
    const page = 'network/wireguard-remote-access.md';
    expect(await readFile(path.join(root, page), 'utf8')).toMatch(/^title: WireGuard tunnel$/m);
    const trace = await ask(root, 'How do I reach the lab from my phone?');
    expectAnsweredFrom(trace, page);
    const entry = candidate(trace, page)!;
    expect(entry.title).toBe('Remote access');
    expect(entry.matched.map((m) => m.field)).toEqual(['summary', 'summary', 'summary']);
    expect(trace.oriented).toContain('index.network.md');
  });

  it('answers from another area', async () => {
    const root = await fixture('per-area-indexes');
    const trace = await ask(root, 'When does the ZFS scrub run?');
    expectAnsweredFrom(trace, 'storage/zfs-pool-layout.md');
    expect(candidate(trace, 'storage/zfs-pool-layout.md')!.title).toBe('ZFS pool layout');
  });

  it('a question the wiki does not cover is cold', async () => {
    const root = await fixture('per-area-indexes');
    const trace = await ask(root, 'How do I set up a Kubernetes cluster?');
    expect(trace.branch).toBe('cold');
    expect(trace.outcome).toBe('cold');
    expect(trace.missing).toContain('Kubernetes');
  });
});

describe('6. hand-written root index.md listing pages directly, no _index.md (bike workshop)', () => {
  it('has only the hand-written index.md', async () => {
    const root = await fixture('hand-written-index');
    expect((await filesOf(root)).filter((f) => f.endsWith('index.md'))).toEqual(['index.md']);
  });

  it("takes title and summary from index.md's list: the symptom is only in the index summary", async () => {
    const root = await fixture('hand-written-index');
    const page = 'how-to/bleed-hydraulic-brakes.md';
    expect(await readFile(path.join(root, page), 'utf8')).toMatch(/^title: Bleeding Shimano brakes$/m);
    const trace = await ask(root, 'Why is my brake lever spongy?');
    expectAnsweredFrom(trace, page);
    const entry = candidate(trace, page)!;
    expect(entry.title).toBe('Bleed hydraulic disc brakes');
    expect(entry.matched).toContainEqual({ term: 'spongy', field: 'summary' });
    expect(trace.oriented).toEqual(['schema.md', 'index.md']);
  });

  it('answers from a concept page', async () => {
    const root = await fixture('hand-written-index');
    const trace = await ask(root, 'When should I replace my chain?');
    expectAnsweredFrom(trace, 'concepts/chain-wear.md');
  });

  it('a question the wiki does not cover is a gap, naming what is missing', async () => {
    const root = await fixture('hand-written-index');
    const trace = await ask(root, 'What tyre pressure should I run for gravel racing?');
    expect(trace.outcome).toBe('gap');
    expect(trace.missing).toEqual(expect.arrayContaining(['gravel', 'racing']));
  });
});

describe('7. nested category folders, three levels deep (payments on-call runbooks)', () => {
  it('the committed nested _index.md files are up to date and the pages validate', async () => {
    const root = await fixture('nested-runbooks');
    expect((await filesOf(root)).filter((f) => f.endsWith('_index.md'))).toContain('runbooks/db/replication/_index.md');
    expect((await runCli(['index', '--check', '--wiki', '.'], root)).code).toBe(0);
    expect((await runCli(['validate', '--wiki', '.'], root)).code).toBe(0);
  });

  it('answers from runbooks/db/replication/failover.md', async () => {
    const root = await fixture('nested-runbooks');
    const trace = await ask(root, 'How do I fail over the MySQL primary?');
    expectAnsweredFrom(trace, 'runbooks/db/replication/failover.md');
    expect(trace.candidates[0]!).toMatchObject({ path: 'runbooks/db/replication/failover.md', title: 'Fail over the MySQL primary' });
    // MySQL, the question's subject, is never too common to name pages, so the gate finds pages in
    // services/ too: a reader orients on the root index.
    expect(trace.oriented).toEqual(['schema.md', 'index.md']);
  });

  it('answers from a sibling page and from another subsystem', async () => {
    const root = await fixture('nested-runbooks');
    expectAnsweredFrom(await ask(root, 'Why is the replica lagging?'), 'runbooks/db/replication/replication-lag.md');
    expectAnsweredFrom(await ask(root, 'How do I purge the dead-letter queue?'), 'runbooks/queues/rabbitmq/purge-a-dead-letter-queue.md');
  });

  it('a question the wiki does not cover is a gap, naming what is missing', async () => {
    const root = await fixture('nested-runbooks');
    const trace = await ask(root, 'How do we scale the Redis cluster?');
    expect(trace.outcome).toBe('gap');
    expect(trace.missing).toContain('Redis');
  });
});

describe('8. non-English text: a German home-brewing wiki with a Japanese page and an emoji title', () => {
  it('German question with ß, answered from a page whose file name has ß and ü', async () => {
    const root = await fixture('non-english');
    const trace = await ask(root, 'Wie viel Süßreserve kommt in die Flaschengärung?');
    expectAnsweredFrom(trace, 'grundlagen/süßreserve.md');
    expect(candidate(trace, 'grundlagen/süßreserve.md')!.title).toBe('Süßreserve und Restsüße');
    expect(candidate(trace, 'grundlagen/süßreserve.md')!.matched).toContainEqual({ term: 'Süßreserve', field: 'title' });
  });

  it('German question matched through an umlaut word in the title', async () => {
    const root = await fixture('non-english');
    const trace = await ask(root, 'Bei welcher Temperatur gärt Lagerhefe?');
    expectAnsweredFrom(trace, 'grundlagen/gärung.md');
    expect(trace.candidates[0]!.path.normalize('NFC')).toBe('grundlagen/gärung.md');
  });

  it('German question answered from the Maischen page', async () => {
    const root = await fixture('non-english');
    const trace = await ask(root, 'Wie macht man die Jodprobe beim Maischen?');
    expectAnsweredFrom(trace, 'grundlagen/maischen.md');
  });

  it('a title with an emoji is matched by its words', async () => {
    const root = await fixture('non-english');
    const trace = await ask(root, 'Was steht auf der Brautag-Checkliste?');
    expectAnsweredFrom(trace, 'anleitungen/brautag-checkliste.md');
    expect(candidate(trace, 'anleitungen/brautag-checkliste.md')!.title).toBe('🍺 Brautag-Checkliste');
  });

  it('a Japanese question term matches the Japanese title as a substring (CJK runs)', async () => {
    const root = await fixture('non-english');
    const trace = await ask(root, '日本酒 造り方');
    expectAnsweredFrom(trace, 'grundlagen/sake.md');
    const entry = candidate(trace, 'grundlagen/sake.md')!;
    expect(entry.title).toBe('日本酒の造り方');
    expect(entry.matched).toContainEqual({ term: '日本酒', field: 'title' });
  });

  // Japanese has no spaces: the run is cut at its hiragana, and a title inside the run matches.
  it('a natural, unspaced Japanese question finds the page whose title it contains', async () => {
    const root = await fixture('non-english');
    const trace = await ask(root, '日本酒の造り方を教えてください');
    expect(trace.candidates.map((c) => c.path)).toContain('grundlagen/sake.md');
    expect(trace.branch).toBe('inline');
  });

  it('a question the wiki does not cover is a gap, naming what is missing', async () => {
    const root = await fixture('non-english');
    const trace = await ask(root, 'Wie braut man ein Rauchbier?');
    expect(trace.outcome).toBe('gap');
    expect(trace.missing).toContain('Rauchbier');
  });
});
