// `ask --llm openai` end to end through the CLI against the OpenAI stand-in: the request has the
// documented shape, the answer is parsed and its citations verified, the trace counts the calls
// and their tokens, and retry-after, 5xx and servers without structured output are handled.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_BUDGET, ModelAnswerer, estimateTokens } from '../../src/answer/model/model-answerer.js';
import { OpenAiChatModel } from '../../src/answer/model/openai-chat.js';
import { JsonHttpClient } from '../../src/net/http-json.js';
import { type StandIn, pagesSent, readerReply, readerStep, startStandIn, systemText, userText } from './stand-ins.js';
import { INSTALL_CLAIM, INSTALL_PAGE, INSTALL_QUESTION, INSTALL_QUOTE, KEYS, askCli, expectNoKeys } from './support.js';

let openai: StandIn;
beforeAll(async () => {
  openai = await startStandIn('openai', { key: KEYS.OPENAI_API_KEY });
});
afterAll(() => openai.close());
beforeEach(() => {
  openai.reset();
  openai.setFallback(undefined);
});

const flags = () => ['--llm', 'openai', '--llm-base-url', `${openai.url}/v1`, '--llm-model', 'gpt-test'];
const env = { OPENAI_API_KEY: KEYS.OPENAI_API_KEY };

describe('ask --llm openai', () => {
  it('sends the documented request and answers with verified citations, calls and tokens in the trace', async () => {
    openai.script({ reply: { claims: [INSTALL_CLAIM], covered: true, uncovered: [] }, usage: { input: 1234, output: 56 } });
    const { trace, stdout, stderr } = await askCli(INSTALL_QUESTION, flags(), env);

    expect(openai.problems()).toEqual([]);
    expect(openai.requests).toHaveLength(1);
    const [req] = openai.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(req!.headers.authorization).toBe(`Bearer ${KEYS.OPENAI_API_KEY}`);
    expect(req!.headers['content-type']).toMatch(/^application\/json/);
    expect(req!.body).toMatchObject({
      model: 'gpt-test',
      max_tokens: expect.any(Number),
      messages: [{ role: 'system' }, { role: 'user' }],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'wiki_answer', strict: true, schema: { type: 'object', required: ['claims', 'covered', 'uncovered'] } },
      },
    });
    // The pages travel as numbered data inside delimiters, the question inside its own.
    expect(systemText(req!)).toMatch(/DATA between <question> and <page> tags/);
    const user = userText(req!);
    expect(user).toContain(`<question>\n${INSTALL_QUESTION}\n</question>`);
    const sent = pagesSent(user);
    expect(sent.map((p) => p.path)).toEqual(trace.read);
    expect(sent.find((p) => p.path === INSTALL_PAGE)!.lines.get(18)).toBe(INSTALL_QUOTE);

    expect(trace).toMatchObject({ branch: 'inline', outcome: 'answered', answerer: 'openai:gpt-test', violations: [], notes: [] });
    expect(trace.citations).toEqual([{ path: INSTALL_PAGE, lines: [18, 18], quote: INSTALL_QUOTE }]);
    expect(trace.answer).toContain('From the wiki:');
    expect(trace.answer).toContain(`\`${INSTALL_PAGE}\` line 18`);
    expect(trace.provider_calls).toEqual([
      { provider: 'openai', request: 'POST /v1/chat/completions', status: 200, retries: 0, ms: expect.any(Number), tokens: { input: 1234, output: 56 } },
    ]);
    expect(trace.tokens).toEqual({ input: 1234, output: 56, counted: 'provider' });
    expectNoKeys(stdout, stderr);
  });

  it('explores pages that fit one call in one call: no merge, every call and token in the trace', async () => {
    openai.setFallback(readerStep);
    const { trace } = await askCli('How do providers, answerers, web search, captures, labels and indexes work together?', flags(), env);
    expect(openai.problems()).toEqual([]);
    expect(trace.branch).toBe('explore');
    expect(trace.read.length).toBeGreaterThan(8);
    // Every page read goes in the one call, in rank order; nothing is merged.
    expect(openai.requests).toHaveLength(1);
    expect(pagesSent(userText(openai.requests[0]!)).map((p) => p.path)).toEqual(trace.read);
    expect(userText(openai.requests[0]!)).not.toContain('<partial');
    expect(trace.outcome).toBe('answered');
    expect(trace.violations).toEqual([]);
    expect(new Set(trace.citations.map((c) => ('path' in c ? c.path : c.url)))).toEqual(new Set(trace.read));
    expect(trace.provider_calls).toHaveLength(1);
    expect(trace.provider_calls[0]).toMatchObject({ provider: 'openai', status: 200, tokens: { input: expect.any(Number), output: expect.any(Number) } });
    expect(trace.tokens).toEqual({ ...trace.provider_calls[0]!.tokens, counted: 'provider' });
  });

  it('explores pages that do not fit one call map/reduce: calls filled in rank order up to batchTokens, then a merge', async () => {
    // The merge reply must fit the schema when a model does what the merge prompt says: "keep
    // each claim's citations exactly as given".
    openai.setFallback((r) => ({ reply: readerReply(r, { literal: true }) }));
    const model = new ModelAnswerer(new OpenAiChatModel(new JsonHttpClient(), `${openai.url}/v1`, 'gpt-test', KEYS.OPENAI_API_KEY), {
      ...DEFAULT_MODEL_BUDGET,
      batchTokens: 400,
    });
    const line = (n: number) => `Page ${n} says the retry budget is ${n} attempts.`;
    const pages = new Map(Array.from({ length: 10 }, (_, n) => [`p${n}.md`, `# Page ${n}\n\n${line(n)}\n`]));
    const terms = [{ term: 'retry', kind: 'word' as const }];
    const answer = await model.answer({ question: 'What is the retry budget?', branch: 'explore', terms, pages });
    const maps = openai.requests.slice(0, -1);
    expect(maps.length).toBeGreaterThan(1);
    // Each map call stays within batchTokens and carries the next pages in rank order; all are read.
    for (const r of maps) expect(estimateTokens(systemText(r)) + estimateTokens(userText(r))).toBeLessThanOrEqual(400);
    expect(maps.flatMap((r) => pagesSent(userText(r)).map((p) => p.path))).toEqual([...pages.keys()]);
    expect(answer.read).toEqual([...pages.keys()]);
    expect(answer.unread).toEqual([]);
    const merge = openai.requests.at(-1)!;
    expect(pagesSent(userText(merge))).toEqual([]);
    const partial = JSON.parse(/<partial n="1">\n(.*)\n<\/partial>/.exec(userText(merge))![1]!) as { claims: Array<{ citations: object[] }> };
    expect(partial.claims[0]!.citations[0]).toEqual({
      path: expect.any(String),
      start_line: expect.any(Number),
      end_line: expect.any(Number),
      quote: expect.any(String),
    });
    expect(answer.notes).toBeUndefined();
    expect(answer.claims.length).toBeGreaterThan(0);
  });

  it('honours retry-after on a 429: waits the second it asks for, then succeeds, one retry recorded', async () => {
    openai.script({ error: 'rate_limited', headers: { 'retry-after': '1' } }, { reply: { claims: [INSTALL_CLAIM], covered: true, uncovered: [] } });
    const { trace, clock } = await askCli(INSTALL_QUESTION, flags(), env);
    expect(openai.requests).toHaveLength(2);
    // The one wait between the attempts is the second asked for, on the run's clock.
    expect(clock.sleeps).toEqual([1000]);
    expect(trace.outcome).toBe('answered');
    expect(trace.provider_calls).toEqual([expect.objectContaining({ provider: 'openai', status: 200, retries: 1 })]);
    expect(trace.provider_calls[0]!.ms).toBe(1000);
  });

  it('retries a 500 and answers from the second attempt', async () => {
    openai.script({ error: 'server_error' }, { reply: { claims: [INSTALL_CLAIM], covered: true, uncovered: [] } });
    const { trace, clock } = await askCli(INSTALL_QUESTION, flags(), env);
    expect(openai.requests.map((r) => r.answered)).toEqual([500, 200]);
    expect(clock.sleeps).toHaveLength(1); // one back-off
    expect(trace).toMatchObject({ outcome: 'answered', notes: [] });
    expect(trace.provider_calls).toEqual([expect.objectContaining({ status: 200, retries: 1 })]);
  });

  it('falls back to the schema in the prompt when a server refuses response_format', async () => {
    openai.script(
      { error: 'response_format_unsupported' },
      { reply: '```json\n' + JSON.stringify({ claims: [INSTALL_CLAIM], covered: true, uncovered: [] }) + '\n```' },
    );
    const { trace } = await askCli(INSTALL_QUESTION, flags(), env);
    expect(openai.requests).toHaveLength(2);
    expect(openai.requests[0]!.body).toHaveProperty('response_format');
    expect(openai.requests[1]!.body).not.toHaveProperty('response_format');
    expect(userText(openai.requests[1]!)).toContain('matching this JSON schema');
    expect(trace.outcome).toBe('answered');
    expect(trace.citations).toEqual([{ path: INSTALL_PAGE, lines: [18, 18], quote: INSTALL_QUOTE }]);
  });

  it('talks to a local server that needs no key (no Authorization header at all)', async () => {
    const local = await startStandIn('openai', { requireAuth: false });
    try {
      local.script({ reply: { claims: [INSTALL_CLAIM], covered: true, uncovered: [] } });
      const { trace } = await askCli(INSTALL_QUESTION, ['--llm', 'openai', '--llm-base-url', `${local.url}/v1`, '--llm-model', 'llama3.1'], {});
      expect(local.problems()).toEqual([]);
      expect(local.requests[0]!.headers.authorization).toBeUndefined();
      expect(trace).toMatchObject({ outcome: 'answered', answerer: 'openai:llama3.1' });
    } finally {
      await local.close();
    }
  });

  it('a model refusal falls back to the offline answer with a note', async () => {
    openai.script({ reply: '', refusal: 'I cannot help with that.' });
    const { trace } = await askCli(INSTALL_QUESTION, flags(), env);
    expect(openai.requests).toHaveLength(1);
    expect(trace.outcome).toBe('answered');
    expect(trace.notes.join('\n')).toMatch(/model provider failed \(openai: the model refused: I cannot help with that\.\); this answer was made offline/);
    expect(trace.citations.length).toBeGreaterThan(0);
    expect(trace.answer).toContain('_Note: The model provider failed');
  });
});
