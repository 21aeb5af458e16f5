// The answer as markdown, each claim followed by its citations. The caller decides how a wiki
// citation looks: the CLI shows the wiki-relative path and lines, the Action a permalink.
import type { Branch } from '../ladder/ladder.js';
import { inlineCode } from '../markdown/code.js';
import { ELLIPSIS, andMore, boundedList, clip, firstOf } from '../markdown/bound.js';
import { inertText, webLink } from '../markdown/inert.js';
import { readableText } from '../markdown/readable-text.js';
import { type Citation, type Outcome, type Trace, type WikiCitation, isWikiCitation } from './trace.js';
import type { Claim, SectionRef } from './answerer.js';
import { atWord } from './passages.js';

export type WikiCitationRenderer = (citation: WikiCitation) => string;

/** Citations shown under one claim; "… and K more citations" after them. */
const SHOWN_CITATIONS = 5;
/** Sections named in "Read more". */
const READ_MORE_SECTIONS = 10;
/** Terms (missing, looked for) and paths named in one line of the answer, and the characters of each. */
const SHOWN_TERMS = 25;
const TERM_CHARS = 200;

/** Terms as the answer names them: a long phrase (an uncovered claim) as inert text, a term as code; the first SHOWN_TERMS. */
const shownTerms = (terms: readonly string[]): string =>
  boundedList(
    terms.map((m) => (m.includes(' ') && m.length > 40 ? inertText(clip(m.replace(/\s+/g, ' '), TERM_CHARS)) : inlineCode(clip(m, TERM_CHARS)))),
    SHOWN_TERMS,
  ).join(', ');

export const plainCitation: WikiCitationRenderer = (c) =>
  `${inlineCode(c.path)} ${c.lines[0] === c.lines[1] ? `line ${c.lines[0]}` : `lines ${c.lines[0]}-${c.lines[1]}`}`;

/** A section heading named in "Read more" stops after this many characters (a page may hold a heading line of any length). */
const MAX_HEADING_CHARS = 120;
const clipHeading = (heading: string): string => (heading.length > MAX_HEADING_CHARS ? `${atWord(heading, MAX_HEADING_CHARS)}${ELLIPSIS}` : heading);

const renderCitation = (c: Citation, wiki: WikiCitationRenderer): string => (isWikiCitation(c) ? wiki(c) : webLink(c.title, c.url));

/** A page's text as quoted: readable text (no link targets, emphasis or table pipes), never markup. */
const quoted = (text: string): string => `“${inertText(readableText(unlinkPageLinks(text)))}”`;

/**
 * One claim as a bullet. What is shown in quotation marks is only ever a quote the cite contract
 * verified at its lines; an answerer's own wording (a model's) is shown apart, as its words, with
 * its evidence under it. Words nobody quoted (uncited, from the web) are inert text.
 */
function claimLines(claim: Claim, wiki: WikiCitationRenderer): string[] {
  const { shown: cited, left: moreCited } = firstOf(claim.citations.filter(isWikiCitation), SHOWN_CITATIONS);
  const others = boundedList(
    claim.citations.filter((c) => !isWikiCitation(c)).map((c) => renderCitation(c, wiki)),
    SHOWN_CITATIONS,
  );
  const tail = (list: readonly string[]) => (list.length > 0 ? ` — ${list.join(', ')}` : '');
  if (cited.length === 0) return [`- ${inertText(claim.text)}${tail(others)}`];
  const own = readableText(unlinkPageLinks(claim.text));
  if (cited.length === 1 && moreCited === 0 && own === readableText(unlinkPageLinks(cited[0]!.quote)))
    return [`- ${quoted(cited[0]!.quote)}${tail([wiki(cited[0]!), ...others])}`];
  return [
    `- ${inertText(own)} (the answerer's words)${tail(others)}`,
    ...cited.map((c) => `  - ${quoted(c.quote)} — ${wiki(c)}`),
    ...(moreCited > 0 ? [`  - ${andMore(moreCited, 'citations')}`] : []),
  ];
}

export interface RenderInput {
  outcome: Outcome;
  branch: Branch;
  claims: readonly Claim[];
  /** Sections to read more in; by default those the claims were quoted from, in claim order. */
  sections?: readonly SectionRef[];
  /** Claims from this run's web search, for what the wiki does not cover. */
  webClaims?: readonly Claim[];
  notes?: readonly string[];
  /** Open captures of this question: asked before, still waiting for an answer. */
  askedBefore?: readonly string[];
  missing: readonly string[];
  /** Of `missing`, what another page read holds: listed as not in the best-matching pages, never as not in the wiki. */
  missingElsewhere?: readonly string[];
  /** Terms the ladder looked for, for the cold explanation. */
  terms: readonly string[];
  error?: string;
}

