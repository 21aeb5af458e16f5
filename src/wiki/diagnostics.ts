// One fault found in a wiki: what the validator, the index check and the hook report, and what
// the CLI prints as text, JSON or GitHub workflow annotations.
import type { ValidateRule } from '../config/config.js';

/**
 * The kinds of fault, one per upstream validator message, plus the reader's own: finer than the rules
 * (`tags` covers `tags-not-list` and `tag-not-string`), and what upstream's verdicts are compared on.
 */
export type DiagnosticCode =
  | 'unreadable'
  | 'broken-wikilink'
  | 'page-too-large'
  | 'unsafe-file-name'
  | 'check-failed'
  | 'no-frontmatter'
  | 'refused-language'
  | 'malformed-frontmatter'
  | 'yaml-alias-expansion'
  | 'missing-field'
  | 'type-not-category'
  | 'type-path-mismatch'
  | 'too-deep'
  | 'bad-date'
  | 'tags-not-list'
  | 'tag-not-string'
  | 'sources-not-list'
  | 'nested-source'
  | 'source-not-string'
  | 'quality-not-mapping'
  | 'score-out-of-range'
  | 'overall-mismatch'
  | 'overall-not-numeric'
  | 'unknown-rater'
  | 'broken-link'
  | 'missing-source'
  | 'yaml-difference'
  | 'not-followed'
  | 'stale-index';

export interface Diagnostic {
  severity: 'error' | 'warning';
  /** The named check that found it (config.ts `VALIDATE_RULES`), which `validate.rules` tunes. */
  rule: ValidateRule;
  /** The kind of fault within the rule. */
  code: DiagnosticCode;
  /** Wiki-relative path of the file. */
  path: string;
  /** 1-based line of the offending field or link; 1 for page-level faults. */
  line: number;
  /** The frontmatter field (`quality.overall`) or link target concerned, when there is one. */
  field?: string;
  /** The whole `sources` entry a missing-source diagnostic names (its message may show it cut). */
  target?: string;
  message: string;
}

export const hasErrors = (diagnostics: readonly Diagnostic[]): boolean => diagnostics.some((d) => d.severity === 'error');

/** Longest value a message quotes whole; a longer one keeps its first `MAX_QUOTED - 3` characters and `…`. */
export const MAX_QUOTED = 120;

/** A value as a message quotes it: cut past `MAX_QUOTED` characters, so one fault stays one readable line. */
export const cutValue = (value: string): string => (value.length > MAX_QUOTED ? `${value.slice(0, MAX_QUOTED - 3)}…` : value);
