// A CLI that sends a garbage frame, floods a 7 MB reply, or a 20 MB one. In-process, on a TestClock
// that is never expired: no time-out can end these runs, so what ends them is the behaviour under
// test (the frame skipped, a reply not JSON twice, the message past the 8 MiB cap refused unread),
// however long the machine takes to read 7 MB. A run that hung would fail at the test's time
// limit. What reaches this process's stderr (where the SDK echoes the CLI's) is checked along with
// the run's own output. Messages past the cap, endless ones and cut-off ones: copilot-wire.test.ts.
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { TestClock } from '../helpers/test-clock.js';
import { COPILOT_STAND_IN as HOSTILE, CopilotScenarios } from '../providers/copilot-scenarios.js';
import { INSTALL_QUESTION, KEYS, runAsk } from '../providers/support.js';

const scenarios = new CopilotScenarios();
afterAll(() => scenarios.cleanup());
afterEach(() => {
  vi.restoreAllMocks();
});

async function run(scenario: object) {
  const script = await scenarios.write(scenario);
  let processStderr = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    processStderr += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  });
  const r = await runAsk(
    ['--wiki', '.', '--json', '--llm', 'copilot', '--copilot-cli-path', HOSTILE, INSTALL_QUESTION],
    { COPILOT_GITHUB_TOKEN: KEYS.COPILOT_GITHUB_TOKEN, ...script.env },
    undefined,
    new TestClock(),
  );
  vi.restoreAllMocks();
  return { ...r, stderr: r.stderr + processStderr };
}

describe('garbage and floods', () => {
  it('a frame that is not JSON', async () => {
    const r = await run({ fallback: { reader: true }, hostile: { garbage: true } });
    expect(r.code, r.stderr.slice(0, 2000)).toBe(0);
    expect(r.stderr).not.toContain(KEYS.COPILOT_GITHUB_TOKEN);
    // The frame is skipped: the model's own reply still answers.
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'answered', answerer: 'copilot:gpt-5-mini' });
    expect(JSON.parse(r.stdout).provider_fault).toBeUndefined();
  });

  it('a 7 MB reply (with the token inside), under the 8 MiB cap', async () => {
    const r = await run({ fallback: { reply: `${KEYS.COPILOT_GITHUB_TOKEN} ${'x'.repeat(7_000_000)}` } });
    expect(r.code, r.stderr.slice(0, 2000)).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(KEYS.COPILOT_GITHUB_TOKEN);
    // Not an answer's shape, twice: answered offline from the same pages, and the trace says why.
    const trace = JSON.parse(r.stdout);
    expect(trace.outcome).toBe('answered');
    expect(trace.provider_fault).toMatch(/^copilot: malformed answer after one repair attempt/);
  });

  it('a 20 MB reply (with the token inside): past the cap, refused before its body is read', async () => {
    const r = await run({ fallback: { reply: `${KEYS.COPILOT_GITHUB_TOKEN} ${'x'.repeat(20_000_000)}` } });
    expect(r.code, r.stderr.slice(0, 2000)).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(KEYS.COPILOT_GITHUB_TOKEN);
    const trace = JSON.parse(r.stdout);
    expect(trace.outcome).toBe('answered');
    expect(trace.provider_fault).toMatch(/^copilot: a message from the Copilot CLI announced 200\d{5} bytes, past the 8388608-byte cap; it was not read$/);
  });
});
