// The GraphQL mutations the emulator answers (discussions: comments, answers, reactions, labels),
// as resolvers over the state. Each checks what GitHub checks, in this order: the ids resolve (else
// NOT_FOUND), the token's `discussions` permission is 'write' (else FORBIDDEN "Resource not
// accessible by integration"), the repository is not archived, the viewer's role and the lock
// allow it; then the state changes (state.ts) and the payload is built from GraphqlObjects.
// A refusal is thrown: graphql-js answers `data: { <field>: null }` with the error at its path.
import { FROM_GRAPHQL, type GqlObject, GraphqlFieldError, type GraphqlObjects, nodeNotFound } from './graphql-objects.js';
import { ROLE_RANK, bodyLength, parseNodeId } from './helpers.js';
import { DISCUSSION_NOT_ANSWERABLE, REPLY_NOT_ANSWER } from './state.js';
import type { DiscussionCommentRecord, DiscussionRecord, LabelRecord } from './types.js';

/** The mutation fields the emulator answers. */
export const EMULATED_MUTATIONS = [
  'addDiscussionComment',
  'updateDiscussionComment',
  'deleteDiscussionComment',
  'markDiscussionCommentAsAnswer',
  'unmarkDiscussionCommentAsAnswer',
  'addReaction',
  'removeReaction',
  'addLabelsToLabelable',
  'removeLabelsFromLabelable',
] as const;

type Input<T> = { input: T & { clientMutationId?: string | null } };

const forbidden = (message: string) => new GraphqlFieldError(message, 'FORBIDDEN');
const unprocessable = (message: string) => new GraphqlFieldError(message, 'UNPROCESSABLE');
const pascal = (field: string) => field.charAt(0).toUpperCase() + field.slice(1);

/** The root value's mutation fields for one request. */
interface LabelChange {
  labelableId: string;
  labelIds: string[];
}

