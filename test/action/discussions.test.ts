// Questions asked in GitHub Discussions, answered as issue questions are: in-process through the
// Action's entry function (`runStep`) against the GitHub emulator, which speaks Discussions in
// GraphQL only and executes every query and mutation against GitHub's published schema.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GitHubEmulator } from '../github-emulator/emulator.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { granted, parseWorkflow } from '../package/workflow-model.js';
import { PROJECT_ROOT } from '../helpers/cli.js';
import { type Workspace, checkout, expectExit, makeWorkspace, runBundle, seededRepo, snapshotAction, traceOf, visible } from './harness.js';
import { SERVER, REPO } from './routes.js';
import { COLD, COVERED, capturedDiscussion, discussionRepo, graphqlQuery, graphqlRequests, reviewedPage } from './discussion-fixtures.js';

let ws: Workspace;
let gh: GitHubEmulator;

/** A question in the Q&A category (`ask`), labelled as issues are asked. */
const { template, run, ask, comments } = discussionRepo({
  seeded: (repo) => {
    ({ gh, ws } = repo);
    gh.state.setPermission('alice', 'triage');
  },
  current: () => ({ gh, ws }),
});
const reactions = (n: number) => gh.state.discussionReactionsOn({ discussion_number: n }).map((r) => `${r.user} ${r.content}`);
/** The reaction mutations the runs sent, in order: `addReaction EYES <subject node id>`. */
const reactionWrites = () =>
  graphqlRequests(gh)
    .filter((q) => /\b(?:add|remove)Reaction\(/.test(graphqlQuery(q)))
    .map((q) => {
      const body = q.body as { query: string; variables: { id: string; content: string } };
      return `${/\b(add|remove)Reaction\(/.exec(body.query)![1]}Reaction ${body.variables.content} ${body.variables.id}`;
    });
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
    // 👀 on the discussion while the run worked, taken away once the answer was posted.
    const node = gh.state.discussion(d.number).node_id;
    expect(reactionWrites()).toEqual([`addReaction EYES ${node}`, `removeReaction EYES ${node}`]);
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
    expect(reactionWrites().slice(-2)).toEqual([`addReaction EYES ${followUp.node_id}`, `removeReaction EYES ${followUp.node_id}`]);
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

describe('the reviewed capture of a discussion question', () => {
  it('merged with captured_by deleted: the question asked again of the merged wiki, a new top-level comment marked as the answer, once', async () => {
    const { d, pull, file, text } = await capturedDiscussion(gh, run, COLD);
    gh.state.commitFiles({ branch: pull.head, files: { [file]: reviewedPage(text) }, author: 'maya' });
    gh.state.setPermission('maya', 'maintain');
    gh.state.mergePull(pull, { by: 'maya' });
    const merged = await checkout(gh.gitDir());
    const r = await run('pull_request', gh.events.pullRequest('closed', pull.number), undefined, merged);
    expectExit(r, 0);
    const [first, second, ...rest] = comments(d.number);
    expect(rest).toEqual([]);
    expect(traceOf(first!.body)?.outcome).toBe('cold');
    expect(second!.parent_id).toBeNull();
    expect(traceOf(second!.body)?.outcome).toBe('answered');
    expect(visible(second!.body)).toContain('A reviewer wrote the page this answer comes from');
    expect(visible(second!.body)).toContain(`${SERVER}/${REPO}/pull/${pull.number}`);
    expect(second!.body).toContain(`${SERVER}/${REPO}/blob/${merged.sha}/${file}?plain=1#L`);
    expect(gh.state.discussion(d.number).answer_comment_id).toBe(second!.id);
    expect(r.outputs['comment-url']).toMatch(new RegExp(`#discussioncomment-${second!.id}$`));
    // The same event again: nothing new.
    expectExit(await run('pull_request', gh.events.pullRequest('closed', pull.number), undefined, merged), 0);
    expect(comments(d.number)).toHaveLength(2);
  });

  it('merged while still a capture: the plain reply on the discussion, and no answer marked', async () => {
    const { d, pull } = await capturedDiscussion(gh, run, COLD);
    gh.state.mergePull(pull, { by: 'maya' });
    const merged = await checkout(gh.gitDir());
    expectExit(await run('pull_request', gh.events.pullRequest('closed', pull.number), undefined, merged), 0);
    const reply = comments(d.number)[1]!;
    expect(visible(reply.body)).toContain(`was merged in #${pull.number}`);
    expect(gh.state.discussion(d.number).answer_comment_id).toBeNull();
  });

  it("merged as a capture, accepted by a later push: the push's maintain run posts and marks the reviewed answer, once", async () => {
    const { d, pull, file, text } = await capturedDiscussion(gh, run, COLD);
    gh.state.mergePull(pull, { by: 'maya' });
    expectExit(await run('pull_request', gh.events.pullRequest('closed', pull.number), undefined, await checkout(gh.gitDir())), 0);
    expect(comments(d.number)).toHaveLength(2);
    gh.state.commitFiles({ branch: 'main', files: { [file]: reviewedPage(text) }, author: 'maya' });
    const push = {
      ref: 'refs/heads/main',
      repository: { default_branch: 'main' },
      sender: { login: 'maya', type: 'User' },
      commits: [{ added: [], modified: [file] }],
    };
    const r = await run('push', push, undefined, await checkout(gh.gitDir()));
    expectExit(r, 0);
    const all = comments(d.number);
    expect(all).toHaveLength(3);
    expect(traceOf(all[2]!.body)?.outcome).toBe('answered');
    expect(gh.state.discussion(d.number).answer_comment_id).toBe(all[2]!.id);
    // Another push touching the page again: no second reviewed answer.
    expectExit(await run('push', push, undefined, await checkout(gh.gitDir())), 0);
    expect(comments(d.number)).toHaveLength(3);
    // A push that touches no accepted capture page asks GitHub nothing about pull requests.
    const before = gh.requests.length;
    expectExit(await run('push', { ...push, commits: [{ modified: ['README.md'] }] }, undefined, await checkout(gh.gitDir())), 0);
    expect(gh.requests.slice(before).filter((q) => q.route === '/repos/{owner}/{repo}/pulls' && q.query.state === 'closed')).toEqual([]);
  });

  it('accepted by a push after 150 other pull requests closed: still found, looking no further back than the capture', async () => {
    // Closed pull requests of a busy repository: 100 opened and closed two days before the capture, 150 after it.
    gh.state.commitFiles({ branch: 'busy', files: { 'notes.md': 'Busy.\n' }, author: 'bob' });
    const closedPulls = (n: number) =>
      Array.from({ length: n }, (_, i) => {
        const pr = gh.state.addPull({ head: 'busy', title: `Other work ${i}`, user: 'bob' });
        gh.state.closeIssue(pr.issue, 'bob');
        return pr;
      });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
    for (const pr of closedPulls(100)) Object.assign(pr.issue, { created_at: twoDaysAgo, updated_at: twoDaysAgo, closed_at: twoDaysAgo });
    const { d, pull, file, text } = await capturedDiscussion(gh, run, COLD);
    gh.state.mergePull(pull, { by: 'maya' });
    closedPulls(150);
    // Accepted with it, a capture page of today that no pull request added: looked for back to its stamp only.
    const stray = path.posix.join(path.posix.dirname(file), 'hand-written.md');
    const strayText = reviewedPage(text).replace(/^title: .*$/m, 'title: "Hand written"');
    gh.state.commitFiles({ branch: 'main', files: { [file]: reviewedPage(text), [stray]: strayText }, author: 'maya' });
    const before = gh.requests.length;
    const push = {
      ref: 'refs/heads/main',
      repository: { default_branch: 'main' },
      sender: { login: 'maya', type: 'User' },
      commits: [{ modified: [file], added: [stray] }],
    };
    expectExit(await run('push', push, undefined, await checkout(gh.gitDir())), 0);
    const all = comments(d.number);
    expect(traceOf(all.at(-1)!.body)?.outcome).toBe('answered');
    expect(gh.state.discussion(d.number).answer_comment_id).toBe(all.at(-1)!.id);
    // Most recently updated first, 100 a page: the second page reaches pull requests last updated before the captures, and the look stops there (a third would hold 51 more).
    const listed = gh.requests.slice(before).filter((q) => q.route === '/repos/{owner}/{repo}/pulls' && q.query.state === 'closed');
    expect(listed.map((q) => q.query.page ?? '1')).toEqual(['1', '2']);
  });

  it('asked again days after its capture pull request opened (the page captured anew), accepted after 150 other pull requests: still found', async () => {
    // The pull request opened three days ago; 150 others opened two days ago and closed since.
    const daysAgo = (n: number) => new Date(Date.now() - n * 24 * 3600 * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
    const { d, pull, file } = await capturedDiscussion(gh, run, COLD);
    pull.issue.created_at = daysAgo(3);
    gh.state.commitFiles({ branch: 'busy', files: { 'notes.md': 'Busy.\n' }, author: 'bob' });
    for (let i = 0; i < 150; i++) {
      const pr = gh.state.addPull({ head: 'busy', title: `Other work ${i}`, user: 'bob' });
      pr.issue.created_at = daysAgo(2);
      gh.state.closeIssue(pr.issue, 'bob');
    }
    // The question edited today: the capture is made again on the same branch, its page stamped now.
    expectExit(await run('discussion', gh.events.discussion('edited', d.number, { changes: { body: 'old' } })), 0);
    expect(gh.state.pulls.filter((p) => p.head === pull.head)).toEqual([pull]);
    const text = gh.state.fileAt(pull.head, file)!;
    gh.state.mergePull(pull, { by: 'maya' });
    gh.state.commitFiles({ branch: 'main', files: { [file]: reviewedPage(text) }, author: 'maya' });
    const push = { ref: 'refs/heads/main', repository: { default_branch: 'main' }, sender: { login: 'maya', type: 'User' }, commits: [{ modified: [file] }] };
    expectExit(await run('push', push, undefined, await checkout(gh.gitDir())), 0);
    const all = comments(d.number);
    expect(traceOf(all.at(-1)!.body)?.outcome).toBe('answered');
    expect(gh.state.discussion(d.number).answer_comment_id).toBe(all.at(-1)!.id);
  });

  it('GitHub refuses the mark: the reviewed answer stays, the refusal is a warning, the run does not fail', async () => {
    const { d, pull, file, text } = await capturedDiscussion(gh, run, COLD);
    gh.state.commitFiles({ branch: pull.head, files: { [file]: reviewedPage(text) }, author: 'maya' });
    gh.state.mergePull(pull, { by: 'maya' });
    gh.faults.graphqlError({ field: 'markDiscussionCommentAsAnswer', message: 'Discussion is locked' });
    const r = await run('pull_request', gh.events.pullRequest('closed', pull.number), undefined, await checkout(gh.gitDir()));
    expectExit(r, 0);
    expect(comments(d.number)).toHaveLength(2);
    expect(gh.state.discussion(d.number).answer_comment_id).toBeNull();
    expect(r.stdout).toMatch(
      /::warning::The reviewed answer is posted .* but GitHub refused to mark it as the answer of discussion #\d+: .*Discussion is locked/,
    );
  });

  it('never marks an answer the wiki alone produced', async () => {
    const d = ask(COVERED);
    expectExit(await run('discussion', gh.events.discussion('created', d.number)), 0);
    expect(gh.state.discussion(d.number).answer_comment_id).toBeNull();
    expect(gh.writes().filter((w) => JSON.stringify(w.body ?? '').includes('markDiscussionCommentAsAnswer'))).toEqual([]);
  });
});

describe('through the committed bundle, with exactly the permissions the example workflow grants each job', () => {
  const workflow = parseWorkflow(readFileSync(path.join(PROJECT_ROOT, 'examples/workflows/wiki-steward.yml'), 'utf8'), 'wiki-steward.yml');
  const tokenOf = (job: string) => {
    const p = granted(workflow, job)!;
    return {
      login: 'github-actions[bot]',
      type: 'Bot' as const,
      issues: p.issues ?? 'none',
      contents: p.contents ?? 'none',
      pull_requests: p['pull-requests'] ?? 'none',
      discussions: p.discussions ?? 'none',
    };
  };
  let bundle: string;
  beforeAll(async () => {
    bundle = await snapshotAction();
  });
  beforeEach(async () => {
    await gh.close();
    ({ gh, ws } = await seededRepo(template(), { tokens: { ghs_discussions: tokenOf('discussions'), ghs_closed: tokenOf('capture-closed') } }));
    gh.state.setPermission('alice', 'triage');
  });
  const bundled = (eventName: string, payload: unknown, token: string, workspace = ws) =>
    runBundle({ bundle, githubEnv: gh.env(), workspace, eventName, payload, token });

  it('the discussions job answers, opens the capture, labels; capture-closed posts and marks the reviewed answer', async () => {
    const d = ask(COLD);
    const r = await bundled('discussion', gh.events.discussion('created', d.number), 'ghs_discussions');
    expectExit(r, 0);
    expect(traceOf(comments(d.number)[0]!.body)?.outcome).toBe('cold');
    expect(labelsOf(d.number)).toEqual(['question', 'wiki:cold']);
    const pull = gh.state.pulls.find((p) => p.head === `wiki-steward/capture/${d.number}`)!;
    const file = decodeURIComponent(/page=([^ ]+)/.exec(pull.body ?? '')![1]!);
    const text = gh.state.fileAt(pull.head, file)!;
    gh.state.commitFiles({
      branch: pull.head,
      files: {
        [file]: text
          .replace(/^captured_by: .*\n/m, '')
          .replace(/\n---\n[\s\S]*$/, '\n---\nBake sourdough bread at 250 °C for 20 minutes with steam, then 20 minutes without.\n'),
      },
      author: 'maya',
    });
    gh.state.mergePull(pull, { by: 'maya' });
    const closed = await bundled('pull_request', gh.events.pullRequest('closed', pull.number), 'ghs_closed', await checkout(gh.gitDir()));
    expectExit(closed, 0);
    const reviewed = comments(d.number)[1]!;
    expect(traceOf(reviewed.body)?.outcome).toBe('answered');
    expect(gh.state.discussion(d.number).answer_comment_id).toBe(reviewed.id);
  });
});
