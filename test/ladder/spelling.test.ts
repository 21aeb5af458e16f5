// British and American spellings meet where their endings are regular, on both sides of every
// comparison (questions, titles, summaries, bodies), while words that only look alike keep theirs.
import { describe, expect, it } from 'vitest';
import { foldWord } from '../../src/ladder/text-match.js';
import { runLadder } from '../../src/ladder/ladder.js';
import { loadCatalog } from '../../src/ladder/catalog.js';
import { DEFAULT_CONFIG } from '../../src/config/config.js';
import { loadFileTree } from '../../src/wiki/tree.js';
import { makeWiki, page } from '../helpers/wiki-fixture.js';

describe('spelling variants', () => {
  it.each([
    ['colour', 'color'],
    ['colours', 'colors'],
    ['behaviour', 'behavior'],
    ['centre', 'center'],
    ['metres', 'meters'],
    ['organisation', 'organization'],
    ['depressurisation', 'depressurization'],
    ['analyse', 'analyze'],
    ['analysed', 'analyzed'],
    ['paralysing', 'paralyzing'],
  ])('%s folds with %s', (british, american) => expect(foldWord(british)).toBe(foldWord(american)));

  it.each([
    ['four', 'for'],
    ['hour', 'hor'],
    ['your', 'yor'],
  ])('%s keeps its spelling (not %s)', (word, other) => expect(foldWord(word)).not.toBe(foldWord(other)));

  it('a question in British spelling finds the page written in American spelling', async () => {
    const wiki = await makeWiki({
      'concepts/paint.md': page({
        title: 'Paint systems',
        type: 'concepts',
        body: 'The color of the topcoat fades under ultraviolet light; the center coat carries the corrosion inhibitor.',
      }),
      'concepts/other.md': page({ title: 'Welding', type: 'concepts', body: 'Welds are inspected after cooling.' }),
    });
    const catalog = await loadCatalog(await loadFileTree(wiki), DEFAULT_CONFIG);
    // Only the British words are shared with the page: without the fold nothing would reach it.
    const result = runLadder(catalog, 'Why does the colour of the centre matter?', { inlineMax: 5, stopwords: [], commonTermRatio: 0.15 });
    expect(result.candidates.map((c) => c.path)).toEqual(['concepts/paint.md']);
    expect(result.candidates[0]!.matched.map((m) => m.term)).toEqual(expect.arrayContaining(['colour', 'centre']));
  });
});
