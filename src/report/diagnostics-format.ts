// Diagnostics for people (`path:line: message [rule]`), for programs (JSON) and for the validate
// job's summary (markdown, bounded and inert); workflow annotations are the GitHub adapter's
// (github/annotations.ts). Paths are shown relative to where they are read.
import path from 'node:path';
import { VALIDATE_RULES, type ValidateRule } from '../config/config.js';
import { andMore, clip, firstOf } from '../markdown/bound.js';
import { inlineCode } from '../markdown/code.js';
import { inertText } from '../markdown/inert.js';
import type { Diagnostic } from '../wiki/diagnostics.js';
import { parentDir } from '../wiki/layout.js';

export type DiagnosticFormat = 'text' | 'json' | 'github';
export const DIAGNOSTIC_FORMATS: readonly DiagnosticFormat[] = ['text', 'json', 'github'];

export interface DiagnosticPaths {
  wikiRoot: string;
  repoRoot: string;
  cwd: string;
}

const toPosix = (p: string): string => p.split(path.sep).join('/');
export const displayPath = (d: Diagnostic, from: string, paths: DiagnosticPaths): string =>
  toPosix(path.relative(from, path.join(paths.wikiRoot, d.path))) || '.';

/** One line per diagnostic, ending with its rule as eslint and markdownlint do: `path:line: message [rule]`. */
export function formatText(diagnostics: readonly Diagnostic[], paths: DiagnosticPaths): string {
  return diagnostics
    .map((d) => `${displayPath(d, paths.cwd, paths)}:${d.line}: ${d.severity === 'warning' ? 'warning: ' : ''}${d.message} [${d.rule}]`)
    .join('\n');
}

export function toJsonRecords(diagnostics: readonly Diagnostic[], paths: DiagnosticPaths) {
  return diagnostics.map((d) => ({ ...d, file: displayPath(d, paths.repoRoot, paths) }));
}

/** How many folders `--summary` names. */
export const SUMMARY_FOLDERS = 5;

export interface DiagnosticSummary {
  /** Rules with at least one finding, in the order of `VALIDATE_RULES`. */
  rules: Array<{ rule: ValidateRule; errors: number; warnings: number }>;
  /** The folders (wiki-relative, `.` for the root) with the most findings, most first, ties by name. */
  folders: Array<{ folder: string; findings: number }>;
}

/** Counts by rule (errors and warnings) and the `SUMMARY_FOLDERS` folders with the most findings. */
export function summarizeDiagnostics(diagnostics: readonly Diagnostic[]): DiagnosticSummary {
  const byRule = new Map<ValidateRule, { errors: number; warnings: number }>();
  const byFolder = new Map<string, number>();
  for (const d of diagnostics) {
    const counts = byRule.get(d.rule) ?? { errors: 0, warnings: 0 };
    if (d.severity === 'error') counts.errors++;
    else counts.warnings++;
    byRule.set(d.rule, counts);
    const folder = parentDir(d.path) || '.';
    byFolder.set(folder, (byFolder.get(folder) ?? 0) + 1);
  }
  return {
    rules: VALIDATE_RULES.filter((rule) => byRule.has(rule)).map((rule) => ({ rule, ...byRule.get(rule)! })),
    folders: [...byFolder]
      .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, SUMMARY_FOLDERS)
      .map(([folder, findings]) => ({ folder, findings })),
  };
}

const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** The line after a list cut by `--max-findings`: how many findings it left out. */
export const moreFindings = (left: number): string => `${andMore(left, left === 1 ? 'finding' : 'findings')}, not listed (--max-findings)`;

/** The summary as text: a table of rules, then the folders. */
export function formatSummary(summary: DiagnosticSummary): string {
  if (summary.rules.length === 0) return 'no findings';
  const ruleWidth = Math.max(...summary.rules.map((r) => r.rule.length));
  const folderWidth = Math.max(...summary.folders.map((f) => f.folder.length));
  return [
    'findings by rule:',
    ...summary.rules.map((r) => `  ${r.rule.padEnd(ruleWidth)}  ${count(r.errors, 'error')}, ${count(r.warnings, 'warning')}`),
    `folders with the most findings:`,
    ...summary.folders.map((f) => `  ${f.folder.padEnd(folderWidth)}  ${count(f.findings, 'finding')}`),
  ].join('\n');
}

/** Rows the validate job's summary table shows at most; the annotations and `wiki-steward validate` give every fault. */
export const SUMMARY_ROWS = 300;
/** The characters of the summary table's rows together, so the summary stays within GitHub's 65,536 characters. */
const SUMMARY_TABLE_CHARS = 60_000;
const CELL_CHARS = 300;

/**
 * One table cell: a path or a message is page text (a message quotes a frontmatter value), so it
 * is clipped, inert (no HTML, no image: `![x](https://…)` or `<img …>` stays text) and on one line,
 * its pipes escaped.
 */
const cell = (text: string): string => inertText(clip(text.replace(/\s+/g, ' ').trim(), CELL_CHARS)).replace(/\|/g, '\\|');

/**
 * The validate job's summary as markdown: what was checked, the counts, and a table of the faults,
 * its first rows (at most SUMMARY_ROWS, within SUMMARY_TABLE_CHARS) and a line saying how many more.
 */
export function validateSummary(o: { scope: string; folder: string; errors: number; diagnostics: readonly Diagnostic[] }): string {
  const row = (d: Diagnostic) => `| ${cell(d.path)} | ${d.line} | ${cell(d.message)} |`;
  const { shown, left } = firstOf(o.diagnostics, SUMMARY_ROWS, { budget: SUMMARY_TABLE_CHARS, length: (d) => row(d).length + 1 });
  const table =
    o.diagnostics.length === 0
      ? []
      : [
          '| File | Line | Fault |',
          '|---|---|---|',
          ...shown.map(row),
          ...(left > 0 ? ['', `${andMore(left, left === 1 ? 'fault' : 'faults')}: the annotations and \`wiki-steward validate\` list every one.`] : []),
        ];
  return [
    '## wiki-steward: validate',
    '',
    `${o.scope} in ${inlineCode(o.folder)}: ${count(o.errors, 'error')}, ${count(o.diagnostics.length - o.errors, 'warning')}.`,
    '',
    ...table,
  ].join('\n');
}
