// Pages as sentences: hard-wrapped lines joined, markup read as text, and nothing quotable that
// only lays things out or points elsewhere.
import { describe, expect, it } from 'vitest';
import { quoteHolds } from '../../src/answer/cite-contract.js';
import { MAX_QUOTE_CHARS, splitSentences } from '../../src/answer/passages.js';

const fm = (title: string) => ['---', `title: ${title}`, 'type: concepts', '---'];
const pageOf = (title: string, ...body: string[]) => [...fm(title), ...body].join('\n');
const texts = (text: string) => splitSentences('concepts/p.md', text).sentences.map((s) => s.text);

describe('hostile text', () => {
  it('is cut into sentences in one pass: 300,000 brackets, backticks or comment openers', () => {
    // Each of these made an expression rescan the rest of the text from each of its characters (minutes).
    for (const piece of ['[', '[[', '[](', '![[', '[^', '`', '<!--', '%%', '<http:', '# ', '**a']) {
      const text = `The ocelot is a wild cat. ${piece.repeat(Math.ceil(300_000 / piece.length))} The end.`;
      const first = splitSentences('concepts/hostile.md', pageOf('Hostile', '', text)).sentences[0]!;
      expect(first.text, piece).toMatch(/^The ocelot is a wild cat\./);
      expect(first.quote.length, piece).toBeLessThanOrEqual(MAX_QUOTE_CHARS + 1);
    }
  });
});

