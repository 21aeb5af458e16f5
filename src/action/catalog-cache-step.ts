// The catalog's snapshot kept between runs in the Actions cache, keyed by the wiki's tree at HEAD:
// restored before the jobs that ask load the catalog, saved after them when the key was not an
// exact hit. A restore key (the same prefix) brings back a snapshot of an older tree, which the
// load then updates page by page. Saving goes through @actions/cache; restoring does not let it
// extract (see cache-archive.ts): the steward asks the cache service for the entry itself (the one
// @actions/cache speaks to: v2, its Twirp JSON API, on github.com; v1, its REST API, on GitHub
// Enterprise Server) and keeps only the snapshot files from the archive, which the load then checks
// like any snapshot (ladder/catalog-cache.ts). The cache only saves time: every fault of it is a
// warning, never a failed run.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { isFeatureAvailable, saveCache } from '@actions/cache';
import type { Workspace } from '../config/workspace.js';
import type { CatalogCacheOption } from '../jobs/ask-checkout.js';
import { GitCommandManager } from '../git/git-command-manager.js';
import { snapshotFolder } from '../ladder/catalog-cache.js';
import { writeWikiFileAtomically } from '../wiki/write-files.js';
import { type Clock, scaledSleeps } from '../net/clock.js';
import { DEFAULT_RETRY_POLICY, JsonHttpClient, testWaitScale } from '../net/http-json.js';
import { type Compression, decompress, regularFiles } from './cache-archive.js';
import type { Step } from './step.js';

const KEY_PREFIX = 'wiki-steward-catalog-v1';
/** What @actions/cache mixes into an entry's version (its `versionSalt`): the restore must ask for the version the save made. */
const VERSION_SALT = '1.0';
/** Past this an archive, or what it unpacks to, is not restored (the catalog loads from the pages). */
const MAX_ARCHIVE_BYTES = 256 * 1024 * 1024;
const SNAPSHOT_FILE = /^catalog-[0-9a-f]{16}\.bin$/;
/** A git tree id (as headTreeId takes one): what follows the prefix in a key this step saves. */
const TREE_ID = /^[0-9a-f]{40,64}$/;
const SERVICE = 'github.actions.results.api.v1.CacheService';

export type Restored = 'exact' | 'older tree' | 'none';

export interface CatalogCacheStep {
  /** For the jobs that ask (AskContext's): undefined when the `catalog-cache` input is off. */
  option: CatalogCacheOption | undefined;
  /**
   * Writes the snapshots the jobs left to write after their answers, then saves the snapshot under
   * this tree's key when the restore was not an exact hit; never throws.
   */
  save(): Promise<void>;
}

/** The option the jobs get, and the snapshot writes they leave to the step (run before it saves). */
function jobOption(): { option: CatalogCacheOption; writeLeft: () => Promise<void> } {
  const writes: Array<() => Promise<void>> = [];
  // The code itself is in the snapshot's stamp (its content's digest): the name only tells the Action's from the CLI's.
  const option: CatalogCacheOption = { stewardVersion: 'action', writeLater: (persist) => void writes.push(persist) };
  // One after another: two writes of the same snapshot in one process would share its temp file's name.
  const writeLeft = async () => {
    for (const write of writes.splice(0)) await write();
  };
  return { option, writeLeft };
}

const off = (job: ReturnType<typeof jobOption>): CatalogCacheStep => ({ option: job.option, save: job.writeLeft });

/**
 * Restores the wiki's snapshot from the Actions cache when the input is on and the cache service
 * (v2) is there; says in the log what came back (the exact tree's, an older tree's or none).
 */
export async function restoreCatalogSnapshot(step: Step, workspace: Workspace, enabled: boolean): Promise<CatalogCacheStep> {
  if (!enabled) return { option: undefined, save: async () => undefined };
  const job = jobOption();
  const { env } = step;
  const service = cacheServiceOf(env);
  if (!service) {
    // In the log, not only at debug level: it is why every run loads the catalog from the pages.
    step.info('catalog snapshot: no Actions cache service is available to this step; the snapshot is not restored or saved');
    return off(job);
  }
  const root = workspace.wikiRoot;
  const folder = root && (await snapshotFolder(root, workspace.config, workspace.repoRoot));
  const tree = root && (await new GitCommandManager(workspace.repoRoot).headTreeId(workspace.wikiPrefix));
  if (!folder || !tree) {
    step.command('debug', 'catalog snapshot: no wiki folder committed at HEAD, or no place for its snapshot; the Actions cache is not used');
    return off(job);
  }
  const prefix = `${KEY_PREFIX}-${env.RUNNER_OS ?? process.platform}-`;
  const key = `${prefix}${tree}`;
  const compression = await compressionOf();
  const entry = { key, prefix, folder, compression, version: cacheVersion(folder, compression), workspaceDir: env.GITHUB_WORKSPACE ?? process.cwd(), service };
  // A run the runner gave a read-only (or write-only) cache token: what it may not do is skipped, quietly.
  const mode = (env.ACTIONS_CACHE_MODE ?? '').trim().toLowerCase();
  const [readable, writable] = [mode !== 'none' && mode !== 'write-only', mode !== 'none' && mode !== 'read'];
  if (!readable) step.command('debug', `catalog snapshot: the cache mode '${mode}' permits no restore`);
  const restored = readable ? await restoreAndSay(step, entry) : 'none';
  const left = await snapshotStates(folder);
  return {
    option: job.option,
    save: async () => {
      await job.writeLeft();
      if (restored !== 'exact' && writable) await saveEntry(step, entry, left);
    },
  };
}

