// One deadline per question over every provider call (answerer.deadline_ms, 5 min by default):
// the term proposal, the answer and its repair, the web searches. Past it no call starts, the call
// in flight is aborted, no back-off is slept past it, and the answer is made offline with the fault
// in a note and in provider_calls. Replayed here on a TestClock by events: the stand-ins hold
// what they are told to, and each held request's own time-out (60 s) is made to pass, or the
// deadline, whichever comes first — the run that once took 982 s ends at 300 s on the clock.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Trace } from '../../src/answer/trace.js';
import { TestClock } from '../helpers/test-clock.js';
import { type StandIn, startStandIn } from './stand-ins.js';
import {
  ATTEMPT_TIMEOUT_MS as TIMEOUT_MS,
  DEADLINE_MS,
  EXAMPLE_WIKI,
  INSTALL_CLAIM,
  INSTALL_QUESTION,
  KEYS,
  askCli,
  passHeldTimeouts,
  runAsk,
} from './support.js';

const DEADLINE = `the question's deadline (answerer.deadline_ms: ${DEADLINE_MS} ms)`;
/** The example wiki has pages on it but not this flag: offline, a gap, so step D searches the question. */
const GAP_QUESTION = 'How do I set `--max-citations` for the offline answerer?';
const ANSWER = { claims: [INSTALL_CLAIM], covered: true, uncovered: [] };
const OFFLINE_NOTE = /^The model provider failed \((.*)\); this answer was made offline from the same pages\.$/;
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let openai: StandIn;
let tavily: StandIn;
beforeAll(async () => {
  [openai, tavily] = await Promise.all([startStandIn('openai', { key: KEYS.OPENAI_API_KEY }), startStandIn('tavily', { key: KEYS.TAVILY_API_KEY })]);
});
afterAll(() => Promise.all([openai.close(), tavily.close()]));
beforeEach(() => {
  openai.reset().setFallback(undefined);
  tavily.reset().setFallback(undefined);
});

const flags = (...more: string[]) => [
  '--llm',
  'openai',
  '--llm-base-url',
  `${openai.url}/v1`,
  '--llm-model',
  'gpt-test',
  '--llm-terms',
  '--web',
  'tavily',
  '--web-base-url',
  tavily.url,
  ...more,
];
const env = { OPENAI_API_KEY: KEYS.OPENAI_API_KEY, TAVILY_API_KEY: KEYS.TAVILY_API_KEY };

async function askDriven(question: string, deadlineAt?: () => number): Promise<{ trace: Trace; clock: TestClock }> {
  const clock = new TestClock();
  const asked = askCli(question, flags(), env, EXAMPLE_WIKI, clock);
  await passHeldTimeouts(clock, asked, [openai, tavily], deadlineAt);
  const { trace } = await asked;
  await Promise.all([openai.settled(), tavily.settled()]);
  return { trace, clock };
}

function offlineNote(trace: Trace): string {
  const note = trace.notes.find((n) => OFFLINE_NOTE.test(n));
  expect(note, `notes: ${JSON.stringify(trace.notes)}`).toBeDefined();
  return OFFLINE_NOTE.exec(note!)![1]!;
}

