// Provider configuration through the CLI (bad choices, missing keys, missing model: exit 2 with a
// message that says what to do) and the rule that keys never leave the process: not on stdout,
// not on stderr, not in the trace, whatever the providers answer. Part of this runs the built
// dist/cli.js as a child process with the keys in its environment, as a user would.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderConfigError, createProviders } from '../../src/answer/providers.js';
import { type StandIn, readerStep, startStandIn } from './stand-ins.js';
import { EXAMPLE_WIKI, INSTALL_CLAIM, INSTALL_QUESTION, KEYS, askCli, expectNoKeys, runAsk, runBuiltCli } from './support.js';

const wikiArgs = ['--wiki', EXAMPLE_WIKI, '--json'];

describe('configuration errors exit 2 with a clear message', () => {
  it('--llm github is refused, naming the choices', async () => {
    const run = await runAsk([...wikiArgs, '--llm', 'github', '--llm-model', 'gpt-4o', 'q?'], { OPENAI_API_KEY: KEYS.OPENAI_API_KEY });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/'--llm <answerer>' argument 'github' is invalid\. Allowed choices are offline, openai, anthropic, copilot\./);
  });

  it("createProviders (the Action's path) says GitHub Models was retired", () => {
    expect(() => createProviders({ llm: 'github' as never, web: 'none', env: {} })).toThrow(ProviderConfigError);
    expect(() => createProviders({ llm: 'github-models' as never, web: 'none', env: {} })).toThrow(
      /GitHub Models was retired in July 2026; use --llm copilot .*, --llm openai .* or --llm anthropic/,
    );
  });

  it.each([
    [
      'openai without OPENAI_API_KEY (and no base URL)',
      ['--llm', 'openai', '--llm-model', 'gpt-4.1-mini'],
      {},
      /^wiki-steward: OPENAI_API_KEY is not set \(or pass --llm-base-url for a server that needs no key\)\n$/,
    ],
    ['anthropic without ANTHROPIC_API_KEY', ['--llm', 'anthropic', '--llm-model', 'claude-sonnet-4-5'], {}, /^wiki-steward: ANTHROPIC_API_KEY is not set\n$/],
    [
      'anthropic without ANTHROPIC_API_KEY, even with a base URL',
      ['--llm', 'anthropic', '--llm-base-url', 'http://127.0.0.1:9', '--llm-model', 'claude-sonnet-4-5'],
      {},
      /ANTHROPIC_API_KEY is not set/,
    ],
    [
      'openai without --llm-model',
      ['--llm', 'openai'],
      { OPENAI_API_KEY: KEYS.OPENAI_API_KEY },
      /^wiki-steward: --llm openai needs --llm-model \(e\.g\. gpt-4\.1-mini, or llama3\.1 on Ollama\)\n$/,
    ],
    [
      'anthropic without --llm-model',
      ['--llm', 'anthropic'],
      { ANTHROPIC_API_KEY: KEYS.ANTHROPIC_API_KEY },
      /^wiki-steward: --llm anthropic needs --llm-model \(e\.g\. claude-sonnet-4-5\)\n$/,
    ],
    ['tavily without TAVILY_API_KEY', ['--web', 'tavily'], {}, /^wiki-steward: TAVILY_API_KEY is not set\n$/],
    ['brave without BRAVE_API_KEY', ['--web', 'brave'], {}, /^wiki-steward: BRAVE_API_KEY is not set\n$/],
    ['searxng without an instance', ['--web', 'searxng'], {}, /^wiki-steward: --web searxng needs --web-base-url or SEARXNG_URL \(your instance\)\n$/],
    ['an unknown --web', ['--web', 'bing'], {}, /argument 'bing' is invalid\. Allowed choices are none, tavily, brave, searxng\./],
  ] as const)('%s', async (_name, flags, env, message) => {
    const run = await runAsk([...wikiArgs, ...flags, INSTALL_QUESTION], env);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expectNoKeys(run.stderr);
  });
});