/** What the restore brought back, said in the log; a fault is a warning and restores nothing. */
async function restoreAndSay(step: Step, entry: Entry): Promise<Restored> {
  try {
    const matched = await restoreEntry(step, entry);
    const restored = matched === undefined ? 'none' : matched === entry.key ? 'exact' : 'older tree';
    step.info(
      `catalog snapshot: ${matched === undefined ? `none in the Actions cache for ${entry.key}` : `restored from the Actions cache (${restored}: ${matched})`}`,
    );
    return restored;
  } catch (error) {
    const what = (error as Error).message;
    step.command('warning', `The catalog snapshot was not restored from the Actions cache (key ${entry.key}): ${what}. The catalog loads from the pages.`);
    return 'none';
  }
}

interface Entry {
  key: string;
  prefix: string;
  folder: string;
  compression: Compression;
  version: string;
  /** What @actions/cache names archive members relative to (GITHUB_WORKSPACE). */
  workspaceDir: string;
  service: CacheService;
}

/** The Actions cache service the step asks for entries: its protocol, its address (as the runner gives it) and the runner's token for it. */
interface CacheService {
  protocol: 'v1' | 'v2';
  url: string;
  token: string;
}

/**
 * The service @actions/cache saves to, as it picks one, or undefined when there is none: v1 on
 * GitHub Enterprise Server (whatever the v2 flag says) or without the flag, at ACTIONS_CACHE_URL;
 * else v2, at ACTIONS_RESULTS_URL. It reads the process's environment, so the step's must agree.
 */
function cacheServiceOf(env: NodeJS.ProcessEnv): CacheService | undefined {
  const token = env.ACTIONS_RUNTIME_TOKEN;
  const protocol = isEnterpriseServer(env.GITHUB_SERVER_URL) || !env.ACTIONS_CACHE_SERVICE_V2 ? 'v1' : 'v2';
  const url = protocol === 'v1' ? env.ACTIONS_CACHE_URL : env.ACTIONS_RESULTS_URL;
  if (!token || !url || !featureAvailable()) return undefined;
  return { protocol, url, token };
}

/** @actions/cache's isFeatureAvailable, false where it throws (a GITHUB_SERVER_URL that is no URL, which its saveCache throws on too). */
function featureAvailable(): boolean {
  try {
    return isFeatureAvailable();
  } catch {
    return false;
  }
}

/** Whether the server is GitHub Enterprise Server: not github.com, a GHE.com data residency host or a local one (as @actions/cache tells). */
function isEnterpriseServer(serverUrl: string | undefined): boolean {
  let host = '';
  try {
    host = new URL(serverUrl || 'https://github.com').hostname.toLowerCase();
  } catch {
    // An address that is no URL: @actions/cache throws on it (featureAvailable says there is no service).
  }
  return host !== 'github.com' && !host.endsWith('.ghe.com') && !host.endsWith('.localhost');
}

/** Where the service keeps the entry for this tree (else the newest of an older one), and its key; undefined when it has none. */
async function findEntry(http: JsonHttpClient, entry: Entry): Promise<{ download: unknown; matched: unknown } | undefined> {
  const { service } = entry;
  const authorization = `Bearer ${service.token}`;
  if (service.protocol === 'v1') {
    const keys = encodeURIComponent([entry.key, entry.prefix].join(','));
    const reply = await http.request({
      provider: 'Actions cache',
      method: 'GET',
      // Appended to the address, as @actions/cache does (getCacheApiUrl): the same service whatever its path.
      url: new URL(`${service.url}_apis/artifactcache/cache?keys=${keys}&version=${entry.version}`),
      // The API version @actions/cache asks for.
      headers: { authorization, accept: 'application/json;api-version=6.0-preview.1' },
      // What the service answers when it holds no entry for the keys.
      noContentAnswers: true,
    });
    if (reply.status === 204) return undefined;
    const body = reply.body as { archiveLocation?: unknown; cacheKey?: unknown } | null;
    return { download: body?.archiveLocation, matched: body?.cacheKey };
  }
  const reply = await http.request({
    provider: 'Actions cache',
    method: 'POST',
    // An absolute path on the address's host, as @actions/cache's Twirp client resolves it (a path in the address is not kept).
    url: new URL(`/twirp/${SERVICE}/GetCacheEntryDownloadURL`, service.url),
    headers: { authorization },
    // Field names as the service's protobuf names them, as @actions/cache sends them.
    body: { key: entry.key, restore_keys: [entry.prefix], version: entry.version },
  });
  const body = reply.body as { ok?: unknown; signed_download_url?: unknown; matched_key?: unknown } | null;
  return body?.ok === true ? { download: body.signed_download_url, matched: body.matched_key } : undefined;
}

