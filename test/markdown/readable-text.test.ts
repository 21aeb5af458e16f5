// Inline markdown as the text a reader sees: the form quotes are stored in and compared in.
import { describe, expect, it } from 'vitest';
import { readableText } from '../../src/markdown/readable-text.js';

describe('readableText', () => {
  it('renders wikilinks, links, emphasis and HTML as the text a reader sees', () => {
    expect(readableText('See [[runbooks/deploy-gate|the deploy gate]] and [[approvals]] or [[ops/on-call.md#Paging]].')).toBe(
      'See the deploy gate and approvals or on-call.',
    );
    expect(readableText('[[#Retention]] and [[Brittle Fracture]](concepts/brittle-fracture.md)')).toBe('Retention and Brittle Fracture');
    expect(readableText('Run [the installer](../how-to/install.md) **now**, __then__ *check* _it_.')).toBe('Run the installer now, then check it.');
    expect(readableText('Keep `**raw**` and `[[x]]` in code; KC_DB_URL and snake_case_name stay.')).toBe(
      'Keep `**raw**` and `[[x]]` in code; KC_DB_URL and snake_case_name stay.',
    );
    expect(readableText('A<br>line with <span class="x">tags</span> &nbsp;and   space')).toBe('A line with tags and space');
  });

  it('strips list markers, blockquote marks and headings line by line, and reads table rows as cells', () => {
    expect(readableText('- first item\n  continued\n2. second\n> quoted\n## Heading')).toBe('first item continued second quoted Heading');
    expect(readableText('| Plan | Pages |\n|---|---|\n| Free | 3 |')).toBe('Plan · Pages Free · 3');
  });

  it('is stable: rendering readable text again changes nothing', () => {
    const once = readableText('The **free plan** gives [[plans/free|every workspace]] three pages of `history`.');
    expect(readableText(once)).toBe(once);
    for (const text of [
      'Whales \\_are\\_ mammals, \\*not\\* fish.',
      '> [!note] Careful\n> ==Keep== the %% draft %% key.',
      'Released in 1991.\n![[logo.png]]',
    ]) {
      expect(readableText(readableText(text))).toBe(readableText(text));
    }
  });

  it('reads Obsidian markup and backslash escapes as a reader sees them', () => {
    // An embed is not text: it must not glue a file name onto the sentence before it.
    expect(readableText('Python was first released in 1991.\n![[python-logo.png]]\n![[Snake#Habitat]]')).toBe('Python was first released in 1991.');
    expect(readableText('Pythons eat birds. %% note to self: the snake eats rabbits %% They hunt at night.')).toBe('Pythons eat birds. They hunt at night.');
    expect(readableText('> [!note] Disambiguation\n> This page is about the snake.')).toBe('Disambiguation This page is about the snake.');
    expect(readableText('> [!tip]- Folded\n> Text.')).toBe('Folded Text.');
    expect(readableText('Marked ==highlighted text== here.')).toBe('Marked highlighted text here.');
    // Escaped punctuation is literal: no emphasis is read from it, and the escape stays (the quote is markdown).
    expect(readableText('Whales \\_are\\_ mammals and \\*so\\* are dolphins; *this* is emphasis.')).toBe(
      'Whales \\_are\\_ mammals and \\*so\\* are dolphins; this is emphasis.',
    );
    expect(readableText('A plain [bracket] and a \\[not link\\](x.md).')).toBe('A plain [bracket] and a \\[not link\\](x.md).');
  });

  it('keeps control characters as written: text shaped like its own placeholders is never read as one', () => {
    // Text without markup is read by a fast path that leaves it as it is; with markup it must read the same.
    const lookalikes = 'a \u00010\u0001 b \u00000\u0000 c \u00019\u0001 d';
    expect(readableText(lookalikes)).toBe(lookalikes);
    expect(readableText(`${lookalikes} *e*`)).toBe(`${lookalikes} e`);
    // With a code span and an escape of its own, a lookalike is not replaced by them either.
    expect(readableText('`x` and \\* then \u00000\u0000 and \u00010\u0001')).toBe('`x` and \\* then \u00000\u0000 and \u00010\u0001');
    expect(readableText('\u0000\u0001 `\u00010\u0001` \u0001')).toBe('\u0000\u0001 `\u00010\u0001` \u0001');
  });

  it('reads text without markup as the rules would: the shortcut for it agrees with them', () => {
    // A line `*x*` after it always takes the rules' way; what comes before must read as it does alone.
    const ascii = Array.from({ length: 0x7e - 0x20 }, (_, k) => String.fromCharCode(0x21 + k));
    const shapes = (c: string) => [`a ${c} b`, `${c} a`, `${c}${c} a`, `a${c}b${c}c`, `${c}a${c}`, `a\n${c} b`, `1${c} a`, `a\n\n1${c} b`];
    const texts = [
      ...ascii.flatMap(shapes),
      'caf&eacute; &amp; co',
      'x &#35; y',
      'a&nbsp;b',
      'c &#160; d',
      '- one\n- two',
      '1. one\n2) two',
      '> quoted',
      '| a | b |',
      'a\u00a0b',
    ];
    for (const text of texts) expect(`${readableText(text)} x`.trim(), JSON.stringify(text)).toBe(readableText(`${text}\n*x*`));
  });

  it('reads hostile text in one pass: 300,000 brackets, backticks or comment openers', () => {
    // Each of these made an expression rescan the rest of the text from each of its characters (minutes).
    for (const piece of ['[', '[[', '[](', '![[', '[^', '`', '<!--', '%%', '<http:', '# ', '**a']) {
      const text = `The ocelot is a wild cat. ${piece.repeat(Math.ceil(300_000 / piece.length))} The end.`;
      expect(readableText(text), piece).toContain('The ocelot is a wild cat.');
    }
  });
});

describe('readableText and CommonMark', () => {
  it('pairs code spans run to run, and reads heading marks as the blocks do', () => {
    expect(readableText('Keep ``a `b` c`` whole and `this`.')).toBe('Keep ``a `b` c`` whole and `this`.');
    expect(readableText('## Setup ##')).toBe('Setup');
    expect(readableText('# C#')).toBe('C#');
    expect(readableText('- [ ] a task')).toBe('a task');
  });
});
