// The ladder's word indexes (src/ladder/word-index.ts): an index patched for a few rebuilt entries
// is the index built afresh over the entries as they are now.
import { describe, expect, it } from 'vitest';
import { buildWordIndex, patchedWordIndex, wordsByEntry } from '../../src/ladder/word-index.js';
import type { WikiEntry } from '../../src/ladder/wiki-entry.js';

/** An index over `words` (entry i holds words[i]): the entries themselves are not read. */
const indexOf = (words: ReadonlyArray<readonly string[]>) =>
  buildWordIndex(
    words.map(() => ({}) as WikiEntry),
    (_, i) => words[i]!,
  );

describe('patchedWordIndex', () => {
  it('equals the index built over the entries as they are now, whatever the rebuilt entries hold', () => {
    let seed = 11;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const vocabulary = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'];
    const some = (pool: readonly string[]) => Array.from({ length: next(5) }, () => pool[next(pool.length)]!);
    for (let round = 0; round < 200; round++) {
      const before = Array.from({ length: 1 + next(30) }, () => some(vocabulary));
      const now = before.map((words) => [...words]);
      const rebuilt = new Map<number, string[]>();
      for (let k = next(4); k > 0; k--) {
        const at = next(before.length);
        // Words the index holds, words new to it (`new-…`), repeats, or none at all.
        const words = next(3) === 0 ? [] : [...some(vocabulary), ...(next(2) ? [`new-${next(3)}`, `new-${next(3)}`] : [])];
        rebuilt.set(at, words);
        now[at] = words;
      }
      const patched = patchedWordIndex(indexOf(before), rebuilt);
      expect(patched).toEqual(indexOf(now));
      expect(wordsByEntry(patched, now.length)).toEqual(wordsByEntry(indexOf(now), now.length));
    }
  });

  it('drops a word no entry holds any more, and keeps an index with nothing rebuilt as it was', () => {
    const before = [['solo', 'shared'], ['shared']];
    expect(patchedWordIndex(indexOf(before), new Map([[0, ['shared']]]))).toEqual(indexOf([['shared'], ['shared']]));
    expect(patchedWordIndex(indexOf(before), new Map())).toEqual(indexOf(before));
  });
});
