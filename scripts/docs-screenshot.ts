// `npm run docs:screenshot`: the README's picture of an answered issue, docs/images/answered-issue.png.
//
// 1. Runs the Action's answer job in this process against the GitHub emulator, for an issue asking
//    the example wiki a question (test/docs/answered-issue.ts, which screenshot-current.test.ts runs
//    too), and writes the comment it posts to docs/images/answered-issue.md: the record of what the
//    picture shows, and what the test compares with.
// 2. Renders that markdown as GitHub shows it in an issue (marked, GitHub-flavoured: tables,
//    `<details>` folded, HTML comments hidden) in a page made to look like an issue comment.
// 3. Screenshots the page with Chromium (Debian's /usr/bin/chromium, or $CHROMIUM): once to measure
//    the page's height, once at that size.
//
// Chromium is not on CI machines, so this is a documented command, not a part of `npm test`.
//   npm run docs:screenshot [-- --md-only]     (--md-only: the record alone, no Chromium needed)
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { marked } from 'marked';
import { ANSWERED_ISSUE_MD, ANSWERED_ISSUE_PNG, ISSUE_NUMBER, QUESTION, answeredIssue, projectRoot, type AnsweredIssue } from '../test/docs/answered-issue.js';

const exec = promisify(execFile);

/** The page's width in CSS pixels, and how many device pixels each is in the PNG (2: sharp when the README scales it down). */
const WIDTH = 900;
const SCALE = 2;

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** GitHub's light theme, in brief: an issue title and one comment box (avatar, header, rendered body). */
const CSS = `
* { box-sizing: border-box; }
html { background: #fff; }
body { margin: 0; padding: 24px 24px 28px; width: ${WIDTH}px; color: #1f2328; font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif, "Apple Color Emoji", "Segoe UI Emoji", "Noto Color Emoji"; }
h1.title { margin: 0 0 8px; font-size: 26px; font-weight: 400; line-height: 1.25; }
h1.title .number { color: #59636e; font-weight: 300; }
.state { display: flex; align-items: center; gap: 8px; padding-bottom: 16px; margin-bottom: 20px; border-bottom: 1px solid #d1d9e0; color: #59636e; }
.state .open { padding: 5px 12px; border-radius: 2em; background: #1f883d; color: #fff; font-weight: 500; }
.state b { color: #59636e; font-weight: 600; }
.timeline { display: flex; gap: 16px; align-items: flex-start; }
.avatar { flex: none; width: 40px; height: 40px; }
.comment { position: relative; flex: 1; min-width: 0; border: 1px solid #d1d9e0; border-radius: 6px; }
.comment::before { content: ""; position: absolute; top: 11px; left: -8px; width: 14px; height: 14px; background: #f6f8fa; border-left: 1px solid #d1d9e0; border-bottom: 1px solid #d1d9e0; transform: rotate(45deg); }
.comment header { display: flex; align-items: center; gap: 6px; padding: 8px 16px; background: #f6f8fa; border-bottom: 1px solid #d1d9e0; border-radius: 6px 6px 0 0; color: #59636e; }
.comment header strong { color: #1f2328; }
.comment header .bot { padding: 0 6px; border: 1px solid #d1d9e0; border-radius: 2em; font-size: 12px; font-weight: 500; }
.body { padding: 16px; overflow-wrap: break-word; }
.body > :first-child { margin-top: 0; }
.body > :last-child { margin-bottom: 0; }
.body p, .body ul, .body ol, .body blockquote, .body table, .body details { margin: 0 0 16px; }
.body ul, .body ol { padding-left: 2em; }
.body li + li { margin-top: 4px; }
.body a { color: #0969da; text-decoration: none; }
.body blockquote { padding: 0 1em; color: #59636e; border-left: 0.25em solid #d1d9e0; }
.body code { padding: 0.2em 0.4em; border-radius: 6px; background: rgba(129, 139, 152, 0.12); font: 85% ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace; }
.body pre { padding: 16px; border-radius: 6px; background: #f6f8fa; overflow: auto; }
.body pre code { padding: 0; background: none; }
.body table { border-collapse: collapse; }
.body th, .body td { padding: 6px 13px; border: 1px solid #d1d9e0; }
.body summary { cursor: pointer; }
.body sub { color: #59636e; font-size: 12px; }
`;

