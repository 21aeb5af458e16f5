// Every check of upstream's page validator in wiki-root mode (reference/upstream-format.md §2.3),
// with upstream's verdicts and clearer messages that carry the line of the offending field or link.
import path from 'node:path';
import type { ValidateRule, ValidateSettings } from '../config/config.js';
import { blankCode } from '../markdown/code.js';
import { findWikilinks } from '../markdown/links.js';
import { upstreamBodyLinks, upstreamBodyStart } from '../markdown/upstream-dialect.js';
import { type Diagnostic, type DiagnosticCode, cutValue } from './diagnostics.js';
import { type Frontmatter, readFrontmatter } from './frontmatter.js';
import { DIRECTORY_INDEX, ROOT_INDEX, type WikiLayout, escapeUnsafeName, isUnsafeName, parentDir, quoteName } from './layout.js';
import { readPages } from './page-limit.js';
import { applyRules, readsAliases, readsLinkedSources } from './rules.js';
import { typesFor } from './type-names.js';
import { resolveWikiPath } from './wiki-path.js';
import { type WikilinkFit, wikilinkFinder } from './wikilinks.js';
import { type PyDict, type PyValue, isPyDict, isPyIntLike, pyFloatRepr, pyRepr, pyRound2, pyStr, pyToFloat } from './python-compat.js';

const REQUIRED_FIELDS = ['title', 'type', 'tags', 'sources', 'created', 'updated'] as const;
const SCORE_FIELDS = ['accuracy', 'completeness', 'signal', 'interlinking'] as const;
const RATERS = ['doctor', 'human', 'ingester'];
const ISO_UTC = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$/;
/** Upstream's hard cap: a page path relative to the wiki root has at most 5 parts. */
export const MAX_PATH_PARTS = 5;

/** True for files the validator skips, as upstream does: every `_index.md` and the root `index.md`. */
export const isIndexFile = (relPath: string): boolean => relPath === ROOT_INDEX || relPath === DIRECTORY_INDEX || relPath.endsWith(`/${DIRECTORY_INDEX}`);

type ReportOptions = { field?: string; line?: number; target?: string };

interface Reporter {
  error(rule: ValidateRule, code: DiagnosticCode, message: string, options?: ReportOptions): void;
  warning(rule: ValidateRule, code: DiagnosticCode, message: string, options?: ReportOptions): void;
}

function reporterFor(path: string, out: Diagnostic[]): Reporter {
  const add =
    (severity: Diagnostic['severity']) =>
    (rule: ValidateRule, code: DiagnosticCode, message: string, options: ReportOptions = {}) => {
      out.push({
        severity,
        rule,
        code,
        path,
        line: options.line ?? 1,
        message,
        ...(options.field !== undefined ? { field: options.field } : {}),
        ...(options.target !== undefined ? { target: options.target } : {}),
      });
    };
  return { error: add('error'), warning: add('warning') };
}

const UPSTREAM_RULES: ValidateSettings = { preset: 'upstream', rules: {} };

export interface PageToValidate {
  path: string;
  text: string;
  /** Parsed once by the caller when it already has it. */
  frontmatter?: Frontmatter;
}

/** How a page's wikilinks and `sources` entries are read: see `linkReading`. */
export interface LinkReading {
  find: (target: string) => WikilinkFit;
  /** `sources` entries as links: a `[[wikilink]]` resolves as a body wikilink, a URL or DOI is a source. */
  linkedSources: boolean;
}

const plainReadings = new WeakMap<WikiLayout, LinkReading>();

/**
 * Wikilinks resolve to any file of the wiki, as in Obsidian. Frontmatter `aliases:` (`aliases`, the
 * pages' aliases, read by `readAliases`) and linked sources come only with the settings that ask for them.
 */
export function linkReading(layout: WikiLayout, options: { aliases?: ReadonlyMap<string, readonly string[]>; linkedSources?: boolean } = {}): LinkReading {
  const plain = !options.aliases && !options.linkedSources;
  const cached = plain ? plainReadings.get(layout) : undefined;
  if (cached) return cached;
  const reading = {
    find: wikilinkFinder(layout.tree.files, { wikiName: path.basename(layout.tree.root), aliases: options.aliases }),
    linkedSources: Boolean(options.linkedSources),
  };
  if (plain) plainReadings.set(layout, reading);
  return reading;
}