/**
 * `[text](page.md)` → `text`: a page's own relative links mean nothing once quoted elsewhere (an
 * issue comment, a capture in another folder); web links stay.
 */
export const unlinkPageLinks = (text: string): string => text.replace(/!?\[([^[\]]*)\]\((?!https?:)(?:[^()]|\([^()]*\))*\)/g, '$1');

export function renderAnswer(input: RenderInput, wiki: WikiCitationRenderer = plainCitation): string {
  const out: string[] = [];
  if (input.outcome === 'error') {
    out.push(`This question could not be answered now: ${inertText(clip(input.error ?? 'unknown error', 1_000))}.`);
    return out.join('\n');
  }
  if (input.branch === 'unconfigured') out.push('No wiki is configured or found in this repository, so there is nothing to answer from yet.');
  else if (input.outcome === 'cold') {
    out.push(
      `The wiki has no page that matches this question${
        input.terms.length > 0
          ? ` (looked for: ${boundedList(
              input.terms.map((t) => inlineCode(clip(t, TERM_CHARS))),
              SHOWN_TERMS,
            ).join(', ')})`
          : ''
      }.`,
    );
  } else if (input.claims.length === 0) {
    out.push('The wiki has pages that match this question, but none of them answers it.');
  } else if (input.claims.length > 0) {
    out.push(input.outcome === 'answered' ? 'From the wiki:' : 'The wiki covers part of this:');
    out.push('');
    for (const claim of input.claims) out.push(...claimLines(claim, wiki));
    const sections = input.sections ?? sectionsOf(input.claims);
    if (sections.length > 0) {
      const { shown: first, left } = firstOf(sections, READ_MORE_SECTIONS);
      const readMore = first.map(
        (s) => `${inertText(clipHeading(readableText(s.heading))) || inertText(s.path)} (${wiki({ path: s.path, lines: [s.line, s.line], quote: s.heading })})`,
      );
      out.push('');
      out.push(`**Read more:** ${[...readMore, ...(left > 0 ? [andMore(left, 'sections')] : [])].join('; ')}.`);
    }
  }
  // Together exactly the trace's `missing`. "Not in the wiki" names only what no page read holds;
  // the rest (every missing term of an answered question, which the coverage rule tolerates, and a
  // gap's terms that another page read holds) is absent from the best-matching pages, not from the wiki.
  if (input.missing.length > 0 && input.branch !== 'unconfigured') {
    const elsewhere = new Set(input.outcome === 'answered' ? input.missing : (input.missingElsewhere ?? []));
    const absent = input.missing.filter((m) => !elsewhere.has(m));
    const notBest = input.missing.filter((m) => elsewhere.has(m));
    out.push('');
    if (absent.length > 0) out.push(`**Not in the wiki:** ${shownTerms(absent)}.`);
    if (notBest.length > 0) out.push(`**Not in the best-matching pages:** ${shownTerms(notBest)}.`);
  }
  if (input.askedBefore && input.askedBefore.length > 0) {
    out.push('');
    out.push(
      `**Asked before, still open:** ${boundedList(
        input.askedBefore.map((p) => inlineCode(clip(p, TERM_CHARS))),
        SHOWN_TERMS,
      ).join(', ')} ` + "(a capture waiting for a reviewer's answer; it counts once the answer is written and its `captured_by` line deleted).",
    );
  }
  if (input.webClaims && input.webClaims.length > 0) {
    out.push('', '**From the web** (not in the wiki; the capture records it):', '');
    for (const claim of input.webClaims) out.push(...claimLines(claim, wiki));
  }
  for (const note of input.notes ?? []) out.push('', `_Note: ${note}_`);
  return out.join('\n').trim();
}

/** The sections claims were quoted from, each once, in claim order. */
export function sectionsOf(claims: readonly Claim[]): SectionRef[] {
  const seen = new Set<string>();
  const sections: SectionRef[] = [];
  for (const { section } of claims) {
    if (!section || seen.has(`${section.path}#${section.line}`)) continue;
    seen.add(`${section.path}#${section.line}`);
    sections.push(section);
  }
  return sections;
}