/** The GitHub Actions bot's avatar, drawn: a blue disc with a play mark. */
const AVATAR = `<svg class="avatar" viewBox="0 0 40 40" aria-hidden="true"><circle cx="20" cy="20" r="20" fill="#2088ff"/><path d="M15 12.5v15l12-7.5z" fill="#fff"/></svg>`;

/** The comment as GitHub shows it: rendered GitHub-flavoured markdown in an issue's timeline. */
export function commentPage(issue: AnsweredIssue): string {
  const body = marked.parse(issue.body, { gfm: true, async: false });
  const [login, suffix] = /^(.*?)(\[bot\])?$/.exec(issue.author)?.slice(1) ?? [issue.author];
  const date = new Date(issue.createdAt).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(QUESTION)}</title><style>${CSS}</style></head>
<body>
<h1 class="title">${escapeHtml(QUESTION)} <span class="number">#${ISSUE_NUMBER}</span></h1>
<div class="state"><span class="open">Open</span><span><b>${escapeHtml(issue.asker)}</b> opened this issue on ${date}</span></div>
<div class="timeline">${AVATAR}
<div class="comment">
<header><strong>${escapeHtml(login ?? issue.author)}</strong>${suffix ? '<span class="bot">bot</span>' : ''}<span>commented on ${date}</span></header>
<div class="body">
${body}
</div>
</div>
</div>
<script>document.body.dataset.height = String(Math.ceil(document.documentElement.getBoundingClientRect().height));</script>
</body></html>
`;
}

/** Chromium, or a message saying how to get it. */
function chromiumPath(): string {
  const candidates = process.env.CHROMIUM ? [process.env.CHROMIUM] : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((c) => existsSync(c));
  if (found === undefined) {
    throw new Error(
      `Chromium not found (looked for ${candidates.join(', ')}). On Debian or Ubuntu: apt-get install chromium fonts-noto-color-emoji; ` +
        'or set CHROMIUM to a Chrome or Chromium executable. docs/images/answered-issue.md is written; the picture is not.',
    );
  }
  return found;
}

/** Headless Chromium on `url`, at `height` CSS pixels, with a fresh profile each time. */
async function chromium(binary: string, url: string, height: number, mode: string[]): Promise<string> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'ws-chromium-'));
  try {
    const { stdout } = await exec(
      binary,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--user-data-dir=${profile}`,
        '--hide-scrollbars',
        `--force-device-scale-factor=${SCALE}`,
        `--window-size=${WIDTH},${height}`,
        ...mode,
        url,
      ],
      { maxBuffer: 16 * 1024 * 1024, timeout: 120_000 },
    );
    return stdout;
  } finally {
    await rm(profile, { recursive: true, force: true, maxRetries: 5 });
  }
}

/** Whether fontconfig knows a font with 👍: without one, Chromium draws the comment's 👍 and 👎 as boxes. */
async function hasEmojiFont(): Promise<boolean> {
  try {
    return (await exec('fc-list', [':charset=1f44d', 'family'])).stdout.trim() !== '';
  } catch {
    return true; // no fontconfig to ask: nothing to say
  }
}

async function main(): Promise<void> {
  const issue = await answeredIssue();
  await mkdir(path.dirname(ANSWERED_ISSUE_MD), { recursive: true });
  await writeFile(ANSWERED_ISSUE_MD, issue.body);
  console.log(`wrote ${path.relative(projectRoot, ANSWERED_ISSUE_MD)}`);
  if (process.argv.includes('--md-only')) return;
  const binary = chromiumPath();
  if (!(await hasEmojiFont())) console.warn('warning: no colour emoji font, so 👍 and 👎 show as boxes (apt-get install fonts-noto-color-emoji)');
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'ws-docs-shot-'));
  try {
    const page = path.join(tmp, 'answered-issue.html');
    await writeFile(page, commentPage(issue));
    const url = pathToFileURL(page).href;
    // Once to measure (the page records its height on <body>), once at that height.
    const dom = await chromium(binary, url, 4000, ['--dump-dom']);
    const height = Number(/data-height="(\d+)"/.exec(dom)?.[1]);
    if (!Number.isInteger(height) || height <= 0) throw new Error(`could not measure the page's height from Chromium's --dump-dom:\n${dom.slice(0, 2000)}`);
    await chromium(binary, url, height, [`--screenshot=${ANSWERED_ISSUE_PNG}`]);
    console.log(`wrote ${path.relative(projectRoot, ANSWERED_ISSUE_PNG)} (${WIDTH}×${height} CSS px at ${SCALE}×)`);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  console.error(`docs:screenshot: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
