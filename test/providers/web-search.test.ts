// `ask --web tavily|brave|searxng` end to end through the CLI: F (a cold question searches the
// question) and D (a gap searches what is missing), each provider's documented request, results
// cited as [title](url), and search faults reported as notes, never as a failed answer.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type StandIn, startStandIn } from './stand-ins.js';
import { INSTALL_CLAIM, INSTALL_QUESTION, KEYS, askCli, expectNoKeys } from './support.js';

const COLD = 'What is the capital of Australia?';
const CANBERRA = [
  {
    title: 'Canberra - Wikipedia',
    url: 'https://en.wikipedia.org/wiki/Canberra',
    content: 'Canberra is the capital city of Australia.',
    description: 'Canberra is the <strong>capital</strong> city of Australia.',
  },
  {
    title: 'Australian Capital Territory',
    url: 'https://www.act.gov.au/',
    content: 'The ACT is home to the national capital.',
    description: 'The ACT is home to the national <strong>capital</strong>.',
  },
  {
    title: 'Capital of Australia | Britannica',
    url: 'https://www.britannica.com/place/Canberra',
    content: 'Canberra, federal capital of the Commonwealth of Australia.',
    description: 'Canberra, federal capital of the Commonwealth of Australia.',
  },
  { title: 'A fourth result', url: 'https://example.org/fourth', content: 'Not asked for.', description: 'Not asked for.' },
];
const md = (r: { title: string; url: string }) => `[${r.title}](${r.url})`;

let tavily: StandIn;
let brave: StandIn;
let searxng: StandIn;
let openai: StandIn;
beforeAll(async () => {
  [tavily, brave, searxng, openai] = await Promise.all([
    startStandIn('tavily', { key: KEYS.TAVILY_API_KEY }),
    startStandIn('brave', { key: KEYS.BRAVE_API_KEY }),
    startStandIn('searxng'),
    startStandIn('openai', { key: KEYS.OPENAI_API_KEY }),
  ]);
});
afterAll(() => Promise.all([tavily, brave, searxng, openai].map((s) => s.close())));
beforeEach(() => {
  for (const s of [tavily, brave, searxng, openai]) s.reset().setFallback(undefined);
});