export function mutationRoot(objects: GraphqlObjects): Record<(typeof EMULATED_MUTATIONS)[number], (args: never) => GqlObject> {
  const { state, token, actor, bodyLimit } = objects.ctx;
  const login = actor.login;

  const discussionById = (id: string): DiscussionRecord => {
    const parsed = parseNodeId(id);
    const d = parsed?.prefix === 'D' ? state.discussions.find((x) => x.id === parsed.id) : undefined;
    if (!d || !objects.canSee(state.repo(d.repo))) throw nodeNotFound(id);
    return d;
  };
  const commentById = (id: string): DiscussionCommentRecord => {
    const parsed = parseNodeId(id);
    const c = parsed?.prefix === 'DC' ? state.discussionCommentRecords.find((x) => x.id === parsed.id) : undefined;
    if (!c || !objects.canSee(state.repo(c.repo))) throw nodeNotFound(id);
    return c;
  };
  const notEmulatedFor = (field: string, id: string, what: string) => {
    const prefix = parseNodeId(id)?.prefix;
    if (prefix && prefix !== 'D' && prefix !== 'DC')
      throw new GraphqlFieldError(`github-emulator: ${field} is only emulated for ${what} (not for ${prefix}_ ids)`);
  };
  /** The token's discussions permission, then the repository's archive flag. */
  const mayWrite = (repoName: string) => {
    if ((token.discussions ?? 'write') !== 'write') throw forbidden('Resource not accessible by integration');
    if (state.repo(repoName).archived) throw forbidden('Repository was archived so is read-only.');
  };
  const refuse = (field: string) => forbidden(`${login} does not have the correct permissions to execute \`${pascal(field)}\``);
  const lockedRefusal = (d: DiscussionRecord, doing: string) => {
    if (!objects.canBypassLock(d)) throw forbidden(`Unable to ${doing} because discussion is locked.`);
  };
  const checkBody = (body: string) => {
    if (body.trim() === '') throw unprocessable("Body can't be blank");
    if (bodyLength(body, bodyLimit.unit) > bodyLimit.max) throw unprocessable(`Body is too long (maximum is ${bodyLimit.max} characters)`);
  };
  const payload = (input: { clientMutationId?: string | null }, rest: Record<string, unknown>): GqlObject => ({
    __typename: 'Payload',
    clientMutationId: input.clientMutationId ?? null,
    ...rest,
  });
  type Subject = { discussion_number: number } | { comment_id: number };
  /** A reaction's subject: a discussion or a discussion comment, with its repository and discussion. */
  const subjectById = (field: string, id: string): { subject: Subject; repo: string; discussion: DiscussionRecord } => {
    notEmulatedFor(field, id, 'discussions and discussion comments');
    if (parseNodeId(id)?.prefix === 'DC') {
      const c = commentById(id);
      return { subject: { comment_id: c.id }, repo: c.repo, discussion: state.discussionOf(c) };
    }
    const d = discussionById(id);
    return { subject: { discussion_number: d.number }, repo: d.repo, discussion: d };
  };
  const reactionContent = (content: string) => {
    const rest = FROM_GRAPHQL.get(content);
    if (!rest) throw unprocessable(`Unknown reaction content ${content}`);
    return rest;
  };
  const labelsById = (d: DiscussionRecord, ids: string[]): LabelRecord[] =>
    ids.map((id) => {
      const parsed = parseNodeId(id);
      const label = parsed?.prefix === 'LA' ? state.labels.find((l) => l.id === parsed.id && l.repo === d.repo) : undefined;
      if (!label) throw nodeNotFound(id);
      return label;
    });

  /** Labels put on or taken off a discussion (triage access, as GitHub asks); other labelables are not emulated. */
  const relabel = (field: string, input: LabelChange & { clientMutationId?: string | null }, change: 'add' | 'remove'): GqlObject => {
    notEmulatedFor(field, input.labelableId, 'discussions');
    const d = discussionById(input.labelableId);
    const names = labelsById(d, input.labelIds).map((l) => l.name);
    mayWrite(d.repo);
    if (objects.rank(d.repo) < ROLE_RANK.triage) throw refuse(field);
    if (change === 'add') state.labelDiscussion(d.number, names, d.repo);
    else state.unlabelDiscussion(d.number, names, d.repo);
    return payload(input, { labelable: objects.discussion(d) });
  };

  return {
    addDiscussionComment: ({ input }: Input<{ discussionId: string; body: string; replyToId?: string | null }>) => {
      const d = discussionById(input.discussionId);
      const parent = input.replyToId ? commentById(input.replyToId) : undefined;
      mayWrite(d.repo);
      if (parent && (parent.repo !== d.repo || parent.discussion_number !== d.number)) throw unprocessable('replyToId is not a comment on this discussion');
      lockedRefusal(d, 'create comment');
      checkBody(input.body);
      // A reply to a reply is attached to the top-level comment (state.addDiscussionComment does it).
      const c = state.addDiscussionComment(d.number, { repo: d.repo, body: input.body, user: login, ...(parent ? { replyTo: parent.id } : {}) });
      return payload(input, { comment: objects.comment(c) });
    },

    updateDiscussionComment: ({ input }: Input<{ commentId: string; body: string }>) => {
      const c = commentById(input.commentId);
      mayWrite(c.repo);
      if (!objects.isViewer(c.user)) throw refuse('updateDiscussionComment');
      lockedRefusal(state.discussionOf(c), 'update comment');
      checkBody(input.body);
      return payload(input, { comment: objects.comment(state.updateDiscussionComment(c.id, input.body, c.repo)) });
    },

    deleteDiscussionComment: ({ input }: Input<{ id: string }>) => {
      const c = commentById(input.id);
      mayWrite(c.repo);
      if (!objects.canDeleteComment(c)) throw refuse('deleteDiscussionComment');
      state.deleteDiscussionComment(c.id, c.repo);
      return payload(input, { comment: objects.comment(c) });
    },

    markDiscussionCommentAsAnswer: ({ input }: Input<{ id: string }>) => {
      const c = commentById(input.id);
      const d = state.discussionOf(c);
      mayWrite(c.repo);
      if (!objects.canChooseAnswer(d)) throw refuse('markDiscussionCommentAsAnswer');
      if (d.locked && objects.rank(d.repo) < ROLE_RANK.maintain) throw forbidden('Unable to mark an answer because discussion is locked.');
      if (!state.categoryOf(d).is_answerable) throw unprocessable(DISCUSSION_NOT_ANSWERABLE);
      if (c.parent_id !== null) throw unprocessable(REPLY_NOT_ANSWER);
      return payload(input, { discussion: objects.discussion(state.markDiscussionAnswer(c.id, login, c.repo)) });
    },

    unmarkDiscussionCommentAsAnswer: ({ input }: Input<{ id: string }>) => {
      const c = commentById(input.id);
      const d = state.discussionOf(c);
      mayWrite(c.repo);
      if (!objects.canChooseAnswer(d)) throw refuse('unmarkDiscussionCommentAsAnswer');
      if (d.locked && objects.rank(d.repo) < ROLE_RANK.maintain) throw forbidden('Unable to unmark an answer because discussion is locked.');
      if (!state.categoryOf(d).is_answerable) throw unprocessable(DISCUSSION_NOT_ANSWERABLE);
      return payload(input, { discussion: objects.discussion(state.unmarkDiscussionAnswer(c.id, c.repo)) });
    },

    addReaction: ({ input }: Input<{ subjectId: string; content: string }>) => {
      const { subject, repo, discussion } = subjectById('addReaction', input.subjectId);
      mayWrite(repo);
      lockedRefusal(discussion, 'react');
      const r = state.addDiscussionReaction({ ...subject, content: reactionContent(input.content), user: login, repo });
      const on = objects.subjectOf(r);
      return payload(input, { reaction: objects.reaction(r), subject: on, reactionGroups: on.reactionGroups });
    },

    removeReaction: ({ input }: Input<{ subjectId: string; content: string }>) => {
      const { subject, repo, discussion } = subjectById('removeReaction', input.subjectId);
      mayWrite(repo);
      lockedRefusal(discussion, 'react');
      const removed = state.removeDiscussionReaction({ ...subject, content: reactionContent(input.content), user: login, repo });
      const on = 'comment_id' in subject ? objects.comment(state.discussionComment(subject.comment_id, repo)) : objects.discussion(discussion);
      // Removing a reaction that is not there changes nothing and answers no reaction.
      return payload(input, { reaction: removed ? objects.reaction(removed) : null, subject: on, reactionGroups: on.reactionGroups });
    },

    addLabelsToLabelable: ({ input }: Input<LabelChange>) => relabel('addLabelsToLabelable', input, 'add'),
    removeLabelsFromLabelable: ({ input }: Input<LabelChange>) => relabel('removeLabelsFromLabelable', input, 'remove'),
  };
}
