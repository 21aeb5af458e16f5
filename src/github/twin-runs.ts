// Two runs of the same work at once (an answer, a digest) can both find nothing and both create.
// Each converges after creating: it lists again and keeps the oldest of the steward's own (the
// lowest id), so both runs agree on which one stays without talking to each other.

/** An error's message, as a run reports what it could not do. */
export const problemOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * After creating `mine`, the steward's items as `list` gives them again (oldest first): the one
 * to keep and the others. `mine` counts even when the list does not show it yet (or a twin run
 * already removed it as the younger one). A failed list names `what` it could not list.
 */
export async function oldestAfterCreating<T>(list: () => Promise<T[]>, mine: T, idOf: (item: T) => number, what: string): Promise<{ kept: T; others: T[] }> {
  const listed = await list().catch((error: unknown) => {
    throw new Error(`could not list ${what} again: ${problemOf(error)}`);
  });
  const all = listed.some((item) => idOf(item) === idOf(mine)) ? listed : [...listed, mine].sort((a, b) => idOf(a) - idOf(b));
  return { kept: all[0]!, others: all.slice(1) };
}
