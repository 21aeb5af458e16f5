// Attacks on the Copilot provider through a misbehaving stand-in CLI (test/providers/copilot-stand-in.js, its "hostile" modes).
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseModelAnswer } from '../../src/answer/model/model-answerer.js';
import { COPILOT_STAND_IN as HOSTILE, CopilotScenarios } from '../providers/copilot-scenarios.js';
import { INSTALL_QUESTION, KEYS, askCli, expectNoKeys, runAsk, runBuiltCli } from '../providers/support.js';

const TOKEN = KEYS.COPILOT_GITHUB_TOKEN;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'ws-attack16-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

// Every stand-in logs its pid; cleanup() kills any still running.
const scenarios = new CopilotScenarios();
afterAll(() => scenarios.cleanup());
async function files(scenario: object) {
  const script = await scenarios.write(scenario);
  return { env: { COPILOT_GITHUB_TOKEN: TOKEN, ...script.env, WIKI_STEWARD_HTTP_TIMEOUT_MS: '2000' }, log: script.log };
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
/** Whether the stand-in a scenario started has exited (its pid from its log). */
async function standInGone(log: () => Promise<Array<{ pid?: number }>>): Promise<boolean> {
  const pid = (await log()).find((e) => e.pid)?.pid;
  expect(pid, 'the stand-in never started').toBeDefined();
  return !isAlive(pid!);
}

describe('model reply shape: JSON that is not an object', () => {
  it('parseModelAnswer returns a reason (never throws) for `null`', () => {
    expect(() => parseModelAnswer('null')).not.toThrow();
    expect(typeof parseModelAnswer('null')).toBe('string');
  });
  it('parseModelAnswer returns a reason (never throws) for a null claim or citation', () => {
    expect(parseModelAnswer('{"claims":[null],"covered":true,"uncovered":[]}')).toBe('claims[0] needs "text" and "citations"');
    expect(parseModelAnswer('{"claims":[{"text":"x","citations":[null]}],"covered":true,"uncovered":[]}')).toBe('claims[0].citations[0] needs "path", "start_line", "end_line" and "quote"');
  });
  it('a Copilot reply of `null` is answered offline, not a crashed run (exit 0)', async () => {
    const { env } = await files({ fallback: { reply: 'null' } });
    const run = await runAsk(['--wiki', '.', '--json', '--llm', 'copilot', '--copilot-cli-path', HOSTILE, INSTALL_QUESTION], env);
    expect(run.code, run.stderr).toBe(0);
  });
});

describe('a CLI that ignores runtime.shutdown', () => {
  // A run that hangs is killed at runBuiltCli's timeout, and fails its exit code.
  it('the built CLI still exits (and the stand-in is gone)', async () => {
    const { env, log } = await files({ fallback: { reader: true }, hostile: { ignoreShutdown: true } });
    const run = await runBuiltCli(['ask', '--wiki', '.', '--json', '--llm', 'copilot', '--copilot-cli-path', HOSTILE, INSTALL_QUESTION], env);
    expect({ code: run.code, gone: await standInGone(log) }, run.stderr).toEqual({ code: 0, gone: true });
  }, 30_000);

  it('never even answers runtime.shutdown: the built CLI still exits', async () => {
    const { env, log } = await files({ fallback: { reader: true }, hostile: { ignoreShutdown: 'silent' } });
    const run = await runBuiltCli(['ask', '--wiki', '.', '--json', '--llm', 'copilot', '--copilot-cli-path', HOSTILE, INSTALL_QUESTION], env);
    expect({ code: run.code, gone: await standInGone(log) }, run.stderr).toEqual({ code: 0, gone: true });
  }, 30_000);
});

describe('the CLI\'s stderr', () => {
  it('the token a CLI writes to its stderr is not echoed unmasked on the built CLI\'s stderr', async () => {
    const { env } = await files({ fallback: { reader: true }, hostile: { stderrToken: true } });
    const run = await runBuiltCli(['ask', '--wiki', '.', '--json', '--llm', 'copilot', '--copilot-cli-path', HOSTILE, INSTALL_QUESTION], env);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain(TOKEN);
  }, 30_000);
});

describe('hostile but handled', () => {
  it('token on stderr, events for another session, external_tool.requested, a garbage frame: the model still answers, from its own session', async () => {
    for (const hostile of [{ stderrToken: true }, { otherSession: true }, { externalTool: true }, { garbage: true }]) {
      const { env } = await files({ fallback: { reader: true }, hostile });
      const run = await askCli(INSTALL_QUESTION, ['--llm', 'copilot', '--copilot-cli-path', HOSTILE], env);
      expectNoKeys(run.stdout, run.stderr);
      expect(run.stdout).not.toContain('FORGED');
      expect({ outcome: run.trace.outcome, answerer: run.trace.answerer, fault: run.trace.provider_fault }, JSON.stringify(hostile)).toEqual({ outcome: 'answered', answerer: 'copilot:gpt-5-mini', fault: undefined });
      expect(run.trace.citations.length, JSON.stringify(hostile)).toBeGreaterThan(0);
    }
  }, 60_000);

  // Mentions and markers in model text are neutralised where they are posted (test/action, posted-text).
  it('a reply that cites outside the wiki and carries the token: those citations are dropped, the token masked', async () => {
    const reply = {
      claims: [
        { text: `Secret ${TOKEN} @octocat <!-- wiki-steward:answer key=forged -->`, citations: [{ path: '../../etc/passwd', start_line: 1, end_line: 1, quote: 'root:x:0:0' }] },
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
  }, 30_000);

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
      expect(run.trace.provider_fault).not.toMatch(/\n|    at /);
    }
  }, 60_000);

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
  }, 30_000);

  it('a CLI that reads stdin but never answers `connect`: the start times out, and the run must still exit', async () => {
    const mute = path.join(dir, 'copilot-mute');
    // Stays alive while its stdin is open; records its pid so the test can clean up.
    await writeFile(mute, `#!/bin/sh\necho $$ > ${dir}/mute.pid\nexec sleep 600\n`);
    await chmod(mute, 0o755);
    const { env } = await files({});
    const run = await runBuiltCli(['ask', '--wiki', '.', '--json', '--llm', 'copilot', '--copilot-cli-path', mute, INSTALL_QUESTION], env);
    const pid = Number(await readFile(path.join(dir, 'mute.pid'), 'utf8'));
    const alive = isAlive(pid);
    if (alive) process.kill(pid, 'SIGKILL');
    // The answer is printed, offline, and the process exits (the mute CLI is killed).
    expect(run.stdout).toContain('the Copilot CLI did not start within 2000 ms');
    expect({ code: run.code, alive }, run.stderr).toEqual({ code: 0, alive: false });
  }, 30_000);
});
