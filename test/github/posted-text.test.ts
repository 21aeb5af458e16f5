// What the steward posts cannot ping, close or escape: mentions, closing keywords and line breaks.
import { describe, expect, it } from 'vitest';
import { neutralizeMentions, postableVisible } from '../../src/github/posted-text.js';

const WJ = '\u2060';

describe('posted text', () => {
  it('breaks every mention outside a code span, also one after a backtick that opens none', () => {
    expect(neutralizeMentions('ask @maya and @octo-org/bakers')).toBe(`ask @${WJ}maya and @${WJ}octo-org/bakers`);
    // An unpaired backtick: GitHub links the mention after it.
    expect(neutralizeMentions('How do I bake bread `@maya')).toBe(`How do I bake bread \`@${WJ}maya`);
    // Inside a code span it pings no one and copies as written.
    expect(neutralizeMentions('install `@actions/core` first')).toBe('install `@actions/core` first');
    // The steward's own code spans shift the pairing: here `@bob` sits between two spans, outside both.
    expect(neutralizeMentions('`a` `b`@bob` c')).toBe(`\`a\` \`b\`@${WJ}bob\` c`);
    // A span does not cross a blank line (a new paragraph).
    expect(neutralizeMentions('`open\n\n@maya`')).toBe(`\`open\n\n@${WJ}maya\``);
    expect(neutralizeMentions('mail me at me@example.com')).toBe('mail me at me@example.com');
  });

  it('breaks closing keywords before issue references, and writes line breaks as \\n only', () => {
    expect(postableVisible('Fixes #1, closes: #2, resolved octo/wiki#3; fixes the bug')).toBe(
      `Fixes${WJ} #1, closes${WJ}: #2, resolved${WJ} octo/wiki#3; fixes the bug`,
    );
    expect(postableVisible('> hi\r# FORGED\r\n~~~')).toBe('> hi\n# FORGED\n~~~');
    const once = postableVisible('Fixes #1 `@x` @y\r');
    expect(postableVisible(once)).toBe(once);
  });

  it('reads a long hostile text in one pass', () => {
    const text = `${'`a'.repeat(50_000)}${'`@m '.repeat(20_000)}`;
    // Backticks pair in turn: every other `@m` sits inside a span, the others after its closing backtick.
    expect(postableVisible(text).split(WJ).length - 1).toBe(10_000);
  });

  it('pairs backticks only outside fenced blocks: a fence cannot hide a mention in the paragraph after it', () => {
    // A 3-backtick fence closed by 4 backticks; a backtick inside a ~~~ fence and one after it.
    for (const text of ['```\nx\n````\n@user ping\n```', '~~~\n`\n~~~\n@user\n`']) {
      expect(postableVisible(text), text).toContain(`@${WJ}user`);
    }
    // Inside a fence an @ pings no one, and copies as written.
    expect(postableVisible('```\nnpm i @actions/core\n```')).toContain('@actions/core');
  });
});
