// A CLI that sends a garbage frame, or floods a 20 MB reply. A run that hung would be killed at
// runBuiltCli's timeout and fail its exit code.
import { afterAll, describe, expect, it } from 'vitest';
import { COPILOT_STAND_IN as HOSTILE, CopilotScenarios } from '../providers/copilot-scenarios.js';
import { INSTALL_QUESTION, KEYS, runBuiltCli } from '../providers/support.js';

const scenarios = new CopilotScenarios();
afterAll(() => scenarios.cleanup());

async function run(scenario: object) {
  const script = await scenarios.write(scenario);
  return runBuiltCli(['ask', '--wiki', '.', '--json', '--llm', 'copilot', '--copilot-cli-path', HOSTILE, INSTALL_QUESTION], { COPILOT_GITHUB_TOKEN: KEYS.COPILOT_GITHUB_TOKEN, ...script.env, WIKI_STEWARD_HTTP_TIMEOUT_MS: '3000' });
}

describe('garbage and floods', () => {
  it('a frame that is not JSON', async () => {
    const r = await run({ fallback: { reader: true }, hostile: { garbage: true } });
    expect(r.code, r.stderr.slice(0, 2000)).toBe(0);
    expect(r.stderr).not.toContain(KEYS.COPILOT_GITHUB_TOKEN);
    // The frame is skipped: the model's own reply still answers.
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'answered', answerer: 'copilot:gpt-5-mini' });
    expect(JSON.parse(r.stdout).provider_fault).toBeUndefined();
  }, 30_000);

  it('a 20 MB reply (with the token inside)', async () => {
    const r = await run({ fallback: { reply: `${KEYS.COPILOT_GITHUB_TOKEN} ${'x'.repeat(20_000_000)}` } });
    expect(r.code, r.stderr.slice(0, 2000)).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(KEYS.COPILOT_GITHUB_TOKEN);
    // Not an answer's shape, and no budget for a repair: answered offline from the same pages, and the trace says why.
    const trace = JSON.parse(r.stdout);
    expect(trace.outcome).toBe('answered');
    expect(trace.provider_fault).toMatch(/^copilot: token budget of \d+ per question spent$/);
  }, 30_000);
});
