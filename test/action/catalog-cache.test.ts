// The catalog's snapshot kept between runs in the Actions cache, through the committed bundle with
// the runner's environment for a JavaScript action (ACTIONS_CACHE_SERVICE_V2, ACTIONS_RESULTS_URL,
// ACTIONS_RUNTIME_TOKEN) pointed at a stand-in for the cache service (test/actions-cache-service/):
// a first run saves the snapshot, a fresh checkout of the same tree restores it and the catalog
// comes from it, an older tree's snapshot is restored by the key's prefix, every cache fault is a
// warning on a run that answers, GitHub Enterprise Server's v1 service is spoken to as @actions/cache
// speaks to it there, the input turns it all off, a runner with no cache service for
// the step has it left alone (the snapshot still written in the checkout), and a hostile entry leads
// to a cold load and a correct answer with nothing written outside the snapshot folder.
//
// A fresh checkout is cloned where the last one was: on a runner the workspace path is the same
// from run to run, and the snapshot's name and stamp hold the wiki's path.
import { execFile } from 'node:child_process';
import { type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { lstat, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GitHubEmulator } from '../github-emulator/emulator.js';
import { type ActionsCacheService, startActionsCacheService } from '../actions-cache-service/service.js';
import { memberOf, membersOf, tarOf, zstd } from '../actions-cache-service/archives.js';
import {
  type RunResult,
  type Workspace,
  asker,
  closeChecked,
  expectExit,
  makeWorkspace,
  questionIssue,
  removeTempDirs,
  runBundle,
  seededRepo,
  snapshotAction,
  traceOf,
} from './harness.js';

const exec = promisify(execFile);
const COVERED = 'How do I install the pre-commit hook?';
/** The host @actions/cache takes for github.com's own (`*.localhost`): the v2 service is only used there. */
const SERVER_URL = 'http://github.localhost';

afterAll(removeTempDirs);

describe('the catalog snapshot in the Actions cache, through the committed bundle', () => {
  let bundle: string;
  let template: Workspace;
  let gh: GitHubEmulator;
  let cache: ActionsCacheService;
  let ws: Workspace;
  let issues = 0;

  beforeAll(async () => {
    bundle = await snapshotAction();
    template = await makeWorkspace();
  });
  beforeEach(async () => {
    ({ gh, ws } = await seededRepo(template));
    cache = await startActionsCacheService();
    asker(gh, 'alice', 'triage');
  });
  afterEach(async () => {
    expect(cache.violations).toEqual([]);
    await cache.close();
    await closeChecked(gh);
  });

  /** One question answered by the bundle in `ws`, with the cache service's environment (and `env` over it). */
  async function ask(opts: { env?: Record<string, string>; inputs?: Record<string, string> } = {}): Promise<RunResult & { comment: string }> {
    const number = ++issues;
    questionIssue(gh, number, COVERED);
    const r = await runBundle({
      bundle,
      githubEnv: { ...gh.env(), GITHUB_SERVER_URL: SERVER_URL },
      workspace: ws,
      eventName: 'issues',
      payload: gh.events.issues('opened', number),
      inputs: opts.inputs,
      env: { ...cache.env(), ...opts.env },
    });
    expectExit(r, 0);
    expect(r.stdout).not.toContain('::error');
    const comments = gh.state.commentsOn(number);
    expect(comments).toHaveLength(1);
    const comment = comments[0]!.body;
    // The right answer, whatever the cache did: the how-to page, cited.
    expect(comment).toContain('wiki/how-to/install-pre-commit-hook.md');
    return { ...r, comment };
  }

  /** A fresh clone of the emulated repository's main where the checkout was: a new runner's. */
  async function freshCheckout(): Promise<void> {
    await rm(ws.dir, { recursive: true, force: true });
    await exec('git', ['clone', '-q', '--branch', 'main', gh.gitDir(), ws.dir]);
  }

  const treeKey = async () => `wiki-steward-catalog-v1-Linux-${(await exec('git', ['rev-parse', 'HEAD:wiki'], { cwd: ws.dir })).stdout.trim()}`;
  const snapshotDir = () => path.join(ws.dir, '.git/wiki-steward');
  const callsTo = (endpoint: string, from = 0) => cache.calls.slice(from).filter((c) => c.endpoint === endpoint);

  it('a first run saves the snapshot; a fresh checkout of the same tree restores it and the catalog comes from it', async () => {
    const key = await treeKey();
    // The answer is posted before the snapshot is written: seen as the emulator handles the comment.
    const atComment: boolean[] = [];
    gh.faults.hold({ match: { method: 'POST', path: /\/issues\/\d+\/comments$/ }, until: () => atComment.push(existsSync(snapshotDir())) });
    const first = await ask();
    expect(atComment).toEqual([false]);
    expect(first.stdout).toContain(`catalog snapshot: none in the Actions cache for ${key}`);
    expect(first.stdout).toContain('catalog: loaded from the pages');
    expect(first.stdout).toContain(`catalog snapshot: saved to the Actions cache (${key})`);
    // What the stand-in received: the entry, finalized, and an archive holding the snapshot under the workspace-relative folder.
    expect(cache.entries.filter((e) => e.finalized).map((e) => e.key)).toEqual([key]);
    const archive = cache.archiveOf(key)!;
    const snapshot = membersOf(archive).filter((m) => /^\.git\/wiki-steward\/catalog-[0-9a-f]{16}\.bin$/.test(m));
    expect(snapshot).toHaveLength(1);
    expect(memberOf(archive, snapshot[0]!).subarray(0, 8).toString('latin1')).toBe('WSCATLG\n');
    // The lookup as @actions/cache's protocol has it: the key, the prefix as a restore key, a version.
    expect(callsTo('GetCacheEntryDownloadURL')[0]!.body).toMatchObject({ key, restore_keys: ['wiki-steward-catalog-v1-Linux-'] });

    await freshCheckout();
    expect(existsSync(snapshotDir())).toBe(false);
    const from = cache.calls.length;
    const second = await ask();
    expect(second.stdout).toContain(`catalog snapshot: restored from the Actions cache (exact: ${key})`);
    expect(second.stdout).toContain('catalog: loaded from its snapshot');
    // An exact hit is not saved again.
    expect(callsTo('CreateCacheEntry', from)).toEqual([]);
    // The same answer from the same pages, whichever way the catalog came.
    const { answer, citations } = traceOf(first.comment)!;
    expect(traceOf(second.comment)).toMatchObject({ answer, citations });
  });

  it("an older tree's snapshot is restored by the key's prefix and the new tree's is saved under its own key", async () => {
    const oldKey = await treeKey();
    await ask();
    await freshCheckout();
    await writeFile(path.join(ws.dir, 'wiki/how-to/install-pre-commit-hook.md'), '\nOne more line.\n', { flag: 'a' });
    await exec('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-qam', 'edit a page'], { cwd: ws.dir });
    const newKey = await treeKey();
    expect(newKey).not.toBe(oldKey);
    const r = await ask();
    expect(r.stdout).toContain(`catalog snapshot: restored from the Actions cache (older tree: ${oldKey})`);
    // A page edited since the older tree: that page is read, the rest taken from the snapshot.
    expect(r.stdout).toContain('catalog: loaded from its snapshot and the page changed since');
    expect(r.stdout).toContain(`catalog snapshot: saved to the Actions cache (${newKey})`);
    expect(cache.entries.filter((e) => e.finalized).map((e) => e.key)).toEqual([oldKey, newKey]);
  });

  it('a cache fault is a warning that says what failed, and the run answers: 5xx, dropped and refused connections, a malformed reply, a 409 race', async () => {
    const key = await treeKey();
    const warnings = (r: RunResult) => r.stdout.split('\n').filter((l) => l.startsWith('::warning::The catalog snapshot'));

    // 503 on the lookup as long as the step retries (its back-off is the test's, scaled to nothing); a 409 on the reservation.
    cache.fault('GetCacheEntryDownloadURL', { status: 503, code: 'unavailable' }, 4);
    cache.fault('CreateCacheEntry', { status: 409, code: 'already_exists', msg: 'cache entry with the same key, version, and scope already exists' }, 1);
    const raced = await ask();
    expect(warnings(raced)).toEqual([
      expect.stringMatching(new RegExp(`^::warning::The catalog snapshot was not restored from the Actions cache \\(key ${key}\\): .*HTTP 503`)),
      expect.stringMatching(new RegExp(`^::warning::The catalog snapshot was not saved to the Actions cache \\(key ${key}\\)`)),
    ]);
    expect(raced.stdout).toContain('another job may be creating this cache');
    expect(raced.stdout).toContain('catalog: loaded from the pages');

    await freshCheckout();
    const service = await startActionsCacheService();
    try {
      // A dropped connection on the lookup; the upload refused by the blob storage.
      service.fault('GetCacheEntryDownloadURL', 'drop');
      service.fault('blob-upload', { status: 403, code: 'AuthenticationFailed' });
      const dropped = await ask({ env: service.env() });
      expect(warnings(dropped)).toEqual([
        expect.stringContaining('was not restored from the Actions cache'),
        expect.stringContaining('was not saved to the Actions cache'),
      ]);
      expect(warnings(dropped)[0]).toMatch(/network error/);
      expect(service.entries.filter((e) => e.finalized)).toEqual([]);
    } finally {
      expect(service.violations).toEqual([]);
      await service.close();
    }

    await freshCheckout();
    // A reply of the wrong shape on the lookup; the finalize's connection dropped.
    cache.fault('GetCacheEntryDownloadURL', 'malformed', 1);
    cache.fault('FinalizeCacheEntryUpload', 'drop', 1);
    const malformed = await ask();
    expect(warnings(malformed)).toEqual([
      expect.stringContaining('the cache service answered with no download address'),
      expect.stringContaining('was not saved to the Actions cache'),
    ]);

    await freshCheckout();
    // Nothing listens at the service's address.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await ask({ env: { ACTIONS_RESULTS_URL: `http://127.0.0.1:${port}/` } });
    expect(warnings(refused)).toHaveLength(2);
    expect(refused.stdout).toContain('ECONNREFUSED');
  });

  it('a results address with a path: the restore asks where @actions/cache saves (the Twirp path is absolute, not under it)', async () => {
    const env = { ACTIONS_RESULTS_URL: `${cache.url}/results/` };
    const key = await treeKey();
    await ask({ env });
    expect(cache.archiveOf(key)).toBeDefined();
    await freshCheckout();
    const r = await ask({ env });
    expect(r.stdout).toContain(`catalog snapshot: restored from the Actions cache (exact: ${key})`);
  });

  it('a server address that is no URL (which @actions/cache throws on): the cache is left alone, and the run answers', async () => {
    const r = await ask({ env: { ...cache.v1Env(), GITHUB_SERVER_URL: 'not a url' } });
    expect(r.stdout).toContain('catalog: loaded from the pages');
    expect(cache.calls).toEqual([]);
  });

  it('hostile v1 lookups (a redirect, no body, not JSON, a file: or data: archive, a key of another prefix, a 204 with a body): a warning or a miss, and the run answers', async () => {
    const key = await treeKey();
    const replies: Array<[string, (res: ServerResponse) => void, RegExp]> = [
      [
        'a redirect',
        (res) => res.writeHead(302, { location: `${cache.url}/_apis/artifactcache/cache` }).end(),
        /::warning::The catalog snapshot was not restored .*redirect/,
      ],
      ['no body', (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(), /::warning::The catalog snapshot was not restored .*not JSON/],
      [
        'not JSON',
        (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('<html>'),
        /::warning::The catalog snapshot was not restored .*not JSON/,
      ],
      ...(['file:///etc/passwd', 'data:application/octet-stream;base64,AAAA'].map((archiveLocation) => [
        archiveLocation.slice(0, 5),
        (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ cacheKey: key, archiveLocation })),
        /::warning::The catalog snapshot was not restored .*not an http\(s\) one/,
      ]) as Array<[string, (res: ServerResponse) => void, RegExp]>),
      [
        'another prefix',
        (res) =>
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ cacheKey: `other-${key}`, archiveLocation: `${cache.url}/x` })),
        /::warning::The catalog snapshot was not restored .*a key this step did not ask for/,
      ],
      [
        'a 204 with a body',
        (res) => res.writeHead(204, { 'content-type': 'application/json' }).end('{"cacheKey":"x"}'),
        /catalog snapshot: none in the Actions cache/,
      ],
    ];
    let reply = replies[0]![1];
    // The lookup answered as listed; the save (@actions/cache's own calls) refused.
    const hostile = createServer((req, res) => (req.method === 'GET' ? reply(res) : res.writeHead(404, { 'content-type': 'application/json' }).end('{}')));
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    try {
      const env = { ACTIONS_CACHE_URL: `http://127.0.0.1:${(hostile.address() as AddressInfo).port}/`, GITHUB_SERVER_URL: 'https://ghes.example.com' };
      for (const [what, answer, said] of replies) {
        reply = answer;
        await rm(snapshotDir(), { recursive: true, force: true });
        const r = await ask({ env });
        expect([what, r.stdout]).toEqual([what, expect.stringMatching(said)]);
        expect(r.stdout).toContain('catalog: loaded from the pages');
      }
    } finally {
      hostile.closeAllConnections();
      await new Promise<void>((resolve) => hostile.close(() => resolve()));
    }
    expect(cache.calls).toEqual([]);
  });

  it('the input off: nothing is restored or saved, and no snapshot is written', async () => {
    const r = await ask({ inputs: { 'catalog-cache': 'false' } });
    expect(cache.calls).toEqual([]);
    expect(r.stdout).not.toContain('catalog snapshot');
    expect(r.stdout).not.toContain('catalog: loaded');
    expect(existsSync(snapshotDir())).toBe(false);
  });

  it('GitHub Enterprise Server (the v1 service): a first run saves the snapshot; a fresh checkout restores it and the catalog comes from it', async () => {
    // What a runner there gives a JavaScript action: the v1 service's address and the token; the
    // v2 flag and the results address, even when set, are not what @actions/cache speaks to there.
    const ghes = { ...cache.v1Env(), GITHUB_SERVER_URL: 'https://ghes.example.com' };
    const key = await treeKey();
    const first = await ask({ env: ghes });
    expect(first.stdout).toContain(`catalog snapshot: none in the Actions cache for ${key}`);
    expect(first.stdout).toContain(`catalog snapshot: saved to the Actions cache (${key})`);
    expect(cache.calls.map((c) => c.endpoint).filter((e) => !e.startsWith('blob'))).toEqual([
      'v1-GetCacheEntry',
      'v1-ReserveCache',
      ...callsTo('v1-UploadChunk').map(() => 'v1-UploadChunk'),
      'v1-CommitCache',
    ]);
    // The lookup as @actions/cache's v1 protocol has it: the key, then the prefix as a restore key, and a version.
    const lookup = new URL(callsTo('v1-GetCacheEntry')[0]!.url, cache.url).searchParams;
    expect(lookup.get('keys')).toBe(`${key},wiki-steward-catalog-v1-Linux-`);
    expect(lookup.get('version')).toMatch(/^[0-9a-f]{64}$/);
    expect(membersOf(cache.archiveOf(key)!).some((m) => /^\.git\/wiki-steward\/catalog-[0-9a-f]{16}\.bin$/.test(m))).toBe(true);

    await freshCheckout();
    const from = cache.calls.length;
    const second = await ask({ env: ghes });
    expect(second.stdout).toContain(`catalog snapshot: restored from the Actions cache (exact: ${key})`);
    expect(second.stdout).toContain('catalog: loaded from its snapshot');
    expect(cache.calls.slice(from).map((c) => c.endpoint)).toEqual(['v1-GetCacheEntry', 'blob-download']);
    expect(traceOf(second.comment)).toMatchObject({ answer: traceOf(first.comment)!.answer });
    // A lookup answered with a key of the wrong type: a warning, and the catalog loads from the pages.
    await freshCheckout();
    cache.fault('v1-GetCacheEntry', 'malformed', 1);
    const third = await ask({ env: ghes });
    expect(third.stdout).toMatch(
      /::warning::The catalog snapshot was not restored from the Actions cache \(key [^)]+\): the cache service answered with no download address/,
    );
    expect(third.stdout).toContain('catalog: loaded from the pages');
  });

  it('no cache service for the step: nothing is restored or saved, no warning, and the snapshot is still written for the checkout', async () => {
    // Runners whose cache the step must not use (a variable set empty is read as unset, by the step
    // and @actions/cache alike): no v2 flag and no v1 service's address; the v2 flag with no results
    // address; no runtime token; GitHub Enterprise Server with no v1 service's address, where
    // @actions/cache speaks v1 whatever the flag says.
    const runners: Array<[string, Record<string, string>]> = [
      ['no v2 flag', { ACTIONS_CACHE_SERVICE_V2: '' }],
      ['no results address', { ACTIONS_RESULTS_URL: '' }],
      ['no runtime token', { ACTIONS_RUNTIME_TOKEN: '' }],
      ['GitHub Enterprise Server', { GITHUB_SERVER_URL: 'https://ghes.example.com' }],
    ];
    for (const [runner, env] of runners) {
      await rm(snapshotDir(), { recursive: true, force: true });
      const r = await ask({ env });
      expect([runner, r.stdout]).toEqual([
        runner,
        expect.stringContaining('catalog snapshot: no Actions cache service is available to this step; the snapshot is not restored or saved'),
      ]);
      expect([runner, r.stdout.includes('::warning::'), r.stdout.includes('::debug::catalog snapshot'), cache.calls]).toEqual([runner, false, false, []]);
      expect(r.stdout).toContain('catalog: loaded from the pages');
      // The snapshot the job left to write is written all the same, for the next run in this checkout.
      expect([runner, (await readdir(snapshotDir())).filter((f) => /^catalog-[0-9a-f]{16}\.bin$/.test(f))]).toEqual([runner, [expect.any(String)]]);
    }
    expect((await ask({ env: runners[0]![1] })).stdout).toContain('catalog: loaded from its snapshot');
  });

  it('a read-only cache (ACTIONS_CACHE_MODE read, as for an untrusted event) restores and quietly saves nothing', async () => {
    const r = await ask({ env: { ACTIONS_CACHE_MODE: 'read' } });
    expect(cache.calls.map((c) => c.endpoint)).toEqual(['GetCacheEntryDownloadURL']);
    expect(r.stdout).not.toContain('::warning::');
    expect(r.stdout).toContain('catalog: loaded from the pages');
  });

  it('a hostile entry (garbage, links and paths outside, a forged stamp) leads to a cold load, a correct answer, nothing written outside the folder', async () => {
    const key = await treeKey();
    await ask();
    const real = cache.archiveOf(key)!;
    const member = membersOf(real).find((m) => m.endsWith('.bin'))!;
    const outside = await mkdtemp(path.join(os.tmpdir(), 'ws-outside-'));
    try {
      const hostile = async (archive: Buffer) => {
        cache.tamper(key, archive);
        await freshCheckout();
        const r = await ask();
        expect(r.stdout).toContain('catalog: loaded from the pages');
        expect(await readdir(outside)).toEqual([]);
        expect(existsSync(path.join(path.dirname(ws.dir), 'escaped.txt'))).toBe(false);
        for (const name of existsSync(snapshotDir()) ? await readdir(snapshotDir()) : []) {
          expect((await lstat(path.join(snapshotDir(), name))).isFile()).toBe(true);
        }
        return r;
      };

      const garbage = await hostile(Buffer.from('not an archive at all'));
      expect(garbage.stdout).toMatch(/::warning::The catalog snapshot was not restored .*zstd could not decompress it/);

      const links = await hostile(
        zstd(
          tarOf([
            { name: `${outside}/absolute.txt`, data: 'absolute' },
            { name: '../escaped.txt', data: 'dot-dot' },
            { name: '.git/wiki-steward', symlinkTo: outside },
            { name: '.git/wiki-steward/catalog-0123456789abcdef.bin', data: 'through the link' },
            { name: member, symlinkTo: `${outside}/target.bin` },
          ]),
        ),
      );
      // The one regular file with a snapshot's name is written into the real folder, and the load refuses it.
      expect(links.stdout).toContain('catalog snapshot: restored from the Actions cache (exact');
      expect((await lstat(snapshotDir())).isDirectory()).toBe(true);

      const bytes = memberOf(real, member);
      const at = bytes.indexOf('"stamp":"') + 9;
      bytes[at] = bytes[at] === 0x30 ? 0x31 : 0x30;
      const forged = await hostile(zstd(tarOf([{ name: member, data: bytes }])));
      expect(forged.stdout).toContain('catalog snapshot: restored from the Actions cache (exact');
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("a hostile entry's key (workflow commands after a line break) is refused with a warning, never written into the log as it came", async () => {
    // @actions/cache checks a key for commas and length only: any run that may write the cache can
    // save one that starts with the prefix and goes on with a line the runner reads as a command.
    for (const [service, env] of [
      ['v2', {}],
      ['v1', { ...cache.v1Env(), GITHUB_SERVER_URL: 'https://ghes.example.com' }],
    ] as const) {
      await freshCheckout();
      await ask({ env });
      const key = await treeKey();
      const entry = cache.entries.find((e) => e.key === key && e.finalized)!;
      entry.key = 'wiki-steward-catalog-v1-Linux-0000000000000000000000000000000000000000\n::error::injected by the cache\n';
      await freshCheckout();
      const r = await ask({ env });
      expect([service, r.stdout]).toEqual([service, expect.stringContaining('catalog: loaded from the pages')]);
      expect(r.stdout).toMatch(/::warning::The catalog snapshot was not restored .*a key this step did not ask for/);
      expect(r.stdout.split('\n').filter((line) => line.startsWith('::') && !/^::(debug|warning|add-mask)::/.test(line))).toEqual([]);
      cache.entries.splice(0);
    }
  });
});
