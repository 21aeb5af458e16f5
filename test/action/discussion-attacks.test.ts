// Attacks on the discussions work (issue 28): forged markers, other bots, forged and foreign capture
// pull requests, paths that leave the wiki, locked and moved discussions, GraphQL failures, dry runs.
// In-process through `runStep` against the GitHub emulator, as discussions.test.ts runs them.
import { symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GitHubEmulator } from '../github-emulator/emulator.js';
import { type Workspace, checkout, expectExit, runStep, seededRepo, traceOf, visible } from './harness.js';
import { COLD, COVERED, STEWARD, capturedDiscussion, discussionMutations, discussionRepo, reviewedPage } from './discussion-fixtures.js';

let ws: Workspace;
let gh: GitHubEmulator;

const { template, run, ask, comments } = discussionRepo({
  seeded: (repo) => {
    ({ gh, ws } = repo);
    gh.state.setPermission('alice', 'triage');
    gh.state.setPermission('maya', 'maintain');
  },
  current: () => ({ gh, ws }),
});

describe('refusal in discussions', () => {
  it("an outsider's edit after a maintainer labelled keeps the maintainer-approved answer and adds the note to it (the discussion's comment, not an issue comment)", async () => {
    gh.state.setPermission('outsider', 'read');
    const d = ask(COVERED, { user: 'outsider', labels: [] });
    gh.state.labelDiscussion(d.number, ['question']);
    expectExit(await run('discussion', gh.events.discussion('labeled', d.number, { label: 'question', sender: 'maya' })), 0);
    const [answer] = comments(d.number);
    expect(traceOf(answer!.body)?.outcome).toBe('answered');
    const r = await run('discussion', gh.events.discussion('edited', d.number, { sender: 'outsider', changes: { body: 'old' } }));
    expectExit(r, 0);
    const after = comments(d.number);
    expect(after.map((c) => c.id)).toEqual([answer!.id]);
    expect(visible(after[0]!.body)).toContain('The question has changed since this answer');
    expect(traceOf(after[0]!.body)?.outcome).toBe('answered');
  });
});

describe('forged markers and other bots in a discussion', () => {
  it("a user's and another bot's comments ending with the question's marker are never edited; the steward's own answer is", async () => {
    const d = ask(COVERED);
    const forged = (n: number) => `I answer this.\n<!-- wiki-steward:answer key=discussion-${n} -->`;
    const mallory = gh.state.addDiscussionComment(d.number, { body: forged(d.number), user: 'mallory' });
    // GraphQL names this author `dependabot` (a Bot), without the suffix its REST login has.
    const bot = gh.state.addDiscussionComment(d.number, { body: forged(d.number), user: 'dependabot[bot]' });
    expectExit(await run('discussion', gh.events.discussion('created', d.number)), 0);
    expectExit(await run('discussion', gh.events.discussion('edited', d.number, { changes: { title: 'old' } })), 0);
    const all = comments(d.number);
    expect(all.map((c) => c.user)).toEqual(['mallory', 'dependabot[bot]', STEWARD]);
    expect(gh.state.discussionComment(mallory.id).body).toBe(forged(d.number));
    expect(gh.state.discussionComment(bot.id).body).toBe(forged(d.number));
    expect(traceOf(all[2]!.body)?.outcome).toBe('answered');
  });

  it('a question from dependabot (a GitHub App bot) in a discussion is not answered; nor a `/wiki ask` from it', async () => {
    const d = ask(COVERED, { user: 'dependabot[bot]' });
    expectExit(await run('discussion', gh.events.discussion('created', d.number)), 0);
    const top = gh.state.addDiscussionComment(d.number, { body: '/wiki ask How do I uninstall the hook?', user: 'dependabot[bot]' });
    expectExit(await run('discussion_comment', gh.events.discussionComment('created', top.id)), 0);
    expect(comments(d.number).map((c) => c.user)).toEqual(['dependabot[bot]']);
    expect(gh.writes()).toEqual([]);
  });

  it("forged `reviewed-…` markers (a user's comment, a hidden one in a follow-up) do not stop the reviewed answer", async () => {
    const { d, pull, file, text } = await capturedDiscussion(gh, run, COLD);
    const key = `reviewed-discussion-${d.number}-pr-${pull.number}`;
    gh.state.addDiscussionComment(d.number, { body: `Done.\n<!-- wiki-steward:answer key=${key} -->`, user: 'mallory' });
    gh.state.addDiscussionComment(d.number, { body: `Done.\n<!-- wiki-steward:answer key=${key} -->`, user: 'dependabot[bot]' });
    const follow = gh.state.addDiscussionComment(d.number, {
      body: `/wiki ask How do I install the pre-commit hook? \`<!-- wiki-steward:answer key=${key} -->\``,
      user: 'alice',
    });
    expectExit(await run('discussion_comment', gh.events.discussionComment('created', follow.id)), 0);
    gh.state.commitFiles({ branch: pull.head, files: { [file]: reviewedPage(text) }, author: 'maya' });
    gh.state.mergePull(pull, { by: 'maya' });
    expectExit(await run('pull_request', gh.events.pullRequest('closed', pull.number), undefined, await checkout(gh.gitDir())), 0);
    const answer = comments(d.number).find((c) => c.user === STEWARD && c.body.includes(`<!-- wiki-steward:answer key=${key} -->`) && c.parent_id === null);
    expect(answer).toBeDefined();
    expect(gh.state.discussion(d.number).answer_comment_id).toBe(answer!.id);
  });
});

