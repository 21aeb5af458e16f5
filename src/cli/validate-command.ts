import path from 'node:path';
import { requireWikiRoot } from '../config/workspace.js';
import { changeSince, validateChange } from '../jobs/validate.js';
import { firstOf } from '../markdown/bound.js';
import { type DiagnosticFormat, formatSummary, formatText, moreFindings, summarizeDiagnostics, toJsonRecords } from '../report/diagnostics-format.js';
import { hasErrors } from '../wiki/diagnostics.js';
import { openWikiLayout } from '../wiki/open.js';
import { suggestValidateConfig } from '../wiki/suggest-config.js';
import { validateWiki } from '../wiki/validator.js';
import { type CliIo, EXIT, openCliWorkspace } from './context.js';

export interface ValidateOptions {
  wiki?: string;
  format: DiagnosticFormat;
  paths: string[];
  /** Only pages changed since this git revision (a pull request's base). */
  changedSince?: string;
  /** Instead of the diagnostics: counts by rule and the folders with the most findings. */
  summary?: boolean;
  /** List only the first N diagnostics, and how many more there are. */
  maxFindings?: number;
  /** Print a `.wiki-steward.yml` `validate:` block that fits the wiki's dialect instead of validating. */
  suggestConfig?: boolean;
}

export async function validateCommand(io: CliIo, options: ValidateOptions): Promise<number> {
  const workspace = await openCliWorkspace(io, options.wiki);
  const wikiRoot = requireWikiRoot(workspace);
  const layout = await openWikiLayout(wikiRoot, workspace.config);
  if (options.suggestConfig) {
    io.stdout(await suggestValidateConfig(layout));
    return EXIT.ok;
  }
  const only = options.paths.length > 0 ? selectPages(options.paths, io.cwd, wikiRoot, [...layout.pages, ...layout.unsafeNames], layout.tree.files) : undefined;
  // A change is checked as the Action checks a pull request: its pages, and the pages its deletions break.
  const { diagnostics, checked } = options.changedSince
    ? await validateChange(workspace, layout, await changeSince(workspace, layout, options.changedSince))
    : await validateWiki(layout, only, workspace.config.validate);
  const paths = { wikiRoot, repoRoot: workspace.repoRoot, cwd: io.cwd };
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const counts = `${plural(checked.length, 'page')} checked: ${plural(errors, 'error')}, ${plural(diagnostics.length - errors, 'warning')}`;
  // --summary lists no finding; --max-findings lists the first N. The exit code counts every finding either way.
  const { shown, left } = options.summary ? { shown: [], left: diagnostics.length } : firstOf(diagnostics, options.maxFindings ?? Infinity);
  if (options.format === 'json') {
    const header = { wiki: path.relative(workspace.repoRoot, wikiRoot) || '.', checked: checked.length, errors };
    const record = options.summary
      ? { ...header, summary: summarizeDiagnostics(diagnostics) }
      : { ...header, diagnostics: toJsonRecords(shown, paths), omitted: left };
    io.stdout(JSON.stringify(record, null, 2));
  } else if (options.format === 'github') {
    // A workflow reads annotations: the summary, and the count of findings left out, are one notice each on the run's page.
    const { annotationLines, noticeLine } = await import('../github/annotations.js');
    if (options.summary) io.stdout(noticeLine(formatSummary(summarizeDiagnostics(diagnostics))));
    else {
      for (const line of annotationLines(shown, paths)) io.stdout(line);
      if (left > 0) io.stdout(noticeLine(moreFindings(left)));
    }
    io.stderr(counts);
  } else {
    if (options.summary) io.stdout(formatSummary(summarizeDiagnostics(diagnostics)));
    else {
      if (shown.length > 0) io.stdout(formatText(shown, paths));
      if (left > 0) io.stdout(moreFindings(left));
    }
    io.stderr(counts);
  }
  return hasErrors(diagnostics) ? EXIT.faults : EXIT.ok;
}

/** `1 page`, `2 pages`, `0 pages`. */
const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Maps PATH arguments (files or folders, relative to cwd) to the wiki pages they name. */
function selectPages(args: string[], cwd: string, wikiRoot: string, pages: readonly string[], files: ReadonlySet<string>): string[] {
  const selected = new Set<string>();
  for (const arg of args) {
    const rel = path.relative(wikiRoot, path.resolve(cwd, arg)).split(path.sep).join('/');
    if (rel.startsWith('..') || path.isAbsolute(rel)) throw new Error(`${arg}: not inside the wiki at ${wikiRoot}`);
    if (files.has(rel)) selected.add(rel);
    else {
      const prefix = rel === '' ? '' : `${rel}/`;
      const under = pages.filter((p) => p.startsWith(prefix));
      if (under.length === 0) throw new Error(`${arg}: no such page or folder in the wiki`);
      under.forEach((p) => selected.add(p));
    }
  }
  return [...selected];
}
