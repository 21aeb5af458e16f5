// Untrusted text as posted markdown: no HTML, no images, and web links that nothing can break out of.
import { describe, expect, it } from 'vitest';
import { inertText, safeWebUrl, webLink } from '../../src/markdown/inert.js';

describe('inert text', () => {
  it('shows HTML, images and links as text', () => {
    expect(inertText('a <img src="https://e.example/x"> b ![p](https://e.example/p) </script>')).toBe(
      'a &lt;img src="https://e.example/x"> b [p]\\(https://e.example/p) &lt;/script>',
    );
    expect(inertText('[click](javascript:alert(1)) [c](http://e.example/)')).toBe('[click]\\(javascript:alert(1)) [c]\\(http://e.example/)');
  });
  it('leaves no image however the bangs are stacked or escaped', () => {
    for (const hostile of ['!![x](https://e.example/p.png?q=secret)', '!!![x](u)', '!\\![x](u)', '\\!![x](u)', '!!\n![x](u)']) {
      expect(inertText(hostile), hostile).not.toMatch(/!\[/); // `!\[` is a bang and an escaped bracket
    }
  });
  it('leaves comparisons and arrows alone', () => {
    expect(inertText('p < 0.05 and a -> b')).toBe('p < 0.05 and a -> b');
  });
});

describe('web links', () => {
  it('accepts only https URLs that parse, without credentials', () => {
    expect(safeWebUrl('https://docs.example/a?b=1#c')).toBe('https://docs.example/a?b=1#c');
    for (const url of ['http://docs.example/', 'javascript:alert(1)', 'data:text/html,x', 'https://user:pw@docs.example/', 'not a url', '//docs.example/'])
      expect(safeWebUrl(url)).toBeUndefined();
  });
  it('percent-encodes every character that could end the link', () => {
    expect(safeWebUrl('https://docs.example/a)![x](https://evil.example/?d=1)')).toBe('https://docs.example/a%29!%5Bx%5D%28https://evil.example/?d=1%29');
    expect(webLink('Docs', "https://docs.example/it's <here>")).toBe('[Docs](https://docs.example/it%27s%20%3Chere%3E)');
  });
  it('writes a title without brackets or backslashes, and the title alone for a URL it refuses', () => {
    expect(webLink('A [b] c\\', 'https://docs.example/')).toBe('[A b c](https://docs.example/)');
    expect(webLink('Script ![x](y)', 'javascript:alert(1)')).toBe('Script !x(y)');
  });
});
