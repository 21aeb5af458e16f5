// What of a page the model is sent: the parts the question's signal terms matched, not the whole
// page. The page is cut into parts, one per markdown block (markdown/blocks.ts), each running to
// the next block so the code and tables under a paragraph go with it. The parts that hold the
// most terms, each weighed by how rare it is among the candidate pages and among the page's own
// parts, are sent, each with the headings above it and the page's lead paragraph, up to a cap;
// every line keeps its line number in the page, so a citation names the page's own lines, and
// what is left out is said by a marker line. The cap falls with the page's rank; pages ranked past
// HEAD_PAGES go as their one best line, cut at a word when long. Lines go as a reader sees them
// (no link or emphasis markup; headings and code as written), blank lines left out. The frontmatter
// is never sent. A page whose excerpt would be most of it anyway is sent whole. The cite contract
// checks quotes against the page itself, never against this excerpt, after the same rendering.
import { type TermPattern, foldText, termPattern } from '../../ladder/text-match.js';
import { STRICT_KINDS, type SignalTerm } from '../../ladder/signal-terms.js';
import { bodyStart } from '../../markdown/body.js';
import { type Fence, closesFence, fenceOpening } from '../../markdown/code.js';
import { readableText } from '../../markdown/readable-text.js';
import { atxHeading } from '../../markdown/blocks.js';
import { type Block, markdownBlocks } from '../../markdown/blocks.js';
import { textHasTerm } from '../passages.js';

/** Most characters sent from the best-ranked page, its lead included (the headings above what is sent come on top). */
export const EXCERPT_CHARS = 7_500;
/**
 * How fast the cap falls with rank: the page at 0-based rank r gets EXCERPT_CHARS / (r + 1)^1.5.
 * On the dev banks the first expected page is the best-ranked one in about 70% of questions and
 * among the first three in about 85%, so the characters go where the answers are.
 */
const CAP_DECAY = 1.5;
/** Fewest characters a head page's cap comes down to: its lead and one matched part. */
const MIN_EXCERPT_CHARS = 400;
/**
 * Best-ranked pages sent as excerpts, as many as the offline answerer reads; pages ranked past
 * them go as their one best line (tailExcerpt): the ranking seldom puts the answer there.
 */
export const HEAD_PAGES = 10;
/** Most characters of a tail page's best line: past them the line is cut at a word, and the cut said. */
export const TAIL_LINE_CHARS = 160;

/** The excerpt cap of the page at 0-based `rank` among those sent: the ranking's confidence falls with rank, and so does the cap. */
export const excerptCap = (rank: number): number => Math.max(MIN_EXCERPT_CHARS, Math.round(EXCERPT_CHARS / (rank + 1) ** CAP_DECAY));
/** Most characters of one part: a paragraph followed by a long code block is sent in its first lines. */
const PART_CHARS = 800;
/** A page whose body is at most this many times its excerpt is sent whole: the rest would save little. */
const WHOLE_RATIO = 1.5;
/** A heading's terms count this share toward every part under it. */
const HEADING_SHARE = 0.5;

/** One line as sent: its 1-based line number in the page and its text; or a marker for lines left out. */
export type ExcerptLine = { line: number; text: string; cut?: true } | { skipped: [number, number] };

export interface PageExcerpt {
  lines: ExcerptLine[];
  /** Whether the whole body went (only the frontmatter left out). */
  whole: boolean;
}

interface Part {
  block: Block;
  /** 1-based first and last line, trailing blank lines left out. */
  start: number;
  end: number;
  /** Indices of the heading parts above this one, outermost first. */
  headings: number[];
  own: number;
  chars: number;
}

export interface ExcerptTerm {
  pattern: TermPattern;
  strict: boolean;
  weight: number;
}

/** How much a term found in `holding` of `of` texts says: log2(1 + of / holding): 1 when every text holds it, more the rarer it is. */
const rarityOf = (of: number, holding: number): number => Math.log2(1 + of / Math.max(1, holding));

/**
 * The question's terms as the excerpt weighs them: the ladder's weights, strict spelling for
 * names, each times its rarity among the candidate `pages` sent (rarityOf), so the parts and tail
 * lines that hold the question's distinctive words win over those holding the words every
 * candidate shares.
 */
