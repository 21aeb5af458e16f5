// Issue 26, item 6: the bench's Obsidian-shaped wiki is what its measures say it is (files named by
// title, path-less [[Title]] links that all resolve, one finding per page: the date-only
// `created`), and the same seed writes the same bytes.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateWiki } from '../../bench/generate-wiki.js';
import { runCli } from '../helpers/cli-in-process.js';

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

async function obsidianWiki(): Promise<{ wiki: string; generated: Awaited<ReturnType<typeof generateWiki>> }> {
  const wiki = await mkdtemp(path.join(os.tmpdir(), 'ws-bench-obsidian-'));
  roots.push(wiki);
  return { wiki, generated: await generateWiki(wiki, { pages: 150, seed: 7, shape: 'obsidian' }) };
}

describe("the bench's Obsidian-shaped wiki (issue 26)", () => {
  it('links by title without paths, and validate finds exactly the date-only created on every page', async () => {
    const { wiki, generated } = await obsidianWiki();
    const first = generated.meta[0]!;
    expect(path.basename(first.path)).toBe(`${first.title}.md`);
    const text = await readFile(path.join(wiki, first.path), 'utf8');
    expect(text).toMatch(/^created: \d{4}-\d{2}-\d{2}$/m);
    const links = [...text.matchAll(/\[\[([^\]]+)\]\]/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThanOrEqual(5);
    expect(links.every((l) => !l.includes('/'))).toBe(true);

    const out = await runCli(['validate', '--format', 'json'], wiki);
    const report = JSON.parse(out.stdout) as { checked: number; diagnostics: Array<{ rule: string; path: string; field?: string }> };
    expect(report.checked).toBe(150);
    expect(report.diagnostics.map((d) => `${d.rule} ${d.field}`)).toEqual(Array(150).fill('timestamps created'));
    expect(new Set(report.diagnostics.map((d) => d.path))).toEqual(new Set(generated.pages));
  });

  it('writes the same bytes for the same seed', async () => {
    const [a, b] = [await obsidianWiki(), await obsidianWiki()];
    expect(b.generated.pages).toEqual(a.generated.pages);
    for (const page of a.generated.pages.slice(0, 20))
      expect(await readFile(path.join(b.wiki, page), 'utf8')).toBe(await readFile(path.join(a.wiki, page), 'utf8'));
  });
});
