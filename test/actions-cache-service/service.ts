// A stand-in for the Actions cache service (tests only), on node:http at 127.0.0.1: what
// @actions/cache 6.x speaks to when ACTIONS_CACHE_SERVICE_V2 is set — the Twirp JSON service at
// ACTIONS_RESULTS_URL (`/twirp/github.actions.results.api.v1.CacheService/<method>`, a bearer
// runtime token, protobuf field names in the JSON) — and the blob storage its signed URLs point at,
// as Azure's Blob service answers the calls @azure/storage-blob makes (Put Blob; Put Block and Put
// Block List; Get Blob and Get Blob Properties, with ranges). And what it speaks on GitHub
// Enterprise Server, or without that flag: the v1 REST API at ACTIONS_CACHE_URL
// (`_apis/artifactcache/`: look an entry up, reserve one, upload its archive in ranged chunks,
// commit it; api-version 6.0-preview.1), whose entries' archives are fetched from the same blob
// store. Stateful: entries by key and version,
// a restore key matched as a prefix, newest entry first, as GitHub matches them. Faults are injected
// per endpoint (a status, a dropped connection, a malformed reply). Every request is checked against
// the protocol; what does not fit is kept in `violations`, which a test expects to be empty.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const TWIRP_PREFIX = '/twirp/github.actions.results.api.v1.CacheService/';
export const RUNTIME_TOKEN = 'actions-runtime-token-for-tests';
const ACCOUNT = 'devstoreaccount1';
const CONTAINER = 'actions-cache';

export type Endpoint =
  | 'CreateCacheEntry'
  | 'FinalizeCacheEntryUpload'
  | 'GetCacheEntryDownloadURL'
  | 'blob-upload'
  | 'blob-download'
  | 'v1-GetCacheEntry'
  | 'v1-ReserveCache'
  | 'v1-UploadChunk'
  | 'v1-CommitCache';
const V1_PREFIX = '/_apis/artifactcache/';

/** A fault in place of the endpoint's answer: a status (with a Twirp error body), the connection dropped, or a reply of the wrong shape. */
export type Fault = { status: number; code?: string; msg?: string } | 'drop' | 'malformed';

export interface CacheEntry {
  key: string;
  version: string;
  blob: string;
  /** Set by FinalizeCacheEntryUpload: an entry is found only once finalized. */
  finalized: boolean;
  /** Creation order: the newest entry wins a restore-key match. */
  order: number;
}

export interface RecordedCall {
  endpoint: Endpoint;
  method: string;
  url: string;
  /** The Twirp request's JSON. */
  body?: Record<string, unknown>;
  status: number;
}

export interface ActionsCacheService {
  url: string;
  /** The environment a runner gives a JavaScript action for the cache: the v2 service, its address and token. */
  env(): Record<string, string>;
  /** The same on GitHub Enterprise Server: the v1 service's address and the token (no v2 flag, no results address). */
  v1Env(): Record<string, string>;
  entries: CacheEntry[];
  blobs: Map<string, Buffer>;
  calls: RecordedCall[];
  violations: string[];
  /** Answers `endpoint` with `fault` the next `times` times (every time when omitted). */
  fault(endpoint: Endpoint, fault: Fault, times?: number): void;
  /** The archive bytes stored for the finalized entry of `key`. */
  archiveOf(key: string): Buffer | undefined;
  /** Replaces the archive of `key`'s entry: what a hostile writer of the cache would leave there. */
  tamper(key: string, bytes: Buffer): void;
  close(): Promise<void>;
}

