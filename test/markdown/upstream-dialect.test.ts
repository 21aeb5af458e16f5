// Upstream's own reading of pages, which the validator's verdicts and the index bytes depend on:
// it differs from CommonMark on purpose (markdown/upstream-dialect.ts says where).
import { describe, expect, it } from 'vitest';
import { frontmatterBlock } from '../../src/markdown/body.js';
import {
  blankCodeAsUpstream,
  upstreamBodyLinks,
  upstreamBodyStart,
  upstreamDescription,
  upstreamFrontmatterBlock,
} from '../../src/markdown/upstream-dialect.js';

describe('upstream dialect', () => {
  it('extracts the frontmatter block up to the first `\\n---\\n`, where CommonMark readers also take `...` and trailing spaces', () => {
    expect(upstreamFrontmatterBlock('---\ntitle: x\n---\nBody')).toBe('title: x');
    expect(upstreamFrontmatterBlock('---\ntitle: x\n...\nBody\n---\n')).toBe('title: x\n...\nBody');
    expect(frontmatterBlock('---\ntitle: x\n...\nBody\n---\n')?.block).toBe('title: x');
    expect(upstreamFrontmatterBlock('---\ntitle: x\n---')).toBeUndefined();
    expect(upstreamFrontmatterBlock('--- \ntitle: x\n---\n')).toBeUndefined();
  });

  it('starts the validator’s body after the first `\\n---\\n` anywhere, with its line', () => {
    expect(upstreamBodyStart('---\na: 1\n---\nBody')).toEqual({ offset: 13, line: 4 });
    expect(upstreamBodyStart('No frontmatter\n---\nafter a rule')).toEqual({ offset: 19, line: 3 });
    expect(upstreamBodyStart('---\na: 1\n---')).toBeUndefined();
  });

  it('blanks code as upstream does: anything between triple backticks, then single backticks on one line', () => {
    // A double-backtick span is no span to upstream: its inner `` `z` `` is.
    expect(blankCodeAsUpstream('a ```x``` b `y` c ``z``')).toBe('a         b     c `   `');
    expect(blankCodeAsUpstream('`one\nline`')).toBe('`one\nline`');
  });

  it('finds the body’s links outside code, each with its page line', () => {
    const page = '---\ntitle: x\n---\nSee [a](a.md).\n`[no](no.md)`\n```\n[no](no.md)\n```\nAnd [b](b.md#h) and [c](c d).';
    expect(upstreamBodyLinks(page)).toEqual([
      { target: 'a.md', line: 4 },
      { target: 'b.md#h', line: 9 },
    ]);
  });

  it('describes a page by its first raw paragraph, a heading kept, cut at 200 code points', () => {
    expect(upstreamDescription('---\ntitle: x\n---\n\n# Heading First\n\nText.')).toBe('# Heading First');
    expect(upstreamDescription('---\ntitle: x\n---\nOne\ntwo\n\nThree')).toBe('One two');
    expect(upstreamDescription('no frontmatter')).toBe('');
    const long = `---\nt: x\n---\n${'😀'.repeat(250)}`;
    expect(upstreamDescription(long)).toBe(`${'😀'.repeat(200)}...`);
    expect(upstreamDescription(`---\nt: x\n---\n${'😀'.repeat(200)}`)).toBe('😀'.repeat(200));
  });
});
