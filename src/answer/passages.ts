// Pages cut into sections and sentences that remember their line numbers, so a quote is always a
// whole sentence cited at the lines it came from. A paragraph's hard-wrapped lines are joined
// before it is split into sentences. What only points elsewhere or lays things out (frontmatter,
// headings, code, tables, link lists, sources, timestamps, list introductions) is never a sentence
// to quote. `readableText` is the one rendering of markup as text: quotes are stored in it and the
// cite contract compares quote and page after it.
import { type FoldedText, type TermPattern, containsWords, foldText } from '../ladder/text-match.js';
import { pyRStrip } from '../wiki/python-compat.js';

/** A quote spans at most this many lines of the page (the cite contract's limit too). */
export const MAX_QUOTE_LINES = 2;
/** Marks a quote that stops before its sentence ends. */
export const ELISION = '…';
/**
 * A quote stops after this many characters (at a word): a "sentence" of a whole unbroken page
 * line can run to megabytes. Above the longest sentence quoted from the eval wikis (750).
 */
export const MAX_QUOTE_CHARS = 800;
/** Fewer words than this is a label or a fragment ("Scope.", "See below."), not a statement. */
const MIN_SENTENCE_WORDS = 3;
/** A block whose words are at least this share link text is a link list ("See also", "Related: …"). */
const LINK_SHARE = 0.5;

export interface Section {
  /** The heading as readable text; above the first heading, the page's title. */
  heading: string;
  /** 1-based line of the heading; above the first heading, the body's first line that is not blank. */
  line: number;
  /** Heading level (1–6); 0 above the first heading. */
  level: number;
  folded: FoldedText;
  /** A section of pointers elsewhere (Sources, References, See also, …): never quoted. */
  reference: boolean;
  /** A section that sums the page up (Summary, Overview, TL;DR, …): its first sentence is a lead. */
  summary: boolean;
}

export interface Sentence {
  path: string;
  /** 1-based first and last line of the sentence in the page file. */
  start: number;
  end: number;
  /** The whole sentence as readable text. */
  text: string;
  /** What is quoted: the whole sentence within two lines; a longer one's first two lines and "…". */
  quote: string;
  folded: FoldedText;
  section: Section;
  /** The page's title, folded: it heads every sentence of the page. */
  title: FoldedText;
  /** The page's lead: its first prose sentence, a sentence led by bold text, or a summary's first. */
  lead: boolean;
  /** 0-based position in the page, for stable ties. */
  order: number;
  /** A table's body row (its cells as the text): a fact without its column names. */
  row: boolean;
}

export interface PageSentences {
  path: string;
  title: string;
  sections: Section[];
  /** Quotable sentences only, in page order. */
  sentences: Sentence[];
}

// ---------------------------------------------------------------------------------------------
// Readable text

