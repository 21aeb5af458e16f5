// The Copilot CLI's stdout as the steward reads it (src/answer/model/copilot-wire.ts): a CLI that
// dies mid-message, one that announces a 2 GB message, and one that streams a header without end.
// In-process runs wait on a TestClock that is never expired: no time-out can end them, so what ends
// them is the behaviour under test (the CLI's end noticed, the cap enforced). A run that hung would
// fail at the test's time limit. One run is the built CLI in a child process, which must exit by
// itself: nothing the dead CLI left behind may keep it alive (vscode-jsonrpc's reader, holding half
// a message, re-armed a timer every 10 s for ever). Its answer time-out is set to 10 minutes, so a
// run that waited on any timer would still be running when the safety net kills it.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FrameGate, WireFault } from '../../src/answer/model/copilot-wire.js';
import { MAX_RESPONSE_BYTES } from '../../src/net/http-json.js';
import { builtCli } from '../helpers/cli.js';
import { TestClock } from '../helpers/test-clock.js';
import { COPILOT_STAND_IN as HOSTILE, CopilotScenarios } from '../providers/copilot-scenarios.js';
import { EXAMPLE_WIKI, INSTALL_QUESTION, KEYS, expectNoKeys, runAsk, runEnv } from '../providers/support.js';

const scenarios = new CopilotScenarios();
afterAll(() => scenarios.cleanup());

const ASK = ['--wiki', '.', '--json', '--llm', 'copilot', '--copilot-cli-path', HOSTILE, INSTALL_QUESTION];

/** `ask` through the stand-in told to do `step` on the first message; on a clock nobody expires. */
async function askWith(step: object) {
  const script = await scenarios.write({ steps: [step] });
  const clock = new TestClock();
  const run = await runAsk(ASK, { COPILOT_GITHUB_TOKEN: KEYS.COPILOT_GITHUB_TOKEN, ...script.env }, undefined, clock);
  expect(run.code, run.stderr).toBe(0);
  expectNoKeys(run.stdout, run.stderr);
  // The CLI is gone: stopped by the steward, or by itself.
  await script.whenGone();
  return { trace: JSON.parse(run.stdout), clock, log: await script.log() };
}

const MID_MESSAGE = /^copilot: the Copilot CLI stopped mid-message \(exit code 1\): it announced (\d+) bytes and sent (\d+)$/;

