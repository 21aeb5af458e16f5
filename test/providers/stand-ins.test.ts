// The stand-ins themselves: each canonical fixture is well formed, its documented example request
// is accepted, a request missing the key or a field is refused in the provider's own error shape,
// and the HTTP client reads the message out of every documented error body.
import { afterEach, describe, expect, it } from 'vitest';
import { JsonHttpClient, ProviderError } from '../../src/net/http-json.js';
import { TestClock } from '../helpers/test-clock.js';
import { type Canonical, MODEL_PROVIDERS, type ProviderName, SEARCH_PROVIDERS, type StandIn, checkFields, loadCanonical, startStandIn } from './stand-ins.js';

const ALL: ProviderName[] = [...MODEL_PROVIDERS, ...SEARCH_PROVIDERS];
const KEY = 'test-key-0123456789';

let server: StandIn | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function exampleRequest(c: Canonical, base: string, options: { key?: string | undefined; drop?: string } = {}): [string, RequestInit] {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (c.request.auth && options.key !== undefined)
    headers[c.request.auth.header] = c.request.auth.scheme ? `${c.request.auth.scheme} ${options.key}` : options.key;
  if (c.provider === 'anthropic') headers['anthropic-version'] = '2023-06-01';
  const example = { ...c.request.example };
  if (options.drop) delete example[options.drop];
  if (c.request.method === 'POST') {
    headers['content-type'] = 'application/json';
    return [`${base}${c.request.path}`, { method: 'POST', headers, body: JSON.stringify(example) }];
  }
  const url = new URL(`${base}${c.request.path}`);
  for (const [k, v] of Object.entries(example)) url.searchParams.set(k, String(v));
  return [url.toString(), { method: 'GET', headers }];
}

