// The cite contract, enforced in code before any answer leaves the engine, whatever produced it:
// every cited page was read in this run, every quote (at most two lines of the page) occurs in that
// page at the cited lines, every URL came from this run's search results, and every uncited claim
// carries the training-data flag. Quote and page are compared as readable text (`readableText`:
// links as their text, emphasis dropped, whitespace squashed), so a quote may be written as the
// reader sees it. A cited range longer than two lines is a sentence cited whole: the quote must
// then be found in its first two lines (a trailing "…" marks where it stops), and it must carry a
// few words of its own ("the" at a real line proves nothing). Violations are
// repaired or the claim is dropped; both are reported.
import { type Citation, type CiteViolation, type WikiCitation, isWikiCitation } from './trace.js';
import type { Claim } from './answerer.js';
import { readableText } from '../markdown/readable-text.js';
import { MAX_QUOTE_LINES } from './passages.js';
import { builtinStopwords } from '../ladder/signal-terms.js';
import { lowerWords } from '../ladder/text-match.js';

export const TRAINING_DATA_FLAG = '(from training data; not in wiki)';

/**
 * A quote proves something only when it says something: at least this many distinct words that are
 * not stopwords. "the" at a real line is in the page, and proves nothing about the claim beside it.
 */
export const MIN_QUOTE_CONTENT_WORDS = 2;

/** Whether a quote (as readable text) carries enough words of its own to be evidence. */
export function quoteSaysSomething(quote: string): boolean {
  const stopwords = builtinStopwords();
  const content = new Set(lowerWords(quote).filter((w) => !stopwords.has(w) && !/^\d$/.test(w)));
  return content.size >= MIN_QUOTE_CONTENT_WORDS;
}

export interface CiteContext {
  /** Pages read in this run: path → full text. */
  pagesRead: ReadonlyMap<string, string>;
  /** URLs returned by this run's web searches. */
  searchUrls: ReadonlySet<string>;
}

export interface ContractResult {
  claims: Claim[];
  violations: CiteViolation[];
}

export function enforceCiteContract(claims: readonly Claim[], context: CiteContext): ContractResult {
  const violations: CiteViolation[] = [];
  const kept: Claim[] = [];
  const pageLines = new Map<string, string[]>();
  const linesOf = (path: string) => {
    let lines = pageLines.get(path);
    if (!lines) pageLines.set(path, (lines = context.pagesRead.get(path)!.split('\n')));
    return lines;
  };
  for (const claim of claims) {
    if (claim.citations.length === 0) {
      if (claim.text.includes(TRAINING_DATA_FLAG)) kept.push(claim);
      else {
        violations.push({ rule: 'uncited-claim', detail: `uncited claim flagged: ${clip(claim.text)}`, action: 'repaired' });
        kept.push({ ...claim, text: `${claim.text.trimEnd()} ${TRAINING_DATA_FLAG}` });
      }
      continue;
    }
    const citations: Citation[] = [];
    let broken = false;
    for (const citation of claim.citations) {
      const checked = isWikiCitation(citation)
        ? checkWikiCitation(citation, context, linesOf, violations)
        : checkWebCitation(citation.url, context, violations);
      if (checked === undefined) broken = true;
      else citations.push(checked === true ? citation : checked);
    }
    // A claim that leaned on a source it cannot show is not published, even beside good ones.
    if (broken) {
      violations.push({ rule: violations.at(-1)!.rule, detail: `claim dropped: ${clip(claim.text)}`, action: 'dropped' });
      continue;
    }
    kept.push({ ...claim, citations });
  }
  return { claims: kept, violations };
}

