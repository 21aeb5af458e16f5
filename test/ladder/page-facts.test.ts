// What the catalog takes from a page's body without reading it twice: headings (closing `#`s cut
// as upstream's expression cuts them) and links to pages, in time linear in the page.
import { describe, expect, it } from 'vitest';
import { AcronymCollector } from '../../src/ladder/acronyms.js';
import { headingText, readPageFacts } from '../../src/ladder/page-facts.js';
import { RelevanceCounter } from '../../src/ladder/relevance.js';
import { BUILTIN_STOPWORDS } from '../../src/ladder/signal-terms.js';
import { wikilinkResolver } from '../../src/wiki/wikilinks.js';

/** The expression headings were read with: its captured text is what headingText must give. */
const HEADING = /^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/;
const facts = (body: string) =>
  readPageFacts('concepts/p.md', `---\ntitle: P\n---\n${body}`, new RelevanceCounter(BUILTIN_STOPWORDS), new AcronymCollector(), wikilinkResolver(['concepts/p.md', 'concepts/q.md']));

describe('page facts', () => {
  it('cuts a heading’s closing #s exactly as the expression did, on 20,000 generated heading lines', () => {
    const pieces = ['#', ' ', '\t', 'a', 'b c', '##'];
    let seed = 3;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let k = 0; k < 20_000; k++) {
      const rest = Array.from({ length: 1 + Math.floor(next() * 10) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      const line = `## ${rest}`;
      const expected = HEADING.exec(line)?.[1];
      if (expected !== undefined) expect(headingText(/^#{1,6}[ \t]+(.+)$/.exec(line)![1]!), JSON.stringify(line)).toBe(expected);
    }
    expect(facts('# Title ##\n\n## Setup #\n\n### C# ###\n').headings).toEqual(['Title', 'Setup', 'C#']);
  });

  it('reads headings and page links of a hostile body in one pass', () => {
    // A heading line of 300,000 #s or spaces, and a page of `[` and `[](`: each rescanned the rest from every character.
    const body = ['# a', `${'#'.repeat(300_000)}x`, `## b${' '.repeat(300_000)}c`, '['.repeat(300_000), '[]('.repeat(100_000), 'See [Q](q.md).'].join('\n');
    const read = facts(body);
    expect(read.headings[0]).toBe('a');
    expect(read.headings.at(-1)).toMatch(/^b +c$/);
    expect(read.links.at(-1)).toEqual({ target: 'concepts/q.md', text: 'Q' });
  });
});