describe('capture pull requests that are not the steward’s', () => {
  it("a person's PR from a capture branch with a forged marker naming the discussion and its page, merged: no reviewed answer, on close or on a later push", async () => {
    const { d, pull, file, text } = await capturedDiscussion(gh, run, COLD);
    gh.state.setPermission('mallory', 'write');
    gh.state.commitFiles({ branch: 'wiki-steward/capture/999', files: { [file]: reviewedPage(text) }, author: 'mallory' });
    const forged = gh.state.addPull({
      head: 'wiki-steward/capture/999',
      title: 'x',
      user: 'mallory',
      body: `<!-- wiki-steward:capture key=discussion-${d.number} issue=${d.number} page=${encodeURIComponent(file)} commit=${gh.state.branchHead('wiki-steward/capture/999')} -->`,
    });
    gh.state.mergePull(forged, { by: 'mallory' });
    const merged = await checkout(gh.gitDir());
    expectExit(await run('pull_request', gh.events.pullRequest('closed', forged.number, { sender: 'mallory' }), undefined, merged), 0);
    const push = {
      ref: 'refs/heads/main',
      repository: { default_branch: 'main' },
      sender: { login: 'mallory', type: 'User' },
      commits: [{ modified: [file] }],
    };
    expectExit(await run('push', push, undefined, merged), 0);
    expect(comments(d.number)).toHaveLength(1);
    expect(gh.state.discussion(d.number).answer_comment_id).toBeNull();
    // The steward's own capture PR, closed unmerged, gets no reviewed answer from a push either.
    expect(pull.state).toBe('open');
  });

  it("a push accepting the page of the steward's merged capture, with a person's forged merged capture PR for it too: one reviewed answer, for the steward's PR", async () => {
    const { d, pull, file, text } = await capturedDiscussion(gh, run, COLD);
    gh.state.mergePull(pull, { by: 'maya' });
    expectExit(await run('pull_request', gh.events.pullRequest('closed', pull.number), undefined, await checkout(gh.gitDir())), 0);
    gh.state.setPermission('mallory', 'write');
    gh.state.commitFiles({ branch: 'wiki-steward/capture/998', files: { 'README.md': 'x\n' }, author: 'mallory' });
    const forged = gh.state.addPull({
      head: 'wiki-steward/capture/998',
      title: 'x',
      user: 'mallory',
      body: `<!-- wiki-steward:capture key=discussion-${d.number} issue=${d.number} page=${encodeURIComponent(file)} commit=${gh.state.branchHead('wiki-steward/capture/998')} -->`,
    });
    gh.state.mergePull(forged, { by: 'mallory' });
    gh.state.commitFiles({ branch: 'main', files: { [file]: reviewedPage(text) }, author: 'mallory' });
    const push = {
      ref: 'refs/heads/main',
      repository: { default_branch: 'main' },
      sender: { login: 'mallory', type: 'User' },
      commits: [{ modified: [file] }],
    };
    expectExit(await run('push', push, undefined, await checkout(gh.gitDir())), 0);
    expectExit(await run('push', push, undefined, await checkout(gh.gitDir())), 0);
    const stewards = comments(d.number).filter((c) => c.user === STEWARD);
    expect(stewards).toHaveLength(3);
    expect(stewards[2]!.body).toContain(`<!-- wiki-steward:answer key=reviewed-discussion-${d.number}-pr-${pull.number} -->`);
    expect(gh.state.discussion(d.number).answer_comment_id).toBe(stewards[2]!.id);
  });
});

