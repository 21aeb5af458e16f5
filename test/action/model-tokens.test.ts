// What a model cost, where a team reads it: the Action's `input-tokens` and `output-tokens` outputs
// and a line in the job summary, from the provider's reported usage (the OpenAI stand-in reports
// it, as OpenAI does); offline, both outputs are 0 and the summary has no such line.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GitHubEmulator } from '../github-emulator/emulator.js';
import { type StandIn, readerStep, startStandIn } from '../providers/stand-ins.js';
import { KEYS } from '../providers/support.js';
import { type Workspace, asker, closeChecked, expectExit, makeWorkspace, questionIssue, removeTempDirs, runStep, seededRepo, traceOf } from './harness.js';

const COVERED = 'How do I install the pre-commit hook?';
let openai: StandIn;
let template: Workspace;
let gh: GitHubEmulator;
let ws: Workspace;

beforeAll(async () => {
  openai = await startStandIn('openai', { key: KEYS.OPENAI_API_KEY });
  template = await makeWorkspace();
});
afterAll(async () => {
  await openai.close();
  await removeTempDirs();
});
beforeEach(async () => {
  // The stand-in answers as a reader of the pages sent would, with the usage OpenAI reports.
  openai.reset().setFallback(readerStep);
  ({ gh, ws } = await seededRepo(template));
  asker(gh, 'alice', 'triage');
});
afterEach(() => closeChecked(gh));

const ask = (number: number, inputs: Record<string, string> = {}) => {
  questionIssue(gh, number, COVERED);
  return runStep({
    githubEnv: gh.env(),
    workspace: ws,
    eventName: 'issues',
    payload: gh.events.issues('opened', number),
    inputs,
    env: { OPENAI_API_KEY: KEYS.OPENAI_API_KEY },
  });
};

describe('model tokens', () => {
  it('with a model: the outputs and the summary give the tokens the provider reported for the question', async () => {
    const r = await ask(1, { llm: 'openai', 'llm-base-url': `${openai.url}/v1`, 'llm-model': 'gpt-test' });
    expectExit(r, 0);
    const trace = traceOf(gh.state.commentsOn(1)[0]!.body)!;
    expect(trace.tokens.input).toBeGreaterThan(0);
    expect(trace.tokens.counted).toBe('provider');
    expect(r.outputs['input-tokens']).toBe(String(trace.tokens.input));
    expect(r.outputs['output-tokens']).toBe(String(trace.tokens.output));
    expect(r.summary).toContain(`Model tokens: ${trace.tokens.input} in, ${trace.tokens.output} out (counted by provider).`);
  });

  it('offline: 0 and 0, and no tokens line', async () => {
    const r = await ask(2);
    expectExit(r, 0);
    expect([r.outputs['input-tokens'], r.outputs['output-tokens']]).toEqual(['0', '0']);
    expect(r.summary).not.toContain('Model tokens');
  });
});
