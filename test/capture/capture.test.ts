// Captures written locally (`ask --capture`): valid pages, fresh indexes, no page overwritten,
// upstream's pending-capture schema, a bootstrap for a repository with no wiki.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { captureSlug, slugify } from '../../src/capture/slug.js';
import { runCli } from '../helpers/cli-in-process.js';
import { TempDirs, createRepo } from '../helpers/git-repo.js';
import { makeWiki, page } from '../helpers/wiki-fixture.js';

const wikiWith = () =>
  makeWiki({
    'concepts/cache.md': page({ title: 'Cache keys', type: 'concepts', body: 'Cache keys join the tenant and the path.' }),
    'concepts/retry.md': page({ title: 'Retry budget', type: 'concepts', body: 'Retries stop after three attempts.' }),
  });

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

describe('slugs', () => {
  it.each([
    ['Hello World! My Title', 'hello-world-my-title'],
    ['Héllo Wörld', 'hello-world'],
    ['C++ / C# tips', 'c-c-tips'],
    ['v2.3.1 release', 'v2-3-1-release'],
  ])('%s → %s', (text, slug) => expect(slugify(text)).toBe(slug));

  it('never leaves a capture without a name', () => {
    expect(captureSlug('日本語の質問 🎉')).toMatch(/^question-[0-9a-f]{8}$/);
    expect(captureSlug('!!!')).toMatch(/^question-/);
    expect(slugify('a'.repeat(200)).length).toBeLessThanOrEqual(60);
  });
});

