// The answer as markdown, each claim followed by its citations. The caller decides how a wiki
// citation looks: the CLI shows the wiki-relative path and lines, the Action a permalink.
import type { Branch } from '../ladder/ladder.js';
import { type Citation, type Outcome, type WikiCitation, isWikiCitation } from '../ladder/trace.js';
import type { Claim } from './answerer.js';

export type WikiCitationRenderer = (citation: WikiCitation) => string;

export const plainCitation: WikiCitationRenderer = (c) => `\`${c.path}\` ${c.lines[0] === c.lines[1] ? `line ${c.lines[0]}` : `lines ${c.lines[0]}-${c.lines[1]}`}`;

const renderCitation = (c: Citation, wiki: WikiCitationRenderer): string => (isWikiCitation(c) ? wiki(c) : `[${c.title.replace(/[[\]]/g, '')}](${c.url})`);

export interface RenderInput {
  outcome: Outcome;
  branch: Branch;
  claims: readonly Claim[];
  /** Claims from this run's web search, for what the wiki does not cover. */
  webClaims?: readonly Claim[];
  notes?: readonly string[];
  missing: readonly string[];
  /** Terms the ladder looked for, for the cold explanation. */
  terms: readonly string[];
  error?: string;
}

export function renderAnswer(input: RenderInput, wiki: WikiCitationRenderer = plainCitation): string {
  const out: string[] = [];
  if (input.outcome === 'error') {
    out.push(`This question could not be answered now: ${input.error ?? 'unknown error'}.`);
    return out.join('\n');
  }
  if (input.branch === 'unconfigured') out.push('No wiki is configured or found in this repository, so there is nothing to answer from yet.');
  else if (input.outcome === 'cold') {
    out.push(`The wiki has no page that matches this question${input.terms.length > 0 ? ` (looked for: ${input.terms.map((t) => `\`${t}\``).join(', ')})` : ''}.`);
  } else if (input.claims.length > 0) {
    out.push(input.outcome === 'answered' ? 'From the wiki:' : 'The wiki covers part of this:');
    out.push('');
    for (const claim of input.claims) {
      const quoted = claim.citations.some(isWikiCitation) ? `“${claim.text.replace(/\s*\n\s*/g, ' ')}”` : claim.text;
      out.push(`- ${quoted}${claim.citations.length > 0 ? ` — ${claim.citations.map((c) => renderCitation(c, wiki)).join(', ')}` : ''}`);
    }
  }
  if (input.missing.length > 0 && input.branch !== 'unconfigured') {
    out.push('');
    out.push(`**Not in the wiki:** ${input.missing.map((m) => (m.includes(' ') && m.length > 40 ? m : `\`${m}\``)).join(', ')}.`);
  }
  if (input.webClaims && input.webClaims.length > 0) {
    out.push('', '**From the web** (not in the wiki; the capture records it):', '');
    for (const claim of input.webClaims) out.push(`- ${claim.text} — ${claim.citations.map((c) => renderCitation(c, wiki)).join(', ')}`);
  }
  for (const note of input.notes ?? []) out.push('', `_Note: ${note}_`);
  return out.join('\n').trim();
}
