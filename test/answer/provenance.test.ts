// wiki.commit names a commit only when the pages read are as that commit holds them: a page changed
// in the work tree, or never committed, makes a permalink to HEAD show other text than was quoted.
import { afterAll, describe, expect, it } from 'vitest';
import { askQuestion, openAskSession } from '../../src/answer/ask.js';
import { openWorkspace } from '../../src/config/workspace.js';
import { TempDirs, createRepo } from '../helpers/git-repo.js';
import { page } from '../helpers/wiki-fixture.js';

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

const HOOKS = page({ title: 'Pre-commit hook', type: 'concepts', body: 'The pre-commit hook validates staged wiki pages before every commit.' });
const QUESTION = 'What does the pre-commit hook validate?';

async function ask(root: string) {
  const session = await openAskSession(await openWorkspace({ cwd: root, wikiFlag: 'wiki' }));
  return askQuestion(session, QUESTION);
}

async function committedWiki() {
  const repo = await createRepo(dirs, {
    'wiki/schema.md': '# Schema\n\nConcepts live in concepts/.\n',
    'wiki/concepts/pre-commit-hook.md': HOOKS,
    'wiki/concepts/labels.md': page({ title: 'Labels', type: 'concepts', body: 'Answers get a label naming their outcome.' }),
  });
  repo.git('add', '--all');
  repo.git('commit', '--quiet', '--no-verify', '-m', 'wiki');
  return repo;
}

describe('wiki.commit', () => {
  it('names HEAD when every page read is as HEAD holds it', async () => {
    const repo = await committedWiki();
    repo.write({ 'wiki/concepts/labels.md': page({ title: 'Labels', type: 'concepts', body: 'Edited, but not read for this question.' }) });
    const trace = await ask(repo.root);
    expect(trace.read).toContain('concepts/pre-commit-hook.md');
    expect(trace.read).not.toContain('concepts/labels.md');
    expect(trace.wiki.commit).toBe(repo.head());
  });

  it('is null, with a note, when a page read is changed in the work tree', async () => {
    const repo = await committedWiki();
    repo.write({ 'wiki/concepts/pre-commit-hook.md': HOOKS.replace('before every commit', 'before each commit, edited') });
    const trace = await ask(repo.root);
    expect(trace.read).toContain('concepts/pre-commit-hook.md');
    expect(trace.wiki.commit).toBeNull();
    expect(trace.notes.join('\n')).toContain(`not as commit ${repo.head()!.slice(0, 7)} holds them (changed or not committed: concepts/pre-commit-hook.md)`);
  });

  it('is null when a page read was never committed', async () => {
    const repo = await committedWiki();
    repo.write({ 'wiki/concepts/hook-checks.md': page({ title: 'Hook checks', type: 'concepts', body: 'The pre-commit hook validate step checks links.' }) });
    const trace = await ask(repo.root);
    expect(trace.read).toContain('concepts/hook-checks.md');
    expect(trace.wiki.commit).toBeNull();
  });
});
