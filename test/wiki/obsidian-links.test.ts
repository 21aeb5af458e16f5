// Issue 26, items 1 and 2: wikilinks resolve to any file of the wiki as Obsidian resolves them, and
// `sources` entries are read as links outside the upstream preset.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { wikilinkResolver } from '../../src/wiki/wikilinks.js';
import { runCli } from '../helpers/cli-in-process.js';
import { page, writeWikiFiles } from '../helpers/wiki-fixture.js';

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

/** A vault whose wiki is its folder `wiki/`, as Obsidian vaults hold them. */
async function vaultWiki(files: Record<string, string>): Promise<string> {
  const vault = await mkdtemp(path.join(os.tmpdir(), 'ws-vault-'));
  roots.push(vault);
  const wiki = path.join(vault, 'wiki');
  await writeWikiFiles(wiki, { 'schema.md': '# Wiki Schema\n', ...files });
  return wiki;
}

const brokenWikilinks = (stdout: string): string[] => stdout.split('\n').filter((l) => l.includes('[wikilink]'));

describe('wikilinks as Obsidian resolves them (issue 26)', () => {
  it('a resolver over every file: notes with or without .md, attachments with their extension, the wiki folder named first', () => {
    const resolve = wikilinkResolver(['index.md', 'concepts/_index.md', 'concepts/cache.md', 'raw/talk.vtt', 'raw/notes.txt'], { wikiName: 'wiki' });
    expect(resolve('index')).toBe('index.md');
    expect(resolve('concepts/_index')).toBe('concepts/_index.md');
    expect(resolve('_INDEX')).toBe('concepts/_index.md');
    expect(resolve('talk.vtt')).toBe('raw/talk.vtt');
    expect(resolve('raw/notes.txt')).toBe('raw/notes.txt');
    expect(resolve('notes')).toBeUndefined(); // an attachment is named with its extension
    expect(resolve('wiki/concepts/cache')).toBe('concepts/cache.md');
    expect(resolve('Wiki/Cache')).toBe('concepts/cache.md');
    expect(resolve('../wiki/concepts/cache')).toBeUndefined(); // never above the wiki root
  });

  it('validate finds no broken wikilink to a file that exists; unknown and ambiguous targets stay findings', async () => {
    const body =
      'See [[index]], [[concepts/_index]], [[wiki/concepts/cache]], [[talk.vtt]], [[raw/notes.txt]], [[cache]] and [[Cache.md]].\n\n[[dup]] [[nowhere]] [[../outside]]\n';
    const wiki = await vaultWiki({
      'index.md': '# Index\n',
      'concepts/_index.md': '# Concepts\n',
      'concepts/a.md': page({ title: 'A', type: 'concepts', body }),
      'concepts/cache.md': page({ title: 'Cache', type: 'concepts' }),
      'concepts/dup.md': page({ title: 'Dup', type: 'concepts' }),
      'how-to/dup.md': page({ title: 'Dup', type: 'how-to' }),
      'raw/talk.vtt': 'WEBVTT\n',
      'raw/notes.txt': 'notes\n',
    });
    await writeFile(path.join(wiki, '.wiki-steward.yml'), 'validate:\n  preset: lenient\n');
    const out = await runCli(['validate'], wiki);
    const found = brokenWikilinks(out.stdout);
    expect(found).toHaveLength(3);
    expect(found[0]).toMatch(/broken wikilink: \[\[dup\]\] \(2 files fit it equally: concepts\/dup\.md, how-to\/dup\.md\)/);
    expect(found[1]).toContain('[[nowhere]] (no file of the wiki fits it)');
    expect(found[2]).toContain('[[../outside]] (no file of the wiki fits it)');
  });

  it('[[Alias]] resolves through frontmatter aliases only when asked; --suggest-config asks where the wiki uses them', async () => {
    const wiki = await vaultWiki({
      'concepts/a.md': page({ title: 'A', type: 'concepts', body: 'See [[Least Recently Used]].\n' }),
      'concepts/lru.md': page({ title: 'LRU', type: 'concepts', extra: 'aliases: [Least Recently Used]\n' }),
    });
    await writeFile(path.join(wiki, '.wiki-steward.yml'), 'validate:\n  preset: upstream\n  rules:\n    wikilink: error\n');
    expect(brokenWikilinks((await runCli(['validate'], wiki)).stdout)).toHaveLength(1);
    const suggest = await runCli(['validate', '--suggest-config'], wiki);
    expect(suggest.stdout).toMatch(/^ {2}wikilink_aliases: true +# 1 pages give aliases:/m);
    await writeFile(path.join(wiki, '.wiki-steward.yml'), suggest.stdout);
    const suggested = await runCli(['validate'], wiki);
    expect(brokenWikilinks(suggested.stdout)).toEqual([]);
  });
});

describe('sources entries as links (issue 26)', () => {
  const sources =
    'sources: ["[[cache]]", "[[wiki/concepts/cache|the cache page]]", "https://example.org/paper", "doi:10.1000/xyz", "10.1000/abc", "docs.rs/clap", "[[gone]]", "raw/missing.pdf"]';
  const files = () => ({
    'concepts/a.md': page({ title: 'A', type: 'concepts' }).replace('sources: [conversation]', sources),
    'concepts/cache.md': page({ title: 'Cache', type: 'concepts' }),
  });
  const missing = (stdout: string) => stdout.split('\n').filter((l) => l.includes('[missing-source]'));

  it('under upstream every entry is a path, as upstream reads it', async () => {
    const wiki = await vaultWiki(files());
    expect(missing((await runCli(['validate'], wiki)).stdout)).toHaveLength(8);
  });

  it('with linked sources a [[wikilink]] resolves as in the body and a URL or DOI is a source; --suggest-config turns it on', async () => {
    const wiki = await vaultWiki(files());
    const suggest = await runCli(['validate', '--suggest-config'], wiki);
    expect(suggest.stdout).toMatch(/^ {2}linked_sources: true +# sources entries: 3 \[\[wikilinks\]\], 4 URLs or DOIs/m);
    await writeFile(path.join(wiki, '.wiki-steward.yml'), suggest.stdout);
    const found = missing((await runCli(['validate'], wiki)).stdout);
    expect(found).toHaveLength(2);
    expect(found[0]).toContain('sources entry [[gone]] is a broken wikilink: no file of the wiki fits it');
    expect(found[1]).toContain('sources entry does not exist in the wiki: raw/missing.pdf');
  });
});