export function excerptTerms(terms: readonly SignalTerm[], pages: readonly string[] = []): ExcerptTerm[] {
  const folded = pages.map(foldText);
  return terms.map((t) => {
    const pattern = termPattern(t.term);
    const strict = STRICT_KINDS.has(t.kind);
    const rarity = folded.length === 0 ? 1 : rarityOf(folded.length, folded.filter((f) => textHasTerm(f, pattern, strict)).length);
    return { pattern, strict, weight: (t.weight ?? 1) * rarity };
  });
}

function partsOf(lines: readonly string[], from: number): Part[] {
  const blocks = markdownBlocks(lines, from);
  const parts: Part[] = [];
  const stack: Array<{ level: number; index: number }> = [];
  blocks.forEach((block, i) => {
    let end = (blocks[i + 1]?.line ?? lines.length + 1) - 1;
    while (end > block.line && lines[end - 1]!.trim() === '') end--;
    if (block.kind === 'heading') while (stack.length > 0 && stack.at(-1)!.level >= block.level) stack.pop();
    const chars = lines.slice(block.line - 1, end).reduce((n, l) => n + l.length + 1, 0);
    parts.push({ block, start: block.line, end, headings: stack.map((h) => h.index), own: 0, chars });
    if (block.kind === 'heading') stack.push({ level: block.level, index: i });
  });
  return parts;
}

/** The part's last line within `limit` characters (at least its first line). */
function cappedEnd(lines: readonly string[], part: Part, limit: number): number {
  let chars = 0;
  for (let n = part.start; n <= part.end; n++) {
    chars += lines[n - 1]!.length + 1;
    if (chars > limit && n > part.start) return n - 1;
  }
  return part.end;
}

/** The page's excerpt for a question's terms. */
export function pageExcerpt(text: string, terms: readonly ExcerptTerm[], cap = EXCERPT_CHARS): PageExcerpt {
  const lines = text.split('\n');
  const first = bodyStart(text).line;
  const whole = (): PageExcerpt => ({ lines: lines.slice(first - 1).map((t, i) => ({ line: first + i, text: t })), whole: true });
  const parts = partsOf(lines, first - 1);
  // A term counts by how rare it is among the page's parts: one that most parts hold (the page's
  // own subject) tells little of where the answer is, one that few hold points at it.
  const hits = parts.map((part) => {
    const folded = foldText(lines.slice(part.start - 1, part.end).join('\n'));
    return terms.map((t) => textHasTerm(folded, t.pattern, t.strict));
  });
  const prose = parts.filter((p) => p.block.kind !== 'heading');
  const rarity = terms.map((_, k) => rarityOf(prose.length, parts.filter((p, i) => p.block.kind !== 'heading' && hits[i]![k]).length));
  parts.forEach((part, i) => {
    part.own = terms.reduce((sum, t, k) => sum + (hits[i]![k] ? t.weight * rarity[k]! : 0), 0);
  });
  const score = (part: Part) => (part.block.kind === 'heading' ? 0 : part.own + HEADING_SHARE * part.headings.reduce((s, h) => s + parts[h]!.own, 0));
  const sent = new Set<number>();
  const send = (from: number, to: number) => {
    for (let n = from; n <= to; n++) sent.add(n);
  };
  const partLimit = Math.min(PART_CHARS, cap);
  let spent = 0;
  /** Sends a part (its first lines, within what is left of the cap) under its headings; false when nothing of it fits. */
  const take = (index: number): boolean => {
    const part = parts[index]!;
    const left = Math.min(partLimit, cap - spent);
    if (left < Math.min(part.chars, partLimit) && spent > 0) return false;
    for (const h of part.headings) send(parts[h]!.start, parts[h]!.start);
    const end = cappedEnd(lines, part, left);
    send(part.start, end);
    spent += lines.slice(part.start - 1, end).reduce((n, l) => n + l.length + 1, 0);
    return true;
  };
  // The lead first: the first paragraph, under the page's first headings; then the parts that hold the most terms.
  const lead = parts.findIndex((p) => p.block.kind === 'paragraph');
  if (lead >= 0) take(lead);
  const ranked = parts
    .map((part, index) => ({ index, score: score(part) }))
    .filter((p) => p.score > 0 && p.index !== lead)
    .sort((a, b) => b.score - a.score || a.index - b.index);
  for (const { index } of ranked) take(index);
  const sentChars = [...sent].reduce((n, line) => n + lines[line - 1]!.length + 1, 0);
  const bodyChars = lines.slice(first - 1).reduce((n, l) => n + l.length + 1, 0);
  if (bodyChars <= WHOLE_RATIO * sentChars || bodyChars <= cap) return whole();
  const out: ExcerptLine[] = [];
  for (let n = first; n <= lines.length; n++) {
    if (sent.has(n)) {
      out.push({ line: n, text: lines[n - 1]! });
      continue;
    }
    let last = n;
    while (last < lines.length && !sent.has(last + 1)) last++;
    // Blank lines between sent parts hold nothing to miss: left out without a marker.
    if (lines.slice(n - 1, last).some((l) => l.trim() !== '')) out.push({ skipped: [n, last] });
    n = last;
  }
  return { lines: out, whole: false };
}

