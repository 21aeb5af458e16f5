// The waits the steward makes on purpose: the test-only switch that shortens them, and the Clock
// every provider wait runs on, driven here by a TestClock against a real local HTTP server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaledSleeps } from '../../src/net/clock.js';
import { JsonHttpClient, ProviderError, TEST_WAIT_SCALE, testWaitScale } from '../../src/net/http-json.js';
import { TestClock } from '../helpers/test-clock.js';

describe('WIKI_STEWARD_TEST_WAIT_SCALE', () => {
  it('is 1 when unset or empty, and the number given from 0 to 1', () => {
    expect(testWaitScale({})).toBe(1);
    expect(testWaitScale({ [TEST_WAIT_SCALE]: ' ' })).toBe(1);
    expect(testWaitScale({ [TEST_WAIT_SCALE]: '0' })).toBe(0);
    expect(testWaitScale({ [TEST_WAIT_SCALE]: '0.25' })).toBe(0.25);
  });

  it('names itself and the value when the value is not a number from 0 to 1', () => {
    for (const bad of ['2', '-1', 'fast', 'NaN']) {
      expect(() => testWaitScale({ [TEST_WAIT_SCALE]: bad })).toThrow(`${TEST_WAIT_SCALE} must be a number from 0 to 1, got '${bad}'`);
    }
  });

  it('is refused in a workflow that talks to github.com (GITHUB_API_URL unset or api.github.com)', () => {
    for (const api of [undefined, 'https://api.github.com', 'https://API.GitHub.com/']) {
      const env = { GITHUB_ACTIONS: 'true', [TEST_WAIT_SCALE]: '0', ...(api ? { GITHUB_API_URL: api } : {}) };
      expect(() => testWaitScale(env)).toThrow(
        /is a switch for test suites against a local GitHub emulator; it is refused in a workflow that talks to github\.com/,
      );
    }
  });

  it('is allowed against a local emulator or GitHub Enterprise Server, and outside a workflow', () => {
    expect(testWaitScale({ GITHUB_ACTIONS: 'true', GITHUB_API_URL: 'http://127.0.0.1:4010', [TEST_WAIT_SCALE]: '0' })).toBe(0);
    expect(testWaitScale({ GITHUB_ACTIONS: 'true', GITHUB_API_URL: 'https://ghe.example.com/api/v3', [TEST_WAIT_SCALE]: '0' })).toBe(0);
    expect(testWaitScale({ [TEST_WAIT_SCALE]: '0' })).toBe(0);
  });

  it('scales sleeps only: a time-out keeps its length', () => {
    const clock = new TestClock();
    const scaled = scaledSleeps(clock, 0.5);
    void scaled.sleep(1000);
    scaled.timeout(60_000);
    expect(clock.sleeps).toEqual([500]);
    expect(clock.timeouts).toEqual([60_000]);
  });
});

describe('JsonHttpClient on a TestClock', () => {
  let server: Server;
  let url: URL;
  /** What the server does with each request, in order; then it answers 200 `{"ok":true}`. */
  let plan: Array<'hold' | '429' | 'ok'> = [];
  let arrived = 0;
  const arrivals: Array<() => void> = [];
  const whenArrived = (n: number) => new Promise<void>((resolve) => (arrived >= n ? resolve() : arrivals.push(() => arrived >= n && resolve())));

  beforeAll(async () => {
    server = createServer((req, res) => {
      arrived++;
      for (const notify of arrivals.splice(0)) notify();
      const step = plan.shift() ?? 'ok';
      if (step === 'hold') return; // never answered: only the client's time-out ends it
      if (step === '429') {
        res.writeHead(429, { 'retry-after': '7', 'content-type': 'application/json' }).end('{"error":"slow down"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/x`);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('an attempt held past its time-out is abandoned and retried once, after one back-off', async () => {
    plan = ['hold', 'ok'];
    arrived = 0;
    const clock = new TestClock();
    const client = new JsonHttpClient({ retries: 3, baseDelayMs: 100, maxDelayMs: 10_000, timeoutMs: 5000 }, clock);
    const answer = client.request({ provider: 'test', method: 'POST', url, headers: {}, body: {} });
    await whenArrived(1);
    clock.expire();
    await expect(answer).resolves.toMatchObject({ status: 200, body: { ok: true }, call: { status: 200, retries: 1 } });
    expect(clock.timeouts).toEqual([5000, 5000]);
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(50);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(100);
  });

  it('every attempt timing out ends in a timeout error after retries + 1 attempts', async () => {
    plan = ['hold', 'hold', 'hold'];
    arrived = 0;
    const clock = new TestClock();
    const client = new JsonHttpClient({ retries: 2, baseDelayMs: 100, maxDelayMs: 10_000, timeoutMs: 5000 }, clock);
    const answer = client.request({ provider: 'test', method: 'GET', url, headers: {} });
    for (let n = 1; n <= 3; n++) {
      await whenArrived(n);
      clock.expire();
    }
    const error = await answer.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe('test: no answer within 5000 ms (after 3 attempts)');
    expect(client.calls).toEqual([expect.objectContaining({ status: 'timeout', retries: 2 })]);
  });

  it("a 429's retry-after is the wait, on the clock", async () => {
    plan = ['429', 'ok'];
    const clock = new TestClock();
    const client = new JsonHttpClient({ retries: 3, baseDelayMs: 100, maxDelayMs: 10_000, timeoutMs: 5000 }, clock);
    await expect(client.request({ provider: 'test', method: 'GET', url, headers: {} })).resolves.toMatchObject({ status: 200, call: { retries: 1 } });
    expect(clock.sleeps).toEqual([7000]);
  });
});
