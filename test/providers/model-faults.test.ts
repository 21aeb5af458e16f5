// Model provider faults end to end through the CLI (in-process, on a TestClock): timeouts,
// truncated and dropped bodies, outages, bad keys and malformed answers. A provider that fails for
// good never fails the answer: it is made offline from the same pages, with a note saying so.
// A time-out here is an event: the stand-in holds the response (or its body half-way) and the test
// expires the clock once the request is in, so a slow machine cannot turn one outcome into another.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type StandIn, startStandIn, userText } from './stand-ins.js';
import type { Trace } from '../../src/answer/trace.js';
import { TestClock } from '../helpers/test-clock.js';
import { EXAMPLE_WIKI, INSTALL_CLAIM, INSTALL_PAGE, INSTALL_QUESTION, KEYS, askCli, askInProcess, expectNoKeys, runAsk } from './support.js';

const ANSWER = { claims: [INSTALL_CLAIM], covered: true, uncovered: [] };
const OFFLINE_NOTE = /^The model provider failed \((.*)\); this answer was made offline from the same pages\.$/;

let openai: StandIn;
beforeAll(async () => {
  openai = await startStandIn('openai', { key: KEYS.OPENAI_API_KEY });
});
afterAll(() => openai.close());
beforeEach(() => {
  openai.reset().setFallback(undefined);
});

const flags = () => ['--llm', 'openai', '--llm-base-url', `${openai.url}/v1`, '--llm-model', 'gpt-test'];
/**
 * The CLI's own policy: 3 retries, answerer.timeout_ms 60 s per attempt (passed only when a test
 * expires it), under the question's deadline, answerer.deadline_ms 5 min (armed first, and left alone).
 */
const env = { OPENAI_API_KEY: KEYS.OPENAI_API_KEY };
const TIMEOUT_MS = 60_000;
const DEADLINE_MS = 300_000;

/** The offline answer made after a provider failure: not an error, cites the wiki, says why. */
function expectOfflineFallback(
  trace: { outcome: string; notes: string[]; citations: unknown[]; answer: string; answerer: string; provider_fault?: string },
  reason: RegExp,
): void {
  expect(trace.outcome).not.toBe('error');
  expect(trace.outcome).toBe('answered');
  expect(trace.answerer).toBe('openai:gpt-test');
  expect(trace.citations.length).toBeGreaterThan(0);
  const note = trace.notes.find((n) => OFFLINE_NOTE.test(n));
  expect(note, `notes: ${JSON.stringify(trace.notes)}`).toBeDefined();
  expect(OFFLINE_NOTE.exec(note!)![1]).toMatch(reason);
  expect(trace.answer).toContain('_Note: The model provider failed');
  expect(trace.provider_fault).toBe(OFFLINE_NOTE.exec(note!)![1]);
}

/**
 * A watch on fetch: resolves once the client has its `count`-th response's headers and is reading
 * its body (has taken the body's reader), whatever the body then does.
 */
function watchBodyReads(): (count: number) => Promise<void> {
  const realFetch = globalThis.fetch;
  let reading = 0;
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (...args: Parameters<typeof fetch>) => {
    const response = await realFetch(...args);
    const body = response.body;
    if (!body) return response;
    const getReader = body.getReader.bind(body);
    Object.defineProperty(body, 'getReader', {
      value: () => {
        const reader = getReader();
        reading++;
        for (const w of waiters.filter((w) => reading >= w.count)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
        return reader;
      },
    });
    return response;
  });
  return (count) => (reading >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })));
}