/**
 * Validates one page against the layout it sits in; the tree answers whether links and sources
 * exist (read as `links` says), the settings' preset and `types` what type its folder asks for (checkType).
 */
export function validatePage(
  layout: WikiLayout,
  page: PageToValidate,
  settings: ValidateSettings = UPSTREAM_RULES,
  links: LinkReading = linkReading(layout),
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = reporterFor(page.path, out);
  const fm = page.frontmatter ?? readFrontmatter(page.text, { compareWithYaml: true });
  if (fm.kind === 'none') {
    if (fm.refusedLanguage) {
      report.error(
        'frontmatter',
        'refused-language',
        `frontmatter opens with '---${fm.refusedLanguage}': only YAML frontmatter is read (never executed); start the page with a plain '---' line`,
      );
    } else {
      report.error('frontmatter', 'no-frontmatter', "no YAML frontmatter: the page must start with a '---' line and close the block with another '---' line");
    }
    return out;
  }
  if (fm.kind === 'malformed') {
    report.error('frontmatter', 'malformed-frontmatter', `malformed frontmatter: ${fm.message}`, { line: fm.line });
    return out;
  }
  if (fm.kind === 'refused') {
    report.error('frontmatter', 'yaml-alias-expansion', fm.message, { line: fm.line });
    return out;
  }
  const { data, keyLines } = fm;
  const lineOf = (field: string): number => keyLines.get(field) ?? keyLines.get(field.split('.')[0]!) ?? 1;
  const at = (field: string) => ({ field, line: lineOf(field) });

  for (const field of REQUIRED_FIELDS) {
    if (!(field in data)) report.error('required-field', 'missing-field', `missing required field: ${field}`, { field });
  }
  checkType(layout, page.path, data, report, at, settings);
  const parts = page.path.split('/').length;
  if (parts > MAX_PATH_PARTS) {
    report.error(
      'path-depth',
      'too-deep',
      `page at depth ${parts} exceeds the hard cap of ${MAX_PATH_PARTS} path parts from the wiki root; move it shallower or restructure the category`,
    );
  }
  for (const field of ['created', 'updated'] as const) {
    if (field in data) checkDate(data[field]!, field, report, at);
  }
  checkTags(data, report, at);
  checkSources(data, report, at);
  checkQuality(data, report, at);
  for (const d of fm.yamlDifferences) report.warning('yaml-dialect', 'yaml-difference', d.message, { line: d.line, ...(d.field ? { field: d.field } : {}) });
  checkLinks(layout, page, report);
  checkWikilinks(links, page, report);
  checkSourcesExist(layout, links, data, report, at);
  return out;
}

type At = (field: string) => { field: string; line: number };

/**
 * Upstream's rule reports a type that is neither a category nor the page's folder twice, once per
 * check. Outside it (another preset, or `validate.types` set) each page gets at most one finding:
 * the type is wrong for its folder, and the message says what would fit.
 */
function checkType(layout: WikiLayout, path: string, data: PyDict, report: Reporter, at: At, settings: ValidateSettings): void {
  if (!('type' in data)) return;
  const type = data.type!;
  const shown = cutValue(pyStr(type));
  const first = path.split('/')[0]!;
  const names = settings.types ?? 'folder';
  const isCategory = typeof type === 'string' && layout.categories.includes(type);
  const categories = `the wiki's categories (${layout.categories.join(', ') || 'none'})`;
  if (settings.preset === 'upstream' && names === 'folder') {
    if (!isCategory) report.error('type-category', 'type-not-category', `type '${shown}' is not one of ${categories}`, at('type'));
    if (type !== first) {
      report.error(
        'type-category',
        'type-path-mismatch',
        `type '${shown}' does not match the page's category folder '${first}'; set 'type: ${first}' or move the page`,
        at('type'),
      );
    }
    return;
  }
  const fitting = typesFor(first, names);
  if (typeof type === 'string' && fitting.includes(type)) return;
  const namesSome = typeof type === 'string' && layout.categories.some((c) => typesFor(c, names).includes(type));
  const fix = `set 'type: ${fitting[0]}' or move the page`;
  if (namesSome) {
    report.error('type-category', 'type-path-mismatch', `type '${shown}' does not match the page's category folder '${first}'; ${fix}`, at('type'));
  } else {
    report.error(
      'type-category',
      'type-not-category',
      `type '${shown}' is not one of ${categories}${names === 'singular' ? ' or their singulars' : ''}, nor the page's folder '${first}'; ${fix}`,
      at('type'),
    );
  }
}

