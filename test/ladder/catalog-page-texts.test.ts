// The catalog reads a page's text once per session: a batch of questions reads the same pages again
// and again, and reading them from disk each time was a tenth of the eval-dev batch.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/config.js';
import { loadCatalog } from '../../src/ladder/catalog.js';
import { type WikiTree, memoryTree } from '../../src/wiki/tree.js';
import { askQuestion, ladderOptionsOf, offlineProviders } from '../../src/answer/ask.js';
import { ANSWERER } from '../../src/answer/offline-answerer.js';

const page = (title: string) => `---\ntitle: ${title}\ntype: concepts\n---\n\n${title} body.\n`;

describe('catalog page texts', () => {
  it('reads each page once per session, returns pages in the order asked and leaves out those it cannot read', async () => {
    const tree = memoryTree(
      '/wiki',
      new Map<string, string | Uint8Array>([
        ['concepts/a.md', page('Alpha')],
        ['concepts/b.md', page('Beta')],
        ['concepts/binary.md', new Uint8Array([0x2d, 0x00, 0x2d])],
      ]),
    );
    const asked: string[] = [];
    const counting: WikiTree = { ...tree, readEach: (paths, visit, options) => (asked.push(...paths), tree.readEach(paths, visit, options)) };
    const catalog = await loadCatalog(counting, DEFAULT_CONFIG);
    asked.length = 0; // what loading read does not count

    const first = await catalog.readPages(['concepts/b.md', 'concepts/binary.md', 'concepts/a.md']);
    expect([...first.keys()]).toEqual(['concepts/b.md', 'concepts/a.md']);
    expect(first.get('concepts/a.md')).toBe(page('Alpha'));
    const second = await catalog.readPages(['concepts/a.md', 'concepts/b.md']);
    expect([...second.entries()]).toEqual([
      ['concepts/a.md', page('Alpha')],
      ['concepts/b.md', page('Beta')],
    ]);
    // Each page was read from the tree once: the second call read nothing.
    expect(asked).toEqual(['concepts/b.md', 'concepts/binary.md', 'concepts/a.md']);
  });

  it('past its size bound the store starts afresh, and the read that passes it still returns every page it asked for', async () => {
    // 20 pages of 1.9 million characters (under the 2 MB page limit) pass the 32-million-character bound.
    const paths = Array.from({ length: 20 }, (_, i) => `concepts/big-${i}.md`);
    const big = (i: number) => page(`Big ${i}`) + 'word '.repeat(380_000);
    // The catalog loads from the pages' short versions (what loading reads is not what this test is
    // about, and reading 38 million characters into it is most of the time it would take); the pages
    // have grown to their full size by the time the session reads them.
    const contents = new Map<string, string | Uint8Array>(paths.map((p, i) => [p, page(`Big ${i}`)]));
    const tree = memoryTree('/wiki', contents);
    const asked: string[] = [];
    const counting: WikiTree = { ...tree, readEach: (list, visit, options) => (asked.push(...list), tree.readEach(list, visit, options)) };
    const catalog = await loadCatalog(counting, DEFAULT_CONFIG);
    paths.forEach((p, i) => contents.set(p, big(i)));
    asked.length = 0;
    const all = await catalog.readPages(paths);
    expect([...all.keys()]).toEqual(paths);
    expect([...all.values()]).toEqual(paths.map((_, i) => big(i)));
    // The first pages were let go to stay within the bound, the last ones kept.
    asked.length = 0;
    await catalog.readPages([paths[0]!, paths[19]!]);
    expect(asked).toEqual([paths[0]]);
  });

  it('a question reads from disk only the candidates the answerer reads, and names the rest as beyond its budget', async () => {
    const paths = Array.from({ length: 30 }, (_, i) => `concepts/retry-${i}.md`);
    const tree = memoryTree('/wiki', new Map(paths.map((p, i) => [p, page(`Retry budget ${i}`)])));
    const asked: string[] = [];
    const counting: WikiTree = { ...tree, readEach: (paths, visit, options) => (asked.push(...paths), tree.readEach(paths, visit, options)) };
    const catalog = await loadCatalog(counting, DEFAULT_CONFIG);
    asked.length = 0;
    const session = { catalog, commit: null, changed: new Set<string>(), loadMs: 0, ladder: ladderOptionsOf(DEFAULT_CONFIG), providers: offlineProviders() };
    const trace = await askQuestion(session, 'How does the retry budget work?');
    expect(trace.candidates.length).toBe(30);
    expect(asked).toHaveLength(ANSWERER.OFFLINE_READ_BUDGET);
    expect(new Set(asked)).toEqual(new Set(trace.candidates.slice(0, ANSWERER.OFFLINE_READ_BUDGET).map((c) => c.path)));
    const beyond = trace.unread.filter((u) => u.reason.startsWith('beyond the offline read budget'));
    expect(beyond.map((u) => u.path)).toEqual(trace.candidates.slice(ANSWERER.OFFLINE_READ_BUDGET).map((c) => c.path));
  });
});
