// Pages as sentences: hard-wrapped lines joined, markup read as text, and nothing quotable that
// only lays things out or points elsewhere.
import { describe, expect, it } from 'vitest';
import { quoteHolds } from '../../src/answer/cite-contract.js';
import { MAX_QUOTE_CHARS, atxHeading, readableText, sectionAt, splitSentences } from '../../src/answer/passages.js';

const fm = (title: string) => ['---', `title: ${title}`, 'type: concepts', '---'];
const pageOf = (title: string, ...body: string[]) => [...fm(title), ...body].join('\n');
const texts = (text: string) => splitSentences('concepts/p.md', text).sentences.map((s) => s.text);

describe('readableText', () => {
  it('renders wikilinks, links, emphasis and HTML as the text a reader sees', () => {
    expect(readableText('See [[runbooks/deploy-gate|the deploy gate]] and [[approvals]] or [[ops/on-call.md#Paging]].')).toBe(
      'See the deploy gate and approvals or on-call.',
    );
    expect(readableText('[[#Retention]] and [[Brittle Fracture]](concepts/brittle-fracture.md)')).toBe('Retention and Brittle Fracture');
    expect(readableText('Run [the installer](../how-to/install.md) **now**, __then__ *check* _it_.')).toBe('Run the installer now, then check it.');
    expect(readableText('Keep `**raw**` and `[[x]]` in code; KC_DB_URL and snake_case_name stay.')).toBe('Keep `**raw**` and `[[x]]` in code; KC_DB_URL and snake_case_name stay.');
    expect(readableText('A<br>line with <span class="x">tags</span> &nbsp;and   space')).toBe('A line with tags and space');
  });

  it('strips list markers, blockquote marks and headings line by line, and reads table rows as cells', () => {
    expect(readableText('- first item\n  continued\n2. second\n> quoted\n## Heading')).toBe('first item continued second quoted Heading');
    expect(readableText('| Plan | Pages |\n|---|---|\n| Free | 3 |')).toBe('Plan · Pages Free · 3');
  });

  it('is stable: rendering readable text again changes nothing', () => {
    const once = readableText('The **free plan** gives [[plans/free|every workspace]] three pages of `history`.');
    expect(readableText(once)).toBe(once);
    for (const text of ['Whales \\_are\\_ mammals, \\*not\\* fish.', '> [!note] Careful\n> ==Keep== the %% draft %% key.', 'Released in 1991.\n![[logo.png]]']) {
      expect(readableText(readableText(text))).toBe(readableText(text));
    }
  });

  it('reads Obsidian markup and backslash escapes as a reader sees them', () => {
    // An embed is not text: it must not glue a file name onto the sentence before it.
    expect(readableText('Python was first released in 1991.\n![[python-logo.png]]\n![[Snake#Habitat]]')).toBe('Python was first released in 1991.');
    expect(readableText('Pythons eat birds. %% note to self: the snake eats rabbits %% They hunt at night.')).toBe('Pythons eat birds. They hunt at night.');
    expect(readableText('> [!note] Disambiguation\n> This page is about the snake.')).toBe('Disambiguation This page is about the snake.');
    expect(readableText('> [!tip]- Folded\n> Text.')).toBe('Folded Text.');
    expect(readableText('Marked ==highlighted text== here.')).toBe('Marked highlighted text here.');
    // Escaped punctuation is literal: no emphasis is read from it, and the escape stays (the quote is markdown).
    expect(readableText('Whales \\_are\\_ mammals and \\*so\\* are dolphins; *this* is emphasis.')).toBe('Whales \\_are\\_ mammals and \\*so\\* are dolphins; this is emphasis.');
    expect(readableText('A plain [bracket] and a \\[not link\\](x.md).')).toBe('A plain [bracket] and a \\[not link\\](x.md).');
  });

  it('reads hostile text in one pass: 300,000 brackets, backticks or comment openers', () => {
    // Each of these made an expression rescan the rest of the text from each of its characters (minutes).
    for (const piece of ['[', '[[', '[](', '![[', '[^', '`', '<!--', '%%', '<http:', '# ', '**a']) {
      const text = `The ocelot is a wild cat. ${piece.repeat(Math.ceil(300_000 / piece.length))} The end.`;
      expect(readableText(text), piece).toContain('The ocelot is a wild cat.');
      const first = splitSentences('concepts/hostile.md', pageOf('Hostile', '', text)).sentences[0]!;
      expect(first.text, piece).toMatch(/^The ocelot is a wild cat\./);
      expect(first.quote.length, piece).toBeLessThanOrEqual(MAX_QUOTE_CHARS + 1);
    }
  });
});

