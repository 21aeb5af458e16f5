// Conversation manners on the question itself: 👀 as soon as a run starts answering it, taken away
// when the answer is posted, and 😕 in its place when the run ends in error. Reactions are a
// courtesy: a reaction GitHub refuses is logged and never fails the run or holds up the answer.
// They need nothing beyond what answering has (issues: write, or discussions: write), and go
// through the write boundary like every other write, so a dry run makes none.
import type { Reactions } from './question-thread.js';

/** The acknowledgement of one question; the first of `done()` / `failed()` settles it, later calls do nothing. */
export interface Acknowledgement {
  /** The answer is posted: the 👀 goes. */
  done(): Promise<void>;
  /** The run ended in error: the 👀 goes and 😕 takes its place. */
  failed(): Promise<void>;
}

const EMOJI = { eyes: '👀', confused: '😕' } as const;

/** Adds 👀 to the question; a failure is a warning, and the handle then has no 👀 to take away. */
export async function acknowledge(reactions: Reactions, log: { warning(message: string): void }): Promise<Acknowledgement> {
  const courtesy = <T>(doing: string, write: () => Promise<T>): Promise<T | undefined> =>
    write().catch((error: unknown) => {
      log.warning(`Could not ${doing} ${reactions.describe} (the answer is not affected): ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    });
  // Undefined in a dry run or when GitHub refused: then there is no 👀 to take away.
  const removeEyes = await courtesy(`add ${EMOJI.eyes} to`, () => reactions.add('eyes'));
  let settled = false;
  const settle = async (then?: 'confused') => {
    if (settled) return;
    settled = true;
    if (removeEyes) await courtesy(`remove ${EMOJI.eyes} from`, removeEyes);
    if (then) await courtesy(`add ${EMOJI[then]} to`, () => reactions.add(then));
  };
  return { done: () => settle(), failed: () => settle('confused') };
}