describe('the question deadline (answerer.deadline_ms)', () => {
  it('a hung proposal, a hung answer and a hung search: the question ends at the deadline, answered offline with the fault stated', async () => {
    openai.setFallback({ hold: true });
    tavily.setFallback({ hold: true });
    const { trace, clock } = await askDriven(GAP_QUESTION);

    // The proposal's four attempts each ran out (4 × 60 s and the back-offs); the answer's first
    // attempt was in flight when the deadline passed and was aborted; the search was never made.
    expect(openai.requests.map((r) => r.answered)).toEqual(['dropped', 'dropped', 'dropped', 'dropped', 'dropped']);
    expect(tavily.requests).toEqual([]);
    expect(clock.now()).toBe(DEADLINE_MS);
    expect(clock.timeouts[0]).toBe(DEADLINE_MS);

    expect(trace.outcome).toBe('gap');
    expect(trace.answerer).toBe('openai:gpt-test');
    const fault = `openai: no answer by ${DEADLINE} (after 1 attempt)`;
    expect(trace.provider_fault).toBe(fault);
    expect(offlineNote(trace)).toBe(fault);
    expect(trace.answer).toContain('_Note: The model provider failed (openai: no answer by the question');
    expect(trace.notes).toContain("The model's proposed search terms were not used (openai: no answer within 60000 ms (after 4 attempts)).");
    expect(trace.provider_calls).toEqual([
      expect.objectContaining({ provider: 'openai', status: 'timeout', retries: 3 }),
      expect.objectContaining({ provider: 'openai', status: 'deadline', retries: 0 }),
    ]);
    // D would search the question: not asked, said so, and no other search after it.
    const notAsked = `tavily: not asked: ${DEADLINE} had passed`;
    expect(trace.web_searches).toEqual([{ provider: 'tavily', query: GAP_QUESTION, results: 0, error: notAsked }]);
    expect(trace.notes).toContain(`Web search failed (${notAsked}); the answer says what the wiki is missing without web sources.`);
    expect(trace.citations.length).toBeGreaterThan(0);
  });

  it('a search in flight at the deadline is aborted and no other search starts; the answer the model gave stands', async () => {
    const uncovered = ['max-citations flag', 'citation limit per answer', 'answer length'];
    openai.script({ hold: true }, { hold: true }, { hold: true }, { hold: true });
    openai.setFallback({ reply: { claims: [INSTALL_CLAIM], covered: false, uncovered } });
    tavily.setFallback({ hold: true });
    const { trace, clock } = await askDriven(GAP_QUESTION);

    // The proposal's four attempts ran out; the answer came at once (one call per batch of pages, and the merge).
    const answering = openai.requests.slice(4);
    expect(openai.requests.slice(0, 4).map((r) => r.answered)).toEqual(['dropped', 'dropped', 'dropped', 'dropped']);
    expect(answering.length).toBeGreaterThan(0);
    expect(answering.every((r) => r.answered === 200)).toBe(true);
    expect(tavily.requests.map((r) => [(r.body as { query: string }).query, r.answered])).toEqual([[uncovered[0], 'dropped']]);
    expect(clock.now()).toBe(DEADLINE_MS);
    expect(trace).toMatchObject({ outcome: 'gap', missing: uncovered });
    expect(trace.provider_fault).toBeUndefined();
    const fault = `tavily: no answer by ${DEADLINE} (after 1 attempt)`;
    expect(trace.web_searches).toEqual([{ provider: 'tavily', query: uncovered[0], results: 0, error: fault }]);
    expect(trace.notes).toContain(`Web search failed (${fault}); the answer says what the wiki is missing without web sources.`);
    expect(trace.provider_calls).toEqual([
      expect.objectContaining({ provider: 'openai', status: 'timeout', retries: 3 }),
      ...answering.map(() => expect.objectContaining({ provider: 'openai', status: 200, retries: 0 })),
      expect.objectContaining({ provider: 'tavily', status: 'deadline', retries: 0 }),
    ]);
  });

  it('the deadline reached mid back-off stops retrying: a wait that would end past it is not slept', async () => {
    // The proposal runs out (4 × 60 s), then the answer is rate limited with retry-after 30 s: the
    // first wait fits in what is left, the second would end past the deadline.
    openai.script({ hold: true }, { hold: true }, { hold: true }, { hold: true });
    openai.setFallback({ error: 'rate_limited', headers: { 'retry-after': '30' } });
    const { trace, clock } = await askDriven(INSTALL_QUESTION);

    expect(openai.requests.map((r) => r.answered)).toEqual(['dropped', 'dropped', 'dropped', 'dropped', 429, 429]);
    expect(clock.sleeps.filter((ms) => ms === 30_000)).toHaveLength(1);
    expect(clock.now()).toBeLessThan(DEADLINE_MS);
    expect(clock.now() + 30_000).toBeGreaterThanOrEqual(DEADLINE_MS);
    expect(trace.outcome).toBe('answered');
    expect(trace.provider_fault).toMatch(
      new RegExp(
        `^openai: HTTP 429: Rate limit reached .*; not retried: the wait before the next attempt would end past ${esc(DEADLINE)} \\(after 2 attempts\\)$`,
      ),
    );
    expect(offlineNote(trace)).toBe(trace.provider_fault);
    expect(trace.provider_calls).toEqual([
      expect.objectContaining({ provider: 'openai', status: 'timeout', retries: 3 }),
      expect.objectContaining({ provider: 'openai', status: 'deadline', retries: 1 }),
    ]);
  });

  it('a question answered before the deadline is unaffected, however close it comes', async () => {
    // Three of the proposal's attempts run out (3 × 60 s), the fourth answers; then the answer.
    openai.script({ hold: true }, { hold: true }, { hold: true }, { reply: { terms: ['pre-commit hook'] } }, { reply: ANSWER });
    const { trace, clock } = await askDriven(INSTALL_QUESTION);

    expect(clock.now()).toBeGreaterThan(3 * TIMEOUT_MS);
    expect(clock.now()).toBeLessThan(DEADLINE_MS);
    expect(trace).toMatchObject({ outcome: 'answered', notes: [] });
    expect(trace.provider_fault).toBeUndefined();
    expect(trace.provider_calls).toEqual([
      expect.objectContaining({ provider: 'openai', status: 200, retries: 3 }),
      expect.objectContaining({ provider: 'openai', status: 200, retries: 0 }),
    ]);
    expect(trace.signal_terms).toEqual(expect.arrayContaining([expect.objectContaining({ term: 'pre-commit hook', kind: 'proposed' })]));
    // The deadline was armed once, first, and every attempt under its own time-out.
    expect(clock.timeouts).toEqual([DEADLINE_MS, TIMEOUT_MS, TIMEOUT_MS, TIMEOUT_MS, TIMEOUT_MS, TIMEOUT_MS]);
  });

  it('each question of a batch has a deadline of its own: the next is answered after one that ran out', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ws-deadline-'));
    try {
      const file = path.join(dir, 'questions.jsonl');
      await writeFile(file, `${JSON.stringify({ id: 1, question: INSTALL_QUESTION })}\n${JSON.stringify({ id: 2, question: INSTALL_QUESTION })}\n`);
      // Question 1: the proposal runs out and the answer hangs until the deadline. Question 2: both answer at once.
      openai.script(...Array.from({ length: 5 }, () => ({ hold: true as const })), { reply: { terms: ['pre-commit hook'] } }, { reply: ANSWER });
      const clock = new TestClock();
      // Each question's deadline runs from its first armed time-out (the deadline is armed first).
      const starts: number[] = [];
      const deadlineAt = () => (starts.at(-1) ?? 0) + DEADLINE_MS;
      const realTimeout = clock.timeout.bind(clock);
      clock.timeout = (ms: number) => {
        if (ms === DEADLINE_MS) starts.push(clock.now());
        return realTimeout(ms);
      };
      const asked = runAsk(['--wiki', EXAMPLE_WIKI, '--questions', file, ...flags()], env, EXAMPLE_WIKI, clock);
      await passHeldTimeouts(clock, asked, [openai, tavily], deadlineAt);
      const run = await asked;
      expect(run.code, run.stderr).toBe(0);
      const [first, second] = run.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Trace & { id: number });
      expect(first).toMatchObject({ id: 1, outcome: 'answered', provider_fault: `openai: no answer by ${DEADLINE} (after 1 attempt)` });
      expect(second).toMatchObject({ id: 2, outcome: 'answered', notes: [] });
      expect(second!.provider_fault).toBeUndefined();
      expect(starts).toEqual([0, DEADLINE_MS]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
