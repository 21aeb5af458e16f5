// Diagnostics for people (`path:line: message`) and for programs (JSON); workflow annotations are
// the GitHub adapter's (github/annotations.ts). Paths are shown relative to where they are read.
import path from 'node:path';
import type { Diagnostic } from '../wiki/diagnostics.js';

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

export function formatText(diagnostics: readonly Diagnostic[], paths: DiagnosticPaths): string {
  return diagnostics.map((d) => `${displayPath(d, paths.cwd, paths)}:${d.line}: ${d.severity === 'warning' ? 'warning: ' : ''}${d.message}`).join('\n');
}

export function toJsonRecords(diagnostics: readonly Diagnostic[], paths: DiagnosticPaths) {
  return diagnostics.map((d) => ({ ...d, file: displayPath(d, paths.repoRoot, paths) }));
}
