// What a provider answers is read with limits (issue 25, items 7 and 10): a redirect is never
// followed, so a key header and the request body (pages of the wiki) never reach another
// address, and a reply body that never ends is cut at MAX_RESPONSE_BYTES instead of buffered.
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, JsonHttpClient, MAX_RESPONSE_BYTES, ProviderError } from '../../src/net/http-json.js';
import { TestClock } from '../helpers/test-clock.js';

interface Seen {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local server answering with `handler`, recording every request it gets. */
async function serve(handler: (path: string, res: ServerResponse) => void): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', headers: req.headers, body });
      handler(req.url ?? '', res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

let elsewhere: Awaited<ReturnType<typeof serve>>;
let provider: Awaited<ReturnType<typeof serve>>;
let mode: 'redirect' | 'endless' | 'ok' | 'no content' = 'ok';
beforeAll(async () => {
  elsewhere = await serve((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"stolen":true}'));
  provider = await serve((_, res) => {
    if (mode === 'redirect') res.writeHead(307, { location: `${elsewhere.url}/collect?key=1` }).end();
    else if (mode === 'endless') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      // Written until the client goes away: the body never ends on its own.
      const more = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', more);
      };
      res.on('close', () => res.destroy());
      more();
    } else if (mode === 'no content') res.writeHead(204).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});
afterAll(() => {
  elsewhere.server.close();
  provider.server.close();
});
beforeEach(() => {
  elsewhere.seen.length = 0;
  provider.seen.length = 0;
});

const client = () => new JsonHttpClient({ ...DEFAULT_RETRY_POLICY, retries: 2 }, new TestClock());
const post = (c: JsonHttpClient) =>
  c.request({
    provider: 'anthropic',
    method: 'POST',
    url: new URL(`${provider.url}/v1/messages`),
    headers: { 'x-api-key': 'sk-ant-secret-key' },
    body: { pages: 'wiki text' },
  });

describe('provider replies', () => {
  it('never follows a redirect: the key and the body stay with the provider, and the error says where it pointed', async () => {
    mode = 'redirect';
    const error = await post(client()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toContain(`redirected to ${elsewhere.url}/collect; redirects are not followed`);
    expect((error as ProviderError).message).not.toContain('key=1');
    expect(elsewhere.seen).toEqual([]);
    // Not retried either: a redirect is the provider's answer, not a fault.
    expect(provider.seen).toHaveLength(1);
  });

  it('cuts a reply body that never ends at the byte limit, and does not ask again', async () => {
    mode = 'endless';
    const error = await post(client()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toContain(`the reply body passed ${MAX_RESPONSE_BYTES} bytes`);
    expect(provider.seen).toHaveLength(1);
  });

  it('a 204 No Content is a malformed reply (retried, then refused), unless the request says it answers', async () => {
    mode = 'no content';
    const error = await post(client()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toContain('answered 204 with a body that is not JSON');
    expect(provider.seen).toHaveLength(3);
    const lookup = await client().request({
      provider: 'Actions cache',
      method: 'GET',
      url: new URL(`${provider.url}/cache`),
      headers: {},
      noContentAnswers: true,
    });
    expect([lookup.status, lookup.body]).toEqual([204, undefined]);
  });

  it('reads an ordinary reply as before', async () => {
    mode = 'ok';
    await expect(post(client())).resolves.toMatchObject({ status: 200, body: { ok: true } });
  });
});