function checkDate(value: PyValue, field: string, report: Reporter, at: At): void {
  if (typeof value === 'string' && ISO_UTC.test(value)) return;
  report.error('timestamps', 'bad-date', `${field} must be ISO-8601 UTC like 2026-04-24T13:00:00Z, got ${cutValue(pyRepr(value))}`, at(field));
}

function checkTags(data: PyDict, report: Reporter, at: At): void {
  if (!('tags' in data)) return;
  const tags = data.tags!;
  if (!Array.isArray(tags)) {
    report.error('tags', 'tags-not-list', 'tags must be a list, e.g. tags: [api, cache]', at('tags'));
    return;
  }
  for (const tag of tags) {
    if (typeof tag !== 'string') report.error('tags', 'tag-not-string', `every tag must be a string, got ${cutValue(pyRepr(tag))}`, at('tags'));
  }
}

function checkSources(data: PyDict, report: Reporter, at: At): void {
  if (!('sources' in data)) return;
  const sources = data.sources!;
  if (!Array.isArray(sources)) {
    report.error('sources', 'sources-not-list', 'sources must be a flat list, e.g. sources: [conversation]', at('sources'));
    return;
  }
  for (const source of sources) {
    if (isPyDict(source))
      report.error('sources', 'nested-source', `sources entries must be flat strings, got nested mapping: ${cutValue(pyRepr(source))}`, at('sources'));
    else if (typeof source !== 'string')
      report.error('sources', 'source-not-string', `sources entries must be strings, got ${cutValue(pyRepr(source))}`, at('sources'));
  }
}

function checkQuality(data: PyDict, report: Reporter, at: At): void {
  if (!('quality' in data)) {
    report.error('quality', 'missing-field', 'missing required field: quality', { field: 'quality' });
    return;
  }
  const quality = data.quality!;
  if (!isPyDict(quality)) {
    report.error(
      'quality',
      'quality-not-mapping',
      'quality must be a nested mapping of accuracy, completeness, signal, interlinking, overall, rated_at, rated_by',
      at('quality'),
    );
    return;
  }
  for (const field of SCORE_FIELDS) {
    const key = `quality.${field}`;
    if (!(field in quality)) report.error('quality', 'missing-field', `missing ${key}`, { field: key, line: at('quality').line });
    else if (!isScore(quality[field]!))
      report.error('quality', 'score-out-of-range', `${key} must be an integer from 1 to 5, got ${cutValue(pyRepr(quality[field]!))}`, at(key));
  }
  if (!('overall' in quality)) report.error('quality', 'missing-field', 'missing quality.overall', { field: 'quality.overall', line: at('quality').line });
  else checkOverall(quality, report, at);
  if (!('rated_at' in quality)) report.error('quality', 'missing-field', 'missing quality.rated_at', { field: 'quality.rated_at', line: at('quality').line });
  else {
    const ratedAt = quality.rated_at!;
    if (typeof ratedAt !== 'string' || !ISO_UTC.test(ratedAt)) {
      report.error(
        'timestamps',
        'bad-date',
        `quality.rated_at must be ISO-8601 UTC like 2026-04-24T13:00:00Z, got ${cutValue(pyRepr(ratedAt))}`,
        at('quality.rated_at'),
      );
    }
  }
  if (!('rated_by' in quality)) report.error('quality', 'missing-field', 'missing quality.rated_by', { field: 'quality.rated_by', line: at('quality').line });
  else if (typeof quality.rated_by !== 'string' || !RATERS.includes(quality.rated_by)) {
    report.error(
      'quality',
      'unknown-rater',
      `quality.rated_by must be one of ${RATERS.join(', ')}, got ${cutValue(pyRepr(quality.rated_by!))}`,
      at('quality.rated_by'),
    );
  }
}

const isScore = (v: PyValue): boolean => isPyIntLike(v) && Number(v) >= 1 && Number(v) <= 5;