describe("the steward's own merged pull request whose marker does not match it", () => {
  it('a marker naming another branch or another discussion gets no reviewed answer from a push', async () => {
    const { d, pull, file, text } = await capturedDiscussion(gh, run, COLD);
    gh.state.mergePull(pull, { by: 'maya' });
    expectExit(await run('pull_request', gh.events.pullRequest('closed', pull.number), undefined, await checkout(gh.gitDir())), 0);
    // Someone with write access rewrote the steward's own merged PR's marker: its key now names the
    // discussion, its branch and issue number do not.
    const marker = (n: number) =>
      `<!-- wiki-steward:capture key=discussion-${d.number} issue=${n} page=${encodeURIComponent(file)} commit=${'a'.repeat(40)} -->`;
    pull.issue.body = marker(d.number + 100);
    gh.state.commitFiles({ branch: 'main', files: { [file]: reviewedPage(text) }, author: 'maya' });
    const push = { ref: 'refs/heads/main', repository: { default_branch: 'main' }, sender: { login: 'maya', type: 'User' }, commits: [{ modified: [file] }] };
    expectExit(await run('push', push, undefined, await checkout(gh.gitDir())), 0);
    expect(comments(d.number)).toHaveLength(2);
    expect(gh.state.discussion(d.number).answer_comment_id).toBeNull();
  });
});

describe('the capture page named by the marker', () => {
  it('a capture page that is a symlink to a file outside the wiki is not read as an accepted page', async () => {
    const { d, pull, file } = await capturedDiscussion(gh, run, COLD);
    gh.state.mergePull(pull, { by: 'maya' });
    const merged = await checkout(gh.gitDir());
    // The reviewer's commit made the page a link to a file outside the wiki (git checks links out as links).
    const outside = path.join(merged.dir, 'outside.md');
    await writeFile(outside, '---\ntitle: not a wiki page\n---\nSecret.\n');
    await unlink(path.join(merged.dir, file));
    await symlink(outside, path.join(merged.dir, file));
    expectExit(await run('pull_request', gh.events.pullRequest('closed', pull.number), undefined, merged), 0);
    expect(gh.state.discussion(d.number).answer_comment_id).toBeNull();
    expect(comments(d.number).some((c) => visible(c.body).includes('A reviewer wrote the page'))).toBe(false);
  });
});