describe('canonical fixtures', () => {
  it.each(ALL)('%s: names its documentation, request, success and errors', (provider) => {
    const c = loadCanonical(provider);
    expect(c.provider).toBe(provider);
    expect(c.source.length).toBeGreaterThan(80);
    expect(c.request.path).toMatch(/^\//);
    expect(c.success.status).toBe(200);
    expect(Object.keys(c.errors).length).toBeGreaterThanOrEqual(2);
    for (const e of Object.values(c.errors)) expect(e.body !== undefined || e.text !== undefined).toBe(true);
    // The documented example request fits the documented fields.
    expect(checkFields(c.request.example, (c.request.body ?? c.request.query)!, c.request.body ? 'json' : 'query')).toEqual([]);
  });

  it("keeps each provider's own error shape", () => {
    for (const e of Object.values(loadCanonical('openai').errors))
      expect(e.body).toMatchObject({ error: { message: expect.any(String), type: expect.any(String) } });
    for (const e of Object.values(loadCanonical('anthropic').errors))
      expect(e.body).toMatchObject({ type: 'error', error: { type: expect.stringMatching(/_error$/), message: expect.any(String) } });
    for (const e of Object.values(loadCanonical('tavily').errors)) expect(e.body).toMatchObject({ detail: { error: expect.any(String) } });
    for (const e of Object.values(loadCanonical('brave').errors))
      expect(e.body).toMatchObject({ type: 'ErrorResponse', error: { status: e.status, code: expect.any(String), detail: expect.any(String) } });
    expect(loadCanonical('anthropic').errors.overloaded).toMatchObject({ status: 529, body: { error: { type: 'overloaded_error' } } });
    expect(loadCanonical('brave').errors.rate_limited).toMatchObject({ status: 429, body: { error: { code: 'RATE_LIMITED' } } });
    expect(loadCanonical('searxng').errors.format_disabled).toMatchObject({ status: 403 });
  });
});

describe('stand-in servers', () => {
  it.each(ALL)('%s: accepts the documented example and answers the documented success shape', async (provider) => {
    server = await startStandIn(provider, { key: KEY, fallback: { success: true } });
    const c = server.canonical;
    const response = await fetch(...exampleRequest(c, server.url, { key: KEY }));
    expect(server.problems()).toEqual([]);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(Object.keys(c.success.body).sort());
  });

  it.each(ALL.filter((p) => loadCanonical(p).request.auth))('%s: a request without the key, or with another, gets the documented 401', async (provider) => {
    server = await startStandIn(provider, { key: KEY, fallback: { success: true } });
    const c = server.canonical;
    for (const key of [undefined, 'wrong-key']) {
      const response = await fetch(...exampleRequest(c, server.url, { key }));
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual(c.errors.unauthorized!.body);
    }
  });

  it.each(ALL)("%s: a request missing a required field is refused in the provider's error shape", async (provider) => {
    server = await startStandIn(provider, { key: KEY, fallback: { success: true } });
    const c = server.canonical;
    const field = Object.keys((c.request.body ?? c.request.query)!.required)[0]!;
    const response = await fetch(...exampleRequest(c, server.url, { key: KEY, drop: field }));
    expect(response.status).toBe(c.errors.invalid_request.status);
    expect(server.problems().join('\n')).toContain(`${field} is required`);
    const body = await response.json();
    // Same keys as the documented error, with the problem as its message.
    expect(Object.keys(body as object).sort()).toEqual(Object.keys(c.errors.invalid_request.body as object).sort());
    expect(JSON.stringify(body)).toContain(`${field} is required`);
  });

  it('checks OpenAI strict structured output schemas and Anthropic tool_choice the way the APIs do', async () => {
    server = await startStandIn('openai', { key: KEY, fallback: { success: true } });
    const c = server.canonical;
    const [url, init] = exampleRequest(c, server.url, { key: KEY });
    const body = JSON.parse(init.body as string) as { response_format: { json_schema: { schema: { additionalProperties?: boolean } } } };
    delete body.response_format.json_schema.schema.additionalProperties;
    const response = await fetch(url, { ...init, body: JSON.stringify(body) });
    expect(response.status).toBe(400);
    expect(server.problems().join('\n')).toContain('additionalProperties must be false in strict mode');
    await server.close();

    server = await startStandIn('anthropic', { key: KEY, fallback: { success: true } });
    const a = server.canonical;
    const [aurl, ainit] = exampleRequest(a, server.url, { key: KEY });
    const abody = JSON.parse(ainit.body as string) as { tool_choice: { name: string } };
    abody.tool_choice.name = 'other_tool';
    expect((await fetch(aurl, { ...ainit, body: JSON.stringify(abody) })).status).toBe(400);
    const headers = { ...(ainit.headers as Record<string, string>) };
    delete headers['anthropic-version'];
    expect((await fetch(aurl, { ...ainit, headers })).status).toBe(400);
    expect(server.problems().join('\n')).toMatch(/tool_choice.name 'other_tool'[\s\S]*header anthropic-version is required/);
  });

  it.each(ALL)('%s: the HTTP client reads the message out of every documented error body', async (provider) => {
    server = await startStandIn(provider, { key: KEY });
    const c = server.canonical;
    // On a clock never expired: only the stand-in's answer ends a request.
    const client = new JsonHttpClient({ retries: 0, baseDelayMs: 1, maxDelayMs: 10, timeoutMs: 2000 }, new TestClock());
    for (const [name, error] of Object.entries(c.errors)) {
      server.script({ error: name });
      const [url, init] = exampleRequest(c, server.url, { key: KEY });
      const failure = await client
        .request({
          provider,
          method: c.request.method,
          url: new URL(url),
          headers: init.headers as Record<string, string>,
          ...(init.body ? { body: JSON.parse(init.body as string) } : {}),
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(failure, name).toBeInstanceOf(ProviderError);
      expect((failure as ProviderError).status).toBe(error.status);
      const documented = JSON.stringify(error.body ?? '').match(/"(?:message|error|detail)":"([^"]{8,})"/)?.[1];
      if (documented) expect((failure as ProviderError).message, name).toContain(documented.slice(0, 40));
    }
  });
});

describe('held responses: nothing answered until the test says, or the client goes away', () => {
  const post = (c: Canonical, base: string, signal?: AbortSignal) => {
    const [url, init] = exampleRequest(c, base, { key: KEY });
    return fetch(url, { ...init, ...(signal ? { signal } : {}) });
  };

  it('hold: arrived(n) resolves while the request is held; release() answers with `then`', async () => {
    server = await startStandIn('openai', { key: KEY });
    server.script({ hold: true, then: { success: true } });
    const answer = post(server.canonical, server.url);
    const held = await server.arrived(1);
    expect(held.answered).toBeUndefined();
    server.release();
    expect((await answer).status).toBe(200);
    await server.settled();
    expect(held.answered).toBe(200);
  });

  it('hold: a client that goes away is recorded as dropped, and settled() waits for it', async () => {
    server = await startStandIn('openai', { key: KEY });
    server.script({ hold: true });
    const controller = new AbortController();
    const answer = post(server.canonical, server.url, controller.signal).catch((e: unknown) => e);
    await server.arrived(1);
    controller.abort();
    expect(await answer).toBeInstanceOf(Error);
    await server.settled();
    expect(server.requests.map((r) => r.answered)).toEqual(['dropped']);
  });

  it('holdBody: the headers and half the body, and the rest on release()', async () => {
    server = await startStandIn('openai', { key: KEY });
    server.script({ holdBody: true });
    const response = await post(server.canonical, server.url);
    expect(response.status).toBe(200);
    const body = response.text();
    server.release();
    expect(Object.keys(JSON.parse(await body) as object).sort()).toEqual(Object.keys(server.canonical.success.body).sort());
    await server.settled();
    expect(server.requests.map((r) => r.answered)).toEqual([200]);
  });
});
