// Code as CommonMark finds it: fences, and code spans paired run to run of equal length.
import { describe, expect, it } from 'vitest';
import {
  blankCode,
  closesFence,
  codeSpanReader,
  codeSpans,
  fenceOpening,
  fencedBlockEnd,
  inlineCode,
  replaceCodeSpans,
  spanContent,
} from '../../src/markdown/code.js';

const spansOf = (text: string) => codeSpans(text).map((span) => spanContent(text, span));

describe('code spans', () => {
  it('close only on a run of exactly as many backticks', () => {
    expect(spansOf('a `one` b ``two ` still`` c')).toEqual(['one', 'two ` still']);
    // A run of two is no closer for a run of one, nor a run of three for a run of two.
    expect(spansOf('`a`` b` and ``c``` d``')).toEqual(['a`` b', 'c``` d']);
    expect(spansOf('`unclosed ``and `closed`')).toEqual(['unclosed ``and ']);
    expect(spansOf('``x` y``` z')).toEqual([]);
  });

  it('never cross a blank line, and a backslash makes a backtick literal outside a span only', () => {
    // The first run's paragraph ends at the blank line: in the next, the runs pair afresh.
    expect(spansOf('`open\n\nstill open` and `shut`')).toEqual([' and ']);
    expect(spansOf('`one\nline`')).toEqual(['one\nline']);
    expect(spansOf('\\`not code\\` `code\\`')).toEqual(['code\\']);
    expect(spansOf('\\\\`code` after an escaped backslash')).toEqual(['code']);
  });

  it('are read left to right by a caller that skips what it claims first (an HTML comment)', () => {
    const text = '<!-- ` --> a `b` c';
    const read = codeSpanReader(text);
    // The caller reads the comment first, so the backtick inside it is never asked about.
    expect(read(text.indexOf('a'))).toBeUndefined();
    expect(read(text.indexOf('`b'))).toEqual({ end: text.indexOf(' c'), span: { start: text.indexOf('`b'), end: text.indexOf(' c'), run: 1 } });
    expect(read(text.length - 1)).toBeUndefined();
  });

  it('are replaced in place, the rest kept', () => {
    expect(replaceCodeSpans('run `a b` and ``c``', (written, content) => `<${content}|${written.length}>`)).toBe('run <a b|5> and <c|5>');
  });

  it('are paired in one pass on hostile text: 300,000 backticks in runs of every length', () => {
    const runs = Array.from({ length: 770 }, (_, k) => '`'.repeat(k + 1)).join(' x ');
    expect(codeSpans(runs)).toEqual([]);
    expect(codeSpans('`a'.repeat(150_000))).toHaveLength(75_000);
  });
});

describe('fences', () => {
  it('open on three or more backticks or tildes, up to three columns in, and close on a run at least as long', () => {
    expect(fenceOpening('```ts')).toEqual({ marker: '`', length: 3 });
    expect(fenceOpening('   ~~~~')).toEqual({ marker: '~', length: 4 });
    expect(fenceOpening('    ```')).toBeUndefined();
    expect(fenceOpening('``')).toBeUndefined();
    expect(fenceOpening('``` a`b')).toBeUndefined();
    const fence = { marker: '`', length: 4 } as const;
    const lines = ['```', '````', '`````  ', '   ````', '    ````', '~~~~', '```` x'];
    expect(lines.map((line) => closesFence(line, fence))).toEqual([false, true, true, true, false, false, false]);
  });

  it('end a block at its closing line, or at the end of the text', () => {
    const text = 'a\n~~~\n```\n~~~~\nb';
    expect(fencedBlockEnd(text, 0)).toBeUndefined();
    expect(text.slice(2, fencedBlockEnd(text, 2))).toBe('~~~\n```\n~~~~');
    expect(fencedBlockEnd('```\nnever closed', 0)).toBe(16);
  });

  it('are blanked with the code spans, keeping every line and its length', () => {
    expect(
      blankCode('x `y` z\n```\ncode\n```\nw')
        .split('\n')
        .map((l) => l.length),
    ).toEqual([7, 3, 4, 3, 1]);
    expect(blankCode('~~~\n[[a]]\n~~~\n`[[b]]` [[c]]')).toBe('   \n     \n   \n        [[c]]');
  });
});

describe('inlineCode', () => {
  it('keeps any text one code span on one line, fenced past the backticks it holds', () => {
    expect(inlineCode('KC_DB_URL')).toBe('`KC_DB_URL`');
    expect(inlineCode('zq\n\n~~~')).toBe('`zq ~~~`');
    expect(inlineCode('a`b')).toBe('`` a`b ``');
    expect(inlineCode('``x`')).toBe('``` ``x` ```');
  });
});
