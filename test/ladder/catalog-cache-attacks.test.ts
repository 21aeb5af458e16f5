// The catalog snapshot (src/ladder/catalog-cache.ts) attacked: snapshots forged with every key
// current (a blob id is no secret), files in its place that are not snapshots, and edits git does
// not report. Whatever the snapshot holds, a load sees what a load with no snapshot sees, and reads
// nothing outside the wiki's pages.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AskSession, offlineProviders, openAskSession } from '../../src/answer/ask.js';
import { openWorkspace } from '../../src/config/workspace.js';
import { TempDirs } from '../helpers/git-repo.js';
import { forgedSnapshot, seen, snapshotRegions } from '../helpers/catalog-snapshot.js';
import { createWikiRepo } from '../helpers/wiki-repo.js';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

async function open(repoRoot: string, wiki: string, options: { cache?: boolean } = {}): Promise<AskSession> {
  const workspace = await openWorkspace({ cwd: repoRoot, wikiFlag: wiki });
  const session = await openAskSession(workspace, offlineProviders(), options.cache === false ? {} : { catalogCache: { stewardVersion: 'test' } });
  // As the CLI does once it has answered: the snapshot is kept for the next load.
  await session.catalog?.persist();
  return session;
}

/** The load after a change that reaches other pages' entries updates the forged snapshot, and it and the load after it see what a cold load sees. */
async function expectUpdatedAsCold(root: string): Promise<void> {
  const session = await open(root, root);
  expect(session.catalog?.loadedFrom).toBe('updated snapshot');
  const cold = await seen(await open(root, root, { cache: false }));
  expect(await seen(session)).toEqual(cold);
  expect(await seen(await open(root, root))).toEqual(cold);
}

const snapshotFile = (repoRoot: string): string => {
  const dir = path.join(repoRoot, '.git', 'wiki-steward');
  const [file] = readdirSync(dir).filter((f) => f.startsWith('catalog-') && f.endsWith('.bin'));
  return path.join(dir, file!);
};