describe('ask --capture', () => {
  it('writes a valid queries page with fresh indexes for a gap, and never overwrites a page', async () => {
    const wiki = await wikiWith();
    await runCli(['index', '--wiki', wiki], wiki);
    const first = await runCli(['ask', '--wiki', wiki, '--capture', 'How are cache keys rotated with `KEY_ROTATION_DAYS`?'], wiki);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/captured .*queries\/how-are-cache-keys-rotated-with-key-rotation-days\.md \(and 2 index files\)/);
    const text = await readFile(path.join(wiki, 'queries/how-are-cache-keys-rotated-with-key-rotation-days.md'), 'utf8');
    expect(text).toContain('title: "How are cache keys rotated with `KEY_ROTATION_DAYS`?"');
    expect(text).toContain('rated_by: ingester');
    expect(text).toContain('## What the wiki had');
    expect(text).toContain('[concepts/cache.md](/concepts/cache.md) line');
    expect(text).toContain('- `KEY_ROTATION_DAYS`');
    expect((await runCli(['validate', '--wiki', wiki], wiki)).code).toBe(0);
    expect((await runCli(['index', '--check', '--wiki', wiki], wiki)).code).toBe(0);

    // The same question again updates its own capture (and now finds it: the loop works).
    await runCli(['ask', '--wiki', wiki, '--capture', 'How are cache keys rotated with `KEY_ROTATION_DAYS`?'], wiki);
    // A page someone wrote at the slug's path is never overwritten: the capture takes -2.
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(wiki, 'queries/how-do-we-shard-the-zeppelin-fleet-across-regions.md'), page({ title: 'Fleet sharding notes', type: 'queries' }));
    const sharded = await runCli(['ask', '--wiki', wiki, '--capture', 'How do we shard the `ZEPPELIN_FLEET` across regions?'], wiki);
    expect(sharded.stderr).toContain('queries/how-do-we-shard-the-zeppelin-fleet-across-regions-2.md');
    expect(await readFile(path.join(wiki, 'queries/how-do-we-shard-the-zeppelin-fleet-across-regions.md'), 'utf8')).toContain('title: Fleet sharding notes');
    expect((await readdir(path.join(wiki, 'queries'))).sort()).toEqual([
      '_index.md',
      'how-are-cache-keys-rotated-with-key-rotation-days.md',
      'how-do-we-shard-the-zeppelin-fleet-across-regions-2.md',
      'how-do-we-shard-the-zeppelin-fleet-across-regions.md',
    ]);
    expect((await runCli(['validate', '--wiki', wiki], wiki)).code).toBe(0);
  });

  it('writes the new queries/_index.md beside a hand-written root index.md, as index --check expects', async () => {
    const handWrittenRoot = '# Our wiki\n\nStart with the concepts.\n';
    const wiki = await makeWiki({
      'index.md': handWrittenRoot,
      'concepts/cache.md': page({ title: 'Cache keys', type: 'concepts', body: 'Cache keys join the tenant and the path.' }),
    });
    expect((await runCli(['index', '--wiki', wiki], wiki)).code).toBe(0);
    const captured = await runCli(['ask', '--wiki', wiki, '--capture', 'How are cache keys rotated with `KEY_ROTATION_DAYS`?'], wiki);
    expect(captured.stderr).toMatch(/captured .*queries\/how-are-cache-keys-rotated-with-key-rotation-days\.md \(and 1 index file\)/);
    expect(await readFile(path.join(wiki, 'queries/_index.md'), 'utf8')).toContain('(how-are-cache-keys-rotated-with-key-rotation-days.md)');
    expect(await readFile(path.join(wiki, 'index.md'), 'utf8')).toBe(handWrittenRoot);
    expect((await runCli(['index', '--check', '--wiki', wiki], wiki)).code).toBe(0);
  });

  it('never writes over a generated queries/_index.md a person has edited since, which index --check leaves alone', async () => {
    const repo = await createRepo(dirs, {
      'schema.md': '# Wiki Schema\n',
      'concepts/cache.md': page({ title: 'Cache keys', type: 'concepts', body: 'Cache keys join the tenant and the path.' }),
      'queries/old-question.md': page({ title: 'Old question', type: 'queries', body: 'An old question nobody answered.' }),
    });
    expect((await runCli(['index'], repo.root)).code).toBe(0);
    const edited = repo.read('queries/_index.md').replace('An old question nobody answered.', 'Asked at the spring review; still open.');
    repo.write({ 'queries/_index.md': edited });
    repo.git('add', '--all');
    repo.git('commit', '--quiet', '-m', 'wiki, its queries index edited by hand');

    const captured = await runCli(['ask', '--capture', 'How are cache keys rotated with `KEY_ROTATION_DAYS`?'], repo.root);
    expect(captured.stderr).toContain('captured queries/how-are-cache-keys-rotated-with-key-rotation-days.md');
    expect(repo.read('queries/_index.md')).toBe(edited);
    const check = await runCli(['index', '--check'], repo.root);
    expect(check.stderr).toContain('queries/_index.md: edited by hand');
    expect(check.code).toBe(0);
  });

  it('writes nothing for an answered question', async () => {
    const wiki = await wikiWith();
    const run = await runCli(['ask', '--wiki', wiki, '--capture', 'What is the retry budget?'], wiki);
    expect(run.stderr).toContain('no capture: the outcome is answered');
  });

  it("writes upstream's pending capture, flagging a thin body instead of padding it", async () => {
    const wiki = await wikiWith();
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(wiki, '.wiki-steward.yml'), `wiki: .\ncapture:\n  mode: pending\n`);
    await runCli(['ask', '--capture', 'How do I bake sourdough bread?'], wiki);
    const [file] = await readdir(path.join(wiki, '.wiki-pending'));
    expect(file).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ-how-do-i-bake-sourdough-bread\.md$/);
    const text = await readFile(path.join(wiki, '.wiki-pending', file!), 'utf8');
    const keys = text
      .split('\n---\n')[0]!
      .split('\n')
      .slice(1)
      .map((l) => l.split(':')[0]);
    expect(keys).toEqual([
      'title',
      'evidence',
      'evidence_type',
      'capture_kind',
      'suggested_action',
      'suggested_pages',
      'captured_at',
      'captured_by',
      'capture_id',
      'promotion_policy',
      'promotion_decision',
      'promotion_id',
      'propagated_from',
      'needs_more_detail',
      'needs_more_detail_reason',
    ]);
    expect(text).toContain('capture_kind: "chat-only"');
    expect(text).toMatch(/needs_more_detail_reason: "body is \d+ bytes; floor for capture_kind=chat-only is 1500 bytes"/);
  });

  it('bootstraps a wiki when the repository has none', async () => {
    const repo = await makeWiki({});
    const { rm } = await import('node:fs/promises');
    await rm(path.join(repo, 'schema.md'));
    const run = await runCli(['ask', '--capture', 'How do we deploy to staging?'], repo);
    expect(run.stderr).toMatch(/captured wiki\/queries\/how-do-we-deploy-to-staging\.md \(and \d+ new wiki files\)/);
    expect((await readdir(path.join(repo, 'wiki'))).sort()).toEqual(['index.md', 'queries', 'schema.md']);
    expect((await runCli(['validate', '--wiki', 'wiki'], repo)).code).toBe(0);
    expect((await runCli(['index', '--check', '--wiki', 'wiki'], repo)).code).toBe(0);
  });
});