describe('atxHeading', () => {
  it('reads a heading line as the expression it replaces did, on 50,000 generated lines', () => {
    const expression = /^\s{0,3}(#{1,6})(?:\s+(.*?))?\s*#*\s*$/;
    const pieces = ['#', ' ', '\t', 'a', 'x y', '##', '  '];
    let seed = 5;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let k = 0; k < 50_000; k++) {
      const line = Array.from({ length: Math.floor(next() * 12) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      const m = expression.exec(line);
      expect(atxHeading(line), JSON.stringify(line)).toEqual(m ? { level: m[1]!.length, text: m[2] ?? '' } : undefined);
    }
    expect(atxHeading(`## Title${'#'.repeat(300_000)}`)).toEqual({ level: 2, text: 'Title' });
    expect(atxHeading(`# a${' '.repeat(300_000)}b`)?.text).toMatch(/^a +b$/);
  });
});

describe('splitSentences', () => {
  it('joins a hard-wrapped paragraph and remembers each sentence’s first and last line', () => {
    const page = splitSentences('concepts/plans.md', pageOf('Plans', '', 'The free plan gives', 'every workspace three pages of history. Paid plans', 'keep everything.'));
    expect(page.sentences.map((s) => [s.text, s.start, s.end])).toEqual([
      ['The free plan gives every workspace three pages of history.', 6, 7],
      ['Paid plans keep everything.', 7, 8],
    ]);
    expect(page.sentences[0]!.quote).toBe(page.sentences[0]!.text);
  });

  it('quotes a sentence longer than two lines by its first two lines and "…", citing all its lines', () => {
    const page = splitSentences('concepts/plans.md', pageOf('Plans', '', 'The free plan gives every workspace', 'three pages of history, one reviewer,', 'and a weekly digest of open questions.'));
    expect(page.sentences).toHaveLength(1);
    expect(page.sentences[0]).toMatchObject({
      start: 6,
      end: 8,
      text: 'The free plan gives every workspace three pages of history, one reviewer, and a weekly digest of open questions.',
      quote: 'The free plan gives every workspace three pages of history, one reviewer…',
    });
  });

  it('quotes a sentence on one unbroken line of a megabyte by its first words, which the cite contract finds on the page', () => {
    const text = pageOf('Long', '', `The ${'very '.repeat(200_000)}long sentence ends here.`);
    const [sentence] = splitSentences('concepts/long.md', text).sentences;
    expect(sentence!.quote.length).toBeLessThanOrEqual(MAX_QUOTE_CHARS + 1);
    expect(sentence!.quote).toMatch(/^The very very .* very…$/);
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
    expect(texts(text)).toEqual(['Widgets turn the crank when the gasket seals.', 'Widgets are measured in this row of the table · 3', 'Widgets need oil every month.']);
    expect(splitSentences('concepts/p.md', text).sentences.map((s) => s.row)).toEqual([false, true, false]);
  });

  it('keeps a bold label with the sentence it introduces, and does not split at abbreviations', () => {
    expect(texts(pageOf('Inspection', '', '- **CML selection.** The owner designates locations, e.g. elbows and dead legs. Then U.S. practice applies.'))).toEqual([
      'CML selection. The owner designates locations, e.g. elbows and dead legs.',
      'Then U.S. practice applies.',
    ]);
  });

  it('marks the lead: the first prose sentence, a sentence led by bold text, a summary’s first sentence', () => {
    const page = splitSentences(
      'concepts/keys.md',
      pageOf('Keys', '', '- A list item comes first here.', '', 'Keys sign every request we send.', '', '## Rotating', '', '**Rotate keys every ninety days.** Then revoke the old ones.', '', '## Summary', '', 'Keys expire after one year. They can be renewed.'),
    );
    expect(page.sentences.filter((s) => s.lead).map((s) => s.text)).toEqual(['Keys sign every request we send.', 'Rotate keys every ninety days.', 'Keys expire after one year.']);
  });

  it('gives each sentence its section: heading text and line, the page title above the first heading', () => {
    const page = splitSentences('how-to/keys.md', pageOf('API keys', '', 'Keys sign every request.', '', '## Rotating keys (recommended procedure)', '', 'Create the new key first.'));
    expect(page.sentences.map((s) => [s.section.heading, s.section.line])).toEqual([
      // Above the first heading, the section starts at the body's first line that is not blank.
      ['API keys', 6],
      ['Rotating keys (recommended procedure)', 8],
    ]);
    const text = pageOf('API keys', '', 'Keys sign every request.', '', '## Rotating keys (recommended procedure)', '', 'Create the new key first.');
    expect(sectionAt('how-to/keys.md', text, 10)).toEqual({ heading: 'Rotating keys (recommended procedure)', line: 8 });
    expect(sectionAt('how-to/keys.md', text, 6)).toEqual({ heading: 'API keys', line: 6 });
  });
});