describe('keys never leave the process', () => {
  let openai: StandIn;
  let anthropic: StandIn;
  let tavily: StandIn;
  let brave: StandIn;
  beforeAll(async () => {
    [openai, anthropic, tavily, brave] = await Promise.all([
      startStandIn('openai', { key: KEYS.OPENAI_API_KEY }),
      startStandIn('anthropic', { key: KEYS.ANTHROPIC_API_KEY }),
      startStandIn('tavily', { key: KEYS.TAVILY_API_KEY }),
      startStandIn('brave', { key: KEYS.BRAVE_API_KEY }),
    ]);
  });
  afterAll(() => Promise.all([openai, anthropic, tavily, brave].map((s) => s.close())));
  beforeEach(() => {
    for (const s of [openai, anthropic, tavily, brave]) s.reset().setFallback(undefined);
  });

  // runBuiltCli skips the back-off between retries (WIKI_STEWARD_TEST_WAIT_SCALE=0).
  const allKeys = { ...KEYS };
  /** `ask` arguments through OpenAI with Tavily, or through Anthropic with Brave: between them, every provider. */
  const viaOpenAiAndTavily = (question: string) => [
    ...['ask', ...wikiArgs, '--llm', 'openai', '--llm-base-url', `${openai.url}/v1`, '--llm-model', 'gpt-test'],
    ...['--web', 'tavily', '--web-base-url', tavily.url, question],
  ];
  const viaAnthropicAndBrave = (question: string) => [
    ...['ask', ...wikiArgs, '--llm', 'anthropic', '--llm-base-url', anthropic.url, '--llm-model', 'claude-test'],
    ...['--web', 'brave', '--web-base-url', brave.url, question],
  ];

  it('built CLI, every provider answering: keys only in the request headers, nowhere in the output', async () => {
    openai.setFallback(readerStep);
    anthropic.setFallback(readerStep);
    // Side by side: each run is its own process, each request its own record.
    const runs = await Promise.all([
      runBuiltCli(viaOpenAiAndTavily(INSTALL_QUESTION), allKeys),
      runBuiltCli(viaAnthropicAndBrave('What is the capital of Australia?'), allKeys),
      // The markdown rendering (no --json), with the folded trace.
      runBuiltCli(
        [
          'ask',
          '--wiki',
          EXAMPLE_WIKI,
          '--format',
          'markdown',
          '--llm',
          'openai',
          '--llm-base-url',
          `${openai.url}/v1`,
          '--llm-model',
          'gpt-test',
          '--web',
          'brave',
          '--web-base-url',
          brave.url,
          'How do I set `--max-citations` for the offline answerer?',
        ],
        allKeys,
      ),
    ]);
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expectNoKeys(run.stdout, run.stderr);
    }
    expect(JSON.parse(runs[0]!.stdout)).toMatchObject({
      answerer: 'openai:gpt-test',
      provider_calls: [expect.objectContaining({ provider: 'openai', status: 200 })],
    });
    expect(JSON.parse(runs[1]!.stdout)).toMatchObject({ outcome: 'cold', web_searches: [expect.objectContaining({ provider: 'brave' })] });
    expect(runs[2]!.stdout).toContain('- Provider calls: ');
    // The keys did travel — in the headers, where they belong.
    expect(openai.requests[0]!.headers.authorization).toBe(`Bearer ${KEYS.OPENAI_API_KEY}`);
    expect(brave.requests[0]!.headers['x-subscription-token']).toBe(KEYS.BRAVE_API_KEY);
    expect(brave.requests[0]!.path).toBe('/res/v1/web/search');
    expect(JSON.stringify(brave.requests.map((r) => r.query))).not.toContain(KEYS.BRAVE_API_KEY);
    for (const s of [openai, anthropic, tavily, brave]) expect(s.problems()).toEqual([]);
  });

  it('built CLI, every provider failing: the notes and errors carry no key', async () => {
    openai.setFallback({ error: 'server_error' });
    tavily.setFallback({ error: 'server_error' });
    anthropic.setFallback({ error: 'overloaded' });
    brave.setFallback({ error: 'rate_limited' });
    const [a, b] = await Promise.all([
      runBuiltCli(viaOpenAiAndTavily('How do I set `--max-citations` for the offline answerer?'), allKeys),
      runBuiltCli(viaAnthropicAndBrave('How do I set `--max-citations` for the offline answerer?'), allKeys),
    ]);
    for (const run of [a, b]) {
      expect(run.code, run.stderr).toBe(0);
      const trace = JSON.parse(run.stdout) as { notes: string[]; outcome: string };
      expect(trace.outcome).toBe('gap');
      expect(trace.notes.length).toBe(2);
      expectNoKeys(run.stdout, run.stderr);
    }
  });

  it('a server that echoes the key back in its error message does not get it into the trace', async () => {
    // Some OpenAI-compatible gateways quote the credential they rejected. The client copies the
    // provider's error message into ProviderError (src/net/http-json.ts errorDetail), which the
    // offline fallback puts into trace.notes and the rendered answer.
    openai.setFallback((req) => ({ error: 'unauthorized', message: `Invalid credentials: ${String(req.headers.authorization)}` }));
    const { stdout, stderr, trace } = await askCli(INSTALL_QUESTION, ['--llm', 'openai', '--llm-base-url', `${openai.url}/v1`, '--llm-model', 'gpt-test'], {
      OPENAI_API_KEY: KEYS.OPENAI_API_KEY,
    });
    expect(trace.outcome).toBe('answered');
    expect(trace.notes.join('\n')).toContain('HTTP 401: Invalid credentials');
    expectNoKeys(stdout, stderr);
  });

  it('in-process: the trace JSON of a happy and a failing run carries no key', async () => {
    openai.script(
      { reply: { claims: [INSTALL_CLAIM], covered: true, uncovered: [] } },
      { error: 'server_error' },
      { error: 'server_error' },
      { error: 'server_error' },
      { error: 'server_error' },
    );
    const flags = ['--llm', 'openai', '--llm-base-url', `${openai.url}/v1`, '--llm-model', 'gpt-test'];
    const ok = await askCli(INSTALL_QUESTION, flags, { OPENAI_API_KEY: KEYS.OPENAI_API_KEY });
    const failed = await askCli(INSTALL_QUESTION, flags, { OPENAI_API_KEY: KEYS.OPENAI_API_KEY });
    expect(failed.trace.notes[0]).toMatch(/^The model provider failed/);
    expectNoKeys(ok.stdout, ok.stderr, JSON.stringify(ok.trace), failed.stdout, failed.stderr, JSON.stringify(failed.trace));
  });
});
