// The waits the steward makes on purpose: the test-only switch that shortens them, and the Clock
// every provider wait runs on, driven here by a TestClock against a real local HTTP server.
import { type ServerResponse, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaledSleeps } from '../../src/net/clock.js';
import { JsonHttpClient, ProviderError, TEST_WAIT_SCALE, testWaitScale } from '../../src/net/http-json.js';
import { TestClock } from '../helpers/test-clock.js';

type Step = 'hold' | '429' | '503' | 'ok';

/**
 * A real local server that answers each request as the next step of its plan ('hold' never
 * answers: only a time-out or the deadline ends it), then 200 `{"ok":true}`; `whenArrived(n)`
 * resolves once n requests of the current plan are in.
 */
function plannedServer() {
  let server: Server | undefined;
  let url: URL | undefined;
  let plan: Step[] = [];
  let arrived = 0;
  const arrivals: Array<() => void> = [];
  const json = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
  return {
    async start(): Promise<void> {
      server = createServer((_req, res) => {
        arrived++;
        for (const notify of arrivals.splice(0)) notify();
        const step = plan.shift() ?? 'ok';
        if (step === '429') json(res, 429, '{"error":"slow down"}', { 'retry-after': '7' });
        else if (step === '503') json(res, 503, '{"error":"overloaded"}');
        else if (step === 'ok') json(res, 200, '{"ok":true}');
      });
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/x`);
    },
    async close(): Promise<void> {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
    },
    run(steps: Step[]): void {
      plan = [...steps];
      arrived = 0;
    },
    whenArrived: (n: number) => new Promise<void>((resolve) => (arrived >= n ? resolve() : arrivals.push(() => arrived >= n && resolve()))),
    get url(): URL {
      return url!;
    },
    get arrived(): number {
      return arrived;
    },
  };
}

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
  const server = plannedServer();
  beforeAll(() => server.start());
  afterAll(() => server.close());

  it('an attempt held past its time-out is abandoned and retried once, after one back-off', async () => {
    server.run(['hold', 'ok']);
    const clock = new TestClock();
    const client = new JsonHttpClient({ retries: 3, baseDelayMs: 100, maxDelayMs: 10_000, timeoutMs: 5000 }, clock);
    const answer = client.request({ provider: 'test', method: 'POST', url: server.url, headers: {}, body: {} });
    await server.whenArrived(1);
    clock.expire();
    await expect(answer).resolves.toMatchObject({ status: 200, body: { ok: true }, call: { status: 200, retries: 1 } });
    expect(clock.timeouts).toEqual([5000, 5000]);
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(50);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(100);
  });

  it('every attempt timing out ends in a timeout error after retries + 1 attempts', async () => {
    server.run(['hold', 'hold', 'hold']);
    const clock = new TestClock();
    const client = new JsonHttpClient({ retries: 2, baseDelayMs: 100, maxDelayMs: 10_000, timeoutMs: 5000 }, clock);
    const answer = client.request({ provider: 'test', method: 'GET', url: server.url, headers: {} });
    for (let n = 1; n <= 3; n++) {
      await server.whenArrived(n);
      clock.expire();
    }
    const error = await answer.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe('test: no answer within 5000 ms (after 3 attempts)');
    expect(client.calls).toEqual([expect.objectContaining({ status: 'timeout', retries: 2 })]);
  });

  it("a deadline ends with its question: the client's next call is not bounded by it", async () => {
    server.run(['ok']);
    const clock = new TestClock();
    const client = new JsonHttpClient({ retries: 0, baseDelayMs: 100, maxDelayMs: 10_000, timeoutMs: 5000 }, clock);
    await client.underDeadline({ ms: 1000, what: 'the test deadline' }, async () => {
      clock.advance(1000);
      expect(client.deadline?.passed()).toBe(true);
    });
    expect(client.deadline).toBeUndefined();
    await expect(client.request({ provider: 'test', method: 'GET', url: server.url, headers: {} })).resolves.toMatchObject({ status: 200 });
  });

  it("a 429's retry-after is the wait, on the clock", async () => {
    server.run(['429', 'ok']);
    const clock = new TestClock();
    const client = new JsonHttpClient({ retries: 3, baseDelayMs: 100, maxDelayMs: 10_000, timeoutMs: 5000 }, clock);
    await expect(client.request({ provider: 'test', method: 'GET', url: server.url, headers: {} })).resolves.toMatchObject({
      status: 200,
      call: { retries: 1 },
    });
    expect(clock.sleeps).toEqual([7000]);
  });
});

describe('JsonHttpClient under a deadline (one question, on a TestClock)', () => {
  const server = plannedServer();
  beforeAll(() => server.start());
  afterAll(() => server.close());

  const POLICY = { retries: 3, baseDelayMs: 100, maxDelayMs: 10_000, timeoutMs: 5000 };
  const NAME = 'the test deadline';
  const faultOf = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e as ProviderError,
    );

  it('the deadline is one time-out, armed first; the call in flight is aborted when it passes, before its own time-out', async () => {
    server.run(['hold']);
    const clock = new TestClock();
    const client = new JsonHttpClient(POLICY, clock);
    const fault = await client.underDeadline({ ms: 3000, what: NAME }, async () => {
      const answer = faultOf(client.request({ provider: 'test', method: 'GET', url: server.url, headers: {} }));
      await server.whenArrived(1);
      clock.advance(3000); // the deadline, not the attempt's 5000 ms
      return answer;
    });
    expect(fault).toBeInstanceOf(ProviderError);
    expect(fault).toMatchObject({ status: 'deadline', retryable: false, message: `test: no answer by ${NAME} (after 1 attempt)` });
    expect(clock.timeouts).toEqual([3000, 5000]);
    expect(client.calls).toEqual([{ provider: 'test', request: 'GET /v1/x', status: 'deadline', retries: 0, ms: 3000 }]);
    expect(server.arrived).toBe(1);
  });

  it('once it has passed no call starts: refused at once, nothing sent, nothing recorded', async () => {
    server.run([]);
    const clock = new TestClock();
    const client = new JsonHttpClient(POLICY, clock);
    const fault = await client.underDeadline({ ms: 1000, what: NAME }, async () => {
      clock.advance(1000);
      return faultOf(client.request({ provider: 'test', method: 'POST', url: server.url, headers: {}, body: {} }));
    });
    expect(fault).toMatchObject({ status: 'deadline', message: `test: not asked: ${NAME} had passed` });
    expect(server.arrived).toBe(0);
    expect(client.calls).toEqual([]);
  });

  it('back-off counts against it: a wait that would end past it is not slept, and the call ends with the last fault', async () => {
    server.run(['429', '429', '429']);
    const clock = new TestClock();
    const client = new JsonHttpClient(POLICY, clock);
    // retry-after 7 s: the first wait fits in 10 s, the second (7 + 7 = 14 s) would not.
    const fault = await client.underDeadline({ ms: 10_000, what: NAME }, () =>
      faultOf(client.request({ provider: 'test', method: 'GET', url: server.url, headers: {} })),
    );
    expect(clock.sleeps).toEqual([7000]);
    expect(server.arrived).toBe(2);
    expect(fault).toMatchObject({
      status: 'deadline',
      message: `test: HTTP 429: slow down; not retried: the wait before the next attempt would end past ${NAME} (after 2 attempts)`,
    });
    expect(client.calls).toEqual([expect.objectContaining({ status: 'deadline', retries: 1, ms: 7000 })]);
  });

  it("a back-off that fits is slept, and the call's answer is kept", async () => {
    server.run(['503', 'ok']);
    const clock = new TestClock();
    const client = new JsonHttpClient(POLICY, clock);
    const answer = await client.underDeadline({ ms: 10_000, what: NAME }, () =>
      client.request({ provider: 'test', method: 'GET', url: server.url, headers: {} }),
    );
    expect(answer).toMatchObject({ status: 200, call: { status: 200, retries: 1 } });
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.now()).toBeLessThan(10_000);
  });
});
