// The blocks of a page as CommonMark reads them: what ranks (headings) and what is quoted
// (sections, paragraphs, items, quotes, table rows) come from this one reading.
import { describe, expect, it } from 'vitest';
import { type Block, atxHeading, markdownBlocks } from '../../src/markdown/blocks.js';

const blocks = (...lines: string[]): Array<[Block['kind'], string, number, number]> => markdownBlocks(lines).map((b) => [b.kind, b.text, b.line, b.level]);

describe('ATX headings', () => {
  it('reads a heading line as CommonMark does, on 50,000 generated lines', () => {
    // CommonMark's rule as an expression: up to three spaces, one to six `#`s, then a space, a tab
    // or the end; a closing run of `#`s only after a space or tab.
    const expression = /^ {0,3}(#{1,6})(?:[ \t]+?(.*?))??(?:[ \t]+#+)?[ \t]*$/;
    const pieces = ['#', ' ', '\t', 'a', 'x y', '##', '  ', '\\'];
    let seed = 5;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let k = 0; k < 50_000; k++) {
      const line = Array.from({ length: Math.floor(next() * 12) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      const m = expression.exec(line);
      const expected = m ? { level: m[1]!.length, text: (m[2] ?? '').replace(/^[ \t]+|[ \t]+$/g, '') } : undefined;
      expect(atxHeading(line), JSON.stringify(line)).toEqual(expected);
    }
  });

  it('takes up to three spaces of indentation (four, or a tab, is code), and a closing run only after a space', () => {
    expect(atxHeading('   ### Three')).toEqual({ level: 3, text: 'Three' });
    expect(atxHeading('    # Four')).toBeUndefined();
    expect(atxHeading('\t# Tab')).toBeUndefined();
    expect(atxHeading('# C#')).toEqual({ level: 1, text: 'C#' });
    expect(atxHeading('## Setup ##  ')).toEqual({ level: 2, text: 'Setup' });
    expect(atxHeading('### ###')).toEqual({ level: 3, text: '' });
    expect(atxHeading('####### seven')).toBeUndefined();
    expect(atxHeading('#hashtag')).toBeUndefined();
  });

  it('reads a hostile line in one pass: 300,000 #s or spaces', () => {
    expect(atxHeading(`## Title ${'#'.repeat(300_000)}`)).toEqual({ level: 2, text: 'Title' });
    expect(atxHeading(`# a${' '.repeat(300_000)}b`)?.text).toMatch(/^a +b$/);
    expect(atxHeading('#'.repeat(300_000))).toBeUndefined();
  });
});

describe('markdown blocks', () => {
  it('reads setext headings: a paragraph (of one line or more) over `===` or `---`, never a list item or a quote', () => {
    expect(blocks('Title', '=====', '', 'Two lines', 'of heading', '---', '', '- an item', '---', '', 'Apart', '', '---')).toEqual([
      ['heading', 'Title', 1, 1],
      ['heading', 'Two lines of heading', 4, 2],
      ['item', 'an item', 8, 0],
      ['paragraph', 'Apart', 11, 0],
    ]);
  });

  it('reads four columns of indentation as code, except where a list goes on', () => {
    expect(blocks('   ## Three', '', '    ## Four is code', '    and this', '', '- item', '', '    goes on')).toEqual([
      ['heading', 'Three', 1, 2],
      ['item', 'item', 6, 0],
      ['paragraph', 'goes on', 8, 0],
    ]);
    // An indented line cannot interrupt a paragraph: it continues it.
    expect(blocks('Prose', '    more prose')).toEqual([['paragraph', 'Prose\nmore prose', 1, 0]]);
  });

  it('skips fenced code: ``` or ~~~, closed only by a run of the same character at least as long', () => {
    expect(blocks('````md', '```', '# not a heading', '````', 'After', '', '~~~', '```', '~~', '~~~~~', '# Heading')).toEqual([
      ['paragraph', 'After', 5, 0],
      ['heading', 'Heading', 11, 1],
    ]);
    // A backtick fence's info string holds no backtick: this line is a code span in a paragraph.
    expect(blocks('``` a`b', '# next')).toEqual([
      ['paragraph', '``` a`b', 1, 0],
      ['heading', 'next', 2, 1],
    ]);
    // A fence never closed runs to the end.
    expect(blocks('~~~', '# inside')).toEqual([]);
  });

  it('reads list items, quotes (lazy lines included), table rows and HTML comment blocks', () => {
    const page = ['- [x] done', '  wrapped', '1. second', '> quoted', 'lazily', '>', '> again', ''];
    page.push('| a | b |', '|---|---|', '| 1 | 2 |', 'c | d', '', '<!--', '# hidden', '-->');
    expect(blocks(...page)).toEqual([
      ['item', 'done\nwrapped', 1, 0],
      ['item', 'second', 3, 0],
      ['quote', 'quoted\nlazily', 4, 0],
      ['quote', 'again', 7, 0],
      ['table-header', '| a | b |', 9, 0],
      ['table-row', '| 1 | 2 |', 11, 0],
      ['table-row', 'c | d', 12, 0],
    ]);
  });

  it('reads CRLF lines as their LF form, and counts lines from the first of the array', () => {
    expect(markdownBlocks(['---', 'title: x', '---', 'Heading\r', '---\r', '', 'Text\r'], 3)).toEqual([
      { kind: 'heading', text: 'Heading', line: 4, level: 2 },
      { kind: 'paragraph', text: 'Text', line: 7, level: 0 },
    ]);
  });
});
