// The catalog reads a page's text once per session: a batch of questions reads the same pages again
// and again, and reading them from disk each time was a tenth of the eval-dev batch.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/config.js';
import { loadCatalog } from '../../src/ladder/catalog.js';
import { type WikiTree, memoryTree } from '../../src/wiki/tree.js';

const page = (title: string) => `---\ntitle: ${title}\ntype: concepts\n---\n\n${title} body.\n`;

describe('catalog page texts', () => {
  it('reads each page once per session, returns pages in the order asked and leaves out those it cannot read', async () => {
    const tree = memoryTree('/wiki', new Map<string, string | Uint8Array>([
      ['concepts/a.md', page('Alpha')],
      ['concepts/b.md', page('Beta')],
      ['concepts/binary.md', new Uint8Array([0x2d, 0x00, 0x2d])],
    ]));
    const asked: string[] = [];
    const counting: WikiTree = { ...tree, readEach: (paths, visit, options) => (asked.push(...paths), tree.readEach(paths, visit, options)) };
    const catalog = await loadCatalog(counting, DEFAULT_CONFIG);
    asked.length = 0; // what loading read does not count

    const first = await catalog.readPages(['concepts/b.md', 'concepts/binary.md', 'concepts/a.md']);
    expect([...first.keys()]).toEqual(['concepts/b.md', 'concepts/a.md']);
    expect(first.get('concepts/a.md')).toBe(page('Alpha'));
    const second = await catalog.readPages(['concepts/a.md', 'concepts/b.md']);
    expect([...second.entries()]).toEqual([['concepts/a.md', page('Alpha')], ['concepts/b.md', page('Beta')]]);
    // Each page was read from the tree once: the second call read nothing.
    expect(asked).toEqual(['concepts/b.md', 'concepts/binary.md', 'concepts/a.md']);
  });
});
