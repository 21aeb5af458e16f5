// The catalog's link texts include `[[wikilinks]]`: the `|text` part, else the target's title.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/config.js';
import { loadCatalog } from '../../src/ladder/catalog.js';
import { loadFileTree } from '../../src/wiki/tree.js';
import { wikilinkWiki } from '../helpers/wikilink-fixture.js';

describe('catalog link texts from wikilinks', () => {
  it('reach the pages they resolve to, and only those', async () => {
    const catalog = await loadCatalog(await loadFileTree(await wikilinkWiki()), DEFAULT_CONFIG);
    const texts = (path: string) => catalog.byPath.get(path)!.linkTexts;
    expect(texts('concepts/rate-limiting.md')).toEqual(['Rate limiting']);
    expect(texts('concepts/retry-budget.md')).toEqual(['how often to retry']);
    expect(texts('concepts/backoff.md')).toEqual(['jittered backoff']);
    expect(texts('concepts/hub.md')).toEqual(['Hub']);
    expect(texts('how-to/thing.md')).toEqual(['Thing']);
    for (const p of ['concepts/cache.md', 'concepts/dup.md', 'how-to/dup.md', 'how-to/deeper/thing.md']) expect(texts(p)).toEqual([]);
  });
});