describe('timeouts', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('an attempt slower than the timeout is abandoned and retried', async () => {
    openai.script({ hold: true }, { reply: ANSWER });
    const clock = new TestClock();
    const asked = askCli(INSTALL_QUESTION, flags(), env, EXAMPLE_WIKI, clock);
    await openai.arrived(1);
    clock.expire(TIMEOUT_MS); // the first attempt's time-out passes while the stand-in holds its answer
    const { trace } = await asked;
    await openai.settled();
    expect(openai.requests.map((r) => r.answered)).toEqual(['dropped', 200]);
    expect(trace).toMatchObject({ outcome: 'answered', notes: [] });
    expect(trace.provider_calls).toEqual([expect.objectContaining({ status: 200, retries: 1 })]);
    // Exactly one retry, after one back-off, each attempt under the configured time-out.
    expect(clock.timeouts).toEqual([DEADLINE_MS, TIMEOUT_MS, TIMEOUT_MS]);
    expect(clock.sleeps).toHaveLength(1);
  });

  it('every attempt timing out: the offline answer, with a note, and the timeout in provider_calls', async () => {
    openai.setFallback({ hold: true });
    const clock = new TestClock();
    const asked = askCli(INSTALL_QUESTION, flags(), env, EXAMPLE_WIKI, clock);
    for (let n = 1; n <= 4; n++) {
      await openai.arrived(n);
      clock.expire(TIMEOUT_MS);
    }
    const { trace } = await asked;
    await openai.settled();
    expect(openai.requests.map((r) => r.answered)).toEqual(['dropped', 'dropped', 'dropped', 'dropped']);
    expectOfflineFallback(trace, /^openai: no answer within 60000 ms \(after 4 attempts\)$/);
    expect(trace.provider_calls).toEqual([expect.objectContaining({ provider: 'openai', status: 'timeout', retries: 3 })]);
    expect(clock.sleeps).toHaveLength(3);
  });

  it('a body that stalls half-way past the timeout is a timeout too (retried, then the answer)', async () => {
    openai.script({ holdBody: true }, { reply: ANSWER });
    const reading = watchBodyReads();
    const clock = new TestClock();
    const asked = runAsk(['--wiki', EXAMPLE_WIKI, '--json', ...flags(), INSTALL_QUESTION], env, EXAMPLE_WIKI, clock);
    // The headers and half the body are in the client's hands, and it is reading; the rest never comes.
    await reading(1);
    clock.expire(TIMEOUT_MS);
    const run = await asked;
    await openai.settled();
    const trace = JSON.parse(run.stdout) as Trace;
    expect(trace.error).toBeUndefined();
    expect(trace.outcome).toBe('answered');
    expect(trace.provider_calls).toEqual([expect.objectContaining({ status: 200, retries: 1 })]);
    expect(openai.requests.map((r) => r.answered)).toEqual(['dropped', 200]);
    expect(clock.timeouts).toEqual([DEADLINE_MS, TIMEOUT_MS, TIMEOUT_MS]);
    expect(run.code).toBe(0);
  });
  it('a body that stalls half-way on every attempt: reported as the time-out it is, then the offline answer', async () => {
    openai.setFallback({ holdBody: true });
    const reading = watchBodyReads();
    const clock = new TestClock();
    const asked = askCli(INSTALL_QUESTION, flags(), env, EXAMPLE_WIKI, clock);
    for (let n = 1; n <= 4; n++) {
      await reading(n);
      clock.expire(TIMEOUT_MS);
    }
    const { trace } = await asked;
    expectOfflineFallback(trace, /^openai: no answer within 60000 ms \(after 4 attempts\)$/);
    expect(trace.provider_calls).toEqual([expect.objectContaining({ status: 'timeout', retries: 3 })]);
  });
});

describe('broken bodies', () => {
  it('a truncated JSON body is retried', async () => {
    openai.script({ truncated: true }, { reply: ANSWER });
    const { trace } = await askCli(INSTALL_QUESTION, flags(), env);
    expect(openai.requests.map((r) => r.answered)).toEqual([200, 200]);
    expect(trace).toMatchObject({ outcome: 'answered', notes: [] });
    expect(trace.provider_calls).toEqual([expect.objectContaining({ status: 200, retries: 1 })]);
  });

  it('truncated every time: the offline answer with a note', async () => {
    openai.setFallback({ truncated: true });
    const { trace } = await askCli(INSTALL_QUESTION, flags(), env);
    expect(openai.requests).toHaveLength(4);
    expectOfflineFallback(trace, /^openai: answered 200 with a body that is not JSON$/);
  });

  it('a connection that drops half-way through the body is retried like any network fault', async () => {
    // (undici hands back the part that arrived; it is not JSON, so the attempt is retried.)
    openai.script({ dropMidBody: true }, { reply: ANSWER });
    const { trace } = await askCli(INSTALL_QUESTION, flags(), env);
    expect(trace.outcome, trace.error).toBe('answered');
    expect(trace.provider_calls).toEqual([expect.objectContaining({ status: 200, retries: 1 })]);
  });
});

