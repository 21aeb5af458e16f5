// What the catalog takes from a page's body without reading it twice: headings (read as the
// answerer reads them, test/markdown/blocks.test.ts) and links to pages, in time linear in the page.
import { describe, expect, it } from 'vitest';
import { readPageFacts } from '../../src/ladder/page-facts.js';
import { RelevanceCounter } from '../../src/ladder/relevance.js';
import { builtinStopwords } from '../../src/ladder/signal-terms.js';

const facts = (body: string) => readPageFacts('concepts/p.md', `---\ntitle: P\n---\n${body}`, new RelevanceCounter(builtinStopwords()));

describe('page facts', () => {
  it('reads the headings the answerer quotes sections under: ATX and setext, indented up to three columns, never in code', () => {
    expect(facts('# Title ##\n\n## Setup #\n\n### C# ###\n').headings).toEqual(['Title', 'Setup', 'C#']);
    expect(facts('Install\n=======\n\n  ## Configure\n\n    ## not a heading\n\n```\n# a comment\n```\n<!--\n# hidden\n-->\nUse it\n---\n').headings).toEqual([
      'Install',
      'Configure',
      'Use it',
    ]);
  });

  it('reads headings and page links of a hostile body in one pass', () => {
    // A heading line of 300,000 #s or spaces, and a page of `[` and `[](`: each rescanned the rest from every character.
    const body = ['# a', `${'#'.repeat(300_000)}x`, `## b${' '.repeat(300_000)}c`, '['.repeat(300_000), '[]('.repeat(100_000), 'See [Q](q.md).'].join('\n');
    const read = facts(body);
    expect(read.headings[0]).toBe('a');
    expect(read.headings.at(-1)).toMatch(/^b +c$/);
    expect(read.links.at(-1)).toEqual({ target: 'concepts/q.md', text: 'Q' });
  });

  it('depend on the page alone: wikilinks as written, and the acronyms the page spells out', () => {
    const read = facts('See [[Q]] and [[q|the other]], and [R](r.md), never `[[code]]`.\n\nA backend for frontend (BFF) answers.\n');
    expect(read.wikilinks).toEqual([{ target: 'Q' }, { target: 'q', text: 'the other' }]);
    expect(read.links).toEqual([{ target: 'concepts/r.md', text: 'R' }]);
    expect([...read.acronyms]).toEqual([['bff', new Map([['backend for frontend', 'backend for frontend']])]]);
  });
});
