// `ask --llm anthropic` end to end through the CLI against the Anthropic Messages stand-in: the
// documented headers and body, the answer read from the forced tool call, tokens from usage, and
// the documented 429/529 faults.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type StandIn, pagesSent, startStandIn, systemText, userText } from './stand-ins.js';
import { INSTALL_CLAIM, INSTALL_PAGE, INSTALL_QUESTION, INSTALL_QUOTE, KEYS, askCli, expectNoKeys } from './support.js';

let anthropic: StandIn;
beforeAll(async () => {
  anthropic = await startStandIn('anthropic', { key: KEYS.ANTHROPIC_API_KEY });
});
afterAll(() => anthropic.close());
beforeEach(() => {
  anthropic.reset();
  anthropic.setFallback(undefined);
});

// Anthropic's base URL is given without /v1 (the client adds v1/messages).
const flags = () => ['--llm', 'anthropic', '--llm-base-url', anthropic.url, '--llm-model', 'claude-test'];
const env = { ANTHROPIC_API_KEY: KEYS.ANTHROPIC_API_KEY };
const ANSWER = { claims: [INSTALL_CLAIM], covered: true, uncovered: [] };

describe('ask --llm anthropic', () => {
  it('sends the documented Messages request and reads the answer from the forced tool call', async () => {
    anthropic.script({ reply: ANSWER, usage: { input: 2095, output: 503 } });
    const { trace, stdout, stderr } = await askCli(INSTALL_QUESTION, flags(), env);

    expect(anthropic.problems()).toEqual([]);
    expect(anthropic.requests).toHaveLength(1);
    const [req] = anthropic.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/v1/messages' });
    expect(req!.headers['x-api-key']).toBe(KEYS.ANTHROPIC_API_KEY);
    expect(req!.headers['anthropic-version']).toBe('2023-06-01');
    expect(req!.headers.authorization).toBeUndefined();
    expect(req!.body).toMatchObject({
      model: 'claude-test',
      max_tokens: expect.any(Number),
      system: expect.stringContaining('DATA between <question> and <page> tags'),
      messages: [{ role: 'user', content: expect.stringContaining('<question>') }],
      tools: [{ name: 'wiki_answer', input_schema: { type: 'object', required: ['claims', 'covered', 'uncovered'] } }],
      tool_choice: { type: 'tool', name: 'wiki_answer' },
    });
    expect(systemText(req!)).not.toContain('<page path=');
    expect(pagesSent(userText(req!)).map((p) => p.path)).toEqual(trace.read);

    expect(trace).toMatchObject({ outcome: 'answered', answerer: 'anthropic:claude-test', violations: [], notes: [] });
    expect(trace.citations).toEqual([{ path: INSTALL_PAGE, lines: [18, 18], quote: INSTALL_QUOTE }]);
    expect(trace.provider_calls).toEqual([
      { provider: 'anthropic', request: 'POST /v1/messages', status: 200, retries: 0, ms: expect.any(Number), tokens: { input: 2095, output: 503 } },
    ]);
    expect(trace.tokens).toEqual({ input: 2095, output: 503, counted: 'provider' });
    expectNoKeys(stdout, stderr);
  });

  it('retries a 529 overloaded_error, then answers', async () => {
    anthropic.script({ error: 'overloaded' }, { reply: ANSWER });
    const { trace, clock } = await askCli(INSTALL_QUESTION, flags(), env);
    expect(anthropic.requests.map((r) => r.answered)).toEqual([529, 200]);
    expect(clock.sleeps).toHaveLength(1); // one back-off
    expect(trace).toMatchObject({ outcome: 'answered', notes: [] });
    expect(trace.provider_calls).toEqual([expect.objectContaining({ status: 200, retries: 1 })]);
  });

  it('honours retry-after on a 429 rate_limit_error', async () => {
    anthropic.script({ error: 'rate_limited', headers: { 'retry-after': '1' } }, { reply: ANSWER });
    const { trace, clock } = await askCli(INSTALL_QUESTION, flags(), env);
    expect(anthropic.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([1000]);
    expect(trace.provider_calls).toEqual([expect.objectContaining({ status: 200, retries: 1 })]);
  });

  it('a tool call that breaks the schema twice: one repair request, then the offline answer with a note', async () => {
    anthropic.script(
      { reply: { claims: 'none', covered: 'yes' }, usage: { input: 100, output: 10 } },
      { reply: { answer: 'still wrong' }, usage: { input: 120, output: 12 } },
    );
    const { trace } = await askCli(INSTALL_QUESTION, flags(), env);
    expect(anthropic.requests).toHaveLength(2);
    expect(userText(anthropic.requests[1]!)).toContain('Your previous reply could not be used: "claims" must be an array.');
    expect(trace.outcome).not.toBe('error');
    expect(trace.outcome).toBe('answered');
    expect(trace.notes.join('\n')).toMatch(
      /The model provider failed \(anthropic: malformed answer after one repair attempt: "claims" must be an array\); this answer was made offline from the same pages\./,
    );
    // Both calls, and what they cost, are still in the trace.
    expect(trace.provider_calls.map((c) => c.tokens)).toEqual([
      { input: 100, output: 10 },
      { input: 120, output: 12 },
    ]);
    expect(trace.tokens).toEqual({ input: 220, output: 22, counted: 'provider' });
  });

  it('takes a JSON text reply when the model answered in text instead of the tool', async () => {
    anthropic.script({ reply: JSON.stringify(ANSWER) });
    const { trace } = await askCli(INSTALL_QUESTION, flags(), env);
    expect(trace).toMatchObject({ outcome: 'answered', notes: [] });
    expect(trace.citations).toEqual([{ path: INSTALL_PAGE, lines: [18, 18], quote: INSTALL_QUOTE }]);
  });
});
