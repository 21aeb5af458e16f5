// The catalog snapshot (src/ladder/catalog-cache.ts) over real repositories and folders: a load
// from it answers exactly as a fresh load does, any changed file sends the load back to the pages,
// and a snapshot that is not whole, well formed and of this steward is ignored and rewritten.
import { existsSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AskSession, offlineProviders, openAskSession } from '../../src/answer/ask.js';
import { VERSION, main } from '../../src/cli/program.js';
import { DEFAULT_CONFIG } from '../../src/config/config.js';
import { openWorkspace } from '../../src/config/workspace.js';
import { GitCommandManager } from '../../src/git/git-command-manager.js';
import { type CatalogCache, type CatalogCacheOptions, openCatalogCache } from '../../src/ladder/catalog-cache.js';
import { type WikiCatalog, loadCatalog } from '../../src/ladder/catalog.js';
import { systemClock } from '../../src/net/clock.js';
import { type WikiTree, loadFileTree } from '../../src/wiki/tree.js';
import { TempDirs, openRepo } from '../helpers/git-repo.js';
import {
  forgedSnapshot,
  seen,
  snapshotArray,
  snapshotHeader,
  snapshotRegions,
  withArrayValue,
  withHeadValue,
  withWordsSwapped,
} from '../helpers/catalog-snapshot.js';
import { scoresOf } from '../helpers/catalog-scores.js';
import { createWikiRepo } from '../helpers/wiki-repo.js';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

/**
 * Each run a minute after the last edit, unless `wallClock` says when: a file changed just before
 * a load is keyed as unsettled (see statKey in catalog-cache.ts), and read again by the next load.
 */
const aMinuteOn = () => Date.now() + 60_000;

async function open(root: string, options: { cache?: boolean; version?: string; wallClock?: () => number } = {}): Promise<AskSession> {
  const workspace = await openWorkspace({ cwd: root, wikiFlag: root });
  const session = await openAskSession(
    workspace,
    offlineProviders(),
    options.cache === false ? {} : { catalogCache: { stewardVersion: options.version ?? 'test', wallClock: options.wallClock ?? aMinuteOn } },
  );
  // As the CLI does once it has answered: the snapshot is kept for the next load.
  await session.catalog?.persist();
  return session;
}

/** The cache `ask` opens for the wiki at `repo.root` (HEAD's state asked for now, unless `options` gives it), for a load made by hand. */
const cacheOf = (repo: { root: string }, options: Partial<CatalogCacheOptions> = {}) =>
  openCatalogCache(repo.root, DEFAULT_CONFIG, { stewardVersion: 'test', repoRoot: repo.root, head: new GitCommandManager(repo.root).headState(), ...options });

const snapshots = (repo: { root: string }) => {
  const dir = path.join(repo.root, '.git', 'wiki-steward');
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.startsWith('catalog-'))
        .map((f) => path.join(dir, f))
    : [];
};