function checkOverall(quality: PyDict, report: Reporter, at: At): void {
  // Upstream checks the mean only when all four scores are integers (bools count, as in Python).
  const scores = SCORE_FIELDS.map((f) => quality[f])
    .filter(isPyIntLike)
    .map(Number);
  if (scores.length !== SCORE_FIELDS.length) return;
  const expected = pyRound2(scores.reduce((a, b) => a + b, 0) / scores.length);
  const actual = pyToFloat(quality.overall);
  if (actual === undefined) {
    report.error('quality', 'overall-not-numeric', `quality.overall is not a number, got ${cutValue(pyRepr(quality.overall!))}`, at('quality.overall'));
  } else if (!(Math.abs(expected - actual) <= 1e-6)) {
    report.error(
      'quality',
      'overall-mismatch',
      `quality.overall must be the mean of the four scores rounded to 2 decimals: expected ${pyFloatRepr(expected)}, got ${pyFloatRepr(actual)}`,
      at('quality.overall'),
    );
  }
}

const EXTERNAL = ['http://', 'https://', 'mailto:', '#'];

/** Markdown links in the body, read as upstream reads them (markdown/upstream-dialect.ts), that point at no file of the wiki. */
function checkLinks(layout: WikiLayout, page: PageToValidate, report: Reporter): void {
  for (const { target, line } of upstreamBodyLinks(page.text)) {
    if (EXTERNAL.some((prefix) => target.startsWith(prefix))) continue;
    const withoutAnchor = target.split('#')[0]!;
    if (withoutAnchor === '') continue;
    const resolved = resolveWikiPath(withoutAnchor.startsWith('/') ? '' : parentDir(page.path), withoutAnchor);
    if (resolved === undefined) {
      report.error('broken-link', 'broken-link', `broken markdown link: ${cutValue(target)} (it points outside the wiki root)`, { field: target, line });
    } else if (!layout.tree.files.has(resolved) && !layout.tree.dirs.has(resolved)) {
      report.error('broken-link', 'broken-link', `broken markdown link: ${cutValue(target)} (no file ${cutValue(resolved)} in the wiki)`, {
        field: target,
        line,
      });
    }
  }
}

/** `[[…]]` in the body (outside code) that fit no file of the wiki, or several equally: rule `wikilink`. */
function checkWikilinks(links: LinkReading, page: PageToValidate, report: Reporter): void {
  // The body where upstream's validator starts it, so both link checks count lines alike.
  const start = upstreamBodyStart(page.text);
  if (!start) return;
  const rawBody = page.text.slice(start.offset);
  if (!rawBody.includes('[[')) return;
  const lines = blankCode(rawBody).split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.includes('[[')) continue;
    for (const link of findWikilinks(lines[i]!)) {
      const why = unresolved(links.find(link.target));
      if (why)
        report.error('wikilink', 'broken-wikilink', `broken wikilink: [[${cutValue(link.target)}]] (${why})`, { field: link.target, line: start.line + i });
    }
  }
}

/** Why a target is not a link, or undefined when it fits one file. */
function unresolved(found: WikilinkFit): string | undefined {
  if (!found) return 'no file of the wiki fits it';
  if ('path' in found) return undefined;
  const shown = found.ambiguous.slice(0, 3).join(', ');
  return `${found.ambiguous.length} files fit it equally: ${cutValue(shown)}${found.ambiguous.length > 3 ? ', …' : ''}`;
}

/**
 * A `sources` entry that names its source outside the wiki: a URL (any scheme, or a host and a path
 * without one, `docs.rs/clap`) or a DOI.
 */
export const isExternalSource = (entry: string): boolean =>
  /^(?:[a-z][a-z0-9+.-]*:\/\/|doi:|10\.[0-9]{4,}\/|[a-z0-9-]+(?:\.[a-z0-9-]+)+\/\S*$)/i.test(entry.trim());

/** The target of a `sources` entry that is one `[[wikilink]]` and nothing else. */
export function sourceWikilink(entry: string): string | undefined {
  const trimmed = entry.trim();
  const links = findWikilinks(trimmed);
  return links.length === 1 && /^!?\[\[[^\]]*\]\]$/.test(trimmed) ? links[0]!.target : undefined;
}

