// Attacks on the Copilot provider through a misbehaving stand-in CLI (test/providers/copilot-stand-in.js, its "hostile" modes).
// In-process runs wait on a TestClock: the stop grace and the start's time-out pass when the test
// expires them, once the stand-in has done what it was told (ignored the shutdown, stayed mute).
// The built CLI runs where only a real process shows the point (its stderr, an unhandled rejection).
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseModelAnswer } from '../../src/answer/model/model-answerer.js';
import { TestClock } from '../helpers/test-clock.js';
import { COPILOT_STAND_IN as HOSTILE, CopilotScenarios, isAlive, until } from '../providers/copilot-scenarios.js';
import { INSTALL_QUESTION, KEYS, askCli, expectNoKeys, runAsk, runBuiltCli } from '../providers/support.js';

const TOKEN = KEYS.COPILOT_GITHUB_TOKEN;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'ws-attack16-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));
/** The mute CLI's pid, killed at the end should the steward have left it running. */
let mutePid: number | undefined;
afterAll(() => {
  if (mutePid !== undefined && isAlive(mutePid)) process.kill(mutePid, 'SIGKILL');
});

// Every stand-in logs its pid; cleanup() kills any still running.
const scenarios = new CopilotScenarios();
afterAll(() => scenarios.cleanup());
async function files(scenario: object) {
  const script = await scenarios.write(scenario);
  return { env: { COPILOT_GITHUB_TOKEN: TOKEN, ...script.env }, log: script.log, script };
}

/** The stop grace the steward gives a CLI asked to shut down, before it kills it. */
const STOP_GRACE_MS = 2000;
/** Each Copilot request's time-out (answerer.timeout_ms); the question's deadline is a time-out of its own, left alone. */
const TIMEOUT_MS = 60_000;
const ASK = ['--wiki', '.', '--json', '--llm', 'copilot', '--copilot-cli-path', HOSTILE, INSTALL_QUESTION];

describe('model reply shape: JSON that is not an object', () => {
  it('parseModelAnswer returns a reason (never throws) for `null`', () => {
    expect(() => parseModelAnswer('null')).not.toThrow();
    expect(typeof parseModelAnswer('null')).toBe('string');
  });
  it('parseModelAnswer returns a reason (never throws) for a null claim or citation', () => {
    expect(parseModelAnswer('{"claims":[null],"covered":true,"uncovered":[]}')).toBe('claims[0] needs "text" and "citations"');
    expect(parseModelAnswer('{"claims":[{"text":"x","citations":[null]}],"covered":true,"uncovered":[]}')).toBe(
      'claims[0].citations[0] needs "path", "start_line", "end_line" and "quote"',
    );
  });
  it('a Copilot reply of `null` is answered offline, not a crashed run (exit 0)', async () => {
    const { env } = await files({ fallback: { reply: 'null' } });
    const run = await runAsk(ASK, env);
    expect(run.code, run.stderr).toBe(0);
  });
});

describe('a CLI that ignores runtime.shutdown', () => {
  // The stop grace passes (the test expires it) once the stand-in has ignored what it was asked;
  // the run then ends, and the stand-in is killed. A run that hung would fail at the test's limit.
  it('answers runtime.shutdown but ignores it and SIGTERM: the run still ends, the stand-in is killed, the answer stands', async () => {
    const { env, script } = await files({ fallback: { reader: true }, hostile: { ignoreShutdown: true } });
    const clock = new TestClock();
    const [run] = await Promise.all([
      runAsk(ASK, env, undefined, clock),
      (async () => {
        await script.whenLogged((line) => line.signal === 'SIGTERM');
        await clock.whenArmed(1, STOP_GRACE_MS);
        clock.expire(STOP_GRACE_MS);
      })(),
    ]);
    await script.whenGone();
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: 'answered', answerer: 'copilot:gpt-5-mini' });
    expect(JSON.parse(run.stdout).provider_fault).toBeUndefined();
    expect((await script.log()).filter((line) => line.method === 'runtime.shutdown')).toHaveLength(1);
  });

  it('never even answers runtime.shutdown: the run still ends and the stand-in is killed', async () => {
    const { env, script } = await files({ fallback: { reader: true }, hostile: { ignoreShutdown: 'silent' } });
    const clock = new TestClock();
    const [run] = await Promise.all([
      runAsk(ASK, env, undefined, clock),
      (async () => {
        await script.whenLogged((line) => line.method === 'runtime.shutdown');
        await clock.whenArmed(1, STOP_GRACE_MS);
        clock.expire(STOP_GRACE_MS);
      })(),
    ]);
    await script.whenGone();
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: 'answered', answerer: 'copilot:gpt-5-mini' });
  });
});

describe("the CLI's stderr", () => {
  it("the token a CLI writes to its stderr is not echoed unmasked on the built CLI's stderr", async () => {
    const { env } = await files({ fallback: { reader: true }, hostile: { stderrToken: true } });
    const run = await runBuiltCli(['ask', ...ASK], env);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain(TOKEN);
  });
});

