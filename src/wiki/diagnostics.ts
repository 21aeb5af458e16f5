// One fault found in a wiki: what the validator, the index check and the hook report, and what
// the CLI prints as text, JSON or GitHub workflow annotations.

/** The kinds of fault, one per upstream validator check, plus the reader's own. */
export type DiagnosticCode =
  | 'unreadable'
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
  code: DiagnosticCode;
  /** Wiki-relative path of the file. */
  path: string;
  /** 1-based line of the offending field or link; 1 for page-level faults. */
  line: number;
  /** The frontmatter field (`quality.overall`) or link target concerned, when there is one. */
  field?: string;
  message: string;
}

export const hasErrors = (diagnostics: readonly Diagnostic[]): boolean => diagnostics.some((d) => d.severity === 'error');
