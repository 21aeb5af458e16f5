// Bounded text (issue 25, item 4): fields clipped at a word, lists shown as their first entries and
// "… and K more", a whole text cut only at a safe place — never inside code, a link, a tag or a
// marker comment — with a note saying how much was left out; and a posted body within GitHub's
// 65,536 characters with the steward's markers whole.
import { describe, expect, it } from 'vitest';
import { andMore, boundedList, clip, cutHere, cutMarkdown, firstOf, safeCutOffset } from '../../src/markdown/bound.js';
import { codeSpans } from '../../src/markdown/code.js';
import { BODY_LIMIT, fitVisible, postableBody } from '../../src/github/posted-text.js';

/** The text outside code spans and fenced blocks: what GitHub renders as markup. */
const outsideCode = (text: string): string => {
  let out = '';
  let at = 0;
  for (const s of codeSpans(text)) {
    out += text.slice(at, s.start);
    at = s.end;
  }
  return (out + text.slice(at)).replace(/^```[\s\S]*?^```/gm, '');
};

describe('clip, firstOf, boundedList', () => {
  it('clips at a word with "…", never past the bound nor inside a surrogate pair', () => {
    expect(clip('short', 10)).toBe('short');
    const clipped = clip('the quick brown fox jumps over the lazy dog', 20);
    expect(clipped.length).toBeLessThanOrEqual(20);
    expect(clipped).toBe('the quick brown fox…');
    const emoji = clip('😀'.repeat(20), 9);
    expect(emoji.length).toBeLessThanOrEqual(9);
    expect(emoji).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('shows the first entries and says how many more', () => {
    expect(boundedList(['a', 'b', 'c'], 5)).toEqual(['a', 'b', 'c']);
    expect(boundedList(['a', 'b', 'c', 'd', 'e'], 2, 'pages')).toEqual(['a', 'b', '… and 3 more pages']);
    expect(andMore(1)).toBe('… and 1 more');
    expect(firstOf(['aaaa', 'bbbb', 'cccc'], 10, { budget: 9, length: (s) => s.length })).toEqual({ shown: ['aaaa', 'bbbb'], left: 1 });
  });
});

describe('cutMarkdown', () => {
  const line = (i: number) => `- item ${i}: \`![p](https://evil.example/${i})\` and [a link](https://example.com/${i}) <sub>x</sub>`;
  const long = Array.from({ length: 2_000 }, (_, i) => line(i)).join('\n');

  it('leaves a text within the limit as it is', () => {
    expect(cutMarkdown('short text', 100)).toBe('short text');
  });

  it('cuts at a line end, within the limit, with a note that counts what was left out', () => {
    for (const limit of [1_000, 5_555, 40_001]) {
      const cut = cutMarkdown(long, limit, cutHere('List'));
      expect(cut.length).toBeLessThanOrEqual(limit);
      const note = /_\[List cut here: ([\d,]+) more characters not shown\]_$/.exec(cut);
      expect(note).not.toBeNull();
      const kept = cut.slice(0, cut.lastIndexOf('\n\n_['));
      expect(long.startsWith(kept)).toBe(true);
      expect(Number(note![1]!.replace(/,/g, ''))).toBe(long.length - kept.length);
      // Whole lines only: every kept line is one of the list's lines.
      for (const l of kept.split('\n'))
        expect(l).toMatch(/^- item \d+: `!\[p\]\(https:\/\/evil\.example\/\d+\)` and \[a link\]\(https:\/\/example\.com\/\d+\) <sub>x<\/sub>$/);
      expect(outsideCode(cut)).not.toContain('![');
    }
  });

  it('never cuts inside a code span, a link, a tag or a bare URL on one enormous line', () => {
    const span = `${'word '.repeat(50)}\`${'![p](https://evil.example/pixel) '.repeat(40)}\` tail`;
    const at = safeCutOffset(span, 600);
    expect(at).toBeLessThanOrEqual(span.indexOf('`'));
    expect(outsideCode(cutMarkdown(span, 700))).not.toContain('![');

    const link = `${'x'.repeat(100)} [${'t'.repeat(50)}](https://example.com/${'p'.repeat(200)}) end`;
    const cutLink = safeCutOffset(link, 200);
    expect(cutLink).toBeLessThanOrEqual(link.indexOf('['));
    const tag = `${'x'.repeat(100)}<img src="https://evil.example/${'p'.repeat(100)}"> end`;
    expect(safeCutOffset(tag, 150)).toBeLessThanOrEqual(tag.indexOf('<'));
    const url = `${'x'.repeat(100)}https://example.com/${'p'.repeat(100)} end`;
    expect(safeCutOffset(url, 150)).toBeLessThanOrEqual(url.indexOf('https'));
  });

  it('never cuts inside a fenced block (the fence would swallow the note)', () => {
    const text = `Intro.\n\n\`\`\`mermaid\n${'  "a" : 1\n'.repeat(500)}\`\`\`\n\nAfter.`;
    const cut = cutMarkdown(text, 2_000);
    expect(cut.length).toBeLessThanOrEqual(2_000);
    expect(cut.startsWith('Intro.\n\n_[Text cut here')).toBe(true);
  });

  it('closes a <details> it cuts through, after the note', () => {
    const text = `<details><summary>How</summary>\n\n${Array.from({ length: 500 }, (_, i) => `- line ${i}`).join('\n')}\n\n</details>`;
    const cut = cutMarkdown(text, 1_000);
    expect(cut.length).toBeLessThanOrEqual(1_000);
    expect(cut).toMatch(/_\[Text cut here: [\d,]+ more characters not shown\]_\n\n<\/details>$/);
  });
});

describe('postableBody and fitVisible', () => {
  const marker = '<!-- wiki-steward:answer key=abc -->';
  const trace = `<!-- wiki-steward:trace ${JSON.stringify({ x: 'y'.repeat(5_000) })} -->`;

  it("keeps a body within GitHub's limit, its markers whole and last, with a note saying what was cut", () => {
    const text = Array.from({ length: 5_000 }, (_, i) => `- @user${i} wrote \`code ${i}\` about <img src=x> and more words`).join('\n');
    const body = postableBody({ text, markers: [marker, trace] });
    expect(body.length).toBeLessThanOrEqual(BODY_LIMIT);
    expect(body.endsWith(`\n${marker}\n${trace}`)).toBe(true);
    expect(body).toMatch(/_\[Cut here to stay within GitHub's 65,536-character limit: [\d,]+ more characters not shown\]_\n<!-- wiki-steward:answer/);
    // Neutralised as every posted body is: no mention survives the cut.
    expect(body).not.toMatch(/@user\d/);
    expect(postableBody('short')).toBe('short');
  });

  it('refuses markers that alone would not fit', () => {
    expect(() => postableBody({ text: 'x', markers: [`<!-- wiki-steward:trace ${'y'.repeat(BODY_LIMIT)} -->`] })).toThrow(/over the 65536-character limit/);
  });

  it('cuts only the flexible part, to the room the others leave', () => {
    const visible = fitVisible(['Head.', { flexible: 'word '.repeat(10_000), what: 'Answer' }, 'Foot.'], 2_000);
    expect(visible.length).toBeLessThanOrEqual(2_000);
    expect(visible.startsWith('Head.\n\nword word')).toBe(true);
    expect(visible).toMatch(/_\[Answer cut here: [\d,]+ more characters not shown\]_\n\nFoot\.$/);
  });
});
