// Keys that come back: providers (or gateways in front of them) that echo the credential they were
// sent inside an ANSWER — in a claim's text, in `uncovered`, in a refusal, in search results — and
// credentials written into a base URL (`http://user:secret@host`). Whatever a provider sends back
// is masked where it enters (the JSON client), so the key is nowhere in the CLI's stdout and
// --json trace, nor (the Action on the GitHub emulator) in the posted comment, the capture pull
// request and the job summary. Real stand-in servers throughout; the CLI and the Action run
// in-process (every word they print goes through their output), on a TestClock, so a retry costs
// no wait. The built CLI with keys in its environment is cli-config-and-keys.test.ts's.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RecordedRequest, type StandIn, pagesSent, readerReply, startStandIn, userText } from './stand-ins.js';
import { EXAMPLE_WIKI, INSTALL_QUESTION, runAsk } from './support.js';
import { closeChecked, makeWorkspace, removeTempDirs, runStep, seededRepo, traceOf } from '../action/harness.js';
import { TestClock } from '../helpers/test-clock.js';
import type { Trace } from '../../src/answer/trace.js';

const SECRET = 'sk-secret-123';
const URL_SECRET = 'url-secret-789';
const GAP = 'How do I set `--max-citations` so answers cite at most 3 pages?';

let openai: StandIn;
let anthropic: StandIn;
let tavily: StandIn;
let searxng: StandIn;
beforeAll(async () => {
  [openai, anthropic, tavily, searxng] = await Promise.all([
    startStandIn('openai', { key: SECRET }),
    startStandIn('anthropic', { key: SECRET }),
    startStandIn('tavily', { key: SECRET }),
    startStandIn('searxng'),
  ]);
});
afterAll(async () => {
  await Promise.all([openai, anthropic, tavily, searxng].map((s) => s.close()));
  await removeTempDirs();
});
beforeEach(() => {
  for (const s of [openai, anthropic, tavily, searxng]) s.reset().setFallback(undefined);
});

/** Every credential header of a request, as the server saw it. */
const credentialsOf = (r: RecordedRequest) =>
  ['authorization', 'x-api-key']
    .map((h) => r.headers[h])
    .filter((v): v is string => typeof v === 'string')
    .join(' / ');

/** A model behind a gateway that quotes the request's credentials in the answer: in each claim and in `uncovered`. */
const echoingModel = (covered: boolean) => (r: RecordedRequest) => {
  const answer = readerReply(r);
  const echo = credentialsOf(r);
  return {
    reply: {
      claims: answer.claims.map((c) => ({ ...c, text: `${c.text} (request credentials: ${echo})` })),
      covered,
      uncovered: [`what the gateway saw: ${echo}`],
    },
  };
};

function expectNowhere(secret: string, texts: Record<string, string>): void {
  for (const [where, text] of Object.entries(texts)) {
    const at = text.indexOf(secret);
    expect(at, `${secret} in ${where}: …${text.slice(Math.max(0, at - 100), at + 40)}…`).toBe(-1);
  }
}

const openaiFlags = () => ['--llm', 'openai', '--llm-base-url', `${openai.url}/v1`, '--llm-model', 'gpt-test'];
const cliEnv = { OPENAI_API_KEY: SECRET, ANTHROPIC_API_KEY: SECRET, TAVILY_API_KEY: SECRET };
/** `wiki-steward ask …` in-process with the keys set. */
const ask = (args: string[]) => runAsk(args, cliEnv);

