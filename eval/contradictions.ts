// A verdict that its own answer contradicts (issue 24's "contradictions" figure, target 0):
// - a gap with nothing missing: nothing the question asks for is said to be absent, yet it is not answered;
// - a gap whose "Not in the wiki" line names a term that a page read holds;
// - an answer that says a specific term (identifier, name, version…) is not found;
// - an answer whose quotes (with their pages' titles) carry none of the question's own terms (answered over unrelated text).
// Terms are compared after the same normalisation as matching (foldText, textHasTerm).
import { textHasTerm } from '../src/answer/passages.js';
import { type Trace, isWikiCitation } from '../src/answer/trace.js';
import { inlineCode } from '../src/markdown/code.js';
import { STRICT_KINDS, isOwnTerm } from '../src/ladder/signal-terms.js';
import { foldText, termPattern } from '../src/ladder/text-match.js';

/** Which of the trace's missing terms the answer's "**Not in the wiki:**" line lists (read by the terms, since a term may hold ", "). */
export function notInTheWiki(answer: string, missing: readonly string[]): string[] {
  const line = answer.split('\n').find((l) => l.startsWith('**Not in the wiki:**'));
  if (line === undefined) return [];
  // As render.ts shows a term: a code span, or a long phrase as text.
  const shown = (term: string) => [inlineCode(term), ...(term.length > 40 ? [term.replace(/\s+/g, ' ')] : [])];
  return missing.filter((term) => shown(term).some((form) => line.includes(form)));
}

/**
 * Why the trace contradicts itself, or undefined when it does not. `pages` holds the text of the
 * pages read; `titles` the wiki's page titles (a page's title heads every sentence quoted from it).
 */
export function contradictionOf(trace: Trace, pages: ReadonlyMap<string, string>, titles: ReadonlyMap<string, string> = new Map()): string | undefined {
  const strict = (term: string) => trace.signal_terms.some((t) => t.term === term && STRICT_KINDS.has(t.kind));
  const holds = (text: string, term: string) => textHasTerm(foldText(text), termPattern(term), strict(term));
  if (trace.outcome === 'gap') {
    if (trace.missing.length === 0) return 'gap with nothing missing';
    const present = notInTheWiki(trace.answer, trace.missing).filter((term) => trace.read.some((p) => holds(pages.get(p) ?? '', term)));
    if (present.length > 0) return `gap saying ${present.join(', ')} is not in the wiki, yet a page read holds it`;
  }
  if (trace.outcome === 'answered') {
    const specific = trace.missing.filter(strict);
    if (specific.length > 0) return `answered while ${specific.join(', ')} is not found`;
    const own = trace.signal_terms.filter((t) => isOwnTerm(t) && t.gate !== false).map((t) => t.term);
    const quotes = trace.citations.filter(isWikiCitation).map((c) => `${titles.get(c.path) ?? ''}\n${c.quote ?? ''}`);
    if (own.length > 0 && !own.some((term) => quotes.some((q) => holds(q, term)))) return 'answered over quotes that carry none of the question’s terms';
  }
  return undefined;
}
