// The digest's read of a period's discussions (src/github/discussions.ts) against the GitHub
// emulator: every comment and reply, as a read of each discussion alone gives them, in a query per
// page of discussions rather than one per discussion (each such query took the emulator about a second).
import { afterEach, expect, it } from 'vitest';
import { discussionsSince } from '../../src/github/discussions.js';
import { createGitHubClient } from '../../src/github/octokit.js';
import { type GitHubEmulator, startGitHubEmulator } from '../github-emulator/emulator.js';
import { closeCheckingResponses } from '../github-emulator/test-support.js';

let emu: GitHubEmulator;
afterEach(() => closeCheckingResponses(emu));

const REPO = { owner: 'octo-org', repo: 'wiki' };

it('reads 45 discussions with their comments and replies in a query per 20 discussions, and reads on where one has more', async () => {
  emu = await startGitHubEmulator({ tokens: { ghs_bot: { login: 'github-actions[bot]' } } });
  const numbers: number[] = [];
  for (let i = 0; i < 45; i++) {
    const d = emu.state.addDiscussion({ title: `Question ${i}`, body: `Asking ${i}.`, user: 'alice', category: 'Q&A' });
    numbers.push(d.number);
    emu.state.addDiscussionComment(d.number, { body: `An answer to ${i}.`, user: 'github-actions[bot]' });
  }
  // One discussion with more top-level comments than the digest's query reads at once, and one
  // comment with more replies than it reads of each.
  for (let k = 0; k < 60; k++) emu.state.addDiscussionComment(numbers[3]!, { body: `Comment ${k}.`, user: 'bob' });
  const top = emu.state.addDiscussionComment(numbers[7]!, { body: 'A thread.', user: 'bob' });
  for (let k = 0; k < 25; k++) emu.state.addDiscussionComment(numbers[7]!, { body: `Reply ${k}.`, user: 'maya', replyTo: top.id });

  const github = createGitHubClient('ghs_bot', { GITHUB_API_URL: emu.url }, { warning: () => undefined, secret: () => undefined });
  const from = emu.requests.length;
  const found = await discussionsSince(github, REPO, new Date(0));
  const queries = emu.requests.slice(from).filter((r) => r.path === '/graphql').length;
  // Three pages of discussions, one more page of the long discussion's comments, one more of the thread's replies.
  expect(queries).toBe(5);

  expect(found).toHaveLength(45);
  expect(found.find((d) => d.number === numbers[3])!.comments).toHaveLength(61);
  const thread = found.find((d) => d.number === numbers[7])!.comments;
  expect(thread.filter((c) => c.replyTo !== undefined)).toHaveLength(25);
  // Each discussion's comments and replies as GitHub holds them, oldest first, replies naming their comment.
  const nodeIds = new Map<number, string>();
  for (const d of found) for (const c of d.comments) nodeIds.set(c.id, c.nodeId);
  for (const d of found) {
    const held = emu.state.allDiscussionComments(d.number);
    expect(d.comments.map((c) => [c.id, c.body, c.replyTo ?? null])).toEqual(
      held.map((c) => [c.id, c.body, c.parent_id === null ? null : nodeIds.get(c.parent_id)]),
    );
  }
});

it('a page of discussions that says more follow but gives no new cursor is refused, not read again and again', async () => {
  emu = await startGitHubEmulator({ tokens: { ghs_bot: { login: 'github-actions[bot]' } } });
  emu.state.addDiscussion({ title: 'A question', body: 'Asking.', user: 'alice', category: 'Q&A' });
  const github = createGitHubClient('ghs_bot', { GITHUB_API_URL: emu.url }, { warning: () => undefined, secret: () => undefined });
  // Replies of the shape the schema allows: no cursor at all, then the cursor the page was asked after.
  for (const cursors of [[null], ['Y3Vyc29yOjE=', 'Y3Vyc29yOjE=']]) {
    emu.faults.clear();
    let asked = 0;
    emu.faults.push({
      match: { graphql: 'repository' },
      times: Infinity,
      status: 200,
      body: () => ({
        data: { repository: { discussions: { nodes: [], pageInfo: { hasNextPage: true, endCursor: cursors[Math.min(asked++, cursors.length - 1)] } } } },
      }),
    });
    await expect(discussionsSince(github, REPO, new Date(0))).rejects.toThrow(/says more follow but gives no new cursor/);
    expect(asked).toBe(cursors.length);
  }
});

