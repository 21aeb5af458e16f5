// Questions asked in GitHub Discussions, answered as issue questions are: in-process through the
// Action's entry function (`runStep`) against the GitHub emulator, which speaks Discussions in
// GraphQL only and executes every query and mutation against GitHub's published schema.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GitHubEmulator } from '../github-emulator/emulator.js';
import { type Workspace, closeChecked, expectExit, makeWorkspace, removeTempDirs, runStep, seededRepo, traceOf, visible } from './harness.js';
import { SERVER, REPO } from './routes.js';

const COVERED = 'How do I install the pre-commit hook?';
const COLD = 'How do I bake sourdough bread?';

let template: Workspace;
let ws: Workspace;
let gh: GitHubEmulator;

beforeAll(async () => {
  template = await makeWorkspace();
});
beforeEach(async () => {
  ({ gh, ws } = await seededRepo(template));
  gh.state.setPermission('alice', 'triage');
});
afterEach(() => closeChecked(gh));
afterAll(removeTempDirs);

const run = (eventName: string, payload: unknown, inputs?: Record<string, string>) =>
  runStep({ githubEnv: gh.env(), workspace: ws, eventName, payload, ...(inputs ? { inputs } : {}) });

/** A question in the Q&A category, labelled as issues are asked. */
function ask(title: string, opts: { category?: string; labels?: string[]; user?: string } = {}) {
  return gh.state.addDiscussion({ title, body: '', user: opts.user ?? 'alice', category: opts.category ?? 'Q&A', labels: opts.labels ?? ['question'] });
}
const comments = (n: number) => gh.state.allDiscussionComments(n);
const reactions = (n: number) => gh.state.discussionReactionsOn({ discussion_number: n }).map((r) => `${r.user} ${r.content}`);
const labelsOf = (n: number) => [...gh.state.discussion(n).labels].sort();