// Page text is untrusted: no expression here may rescan the rest of the page from each of many
// starts (a page of 300,000 `[` took minutes). Bracketed text never holds a bracket, a link's
// target stops at the next `(`, and a code span is at most MAX_CODE_SPAN characters: each start
// then looks only as far as the next start.
/** Longer than this, backticks open no code span (a run of backticks with no closing run stops here). */
const MAX_CODE_SPAN = 1000;
const CODE_SPAN = new RegExp(`(?<!\`)(\`+)(?!\`)([\\s\\S]{0,${MAX_CODE_SPAN}}?[^\`])\\1(?!\`)`, 'g');
const PLACEHOLDER = /\u0000(\d+)\u0000/g;
/** A backslash before ASCII punctuation makes it a literal character (CommonMark). */
const ESCAPED_PUNCTUATION = /\\[!-/:-@[-`{-~]/g;
const ESCAPE_PLACEHOLDER = /\u0001(\d+)\u0001/g;
/** An Obsidian callout's type at the start of a blockquote: `> [!note] Title`, `> [!tip]-`. */
const CALLOUT_TYPE = /^\[![\w-]+\][+-]?[ \t]*/;
const HEADING_PREFIX = /^\s{0,3}#{1,6}(?=\s|$)\s*/;
const BLOCKQUOTE_PREFIX = /^\s{0,3}(?:>\s?)+/;
const LIST_MARKER = /^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/;
/** A table's rule line, tested on the trimmed line (white space at both ends made it rescan the line from each space). */
const TABLE_RULE_TRIMMED = /^\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?$/;
const isTableRule = (line: string): boolean => TABLE_RULE_TRIMMED.test(line.trim());
/** A rule line with a pipe in it: a table's, not a setext underline or a thematic break. */
const isPipeTableRule = (line: string): boolean => line.includes('|') && isTableRule(line);
const TABLE_ROW = /^\s*\|.*\|\s*$/;

/** `[[target|text]]` → text; `[[folder/target#heading]]` → target (`[[#heading]]` → heading). */
function wikilinkText(target: string, alias: string | undefined): string {
  if (alias !== undefined && alias.trim() !== '') return alias.trim();
  const [page = '', heading = ''] = target.split('#');
  if (page.trim() === '') return heading.trim();
  return page.trim().split('/').at(-1)!.replace(/\.md$/i, '');
}

/**
 * Markup rendered as the text a reader sees: wikilinks and links become their text, embeds
 * (`![[image.png]]`) and comments (HTML, Obsidian `%% … %%`) go, emphasis and highlights are
 * dropped, backslash escapes give their character, inline code keeps its backticks, HTML tags go,
 * list markers, heading marks, blockquote `>` and callout types (`> [!note]`) are stripped line by
 * line, table rows become their cells, and whitespace is squashed to single spaces. Applied the
 * same way to quotes and to page lines.
 */
export function readableText(text: string): string {
  const code: string[] = [];
  const escaped: string[] = [];
  let s = text
    .replace(CODE_SPAN, (span) => `\u0000${code.push(span.replace(/\s+/g, ' ')) - 1}\u0000`)
    // `\_` is a literal `_`: kept out of the way of the emphasis and link rules and put back as
    // written, so the text reads the same in markdown and a second reading changes nothing.
    .replace(ESCAPED_PUNCTUATION, (escape) => `\u0001${escaped.push(escape) - 1}\u0001`);
  s = s
    .split('\n')
    .map((line) => {
      if (isPipeTableRule(line)) return '';
      const unquoted = line.replace(BLOCKQUOTE_PREFIX, '');
      let l = (unquoted === line ? line : unquoted.replace(CALLOUT_TYPE, '')).replace(HEADING_PREFIX, '').replace(LIST_MARKER, '');
      if (TABLE_ROW.test(l)) {
        l = l
          .trim()
          .slice(1, -1)
          .split(/(?<!\\)\|/)
          .map((cell) => cell.trim())
          .filter((cell) => cell !== '')
          .join(' · ');
      }
      return l;
    })
    .join('\n');
  s = withoutDelimited(withoutDelimited(s, '<!--', '-->'), '%%', '%%')
    .replace(/<((?:https?|mailto):[^<>\s]+)>/gi, '$1')
    .replace(/<\/?[A-Za-z][\w-]*(?:\s[^<>]*)?\/?>/g, ' ')
    .replace(/!\[\[[^[\]]*\]\]/g, ' ')
    .replace(/\[\[([^[\]|]*?)(?:\|([^[\]]*))?\]\](?:\([^()\s]*\))?/g, (_m, target: string, alias: string | undefined) => wikilinkText(target, alias))
    .replace(/!\[([^[\]]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g, '$1')
    .replace(/\[([^[\]]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g, '$1')
    .replace(/\[\^[^[\]\s]+\]/g, '')
    .replace(/\[([^[\]]+)\]\[[^[\]]*\]/g, '$1')
    .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, '$1')
    .replace(/(?<!\w)__(?=\S)([\s\S]*?\S)__(?!\w)/g, '$1')
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1')
    .replace(/(?<!\*)\*(?=[^\s*])([^*]*?[^\s*])\*(?!\*)/g, '$1')
    .replace(/(?<![\w_])_(?=[^\s_])([^_]*?[^\s_])_(?![\w_])/g, '$1')
    .replace(/==(?=[^\s=])([^=]*?[^\s=])==/g, '$1')
    // Emphasis left unpaired (a quote cut inside a bold run) reads as noise, not text.
    .replace(/\*\*|(?<![\w_])__|__(?![\w_])|~~/g, '')
    .replace(/&nbsp;|&#160;/g, ' ');
  s = s.replace(PLACEHOLDER, (_m, i: string) => code[Number(i)]!).replace(ESCAPE_PLACEHOLDER, (_m, i: string) => escaped[Number(i)]!);
  return s.replace(/\s+/g, ' ').trim();
}

/** The text cut to at most `limit` characters, at its last space when there is one in the second half, never inside a surrogate pair. */
export function atWord(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const space = text.lastIndexOf(' ', limit);
  if (space > limit / 2) return text.slice(0, space);
  const high = text.charCodeAt(limit - 1);
  return text.slice(0, high >= 0xd800 && high <= 0xdbff ? limit - 1 : limit);
}

/** Readable text cut short: its trailing punctuation and spaces (readable text has only single spaces) dropped, then "…". */
const elided = (text: string): string => `${pyRStrip(text, ' ,;:–—-')}${ELISION}`;

/**
 * Comments out (`<!-- … -->`, Obsidian's `%% … %%`), each a space; one left open runs to the end
 * and stays, as `<!--[\s\S]*?-->` would leave it, but without rescanning the page from every opening.
 */
function withoutDelimited(text: string, opening: string, closing: string): string {
  if (!text.includes(opening)) return text;
  let out = '';
  let at = 0;
  for (let open = text.indexOf(opening); open >= 0; open = text.indexOf(opening, at)) {
    const close = text.indexOf(closing, open + opening.length);
    if (close < 0) break;
    out += `${text.slice(at, open)} `;
    at = close + closing.length;
  }
  return out + text.slice(at);
}

// ---------------------------------------------------------------------------------------------
// Blocks: paragraphs, list items and blockquotes, with their lines

interface BlockLine {
  /** 1-based line in the file. */
  n: number;
  /** The line without its container prefix (list marker, `>`, indentation). */
  content: string;
}

interface Block {
  kind: 'para' | 'item' | 'quote' | 'row';
  lines: BlockLine[];
  section: Section;
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const SETEXT_UNDERLINE = /^\s{0,3}(?:={2,}|-{2,})\s*$/;
const THEMATIC_BREAK = /^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/;
const LIST_ITEM = /^(\s*)(?:[-*+]|\d{1,9}[.)])\s+/;
const INDENTED_CODE = /^(?: {4}|\t)/;

/**
 * An ATX heading line (`## Text ##`): its level and text, or undefined. What the expression
 * `^\s{0,3}(#{1,6})(?:\s+(.*?))?\s*#*\s*$` reads, worked out from the ends of the line: the
 * expression rescanned a long run of `#` or spaces from each of its characters.
 */
export function atxHeading(line: string): { level: number; text: string } | undefined {
  const open = /^\s{0,3}#/.exec(line);
  if (!open) return undefined;
  const from = open[0].length - 1;
  let hashes = 0;
  while (line[from + hashes] === '#') hashes++;
  const rest = line.slice(from + Math.min(hashes, 6));
  // Seven or more: the first six open a heading only when the rest is closing marks and spaces.
  if (hashes > 6) return rest.replace(/^#+/, '').trim() === '' ? { level: 6, text: '' } : undefined;
  if (rest !== '' && !/^\s/.test(rest)) return undefined;
  return { level: hashes, text: withoutClosingHashes(rest.trim()) };
}

/** A heading's text without its closing `#`s and the spaces before them. */
const withoutClosingHashes = (text: string): string => pyRStrip(text, '#').trimEnd();

/**
 * Headings of sections that point elsewhere rather than say anything. The rule: after any
 * numbering, the heading starts with a pointer word (Sources, References, Bibliography,
 * Citations, Footnotes, See also, Related, Links, External links, Further reading, Backlinks,
 * Cross-references) and then ends, or goes on with a colon, a parenthesis, "and …", or one plural
 * word naming more pages ("Related standards", "Sources and further reading"; not "Source code
 * layout" or "Links between services").
 */
const REFERENCE_HEADING =
  /^(?:sources?|references?|refs|bibliography|citations?|footnotes|see also|related|links|external links|useful links|further reading|reading list|backlinks|cross[- ]references?)(?:$|\s*[:(]|\s+(?:and|&)\s|\s+\p{L}+s$)/iu;
/** Headings of sections that sum the page up. */
const SUMMARY_HEADING = /^(?:summary|overview|tl;?\s?dr|in short|in brief|abstract|at a glance|key (?:points|takeaways?)|definition)\b/i;
/** A line labelled as a pointer: "Sources: …", "See also: …", "Related: …". */
const REFERENCE_LABEL = /^(?:sources?|references?|refs?|see also|related(?: pages| notes| reading)?|links|backlinks|further reading|cited (?:in|by)|citations?|bibliography)\s*:/i;
/** A transcript or log timestamp at the start of a block: `[00:12:34]`, `(1:02)`, `12:30 —`. */
const TIMESTAMP = /^[[(]?\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?[\])]?(?=$|[\s\-–—:|])/;
/** `**key:** value` pairs: a metadata line, not prose. */
const LABEL_PAIR = /(?:\*\*|__)[^*_\n]{1,40}:(?:\*\*|__)/g;

const stripNumbering = (heading: string) => heading.replace(/^[\s\d.)§-]*(?=\p{L})/u, '').replace(/^[^\p{L}\p{N}]+/u, '');

function makeSection(heading: string, line: number, level: number): Section {
  const plain = stripNumbering(heading);
  return { heading, line, level, folded: foldText(heading), reference: level > 0 && REFERENCE_HEADING.test(plain), summary: level > 0 && SUMMARY_HEADING.test(plain) };
}

/** The first line after a `---` frontmatter block (0-based), or 0. */
export function bodyStart(lines: readonly string[]): number {
  if (lines[0]?.trim() !== '---') return 0;
  for (let i = 1; i < lines.length; i++) if (lines[i]!.trim() === '---' || lines[i]!.trim() === '...') return i + 1;
  return 0;
}

function frontmatterTitle(lines: readonly string[], end: number): string | undefined {
  for (let i = 1; i < end - 1; i++) {
    const m = /^title:\s*(.+?)\s*$/.exec(lines[i]!);
    if (m) return m[1]!.replace(/^(["'])(.*)\1$/, '$2');
  }
  return undefined;
}

function splitBlocks(path: string, lines: readonly string[]): { blocks: Block[]; sections: Section[]; title: string } {
  const first = bodyStart(lines);
  const stem = path.split('/').at(-1)!.replace(/\.md$/i, '');
  const h1 = lines.slice(first).find((l) => /^\s{0,3}#\s+\S/.test(l));
  const title = frontmatterTitle(lines, first) ?? (h1 ? readableText(h1) : stem);
  // The top section starts at the body's first line with something on it ("Read more" points there).
  let top = first;
  while (top < lines.length - 1 && lines[top]!.trim() === '') top++;
  let section = makeSection(title, Math.min(top + 1, lines.length), 0);
  const sections = [section];
  /** The section that made the current one a reference section, to leave it at a heading of its level. */
  let referenceLevel = Infinity;
  const blocks: Block[] = [];
  let block: Block | undefined;
  let fence: string | undefined;
  let inComment = false;
  let inIndentedCode = false;
  let inTable = false;
  let previousBlank = true;
  let lastKind: Block['kind'] | undefined;
  const flush = () => {
    if (block) {
      blocks.push(block);
      lastKind = block.kind;
    }
    block = undefined;
  };
  for (let i = first; i < lines.length; i++) {
    const raw = lines[i]!;
    const n = i + 1;
    if (fence !== undefined) {
      if (raw.trim().startsWith(fence) && raw.trim().replace(/^[`~]+/, '').trim() === '') fence = undefined;
      continue;
    }
    if (inComment) {
      if (raw.includes('-->')) inComment = false;
      continue;
    }
    const fenceOpen = FENCE.exec(raw);
    if (fenceOpen) {
      flush();
      fence = fenceOpen[1]!;
      previousBlank = false;
      continue;
    }
    if (/^\s*<!--/.test(raw) && !raw.includes('-->')) {
      flush();
      inComment = true;
      continue;
    }
    if (raw.trim() === '') {
      flush();
      inTable = false;
      previousBlank = true;
      continue;
    }
    if (inIndentedCode && INDENTED_CODE.test(raw)) continue;
    inIndentedCode = false;
    const heading = atxHeading(raw);
    const setext = !block && !heading && i + 1 < lines.length && SETEXT_UNDERLINE.test(lines[i + 1]!) && !LIST_ITEM.test(raw) && !TABLE_ROW.test(raw) && !/^\s{0,3}>/.test(raw);
    if (heading || setext) {
      flush();
      const level = heading ? heading.level : lines[i + 1]!.trim().startsWith('=') ? 1 : 2;
      const text = readableText(heading ? heading.text : raw);
      section = makeSection(text, n, level);
      if (level <= referenceLevel) referenceLevel = section.reference ? level : Infinity;
      else section.reference = true;
      sections.push(section);
      if (setext) i++;
      previousBlank = false;
      continue;
    }
    const rule = isPipeTableRule(raw);
    if (rule) inTable = true;
    const row = !rule && (TABLE_ROW.test(raw) || (inTable && raw.includes('|')));
    if (THEMATIC_BREAK.test(raw) || rule || row) {
      flush();
      previousBlank = false;
      // A table's body row states a fact (its header, the line above the rule, only names columns).
      const header = row && i + 1 < lines.length && isPipeTableRule(lines[i + 1]!);
      // Only rows written with their outer pipes: readable text reads those as cells.
      if (row && !header && !section.reference && TABLE_ROW.test(raw)) {
        block = { kind: 'row', lines: [{ n, content: raw }], section };
        flush();
      }
      continue;
    }
    if (previousBlank && INDENTED_CODE.test(raw) && lastKind !== 'item' && !LIST_ITEM.test(raw)) {
      flush();
      inIndentedCode = true;
      continue;
    }
    previousBlank = false;
    const item = LIST_ITEM.exec(raw);
    if (item) {
      flush();
      block = { kind: 'item', lines: [{ n, content: raw.slice(item[0].length).trim() }], section };
      continue;
    }
    if (/^\s{0,3}>/.test(raw)) {
      const content = raw.replace(BLOCKQUOTE_PREFIX, '').trim();
      if (block?.kind !== 'quote') {
        flush();
        block = { kind: 'quote', lines: [], section };
      }
      if (content === '') flush();
      else block!.lines.push({ n, content });
      continue;
    }
    // A table without a leading pipe: this line, then a rule.
    if (!block && i + 1 < lines.length && isPipeTableRule(lines[i + 1]!) && raw.includes('|')) continue;
    if (!block) block = { kind: 'para', lines: [], section };
    block.lines.push({ n, content: raw.trim() });
  }
  flush();
  return { blocks, sections, title };
}

// ---------------------------------------------------------------------------------------------
// Sentences

/** A sentence ends at . ! or ? (closing marks may follow) before whitespace and a capital, digit or opening mark. */
const BOUNDARY = /[.!?][)\]"'”’*_]*\s+(?=[\p{Lu}\p{N}`*_"“‘'([<])/gu;
/** Words whose trailing period is not a sentence end. */
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|vs|cf|approx|ca|fig|figs|eq|eqs|sec|vol|al|dr|mr|mrs|ms|inc|ltd|corp|jr|sr|incl|resp|u\.s)$/iu;
/** An initial ("J. Smith", "Plan B. Then") is not a sentence end either. */
const INITIAL = /(?:^|[\s(])\p{Lu}$/u;

const wordCount = (text: string) => (text.match(/[\p{L}\p{N}]+/gu) ?? []).length;

/** Share of a block's words that are link text (wikilinks, markdown links, bare URLs). */
function linkShare(raw: string, total: number): number {
  if (total === 0) return 0;
  let linked = 0;
  for (const m of raw.matchAll(LINK)) linked += wordCount(readableText(m[0]));
  return linked / total;
}

/** Why a block is never quoted, or undefined when it may be. */
function blockExclusion(block: Block, joined: string, readable: string): string | undefined {
  if (block.section.reference) return 'reference section';
  if (readable === '') return 'empty';
  if (REFERENCE_LABEL.test(readable)) return 'reference line';
  if (TIMESTAMP.test(readable)) return 'timestamp';
  if ((joined.match(LABEL_PAIR) ?? []).length >= 2) return 'metadata';
  if (linkShare(joined, wordCount(readable)) >= LINK_SHARE) return 'link list';
  return undefined;
}

/**
 * A sentence wholly in bold that opens a list item ("- **Issue titles, bodies and comments.** They
 * may …") labels the one after it, as does a short one in a paragraph ("**Note.**"); a longer
 * bold sentence in a paragraph is a statement (a bold lead).
 */
const BOLD_LABEL = /^(\*\*|__)(?:(?!\1)[^\n])+\1$/;
const BOLD_LABEL_WORDS = 4;
const ITEM_LABEL_WORDS = 12;

const LINK = /!?\[\[[^[\]]*\]\](?:\([^()\s]*\))?|!?\[[^[\]]*\]\((?:[^()]|\([^()]*\))*\)|<https?:[^<>]*>|https?:\/\/\S+/g;
/** Beside a link, at most this many words of its own: "The rules are explained in [Cite contract]." */
const POINTER_WORDS = 5;

/** A sentence that sends the reader elsewhere: "See [X].", "Details are in [X].", "For …, see [X]." */
function isPointer(raw: string, readable: string): boolean {
  const links = raw.match(LINK) ?? [];
  if (links.length === 0) return false;
  const own = wordCount(readableText(raw.replace(LINK, ' ')));
  return own <= POINTER_WORDS || /(?:^|[,;:(—–-]\s*)see\b/i.test(readable);
}

/** Where each sentence of a block starts and ends in the block's joined text. */
function sentenceSpans(joined: string, item: boolean): Array<[number, number]> {
  const protectedRanges: Array<[number, number]> = [];
  for (const m of joined.matchAll(CODE_SPAN)) protectedRanges.push([m.index, m.index + m[0].length]);
  const spans: Array<[number, number]> = [];
  let from = 0;
  for (const m of joined.matchAll(BOUNDARY)) {
    const cut = m.index + m[0].trimEnd().length;
    if (protectedRanges.some(([a, b]) => m.index >= a && m.index < b)) continue;
    const word = pyRStrip(joined.slice(from, m.index), '*_`');
    if (joined[m.index] === '.' && (ABBREVIATION.test(word) || INITIAL.test(word))) continue;
    spans.push([from, cut]);
    from = m.index + m[0].length;
  }
  spans.push([from, joined.length]);
  // A label ("**CML selection.**", "Note.") belongs to the sentence it introduces.
  const merged: Array<[number, number]> = [];
  for (let k = 0; k < spans.length; k++) {
    const [a, b] = spans[k]!;
    const span = joined.slice(a, b).trim();
    const words = wordCount(readableText(span));
    const label = BOLD_LABEL.test(span) && words <= (item && k === 0 ? ITEM_LABEL_WORDS : BOLD_LABEL_WORDS);
    if (k + 1 < spans.length && (words < MIN_SENTENCE_WORDS || label)) {
      spans[k + 1] = [a, spans[k + 1]![1]];
      continue;
    }
    merged.push([a, b]);
  }
  return merged.filter(([a, b]) => joined.slice(a, b).trim() !== '');
}

/** The page's sections and quotable sentences. */
export function splitSentences(path: string, text: string): PageSentences {
  const lines = text.split('\n');
  const { blocks, sections, title } = splitBlocks(path, lines);
  const sentences: Sentence[] = [];
  const titleFolded = foldText(title);
  let leadTaken = false;
  const summaryOpened = new Set<Section>();
  for (const block of blocks) {
    const joined = block.lines.map((l) => l.content).join('\n');
    const readable = readableText(joined);
    const excluded = blockExclusion(block, joined, readable);
    if (excluded) continue;
    const lineStarts: number[] = [];
    let offset = 0;
    for (const l of block.lines) {
      lineStarts.push(offset);
      offset += l.content.length + 1;
    }
    const lineAt = (pos: number) => {
      let k = 0;
      while (k + 1 < lineStarts.length && lineStarts[k + 1]! <= pos) k++;
      return k;
    };
    const prose = block.kind !== 'item';
    sentenceSpans(joined, block.kind === 'item').forEach(([a, b], k) => {
      const raw = joined.slice(a, b).trim();
      const start = a + (joined.slice(a, b).length - joined.slice(a, b).trimStart().length);
      const sentenceText = readableText(raw);
      // Too short to state anything, a command alone (nothing but code), a list's introduction, or a pointer to another page.
      if (wordCount(sentenceText) < MIN_SENTENCE_WORDS || wordCount(sentenceText.replace(CODE_SPAN, ' ')) < 2 || /[:：]$/.test(sentenceText) || isPointer(raw, sentenceText)) return;
      const first = lineAt(start);
      const last = lineAt(start + raw.length - 1);
      let quote = sentenceText;
      if (last - first + 1 > MAX_QUOTE_LINES) {
        const cut = lineStarts[first + MAX_QUOTE_LINES]! - 1;
        quote = elided(readableText(joined.slice(start, cut)));
      }
      if (quote.length > MAX_QUOTE_CHARS) quote = elided(atWord(quote, MAX_QUOTE_CHARS));
      const boldLead = k === 0 && block.kind === 'para' && /^(?:\*\*|__)/.test(raw);
      const summaryLead = block.section.summary && !summaryOpened.has(block.section);
      const firstProse = prose && !leadTaken;
      if (prose) leadTaken = true;
      if (block.section.summary) summaryOpened.add(block.section);
      sentences.push({
        path,
        start: block.lines[first]!.n,
        end: block.lines[last]!.n,
        text: sentenceText,
        quote,
        folded: foldText(sentenceText),
        section: block.section,
        title: titleFolded,
        lead: firstProse || boldLead || summaryLead,
        order: sentences.length,
        row: block.kind === 'row',
      });
    });
  }
  return { path, title, sections, sentences };
}

/**
 * The section that holds a line of a page: its heading (the page's title above the first heading)
 * and the heading's line. For claims that come without one (a model's), to offer "Read more".
 */
export function sectionAt(path: string, text: string, line: number): { heading: string; line: number } {
  const { sections } = splitBlocks(path, text.split('\n'));
  const section = sections.filter((s) => s.level === 0 || s.line <= line).at(-1)!;
  return { heading: section.heading, line: section.line };
}

// ---------------------------------------------------------------------------------------------
// Term matching

/** A term is in a text when its words appear whole (folded), or, for identifiers, its exact spelling does. */
export function textHasTerm(folded: FoldedText, pattern: TermPattern, strict: boolean): boolean {
  return containsWords(folded, pattern) || (strict && pattern.raw.length > 1 && folded.raw.includes(pattern.raw));
}

