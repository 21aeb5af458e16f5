// `[[wikilinks]]` resolved as Obsidian resolves them (finding them: test/markdown/links.test.ts).
import { describe, expect, it } from 'vitest';
import { wikilinkResolver } from '../../src/wiki/wikilinks.js';

describe('wikilinks', () => {
  it('resolves the exact path first, else the shortest unique path with that stem, case-insensitively', () => {
    const resolve = wikilinkResolver([
      'concepts/cache.md',
      'concepts/dup.md',
      'how-to/dup.md',
      'how-to/thing.md',
      'how-to/deep/thing.md',
      'a/b/deep/thing.md',
      'notes/Rate-Limiting.md',
    ]);
    expect(resolve('cache')).toBe('concepts/cache.md');
    expect(resolve('Concepts/Cache.md')).toBe('concepts/cache.md');
    expect(resolve('rate-limiting')).toBe('notes/Rate-Limiting.md');
    expect(resolve('how-to/dup')).toBe('how-to/dup.md');
    expect(resolve('dup')).toBeUndefined(); // ambiguous
    expect(resolve('thing')).toBe('how-to/thing.md'); // shortest
    expect(resolve('deep/thing')).toBe('how-to/deep/thing.md'); // the shorter of two
    expect(resolve('b/deep/thing')).toBe('a/b/deep/thing.md');
    expect(resolve('nowhere')).toBeUndefined();
    expect(resolve('../cache')).toBeUndefined();
    expect(resolve('image.png')).toBeUndefined();
  });
});