/** The 1-based numbers of the lines inside fenced code, the fences included: their text is code, never markup. */
function fencedLines(lines: readonly string[], from: number): Set<number> {
  const fenced = new Set<number>();
  let open: Fence | undefined;
  for (let n = from; n <= lines.length; n++) {
    const line = lines[n - 1]!;
    if (open) {
      fenced.add(n);
      if (closesFence(line, open)) open = undefined;
    } else if ((open = fenceOpening(line))) fenced.add(n);
  }
  return fenced;
}

/**
 * A line as a reader sees it (readable-text.ts): links as their text, no emphasis marks, list
 * markers or table pipes. Markup is tokens the model need not read, and the cite contract compares
 * a quote with the page after the same rendering, so a quote copied from it still holds. Headings
 * (their marks say the page's structure) and code stay as written; '' for a line that reads as nothing.
 */
const readableLine = (text: string, fenced: boolean): string => (fenced || atxHeading(text) ? text : readableText(text));

/** An excerpt's lines as the model reads them; lines that read as nothing (blank lines, table rules) are left out. */
function readableExcerpt(text: string, excerpt: PageExcerpt): PageExcerpt {
  const fenced = fencedLines(text.split('\n'), bodyStart(text).line);
  const lines = excerpt.lines.flatMap((l): ExcerptLine[] => {
    if ('skipped' in l) return [l];
    const readable = readableLine(l.text, fenced.has(l.line));
    return readable.trim() === '' ? [] : [{ line: l.line, text: readable }];
  });
  return { ...excerpt, lines };
}

/** A line cut to at most `limit` characters at a word boundary (at least its first word), marked as cut. */
export function cutLine(line: number, text: string, limit: number): ExcerptLine {
  if (text.length <= limit) return { line, text };
  const space = text.lastIndexOf(' ', limit);
  return { line, text: text.slice(0, space > 0 ? space : limit).trimEnd(), cut: true };
}

/**
 * A tail page's excerpt: the one line of its body that holds most of the question's terms (the
 * lead's first line when none does), as a reader sees it, cut at a word past TAIL_LINE_CHARS.
 * Enough for the model to know the page is there and what it says to the question; its path names it.
 */
function tailExcerpt(text: string, terms: readonly ExcerptTerm[]): PageExcerpt {
  const lines = text.split('\n');
  const fenced = fencedLines(lines, bodyStart(text).line);
  let best: { line: number; text: string; score: number } | undefined;
  let lead: { line: number; text: string } | undefined;
  for (const part of partsOf(lines, bodyStart(text).line - 1)) {
    if (part.block.kind === 'heading') continue;
    for (let n = part.start; n <= part.end; n++) {
      const readable = readableLine(lines[n - 1]!, fenced.has(n));
      if (readable.trim() === '') continue;
      if (!lead && part.block.kind === 'paragraph') lead = { line: n, text: readable };
      const folded = foldText(readable);
      const score = terms.reduce((sum, t) => sum + (textHasTerm(folded, t.pattern, t.strict) ? t.weight : 0), 0);
      if (score > (best?.score ?? 0)) best = { line: n, text: readable, score };
    }
  }
  const chosen = best ?? lead;
  return { lines: chosen ? [cutLine(chosen.line, chosen.text, TAIL_LINE_CHARS)] : [], whole: false };
}

/** What is sent of the page at 0-based `rank` among those sent: an excerpt with its rank's cap, or past HEAD_PAGES its best line. */
export const rankedExcerpt = (text: string, terms: readonly ExcerptTerm[], rank: number): PageExcerpt =>
  rank < HEAD_PAGES ? readableExcerpt(text, pageExcerpt(text, terms, excerptCap(rank))) : tailExcerpt(text, terms);
