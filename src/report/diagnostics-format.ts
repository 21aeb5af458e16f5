// Diagnostics for people (`path:line: message`), for programs (JSON) and for GitHub (workflow
// annotation commands on repository-relative paths).
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
const displayPath = (d: Diagnostic, from: string, paths: DiagnosticPaths): string =>
  toPosix(path.relative(from, path.join(paths.wikiRoot, d.path))) || '.';

export function formatText(diagnostics: readonly Diagnostic[], paths: DiagnosticPaths): string {
  return diagnostics.map((d) => `${displayPath(d, paths.cwd, paths)}:${d.line}: ${d.severity === 'warning' ? 'warning: ' : ''}${d.message}`).join('\n');
}

export function toJsonRecords(diagnostics: readonly Diagnostic[], paths: DiagnosticPaths) {
  return diagnostics.map((d) => ({ ...d, file: displayPath(d, paths.repoRoot, paths) }));
}

/** Emits one annotation per diagnostic through the Actions toolkit (which escapes the fields). */
export async function emitAnnotations(diagnostics: readonly Diagnostic[], paths: DiagnosticPaths): Promise<void> {
  // Loaded on demand: the toolkit pulls in an HTTP client the other formats never need.
  const core = await import('@actions/core');
  for (const d of diagnostics) {
    const properties = { file: displayPath(d, paths.repoRoot, paths), startLine: d.line, title: `wiki-steward ${d.code}` };
    if (d.severity === 'error') core.error(d.message, properties);
    else core.warning(d.message, properties);
  }
}