function checkSourcesExist(layout: WikiLayout, links: LinkReading, data: PyDict, report: Reporter, at: At): void {
  if (!Array.isArray(data.sources)) return;
  for (const source of data.sources) {
    if (typeof source !== 'string' || source === 'conversation') continue;
    if (links.linkedSources) {
      if (isExternalSource(source)) continue;
      const target = sourceWikilink(source);
      if (target !== undefined) {
        const why = unresolved(links.find(target));
        if (why)
          report.error('missing-source', 'missing-source', `sources entry ${cutValue(source.trim())} is a broken wikilink: ${why}`, {
            ...at('sources'),
            target: source,
          });
        continue;
      }
    }
    // Upstream joins the entry to the root as a filesystem path, so an absolute path never exists.
    const resolved = source.startsWith('/') ? undefined : resolveWikiPath('', source);
    if (resolved === undefined || (!layout.tree.files.has(resolved) && !layout.tree.dirs.has(resolved))) {
      report.error('missing-source', 'missing-source', `sources entry does not exist in the wiki: ${cutValue(source)}`, { ...at('sources'), target: source });
    }
  }
}

/** A page's frontmatter `aliases:`: a string or a list of strings. */
export function aliasesOf(data: PyDict): string[] {
  const given = data.aliases;
  return (Array.isArray(given) ? given : [given]).filter((a): a is string => typeof a === 'string' && a.trim() !== '');
}

/** Every page's frontmatter `aliases:` (a string or a list of strings), read before any link is judged. */
export async function readAliases(layout: WikiLayout): Promise<Map<string, string[]>> {
  const aliases = new Map<string, string[]>();
  await readPages(layout.tree, layout.pages, (page, read) => {
    if (!read.ok) return;
    const fm = readFrontmatter(read.text);
    if (fm.kind !== 'ok') return;
    const names = aliasesOf(fm.data);
    if (names.length > 0) aliases.set(page, names);
  });
  return aliases;
}

export interface WikiValidation {
  diagnostics: Diagnostic[];
  /** Pages checked, wiki-relative. */
  checked: string[];
}

/**
 * Validates the given pages (every page of the layout when omitted), reading them in one pass. Each
 * page costs at most its own diagnostics: one that cannot be read, is over the page size limit, has
 * a name that would break a line, or trips the checks themselves gets one diagnostic, and the rest
 * of the wiki is checked as usual. The verdicts are the `rules` settings' (`applyRules`; upstream's
 * when not given).
 */
export async function validateWiki(layout: WikiLayout, only?: readonly string[], rules: ValidateSettings = UPSTREAM_RULES): Promise<WikiValidation> {
  const targets = (only ?? [...layout.pages, ...layout.unsafeNames]).filter((p) => !isIndexFile(p));
  const links = linkReading(layout, {
    ...(readsAliases(rules) ? { aliases: await readAliases(layout) } : {}),
    linkedSources: readsLinkedSources(rules),
  });
  const diagnostics: Diagnostic[] = [];
  // One push per diagnostic: a page can hold any number of faults (150,000 broken links), more
  // than a spread into push() can pass as arguments.
  const add = (found: readonly Diagnostic[]) => {
    for (const d of found) diagnostics.push(d);
  };
  await readPages(
    layout.tree,
    targets.filter((p) => !isUnsafeName(p)),
    (path, read) => {
      if (!read.ok) {
        add([
          {
            severity: 'error',
            rule: read.problem === 'too-large' ? 'page-too-large' : 'unreadable',
            code: read.problem === 'too-large' ? 'page-too-large' : 'unreadable',
            path,
            line: 1,
            message: read.reason,
          },
        ]);
        return;
      }
      try {
        add(validatePage(layout, { path, text: read.text }, rules, links));
      } catch (error) {
        add([
          {
            severity: 'error',
            rule: 'check-failed',
            code: 'check-failed',
            path,
            line: 1,
            message: `could not check this page: ${cutValue((error as Error).message)}`,
          },
        ]);
      }
    },
  );
  for (const path of targets.filter(isUnsafeName)) {
    const message = `file name ${cutValue(quoteName(path))} holds a line break or other control character: not checked, not indexed; rename the file`;
    add([{ severity: 'error', rule: 'unsafe-file-name', code: 'unsafe-file-name', path, line: 1, message }]);
  }
  for (const skipped of layout.tree.skipped) {
    if (skipped.path.endsWith('.md')) {
      diagnostics.push({
        severity: 'warning',
        rule: 'not-followed',
        code: 'not-followed',
        path: skipped.path,
        line: 1,
        message: `${skipped.reason}: not validated`,
      });
    }
  }
  // Every renderer prints the path on one line: escape what would break it.
  return { diagnostics: applyRules(diagnostics, rules).map((d) => (isUnsafeName(d.path) ? { ...d, path: escapeUnsafeName(d.path) } : d)), checked: targets };
}
