// Issue 26, item 3: one finding per wrong type outside upstream's preset, and `validate
// --suggest-config` recognises a wiki whose types are its folders' names in the singular.
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { singularOf } from '../../src/wiki/type-names.js';
import { runCli } from '../helpers/cli-in-process.js';
import { makeWiki, page } from '../helpers/wiki-fixture.js';

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

/** Four folders, each page typed with its folder's singular, plus `extra` pages. */
async function singularWiki(extra: Record<string, string> = {}): Promise<string> {
  const root = await makeWiki({
    'comparisons/a-vs-b.md': page({ title: 'A vs B', type: 'comparison' }),
    'comparisons/c-vs-d.md': page({ title: 'C vs D', type: 'comparison' }),
    'entities/acme.md': page({ title: 'Acme', type: 'entity' }),
    'concepts/cache.md': page({ title: 'Cache', type: 'concept' }),
    'concepts/queue.md': page({ title: 'Queue', type: 'concept' }),
    'processes/release.md': page({ title: 'Release', type: 'process' }),
    ...extra,
  });
  roots.push(root);
  return root;
}

const typeFindings = (stdout: string) => stdout.split('\n').filter((l) => l.endsWith('[type-category]'));

async function withSuggestedConfig(root: string): Promise<string> {
  const suggest = await runCli(['validate', '--suggest-config'], root);
  expect(suggest.code).toBe(0);
  await writeFile(path.join(root, '.wiki-steward.yml'), `${suggest.stdout}\n`);
  return suggest.stdout;
}

describe('singular types (issue 26, item 3)', () => {
  it('singularOf follows spelling, not a word list', () => {
    const cases: Record<string, string> = {
      comparisons: 'comparison',
      entities: 'entity',
      concepts: 'concept',
      sources: 'source',
      processes: 'process',
      classes: 'class',
      boxes: 'box',
      patches: 'patch',
      wishes: 'wish',
      analyses: 'analyse',
      class: 'class',
      meta: 'meta',
      glossary: 'glossary',
    };
    expect(Object.fromEntries(Object.keys(cases).map((plural) => [plural, singularOf(plural)]))).toEqual(cases);
  });

  it('--suggest-config suggests types: singular, and validate then reports no type findings', async () => {
    const root = await singularWiki();
    const config = await withSuggestedConfig(root);
    expect(config).toMatch(/^ {2}types: singular +# 6 of 6 pages with a type name their folder in the singular \(comparisons\/ → comparison\)$/m);
    expect(config).toMatch(/^ {4}type-category: error +# type equals the top folder or its singular on 100% of the pages with a type \(6 of 6\)$/m);
    const run = await runCli(['validate'], root);
    expect(typeFindings(run.stdout)).toEqual([]);
    expect(run.code).toBe(0);
  });

  it('outside the upstream preset a wrong type is one finding, which says what would fit', async () => {
    const root = await singularWiki({
      'concepts/widget.md': page({ title: 'Widget', type: 'widget' }),
      'concepts/acme-too.md': page({ title: 'Acme too', type: 'entity' }),
    });
    const config = await withSuggestedConfig(root);
    expect(config).toMatch(/^ {4}type-category: warn +# type equals the top folder or its singular on 75% of the pages with a type \(6 of 8\)$/m);
    expect(typeFindings((await runCli(['validate'], root)).stdout).sort()).toEqual([
      "concepts/acme-too.md:3: warning: type 'entity' does not match the page's category folder 'concepts'; set 'type: concept' or move the page [type-category]",
      "concepts/widget.md:3: warning: type 'widget' is not one of the wiki's categories (comparisons, concepts, entities, processes) or their singulars, nor the page's folder 'concepts'; set 'type: concept' or move the page [type-category]",
    ]);

    // The lenient preset with upstream's type names: one finding too, for the singular types as well.
    await writeFile(path.join(root, '.wiki-steward.yml'), 'validate:\n  preset: lenient\n');
    const lenient = typeFindings((await runCli(['validate'], root)).stdout);
    expect(lenient.filter((l) => l.startsWith('concepts/widget.md:'))).toEqual([
      "concepts/widget.md:3: warning: type 'widget' is not one of the wiki's categories (comparisons, concepts, entities, processes), nor the page's folder 'concepts'; set 'type: concepts' or move the page [type-category]",
    ]);
    expect(lenient.length).toBe(8);
  });

  it("the upstream preset keeps upstream's two findings for a type that is neither a category nor the folder", async () => {
    const root = await singularWiki({ 'concepts/widget.md': page({ title: 'Widget', type: 'widget' }) });
    const run = await runCli(['validate'], root);
    expect(run.code).toBe(1);
    const categories = '(comparisons, concepts, entities, processes)';
    expect(typeFindings(run.stdout).filter((l) => l.startsWith('concepts/widget.md:'))).toEqual([
      `concepts/widget.md:3: type 'widget' is not one of the wiki's categories ${categories} [type-category]`,
      "concepts/widget.md:3: type 'widget' does not match the page's category folder 'concepts'; set 'type: concepts' or move the page [type-category]",
    ]);
    // A singular type too: upstream's rule knows only the folder's own name.
    expect(typeFindings(run.stdout).filter((l) => l.startsWith('entities/acme.md:')).length).toBe(2);
  });
});