describe('the catalog snapshot', () => {
  it('is written under .git, never in the work tree, and a warm load sees exactly what a cold one sees', async () => {
    const repo = await createWikiRepo(dirs);
    const cold = await seen(await open(repo.root, { cache: false }));
    expect(snapshots(repo)).toEqual([]);
    const first = await seen(await open(repo.root));
    expect(snapshots(repo)).toHaveLength(1);
    expect(repo.git('status', '--porcelain', '--ignored')).toBe('');
    const warmSession = await open(repo.root);
    expect(warmSession.catalog?.loadedFrom).toBe('snapshot');
    const warm = await seen(warmSession);
    expect(first).toEqual(cold);
    expect(warm).toEqual(cold);
    // A setting that changes the load rewrites the one snapshot: none is left beside it.
    writeFileSync(path.join(repo.root, '.wiki-steward.yml'), 'ladder:\n  stopwords: [lease]\n');
    expect((await open(repo.root)).catalog?.loadedFrom).toBe('pages');
    expect(snapshots(repo)).toHaveLength(1);
    expect((await open(repo.root)).catalog?.loadedFrom).toBe('snapshot');
  });

  it('a page changed, added, deleted or renamed, committed or not, loads as a cold load does', async () => {
    const repo = await createWikiRepo(dirs);
    const page = 'concepts/retry-budgets.md';
    const changes: Array<() => void> = [
      // Same size, different bytes: the blob id (committed) or the stat key (in the work tree) differs.
      () => repo.write({ [page]: repo.read(page).replace('Retry Budgets', 'Retry Budgetz') }),
      () => repo.git('commit', '-qam', 'edit', '--no-verify'),
      () => repo.write({ 'concepts/new-page.md': repo.read(page).replace(/Retry Budgetz/g, 'Backoff Jitter (BJ)') }),
      () => repo.git('mv', 'concepts/cache-warming.md', 'concepts/cache-warmup.md'),
      () => repo.remove(page),
    ];
    await open(repo.root);
    // Each change reads only the page it touched (none for a deletion); the rest comes from the snapshot.
    // The commit changes the page's key, not what it holds: no other entry can differ, so only that page's is rebuilt.
    const loads = [
      ['updated snapshot', 1],
      ['patched snapshot', 1],
      ['updated snapshot', 1],
      ['updated snapshot', 1],
      ['updated snapshot', 0],
    ];
    for (const [i, change] of changes.entries()) {
      change();
      const session = await open(repo.root);
      expect([session.catalog?.loadedFrom, session.catalog?.pagesRead]).toEqual(loads[i]);
      expect(await seen(session)).toEqual(await seen(await open(repo.root, { cache: false })));
      expect((await open(repo.root)).catalog?.loadedFrom).toBe('snapshot');
    }
  });

  it('an edit that changes what other pages hold (a title others link to, an index listing, a wikilink target) loads as a cold load does', async () => {
    const repo = await createWikiRepo(dirs);
    const page = 'concepts/retry-budgets.md';
    const changes: Array<() => void> = [
      // The title is the text of every wikilink without |text to the page: the linking pages' entries change, not their files.
      () => repo.write({ [page]: repo.read(page).replace(/^title: .*$/m, 'title: Retry Allowance') }),
      // A new page a bare [[wikilink]] of an unchanged page now resolves to.
      () => repo.write({ 'concepts/lease-renewal-notes.md': '---\ntitle: Lease renewal notes\n---\nSee [[retry-budgets]] and [[cache-warming]].\n' }),
      () => repo.write({ 'concepts/other.md': '---\ntitle: Other\n---\nA page that names a lease renewal (LR) and [[lease-renewal-notes]].\n' }),
      // An index file that lists the page with another summary.
      () => repo.write({ 'concepts/_index.md': `${repo.read('concepts/_index.md')}\n` }),
      () => repo.remove('concepts/lease-renewal-notes.md'),
    ];
    await open(repo.root);
    for (const change of changes) {
      change();
      const session = await open(repo.root);
      expect(session.catalog?.loadedFrom).toBe('updated snapshot');
      expect(await seen(session)).toEqual(await seen(await open(repo.root, { cache: false })));
    }
  });

  it('an edit that reaches no other page rebuilds only its own entry; one that does works out what spans pages; both load as a cold load does', async () => {
    const repo = await createWikiRepo(dirs);
    const page = 'concepts/retry-budgets.md';
    const edit = (change: (text: string) => string) => () => repo.write({ [page]: change(repo.read(page)) });
    const changes: Array<[string, () => void]> = [
      ['patched snapshot', edit((t) => `${t}\nA paragraph about lease renewal and cache warming with redis.\n`)],
      ['patched snapshot', edit((t) => `${t}\n## Budgets under load\n\nHow retry budgets behave under load.\n`)],
      ['patched snapshot', edit((t) => t.replace('tags: [testing]', 'tags: [testing, throttling]'))],
      ['patched snapshot', edit((t) => t.replace('tags: [testing, throttling]', 'aliases: [backoff caps]\ntags: [testing, throttling]'))],
      ['patched snapshot', edit((t) => t.replace('a page written for a test', 'a page about retry limits'))],
      // The page and an index file edited together: the listings are worked out again.
      [
        'updated snapshot',
        () => {
          edit((t) => `${t}\nOne more line about budgets.\n`)();
          repo.write({ 'concepts/_index.md': `${repo.read('concepts/_index.md')}\nA line of the index's own.\n` });
        },
      ],
      // A link to another page: that page's link texts change.
      ['updated snapshot', edit((t) => `${t}\nSee [the redis notes](../entities/redis.md).\n`)],
      ['updated snapshot', edit((t) => `${t}\nSee [[lease-renewal|renewing leases]].\n`)],
      // An acronym spelled out: the wiki's acronyms change.
      ['updated snapshot', edit((t) => `${t}\nA retry budget policy (RBP) caps retries.\n`)],
    ];
    await open(repo.root);
    for (const [loadedFrom, change] of changes) {
      change();
      const session = await open(repo.root);
      expect([loadedFrom, session.catalog?.loadedFrom, session.catalog?.pagesRead]).toEqual([loadedFrom, loadedFrom, 1]);
      expect(await seen(session)).toEqual(await seen(await open(repo.root, { cache: false })));
      expect((await open(repo.root)).catalog?.loadedFrom).toBe('snapshot');
    }
  });

  it('an edit found to reach other pages is read once: the update that follows takes the page as the first look read it', async () => {
    const repo = await createWikiRepo(dirs);
    await open(repo.root);
    const page = 'concepts/retry-budgets.md';
    repo.write({ [page]: `${repo.read(page)}\nSee [[lease-renewal|renewing leases]].\n` });
    const tree = await loadFileTree(repo.root);
    const asked: string[] = [];
    const counting: WikiTree = { ...tree, readEach: (paths, visit, options) => (asked.push(...paths), tree.readEach(paths, visit, options)) };
    const cache = await cacheOf(repo);
    const catalog = await loadCatalog(counting, DEFAULT_CONFIG, cache);
    expect([catalog.loadedFrom, catalog.pagesRead, asked.filter((p) => p === page)]).toEqual(['updated snapshot', 1, [page]]);
  });

  it('a file changed too shortly before a load to be keyed by its size and times is read again by the next load', async () => {
    const repo = await createWikiRepo(dirs);
    await open(repo.root);
    const page = 'concepts/retry-budgets.md';
    repo.write({ [page]: `${repo.read(page)}\nEdited.\n` });
    const info = statSync(path.join(repo.root, page), { bigint: true });
    const changedMs = Number((info.ctimeNs > info.mtimeNs ? info.ctimeNs : info.mtimeNs) / 1_000_000n);
    const keptKey = async () => {
      const cache = await cacheOf(repo);
      return new Map((await (await cache!.read())!.rest()).keys).get(page);
    };
    // Within four seconds of the change, as an edit in the same tick of a coarse clock would leave
    // the size and times as read: the key is one no file has, so the next load reads the page again.
    for (const late of [0, 3_900]) {
      const session = await open(repo.root, { wallClock: () => changedMs + late });
      expect([session.catalog?.loadedFrom, session.catalog?.pagesRead]).toEqual(['patched snapshot', 1]);
      expect(await keptKey()).toBe('unsettled');
    }
    const settled = await open(repo.root, { wallClock: () => changedMs + 4_100 });
    expect([settled.catalog?.loadedFrom, settled.catalog?.pagesRead]).toEqual(['patched snapshot', 1]);
    expect(await keptKey()).toMatch(/^stat /);
    expect(await seen(settled)).toEqual(await seen(await open(repo.root, { cache: false })));
    expect((await open(repo.root)).catalog?.loadedFrom).toBe('snapshot');
  });

  it("a page or index file edited after git's status looked at it (its blob HEAD's, its text another), then restored, is read again by the next load", async () => {
    const repo = await createWikiRepo(dirs);
    const page = 'concepts/retry-budgets.md';
    const index = 'concepts/_index.md';
    const changeNs = (file: string) => statSync(path.join(repo.root, file), { bigint: true }).ctimeNs;
    // The run starts (git's status is asked for, the cache opened) after every file's last change.
    const files = repo.git('ls-files', '-z').split('\0').filter(Boolean);
    const startedNs = files.map(changeNs).reduce((a, b) => (a > b ? a : b)) + 1_000_000n;
    const head = new GitCommandManager(repo.root).headState();
    const cache = await cacheOf(repo, { head, wallClock: () => Number(startedNs / 1_000_000n) });
    await head;
    // Then, status having found both unchanged, both are edited before the load reads them: until
    // the file system's clock stamps the edit after the run's start (its ticks are coarse).
    for (const [file, text] of [
      [page, `${repo.read(page)}\n## Zebra crossings\n\nZebra zebra.\n`],
      [index, `${repo.read(index)}\nA line of the index's own.\n`],
    ] as const) {
      do writeFileSync(path.join(repo.root, file), text);
      while (changeNs(file) < startedNs);
    }
    const edited = await loadCatalog(await loadFileTree(repo.root), DEFAULT_CONFIG, cache);
    expect(edited.byPath.get(page)?.headings).toContain('Zebra crossings');
    await edited.persist();
    const keys = new Map((await (await cache!.read())!.rest()).keys);
    expect([keys.get(page), keys.get(index)]).toEqual(['unsettled', 'unsettled']);
    // The other files, unchanged since the run started, keep their blob keys.
    expect([...keys].filter(([, key]) => key === 'unsettled').map(([p]) => p)).toEqual([page, index]);
    // Both restored to HEAD's text: the next load reads them again, and sees what a load with no snapshot sees.
    repo.git('checkout', '--', page, index);
    const again = await open(repo.root);
    expect(await seen(again)).toEqual(await seen(await open(repo.root, { cache: false })));
    expect((await open(repo.root)).catalog?.loadedFrom).toBe('snapshot');
  });

  it('a page that could not be read for a passing reason is read again by the next load; one whose content cannot be read is kept so', async () => {
    const repo = await createWikiRepo(dirs);
    await open(repo.root);
    const page = 'concepts/retry-budgets.md';
    repo.write({ [page]: `${repo.read(page)}\nEdited.\n`, 'concepts/binary.md': 'a\0b' });
    const tree = await loadFileTree(repo.root);
    // The disk's read of the page fails once, as an I/O error or a file moved away meanwhile would.
    const failing: WikiTree = {
      ...tree,
      readEach: (paths, visit, options) =>
        tree.readEach(paths, (p, file) => visit(p, p === page ? { ok: false, reason: 'cannot read: EIO: i/o error' } : file), options),
    };
    const cache = () => cacheOf(repo, { wallClock: aMinuteOn });
    const failed = await loadCatalog(failing, DEFAULT_CONFIG, await cache());
    expect(failed.unreadable.map((u) => u.path).sort()).toEqual(['concepts/binary.md', page]);
    await failed.persist();
    const again = await loadCatalog(await loadFileTree(repo.root), DEFAULT_CONFIG, await cache());
    expect([again.loadedFrom, again.pagesRead, again.unreadable.map((u) => u.path)]).toEqual(['updated snapshot', 1, ['concepts/binary.md']]);
    expect(again.byPath.has(page)).toBe(true);
    await again.persist();
    expect((await open(repo.root)).catalog?.loadedFrom).toBe('snapshot');
  });

  it('an index file gone between git and the read of it (a checkout under way) is read again by the next load, as a page is', async () => {
    // With no snapshot (every page read), and with one and a page edited (the patch of that page's entry).
    for (const edited of [false, true]) {
      const repo = await createWikiRepo(dirs);
      const index = 'concepts/_index.md';
      const page = 'concepts/retry-budgets.md';
      if (edited) {
        await open(repo.root);
        repo.write({ [page]: `${repo.read(page)}\nEdited.\n` });
      }
      // Git's status and the walk see the index file, committed and unchanged; then it goes, before it is read.
      const head = new GitCommandManager(repo.root).headState();
      const tree = await loadFileTree(repo.root);
      await head;
      renameSync(path.join(repo.root, index), path.join(repo.root, '..', 'away.md'));
      const cache = await cacheOf(repo, { head, wallClock: aMinuteOn });
      const gone = await loadCatalog(tree, DEFAULT_CONFIG, cache);
      expect([gone.loadedFrom, gone.byPath.get(page)?.listedIn]).toEqual([edited ? 'patched snapshot' : 'pages', undefined]);
      await gone.persist();
      // Back as it was (its blob the same): the next load lists its pages as a load with no snapshot does.
      repo.git('checkout', '--', index);
      const again = await open(repo.root);
      expect(await seen(again)).toEqual(await seen(await open(repo.root, { cache: false })));
      expect([again.catalog?.loadedFrom, again.catalog?.pagesRead]).toEqual(['updated snapshot', 0]);
      expect((await open(repo.root)).catalog?.loadedFrom).toBe('snapshot');
    }
  });

  it('a load keeps its snapshot when asked, once, however often it is asked', async () => {
    const repo = await createWikiRepo(dirs);
    const workspace = await openWorkspace({ cwd: repo.root, wikiFlag: repo.root });
    const session = await openAskSession(workspace, offlineProviders(), { catalogCache: { stewardVersion: 'test' } });
    expect(snapshots(repo)).toEqual([]);
    await session.catalog!.persist();
    const [file] = snapshots(repo);
    const first = statSync(file!, { bigint: true });
    await session.catalog!.persist();
    // Each write renames a new file into place: the same inode is the same write.
    expect(statSync(file!, { bigint: true }).ino).toBe(first.ino);
  });

  it("reads the snapshot's rest from its file once, however many steps of a load ask for it", async () => {
    const repo = await createWikiRepo(dirs);
    await open(repo.root);
    const cache = await cacheOf(repo);
    const kept = (await cache!.read())!;
    const first = await kept.rest();
    // The file spoiled after the first read: a second read of it would be refused.
    for (const file of snapshots(repo)) writeFileSync(file, 'spoiled');
    expect(await kept.rest()).toBe(first);
  });

  it('a snapshot rewritten by another writer between the read of its head and of its rest is not mixed with it: every page is read', async () => {
    const repo = await createWikiRepo(dirs);
    await open(repo.root);
    const [file] = snapshots(repo);
    const good = readFileSync(file!);
    // Another writer's snapshot of the same files, of the same size and keys: its word ids differ
    // (two words numbered the other way round), so its rest's counts mean other words under this head.
    const vocabulary = snapshotHeader(good).vocabulary as string[];
    const offsets = snapshotArray(good, 'offsets');
    const postings = (word: string) => offsets[vocabulary.indexOf(word) + 1]! - offsets[vocabulary.indexOf(word)]!;
    const other = vocabulary.find((w) => w !== 'retri' && postings(w) === postings('retri') && !['budget', 'work'].includes(w))!;
    const rewritten = withWordsSwapped(good, 'retri', other);
    expect([rewritten.length, rewritten.equals(good)]).toEqual([good.length, false]);
    repo.write({ 'entities/redis.md': `${repo.read('entities/redis.md')}\nOne more line about redis.\n` });
    const tree = await loadFileTree(repo.root);
    const shown = (catalog: WikiCatalog) => ({
      entries: JSON.parse(JSON.stringify(catalog.entries)) as unknown,
      scores: ['How do retry budgets work?', 'cache warming with redis', 'lease renewal'].map((q) => scoresOf(catalog, q)),
    });
    const cold = shown(await loadCatalog(tree, DEFAULT_CONFIG));
    const cache = (await cacheOf(repo, { wallClock: aMinuteOn }))!;
    // Either snapshot alone gives what a cold load gives (the page edited is read, the rest kept).
    for (const bytes of [good, rewritten]) {
      writeFileSync(file!, bytes);
      const alone = await loadCatalog(tree, DEFAULT_CONFIG, cache);
      expect([alone.loadedFrom, shown(alone)]).toEqual(['patched snapshot', cold]);
    }
    writeFileSync(file!, good);
    // The other writer renames its file into place once this load has read the head.
    const racing: CatalogCache = {
      keysOf: (paths) => cache.keysOf(paths),
      read: async () => {
        const kept = await cache.read();
        writeFileSync(`${file!}.other`, rewritten);
        renameSync(`${file!}.other`, file!);
        return kept;
      },
      write: (snapshot) => cache.write(snapshot),
    };
    const raced = await loadCatalog(tree, DEFAULT_CONFIG, racing);
    expect(shown(raced)).toEqual(cold);
    expect(raced.loadedFrom).toBe('pages');
  });

  it('a snapshot of an older tree (as the Actions cache restores one) reads only the pages that differ', async () => {
    const repo = await createWikiRepo(dirs);
    await open(repo.root);
    const page = 'concepts/retry-budgets.md';
    repo.write({ [page]: repo.read(page).replace('Retry Budgets', 'Retry Budgets, revised') });
    repo.git('commit', '-qam', 'revise', '--no-verify');
    const session = await open(repo.root);
    expect([session.catalog?.loadedFrom, session.catalog?.pagesRead]).toEqual(['updated snapshot', 1]);
    expect(await seen(session)).toEqual(await seen(await open(repo.root, { cache: false })));
  });

  it('outside git, keeps the snapshot only in cache.dir, keyed by stat', async () => {
    const repo = await createWikiRepo(dirs);
    const cacheDir = await dirs.make('ws-cache-dir-');
    const wiki = await dirs.make('ws-plain-wiki-');
    for (const file of repo.git('ls-files').split('\n').filter(Boolean)) {
      const to = path.join(wiki, file);
      openRepo(wiki).write({ [file]: readFileSync(path.join(repo.root, file), 'utf8') });
      expect(existsSync(to)).toBe(true);
    }
    expect(await seen(await open(wiki))).toEqual(await seen(await open(wiki, { cache: false })));
    writeFileSync(path.join(wiki, '.wiki-steward.yml'), `cache:\n  dir: ${cacheDir}\n`);
    const cold = await seen(await open(wiki, { cache: false }));
    await open(wiki);
    expect(readdirSync(cacheDir)).toHaveLength(1);
    expect(await seen(await open(wiki))).toEqual(cold);
    openRepo(wiki).write({ 'concepts/retry-budgets.md': readFileSync(path.join(wiki, 'concepts/retry-budgets.md'), 'utf8').replace('Retry', 'Rétry') });
    expect(await seen(await open(wiki))).toEqual(await seen(await open(wiki, { cache: false })));
  });

  it('ignores and rewrites a snapshot of another version, truncated, garbage, of wrong types or claiming a huge header', async () => {
    const repo = await createWikiRepo(dirs);
    const cold = await seen(await open(repo.root, { cache: false }));
    await open(repo.root);
    const [file] = snapshots(repo);
    const good = readFileSync(file!);
    // The forging itself leaves a snapshot that stands: each spoiled header below is refused for what was changed.
    writeFileSync(
      file!,
      forgedSnapshot(good, () => undefined),
    );
    expect((await open(repo.root)).catalog?.loadedFrom).toBe('snapshot');
    const spoiled: Buffer[] = [
      good.subarray(0, good.length - 3),
      Buffer.from('not a snapshot at all'),
      Buffer.concat([good.subarray(0, 8), Buffer.from([0xff, 0xff, 0xff, 0x7f]), good.subarray(12)]),
      forgedSnapshot(good, (h) => ((h.paths as unknown[])[0] = 42)),
      forgedSnapshot(good, (h) => (h.head = [-1])),
      forgedSnapshot(good, (h) => ((h.vocabulary as string[])[0] = (h.vocabulary as string[])[1]!)),
      // The head's arrays: a posting of an entry past the last, a weight below zero, an index file
      // past the list of them, entries' texts that do not rise, a word index past its entries.
      withHeadValue(good, 'postingEntries', 0, 1_000_000),
      withHeadValue(good, 'pseudoFrequencies', 0, -1),
      withHeadValue(good, 'listedBy', 0, 1_000),
      withHeadValue(good, 'entryEnds', 1, 0),
      withHeadValue(good, 'nameOffsets', 1, 1_000_000),
    ];
    for (const bytes of spoiled) {
      writeFileSync(file!, bytes);
      expect(await seen(await open(repo.root))).toEqual(cold);
      expect(readFileSync(file!).equals(good)).toBe(true);
    }
    // The pages' part is read only when some page changed, and a page's line only when the load
    // needs it: spoiled there, the load reads every page. The rest starts with the keys, then the pages.
    const { header, restAt } = snapshotRegions(good);
    const pagesAt = restAt + (header.keysBytes as number);
    const firstPage = (header.paths as string[])[0]!;
    expect(good.toString('utf8', pagesAt, pagesAt + 9 + firstPage.length)).toBe(`{"path":"${firstPage}`);
    const spoiledPages = Buffer.from(good);
    spoiledPages.write('x', pagesAt, 'latin1');
    writeFileSync(file!, spoiledPages);
    expect((await open(repo.root)).catalog?.loadedFrom).toBe('snapshot');
    const edit = (page: string) => repo.write({ [page]: `${repo.read(page)}\nEdited.\n` });
    // Another page's body edited: only that page's line is read, and the spoiled one is written back unread.
    edit('concepts/retry-budgets.md');
    const patched = await open(repo.root);
    expect(patched.catalog?.loadedFrom).toBe('patched snapshot');
    expect(await seen(patched)).toEqual(await seen(await open(repo.root, { cache: false })));
    // The spoiled page edited (its line is read), or a page added (every line is read): every page is read.
    for (const change of [() => edit(firstPage), () => repo.write({ 'concepts/added.md': '---\ntitle: Added\n---\nA page.\n' })]) {
      writeFileSync(file!, spoiledPages);
      change();
      const session = await open(repo.root);
      expect(session.catalog?.loadedFrom).toBe('pages');
      expect(await seen(session)).toEqual(await seen(await open(repo.root, { cache: false })));
    }
    repo.git('checkout', '--', '.');
    repo.remove('concepts/added.md');
    await open(repo.root);
    // Another steward version writes its own snapshot over this one's.
    expect(await seen(await open(repo.root, { version: 'other' }))).toEqual(cold);
    expect(readFileSync(file!).equals(good)).toBe(false);
  });

  it('a snapshot whose rest counts a word past its vocabulary or below zero is refused by a load that reads some pages: every page is read', async () => {
    const repo = await createWikiRepo(dirs);
    await open(repo.root);
    const [file] = snapshots(repo);
    const good = readFileSync(file!);
    const { header } = snapshotRegions(good);
    const words = (header.vocabulary as string[]).length;
    const retry = (header.vocabulary as string[]).indexOf('retri');
    expect(retry).toBeGreaterThanOrEqual(0);
    // The word the first question asks for (folded), where the page about it counts it: in its body
    // (pages in page order, as the keys list them) and in its entry's short fields (six an entry).
    const page = (header.paths as string[]).indexOf('concepts/retry-budgets.md');
    const bodyEnds = snapshotArray(good, 'bodyEnds');
    const fieldEnds = snapshotArray(good, 'fieldEnds');
    const inBody = snapshotArray(good, 'bodyIds').indexOf(retry, page === 0 ? 0 : bodyEnds[page - 1]);
    const inFields = snapshotArray(good, 'fieldIds').indexOf(retry, page === 0 ? 0 : fieldEnds[6 * page - 1]);
    expect([inBody < bodyEnds[page]!, inFields >= 0 && inFields < fieldEnds[6 * page + 5]!]).toEqual([true, true]);
    // Another page's body edited: the load takes every other page's counts from the rest.
    repo.write({ 'entities/redis.md': `${repo.read('entities/redis.md')}\nOne more line about redis.\n` });
    const cold = await seen(await open(repo.root, { cache: false }));
    writeFileSync(file!, good);
    const unspoiled = await open(repo.root);
    expect([unspoiled.catalog?.loadedFrom, await seen(unspoiled)]).toEqual(['patched snapshot', cold]);
    for (const [array, at] of [
      ['bodyIds', inBody],
      ['fieldIds', inFields],
    ] as const) {
      for (const id of [words, -1]) {
        writeFileSync(file!, withArrayValue(good, array, at, id));
        const session = await open(repo.root);
        // A word id the vocabulary does not have would count some other word in its place.
        expect([array, id, await seen(session)]).toEqual([array, id, cold]);
        expect([array, id, session.catalog?.loadedFrom]).toEqual([array, id, 'pages']);
      }
    }
  });

  it("a snapshot page's line that is JSON but not of a kept page's shape is refused by a load that reads every line: every page is read", async () => {
    const repo = await createWikiRepo(dirs);
    await open(repo.root);
    const [file] = snapshots(repo);
    const good = readFileSync(file!);
    const { header, restAt } = snapshotRegions(good);
    const pagesAt = restAt + (header.keysBytes as number);
    const lines = good.toString('utf8', pagesAt, pagesAt + (header.pagesBytes as number));
    const lineOf = (page: string) => {
      const line = lines.split('\n').find((l) => l.startsWith(`{"path":"${page}"`))!;
      return { line, at: pagesAt + Buffer.byteLength(lines.slice(0, lines.indexOf(line))) };
    };
    // A page added: every kept line is read, and the unchanged pages' facts are taken from them.
    repo.write({ 'concepts/added.md': '---\ntitle: Added\n---\nA page about retry budgets.\n' });
    const cold = await seen(await open(repo.root, { cache: false }));
    // Each as long as the field it replaces (spaces before it, which JSON allows), so the file's
    // offsets hold: a title that is a number, tags that are not strings, a capture flag that is not a
    // boolean, a link with no text. (The index file's listing gives the page its title: what tells
    // the first apart is that the load refused the line.)
    const forgeries: Array<[page: string, field: string, forged: string]> = [
      ['concepts/retry-budgets.md', '"title":"Retry Budgets"', '"title":42'],
      ['concepts/retry-budgets.md', '"tags":["testing"]', '"tags":[1]'],
      ['concepts/retry-budgets.md', '"openCapture":false', '"openCapture":"no"'],
      ['concepts/cache-warming.md', ',"text":"concepts/ops/lease-renewal.md"', ''],
    ];
    for (const [page, field, forged] of forgeries) {
      const { line, at } = lineOf(page);
      expect(line).toContain(field);
      expect(forged.length).toBeLessThanOrEqual(field.length);
      const bytes = Buffer.from(good);
      bytes.write(line.replace(field, forged.padStart(field.length)), at, 'utf8');
      expect(JSON.parse(bytes.toString('utf8', at, at + Buffer.byteLength(line)))).toBeTypeOf('object');
      writeFileSync(file!, bytes);
      const session = await open(repo.root);
      expect([forged, await seen(session)]).toEqual([forged, cold]);
      expect([forged, session.catalog?.loadedFrom]).toEqual([forged, 'pages']);
    }
  });

  it('`ask` prints its answer before it writes the snapshot, and the next run loads from it', async () => {
    const repo = await createWikiRepo(dirs);
    const printed: Array<{ text: string; snapshots: number }> = [];
    const io = { cwd: repo.root, env: process.env, clock: systemClock, stderr: () => undefined };
    const ask = (args: string[]) =>
      main(['ask', '--wiki', repo.root, ...args, 'How do retry budgets work?'], {
        ...io,
        stdout: (text) => printed.push({ text, snapshots: snapshots(repo).length }),
      });
    expect(await ask([])).toBe(0);
    expect(printed.map((p) => p.snapshots)).toEqual([0]);
    expect(printed[0]!.text).toContain('retry-budgets');
    expect(snapshots(repo)).toHaveLength(1);
    expect((await open(repo.root, { version: VERSION })).catalog?.loadedFrom).toBe('snapshot');
    // --no-cache neither reads nor writes it.
    const before = readFileSync(snapshots(repo)[0]!);
    expect(await ask(['--no-cache'])).toBe(0);
    expect(readFileSync(snapshots(repo)[0]!).equals(before)).toBe(true);
  });

  it("a run stopped while it wrote leaves a temp file that the next write clears, this run's pid's too, and a running writer's stays", async () => {
    const repo = await createWikiRepo(dirs);
    await open(repo.root);
    const [file] = snapshots(repo);
    const strays = [`${file}.wiki-steward-99999999.tmp`, `${file}.wiki-steward-${process.pid}.tmp`];
    // Another process still writing (this test's parent runs as long as the test does).
    const running = `${file}.wiki-steward-${process.ppid}.tmp`;
    for (const stray of [...strays, running]) writeFileSync(stray, 'half a snapshot');
    repo.write({ 'concepts/retry-budgets.md': `${repo.read('concepts/retry-budgets.md')}\nEdited.\n` });
    expect((await open(repo.root)).catalog?.loadedFrom).toBe('patched snapshot');
    expect(strays.filter((stray) => existsSync(stray))).toEqual([]);
    expect(existsSync(running)).toBe(true);
    expect((await open(repo.root)).catalog?.loadedFrom).toBe('snapshot');
  });

  it('--no-cache writes nothing, and a folder that cannot be written still answers', async () => {
    const repo = await createWikiRepo(dirs);
    const cold = await seen(await open(repo.root, { cache: false }));
    expect(snapshots(repo)).toEqual([]);
    // A folder under a file can never be made, whoever runs the test (permissions do not stop root).
    const file = path.join(await dirs.make('ws-blocked-'), 'a-file');
    writeFileSync(file, '');
    writeFileSync(path.join(repo.root, '.wiki-steward.yml'), `cache:\n  dir: ${path.join(file, 'sub')}\n`);
    expect(await seen(await open(repo.root))).toEqual(await seen(await open(repo.root, { cache: false })));
    expect(await seen(await open(repo.root))).toEqual(cold);
  });
});