describe('splitSentences', () => {
  it('joins a hard-wrapped paragraph and remembers each sentence’s first and last line', () => {
    const page = splitSentences(
      'concepts/plans.md',
      pageOf('Plans', '', 'The free plan gives', 'every workspace three pages of history. Paid plans', 'keep everything.'),
    );
    expect(page.sentences.map((s) => [s.text, s.start, s.end])).toEqual([
      ['The free plan gives every workspace three pages of history.', 6, 7],
      ['Paid plans keep everything.', 7, 8],
    ]);
    expect(page.sentences[0]!.quote).toBe(page.sentences[0]!.text);
  });

  it('quotes a sentence longer than two lines by its first two lines and "…", citing all its lines', () => {
    const page = splitSentences(
      'concepts/plans.md',
      pageOf('Plans', '', 'The free plan gives every workspace', 'three pages of history, one reviewer,', 'and a weekly digest of open questions.'),
    );
    expect(page.sentences).toHaveLength(1);
    expect(page.sentences[0]).toMatchObject({
      start: 6,
      end: 8,
      text: 'The free plan gives every workspace three pages of history, one reviewer, and a weekly digest of open questions.',
      quote: 'The free plan gives every workspace three pages of history, one reviewer…',
    });
  });

  it('quotes a sentence on one unbroken line of a megabyte by its first words, which the cite contract finds on the page', () => {
    const text = pageOf('Long', '', `The ${'river runs '.repeat(100_000)}long sentence ends here.`);
    const [sentence] = splitSentences('concepts/long.md', text).sentences;
    expect(sentence!.quote.length).toBeLessThanOrEqual(MAX_QUOTE_CHARS + 1);
    expect(sentence!.quote).toMatch(/^The river runs river .* (?:river|runs)…$/);
    expect(quoteHolds(text.split('\n'), [sentence!.start, sentence!.end], sentence!.quote)).toBe(true);
  });

  it('never makes a sentence of frontmatter, headings, code, table headers and rules, link lists, sources, timestamps or list introductions', () => {
    const text = pageOf(
      'Widgets',
      '',
      '# Widgets',
      '',
      'Widgets turn the crank when the gasket seals.',
      '',
      'To install a widget, run:',
      '',
      '```',
      'Widgets are installed with this long command line here.',
      '```',
      '',
      '| Widget | Size |',
      '|---|---|',
      '| Widgets are measured in this row of the table | 3 |',
      '',
      'Widget sizes | Notes',
      '--- | ---',
      'Widgets in a pipe-less table row here | ok',
      '',
      'See also: [[widget-gasket]], [[widget-crank]], [[widget housing]].',
      '',
      '- [[widget-gasket|Widget gaskets]]',
      '- [Widget cranks and their parts](cranks.md)',
      '',
      '[00:12:31] so widgets are what we talked about in the meeting',
      '',
      '    Widgets in an indented code block are code.',
      '',
      '## Sources',
      '',
      'Widgets were described in the vendor manual of the year.',
      '',
      '### Vendor notes',
      '',
      'Widgets were also described in these vendor notes.',
      '',
      '## Related widgets',
      '',
      '- Widget gaskets are covered on their own page now.',
      '',
      '## Maintenance',
      '',
      'Widgets need oil every month.',
    );
    // A table's body row is a fact (its cells); its header, its rule and a row without outer pipes are not.
    expect(texts(text)).toEqual([
      'Widgets turn the crank when the gasket seals.',
      'Widgets are measured in this row of the table · 3',
      'Widgets need oil every month.',
    ]);
    expect(splitSentences('concepts/p.md', text).sentences.map((s) => s.row)).toEqual([false, true, false]);
  });

  it('keeps a bold label with the sentence it introduces, and does not split at abbreviations', () => {
    expect(
      texts(pageOf('Inspection', '', '- **CML selection.** The owner designates locations, e.g. elbows and dead legs. Then U.S. practice applies.')),
    ).toEqual(['CML selection. The owner designates locations, e.g. elbows and dead legs.', 'Then U.S. practice applies.']);
  });

  it('marks the lead: the first prose sentence, a sentence led by bold text, a summary’s first sentence', () => {
    const page = splitSentences(
      'concepts/keys.md',
      pageOf(
        'Keys',
        '',
        '- A list item comes first here.',
        '',
        'Keys sign every request we send.',
        '',
        '## Rotating',
        '',
        '**Rotate keys every ninety days.** Then revoke the old ones.',
        '',
        '## Summary',
        '',
        'Keys expire after one year. They can be renewed.',
      ),
    );
    expect(page.sentences.filter((s) => s.lead).map((s) => s.text)).toEqual([
      'Keys sign every request we send.',
      'Rotate keys every ninety days.',
      'Keys expire after one year.',
    ]);
  });

  it('gives each sentence its section: heading text and line, the page title above the first heading', () => {
    const page = splitSentences(
      'how-to/keys.md',
      pageOf('API keys', '', 'Keys sign every request.', '', '## Rotating keys (recommended procedure)', '', 'Create the new key first.'),
    );
    expect(page.sentences.map((s) => [s.section.heading, s.section.line])).toEqual([
      // Above the first heading, the section starts at the body's first line that is not blank.
      ['API keys', 6],
      ['Rotating keys (recommended procedure)', 8],
    ]);
  });
});

describe('a pointer after a statement', () => {
  it('quotes the statement a semicolon or dash separates from "see [links]", and drops a sentence that only points', () => {
    const text = [
      '---\ntitle: Mesh Decimation\n---',
      'Mesh decimation reduces triangle count; see [Heading First](/how-to/h1-first.md) and [code](`not/a/link.md`).',
      '',
      'Level of detail swaps meshes by distance — see [LOD](lod.md).',
      '',
      'For the import steps, see [Importing](importing.md).',
      '',
      'Baked normals keep detail; see the [[Normal Maps]] page, and [[Baking]] for why.',
    ].join('\n');
    const page = splitSentences('3d/mesh.md', text);
    expect(page.sentences.map((s) => s.text)).toEqual([
      'Mesh decimation reduces triangle count',
      'Level of detail swaps meshes by distance',
      'Baked normals keep detail',
    ]);
    // The quote is on the cited line, as the cite contract requires.
    const lines = text.split('\n');
    for (const s of page.sentences) expect(quoteHolds(lines, [s.start, s.end], s.quote)).toBe(true);
  });
});
