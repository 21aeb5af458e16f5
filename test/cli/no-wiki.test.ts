// A repository with no wiki: every command says so the same way, naming where it looked; `ask`
// still answers cold (the read protocol's A.0), commands that need a wiki exit 2, and a path the
// user set that is missing exits 2 everywhere.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trace } from '../../src/answer/trace.js';
import { runCli } from '../helpers/cli-in-process.js';

let repo = '';
beforeAll(async () => {
  repo = await mkdtemp(path.join(os.tmpdir(), 'ws-no-wiki-'));
  await mkdir(path.join(repo, '.git'));
});
afterAll(() => rm(repo, { recursive: true, force: true, maxRetries: 5 }));

const looked =
  /no wiki found: looked for schema\.md or index\.md in wiki\/, docs\/wiki\/, the repository root under .*; pass --wiki DIR or set 'wiki:' in \.wiki-steward\.yml/;

describe('no wiki', () => {
  it('ask answers cold with the message as a note; exit 0', async () => {
    const run = await runCli(['ask', '--json', 'How do we deploy?'], repo);
    expect(run.code).toBe(0);
    const trace = JSON.parse(run.stdout) as Trace;
    expect(trace).toMatchObject({ branch: 'unconfigured', outcome: 'cold' });
    expect(trace.notes.join('\n')).toMatch(looked);
    expect(trace.answer).toMatch(looked);
  });

  it.each([['validate'], ['index'], ['index', '--check']])('%s says the same and exits 2', async (...args) => {
    const run = await runCli(args, repo);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(looked);
  });

  it('digest reports without wiki health and says why on stderr; exit 0', async () => {
    const run = await runCli(['digest'], repo);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(looked);
  });

  it.each([['ask', 'x'], ['validate'], ['index'], ['digest']])('a --wiki path that does not exist exits 2 for %s, naming it', async (...args) => {
    const run = await runCli([args[0]!, '--wiki', 'nowhere', ...args.slice(1)], repo);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--wiki nowhere');
  });
});