/** The key of the entry restored, or undefined when the cache holds none for this tree or an older one. */
async function restoreEntry(step: Step, entry: Entry): Promise<string | undefined> {
  const http = new JsonHttpClient(DEFAULT_RETRY_POLICY, scaledSleeps(step.clock, testWaitScale(step.env)));
  const found = await findEntry(http, entry);
  if (!found) return undefined;
  const { download, matched } = found;
  // Only a key this step could have saved (the prefix, then a tree id): any run that may write the
  // cache chose the key, and it goes into the log, where a line break would start a workflow command.
  if (typeof download !== 'string' || typeof matched !== 'string' || !matched.startsWith(entry.prefix) || !TREE_ID.test(matched.slice(entry.prefix.length))) {
    throw new Error('the cache service answered with no download address or a key this step did not ask for');
  }
  const archive = await downloadArchive(download, step.clock);
  const tar = await decompress(archive, entry.compression, MAX_ARCHIVE_BYTES);
  const member = path.relative(entry.workspaceDir, entry.folder).split(path.sep).join('/');
  const files = await regularFiles(tar, (name) => path.posix.dirname(name) === member && SNAPSHOT_FILE.test(path.posix.basename(name)));
  if (files.size === 0) throw new Error(`the archive of ${matched} holds no catalog snapshot`);
  // Never through a symbolic link: the folder must be a real one, each file written beside and renamed into place.
  for (const [name, bytes] of files) await writeWikiFileAtomically(entry.folder, path.posix.basename(name), bytes);
  step.command('debug', `catalog snapshot: ${[...files.keys()].join(', ')} restored into ${entry.folder}`);
  return matched;
}

/** The archive at the signed address, at most MAX_ARCHIVE_BYTES; one attempt under a time-out (a miss costs a cold load). */
async function downloadArchive(address: string, clock: Clock): Promise<Buffer> {
  const url = new URL(address);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('the download address is not an http(s) one');
  const response = await fetch(url, { redirect: 'error', signal: clock.timeout(DEFAULT_RETRY_POLICY.timeoutMs) });
  if (response.status !== 200 || !response.body) throw new Error(`the archive's download answered ${response.status}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Uint8Array).byteLength;
    if (size > MAX_ARCHIVE_BYTES) throw new Error(`the archive passed ${MAX_ARCHIVE_BYTES} bytes`);
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}

/** Each snapshot file in the folder by name, as its inode, size and modification time (a rewritten one is a new file). */
async function snapshotStates(folder: string): Promise<Map<string, string>> {
  const states = new Map<string, string>();
  for (const name of await readdir(folder).catch(() => [])) {
    if (!SNAPSHOT_FILE.test(name)) continue;
    const info = await lstat(path.join(folder, name), { bigint: true }).catch(() => undefined);
    if (info?.isFile()) states.set(name, `${info.ino}:${info.size}:${info.mtimeNs}`);
  }
  return states;
}

/** Saves the snapshot folder under the exact key when this run wrote a snapshot (a job that never loaded the catalog saves nothing). */
async function saveEntry(step: Step, entry: Entry, left: ReadonlyMap<string, string>): Promise<void> {
  const written = [...(await snapshotStates(entry.folder))].filter(([name, state]) => left.get(name) !== state);
  if (written.length === 0) return step.command('debug', 'catalog snapshot: none written by this run; nothing saved to the Actions cache');
  let id = -1;
  let reason = 'the cache service refused or failed (its message is above)';
  try {
    id = await saveCache([entry.folder], entry.key);
  } catch (error) {
    reason = (error as Error).message;
  }
  if (id === -1) {
    return step.command(
      'warning',
      `The catalog snapshot was not saved to the Actions cache (key ${entry.key}): ${reason}. The next run loads it from the pages.`,
    );
  }
  step.info(`catalog snapshot: saved to the Actions cache (${entry.key})`);
}

/** The entry's version as @actions/cache computes it: the paths, the compression, the salt (and Windows' own archives). */
function cacheVersion(folder: string, compression: Compression): string {
  const parts = [folder, compression, ...(process.platform === 'win32' ? ['windows-only'] : []), VERSION_SALT];
  return createHash('sha256').update(parts.join('|')).digest('hex');
}

/** zstd when the runner has it, as @actions/cache decides for the archives it saves. */
async function compressionOf(): Promise<Compression> {
  return promisify(execFile)('zstd', ['--quiet', '--version']).then(
    ({ stdout }) => (stdout.trim() !== '' ? 'zstd-without-long' : 'gzip'),
    () => 'gzip',
  );
}
