// `[[wikilinks]]`: found outside code, resolved as Obsidian resolves them.
import { describe, expect, it } from 'vitest';
import { blankCode, findWikilinks, wikilinkResolver } from '../../src/wiki/wikilinks.js';

describe('wikilinks', () => {
  it('finds [[slug]], [[path/slug]], [[slug|text]] and [[slug#heading]], never in code', () => {
    const text = 'A [[one]], [[a/two|Two, really]], [[three#Part]] and ![[four]]; [[#here]] is the page itself.\n`[[no]]` and ``[[no `x` no]]``\n```js\n[[no]]\n```\n~~~\n[[no]]\n~~~\n[[five | spaced ]]';
    expect(findWikilinks(text)).toEqual([
      { target: 'one' },
      { target: 'a/two', text: 'Two, really' },
      { target: 'three' },
      { target: 'four' },
      { target: 'five', text: 'spaced' },
    ]);
    expect(blankCode('x `y` z\n```\ncode\n```\nw').split('\n').map((l) => l.length)).toEqual([7, 3, 4, 3, 1]);
    expect(findWikilinks('an unclosed ` tick and [[six]]')).toEqual([{ target: 'six' }]);
  });

  it('resolves the exact path first, else the shortest unique path with that stem, case-insensitively', () => {
    const resolve = wikilinkResolver(['concepts/cache.md', 'concepts/dup.md', 'how-to/dup.md', 'how-to/thing.md', 'how-to/deep/thing.md', 'a/b/deep/thing.md', 'notes/Rate-Limiting.md']);
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
