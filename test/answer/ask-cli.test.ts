// `wiki-steward ask` end to end on the bundled example wiki and on small wikis made for the case.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ANSWERER } from '../../src/answer/offline-answerer.js';
import type { Trace } from '../../src/answer/trace.js';
import { runCli } from '../helpers/cli-in-process.js';
import { makeWiki, page } from '../helpers/wiki-fixture.js';

const example = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../examples/wiki');
const ask = async (question: string, wiki = example, extra: string[] = []) => {
  const run = await runCli(['ask', '--wiki', wiki, '--json', ...extra, question], wiki);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Trace;
};

describe('wiki-steward ask', () => {
  it('answers a covered question inline, citing the page with lines and a quote', async () => {
    const trace = await ask('How do I install the pre-commit hook?');
    expect(trace).toMatchObject({ branch: 'inline', outcome: 'answered' });
    expect(trace.candidates[0]).toMatchObject({ path: 'how-to/install-pre-commit-hook.md' });
    expect(trace.candidates[0]!.matched).toContainEqual({ term: 'hook', field: 'title' });
    expect(trace.citations[0]).toMatchObject({ path: 'how-to/install-pre-commit-hook.md', lines: [expect.any(Number), expect.any(Number)] });
    expect(trace.answer).toContain('`how-to/install-pre-commit-hook.md` line');
    for (const key of ['question', 'branch', 'outcome', 'signal_terms', 'candidates', 'read', 'citations', 'missing', 'answer'])
      expect(trace).toHaveProperty(key);
  });

  it('never answers a fabricated identifier as if it existed', async () => {
    const trace = await ask('How do I set `--max-citations` for the offline answerer?');
    expect(['gap', 'cold']).toContain(trace.outcome);
    expect(trace.missing).toContain('--max-citations');
    expect(trace.answer).toContain('**Not in the wiki:** `--max-citations`');
  });

  it('goes cold when nothing matches, and explores when many pages do', async () => {
    expect(await ask('What is the capital of Australia?')).toMatchObject({ branch: 'cold', outcome: 'cold', candidates: [] });
    const explore = await ask('How do the model providers and web search providers fit together?');
    expect(explore.branch).toBe('explore');
    // Offline, candidates are read best first up to the read budget; the rest are listed unread.
    const paths = explore.candidates.map((c) => c.path);
    expect(explore.read).toEqual(paths.slice(0, ANSWERER.OFFLINE_READ_BUDGET));
    expect(explore.unread.map((u) => u.path)).toEqual(paths.slice(ANSWERER.OFFLINE_READ_BUDGET));
  });

  it('cuts a very long question at a word for the search, and says where', async () => {
    const trace = await ask(`How do I install the pre-commit hook? ${'Please hook '.repeat(500)}`);
    expect(trace.question.length).toBeLessThanOrEqual(4000);
    expect(trace.question).toMatch(/hook$/);
    expect(trace.signal_terms.map((t) => t.term)).not.toContain('ho');
    expect(trace.notes).toContain(`The question was cut to its first ${trace.question.length} characters (at most 4000, at a word) for the wiki search.`);
    expect(trace.outcome).toBe('answered');
  });

  it('honours --inline-max', async () => {
    const trace = await ask('How do I install the pre-commit hook?', example, ['--inline-max', '1']);
    expect(trace.branch).toBe('explore');
  });

  it('says "unconfigured" (outcome cold) when no wiki is configured or found', async () => {
    const repo = await makeWiki({});
    const { rm } = await import('node:fs/promises');
    await rm(path.join(repo, 'schema.md'));
    const run = await runCli(['ask', '--json', 'anything at all?'], repo);
    expect(JSON.parse(run.stdout)).toMatchObject({ branch: 'unconfigured', outcome: 'cold' });
  });

  it('prints the answer and a folded trace with --format markdown', async () => {
    const run = await runCli(['ask', '--wiki', example, '--format', 'markdown', 'What does the cite contract check?'], example);
    expect(run.stdout).toMatch(/^From the wiki:/);
    expect(run.stdout).toContain('<details><summary>How this was answered</summary>');
    expect(run.stdout).toContain('- Branch: **');
  });

  it('--questions answers a JSONL batch in order, passing ids and other fields through', async () => {
    const wiki = await makeWiki({
      'concepts/cache.md': page({ title: 'Cache keys', type: 'concepts', body: 'Cache keys join the tenant and the path.' }),
      'concepts/retry.md': page({ title: 'Retry budget', type: 'concepts', body: 'Retries stop after three attempts.' }),
    });
    const file = path.join(wiki, 'q.jsonl');
    await writeFile(
      file,
      '{"id": 1, "question": "How are cache keys built?", "team": "core"}\n\n{"id": "b", "question": "What is the retry budget?"}\n{"id": 3, "question": "How do I bake bread?"}\n',
    );
    const run = await runCli(['ask', '--wiki', wiki, '--questions', file, '--json'], wiki);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Trace & { team?: string });
    expect(lines.map((l) => [l.id, l.outcome])).toEqual([
      [1, 'answered'],
      ['b', 'answered'],
      [3, 'cold'],
    ]);
    expect(lines[0]!.team).toBe('core');
    const bad = path.join(wiki, 'bad.jsonl');
    await writeFile(bad, '{"id": 1}\n');
    expect((await runCli(['ask', '--wiki', wiki, '--questions', bad, '--json'], wiki)).stderr).toContain('bad.jsonl:1: "question" must be a non-empty string');
  });

  it('a word too common in this wiki to name pages ranks by its rarity but opens no gate, and says so', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`concepts/widget-${i}.md`] = page({ title: `Widget part ${i}`, type: 'concepts' });
    files['concepts/gasket.md'] = page({ title: 'Widget gasket', type: 'concepts', body: 'The gasket seals the widget housing.' });
    const trace = await ask('How does the widget gasket seal?', await makeWiki(files));
    expect(trace.signal_terms).toContainEqual(
      expect.objectContaining({ term: 'widget', gate: false, note: expect.stringContaining('too common to name pages here') }),
    );
    expect(trace).toMatchObject({ branch: 'inline', seed_branch: 'inline', outcome: 'answered' });
    expect(trace.candidates[0]!.path).toBe('concepts/gasket.md');
    expect(trace.candidates.filter((c) => c.source === 'gate').map((c) => c.path)).toEqual(['concepts/gasket.md']);
  });
});