describe('GitHub failing or refusing mid-run', () => {
  it('addDiscussionComment failing on a cold question: the capture PR is withdrawn, 😕 on the discussion, the run fails', async () => {
    const d = ask(COLD);
    gh.faults.graphqlError({ field: 'addDiscussionComment', times: Infinity });
    const r = await run('discussion', gh.events.discussion('created', d.number));
    expect(r.code).toBe(1);
    expect(comments(d.number)).toEqual([]);
    const pull = gh.state.pulls.find((p) => p.head === `wiki-steward/capture/${d.number}`);
    expect(pull?.state).toBe('closed');
    expect(gh.state.branchHead(`wiki-steward/capture/${d.number}`)).toBeUndefined();
    expect(gh.state.discussionReactionsOn({ discussion_number: d.number }).map((x) => `${x.user} ${x.content}`)).toEqual([`${STEWARD} confused`]);
  });

  it('a dry run of a discussion question and of a reviewed answer sends no GraphQL mutation', async () => {
    const d = ask(COLD);
    const r = await run('discussion', gh.events.discussion('created', d.number), { 'dry-run': 'true' });
    expectExit(r, 0);
    expect(gh.writes()).toEqual([]);
    expect(r.stdout).toMatch(/\[dry-run\] would POST \/graphql addDiscussionComment/);
    const { d: d2, pull, file, text } = await capturedDiscussion(gh, run, COLD);
    gh.state.commitFiles({ branch: pull.head, files: { [file]: reviewedPage(text) }, author: 'maya' });
    gh.state.mergePull(pull, { by: 'maya' });
    const before = gh.requests.length;
    const dry = await run('pull_request', gh.events.pullRequest('closed', pull.number), { 'dry-run': 'true' }, await checkout(gh.gitDir()));
    expectExit(dry, 0);
    expect(discussionMutations(gh, before)).toEqual([]);
    expect(gh.state.discussion(d2.number).answer_comment_id).toBeNull();
  });

  it('a locked discussion when its capture merges: no reply (GitHub refuses it), the run says why and does not fail; a push after unlocking posts the reviewed answer', async () => {
    const { d, pull, file, text } = await capturedDiscussion(gh, run, COLD);
    gh.state.commitFiles({ branch: pull.head, files: { [file]: reviewedPage(text) }, author: 'maya' });
    gh.state.mergePull(pull, { by: 'maya' });
    gh.state.lockDiscussion(d.number, 'resolved');
    const r = await run('pull_request', gh.events.pullRequest('closed', pull.number), undefined, await checkout(gh.gitDir()));
    expectExit(r, 0);
    expect(r.stdout).toContain(`no reviewed answer yet: discussion #${d.number} is locked`);
    expect(r.stdout).toContain(`is in locked discussion #${d.number}, so nothing is replied`);
    expect(comments(d.number)).toHaveLength(1);
    gh.state.unlockDiscussion(d.number);
    const push = { ref: 'refs/heads/main', repository: { default_branch: 'main' }, sender: { login: 'maya', type: 'User' }, commits: [{ modified: [file] }] };
    expectExit(await run('push', push, undefined, await checkout(gh.gitDir())), 0);
    const all = comments(d.number);
    expect(all).toHaveLength(2);
    expect(gh.state.discussion(d.number).answer_comment_id).toBe(all[1]!.id);
  });

  it('a locked discussion when its capture merges still a capture: no plain reply either, and the run does not fail', async () => {
    const { d, pull } = await capturedDiscussion(gh, run, COLD);
    gh.state.mergePull(pull, { by: 'maya' });
    gh.state.lockDiscussion(d.number, 'resolved');
    const r = await run('pull_request', gh.events.pullRequest('closed', pull.number), undefined, await checkout(gh.gitDir()));
    expectExit(r, 0);
    expect(r.stdout).toContain(`is in locked discussion #${d.number}, so nothing is replied`);
    expect(comments(d.number)).toHaveLength(1);
    expect(gh.state.branchHead(pull.head)).toBeUndefined();
  });

  it('moved out of the asked category before the review: the reviewed answer is posted, not marked, and the run does not fail', async () => {
    const { d, pull, file, text } = await capturedDiscussion(gh, run, COLD);
    gh.state.commitFiles({ branch: pull.head, files: { [file]: reviewedPage(text) }, author: 'maya' });
    gh.state.mergePull(pull, { by: 'maya' });
    gh.state.moveDiscussion(d.number, 'General');
    const r = await run('pull_request', gh.events.pullRequest('closed', pull.number), undefined, await checkout(gh.gitDir()));
    expectExit(r, 0);
    expect(gh.state.discussion(d.number).answer_comment_id).toBeNull();
    expect(r.stdout).toContain('which takes no answer: the reviewed answer is posted, not marked');
  });
});

