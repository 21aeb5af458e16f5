// The committed bundle, started as a runner starts it: `node action/index.js` with the standard
// Actions environment.
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeWiki, page } from '../helpers/wiki-fixture.js';

const bundle = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../action/index.js');

async function runAction(workspace: string, inputs: Record<string, string> = {}) {
  const summary = path.join(workspace, '.summary.md');
  await writeFile(summary, '');
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, GITHUB_WORKSPACE: workspace, GITHUB_STEP_SUMMARY: summary, GITHUB_EVENT_NAME: 'pull_request' };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  const result = spawnSync(process.execPath, [bundle], { env, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, summary: await readFile(summary, 'utf8') };
}

describe('action bundle: validate', () => {
  it('annotates faults on repository-relative paths and fails the step', async () => {
    const repo = await makeWiki({ 'docs/kb/schema.md': '# S\n', 'docs/kb/concepts/bad.md': page({ title: 'Bad', type: 'ideas' }) });
    const run = await runAction(repo, { 'wiki-path': 'docs/kb' });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("::error title=wiki-steward type-category,file=docs/kb/concepts/bad.md,line=3::type 'ideas' does not match");
    expect(run.stdout).toContain('::error::2 wiki errors in 1 files');
    expect(run.summary).toContain('1 page checked in `docs/kb`: 2 errors');
  });

  it('passes on a valid wiki found without any input (the runner did not fill defaults)', async () => {
    const repo = await makeWiki({ 'wiki/schema.md': '# S\n', 'wiki/concepts/good.md': page({ title: 'Good', type: 'concepts' }) });
    const run = await runAction(repo, { mode: 'validate' });
    expect(run.status).toBe(0);
    expect(run.summary).toContain('1 page checked in `wiki`: 0 errors, 0 warnings');
  });

  it('says what to add when the workspace has no checkout', async () => {
    const result = spawnSync(process.execPath, [bundle], { env: { PATH: process.env.PATH }, encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('run this action in a workflow, after actions/checkout');
  });
});