describe('a Copilot CLI that dies mid-message', () => {
  it('fails the call the moment it is gone, with a fault that says so, and the question is answered offline', async () => {
    const { trace, clock, log } = await askWith({ halfMessage: true });
    expect(trace).toMatchObject({ outcome: 'answered', answerer: 'copilot:gpt-5-mini' });
    const [, announced, sent] = MID_MESSAGE.exec(trace.provider_fault) ?? [];
    expect(trace.provider_fault).toMatch(MID_MESSAGE);
    expect(Number(sent)).toBe(Number(announced) >> 1);
    expect(trace.provider_calls).toEqual([expect.objectContaining({ provider: 'copilot', request: 'session.send', status: 'error' })]);
    // The question's deadline, then the start, the session, the reply: each armed its time-out, and none was expired.
    expect(clock.timeouts).toEqual([300_000, 60_000, 60_000, 60_000]);
    expect(log.filter((line) => line.method === 'session.send')).toHaveLength(1);
  });

  it('the built CLI exits by itself once the answer is printed: no handle is left, and no timer waited on', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ws-copilot-exit-'));
    try {
      await cp(EXAMPLE_WIKI, path.join(dir, 'wiki'), { recursive: true });
      // A reply's time-out of 10 minutes: a run that waited on it would be killed by the safety net below first.
      await writeFile(path.join(dir, '.wiki-steward.yml'), 'answerer:\n  timeout_ms: 600000\n');
      const script = await scenarios.write({ steps: [{ halfMessage: true }] });
      const args = [builtCli(), 'ask', '--wiki', 'wiki', '--json', '--llm', 'copilot', '--copilot-cli-path', HOSTILE, INSTALL_QUESTION];
      const env = runEnv({ COPILOT_GITHUB_TOKEN: KEYS.COPILOT_GITHUB_TOKEN, ...script.env });
      const run = await new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((resolve) => {
        // The safety net: far past what the run takes on a loaded machine, far short of the time-out.
        const child = execFile(process.execPath, args, { cwd: dir, env, timeout: 120_000, killSignal: 'SIGKILL' }, (_error, stdout, stderr) =>
          resolve({ code: child.exitCode, signal: child.signalCode, stdout, stderr }),
        );
      });
      expect({ code: run.code, signal: run.signal }, run.stderr).toEqual({ code: 0, signal: null });
      const trace = JSON.parse(run.stdout);
      expect(trace.outcome).toBe('answered');
      expect(trace.provider_fault).toMatch(MID_MESSAGE);
      expectNoKeys(run.stdout, run.stderr);
      await script.whenGone();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the frame size cap (MAX_RESPONSE_BYTES, as for the HTTP providers)', () => {
  it('a CLI announcing a 2 GB message: the call fails at once, the body unread, the CLI stopped', async () => {
    const { trace } = await askWith({ hugeFrame: true });
    expect(trace.outcome).toBe('answered');
    expect(trace.provider_fault).toBe(
      `copilot: a message from the Copilot CLI announced ${2 ** 31} bytes, past the ${MAX_RESPONSE_BYTES}-byte cap; it was not read`,
    );
  });

  it('a CLI streaming a header that never ends: the call fails once it passes the cap, the CLI stopped', async () => {
    const { trace } = await askWith({ endlessHeader: true });
    expect(trace.outcome).toBe('answered');
    expect(trace.provider_fault).toBe(
      `copilot: a message from the Copilot CLI passed ${MAX_RESPONSE_BYTES} bytes with no end to its header; the rest was not read`,
    );
  });
});

describe('FrameGate: whole messages out, each within the cap', () => {
  const frame = (body: string) => Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);

  /** Writes `chunks` into a gate; what came out (one entry per chunk pushed), what it still held, and how it ended. */
  async function through(chunks: Buffer[], limit = 64) {
    const gate = new FrameGate(limit);
    const out: string[] = [];
    gate.on('data', (chunk: Buffer) => out.push(chunk.toString('utf8')));
    const ended = new Promise<Error | undefined>((resolve) => {
      gate.on('end', () => resolve(undefined));
      gate.on('error', resolve);
    });
    let held = 0;
    for (const chunk of chunks) {
      if (gate.destroyed) break;
      gate.write(chunk);
      held = Math.max(held, gate.buffered);
    }
    gate.end();
    return { out, error: await ended, held, partial: gate.partial };
  }

  it('passes each message whole, however the output is cut: byte by byte, or several in one chunk', async () => {
    const messages = ['{"id":1}', '{"id":2,"text":"é"}', '{}'];
    const all = Buffer.concat(messages.map(frame));
    const expected = messages.map((m) => frame(m).toString('utf8'));
    const bytes = [...all].map((b) => Buffer.from([b]));
    expect((await through(bytes)).out).toEqual(expected);
    expect((await through([all])).out).toEqual(expected);
    // The header's end split over chunks, and a header with other fields in any case.
    const split = Buffer.from('content-type: application/json\r\nCONTENT-LENGTH: 2\r\n\r\n{}');
    expect((await through([split.subarray(0, 50), split.subarray(50, 53), split.subarray(53)])).out).toEqual([split.toString()]);
  });

  it('a message of exactly the cap passes; one byte more fails on its header alone', async () => {
    expect((await through([frame('x'.repeat(64))])).out).toEqual([frame('x'.repeat(64)).toString()]);
    const over = await through([Buffer.from('Content-Length: 65\r\n\r\n'), Buffer.from('x'.repeat(65))]);
    expect(over.out).toEqual([]);
    expect(over.error).toBeInstanceOf(WireFault);
    expect(over.error).toMatchObject({ kind: 'too-large', status: 'malformed' });
    expect(over.held).toBeLessThanOrEqual(24);
  });

  it('a header that grows past the cap fails, holding no more than the cap and one chunk', async () => {
    const r = await through(Array.from({ length: 100 }, () => Buffer.from('X-Padding: aaaaaaaaaa')));
    expect(r.error).toMatchObject({
      kind: 'too-large',
      message: 'copilot: a message from the Copilot CLI passed 64 bytes with no end to its header; the rest was not read',
    });
    expect(r.held).toBeLessThanOrEqual(64 + 21);
  });

  it('a header without a Content-Length fails; an output that ends mid-message is counted, not passed', async () => {
    expect((await through([Buffer.from('Content-Type: x\r\n\r\n{}')])).error).toMatchObject({ kind: 'no-length' });
    const cut = await through([frame('{"a":1}'), frame('{"b":22}').subarray(0, 25)]);
    expect(cut).toMatchObject({ out: [frame('{"a":1}').toString()], error: undefined, partial: { announced: 8, received: 4 } });
  });

  it('a header the SDK would read otherwise fails: two Content-Lengths (it keeps the last), a line without its CR, a bare word', async () => {
    // Two lengths: a small one passes the cap here while the SDK's reader would wait for the huge one.
    for (const header of [
      'Content-Length: 2\r\nContent-Length: 999999999\r\n\r\n{}',
      'X-Note: a\nContent-Length: 2\r\n\r\n{}',
      'garbage\r\nContent-Length: 2\r\n\r\n{}',
      'Content-Length: 0x2\r\n\r\n{}',
    ]) {
      const r = await through([Buffer.from(header)]);
      expect(r.out, header).toEqual([]);
      expect(r.error, header).toMatchObject({ kind: 'no-length' });
    }
  });
});