describe('discussion text', () => {
  it('a huge discussion body full of mentions: the answer stays within 65,536 characters and pings nobody', async () => {
    const body = `@maya @octo-org/team please help.\n\n${'@alice and more words here. '.repeat(4000)}`;
    const d = ask(COVERED, { body });
    expectExit(await run('discussion', gh.events.discussion('created', d.number)), 0);
    const [answer] = comments(d.number);
    expect(answer!.body.length).toBeLessThanOrEqual(65_536);
    expect(answer!.body).not.toMatch(/(^|[^\w`])@(maya|alice|octo-org)/);
  });
});

describe('the discussions permission', () => {
  it('a token without discussions: write fails the run with a message that names the permission', async () => {
    await gh.close();
    ({ gh, ws } = await seededRepo(template(), {
      tokens: { ghs_nodisc: { login: STEWARD, type: 'Bot', issues: 'write', contents: 'write', pull_requests: 'write', discussions: 'read' } },
    }));
    gh.state.setPermission('alice', 'triage');
    const d = ask(COVERED);
    const r = await runStep({
      githubEnv: gh.env(),
      workspace: ws,
      eventName: 'discussion',
      payload: gh.events.discussion('created', d.number),
      token: 'ghs_nodisc',
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /::error::GitHub refused to POST \/graphql addDiscussionComment .*Resource not accessible by integration \(give the job `discussions: write`/,
    );
  });
});

describe('follow-ups in discussions', () => {
  it('a `/wiki ask` deleted before its run is not answered; one in a reply to a reply joins the top-level thread', async () => {
    const d = ask(COVERED);
    const top = gh.state.addDiscussionComment(d.number, { body: 'Related:', user: 'alice' });
    const gone = gh.state.addDiscussionComment(d.number, { body: '/wiki ask How do I uninstall the hook?', user: 'alice', replyTo: top.id });
    const payload = gh.events.discussionComment('created', gone.id);
    gh.state.deleteDiscussionComment(gone.id);
    const r = await run('discussion_comment', payload);
    expectExit(r, 0);
    expect(r.stdout).toContain('was deleted before this run');
    expect(gh.writes()).toEqual([]);
    const reply = gh.state.addDiscussionComment(d.number, { body: 'And:', user: 'alice', replyTo: top.id });
    const nested = gh.state.addDiscussionComment(d.number, { body: '/wiki ask How do I uninstall the hook?', user: 'alice', replyTo: reply.id });
    expectExit(await run('discussion_comment', gh.events.discussionComment('created', nested.id)), 0);
    const answer = comments(d.number).find((c) => c.user === STEWARD);
    expect(answer?.parent_id).toBe(top.id);
  });
});
describe('an answer a person chose', () => {
  it('the reviewed answer is posted but does not replace the answer the asker or a maintainer already chose', async () => {
    const { d, pull, file, text } = await capturedDiscussion(gh, run, COLD);
    const human = gh.state.addDiscussionComment(d.number, { body: 'Bake it hot, with steam.', user: 'maya' });
    gh.state.markDiscussionAnswer(human.id, 'alice');
    gh.state.commitFiles({ branch: pull.head, files: { [file]: reviewedPage(text) }, author: 'maya' });
    gh.state.mergePull(pull, { by: 'maya' });
    const r = await run('pull_request', gh.events.pullRequest('closed', pull.number), undefined, await checkout(gh.gitDir()));
    expectExit(r, 0);
    const all = comments(d.number);
    expect(all).toHaveLength(3);
    expect(traceOf(all[2]!.body)?.outcome).toBe('answered');
    expect(gh.state.discussion(d.number).answer_comment_id).toBe(human.id);
    expect(r.stdout).toContain('already has an answer');
  });
});
