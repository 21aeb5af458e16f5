// The answerer interface: every implementation (the embedded offline one, and model-backed ones)
// takes the ladder's result and the pages it read, and returns claims with their citations plus
// the coverage verdict. What it returns is data: the cite contract checks it before anyone sees it.
import type { Branch } from '../ladder/ladder.js';
import type { SignalTerm } from '../ladder/signal-terms.js';
import type { Citation } from './trace.js';

export interface Claim {
  text: string;
  citations: Citation[];
  /** The section of the wiki the claim was quoted from, for "Read more" (optional: models do not say). */
  section?: SectionRef;
}

/** A section of a wiki page: its path, its heading as text and the heading's 1-based line. */
export interface SectionRef {
  path: string;
  heading: string;
  line: number;
}

export interface AnswerRequest {
  question: string;
  branch: Branch;
  terms: readonly SignalTerm[];
  /** Candidate pages in rank order, with their full text (up to the answerer's pageLimit). */
  pages: ReadonlyMap<string, string>;
  /** Candidates ranked past the answerer's pageLimit, in rank order: not read from disk, never read by the answerer. */
  beyond?: readonly string[];
  /** The ladder's relevance score of each candidate, where known: near-equal scores are a tie the ranking cannot break. */
  scores?: ReadonlyMap<string, number>;
}

export interface DraftAnswer {
  claims: Claim[];
  /** Does the union of the pages read contain every claim the answer would make? */
  covered: boolean;
  /** Terms or claims the pages read do cover, and do not. */
  found: string[];
  missing: string[];
  /** Of `missing`, what another page read does hold (offline terms): absent from the best-matching pages, not from the wiki. */
  missingElsewhere?: string[];
  /** Pages actually read, and candidates left unread with why. */
  read: string[];
  unread: Array<{ path: string; reason: string }>;
  /** Whether `missing` lists signal terms (offline) or claims (a model). */
  missingAre?: 'terms' | 'claims';
  /** Things the reader should know about how this answer was made (a fallback, a budget cut). */
  notes?: string[];
  /** Tokens of this question's model calls whose provider reported no usage, as the model budget estimated them. */
  estimatedTokens?: { input: number; output: number };
  /** Why the model failed, when the offline answerer stood in for it. */
  fault?: string;
}

/** Signal terms a model proposes for a question, in the wiki's words, before the ladder counts. */
export interface TermProposal {
  terms: string[];
  /** Why no terms were taken (a provider fault, a reply that did not fit), for the trace's notes. */
  notes: string[];
}

export interface Answerer {
  readonly name: string;
  /**
   * The most candidates it ever reads, best first, when it has such a limit: no more are read from
   * disk for it (a common question on a large wiki has thousands of candidates).
   */
  readonly pageLimit?: number;
  answer(request: AnswerRequest): Promise<DraftAnswer>;
  /** Step B's model-proposed signal terms; only model answerers that are asked to have it. */
  proposeTerms?(question: string): Promise<TermProposal>;
}
