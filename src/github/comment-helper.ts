// Finding and writing the one answer comment of a question: created once, then updated in place
// on re-runs and edits. A comment is the steward's only when the steward wrote it (its identity:
// the token's account and the configured steward logins) AND it ends with the question's marker:
// anyone can paste a marker, and other bots write comments too.
//
// Two runs of one question at once (an issue opened with its label, an edit while the first answer
// is being made; GitHub starts both, and nothing makes one wait) may both find no comment and
// both create one. So a run that created its comment converges: it lists the comments again and
// keeps the oldest of the steward's answer comments for the question (the lowest id: GitHub hands
// ids out in creation order), deleting the others — its own too when it is not the oldest. Every
// run that created one sees every older one when it lists again, so all agree which one stays.
// A run whose comment is not the one kept puts its answer in the kept one only when it answers a
// later edit of the question than the kept one says it does (answer-comment.ts, the edit marker);
// otherwise the kept answer stands.
import { editOfComment, isNewerEdit, markerKey } from './answer-comment.js';
import type { StewardIdentity } from './identity.js';
import type { StewardText } from './posted-text.js';
import type { CommentThread } from './question-thread.js';
import { oldestAfterCreating, problemOf } from './twin-runs.js';

export interface ExistingComment {
  id: number;
  url: string;
  /** The comment as GitHub holds it (visible text, then the trailer). */
  body: string;
  /** Which edit of the question it answers, when its trailer says. */
  editedAt?: string | undefined;
}

/** Where the answer goes: the thread, the question's key, who the steward is, and which edit this run answers. */
export interface AnswerPlace {
  thread: CommentThread;
  key: string;
  identity: StewardIdentity;
  editedAt?: string | undefined;
}

/** The steward's own answer comments for `key` in the thread, oldest first. */
async function ownAnswerComments(thread: CommentThread, key: string, identity: StewardIdentity): Promise<ExistingComment[]> {
  return (await thread.comments())
    .filter((c) => identity.owns(c.user ?? undefined) && markerKey(c.body) === key)
    .map((c) => ({ id: c.id, url: c.url, body: c.body, editedAt: editOfComment(c.body) }))
    .sort((a, b) => a.id - b.id);
}

/** The question's answer comment: the oldest of the steward's own for `key`. */
export async function findAnswerComment(thread: CommentThread, key: string, identity: StewardIdentity): Promise<ExistingComment | undefined> {
  return (await ownAnswerComments(thread, key, identity))[0];
}

/** What a run did when it found a twin run's comment beside the one it created. */
export interface Convergence {
  /** The comment that stays (the oldest). */
  kept: number;
  /** The steward's other answer comments for the question, deleted (this run's own among them when it was not the oldest). */
  deleted: number[];
  /** Whether this run put its answer in the kept comment (it answers a later edit). */
  updated: boolean;
}

export interface UpsertResult {
  /** The answer comment that stands (id 0 in a dry run, which posts nothing). */
  id: number;
  url: string;
  created: boolean;
  /** Set when another run's comment for the question was there too once this run had created its own. */
  converged?: Convergence;
  /** Why the run could not check for, or remove, a twin's comment (its own comment is posted). */
  problem?: string;
}

export async function upsertAnswerComment(
  o: AnswerPlace,
  body: StewardText,
  /** The comment, when the caller has just looked it up (null: it has none). */
  found?: ExistingComment | null,
): Promise<UpsertResult> {
  const existing = found === undefined ? await findAnswerComment(o.thread, o.key, o.identity) : found;
  if (existing) {
    await o.thread.update(existing.id, body);
    return { id: existing.id, url: existing.url, created: false };
  }
  const mine = await o.thread.create(body);
  // A dry run created nothing, so there is nothing to converge.
  if (mine.id === 0) return { id: 0, url: mine.url, created: true };
  try {
    return await converge(o, body, { id: mine.id, url: mine.url, editedAt: o.editedAt });
  } catch (error) {
    return { id: mine.id, url: mine.url, created: true, problem: problemOf(error) };
  }
}

/** After creating `mine`: keep the oldest of the steward's answer comments for the question, delete the rest. */
async function converge(o: AnswerPlace, body: StewardText, mine: Omit<ExistingComment, 'body'>): Promise<UpsertResult> {
  const { kept, others } = await oldestAfterCreating<Omit<ExistingComment, 'body'>>(
    () => ownAnswerComments(o.thread, o.key, o.identity),
    mine,
    (c) => c.id,
    `the comments of ${o.thread.describe}`,
  );
  if (others.length === 0) return { id: mine.id, url: mine.url, created: true };
  const updated = kept.id !== mine.id && isNewerEdit(mine.editedAt, kept.editedAt);
  // The kept comment gets the newer answer before this run's own goes, so that answer is never lost.
  if (updated) await o.thread.update(kept.id, body);
  for (const other of others) await o.thread.remove(other.id);
  return { id: kept.id, url: kept.url, created: kept.id === mine.id, converged: { kept: kept.id, deleted: others.map((c) => c.id), updated } };
}
