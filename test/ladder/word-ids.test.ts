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
    expect(scanned(ids, 'See [retry budgets](concepts/retry-budgets.md) and [a b](has space)', true)).toEqual([
      'see',
      'retry',
      'budgets',
      'and',
      'a',
      'b',
      'has',
      'space',
    ]);
  });

  it('keeps words with the same hash apart, and every id stable as the table grows', () => {
    const ids = new WordIds();
    // "aan" and "ac0" hash alike (31·h + c): only the characters tell them apart.
    const [aan, ac0] = [ids.idOf('aan'), ids.idOf('ac0')];
    expect(aan).not.toBe(ac0);
    expect(scanned(ids, 'AAN ac0 aan AC0')).toEqual(['aan', 'ac0', 'aan', 'ac0']);
    const many = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}`);
    const first = many.map((w) => ids.idOf(w));
    expect(many.map((w) => ids.idOf(w))).toEqual(first);
    expect(first.map((id) => ids.word(id))).toEqual(many);
    expect([ids.idOf('aan'), ids.idOf('ac0')]).toEqual([aan, ac0]);
    expect(ids.size).toBe(20_002);
  });
});