it('a discussion or comment deleted while the digest reads on through it keeps what was read, and the read goes on', async () => {
  emu = await startGitHubEmulator({ tokens: { ghs_bot: { login: 'github-actions[bot]' } } });
  // Newest first: the thread's discussion is read before the long one, the steady one last.
  const steady = emu.state.addDiscussion({ title: 'Steady', body: 'Asking.', user: 'alice', category: 'Q&A' });
  emu.state.addDiscussionComment(steady.number, { body: 'An answer.', user: 'github-actions[bot]' });
  const long = emu.state.addDiscussion({ title: 'Long', body: 'Asking.', user: 'alice', category: 'Q&A' });
  for (let k = 0; k < 60; k++) emu.state.addDiscussionComment(long.number, { body: `Comment ${k}.`, user: 'bob' });
  const threaded = emu.state.addDiscussion({ title: 'Threaded', body: 'Asking.', user: 'alice', category: 'Q&A' });
  const top = emu.state.addDiscussionComment(threaded.number, { body: 'A thread.', user: 'bob' });
  for (let k = 0; k < 25; k++) emu.state.addDiscussionComment(threaded.number, { body: `Reply ${k}.`, user: 'maya', replyTo: top.id });
  // Between the list's read and the reads past its first pages: the thread's comment, then the long discussion.
  emu.faults.race({ match: { graphql: 'node' }, run: () => emu.state.deleteDiscussionComment(top.id) });
  emu.faults.race({ match: { graphql: 'node' }, skip: 1, run: () => emu.state.deleteDiscussion(long.number) });

  const github = createGitHubClient('ghs_bot', { GITHUB_API_URL: emu.url }, { warning: () => undefined, secret: () => undefined });
  const found = await discussionsSince(github, REPO, new Date(0));

  expect(found.map((d) => [d.title, d.comments.length])).toEqual([
    // The thread's comment with the 20 replies the list read with it; the long discussion's first 50 comments.
    ['Threaded', 21],
    ['Long', 50],
    ['Steady', 1],
  ]);
  expect(found[1]!.comments.map((c) => c.body)).toEqual(Array.from({ length: 50 }, (_, k) => `Comment ${k}.`));
});

it('any other failure of a read past the first page is a failed read, not a node gone', async () => {
  emu = await startGitHubEmulator({ tokens: { ghs_bot: { login: 'github-actions[bot]' } } });
  const long = emu.state.addDiscussion({ title: 'Long', body: 'Asking.', user: 'alice', category: 'Q&A' });
  for (let k = 0; k < 60; k++) emu.state.addDiscussionComment(long.number, { body: `Comment ${k}.`, user: 'bob' });
  const github = createGitHubClient('ghs_bot', { GITHUB_API_URL: emu.url }, { warning: () => undefined, secret: () => undefined });
  const refusals = [
    [{ type: 'FORBIDDEN', message: 'Resource not accessible by integration', path: ['node'] }],
    [
      { type: 'NOT_FOUND', message: 'Could not resolve to a node', path: ['node'] },
      { type: 'SERVICE_UNAVAILABLE', message: 'Try again.' },
    ],
    [{ type: 'NOT_FOUND', message: 'Could not resolve to a Repository.', path: ['repository'] }],
  ];
  for (const errors of refusals) {
    emu.faults.clear();
    emu.faults.push({ match: { graphql: 'node' }, times: Infinity, status: 200, body: { data: { node: null }, errors } });
    await expect(discussionsSince(github, REPO, new Date(0))).rejects.toThrow(errors[0]!.message);
  }
});