describe('a question asked in a discussion', () => {
  it('gets one top-level comment with permalinks, the folded trace and the signature; 👀 while it works; the outcome label', async () => {
    const d = ask(COVERED);
    const r = await run('discussion', gh.events.discussion('created', d.number));
    expectExit(r, 0);
    const [answer, ...rest] = comments(d.number);
    expect(rest).toEqual([]);
    expect(answer!.parent_id).toBeNull();
    expect(answer!.user).toBe('github-actions[bot]');
    expect(answer!.body.startsWith(`> ${COVERED}\n`)).toBe(true);
    expect(answer!.body).toContain(`${SERVER}/${REPO}/blob/${ws.sha}/wiki/how-to/install-pre-commit-hook.md?plain=1#L`);
    expect(answer!.body).toContain('<details><summary>How this was answered</summary>');
    expect(answer!.body).toContain(`<!-- wiki-steward:answer key=discussion-${d.number} -->`);
    expect(visible(answer!.body)).toMatch(/Helpful\? React with 👍 or 👎/);
    expect(traceOf(answer!.body)?.outcome).toBe('answered');
    expect(reactions(d.number)).toEqual([]);
    expect(labelsOf(d.number)).toEqual(['question', 'wiki:answered']);
    expect(r.outputs['comment-url']).toMatch(new RegExp(`/discussions/${d.number}#discussioncomment-${answer!.id}$`));
  });

  it('an edit updates the same comment in place', async () => {
    const d = ask(COVERED);
    await run('discussion', gh.events.discussion('created', d.number));
    const first = comments(d.number)[0]!;
    const r = await run('discussion', gh.events.discussion('edited', d.number, { changes: { title: 'old title' } }));
    expectExit(r, 0);
    expect(comments(d.number).map((c) => c.id)).toEqual([first.id]);
  });

  it('outside the asked categories, or without the label or a /wiki title, nothing is written', async () => {
    const general = ask(COVERED, { category: 'General' });
    const unlabelled = ask(COVERED, { labels: [] });
    for (const n of [general.number, unlabelled.number]) {
      const r = await run('discussion', gh.events.discussion('created', n));
      expectExit(r, 0);
      expect(comments(n)).toEqual([]);
    }
    expect(gh.writes()).toEqual([]);
  });

  it('discussions.categories names the categories asked in (a name or a slug)', async () => {
    const d = ask(COVERED, { category: 'Ideas' });
    const r = await run('discussion', gh.events.discussion('created', d.number), {});
    expect(comments(d.number)).toEqual([]);
    expectExit(r, 0);
    const configured = await makeWorkspace({ '.wiki-steward.yml': 'discussions:\n  categories: [ideas]\n' });
    ({ gh, ws } = await seededRepo(configured));
    gh.state.setPermission('alice', 'triage');
    const again = ask(COVERED, { category: 'Ideas' });
    expectExit(await run('discussion', gh.events.discussion('created', again.number)), 0);
    expect(traceOf(comments(again.number)[0]!.body)?.outcome).toBe('answered');
  });

  it('a /wiki title asks without the label; a category change into Q&A asks', async () => {
    const titled = ask(`/wiki ${COVERED}`, { labels: [] });
    expectExit(await run('discussion', gh.events.discussion('created', titled.number)), 0);
    expect(traceOf(comments(titled.number)[0]!.body)?.question).toBe(COVERED);
    const moved = ask(COVERED, { category: 'General' });
    gh.state.moveDiscussion(moved.number, 'Q&A');
    expectExit(await run('discussion', gh.events.discussion('category_changed', moved.number, { changes: { category: 'General' } })), 0);
    expect(comments(moved.number)).toHaveLength(1);
  });

  it('the same gate as issues: an asker below min-permission gets the short refusal; a bot is never answered', async () => {
    gh.state.setPermission('outsider', 'read');
    const d = ask(COVERED, { user: 'outsider' });
    expectExit(await run('discussion', gh.events.discussion('created', d.number)), 0);
    expect(comments(d.number).map((c) => c.body)).toEqual([expect.stringMatching(/^Thanks for the question\./)]);
    const bot = ask(COVERED, { user: 'dependabot[bot]' });
    expectExit(await run('discussion', gh.events.discussion('created', bot.number)), 0);
    expect(comments(bot.number)).toEqual([]);
  });

  it('a `/wiki ask` follow-up is answered by a reply in its thread, with 👀 on the asking comment while it works', async () => {
    const d = ask(COVERED);
    await run('discussion', gh.events.discussion('created', d.number));
    const top = gh.state.addDiscussionComment(d.number, { body: 'Thanks! Related:', user: 'alice' });
    const followUp = gh.state.addDiscussionComment(d.number, { body: '/wiki ask How do I uninstall the hook?', user: 'alice', replyTo: top.id });
    const r = await run('discussion_comment', gh.events.discussionComment('created', followUp.id));
    expectExit(r, 0);
    const answer = comments(d.number).find((c) => c.body.includes(`key=discussion-comment-${followUp.id}`));
    expect(answer?.parent_id).toBe(top.id);
    expect(traceOf(answer!.body)?.question).toBe('How do I uninstall the hook?');
    expect(gh.state.discussionReactionsOn({ comment_id: followUp.id })).toEqual([]);
    // The discussion's own label follows its own question, not the follow-up's.
    expect(labelsOf(d.number)).toEqual(['question', 'wiki:answered']);
  });

  it('a cold question opens the capture pull request, linked both ways', async () => {
    const d = ask(COLD);
    const r = await run('discussion', gh.events.discussion('created', d.number));
    expectExit(r, 0);
    const pull = gh.state.pulls.find((p) => p.head === `wiki-steward/capture/${d.number}`);
    expect(pull).toBeDefined();
    expect(pull!.body).toContain(`${SERVER}/${REPO}/discussions/${d.number}`);
    expect(comments(d.number)[0]!.body).toContain(`${SERVER}/${REPO}/pull/${pull!.number}`);
    expect(labelsOf(d.number)).toEqual(['question', 'wiki:cold']);
  });
});
