// The embedded answerer: no network, no keys. It reads every candidate, decides coverage
// deterministically (the question's specific terms, and most of its ordinary words, must occur in
// the union of the pages read), and answers with the passages that carry the question's terms,
// quoted and cited: first from the best-ranked page, then whatever covers terms not yet quoted.
import { type SignalTerm, STRICT_KINDS } from '../ladder/signal-terms.js';
import { foldText, termPattern } from '../ladder/text-match.js';
import type { WikiCitation } from '../ladder/trace.js';
import type { AnswerRequest, Answerer, Claim, DraftAnswer } from './answerer.js';
import { type Passage, splitPassages, textHasTerm, withoutLinkTargets } from './passages.js';

/** At most this many quoted passages, from at most this many pages. */
const MAX_CLAIMS = 4;
const MAX_CITED_PAGES = 5;
const SENTENCE = /(?<=[.!?])\s+(?=[\p{Lu}\p{N}`*"“(\[])/u;
const QUOTE_TARGET = 160;
const RANK_DISCOUNT = 0.1;
const WORDS_PER_TOLERATED_MISS = 3;
/** A term already quoted still counts for this much: a second page saying the same thing helps. */
const REQUOTE_SHARE = 0.35;
/** Re-quoting only tops up short answers. */
const MAX_REQUOTE_BEFORE = 2;
/** Tables and code read badly as quotes: they win only when nothing else carries the terms. */
const LAYOUT_LINE = /^\s*(?:\||```|~~~)/;
const LAYOUT_SHARE = 0.5;

interface WeightedTerm {
  term: SignalTerm;
  pattern: ReturnType<typeof termPattern>;
  strict: boolean;
  weight: number;
}

/** Pages prepared once per session: a batch asks about the same pages again and again. */
interface PreparedPage {
  text: string;
  folded: ReturnType<typeof foldText>;
  passages: Passage[];
}
const PREPARED_PAGE_LIMIT = 20_000;

export class OfflineAnswerer implements Answerer {
  readonly name = 'offline';
  private readonly prepared = new Map<string, PreparedPage>();

  private prepare(path: string, text: string): PreparedPage {
    const cached = this.prepared.get(path);
    if (cached && cached.text === text) return cached;
    const page = { text, folded: foldText(text), passages: splitPassages(path, text) };
    if (this.prepared.size >= PREPARED_PAGE_LIMIT) this.prepared.clear();
    this.prepared.set(path, page);
    return page;
  }

  async answer(request: AnswerRequest): Promise<DraftAnswer> {
    const read = [...request.pages.keys()];
    const weighted: WeightedTerm[] = request.terms.map((term) => {
      const strict = STRICT_KINDS.has(term.kind);
      return { term, pattern: termPattern(term.term), strict, weight: term.kind === 'expanded' ? 0.5 : strict ? 3 : 1 };
    });
    const required = weighted.filter((w) => w.term.kind !== 'expanded');
    const pages = new Map([...request.pages].map(([path, text]) => [path, this.prepare(path, text)]));
    const passages = [...pages.values()].flatMap((p) => p.passages);
    const picked = pickPassages(passages, weighted, read);
    // A page found by its title alone: its opening paragraph is what it says about the subject.
    if (picked.length === 0) {
      const titled = read.find((path) => required.some((w) => textHasTerm(pages.get(path)!.folded, w.pattern, w.strict)));
      const opening = passages.find((p) => p.path === titled);
      if (opening) picked.push(opening);
    }
    const claims = picked.map((p) => quoteClaim(p, weighted));
    // Coverage is judged on the pages the answer quotes: terms scattered over many pages read do
    // not make an answer.
    const quotedPages = [...new Set(picked.map((p) => p.path))].map((path) => pages.get(path)!.folded);
    const found = required.filter((w) => quotedPages.some((p) => textHasTerm(p, w.pattern, w.strict)));
    const missing = required.filter((w) => !found.includes(w));
    const plainWords = required.filter((w) => !w.strict).length;
    const tolerated = Math.floor(plainWords / WORDS_PER_TOLERATED_MISS);
    return {
      claims,
      // Every specific term (identifier, version, name, code, quote) must be there; of ordinary
      // words, one in three (rounded down) may be missing — questions word things differently
      // from pages.
      covered: read.length > 0 && missing.every((w) => !w.strict) && missing.length <= tolerated,
      found: found.map((w) => w.term.term),
      missing: missing.map((w) => w.term.term),
      read,
      unread: [],
    };
  }
}

/** Greedy cover: each pick is the passage adding the most weight of terms not yet quoted. */
function pickPassages(passages: readonly Passage[], terms: readonly WeightedTerm[], rankOrder: readonly string[]): Passage[] {
  const rank = new Map(rankOrder.map((p, i) => [p, i]));
  const presence = passages.map((p) => terms.map((t) => textHasTerm(p.folded, t.pattern, t.strict)));
  const quoted = new Set<number>();
  const picked: number[] = [];
  const pages = new Set<string>();
  const take = (i: number) => {
    picked.push(i);
    pages.add(passages[i]!.path);
    presence[i]!.forEach((has, k) => has && quoted.add(k));
  };
  // The best-ranked page that speaks to the question at all is quoted first.
  const weightOf = (i: number) => terms.reduce((sum, t, k) => sum + (presence[i]![k] ? t.weight : 0), 0) * (LAYOUT_LINE.test(passages[i]!.lines[0]!) ? LAYOUT_SHARE : 1);
  for (const path of rankOrder) {
    const own = passages.map((p, i) => (p.path === path ? i : -1)).filter((i) => i >= 0 && weightOf(i) >= LAYOUT_SHARE);
    if (own.length === 0) continue;
    take(own.reduce((a, b) => (weightOf(b) > weightOf(a) ? b : a)));
    break;
  }
  // New terms first; once every term is quoted, a second page saying the same thing may follow.
  let requoting = false;
  while (picked.length < MAX_CLAIMS) {
    let best = -1;
    let bestGain = 0;
    passages.forEach((p, i) => {
      if (picked.includes(i) || (!pages.has(p.path) && pages.size >= MAX_CITED_PAGES)) return;
      let gain = 0;
      terms.forEach((t, k) => {
        if (presence[i]![k]) gain += !quoted.has(k) ? t.weight : requoting ? t.weight * REQUOTE_SHARE : 0;
      });
      if (LAYOUT_LINE.test(p.lines[0]!)) gain *= LAYOUT_SHARE;
      // The ladder's ranking counts: a passage from a lower-ranked page must carry more to win.
      gain /= 1 + RANK_DISCOUNT * rank.get(p.path)!;
      // Ties go to the higher-ranked page, then to the earlier passage.
      if (gain > bestGain || (gain === bestGain && gain > 0 && best >= 0 && rank.get(p.path)! < rank.get(passages[best]!.path)!)) {
        best = i;
        bestGain = gain;
      }
    });
    // Undo the rank discount to compare the raw gain with 1 (with a hair of tolerance for float error).
    if (best < 0 || bestGain * (1 + RANK_DISCOUNT * rank.get(passages[best]!.path)!) < 1 - 1e-9) {
      if (requoting || picked.length >= MAX_REQUOTE_BEFORE) break;
      requoting = true;
      continue;
    }
    take(best);
  }
  return picked.map((i) => passages[i]!);
}

/** Quotes the one or two lines of a passage that carry most of the question's terms. */
function quoteClaim(passage: Passage, terms: readonly WeightedTerm[]): Claim {
  const lineWeight = (line: string) => {
    const folded = foldText(withoutLinkTargets(line));
    return terms.reduce((sum, t) => sum + (textHasTerm(folded, t.pattern, t.strict) ? t.weight : 0), 0);
  };
  const weights = passage.lines.map(lineWeight);
  const bestLine = weights.indexOf(Math.max(...weights));
  const line = passage.lines[bestLine]!;
  const sentences = line.split(SENTENCE);
  let quote = line.trim();
  if (sentences.length > 1) {
    const scores = sentences.map(lineWeight);
    const i = scores.indexOf(Math.max(...scores));
    quote = sentences[i]!.trim();
    if (quote.length < QUOTE_TARGET && sentences[i + 1]) quote = `${quote} ${sentences[i + 1]!.trim()}`;
  }
  let end = bestLine;
  const next = passage.lines[bestLine + 1];
  if (sentences.length === 1 && quote.length < QUOTE_TARGET / 2 && next !== undefined && next.trim() !== '') {
    quote = `${quote}\n${next.trim()}`;
    end = bestLine + 1;
  }
  const citation: WikiCitation = { path: passage.path, lines: [passage.start + bestLine, passage.start + end], quote: stripListMarker(quote) };
  return { text: citation.quote, citations: [citation] };
}

const stripListMarker = (quote: string): string => quote.replace(/^(?:[-*+]|\d+[.)])\s+/, '');