/** true: valid as given; a citation: valid once repaired; undefined: invalid. */
function checkWikiCitation(
  citation: WikiCitation,
  context: CiteContext,
  linesOf: (path: string) => string[],
  violations: CiteViolation[],
): WikiCitation | true | undefined {
  if (!context.pagesRead.has(citation.path)) {
    violations.push({ rule: 'page-not-read', detail: `${citation.path} was not read in this run`, action: 'dropped' });
    return undefined;
  }
  const quote = comparableQuote(citation.quote);
  if (quote === '' || citation.quote.split('\n').length > MAX_QUOTE_LINES) {
    violations.push({ rule: 'quote-too-long', detail: `${citation.path}: a quote must be one or two lines`, action: 'dropped' });
    return undefined;
  }
  if (!quoteSaysSomething(quote)) {
    violations.push({ rule: 'quote-without-words', detail: `${citation.path}: the quote says nothing of its own: ${clip(citation.quote)}`, action: 'dropped' });
    return undefined;
  }
  const lines = linesOf(citation.path);
  const [start, end] = citation.lines;
  if (quoteAt(lines, start, end, quote)) return true;
  // Repair: the quote is in the page at other lines; the tightest span wins.
  for (let span = 0; span < MAX_QUOTE_LINES; span++) {
    for (let a = 1; a + span <= lines.length; a++) {
      if (quoteAt(lines, a, a + span, quote)) {
        violations.push({ rule: 'quote-not-in-page', detail: `${citation.path}: quote is at lines ${a}-${a + span}, not ${start}-${end}`, action: 'repaired' });
        return { ...citation, lines: [a, a + span] };
      }
    }
  }
  violations.push({ rule: 'quote-not-in-page', detail: `${citation.path}: quote not found in the page: ${clip(citation.quote)}`, action: 'dropped' });
  return undefined;
}

/** A quote as compared with the page: readable text, without the "…" that marks where it stops. */
const comparableQuote = (quote: string): string => {
  const trimmed = quote.trim();
  const elision = trimmed.endsWith('…') ? 1 : trimmed.endsWith('...') ? 3 : 0;
  return readableText(trimmed.slice(0, trimmed.length - elision));
};

/**
 * Does the quote occur at lines `start`–`end` (1-based) of the page? Within two lines, anywhere in
 * them; in a longer range (a long sentence cited whole), within its first two lines.
 */
function quoteAt(lines: readonly string[], start: number, end: number, quote: string): boolean {
  if (!(start >= 1 && end >= start && end <= lines.length)) return false;
  const last = Math.min(end, start + MAX_QUOTE_LINES - 1);
  return readableLines(lines, start, last).includes(quote);
}

/**
 * Lines start–last of a page as readable text, rendered once per page and range: an answerer checks
 * many sentences of the same lines (a page may hold one enormous line), and the page's lines are
 * one array for as long as it is read.
 */
const renderedRanges = new WeakMap<readonly string[], Map<number, string>>();
function readableLines(lines: readonly string[], start: number, last: number): string {
  let ranges = renderedRanges.get(lines);
  if (!ranges) renderedRanges.set(lines, (ranges = new Map()));
  const key = start * MAX_QUOTE_LINES + (last - start);
  let text = ranges.get(key);
  if (text === undefined) ranges.set(key, (text = readableText(lines.slice(start - 1, last).join('\n'))));
  return text;
}

/** The check the contract makes, for answerers that want to know before they answer. */
export function quoteHolds(pageLines: readonly string[], lines: readonly [number, number], quote: string): boolean {
  const q = comparableQuote(quote);
  return q !== '' && quote.split('\n').length <= MAX_QUOTE_LINES && quoteSaysSomething(q) && quoteAt(pageLines, lines[0], lines[1], q);
}

function checkWebCitation(url: string, context: CiteContext, violations: CiteViolation[]): true | undefined {
  if (context.searchUrls.has(url)) return true;
  violations.push({ rule: 'url-not-from-search', detail: `${url} was not returned by this run's web search`, action: 'dropped' });
  return undefined;
}

const clip = (s: string): string => (s.length > 120 ? `${s.slice(0, 117)}...` : s);