describe('the CLI: a key echoed in a provider answer is masked in stdout and the --json trace', () => {
  it('OpenAI-compatible server echoing the Authorization header in claims and uncovered (--json and the terminal rendering)', async () => {
    openai.setFallback(echoingModel(false));
    const json = await ask(['--wiki', EXAMPLE_WIKI, '--json', ...openaiFlags(), INSTALL_QUESTION]);
    const terminal = await ask(['--wiki', EXAMPLE_WIKI, ...openaiFlags(), INSTALL_QUESTION]);
    expect(json.code, json.stderr).toBe(0);
    expect(terminal.code, terminal.stderr).toBe(0);
    // The echo did reach the answer: masked, not dropped.
    expect(openai.requests[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
    const trace = JSON.parse(json.stdout) as Trace;
    expect(trace.outcome).toBe('gap');
    expect(trace.answer).toContain('request credentials: Bearer [masked]');
    expect(trace.missing).toEqual(['what the gateway saw: Bearer [masked]']);
    expectNowhere(SECRET, { stdout: json.stdout, stderr: json.stderr, 'terminal stdout': terminal.stdout, 'terminal stderr': terminal.stderr });
  });

  it('Anthropic echoing x-api-key in the tool input', async () => {
    anthropic.setFallback(echoingModel(true));
    const run = await ask([
      '--wiki',
      EXAMPLE_WIKI,
      '--json',
      '--llm',
      'anthropic',
      '--llm-base-url',
      anthropic.url,
      '--llm-model',
      'claude-test',
      INSTALL_QUESTION,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(anthropic.requests[0]!.headers['x-api-key']).toBe(SECRET);
    expect((JSON.parse(run.stdout) as Trace).answer).toContain('request credentials: [masked]');
    expectNowhere(SECRET, { stdout: run.stdout, stderr: run.stderr });
  });

  it('a refusal that quotes the key becomes a note without it', async () => {
    openai.setFallback((r) => ({ reply: '', refusal: `I will not use the credentials ${credentialsOf(r)}` }));
    const run = await ask(['--wiki', EXAMPLE_WIKI, '--json', ...openaiFlags(), INSTALL_QUESTION]);
    expect(run.code, run.stderr).toBe(0);
    const trace = JSON.parse(run.stdout) as Trace;
    expect(trace.notes.join('\n')).toContain('the model refused: I will not use the credentials Bearer [masked]');
    expectNowhere(SECRET, { stdout: run.stdout, stderr: run.stderr });
  });

  it('web search results that quote the key (title and snippet) are masked', async () => {
    tavily.setFallback((r) => ({
      results: [{ title: `Result for ${credentialsOf(r)}`, url: 'https://example.org/echo', content: `The request carried ${credentialsOf(r)}.` }],
    }));
    const run = await ask(['--wiki', EXAMPLE_WIKI, '--json', '--web', 'tavily', '--web-base-url', tavily.url, 'What is the capital of Australia?']);
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as Trace).answer).toContain('The request carried Bearer [masked].');
    expectNowhere(SECRET, { stdout: run.stdout, stderr: run.stderr });
  });
});

describe('the CLI: credentials written into a base URL', () => {
  it('--llm-base-url http://user:secret@host: never in notes or errors, and the request still goes out (the key as its bearer)', async () => {
    openai.setFallback((r) => ({ reply: readerReply(r) }));
    const base = `${openai.url.replace('http://', `http://gateway-user:${URL_SECRET}@`)}/v1`;
    const run = await ask(['--wiki', EXAMPLE_WIKI, '--json', '--llm', 'openai', '--llm-base-url', base, '--llm-model', 'gpt-test', INSTALL_QUESTION]);
    expect(run.code, run.stderr).toBe(0);
    const trace = JSON.parse(run.stdout) as Trace;
    expect(trace.notes.filter((n) => /model provider failed/.test(n))).toEqual([]);
    expect(openai.requests).toHaveLength(1);
    expect(openai.requests[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
    expectNowhere(URL_SECRET, { stdout: run.stdout, stderr: run.stderr });
    expectNowhere(SECRET, { stdout: run.stdout, stderr: run.stderr });
  });

  it('--llm-base-url with credentials and an unreachable server: the failure note says why without them', async () => {
    const base = `http://gateway-user:${URL_SECRET}@127.0.0.1:9/v1`;
    const run = await ask(['--wiki', EXAMPLE_WIKI, '--json', '--llm', 'openai', '--llm-base-url', base, '--llm-model', 'gpt-test', INSTALL_QUESTION]);
    expect(run.code, run.stderr).toBe(0);
    const trace = JSON.parse(run.stdout) as Trace;
    expect(trace.notes.join('\n')).toMatch(/The model provider failed \(openai: network error/);
    expectNowhere(URL_SECRET, { stdout: run.stdout, stderr: run.stderr });
  });

  it('--web-base-url http://user:secret@host for SearXNG: sent as Basic authentication; an echo of it is masked', async () => {
    searxng.setFallback((r) => ({
      results: [
        {
          title: 'Echo',
          url: 'https://example.org/echo',
          content: `Seen: ${credentialsOf(r)} (${Buffer.from(credentialsOf(r).split(' ')[1] ?? '', 'base64').toString('utf8')})`,
        },
      ],
    }));
    const base = searxng.url.replace('http://', `http://searcher:${URL_SECRET}@`);
    const run = await ask(['--wiki', EXAMPLE_WIKI, '--json', '--web', 'searxng', '--web-base-url', base, 'What is the capital of Australia?']);
    expect(run.code, run.stderr).toBe(0);
    const basic = `Basic ${Buffer.from(`searcher:${URL_SECRET}`).toString('base64')}`;
    expect(searxng.requests[0]!.headers.authorization).toBe(basic);
    expect((JSON.parse(run.stdout) as Trace).answer).toContain('Seen: Basic [masked]');
    expectNowhere(URL_SECRET, { stdout: run.stdout, stderr: run.stderr });
    expectNowhere(basic.split(' ')[1]!, { stdout: run.stdout, stderr: run.stderr });
  });
});

describe('the Action on the GitHub emulator: an echoed key is in no comment, pull request or summary', () => {
  it('OpenAI-compatible server echoing the Authorization header in claims and uncovered', async () => {
    const template = await makeWorkspace();
    const { gh, ws } = await seededRepo(template);
    try {
      gh.state.setPermission('alice', 'triage');
      gh.state.addIssue({ number: 1, title: GAP, user: 'alice', labels: ['question'] });
      openai.setFallback(echoingModel(false));
      const r = await runStep({
        githubEnv: gh.env(),
        workspace: ws,
        eventName: 'issues',
        payload: gh.events.issues('opened', 1),
        inputs: { llm: 'openai', 'llm-base-url': `${openai.url}/v1`, 'llm-model': 'gpt-test' },
        env: { OPENAI_API_KEY: SECRET },
        clock: new TestClock(),
      });
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
      expect(openai.requests.length).toBeGreaterThan(0);
      expect(pagesSent(userText(openai.requests[0]!)).length).toBeGreaterThan(0);
      const comment = gh.state.commentsOn(1).find((c) => c.user === 'github-actions[bot]');
      expect(comment).toBeDefined();
      expect(traceOf(comment!.body)?.answerer).toBe('openai:gpt-test');
      expect(comment!.body).toContain('Bearer [masked]');
      const pr = gh.state.pulls.find((p) => p.head === 'wiki-steward/capture/1');
      expect(pr).toBeDefined();
      // The key is registered as a secret: the runner masks the log from this line on.
      expect(r.stdout).toContain(`::add-mask::${SECRET}`);
      expectNowhere(SECRET, {
        comment: comment!.body,
        'pull request title': pr!.title,
        'pull request body': pr!.body ?? '',
        summary: r.summary,
        outputs: JSON.stringify(r.outputs),
        'every request to GitHub': JSON.stringify(gh.requests.map((q) => q.body)),
      });
    } finally {
      await closeChecked(gh);
    }
  });
});
