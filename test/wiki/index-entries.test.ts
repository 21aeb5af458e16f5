import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isIndexFilePath, parseIndexFile } from '../../src/wiki/index-entries.js';
import { wikilinkResolver } from '../../src/wiki/wikilinks.js';
import { parseSchema } from '../../src/wiki/schema-file.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/compat');
const noSlugs = { resolveWikilink: () => undefined };

describe('index files', () => {
  it('reads upstream generated _index.md entries without the quality marker', async () => {
    const text = await readFile(path.join(fixtures, 'expected/how-to/_index.md'), 'utf8');
    const entries = parseIndexFile('how-to/_index.md', text, noSlugs);
    expect(entries).toHaveLength(10);
    expect(entries[0]).toEqual({
      indexFile: 'how-to/_index.md',
      line: 4,
      path: 'how-to/Zeta-Upper.md',
      title: 'Zeta Upper',
      summary: 'Capitalised file names sort before lower-case ones in code-point order.',
    });
    expect(entries.find((e) => e.path === 'how-to/score-word-score.md')!.summary).toBe(
      "The index shows this page's overall score the way the upstream builder formats it.",
    );
  });

  it('ignores subdirectory blocks and the root MOC category lines', async () => {
    const concepts = await readFile(path.join(fixtures, 'expected/concepts/_index.md'), 'utf8');
    expect(parseIndexFile('concepts/_index.md', concepts, noSlugs).map((e) => e.path)).not.toContain('concepts/a/_index.md');
    const root = await readFile(path.join(fixtures, 'expected/index.md'), 'utf8');
    expect(parseIndexFile('index.md', root, noSlugs)).toEqual([]);
  });

  it('reads the legacy sectioned index and hand-written lists', () => {
    const legacy =
      '# Wiki Index\n\n## Concepts\n- [Rate Limiting](concepts/rate-limiting.md) — Patterns for handling API rate limits.\n\n## Entities\n(empty)\n';
    expect(parseIndexFile('index.md', legacy, noSlugs)).toEqual([
      { indexFile: 'index.md', line: 4, path: 'concepts/rate-limiting.md', title: 'Rate Limiting', summary: 'Patterns for handling API rate limits.' },
    ]);
    const hand =
      '# Start here\n\n* [Cache keys](/concepts/cache%20keys.md): how keys are built\n1. [Setup](how-to/setup.md) - first steps, see [other](x.md)\nProse with [a link](concepts/x.md).\n';
    expect(parseIndexFile('index.md', hand, noSlugs).map((e) => [e.path, e.title, e.summary])).toEqual([
      ['concepts/cache keys.md', 'Cache keys', 'how keys are built'],
      ['how-to/setup.md', 'Setup', 'first steps, see [other](x.md)'],
    ]);
  });

  it('reads Obsidian wikilinks: [[slug]], [[path/slug]] and [[slug|alias]]', () => {
    const text = '# Concepts\n\n- [[rate-limiting]] — limits\n- [[concepts/deep/cache|Caching]]: how we cache\n- [[missing-page]]\n';
    const entries = parseIndexFile('index.concepts.md', text, { resolveWikilink: wikilinkResolver(['concepts/rate-limiting.md', 'concepts/deep/cache.md']) });
    expect(entries.map((e) => [e.path, e.title, e.summary])).toEqual([
      ['concepts/rate-limiting.md', '', 'limits'],
      ['concepts/deep/cache.md', 'Caching', 'how we cache'],
    ]);
  });

  it('knows which files are index files', () => {
    expect(['index.md', 'index.concepts.md', '_index.md', 'a/b/_index.md'].every(isIndexFilePath)).toBe(true);
    expect(['concepts/index.md', 'concepts/index.notes.md', 'indexes.md'].some(isIndexFilePath)).toBe(false);
  });
});

describe('schema.md', () => {
  it('reads categories, the tag taxonomy, synonyms and thresholds', async () => {
    const schema = parseSchema(await readFile(path.join(fixtures, 'wiki/schema.md'), 'utf8'));
    expect(schema.categories).toEqual(['concepts', 'entities', 'queries', 'sources', 'ideas']);
    expect(schema.tags).toContain('rate-limit');
    expect(schema.tags).toHaveLength(40);
    const own = parseSchema(
      '# S\n## Tag Taxonomy (bounded)\n- #api, #cache\n- `llm` — models\n### Tag Synonyms\n- LLM == llms\n## Numeric Thresholds\n- split at 200+ lines\n',
    );
    expect(own).toEqual({ categories: [], tags: ['api', 'cache', 'llm'], synonyms: [['llm', 'llms']], thresholds: ['split at 200+ lines'] });
  });
});