export async function startActionsCacheService(): Promise<ActionsCacheService> {
  const entries: CacheEntry[] = [];
  const blobs = new Map<string, Buffer>();
  /** Put Block's blocks by blob, then block id, until Put Block List commits them. */
  const blocks = new Map<string, Map<string, Buffer>>();
  const calls: RecordedCall[] = [];
  const violations: string[] = [];
  const faults: Array<{ endpoint: Endpoint; fault: Fault; left: number }> = [];
  /** The v1 chunks uploaded to each reserved entry (by its cache id, its `order`), until it is committed. */
  const chunks = new Map<number, Array<{ start: number; bytes: Buffer }>>();
  let order = 0;
  let base = '';

  const takeFault = (endpoint: Endpoint): Fault | undefined => {
    const found = faults.find((f) => f.endpoint === endpoint && f.left > 0);
    if (found) found.left--;
    return found?.fault;
  };
  const blobUrl = (blob: string, permissions: string) => `${base}/${ACCOUNT}/${CONTAINER}/${blob}?sv=2024-11-04&sp=${permissions}&sig=stand-in-signature`;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        handle(req, res, Buffer.concat(chunks));
      } catch (error) {
        violations.push(`the stand-in failed on ${req.method} ${req.url}: ${(error as Error).message}`);
        res.writeHead(500).end();
      }
    });
  });

  function answer(res: http.ServerResponse, call: RecordedCall, status: number, body: unknown): void {
    call.status = status;
    calls.push(call);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }

  /** The fault, answered, when one is set for this endpoint; true when it was. */
  function faulted(res: http.ServerResponse, call: RecordedCall, malformed: unknown): boolean {
    const fault = takeFault(call.endpoint);
    if (fault === undefined) return false;
    if (fault === 'drop') {
      call.status = 0;
      calls.push(call);
      res.socket?.destroy();
    } else if (fault === 'malformed') {
      answer(res, call, 200, malformed);
    } else {
      answer(res, call, fault.status, { code: fault.code ?? 'internal', msg: fault.msg ?? 'injected fault' });
    }
    return true;
  }

  function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): void {
    const url = new URL(req.url ?? '/', base);
    if (url.pathname.startsWith(TWIRP_PREFIX)) return twirp(req, res, url, raw);
    if (url.pathname.startsWith(V1_PREFIX)) return v1(req, res, url, raw);
    if (url.pathname.startsWith(`/${ACCOUNT}/${CONTAINER}/`)) return blob(req, res, url, raw);
    violations.push(`unexpected request ${req.method} ${req.url}`);
    res.writeHead(404).end();
  }

  function twirp(req: http.IncomingMessage, res: http.ServerResponse, url: URL, raw: Buffer): void {
    const method = url.pathname.slice(TWIRP_PREFIX.length) as Endpoint;
    const call: RecordedCall = { endpoint: method, method: req.method ?? '', url: url.pathname, status: 0 };
    const problem = (text: string) => violations.push(`${method}: ${text}`);
    if (req.method !== 'POST') problem(`method ${req.method}, not POST`);
    if (req.headers.authorization !== `Bearer ${RUNTIME_TOKEN}`) problem(`authorization header ${JSON.stringify(req.headers.authorization)}`);
    if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) problem(`content-type ${req.headers['content-type']}`);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    } catch {
      problem('a body that is not JSON');
      return answer(res, call, 400, { code: 'malformed', msg: 'body is not JSON' });
    }
    call.body = body;
    const str = (name: string) => {
      const v = body[name];
      if (typeof v !== 'string' || v === '') problem(`field ${name} missing or not a string`);
      return typeof v === 'string' ? v : '';
    };
    const key = str('key');
    const version = str('version');
    if (key.length > 512 || key.includes(',')) problem(`key ${key} is not a valid cache key`);
    if (!/^[0-9a-f]{64}$/.test(version)) problem(`version ${version} is not a sha256`);
    if (method === 'CreateCacheEntry') {
      if (faulted(res, call, { ok: 'yes', signed_upload_url: 42 })) return;
      if (entries.some((e) => e.key === key && e.version === version)) {
        return answer(res, call, 409, { code: 'already_exists', msg: 'cache entry with the same key, version, and scope already exists' });
      }
      const entry = { key, version, blob: randomUUID(), finalized: false, order: ++order };
      entries.push(entry);
      return answer(res, call, 200, { ok: true, signed_upload_url: blobUrl(entry.blob, 'cw') });
    }
    if (method === 'FinalizeCacheEntryUpload') {
      const size = body.size_bytes;
      if (typeof size !== 'string' || !/^\d+$/.test(size)) problem(`size_bytes ${JSON.stringify(size)} is not an int64 string`);
      if (faulted(res, call, { ok: 'yes', entry_id: {} })) return;
      const entry = entries.find((e) => e.key === key && e.version === version && !e.finalized);
      const stored = entry && blobs.get(entry.blob);
      if (!entry || !stored) return answer(res, call, 404, { code: 'not_found', msg: 'no upload to finalize' });
      if (String(stored.length) !== size) problem(`size_bytes ${String(size)} but ${stored.length} bytes were uploaded`);
      entry.finalized = true;
      return answer(res, call, 200, { ok: true, entry_id: String(entry.order) });
    }
    if (method === 'GetCacheEntryDownloadURL') {
      const restoreKeys = body.restore_keys ?? [];
      if (!Array.isArray(restoreKeys) || !restoreKeys.every((k) => typeof k === 'string')) problem('restore_keys is not a list of strings');
      if (faulted(res, call, { ok: true, signed_download_url: 7 })) return;
      const found = matchEntry([key, ...(restoreKeys as string[])], version);
      if (!found) return answer(res, call, 200, { ok: false });
      return answer(res, call, 200, { ok: true, signed_download_url: blobUrl(found.blob, 'r'), matched_key: found.key });
    }
    problem('unknown method');
    answer(res, call, 404, { code: 'bad_route', msg: `no method ${method}` });
  }

  /** The entry a restore finds: the primary key's, else the newest whose key starts with a restore key, in their order. */
  function matchEntry(keys: readonly string[], version: string): CacheEntry | undefined {
    return keys
      .map((k, i) =>
        entries
          .filter((e) => e.finalized && e.version === version && (i === 0 ? e.key === k : e.key.startsWith(k)))
          .sort((a, b) => b.order - a.order)
          .at(0),
      )
      .find((e) => e !== undefined);
  }

  function v1(req: http.IncomingMessage, res: http.ServerResponse, url: URL, raw: Buffer): void {
    const resource = url.pathname.slice(V1_PREFIX.length);
    const cacheId = /^caches\/(\d+)$/.exec(resource)?.[1];
    const endpoint: Endpoint =
      req.method === 'GET' && resource === 'cache'
        ? 'v1-GetCacheEntry'
        : req.method === 'POST' && resource === 'caches'
          ? 'v1-ReserveCache'
          : req.method === 'PATCH' && cacheId
            ? 'v1-UploadChunk'
            : 'v1-CommitCache';
    const call: RecordedCall = { endpoint, method: req.method ?? '', url: `${url.pathname}${url.search}`, status: 0 };
    const problem = (text: string) => violations.push(`${endpoint}: ${text}`);
    if (req.headers.authorization !== `Bearer ${RUNTIME_TOKEN}`) problem(`authorization header ${JSON.stringify(req.headers.authorization)}`);
    if (endpoint !== 'v1-UploadChunk' && !/^application\/json;api-version=6\.0-preview\.1$/.test(String(req.headers.accept)))
      problem(`accept ${req.headers.accept}`);
    if (endpoint === 'v1-CommitCache' && (req.method !== 'POST' || !cacheId)) {
      problem(`unknown resource ${req.method} ${resource}`);
      return answer(res, call, 404, { message: 'not found' });
    }
    const json = (): Record<string, unknown> => {
      try {
        return JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      } catch {
        problem('a body that is not JSON');
        return {};
      }
    };
    if (endpoint === 'v1-GetCacheEntry') {
      const keys = (url.searchParams.get('keys') ?? '').split(',');
      const version = url.searchParams.get('version') ?? '';
      if (keys.some((k) => k === '' || k.length > 512)) problem(`keys ${url.searchParams.get('keys')} are not valid cache keys`);
      if (!/^[0-9a-f]{64}$/.test(version)) problem(`version ${version} is not a sha256`);
      if (faulted(res, call, { cacheKey: 42 })) return;
      const found = matchEntry(keys, version);
      if (!found) {
        call.status = 204;
        calls.push(call);
        return void res.writeHead(204).end();
      }
      return answer(res, call, 200, { cacheKey: found.key, scope: 'refs/heads/main', archiveLocation: blobUrl(found.blob, 'r') });
    }
    if (endpoint === 'v1-ReserveCache') {
      const body = json();
      call.body = body;
      const { key, version } = body;
      if (typeof key !== 'string' || key === '' || key.length > 512 || key.includes(',')) problem(`key ${String(key)} is not a valid cache key`);
      if (typeof version !== 'string' || !/^[0-9a-f]{64}$/.test(version)) problem(`version ${String(version)} is not a sha256`);
      if (faulted(res, call, { cacheId: 'one' })) return;
      if (entries.some((e) => e.key === key && e.version === version)) {
        return answer(res, call, 409, { message: `Cache already exists. Scope: refs/heads/main, Key: ${String(key)}, Version: ${String(version)}` });
      }
      const entry = { key: String(key), version: String(version), blob: randomUUID(), finalized: false, order: ++order };
      entries.push(entry);
      chunks.set(entry.order, []);
      return answer(res, call, 201, { cacheId: entry.order });
    }
    const reserved = entries.find((e) => e.order === Number(cacheId) && !e.finalized);
    if (!reserved) {
      problem(`no reserved entry ${cacheId}`);
      return answer(res, call, 404, { message: 'no such cache' });
    }
    if (endpoint === 'v1-UploadChunk') {
      const range = /^bytes (\d+)-(\d+)\/\*$/.exec(String(req.headers['content-range']));
      if (!range || Number(range[2]) - Number(range[1]) + 1 !== raw.length) problem(`content-range ${req.headers['content-range']} is not the chunk's`);
      if (req.headers['content-type'] !== 'application/octet-stream') problem(`content-type ${req.headers['content-type']}`);
      if (faulted(res, call, {})) return;
      chunks.get(reserved.order)!.push({ start: Number(range?.[1] ?? 0), bytes: raw });
      call.status = 204;
      calls.push(call);
      return void res.writeHead(204).end();
    }
    const body = json();
    call.body = body;
    if (faulted(res, call, {})) return;
    const parts = [...chunks.get(reserved.order)!].sort((a, b) => a.start - b.start);
    const archive = Buffer.concat(parts.map((p) => p.bytes));
    if (body.size !== archive.length) problem(`size ${String(body.size)} but ${archive.length} bytes were uploaded`);
    // The sizes adding up is not enough: a client that sends its chunks at the wrong offsets stores a wrong archive.
    let next = 0;
    for (const part of parts) next = part.start === next ? next + part.bytes.length : Number.NaN;
    if (next !== archive.length) problem(`the chunks uploaded do not cover bytes 0-${archive.length - 1} once each`);
    blobs.set(reserved.blob, archive);
    chunks.delete(reserved.order);
    reserved.finalized = true;
    call.status = 204;
    calls.push(call);
    res.writeHead(204).end();
  }

  function blob(req: http.IncomingMessage, res: http.ServerResponse, url: URL, raw: Buffer): void {
    const name = url.pathname.split('/').at(-1)!;
    const upload = req.method === 'PUT';
    const call: RecordedCall = { endpoint: upload ? 'blob-upload' : 'blob-download', method: req.method ?? '', url: url.pathname, status: 0 };
    if (url.searchParams.get('sig') !== 'stand-in-signature') violations.push(`${req.method} ${url.pathname}: not the signed URL handed out`);
    const azure = (status: number, headers: Record<string, string | number> = {}, body?: Buffer) => {
      call.status = status;
      calls.push(call);
      res.writeHead(status, {
        'x-ms-request-id': randomUUID(),
        'x-ms-version': '2024-11-04',
        date: new Date().toUTCString(),
        ...headers,
      });
      res.end(body);
    };
    const fault = takeFault(call.endpoint);
    if (fault === 'drop') {
      calls.push(call);
      return void res.socket?.destroy();
    }
    if (fault === 'malformed') return azure(200, { 'content-length': 5 }, Buffer.from('oops!'));
    if (fault) return azure(fault.status, { 'x-ms-error-code': fault.code ?? 'InjectedFault', 'content-type': 'application/xml' }, Buffer.from('<Error/>'));
    const entry = entries.find((e) => e.blob === name);
    if (!entry) violations.push(`${req.method} of blob ${name}, which no entry was given`);
    const written = { etag: `"0x${order.toString(16)}"`, 'last-modified': new Date().toUTCString(), 'x-ms-request-server-encrypted': 'true' };
    if (upload) {
      if (url.searchParams.get('sp') !== 'cw') violations.push(`upload to ${name} through a URL not signed for writing`);
      const comp = url.searchParams.get('comp');
      if (comp === 'block') {
        const id = url.searchParams.get('blockid') ?? '';
        if (!blocks.has(name)) blocks.set(name, new Map());
        blocks.get(name)!.set(id, raw);
        return azure(201);
      }
      if (comp === 'blocklist') {
        const ids = [...raw.toString('utf8').matchAll(/<(?:Latest|Uncommitted|Committed)>([^<]*)<\//g)].map((m) => m[1]!);
        const parts = ids.map((id) => blocks.get(name)?.get(id));
        if (parts.some((p) => p === undefined)) violations.push(`Put Block List on ${name} names a block never put`);
        blobs.set(name, Buffer.concat(parts.filter((p): p is Buffer => p !== undefined)));
        blocks.delete(name);
        return azure(201, written);
      }
      if (req.headers['x-ms-blob-type'] !== 'BlockBlob') violations.push(`Put Blob on ${name} with x-ms-blob-type ${req.headers['x-ms-blob-type']}`);
      if (Number(req.headers['content-length']) !== raw.length) violations.push(`Put Blob on ${name}: content-length is not the body's`);
      blobs.set(name, raw);
      return azure(201, written);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') violations.push(`${req.method} on a blob`);
    if (url.searchParams.get('sp') !== 'r') violations.push(`download of ${name} through a URL not signed for reading`);
    const stored = blobs.get(name);
    if (!stored) return azure(404, { 'x-ms-error-code': 'BlobNotFound' });
    const properties = { ...written, 'x-ms-blob-type': 'BlockBlob', 'content-type': 'application/octet-stream', 'accept-ranges': 'bytes' };
    const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers['x-ms-range'] ?? req.headers.range ?? ''));
    if (range) {
      const from = Number(range[1]);
      const to = Math.min(range[2] ? Number(range[2]) : stored.length - 1, stored.length - 1);
      const part = stored.subarray(from, to + 1);
      return azure(
        206,
        { ...properties, 'content-length': part.length, 'content-range': `bytes ${from}-${to}/${stored.length}` },
        req.method === 'HEAD' ? undefined : part,
      );
    }
    azure(200, { ...properties, 'content-length': stored.length }, req.method === 'HEAD' ? undefined : stored);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    env: () => ({ ACTIONS_CACHE_SERVICE_V2: 'true', ACTIONS_RESULTS_URL: `${base}/`, ACTIONS_RUNTIME_TOKEN: RUNTIME_TOKEN }),
    v1Env: () => ({ ACTIONS_CACHE_URL: `${base}/`, ACTIONS_RUNTIME_TOKEN: RUNTIME_TOKEN }),
    entries,
    blobs,
    calls,
    violations,
    fault: (endpoint, fault, times = Number.POSITIVE_INFINITY) => void faults.push({ endpoint, fault, left: times }),
    archiveOf: (key) => {
      const entry = entries.find((e) => e.key === key && e.finalized);
      return entry && blobs.get(entry.blob);
    },
    tamper: (key, bytes) => {
      const entry = entries.find((e) => e.key === key && e.finalized);
      if (!entry) throw new Error(`no finalized entry for ${key}`);
      blobs.set(entry.blob, bytes);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
