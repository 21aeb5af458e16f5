// The step as the runner sees it (src/action/step.ts): inputs by the runner's naming, outputs and the
// job summary through the file commands, workflow commands that no text can end or forge, and the
// exit code. Real files; the log is a buffer.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Step } from '../../src/action/step.js';
import { workflowCommand } from '../../src/github/workflow-commands.js';
import { makeWorkspace, parseOutputFile, removeTempDirs, runStep } from './harness.js';

let dir: string;
let log: string;
const stepWith = (env: NodeJS.ProcessEnv) => new Step({ env, write: (text) => (log += text) });

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'ws-step-'));
  log = '';
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('workflow commands', () => {
  it('escape the message so no text starts a second command or line', () => {
    expect(workflowCommand('warning', 'two\nlines\r and 100%')).toBe('::warning::two%0Alines%0D and 100%25');
    expect(workflowCommand('error', 'done\n::add-mask::x')).toBe('::error::done%0A::add-mask::x');
  });

  it('write properties in the documented order, escaping `:` and `,`, leaving out empty ones', () => {
    expect(workflowCommand('error', 'bad', { line: 3, file: 'wiki/a,b:c.md', title: 'wiki-steward rule', col: undefined })).toBe(
      '::error title=wiki-steward rule,file=wiki/a%2Cb%3Ac.md,line=3::bad',
    );
  });
});

describe('Step', () => {
  it('reads an input as the runner names it: INPUT_ + upper case, spaces as _, hyphens kept; trimmed', () => {
    const step = stepWith({ 'INPUT_WIKI-PATH': '  docs/wiki \n', INPUT_MY_INPUT: 'x' });
    expect(step.input('wiki-path')).toBe('docs/wiki');
    expect(step.input('my input')).toBe('x');
    expect(step.input('absent')).toBe('');
  });

  it('writes outputs as GITHUB_OUTPUT heredocs that a value with line breaks or `=` cannot break', async () => {
    const file = path.join(dir, 'output.txt');
    await writeFile(file, '');
    const step = stepWith({ GITHUB_OUTPUT: file });
    step.setOutput('outcome', 'answered');
    step.setOutput('body', 'line one\nname=forged\nEOF');
    expect(parseOutputFile(await readFile(file, 'utf8'))).toEqual({ outcome: 'answered', body: 'line one\nname=forged\nEOF' });
    expect(log).toBe('');
  });

  it('without GITHUB_OUTPUT logs the output instead of losing it', () => {
    stepWith({}).setOutput('outcome', 'cold');
    expect(log).toBe('output outcome: cold\n');
  });

  it('appends to the job summary, and says what is missing when there is none', async () => {
    const file = path.join(dir, 'summary.md');
    await writeFile(file, '# before\n');
    await stepWith({ GITHUB_STEP_SUMMARY: file }).appendSummary('## answer');
    expect(await readFile(file, 'utf8')).toBe('# before\n## answer\n');
    await expect(stepWith({}).appendSummary('x')).rejects.toThrow('GITHUB_STEP_SUMMARY is not set');
  });

  it('exits 0 until something fails it; every failure is an error annotation, the exit code stays 1', () => {
    const step = stepWith({});
    step.info('working');
    step.command('add-mask', 'secret-value');
    expect(step.exitCode).toBe(0);
    step.fail('first');
    step.fail('second');
    expect(step.exitCode).toBe(1);
    expect(log).toBe('working\n::add-mask::secret-value\n::error::first\n::error::second\n');
  });
});

describe('the test-only wait switch in a workflow', () => {
  afterEach(() => removeTempDirs());

  it('against github.com: the step fails before any request, naming the switch', async () => {
    const workspace = await makeWorkspace();
    const githubEnv = { GITHUB_API_URL: 'https://api.github.com', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'octo-org/wiki' };
    const payload = {
      action: 'opened',
      issue: { number: 1, title: 'How do I install the pre-commit hook?', body: '', user: { login: 'alice', type: 'User' }, labels: [{ name: 'question' }] },
      sender: { login: 'alice', type: 'User' },
    };
    const r = await runStep({ githubEnv, workspace, eventName: 'issues', payload });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^::error::WIKI_STEWARD_TEST_WAIT_SCALE is a switch for test suites against a local GitHub emulator; it is refused in a workflow that talks to github\.com/m,
    );
    expect(r.outputs).toEqual({});
  });
});
