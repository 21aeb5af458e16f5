// A reader that stops early (`wiki-steward ask … | head -1`) closes the pipe under the built CLI.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT, builtCli } from '../helpers/cli.js';

describe('the built CLI on a closed pipe', () => {
  it('stops quietly when its reader goes away, with no stack trace', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ws-pipe-'));
    const file = path.join(dir, 'q.jsonl');
    await writeFile(
      file,
      Array.from({ length: 300 }, (_, i) => JSON.stringify({ id: i, question: 'How does the orientation ladder choose a branch?' })).join('\n'),
    );
    const child = spawn(process.execPath, [builtCli(), 'ask', '--wiki', path.join(PROJECT_ROOT, 'examples/wiki'), '--questions', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Like `head -1`: read the first answer, then close the pipe.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    await rm(dir, { recursive: true, force: true });
    expect(stderr).not.toMatch(/EPIPE|Error|at /);
    expect(code).toBe(0);
  });
});
