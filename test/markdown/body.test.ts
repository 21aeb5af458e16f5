// Where a page's body starts, as Jekyll (GitHub) and Obsidian read the frontmatter block.
import { describe, expect, it } from 'vitest';
import { bodyOf, bodyStart, frontmatterBlock, lfLineBreaks, openerLanguage } from '../../src/markdown/body.js';

describe('page body', () => {
  it('starts after a block opened by `---` and closed by the next `---` or `...` line', () => {
    const page = '---\ntitle: x\ntags: [a]\n---\n# Body\n';
    expect(frontmatterBlock(page)).toEqual({ block: 'title: x\ntags: [a]', body: { offset: page.indexOf('# Body'), line: 5 } });
    expect(page.slice(bodyStart(page).offset)).toBe('# Body\n');
    const dots = '---  \ntitle: x\n...\t\nText';
    expect(frontmatterBlock(dots)).toEqual({ block: 'title: x', body: { offset: dots.indexOf('Text'), line: 4 } });
    expect(frontmatterBlock('---\n---\nText')).toEqual({ block: '', body: { offset: 8, line: 3 } });
    // A closing line at the very end leaves an empty body.
    expect(frontmatterBlock('---\ntitle: x\n---')).toEqual({ block: 'title: x', body: { offset: 16, line: 4 } });
  });

  it('is the whole page without a block, or when the block never closes', () => {
    for (const page of ['# Title\n---\nText', '---\ntitle: x\nno end', ' ---\ntitle: x\n---\n', '---yaml\ntitle: x\n---\n', '---']) {
      expect(frontmatterBlock(page), JSON.stringify(page)).toBeUndefined();
      expect(bodyStart(page)).toEqual({ offset: 0, line: 1 });
      expect(bodyOf(page)).toBe(page);
    }
  });

  it('reads CRLF line breaks as line breaks', () => {
    const page = '---\r\ntitle: x\r\n---\r\nBody\r\n';
    expect(frontmatterBlock(page)).toEqual({ block: 'title: x', body: { offset: page.indexOf('Body'), line: 4 } });
    expect(bodyOf(page)).toBe('Body\r\n');
    expect(lfLineBreaks('a\r\nb\rc\n')).toBe('a\nb\nc\n');
  });

  it('names the language of a `---js` opener, as gray-matter reads it', () => {
    expect(openerLanguage('---js\nmodule.exports = {}\n---\n')).toBe('js');
    expect(openerLanguage('---\ntitle: x\n---\n')).toBeUndefined();
  });

  it('reads a hostile page in one pass: 300,000 lines after an unclosed opener, a line of 300,000 spaces', () => {
    expect(frontmatterBlock(`---\n${'a\n'.repeat(300_000)}`)).toBeUndefined();
    expect(frontmatterBlock(`---${' '.repeat(300_000)}x\n---\n`)).toBeUndefined();
  });
});
