// The answer as markdown, each claim followed by its citations. The caller decides how a wiki
// citation looks: the CLI shows the wiki-relative path and lines, the Action a permalink.
import type { Branch } from '../ladder/ladder.js';
import { inlineCode } from '../markdown/code.js';
import { inertText, webLink } from '../markdown/inert.js';
import { readableText } from '../markdown/readable-text.js';
import { type Citation, type Outcome, type Trace, type WikiCitation, isWikiCitation } from './trace.js';
import type { Claim, SectionRef } from './answerer.js';
import { ELISION, atWord } from './passages.js';

export type WikiCitationRenderer = (citation: WikiCitation) => string;

export const plainCitation: WikiCitationRenderer = (c) =>
  `${inlineCode(c.path)} ${c.lines[0] === c.lines[1] ? `line ${c.lines[0]}` : `lines ${c.lines[0]}-${c.lines[1]}`}`;

/** A section heading named in "Read more" stops after this many characters (a page may hold a heading line of any length). */
const MAX_HEADING_CHARS = 120;
const clipHeading = (heading: string): string => (heading.length > MAX_HEADING_CHARS ? `${atWord(heading, MAX_HEADING_CHARS)}${ELISION}` : heading);

const renderCitation = (c: Citation, wiki: WikiCitationRenderer): string => (isWikiCitation(c) ? wiki(c) : webLink(c.title, c.url));

/** A page's text as quoted: readable text (no link targets, emphasis or table pipes), never markup. */
const quoted = (text: string): string => `“${inertText(readableText(unlinkPageLinks(text)))}”`;

/**
 * One claim as a bullet. What is shown in quotation marks is only ever a quote the cite contract
 * verified at its lines; an answerer's own wording (a model's) is shown apart, as its words, with
 * its evidence under it. Words nobody quoted (uncited, from the web) are inert text.
 */