/** A trace field as the summary shows it: one line of plain text, clipped, never markup. */
const ITEM_CHARS = 200;
const shown = (text: string, max = ITEM_CHARS): string => inertText(clip(text.replace(/\s+/g, ' '), max));
const code = (text: string, max = ITEM_CHARS): string => inlineCode(clip(text, max));

/** Where a term came from, and whether it opened the gate. */
const termNote = (t: Trace['signal_terms'][number]): string =>
  t.via
    ? ` (${t.kind === 'feedback' ? 'feedback ' : t.kind === 'proposed' ? '' : 'from '}${shown(t.via.replace(/^pseudo-relevance feedback /, ''), 100)})`
    : t.gate === false
      ? ' (too common to open the gate)'
      : '';

const searchOutcome = (w: Trace['web_searches'][number]): string => (w.error ? `failed: ${shown(w.error)}` : `${w.results} results`);

/** The trace as the bullet list of the folded "How this was answered" section: each list its first SUMMARY_ITEMS entries, then "… and K more". */
const SUMMARY_ITEMS = 25;

/** The first entries of a list, each shown by `show`, joined; "none" when it is empty. */
function summaryList<T>(items: readonly T[], show: (item: T) => string, max = SUMMARY_ITEMS): string {
  if (items.length === 0) return 'none';
  const { shown: first, left } = firstOf(items, max);
  return [...first.map(show), ...(left > 0 ? [andMore(left)] : [])].join(', ');
}

/** The coverage verdict in words that agree with the answer's "Not in …" line. */
function coverageLine(coverage: Trace['coverage']): string {
  const missing = summaryList(coverage.missing, (m) => code(m));
  if (!coverage.covered) return `not covered; missing ${missing}`;
  return coverage.missing.length === 0 ? 'covered, nothing missing' : `covered; not in the best-matching pages (within tolerance): ${missing}`;
}

export function traceSummary(trace: Trace): string[] {
  const seedGate = trace.seed_branch && trace.seed_branch !== trace.branch ? ` (the seed's gate alone: ${trace.seed_branch})` : '';
  const candidate = (c: Trace['candidates'][number]): string => {
    const matched = [...new Set(c.matched.map((m) => `${m.term}→${m.field}`))].join('; ');
    return `${code(c.path)}${c.source === 'body' ? ' (body)' : ''} [${shown(matched)}]`;
  };
  const retries = trace.provider_calls.reduce((n, c) => n + c.retries, 0);
  return [
    `- Branch: **${trace.branch}**${seedGate}, outcome **${trace.outcome}** (answerer: ${shown(trace.answerer, 100)})`,
    `- Oriented on: ${summaryList(trace.oriented, (p) => code(p))}`,
    `- Signal terms: ${summaryList(trace.signal_terms, (t) => `${code(t.term)}${termNote(t)}`)}`,
    ...(trace.dropped_terms.length > 0 ? [`- Dropped: ${summaryList(trace.dropped_terms, (t) => `${code(t.term)} (${shown(t.reason)})`)}`] : []),
    `- Candidates (${trace.candidates.length}, best first): ${summaryList(trace.candidates, candidate, 20)}`,
    ...(trace.asked_before && trace.asked_before.length > 0 ? [`- Asked before, still open: ${summaryList(trace.asked_before, (p) => code(p))}`] : []),
    `- Read: ${summaryList(trace.read, (p) => code(p))}`,
    ...(trace.unread.length > 0 ? [`- Not read: ${summaryList(trace.unread, (u) => `${code(u.path)} (${shown(u.reason)})`)}`] : []),
    `- Coverage: ${coverageLine(trace.coverage)}`,
    // A violation's detail and a search query repeat what a model or the asker wrote: inert text.
    ...(trace.violations.length > 0 ? [`- Cite contract: ${summaryList(trace.violations, (v) => `${v.rule} (${v.action}): ${shown(v.detail)}`)}`] : []),
    ...(trace.web_searches.length > 0
      ? [`- Web searches: ${summaryList(trace.web_searches, (w) => `${shown(w.provider, 40)} "${shown(w.query)}" → ${searchOutcome(w)}`)}`]
      : []),
    ...(trace.provider_calls.length > 0
      ? [`- Provider calls: ${trace.provider_calls.length} (${retries} retries), tokens ${trace.tokens.input} in / ${trace.tokens.output} out`]
      : []),
    `- Timings: load ${trace.timings_ms.load} ms, ladder ${trace.timings_ms.ladder} ms, answer ${trace.timings_ms.answer} ms`,
  ];
}
