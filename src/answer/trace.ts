// The trace: the one record of how a question was answered. The CLI prints it (`ask --json`), the
// Action posts it (hidden in its comment) and the digest reads it back, so its shape is the public
// contract: snake_case keys, every path relative to the wiki root with forward slashes.
import type { MatchField } from '../ladder/candidates.js';
import type { Branch } from '../ladder/ladder.js';
import type { ProviderCall } from '../net/http-json.js';
import type { TermKind } from '../ladder/signal-terms.js';

/** How a trace's tokens were counted. */
export type TokenCount = 'provider' | 'estimate' | 'provider and estimate';

export type Outcome = 'answered' | 'gap' | 'cold' | 'error';

export interface WikiCitation {
  path: string;
  /** First and last cited line of the page, 1-based. */
  lines: [number, number];
  /** At most two lines of the page, as written there (or a one-line relevance note when `note`). */
  quote: string;
}

export interface WebCitation {
  url: string;
  title: string;
}

export type Citation = WikiCitation | WebCitation;
export const isWikiCitation = (c: Citation): c is WikiCitation => 'path' in c;

export interface CiteViolation {
  rule: 'page-not-read' | 'quote-not-in-page' | 'quote-too-long' | 'quote-without-words' | 'url-not-from-search' | 'uncited-claim';
  detail: string;
  /** What was done about it. */
  action: 'repaired' | 'dropped';
}

export interface Trace {
  question: string;
  /** The caller's id (`--questions` batches), passed through. */
  id?: unknown;
  wiki: { root: string | null; commit: string | null };
  branch: Branch;
  /** The branch the seed's gate alone (titles, tags, summaries) would have taken. */
  seed_branch?: Branch;
  outcome: Outcome;
  error?: string;
  /** Index files a reader would open (step A). */
  oriented: string[];
  /** `weight`: in the ranking; `gate: false`: ranks pages but too common to make candidates (`note` says why). */
  signal_terms: Array<{ term: string; kind: TermKind; via?: string; weight?: number; gate?: false; note?: string }>;
  dropped_terms: Array<{ term: string; reason: string }>;
  /** Best first; `source`: the seed's gate, or the body ranked among the best. */
  candidates: Array<{ path: string; title: string; score?: number; source?: 'gate' | 'body'; matched: Array<{ term: string; field: MatchField }> }>;
  /** Open captures of this question or a near one: asked before, still open; never coverage. */
  asked_before?: string[];
  /** Pages read in full, in reading order. */
  read: string[];
  /** Candidates left unread, with why (a model budget); empty offline. */
  unread: Array<{ path: string; reason: string }>;
  coverage: { covered: boolean; found: string[]; missing: string[] };
  citations: Citation[];
  /** Uncovered claims or terms. */
  missing: string[];
  /** What the cite contract repaired or dropped before the answer left the engine. */
  violations: CiteViolation[];
  answerer: string;
  /** Web searches made for steps D and F, and the search provider used. */
  web_searches: Array<{ provider: string; query: string; results: number; error?: string }>;
  /** Every model and search request, with retries and tokens; keys never appear here. */
  provider_calls: ProviderCall[];
  /**
   * Model tokens this question spent: the provider's reported usage, else (a provider that reports
   * none) the model budget's estimate; `counted` says which, when any were spent.
   */
  tokens: { input: number; output: number; counted?: TokenCount };
  /** What the reader should know about how the answer was made (fallbacks, budget cuts). */
  notes: string[];
  /**
   * Why the configured model did not answer, when it failed for good and the offline answerer
   * stood in (also said in `notes`); the Action raises it as a warning in the run.
   */
  provider_fault?: string;
  /** The answer as markdown, citations as wiki-relative paths with line ranges. */
  answer: string;
  timings_ms: { load: number; ladder: number; answer: number };
  /**
   * Only in a trace posted shortened (an answer comment's hidden trace, when the whole one would not
   * fit): how many entries each list lost, by its path (`unread`, `candidates[].matched`); its
   * strings may be clipped with "…" too.
   */
  omitted?: Record<string, number>;
}
