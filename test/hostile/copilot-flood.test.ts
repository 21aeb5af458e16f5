// A CLI that sends a garbage frame, or floods a 20 MB reply.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTALL_QUESTION, KEYS, runBuiltCli } from '../providers/support.js';

const HOSTILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'hostile-stand-in.js');
let dir: string;
const pids: number[] = [];
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'ws-attack16-flood-'));
});
afterAll(async () => {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  await rm(dir, { recursive: true, force: true });
});

let n = 0;
async function run(scenario: object) {
  n++;
  const s = path.join(dir, `s${n}.json`);
  const l = path.join(dir, `l${n}.jsonl`);
  await writeFile(s, JSON.stringify(scenario));
  await writeFile(l, '');
  const started = Date.now();
  const r = await runBuiltCli(['ask', '--wiki', '.', '--json', '--llm', 'copilot', '--copilot-cli-path', HOSTILE, INSTALL_QUESTION], { COPILOT_GITHUB_TOKEN: KEYS.COPILOT_GITHUB_TOKEN, COPILOT_STAND_IN: s, COPILOT_STAND_IN_LOG: l, WIKI_STEWARD_HTTP_TIMEOUT_MS: '3000' });
  for (const line of (await readFile(l, 'utf8')).split('\n').filter(Boolean)) {
    const e = JSON.parse(line) as { pid?: number };
    if (e.pid) pids.push(e.pid);
  }
  return { ...r, ms: Date.now() - started };
}

describe('garbage and floods', () => {
  it('a frame that is not JSON', async () => {
    const r = await run({ fallback: { reader: true }, hostile: { garbage: true } });
    expect(r.code, r.stderr.slice(0, 2000)).toBe(0);
    expect(r.stderr).not.toContain(KEYS.COPILOT_GITHUB_TOKEN);
  }, 30_000);

  it('a 20 MB reply (with the token inside)', async () => {
    const r = await run({ fallback: { reply: `${KEYS.COPILOT_GITHUB_TOKEN} ${'x'.repeat(20_000_000)}` } });
    expect(r.code, r.stderr.slice(0, 2000)).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(KEYS.COPILOT_GITHUB_TOKEN);
    expect(r.ms).toBeLessThan(15_000);
  }, 30_000);
});