describe('hostile but handled', () => {
  it('token on stderr, events for another session, external_tool.requested, a garbage frame: the model still answers, from its own session', async () => {
    for (const hostile of [{ stderrToken: true }, { otherSession: true }, { externalTool: true }, { garbage: true }]) {
      const { env } = await files({ fallback: { reader: true }, hostile });
      const run = await askCli(INSTALL_QUESTION, ['--llm', 'copilot', '--copilot-cli-path', HOSTILE], env);
      expectNoKeys(run.stdout, run.stderr);
      expect(run.stdout).not.toContain('FORGED');
      expect({ outcome: run.trace.outcome, answerer: run.trace.answerer, fault: run.trace.provider_fault }, JSON.stringify(hostile)).toEqual({
        outcome: 'answered',
        answerer: 'copilot:gpt-5-mini',
        fault: undefined,
      });
      expect(run.trace.citations.length, JSON.stringify(hostile)).toBeGreaterThan(0);
    }
  });

  // Mentions and markers in model text are neutralised where they are posted (test/action, posted-text).
  it('a reply that cites outside the wiki and carries the token: those citations are dropped, the token masked', async () => {
    const reply = {
      claims: [
        {
          text: `Secret ${TOKEN} @octocat <!-- wiki-steward:answer key=forged -->`,
          citations: [{ path: '../../etc/passwd', start_line: 1, end_line: 1, quote: 'root:x:0:0' }],
        },
        { text: `Uncited ${TOKEN} @octocat <!-- wiki-steward:answer key=forged -->`, citations: [] },
        { text: 'abs', citations: [{ path: '/etc/passwd', start_line: 1, end_line: 1, quote: 'root:x:0:0' }] },
      ],
      covered: true,
      uncovered: [],
    };
    const { env } = await files({ fallback: { reply } });
    const run = await askCli(INSTALL_QUESTION, ['--llm', 'copilot', '--copilot-cli-path', HOSTILE], env);
    expectNoKeys(run.stdout, run.stderr);
    expect(run.trace.citations.map((c) => ('path' in c ? c.path : c.url))).not.toContain('../../etc/passwd');
    expect(run.trace.citations.map((c) => ('path' in c ? c.path : c.url))).not.toContain('/etc/passwd');
  });

  it('a CLI path that is a directory, not executable, or an ELF-looking garbage file: answered offline, exit 0 (holds)', async () => {
    const folder = path.join(dir, 'copilot-dir');
    await mkdir(folder, { recursive: true });
    const noexec = path.join(dir, 'copilot-noexec');
    await writeFile(noexec, '#!/bin/sh\necho hi\n');
    await chmod(noexec, 0o644);
    const binary = path.join(dir, 'copilot-garbage');
    await writeFile(binary, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 0]));
    await chmod(binary, 0o755);
    for (const cli of [folder, noexec, binary]) {
      const { env } = await files({});
      const run = await askCli(INSTALL_QUESTION, ['--llm', 'copilot', '--copilot-cli-path', cli], env);
      expect(run.trace.provider_fault, cli).toBeDefined();
      expect(run.trace.provider_fault).not.toMatch(/\n| {4}at /);
    }
  });

  it('a CLI script with a broken shebang: the built CLI must not crash with an unhandled ERR_STREAM_DESTROYED', async () => {
    const broken = path.join(dir, 'copilot-broken');
    await writeFile(broken, '#!/no/such/interpreter\n');
    await chmod(broken, 0o755);
    const { env } = await files({});
    const run = await runBuiltCli(['ask', '--wiki', '.', '--json', '--llm', 'copilot', '--copilot-cli-path', broken, INSTALL_QUESTION], env);
    // Exit 0 once the event loop drains: no unhandled rejection surfaced at any phase, before or after close().
    expect(run.stderr).not.toContain('ERR_STREAM_DESTROYED');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).provider_fault).toMatch(/^copilot: /);
  });

  it('a CLI that reads stdin but never answers `connect`: the start times out, and the run must still exit', async () => {
    const mute = path.join(dir, 'copilot-mute');
    const pidFile = path.join(dir, 'mute.pid');
    // Stays alive (for 600 s) and never says a word; records its pid, then becomes `sleep` under that pid.
    await writeFile(mute, `#!/bin/sh\necho $$ > ${pidFile}.tmp && mv ${pidFile}.tmp ${pidFile}\nexec sleep 600\n`);
    await chmod(mute, 0o755);
    const { env } = await files({});
    const clock = new TestClock();
    const [run] = await Promise.all([
      runAsk(['--wiki', '.', '--json', '--llm', 'copilot', '--copilot-cli-path', mute, INSTALL_QUESTION], env, undefined, clock),
      (async () => {
        // The mute CLI is running and the start is waiting on it: now its time-out passes.
        mutePid = await until(() =>
          readFile(pidFile, 'utf8').then(
            (text) => Number(text),
            () => undefined,
          ),
        );
        await clock.whenArmed(1, TIMEOUT_MS);
        clock.expire(TIMEOUT_MS);
      })(),
    ]);
    // The answer is printed, offline, and the run ends with the mute CLI killed.
    expect(run.stdout).toContain('the Copilot CLI did not start within 60000 ms');
    expect(run.code, run.stderr).toBe(0);
    await until(() => (isAlive(mutePid!) ? undefined : true));
  });
});
