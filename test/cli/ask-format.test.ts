// `ask --format text|markdown|json`: terminal text wrapped to the width, the Action's markdown, the trace.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { traceSummary } from '../../src/answer/render.js';
import type { Trace } from '../../src/answer/trace.js';
import { wrapLine } from '../../src/cli/ask-text.js';
import { runCli } from '../helpers/cli-in-process.js';

const example = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../examples/wiki');
const QUESTION = 'How do I install the pre-commit hook?';
const ask = (args: string[], columns?: number) => runCli(['ask', '--wiki', example, ...args, QUESTION], example, columns ? { columns } : {});
const squash = (s: string) => s.replace(/\s+/g, ' ');
const withoutTimings = (trace: Trace) => ({ ...trace, timings_ms: undefined });

describe('ask --format', () => {
  it('text (the default) is the answer and a short trace, no HTML, no line wider than the terminal', async () => {
    const trace = JSON.parse((await ask(['--json'])).stdout) as Trace;
    const firstQuote = /“([^”]+)”/.exec(trace.answer)![1]!;
    for (const columns of [40, 72, undefined]) {
      const run = await ask([], columns);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).not.toMatch(/<details|<summary|<\/details>/);
      const lines = run.stdout.trimEnd().split('\n');
      expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(columns ?? 100);
      expect(squash(run.stdout)).toContain(squash(firstQuote));
      expect(run.stdout).toContain('How this was answered:');
      expect(run.stdout).toMatch(/^From the wiki:\n\n- “/); // the answer keeps its lines
      expect(squash(run.stdout)).toContain(`branch ${trace.branch}`);
      expect(squash(run.stdout)).toContain(`outcome ${trace.outcome}`);
      expect(squash(run.stdout)).toContain(`pages read: ${trace.read.length}`);
      if (columns !== 40) expect(lines.length - lines.indexOf('How this was answered:')).toBeLessThanOrEqual(12); // a few lines, not the whole trace
    }
    expect((await ask(['--format', 'text'], 72)).stdout.replace(/\d+ ms/g, '')).toBe((await ask([], 72)).stdout.replace(/\d+ ms/g, ''));
  });

  it('text lists the top candidates best first and what is missing', async () => {
    const trace = JSON.parse((await ask(['--json'])).stdout) as Trace;
    const out = squash((await ask(['--format', 'text'], 300)).stdout);
    const top = trace.candidates.slice(0, 5).map((c) => c.path);
    expect(out).toContain(`candidates (${trace.candidates.length}, best first): ${top.join(', ')}`);
    expect(out).toContain(trace.missing.length === 0 ? 'missing: nothing' : `missing: ${trace.missing.join(', ')}`);
  });

  it('markdown is the answer and the folded trace, as before', async () => {
    const run = await ask(['--format', 'markdown']);
    expect(run.code, run.stderr).toBe(0);
    const trace = JSON.parse((await ask(['--json'])).stdout) as Trace;
    const old = [trace.answer, '', `<details><summary>How this was answered</summary>`, '', ...traceSummary(trace), '', '</details>'].join('\n');
    const noTimings = (s: string) => s.replace(/^- Timings:.*$/m, '');
    expect(noTimings(run.stdout.trimEnd())).toBe(noTimings(old));
  });

  it('--json and --format json print the same trace; --json with another --format is an error', async () => {
    const a = JSON.parse((await ask(['--json'])).stdout) as Trace;
    const b = JSON.parse((await ask(['--format', 'json'])).stdout) as Trace;
    expect(withoutTimings(b)).toEqual(withoutTimings(a));
    expect(JSON.parse((await ask(['--json', '--format', 'json'])).stdout)).toMatchObject({ question: QUESTION });
    const clash = await ask(['--json', '--format', 'text']);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain('--json is --format json');
    expect((await ask(['--format', 'html'])).code).toBe(2);
  });

  it('--questions prints JSON lines whatever the format, and --help says so', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ws-ask-format-'));
    const file = path.join(dir, 'q.jsonl');
    await writeFile(file, `{"id": 1, "question": "${QUESTION}"}\n`);
    for (const format of ['text', 'markdown']) {
      const run = await runCli(['ask', '--wiki', example, '--format', format, '--questions', file], example);
      expect(JSON.parse(run.stdout.trim())).toMatchObject({ id: 1, question: QUESTION });
    }
    const help = await runCli(['ask', '--help'], example);
    expect(squash(help.stdout)).toContain('one JSON result per line, same order, whatever the format');
    expect(help.stdout).toMatch(/--format <format>[\s\S]*text[\s\S]*markdown[\s\S]*json/);
  });
});

describe('ask --questions', () => {
  const batch = async (content: string | Buffer) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ws-ask-batch-'));
    await writeFile(path.join(dir, 'q.jsonl'), content);
    return runCli(['ask', '--wiki', example, '--questions', path.join(dir, 'q.jsonl')], example);
  };

  it('reads a file that starts with a byte order mark (PowerShell writes one)', async () => {
    const run = await batch(`\uFEFF{"id": "a", "question": "${QUESTION}"}\r\n{"id": "b", "question": "${QUESTION}"}\r\n`);
    expect(run.code, run.stderr).toBe(0);
    expect(
      run.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { id: string }).id),
    ).toEqual(['a', 'b']);
  });

  it('checks every line before asking anything: bad lines are all named, and nothing is printed', async () => {
    const lines = [
      `{"id": 1, "question": "${QUESTION}"}`,
      '{"id": 2, "question": ""}',
      '{"id": 3 "question": "x"}',
      'null',
      '[1]',
      `{"id": 6, "question": 42}`,
      `{"id": 7, "question": "${QUESTION}"}`,
    ];
    const run = await batch(`${lines.join('\n')}\n`);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('5 lines of');
    expect(run.stderr).toContain('nothing was answered');
    for (const [line, why] of [
      [2, '"question" must be a non-empty string'],
      [3, 'not JSON'],
      [4, 'not a JSON object'],
      [5, 'not a JSON object'],
      [6, '"question" must be a non-empty string'],
    ] as const) {
      expect(run.stderr).toContain(`q.jsonl:${line}: ${why}`);
    }
  });

  it('says a file that is not UTF-8 is not, instead of asking questions with its letters replaced', async () => {
    const run = await batch(Buffer.from(`{"id": 1, "question": "Qu\xe9 es la escalera?"}\n`, 'latin1'));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('not UTF-8 text');
  });
});

describe('wrapLine', () => {
  it('breaks at spaces, continues list items under their text, and cuts words longer than the line', () => {
    expect(wrapLine('short', 10)).toEqual(['short']);
    expect(wrapLine('- one two three four five', 12)).toEqual(['- one two', '  three four', '  five']);
    expect(wrapLine('abcdefghijklmnop', 5)).toEqual(['abcde', 'fghij', 'klmno', 'p']);
    for (const l of wrapLine('- `some/very/long/path/to/a/page.md` lines 1-2, and more words here', 12)) expect(l.length).toBeLessThanOrEqual(12);
    expect(wrapLine(' '.repeat(30), 10)).toEqual(['']);
    expect(wrapLine('**Read more:** one two three', 16)).toEqual(['**Read more:**', 'one two three']);
    expect(wrapLine('  1. alpha beta gamma', 14)).toEqual(['  1. alpha', '     beta', '     gamma']);
  });
});
