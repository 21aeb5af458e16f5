// Links in markdown: `[text](target)` exactly as upstream's expression finds them, in one pass, and
// `[[wikilinks]]` outside code.
import { describe, expect, it } from 'vitest';
import { blankCode } from '../../src/markdown/code.js';
import { findWikilinks, linksIn, markdownLinks, withoutLinks } from '../../src/markdown/links.js';

/** Upstream's expression: the scanner must find exactly what it finds. */
const UPSTREAM = /\[([^\]]*)\]\(([^)\s]+)\)/g;
const byExpression = (text: string) => [...text.matchAll(UPSTREAM)].map((m) => ({ index: m.index, text: m[1]!, target: m[2]! }));

/** A small deterministic generator (mulberry32), so a failure names a reproducible case. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('markdown links', () => {
  it('finds what upstream’s expression finds, on 50,000 generated texts of link punctuation', () => {
    const pieces = ['[', ']', '(', ')', '](', ' ', '\n', '\u00a0', 'a', 'x.md', '#h', '[a](b)', '[[', ']]'];
    const next = random(11);
    for (let k = 0; k < 50_000; k++) {
      const text = Array.from({ length: Math.floor(next() * 24) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      expect(markdownLinks(text), JSON.stringify(text)).toEqual(byExpression(text));
    }
  });

  it('reads ordinary links with their text, target and offset', () => {
    const text = 'See [the guide](how-to/setup.md#install) and [x](a b) or [](c.md), then [[wiki]] [y](https://e.x/p?q=1).';
    expect(markdownLinks(text)).toEqual([
      { index: 4, text: 'the guide', target: 'how-to/setup.md#install' },
      { index: 57, text: '', target: 'c.md' },
      { index: 81, text: 'y', target: 'https://e.x/p?q=1' },
    ]);
  });

  it('reads hostile pages in one pass: brackets with no end, and `[](` with no `)`', () => {
    // Each of these made the expression rescan the rest of the page from every `[`: 300 KB took
    // minutes. The long page must end as the short one does.
    for (const piece of ['[', '[[', '[](', '[a](b', '](', '[^']) {
      const page = (times: number) => `${piece.repeat(times)}[ok](page.md)`;
      const links = markdownLinks(page(Math.ceil(300_000 / piece.length)));
      const short = byExpression(page(30));
      expect(links.length > 0, piece).toBe(short.length > 0);
      expect(links.at(-1)?.target.slice(-40), piece).toBe(short.at(-1)?.target.slice(-40));
    }
  });
});

describe('wikilinks', () => {
  it('finds [[slug]], [[path/slug]], [[slug|text]] and [[slug#heading]], never in code', () => {
    const text =
      'A [[one]], [[a/two|Two, really]], [[three#Part]] and ![[four]]; [[#here]] is the page itself.\n`[[no]]` and ``[[no `x` no]]``\n```js\n[[no]]\n```\n~~~\n[[no]]\n~~~\n[[five | spaced ]]';
    expect(findWikilinks(text)).toEqual([
      { target: 'one' },
      { target: 'a/two', text: 'Two, really' },
      { target: 'three' },
      { target: 'four' },
      { target: 'five', text: 'spaced' },
    ]);
    expect(
      blankCode('x `y` z\n```\ncode\n```\nw')
        .split('\n')
        .map((l) => l.length),
    ).toEqual([7, 3, 4, 3, 1]);
    expect(findWikilinks('an unclosed ` tick and [[six]]')).toEqual([{ target: 'six' }]);
    // A code span does not cross a blank line (a new paragraph), nor a fence close on a shorter run.
    expect(findWikilinks('`open\n\n[[seven]]`')).toEqual([{ target: 'seven' }]);
    expect(findWikilinks('````\n[[no]]\n```\n[[no]]\n````\n[[eight]]')).toEqual([{ target: 'eight' }]);
  });
});

describe('any link of a sentence', () => {
  it('finds wikilinks, embeds, markdown links, autolinks and bare URLs, and the words beside them', () => {
    const text = 'See [[a|A]], ![[b.png]], [c](c.md), ![d](d.png), <https://e.x> and https://f.x/p now.';
    expect(linksIn(text)).toEqual(['[[a|A]]', '![[b.png]]', '[c](c.md)', '![d](d.png)', '<https://e.x>', 'https://f.x/p']);
    expect(withoutLinks(text).replace(/\s+/g, ' ')).toBe('See , , , , and now.');
  });
});
