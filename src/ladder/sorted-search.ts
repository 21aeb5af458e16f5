// Binary search over a sorted range, for the ladder's sorted tables (a word's pages, the catalog's
// vocabulary): the caller says how to compare, so one search serves typed arrays and string lists.

/** The first index in [from, to) whose item is not before the sought one (`to` when every item is before it). */
export function lowerBound(from: number, to: number, isBefore: (index: number) => boolean): number {
  let [low, high] = [from, to];
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (isBefore(mid)) low = mid + 1;
    else high = mid;
  }
  return low;
}