function claimLines(claim: Claim, wiki: WikiCitationRenderer): string[] {
  const cited = claim.citations.filter(isWikiCitation);
  const others = claim.citations.filter((c) => !isWikiCitation(c)).map((c) => renderCitation(c, wiki));
  const tail = (list: readonly string[]) => (list.length > 0 ? ` — ${list.join(', ')}` : '');
  if (cited.length === 0) return [`- ${inertText(claim.text)}${tail(others)}`];
  const own = readableText(unlinkPageLinks(claim.text));
  if (cited.length === 1 && own === readableText(unlinkPageLinks(cited[0]!.quote)))
    return [`- ${quoted(cited[0]!.quote)}${tail([wiki(cited[0]!), ...others])}`];
  return [`- ${inertText(own)} (the answerer's words)${tail(others)}`, ...cited.map((c) => `  - ${quoted(c.quote)} — ${wiki(c)}`)];
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
    out.push(`This question could not be answered now: ${input.error ?? 'unknown error'}.`);
    return out.join('\n');
  }
  if (input.branch === 'unconfigured') out.push('No wiki is configured or found in this repository, so there is nothing to answer from yet.');
  else if (input.outcome === 'cold') {
    out.push(`The wiki has no page that matches this question${input.terms.length > 0 ? ` (looked for: ${input.terms.map(inlineCode).join(', ')})` : ''}.`);
  } else if (input.claims.length === 0) {
    out.push('The wiki has pages that match this question, but none of them answers it.');
  } else if (input.claims.length > 0) {
    out.push(input.outcome === 'answered' ? 'From the wiki:' : 'The wiki covers part of this:');
    out.push('');
    for (const claim of input.claims) out.push(...claimLines(claim, wiki));
    const sections = input.sections ?? sectionsOf(input.claims);
    if (sections.length > 0) {
      const readMore = sections.map((s) => `${clipHeading(s.heading) || s.path} (${wiki({ path: s.path, lines: [s.line, s.line], quote: s.heading })})`);
      out.push('');
      out.push(`**Read more:** ${readMore.join('; ')}.`);
    }
  }
  // Together exactly the trace's `missing`. "Not in the wiki" names only what no page read holds;
  // the rest (every missing term of an answered question, which the coverage rule tolerates, and a
  // gap's terms that another page read holds) is absent from the best-matching pages, not from the wiki.
  if (input.missing.length > 0 && input.branch !== 'unconfigured') {
    const elsewhere = new Set(input.outcome === 'answered' ? input.missing : (input.missingElsewhere ?? []));
    const show = (terms: readonly string[]) =>
      terms.map((m) => (m.includes(' ') && m.length > 40 ? inertText(m.replace(/\s+/g, ' ')) : inlineCode(m))).join(', ');
    const absent = input.missing.filter((m) => !elsewhere.has(m));
    const notBest = input.missing.filter((m) => elsewhere.has(m));
    out.push('');
    if (absent.length > 0) out.push(`**Not in the wiki:** ${show(absent)}.`);
    if (notBest.length > 0) out.push(`**Not in the best-matching pages:** ${show(notBest)}.`);
  }
  if (input.askedBefore && input.askedBefore.length > 0) {
    out.push('');
    out.push(
      `**Asked before, still open:** ${input.askedBefore.map(inlineCode).join(', ')} ` +
        "(a capture waiting for a reviewer's answer; it counts once the answer is written and its `captured_by` line deleted).",
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

/** Where a term came from, and whether it opened the gate. */
const termNote = (t: Trace['signal_terms'][number]): string =>
  t.via
    ? ` (${t.kind === 'feedback' ? 'feedback ' : t.kind === 'proposed' ? '' : 'from '}${t.via.replace(/^pseudo-relevance feedback /, '')})`
    : t.gate === false
      ? ' (too common to open the gate)'
      : '';

const searchOutcome = (w: Trace['web_searches'][number]): string => (w.error ? `failed: ${inertText(w.error)}` : `${w.results} results`);

/** The trace as the bullet list of the folded "How this was answered" section. */
const SUMMARY_ITEMS = 25;

/** The coverage verdict in words that agree with the answer's "Not in …" line. */
function coverageLine(coverage: Trace['coverage'], list: (items: string[]) => string): string {
  const missing = list(coverage.missing.map(inlineCode));
  if (!coverage.covered) return `not covered; missing ${missing}`;
  return coverage.missing.length === 0 ? 'covered, nothing missing' : `covered; not in the best-matching pages (within tolerance): ${missing}`;
}

export function traceSummary(trace: Trace): string[] {
  const list = (items: string[]) =>
    items.length === 0
      ? 'none'
      : items.length <= SUMMARY_ITEMS
        ? items.join(', ')
        : `${items.slice(0, SUMMARY_ITEMS).join(', ')} and ${items.length - SUMMARY_ITEMS} more`;
  const seedGate = trace.seed_branch && trace.seed_branch !== trace.branch ? ` (the seed's gate alone: ${trace.seed_branch})` : '';
  const candidate = (c: Trace['candidates'][number]): string => {
    const matched = [...new Set(c.matched.map((m) => `${m.term}→${m.field}`))].join('; ').replace(/\s+/g, ' ');
    return `${inlineCode(c.path)}${c.source === 'body' ? ' (body)' : ''} [${matched}]`;
  };
  const moreCandidates = trace.candidates.length > 20 ? ` and ${trace.candidates.length - 20} more` : '';
  const retries = trace.provider_calls.reduce((n, c) => n + c.retries, 0);
  return [
    `- Branch: **${trace.branch}**${seedGate}, outcome **${trace.outcome}** (answerer: ${trace.answerer})`,
    `- Oriented on: ${list(trace.oriented.map(inlineCode))}`,
    `- Signal terms: ${list(trace.signal_terms.map((t) => `${inlineCode(t.term)}${termNote(t)}`))}`,
    ...(trace.dropped_terms.length > 0 ? [`- Dropped: ${list(trace.dropped_terms.map((t) => `${inlineCode(t.term)} (${t.reason})`))}`] : []),
    `- Candidates (${trace.candidates.length}, best first): ${list(trace.candidates.slice(0, 20).map(candidate))}${moreCandidates}`,
    ...(trace.asked_before && trace.asked_before.length > 0 ? [`- Asked before, still open: ${list(trace.asked_before.map(inlineCode))}`] : []),
    `- Read: ${list(trace.read.map(inlineCode))}`,
    ...(trace.unread.length > 0 ? [`- Not read: ${list(trace.unread.map((u) => `${inlineCode(u.path)} (${u.reason})`))}`] : []),
    `- Coverage: ${coverageLine(trace.coverage, list)}`,
    // A violation's detail and a search query repeat what a model or the asker wrote: inert text.
    ...(trace.violations.length > 0 ? [`- Cite contract: ${list(trace.violations.map((v) => `${v.rule} (${v.action}): ${inertText(v.detail)}`))}`] : []),
    ...(trace.web_searches.length > 0
      ? [`- Web searches: ${list(trace.web_searches.map((w) => `${w.provider} "${inertText(w.query)}" → ${searchOutcome(w)}`))}`]
      : []),
    ...(trace.provider_calls.length > 0
      ? [`- Provider calls: ${trace.provider_calls.length} (${retries} retries), tokens ${trace.tokens.input} in / ${trace.tokens.output} out`]
      : []),
    `- Timings: load ${trace.timings_ms.load} ms, ladder ${trace.timings_ms.ladder} ms, answer ${trace.timings_ms.answer} ms`,
  ];
}
