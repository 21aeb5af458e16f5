// The ASCII fast path of the ladder's words gives exactly the words of the Unicode definition
// (NFKC, lowercased, runs of letters and digits), and non-ASCII text still takes the Unicode path.
import { describe, expect, it } from 'vitest';
import { lowerWords, normalize } from '../../src/ladder/text-match.js';

const unicodeWords = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? [];
const ascii = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)).join('');

describe('lowerWords and normalize', () => {
  it('give the Unicode definition’s words for every ASCII character, alone and in runs', () => {
    for (const c of ascii) {
      for (const text of [c, `A${c}b`, `${c}${c}Z9${c}`]) {
        expect(lowerWords(text)).toEqual(unicodeWords(text));
        expect(normalize(text)).toBe(text.normalize('NFKC').toLowerCase());
      }
    }
    expect(lowerWords(`${ascii} The API_KEY is 42, e.g. HTTP/2.`)).toEqual(unicodeWords(`${ascii} The API_KEY is 42, e.g. HTTP/2.`));
  });

  it('normalise text with any non-ASCII character by NFKC', () => {
    expect(lowerWords('Ｆｕｌｌ width and ﬁne ligatures, Straße')).toEqual(['full', 'width', 'and', 'fine', 'ligatures', 'straße']);
    expect(normalize('Ｗｉｋｉ')).toBe('wiki');
  });
});
