// The catalog counts page bodies with WordIds (no string per occurrence) and folds questions with
// lowerWords: the two must split every text into the same words, or a page could never match.
import { describe, expect, it } from 'vitest';
import { lowerWords } from '../../src/ladder/text-match.js';
import { WordIds } from '../../src/ladder/word-ids.js';

const scanned = (ids: WordIds, text: string, skipLinkTargets = false): string[] => {
  const words: string[] = [];
  ids.scan(text, (id) => words.push(ids.word(id)), skipLinkTargets);
  return words;
};

describe('WordIds', () => {
  it.each([
    'Hello, World — naïve café ﬁle ½ and GitHub’s x2 API-570',
    'Ｆｕｌｌ ｗｉｄｔｈ letters and crème brûlée',
    '日本酒の造り方を教えてください 😀 emoji 𝒜𝒷𝒸 and ΑΒΓ δ',
    'line one\nline two\tTabs, UPPER lower MiXeD 42 3.14',
  ])('splits %j into the same words as lowerWords', (text) => {
    const ids = new WordIds();
    expect(scanned(ids, text)).toEqual(lowerWords(text));
    // A second pass recognises every word by its id, without a new one.
    const size = ids.size;
    expect(scanned(ids, text)).toEqual(lowerWords(text));
    expect(ids.size).toBe(size);
  });

  it('passes over markdown link targets when asked, keeping the link text', () => {
    const ids = new WordIds();
    expect(scanned(ids, 'See [retry budgets](concepts/retry-budgets.md) and [a b](has space)', true)).toEqual(['see', 'retry', 'budgets', 'and', 'a', 'b', 'has', 'space']);
  });
});