describe('outages and refusals', () => {
  it('503 on every attempt: retried, then the offline answer with a note (outcome is not error)', async () => {
    openai.setFallback({ error: 'overloaded' });
    const { trace } = await askCli(INSTALL_QUESTION, flags(), env);
    expect(openai.requests).toHaveLength(4);
    expectOfflineFallback(trace, /^openai: HTTP 503: The engine is currently overloaded, please try again later\.$/);
    expect(trace.provider_calls).toEqual([expect.objectContaining({ provider: 'openai', status: 503, retries: 3 })]);
    expect(trace.citations).toContainEqual(expect.objectContaining({ path: INSTALL_PAGE }));
  });

  it('nothing listening at the base URL: network errors, retried, then offline', async () => {
    const gone = await startStandIn('openai');
    const url = gone.url;
    await gone.close();
    const { trace } = await askCli(INSTALL_QUESTION, ['--llm', 'openai', '--llm-base-url', `${url}/v1`, '--llm-model', 'gpt-test'], env);
    expectOfflineFallback(trace, /^openai: network error after 4 attempts: /);
    expect(trace.provider_calls).toEqual([expect.objectContaining({ status: 'network-error', retries: 3 })]);
  });

  it('a rejected key (401) is not retried: offline at once, and the key appears nowhere', async () => {
    const { trace, stdout, stderr } = await askCli(INSTALL_QUESTION, flags(), { ...env, OPENAI_API_KEY: `${KEYS.OPENAI_API_KEY}-revoked` });
    expect(openai.requests.map((r) => r.answered)).toEqual([401]);
    expectOfflineFallback(trace, /^openai: HTTP 401: Incorrect API key provided/);
    expectNoKeys(stdout, stderr);
    expect(stdout + stderr).not.toContain(`${KEYS.OPENAI_API_KEY}-revoked`);
  });

  it('a 429 whose retry-after is longer than we wait is not slept on', async () => {
    // retry-after 3600 s exceeds maxDelayMs (30 s): the client gives up at once instead of hanging.
    openai.setFallback({ error: 'rate_limited', headers: { 'retry-after': '3600' } });
    const { trace, clock } = await askCli(INSTALL_QUESTION, flags(), env);
    expect(openai.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    expectOfflineFallback(trace, /^openai: HTTP 429: Rate limit reached/);
  });
});

describe('malformed answers', () => {
  it('not JSON twice: exactly one repair request naming the fault, then the offline answer with a note', async () => {
    openai.script(
      { reply: 'Sure! The hook is installed with npx.', usage: { input: 500, output: 9 } },
      { reply: 'I said: npx wiki-steward hooks install', usage: { input: 520, output: 10 } },
    );
    const { trace } = await askCli(INSTALL_QUESTION, flags(), env);
    expect(openai.requests).toHaveLength(2);
    const repair = userText(openai.requests[1]!);
    expect(repair.startsWith(userText(openai.requests[0]!))).toBe(true);
    expect(repair).toMatch(/Your previous reply could not be used: not JSON \(.*\)\. Reply again with one JSON object that follows the schema exactly\.$/);
    expectOfflineFallback(trace, /^openai: malformed answer after one repair attempt: not JSON/);
    expect(trace.tokens).toEqual({ input: 1020, output: 19, counted: 'provider' });
  });

  it('a reply repaired on the second try is used', async () => {
    openai.script({ reply: '{"claims": [' }, { reply: ANSWER });
    const { trace } = await askCli(INSTALL_QUESTION, flags(), env);
    expect(openai.requests).toHaveLength(2);
    expect(trace).toMatchObject({ outcome: 'answered', notes: [] });
    expect(trace.citations).toEqual([{ path: INSTALL_PAGE, lines: [18, 18], quote: INSTALL_CLAIM.citations[0]!.quote }]);
  });

  it('a citation missing its lines is a schema fault, repaired once', async () => {
    openai.script({ reply: { claims: [{ text: 'x', citations: [{ path: INSTALL_PAGE, quote: 'y' }] }], covered: true, uncovered: [] } }, { reply: ANSWER });
    const { trace } = await askCli(INSTALL_QUESTION, flags(), env);
    expect(userText(openai.requests[1]!)).toContain('claims[0].citations[0] needs "path", "start_line", "end_line" and "quote"');
    expect(trace.outcome).toBe('answered');
  });
});

describe('in process, with a retry policy of its own', () => {
  it('createProviders({ retry }) drives the same fallback without the CLI', async () => {
    openai.setFallback({ error: 'server_error' });
    const trace = await askInProcess(INSTALL_QUESTION, {
      llm: 'openai',
      llmBaseUrl: `${openai.url}/v1`,
      llmModel: 'gpt-test',
      web: 'none',
      env: { OPENAI_API_KEY: KEYS.OPENAI_API_KEY },
    });
    expect(openai.requests).toHaveLength(3); // retries: 2
    expectOfflineFallback(trace, /^openai: HTTP 500: The server had an error/);
    expectNoKeys(JSON.stringify(trace));
  });
});