describe('the catalog snapshot, attacked', () => {
  it('a forged snapshot whose keys are all current never makes the load read a file that is not a page of the wiki', async () => {
    const repo = await createWikiRepo(dirs, { wikiDir: 'wiki' });
    const wiki = path.join(repo.root, 'wiki');
    const page = 'concepts/retry-budgets.md';
    // Files outside the wiki's pages, holding what the page holds and a secret.
    const secret = `${readFileSync(path.join(wiki, page), 'utf8')}\nTOP-SECRET-OUTSIDE\n`;
    writeFileSync(path.join(repo.root, 'outside.md'), secret);
    const cold = await seen(await open(repo.root, 'wiki', { cache: false }));
    await open(repo.root, 'wiki');
    const file = snapshotFile(repo.root);
    const good = readFileSync(file);
    for (const elsewhere of ['../outside.md', '/etc/hostname', 'concepts/../../outside.md']) {
      writeFileSync(
        file,
        forgedSnapshot(good, (h) => {
          h.paths = (h.paths as string[]).map((p) => (p === page ? elsewhere : p));
        }),
      );
      const session = await open(repo.root, 'wiki');
      const now = await seen(session);
      expect(JSON.stringify(now)).not.toContain('TOP-SECRET-OUTSIDE');
      expect(now).toEqual(cold);
    }
    // An index file that is none of the wiki's, named as the one listing every page, is never shown as oriented on.
    writeFileSync(
      file,
      forgedSnapshot(good, (h) => {
        expect(h.listers).not.toEqual([]);
        h.listers = (h.listers as string[]).map(() => '../outside.md');
      }),
    );
    expect(await seen(await open(repo.root, 'wiki'))).toEqual(cold);
  });

  it('a forged snapshot that lists an unreadable page twice does not stand for the load', async () => {
    // A page that cannot be read (its content is binary), committed: every key is a blob id, current.
    const repo = await createWikiRepo(dirs, { files: { 'concepts/binary.md': 'a\0b' } });
    const cold = await seen(await open(repo.root, repo.root, { cache: false }));
    await open(repo.root, repo.root);
    expect((await open(repo.root, repo.root)).catalog?.loadedFrom).toBe('snapshot');
    const file = snapshotFile(repo.root);
    const good = readFileSync(file);
    // The page listed again, with its reason or another: the pages, counted once each, are still the tree's.
    for (const again of [(u: { path: string; reason: string }) => u, (u: { path: string; reason: string }) => ({ ...u, reason: 'forged' })]) {
      writeFileSync(
        file,
        forgedSnapshot(good, (h) => {
          const unreadable = h.unreadable as Array<{ path: string; reason: string }>;
          expect(unreadable.map((u) => u.path)).toEqual(['concepts/binary.md']);
          h.unreadable = [...unreadable, ...unreadable.map(again)];
        }),
      );
      const session = await open(repo.root, repo.root);
      expect(await seen(session)).toEqual(cold);
      expect(session.catalog?.loadedFrom).not.toBe('snapshot');
    }
  });

  it('a forged entry text reads as an entry of its path alone, and never names another file or index file', async () => {
    const repo = await createWikiRepo(dirs);
    writeFileSync(path.join(repo.root, 'outside.md'), `${repo.read('concepts/retry-budgets.md')}\nTOP-SECRET-OUTSIDE\n`);
    await open(repo.root, repo.root);
    const file = snapshotFile(repo.root);
    const good = readFileSync(file);
    const { header, entriesAt, entryTexts } = snapshotRegions(good);
    const text = (i: number) => entryTexts[i]!;
    const at = (i: number) => entriesAt + Buffer.byteLength(entryTexts.slice(0, i).join(''));
    expect(JSON.parse(text(0))).toHaveProperty('title');
    // Each forged text as long as the one it replaces, so the offsets still hold: one of the wrong
    // shape, and one well formed but naming a file outside the wiki as its path and index file.
    const forged = Buffer.from(good);
    const put = (i: number, json: string) => {
      const room = Buffer.byteLength(text(i));
      expect(Buffer.byteLength(json)).toBeLessThanOrEqual(room);
      forged.write(json.padEnd(room), at(i), 'utf8');
    };
    put(0, '{"title":42}');
    const hostile = { ...JSON.parse(text(1)), path: '../outside.md', listedIn: '../outside.md', summary: '', headings: [], linkTexts: [], aliases: [] };
    put(1, JSON.stringify({ ...hostile, folded: { ...hostile.folded, summary: '  ' } }));
    writeFileSync(file, forged);
    const session = await open(repo.root, repo.root);
    expect(session.catalog?.loadedFrom).toBe('snapshot');
    const paths = header.paths as string[];
    const [first, second] = session.catalog!.entries;
    expect(JSON.parse(JSON.stringify(first))).toMatchObject({ path: paths[0], title: path.posix.basename(paths[0]!, '.md'), summary: '', tags: [] });
    expect([second!.path, second!.listedIn]).toEqual([
      paths[1],
      ((await seen(await open(repo.root, repo.root, { cache: false }))) as { entries: Array<{ listedIn?: string }> }).entries[1]!.listedIn,
    ]);
    expect(JSON.stringify(await seen(session))).not.toContain('TOP-SECRET-OUTSIDE');
  });

  it('a forged entry text that starts with its own fields as they are but ends otherwise is not kept when another page changes', async () => {
    const repo = await createWikiRepo(dirs);
    await open(repo.root, repo.root);
    const file = snapshotFile(repo.root);
    const good = readFileSync(file);
    const { header, entriesAt, entryTexts } = snapshotRegions(good);
    const paths = header.paths as string[];
    const at = (i: number) => entriesAt + Buffer.byteLength(entryTexts.slice(0, i).join(''));
    // Each text's own fields kept as they are, what follows them forged (as long as the original,
    // so the offsets hold): a title given again after the folded texts (JSON keeps the last), and
    // folded texts of the wrong shape.
    const forged = Buffer.from(good);
    const tails = ['{"title":"  ","summary":"  "},"title":"Forged title"}', '{"title":42}'];
    tails.forEach((tail, i) => {
      const text = entryTexts[i]!;
      const own = text.slice(0, text.indexOf(',"folded":') + ',"folded":'.length);
      const room = Buffer.byteLength(text);
      expect(Buffer.byteLength(own + tail)).toBeLessThanOrEqual(room);
      forged.fill(' ', at(i), at(i) + room).write(own + tail, at(i), 'utf8');
    });
    writeFileSync(file, forged);
    // A real change that reaches other pages' entries (a page added): the load reads it, rebuilds
    // every entry and keeps the rest. (An edit that reaches no other entry keeps the other entries
    // as kept, as a warm load takes them.)
    const edited = 'entities/redis-notes.md';
    expect(paths.slice(0, 2)).not.toContain(edited);
    repo.write({ [edited]: `${repo.read('entities/redis.md')}\nOne more line about redis.\n` });
    await expectUpdatedAsCold(repo.root);
  });

  it('a forged entry text that starts with its own fields as they are and ends in a closing brace, but whose folded texts are not two joined texts, is not kept', async () => {
    const repo = await createWikiRepo(dirs);
    await open(repo.root, repo.root);
    const file = snapshotFile(repo.root);
    const good = readFileSync(file);
    const { entriesAt, entryTexts } = snapshotRegions(good);
    const at = (i: number) => entriesAt + Buffer.byteLength(entryTexts.slice(0, i).join(''));
    // Each text's own fields kept as they are, then folded texts that are JSON but of the wrong
    // shape, padded (spaces JSON allows) to the original's length so that the text still ends in
    // the closing brace: a title that is no text, a summary that is not joined words, no object at
    // all, a summary missing.
    const tails = ['{"title":42,"summary":"  "}', '{"title":"  ","summary":"not joined"}', 'null', '{"title":"  "}'];
    expect(entryTexts).toHaveLength(tails.length);
    const forged = Buffer.from(good);
    tails.forEach((tail, i) => {
      const text = entryTexts[i]!;
      const own = text.slice(0, text.indexOf(',"folded":') + ',"folded":'.length);
      const room = Buffer.byteLength(text);
      const padded = `${own}${tail}${' '.repeat(room - 1 - Buffer.byteLength(own + tail))}}`;
      expect([Buffer.byteLength(padded), padded.endsWith(' }')]).toEqual([room, true]);
      forged.write(padded, at(i), 'utf8');
    });
    writeFileSync(file, forged);
    // A page added: every entry is built again, and each kept one whose own fields hold is taken as kept.
    repo.write({ 'entities/redis-notes.md': `${repo.read('entities/redis.md')}\nOne more line about redis.\n` });
    await expectUpdatedAsCold(repo.root);
  });

  it("file keys in the snapshot's rest that are not the ones its header's digest is of are refused: the load reads every page", async () => {
    const repo = await createWikiRepo(dirs);
    repo.git('add', '-A');
    repo.git('commit', '-qm', 'all tracked', '--no-verify', '--allow-empty');
    await open(repo.root, repo.root);
    const file = snapshotFile(repo.root);
    const good = readFileSync(file);
    const { header, restAt } = snapshotRegions(good);
    const keys = JSON.parse(good.toString('utf8', restAt, restAt + (header.keysBytes as number))) as Array<[string, string]>;
    // Two pages' keys swapped (blob ids, the same length): the JSON is as long, only what it says differs.
    expect([keys[0]![1].length, keys[0]![1] === keys[1]![1]]).toEqual([keys[1]![1].length, false]);
    [keys[0]![1], keys[1]![1]] = [keys[1]![1], keys[0]![1]];
    const forged = Buffer.from(good);
    forged.write(JSON.stringify(keys), restAt, 'utf8');
    writeFileSync(file, forged);
    const page = 'entities/redis.md';
    repo.write({ [page]: `${repo.read(page)}\nOne more line about redis.\n` });
    const session = await open(repo.root, repo.root);
    expect(session.catalog?.loadedFrom).toBe('pages');
    expect(await seen(session)).toEqual(await seen(await open(repo.root, repo.root, { cache: false })));
  });

  it('a FIFO, a folder or a symbolic link in place of the snapshot costs a cold load, never a hang, and is left as it is', async () => {
    const repo = await createWikiRepo(dirs);
    const cold = await seen(await open(repo.root, repo.root, { cache: false }));
    await open(repo.root, repo.root);
    const file = snapshotFile(repo.root);
    const good = readFileSync(file);
    const target = path.join(await dirs.make('ws-link-target-'), 'snapshot.bin');
    writeFileSync(target, good);
    const places: Array<[string, () => void]> = [
      ['fifo', () => execFileSync('mkfifo', [file])],
      ['folder', () => mkdirSync(path.join(file, 'inside'), { recursive: true })],
      ['link', () => symlinkSync(target, file)],
    ];
    for (const [kind, place] of places) {
      rmSync(file, { recursive: true, force: true });
      place();
      const session = await open(repo.root, repo.root);
      expect([kind, session.catalog?.loadedFrom]).toEqual([kind, 'pages']);
      expect(await seen(session)).toEqual(cold);
      expect(readFileSync(target).equals(good)).toBe(true);
    }
  });

  it('a symbolic link in place of the snapshot folder is neither read through nor written through', async () => {
    const repo = await createWikiRepo(dirs);
    const cold = await seen(await open(repo.root, repo.root, { cache: false }));
    await open(repo.root, repo.root);
    const folder = path.dirname(snapshotFile(repo.root));
    const elsewhere = path.join(await dirs.make('ws-link-folder-'), 'wiki-steward');
    renameSync(folder, elsewhere);
    symlinkSync(elsewhere, folder);
    const before = readdirSync(elsewhere).map((f) => readFileSync(path.join(elsewhere, f)));
    const session = await open(repo.root, repo.root);
    expect(session.catalog?.loadedFrom).toBe('pages');
    expect(await seen(session)).toEqual(cold);
    expect(readdirSync(elsewhere).map((f) => readFileSync(path.join(elsewhere, f)))).toEqual(before);
  });

  it('an edit git is told not to look at (assume-unchanged, skip-worktree) loads as a cold load does', async () => {
    const repo = await createWikiRepo(dirs);
    const page = 'concepts/retry-budgets.md';
    const other = 'concepts/cache-warming.md';
    await open(repo.root, repo.root);
    repo.git('update-index', '--assume-unchanged', page);
    repo.git('update-index', '--skip-worktree', other);
    // Words the questions ask for, in the pages' bodies: the ranking's counts change.
    repo.write({ [page]: `${repo.read(page)}\nLease renewal, lease renewal and cache warming with redis.\n` });
    repo.write({ [other]: `${repo.read(other)}\nRetry budgets: how retry budgets work, and lease renewal.\n` });
    expect(repo.git('status', '--porcelain')).toBe('');
    const session = await open(repo.root, repo.root);
    expect(await seen(session)).toEqual(await seen(await open(repo.root, repo.root, { cache: false })));
  });

  it('a page replaced by another of the same size and modification time loads as a cold load does, whatever git is told to trust', async () => {
    const repo = await createWikiRepo(dirs);
    // Git told to compare sizes and whole-second modification times only.
    repo.git('config', 'core.trustctime', 'false');
    repo.git('config', 'core.checkStat', 'minimal');
    const page = 'concepts/retry-budgets.md';
    const file = path.join(repo.root, page);
    const then = new Date('2001-01-01T00:00:00Z');
    utimesSync(file, then, then);
    repo.git('update-index', '--refresh');
    await open(repo.root, repo.root);
    const text = repo.read(page);
    // Same length: a word the questions ask for in place of one they do not.
    const edited = text.replace('a page written for a test', 'a page for lease renewals');
    expect(edited.length).toBe(text.length);
    // Another file of the same size and time put in the page's place: only its inode and change time differ.
    writeFileSync(`${file}.new`, edited);
    utimesSync(`${file}.new`, then, then);
    renameSync(`${file}.new`, file);
    expect(repo.git('status', '--porcelain')).toBe('');
    const session = await open(repo.root, repo.root);
    expect(await seen(session)).toEqual(await seen(await open(repo.root, repo.root, { cache: false })));
  });

  it('changes whose effects reach other pages, one after another, each load as a cold load does', async () => {
    const repo = await createWikiRepo(dirs);
    const page = 'concepts/retry-budgets.md';
    const changes: Array<[string, () => void]> = [
      ['acronym defined', () => repo.write({ 'entities/defs.md': '---\ntitle: Definitions\n---\nA Retry Budget Limit (RBL) caps retries.\n' })],
      ['acronym moved', () => repo.write({ [page]: `${repo.read(page)}\nSee the Retry Budget Limit (RBL) and Lease Renewal Window (LRW).\n` })],
      ['definition removed', () => repo.remove('entities/defs.md')],
      ['binary page', () => repo.write({ 'entities/redis.md': `${repo.read('entities/redis.md')}\0` })],
      ['binary page mended', () => repo.git('checkout', '--', 'entities/redis.md')],
      [
        'over the size limit',
        () => repo.write({ 'concepts/cache-warming.md': `${repo.read('concepts/cache-warming.md')}${'lease renewal '.repeat(160_000)}` }),
      ],
      ['under it again', () => repo.git('checkout', '--', 'concepts/cache-warming.md')],
      ['index removed', () => repo.remove('concepts/_index.md')],
      ['index back', () => repo.git('checkout', '--', 'concepts/_index.md')],
      ['schema synonyms', () => repo.write({ 'schema.md': `${repo.read('schema.md')}\n## Tag synonyms\n- testing: retry\n` })],
      [
        'capture page',
        () => repo.write({ 'concepts/open-question.md': '---\ntitle: Open question\nstatus: open\n---\nHow do retry budgets work with lease renewal?\n' }),
      ],
      ['linked page renamed', () => repo.git('mv', 'concepts/ops/lease-renewal.md', 'concepts/lease-renewal.md')],
      [
        'title others link to, unlisted',
        () => repo.write({ 'concepts/lease-renewal.md': repo.read('concepts/lease-renewal.md').replace(/^title: .*$/m, 'title: Lease Extension') }),
      ],
      [
        'committed',
        () => {
          // Both run ('git add' prints nothing: `add && commit` never committed), and the tree is then clean.
          repo.git('add', '--all');
          repo.git('commit', '-qm', 'all', '--no-verify');
          expect(repo.git('status', '--porcelain')).toBe('');
        },
      ],
    ];
    await open(repo.root, repo.root);
    for (const [what, change] of changes) {
      change();
      const session = await open(repo.root, repo.root);
      const warm = await seen(session);
      const cold = await seen(await open(repo.root, repo.root, { cache: false }));
      expect([what, warm]).toEqual([what, cold]);
      expect([what, await seen(await open(repo.root, repo.root))]).toEqual([what, cold]);
    }
  });

  it('a page whose checkout a filter changes (locked, then unlocked as git-crypt does) loads as a cold load does', async () => {
    const repo = await createWikiRepo(dirs);
    const page = 'concepts/retry-budgets.md';
    // A filter that stores the page rot13'd: checked out without it (locked), the page holds other words.
    const rot13 = "tr 'A-Za-z' 'N-ZA-Mn-za-m'";
    const unlock = () => {
      repo.git('config', 'filter.rot.clean', rot13);
      repo.git('config', 'filter.rot.smudge', rot13);
    };
    const lock = () => repo.git('config', '--remove-section', 'filter.rot');
    const checkout = () => {
      rmSync(path.join(repo.root, page));
      repo.git('checkout', '--', page);
    };
    unlock();
    repo.write({ '.gitattributes': `${page} filter=rot\n` });
    repo.git('add', '--all');
    repo.git('rm', '-q', '--cached', page);
    repo.git('add', page);
    repo.git('commit', '-qm', 'filtered', '--no-verify');
    lock();
    checkout();
    expect(repo.read(page)).not.toContain('Retry Budgets');
    await open(repo.root, repo.root);
    unlock();
    checkout();
    expect(repo.read(page)).toContain('Retry Budgets');
    expect(repo.git('status', '--porcelain')).toBe('');
    expect(await seen(await open(repo.root, repo.root))).toEqual(await seen(await open(repo.root, repo.root, { cache: false })));
  });

  it('an attributes file that changes how a page is checked out (working-tree-encoding), at the root or in a folder, loads as a cold load does', async () => {
    for (const [attributes, line] of [
      ['.gitattributes', 'concepts/retry-budgets.md working-tree-encoding=UTF-16LE'],
      ['concepts/.gitattributes', 'retry-budgets.md working-tree-encoding=UTF-16LE'],
    ] as const) {
      const repo = await createWikiRepo(dirs);
      const page = 'concepts/retry-budgets.md';
      await open(repo.root, repo.root);
      // The same blob, checked out again as UTF-16: other bytes, and git reports the page unchanged.
      repo.write({ [attributes]: `${line}\n` });
      rmSync(path.join(repo.root, page));
      repo.git('checkout', '--', page);
      expect(readFileSync(path.join(repo.root, page)).includes(0)).toBe(true);
      expect(repo.git('status', '--porcelain', '--', page)).toBe('');
      const session = await open(repo.root, repo.root);
      expect(session.catalog?.loadedFrom).toBe('pages');
      expect(await seen(session)).toEqual(await seen(await open(repo.root, repo.root, { cache: false })));
      expect(session.catalog?.unreadable.map((u) => u.path)).toContain(page);
    }
  });
});
