// The stand-in against the real clients: @azure/storage-blob (what @actions/cache uploads with)
// putting a blob in blocks and reading it back in ranges, and the Twirp calls as the protocol has
// them (a restore key matched as a prefix, newest first; a second reservation of a key refused).
import { BlockBlobClient } from '@azure/storage-blob';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ActionsCacheService, RUNTIME_TOKEN, TWIRP_PREFIX, startActionsCacheService } from './service.js';

let service: ActionsCacheService;
beforeEach(async () => (service = await startActionsCacheService()));
afterEach(() => service.close());

async function twirp(method: string, body: unknown, token = RUNTIME_TOKEN): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${service.url}${TWIRP_PREFIX}${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

const VERSION = 'a'.repeat(64);

async function saved(key: string, bytes: Buffer, blockSize: number): Promise<void> {
  const created = await twirp('CreateCacheEntry', { key, version: VERSION });
  expect(created.status).toBe(200);
  const client = new BlockBlobClient(created.body.signed_upload_url as string);
  await client.uploadData(bytes, { blockSize, maxSingleShotSize: blockSize, concurrency: 1 });
  expect((await twirp('FinalizeCacheEntryUpload', { key, version: VERSION, size_bytes: String(bytes.length) })).body).toMatchObject({ ok: true });
}

describe('the Actions cache stand-in', () => {
  it('takes a blob in blocks (Put Block, Put Block List) and serves it whole and in ranges', async () => {
    const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 251));
    await saved('k-1', bytes, 1024);
    expect(service.calls.filter((c) => c.endpoint === 'blob-upload')).toHaveLength(4);
    const found = await twirp('GetCacheEntryDownloadURL', { key: 'k-1', version: VERSION });
    const reader = new BlockBlobClient(found.body.signed_download_url as string);
    expect(await reader.downloadToBuffer()).toEqual(bytes);
    expect(await reader.downloadToBuffer(1000, 1500)).toEqual(bytes.subarray(1000, 2500));
    expect(service.violations).toEqual([]);
  });

  it('matches a restore key as a prefix, newest entry first; refuses a second reservation of a key with 409', async () => {
    await saved('prefix-old', Buffer.from('old'), 1024);
    await saved('prefix-new', Buffer.from('new'), 1024);
    const found = await twirp('GetCacheEntryDownloadURL', { key: 'prefix-missing', restore_keys: ['prefix-'], version: VERSION });
    expect(found.body).toMatchObject({ ok: true, matched_key: 'prefix-new' });
    expect((await twirp('GetCacheEntryDownloadURL', { key: 'prefix-old', version: 'b'.repeat(64) })).body).toEqual({ ok: false });
    expect((await twirp('CreateCacheEntry', { key: 'prefix-old', version: VERSION })).status).toBe(409);
    expect(service.violations).toEqual([]);
  });

  it('v1: records chunks whose ranges do not tile the archive as a violation, though their bytes add up to the committed size', async () => {
    const v1 = (resource: string, init: RequestInit & { headers?: Record<string, string> }) =>
      fetch(`${service.url}/_apis/artifactcache/${resource}`, {
        ...init,
        headers: { authorization: `Bearer ${RUNTIME_TOKEN}`, accept: 'application/json;api-version=6.0-preview.1', ...init.headers },
      });
    const json = { 'content-type': 'application/json' };
    const reserved = await v1('caches', { method: 'POST', headers: json, body: JSON.stringify({ key: 'k', version: VERSION, cacheSize: 6 }) });
    const { cacheId } = (await reserved.json()) as { cacheId: number };
    // A wrong client: both chunks sent at offset 0.
    for (const part of ['abc', 'def']) {
      const chunk = { 'content-type': 'application/octet-stream', 'content-range': `bytes 0-2/*` };
      expect((await v1(`caches/${cacheId}`, { method: 'PATCH', headers: chunk, body: part })).status).toBe(204);
    }
    await v1(`caches/${cacheId}`, { method: 'POST', headers: json, body: JSON.stringify({ size: 6 }) });
    expect(service.violations).toEqual(['v1-CommitCache: the chunks uploaded do not cover bytes 0-5 once each']);
    service.violations.length = 0;
  });

  it('records a request off the protocol as a violation: a wrong token, a missing field', async () => {
    await twirp('GetCacheEntryDownloadURL', { key: 'k', version: VERSION }, 'wrong');
    await twirp('CreateCacheEntry', { key: 'k' });
    expect(service.violations).toEqual([
      'GetCacheEntryDownloadURL: authorization header "Bearer wrong"',
      'CreateCacheEntry: field version missing or not a string',
      'CreateCacheEntry: version  is not a sha256',
    ]);
    service.violations.length = 0;
  });
});