describe('F: a cold question searches the web', () => {
  it('tavily: POST /search with the bearer key; the results become [title](url) citations', async () => {
    tavily.script({ results: CANBERRA });
    const { trace, stdout, stderr } = await askCli(COLD, ['--web', 'tavily', '--web-base-url', tavily.url], { TAVILY_API_KEY: KEYS.TAVILY_API_KEY });
    expect(tavily.problems()).toEqual([]);
    expect(tavily.requests).toHaveLength(1);
    const [req] = tavily.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/search', body: { query: COLD, max_results: 3, search_depth: 'basic' } });
    expect(req!.headers.authorization).toBe(`Bearer ${KEYS.TAVILY_API_KEY}`);

    expect(trace).toMatchObject({ branch: 'cold', outcome: 'cold' });
    expect(trace.web_searches).toEqual([{ provider: 'tavily', query: COLD, results: 3 }]);
    expect(trace.citations).toEqual(CANBERRA.slice(0, 3).map((r) => ({ url: r.url, title: r.title })));
    expect(trace.answer).toContain('**From the web**');
    for (const r of CANBERRA.slice(0, 3)) expect(trace.answer).toContain(`- ${r.content} — ${md(r)}`);
    expect(trace.answer).not.toContain('example.org/fourth');
    expect(trace.provider_calls).toEqual([expect.objectContaining({ provider: 'tavily', request: 'POST /search', status: 200, retries: 0 })]);
    expect(trace.tokens).toEqual({ input: 0, output: 0 });
    expectNoKeys(stdout, stderr);
  });

  it('brave: GET /res/v1/web/search?q=&count= with X-Subscription-Token; markup stripped from descriptions', async () => {
    brave.script({ results: CANBERRA });
    const { trace, stdout } = await askCli(COLD, ['--web', 'brave', '--web-base-url', brave.url], { BRAVE_API_KEY: KEYS.BRAVE_API_KEY });
    expect(brave.problems()).toEqual([]);
    const [req] = brave.requests;
    expect(req).toMatchObject({ method: 'GET', path: '/res/v1/web/search', query: { q: COLD, count: '3' }, rawBody: '' });
    expect(req!.headers['x-subscription-token']).toBe(KEYS.BRAVE_API_KEY);
    expect(req!.headers.accept).toBe('application/json');
    expect(trace.web_searches).toEqual([{ provider: 'brave', query: COLD, results: 3 }]);
    expect(trace.answer).toContain(`- Canberra is the capital city of Australia. — ${md(CANBERRA[0]!)}`);
    expect(trace.answer).not.toContain('<strong>');
    // The trace names the path only: never the query string or the host.
    expect(trace.provider_calls).toEqual([expect.objectContaining({ provider: 'brave', request: 'GET /res/v1/web/search', status: 200 })]);
    expectNoKeys(stdout);
  });

  it('searxng: GET /search?q=&format=json at SEARXNG_URL, no key, at most 3 results kept', async () => {
    searxng.script({ results: CANBERRA });
    const { trace } = await askCli(COLD, ['--web', 'searxng'], { SEARXNG_URL: searxng.url });
    expect(searxng.problems()).toEqual([]);
    expect(searxng.requests[0]).toMatchObject({ method: 'GET', path: '/search', query: { q: COLD, format: 'json' } });
    expect(trace.web_searches).toEqual([{ provider: 'searxng', query: COLD, results: 3 }]);
    expect(trace.citations).toHaveLength(3);
    expect(trace.answer).toContain(md(CANBERRA[2]!));
  });

  it('keeps only http(s) results: a javascript: or file: URL is never cited', async () => {
    tavily.script({
      results: [
        { title: 'Click me', url: 'javascript:alert(document.cookie)', content: 'xss' },
        { title: 'Local file', url: 'file:///etc/passwd', content: 'root' },
        CANBERRA[0]!,
      ],
    });
    const { trace } = await askCli(COLD, ['--web', 'tavily', '--web-base-url', tavily.url], { TAVILY_API_KEY: KEYS.TAVILY_API_KEY });
    expect(trace.citations).toEqual([{ url: CANBERRA[0]!.url, title: CANBERRA[0]!.title }]);
    expect(trace.answer).not.toMatch(/javascript:|file:\/\//);
  });
});

describe('D: a gap searches what the wiki is missing', () => {
  it('with a model: one search per uncovered claim; wiki and web citations side by side', async () => {
    const uncovered = ['pre-commit hook on Windows without Git Bash', 'husky compatibility'];
    openai.script({ reply: { claims: [INSTALL_CLAIM], covered: false, uncovered }, usage: { input: 900, output: 80 } });
    tavily.script({ results: CANBERRA.slice(0, 2) }, { results: CANBERRA.slice(1, 3) });
    const { trace } = await askCli(
      INSTALL_QUESTION,
      ['--llm', 'openai', '--llm-base-url', `${openai.url}/v1`, '--llm-model', 'gpt-test', '--web', 'tavily', '--web-base-url', tavily.url],
      { OPENAI_API_KEY: KEYS.OPENAI_API_KEY, TAVILY_API_KEY: KEYS.TAVILY_API_KEY },
    );
    expect([...openai.problems(), ...tavily.problems()]).toEqual([]);
    expect(trace.outcome).toBe('gap');
    expect(trace.missing).toEqual(uncovered);
    expect(tavily.requests.map((r) => (r.body as { query: string }).query)).toEqual(uncovered);
    expect(trace.web_searches).toEqual(uncovered.map((query) => ({ provider: 'tavily', query, results: 2 })));
    // A URL two searches both returned is cited once.
    expect(trace.citations).toEqual([
      { path: INSTALL_CLAIM.citations[0]!.path, lines: [18, 18], quote: INSTALL_CLAIM.citations[0]!.quote },
      ...CANBERRA.slice(0, 3).map((r) => ({ url: r.url, title: r.title })),
    ]);
    expect(trace.violations).toEqual([]);
    expect(trace.answer).toMatch(/The wiki covers part of this:[\s\S]*\*\*Not in the wiki:\*\*[\s\S]*\*\*From the web\*\*/);
    expect(trace.provider_calls.map((c) => `${c.provider} ${c.request}`)).toEqual([
      'openai POST /v1/chat/completions',
      'tavily POST /search',
      'tavily POST /search',
    ]);
    expect(trace.tokens).toEqual({ input: 900, output: 80, counted: 'provider' });
  });

  it("keeps a long uncovered claim within Brave's documented query limits (400 characters, 50 words)", async () => {
    // A model's "uncovered" entries are free text; D sends each one as a search query.
    const long = Array.from({ length: 12 }, (_, i) => `the hook's behaviour on platform number ${i}`).join(', ');
    expect(long.length).toBeGreaterThan(400);
    openai.script({ reply: { claims: [INSTALL_CLAIM], covered: false, uncovered: [long] } });
    brave.script({ results: CANBERRA.slice(0, 1) });
    const { trace } = await askCli(
      INSTALL_QUESTION,
      ['--llm', 'openai', '--llm-base-url', `${openai.url}/v1`, '--llm-model', 'gpt-test', '--web', 'brave', '--web-base-url', brave.url],
      { OPENAI_API_KEY: KEYS.OPENAI_API_KEY, BRAVE_API_KEY: KEYS.BRAVE_API_KEY },
    );
    expect(brave.problems()).toEqual([]);
    expect(trace.web_searches).toEqual([expect.objectContaining({ provider: 'brave', results: 1 })]);
    expect(trace.web_searches[0]!.error).toBeUndefined();
  });

  it('offline: a gap searches the question itself', async () => {
    const question = 'How do I set `--max-citations` for the offline answerer?';
    brave.script({ results: CANBERRA.slice(0, 1) });
    const { trace } = await askCli(question, ['--web', 'brave', '--web-base-url', brave.url], { BRAVE_API_KEY: KEYS.BRAVE_API_KEY });
    expect(trace.outcome).toBe('gap');
    expect(brave.requests.map((r) => r.query.q)).toEqual([question]);
    expect(trace.web_searches).toEqual([{ provider: 'brave', query: question, results: 1 }]);
  });

  it('a covered answer searches nothing', async () => {
    const { trace } = await askCli(INSTALL_QUESTION, ['--web', 'tavily', '--web-base-url', tavily.url], { TAVILY_API_KEY: KEYS.TAVILY_API_KEY });
    expect(trace.outcome).toBe('answered');
    expect(tavily.requests).toHaveLength(0);
    expect(trace.web_searches).toEqual([]);
  });
});

describe('search faults', () => {
  it('tavily 429 with retry-after: 1 is waited out and retried once', async () => {
    tavily.script({ error: 'rate_limited', headers: { 'retry-after': '1' } }, { results: CANBERRA });
    const { trace, clock } = await askCli(COLD, ['--web', 'tavily', '--web-base-url', tavily.url], { TAVILY_API_KEY: KEYS.TAVILY_API_KEY });
    expect(tavily.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([1000]);
    expect(trace.provider_calls).toEqual([expect.objectContaining({ provider: 'tavily', status: 200, retries: 1 })]);
    expect(trace.web_searches).toEqual([{ provider: 'tavily', query: COLD, results: 3 }]);
  });

  it('brave 429 RATE_LIMITED (no retry-after, X-RateLimit-Reset) is retried with backoff', async () => {
    brave.script({ error: 'rate_limited' }, { results: CANBERRA });
    const { trace, clock } = await askCli(COLD, ['--web', 'brave', '--web-base-url', brave.url], { BRAVE_API_KEY: KEYS.BRAVE_API_KEY });
    expect(brave.requests.map((r) => r.answered)).toEqual([429, 200]);
    // One back-off: the first, 250 to 500 ms (half of 500 ms plus jitter).
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(250);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(500);
    expect(trace.provider_calls).toEqual([expect.objectContaining({ provider: 'brave', status: 200, retries: 1 })]);
  });

  it('searxng 403 (json format disabled) becomes a note saying how to enable it; the answer is still given', async () => {
    searxng.script({ error: 'format_disabled' });
    const { trace } = await askCli(COLD, ['--web', 'searxng', '--web-base-url', searxng.url], {});
    expect(searxng.requests).toHaveLength(1);
    expect(trace.outcome).toBe('cold');
    expect(trace.web_searches).toEqual([{ provider: 'searxng', query: COLD, results: 0, error: expect.stringContaining('HTTP 403') }]);
    expect(trace.web_searches[0]!.error).toContain('enable the json format under search.formats');
    expect(trace.answer).not.toContain('<!doctype');
  });

  it('a search outage after retries is reported in web_searches; the wiki answer stands', async () => {
    brave.setFallback({ error: 'server_error' });
    const { trace } = await askCli('How do I set `--max-citations` for the offline answerer?', ['--web', 'brave', '--web-base-url', brave.url], {
      BRAVE_API_KEY: KEYS.BRAVE_API_KEY,
    });
    expect(brave.requests).toHaveLength(4); // the first attempt and 3 retries
    expect(trace.outcome).toBe('gap');
    expect(trace.web_searches[0]).toMatchObject({ provider: 'brave', results: 0, error: 'brave: HTTP 500: Internal server error' });
    expect(trace.notes.join('\n')).toContain('Web search failed (brave: HTTP 500: Internal server error)');
    expect(trace.provider_calls).toEqual([expect.objectContaining({ provider: 'brave', status: 500, retries: 3 })]);
  });

  it('a rejected key (401) is reported without the key', async () => {
    const { trace, stdout, stderr } = await askCli(COLD, ['--web', 'tavily', '--web-base-url', tavily.url], { TAVILY_API_KEY: 'tvly-not-the-right-one' });
    expect(tavily.requests.map((r) => r.answered)).toEqual([401]);
    expect(trace.web_searches[0]!.error).toBe('tavily: HTTP 401: Unauthorized: missing or invalid API key.');
    expect(stdout + stderr).not.toContain('tvly-not-the-right-one');
  });
});
