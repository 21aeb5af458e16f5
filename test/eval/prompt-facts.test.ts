// Where the prompts' fact recall loses what whole pages hold (eval/prompts.ts): a fact is in an
// expected page alone, in another page alone, or only across pages.
import { describe, expect, it } from 'vitest';
import { wholeOnlyPlace } from '../../eval/prompts.js';
import { foldWord, lowerWords } from '../../src/ladder/text-match.js';

const page = (expected: boolean, text: string) => ({ expected, words: new Set(lowerWords(text).map(foldWord)) });
const FACT = 'Anode mass is sized from the average current demand over the design life.';

describe('where a fact only whole pages hold is', () => {
  it('in an expected page when one holds most of its words, whatever other pages hold', () => {
    const pages = [
      page(false, 'Anode mass sized from average current demand over design life.'),
      page(true, 'The anode mass is sized from average current demand and design life.'),
    ];
    expect(wholeOnlyPlace(FACT, pages)).toBe('expected');
  });

  it('in another page when only a page the question does not expect holds them', () => {
    expect(wholeOnlyPlace(FACT, [page(true, 'Coatings break down.'), page(false, 'Anode mass sized from average current demand over design life.')])).toBe(
      'other',
    );
  });

  it('only across pages when the words are there but no single page holds most of them', () => {
    const pages = [page(true, 'Anode mass.'), page(false, 'Sized from average current.'), page(false, 'Demand over the design life.')];
    expect(wholeOnlyPlace(FACT, pages)).toBe('across');
  });
});
