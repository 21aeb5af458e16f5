// `validate --suggest-config`: a `.wiki-steward.yml` `validate:` block that fits the wiki's dialect.
// It runs the validator once with upstream's verdicts (and wikilinks checked), counts the findings
// per rule and per message shape, and relaxes only format and convention rules that most of the wiki
// breaks. Rules about real damage (parse errors, broken links, unreadable, oversized or unsafely named
// pages, checks that failed, stale indexes) always stay errors, so a suggested config hides nothing.
import { type RuleSeverity, VALIDATE_RULES, type ValidateRule } from '../config/config.js';
import { blankCode } from '../markdown/code.js';
import { findWikilinks, markdownLinks } from '../markdown/links.js';
import { upstreamBody } from '../markdown/upstream-dialect.js';
import type { Diagnostic } from './diagnostics.js';
import type { WikiLayout } from './layout.js';
import { readPages } from './page-limit.js';
import { readFrontmatter } from './frontmatter.js';
import { singularOf } from './type-names.js';
import { aliasesOf, isExternalSource, isIndexFile, sourceWikilink, validateWiki } from './validator.js';

/** Never suggested below `error`. */
export const NEVER_RELAXED: readonly ValidateRule[] = [
  'unreadable',
  'page-too-large',
  'unsafe-file-name',
  'check-failed',
  'frontmatter',
  'broken-link',
  'wikilink',
  'stale-index',
];

const REQUIRED_FIELDS = ['title', 'type', 'tags', 'sources', 'created', 'updated'];
const EXTERNAL = /^(https?:|mailto:|#)/;
const DATE_ONLY = /got '[0-9]{4}-[0-9]{2}-[0-9]{2}'$|got datetime\.date\(/;

interface Setting {
  rule: ValidateRule;
  severity: RuleSeverity;
  saw: string;
}

export async function suggestValidateConfig(layout: WikiLayout): Promise<string> {
  // How the wiki writes links, sources and types, read first: the validator then reads links that way.
  const survey = await surveyPages(layout);
  const readings = { wikilinkAliases: survey.aliasPages > 0, linkedSources: survey.linkedSources + survey.externalSources > 0 };
  const { diagnostics, checked } = await validateWiki(layout, undefined, { preset: 'upstream', rules: { wikilink: 'error' }, ...readings });
  const total = checked.length;
  const byRule = new Map<ValidateRule, Diagnostic[]>();
  for (const d of diagnostics) byRule.set(d.rule, [...(byRule.get(d.rule) ?? []), d]);
  const found = (rule: ValidateRule, code?: string) => (byRule.get(rule) ?? []).filter((d) => code === undefined || d.code === code);
  const pagesOf = (ds: readonly Diagnostic[]) => new Set(ds.map((d) => d.path)).size;
  // Pages whose frontmatter parsed: the denominators of the convention rules.
  const parsed = total - pagesOf(found('frontmatter')) - pagesOf(found('unreadable')) - pagesOf(found('page-too-large')) - pagesOf(found('check-failed'));
  const most = (n: number) => n * 2 > parsed;
  const of = (n: number) => `${n} of ${parsed} page${parsed === 1 ? '' : 's'}`;

  const settings: Setting[] = [];
  // The guarantee lives here, whatever a rule's counting below concludes: damage is never relaxed.
  const set = (rule: ValidateRule, severity: RuleSeverity, saw: string) =>
    settings.push({ rule, severity: NEVER_RELAXED.includes(rule) ? 'error' : severity, saw });
  const damage = (rule: ValidateRule, what: string) => {
    const n = found(rule).length;
    set(rule, 'error', `${n === 0 ? 'none' : `${n} found`}: ${what} (never relaxed)`);
  };

  damage('unreadable', 'pages that cannot be read');
  damage('page-too-large', 'pages over the size limit');
  damage('unsafe-file-name', 'file names with control characters');
  damage('check-failed', 'pages the checks failed on');
  damage('frontmatter', 'pages without parseable frontmatter');

  const missing = REQUIRED_FIELDS.map((field) => ({ field, pages: pagesOf(found('required-field').filter((d) => d.field === field)) }));
  const usual = missing.filter((m) => !most(m.pages)).map((m) => m.field);
  const absent = missing.filter((m) => most(m.pages)).map((m) => `${m.field} (missing on ${of(m.pages)})`);
  set(
    'required-field',
    absent.length > 0 ? 'warn' : 'error',
    absent.length > 0
      ? `the dialect lacks ${absent.join(', ')}; present: ${usual.join(', ') || 'none'}`
      : `pages have ${REQUIRED_FIELDS.join(', ')}${omissions(missing)}`,
  );

  // Judged on the pages that have a type: a page without one is the required-field rule's. Pages
  // typed with their folder's singular (`concepts/` → `concept`) are the dialect when most typed
  // pages are: then `types: singular` accepts them, and only the other mismatches count.
  const typed = parsed - pagesOf(found('required-field').filter((d) => d.field === 'type'));
  const singular = survey.singularTypes.length * 2 > typed;
  const mismatched = pagesOf(found('type-category')) - (singular ? survey.singularTypes.length : 0);
  const matching = typed - mismatched;
  const share = typed === 0 ? 100 : Math.round((matching * 100) / typed);
  set(
    'type-category',
    mismatched === 0 ? 'error' : matching === 0 ? 'off' : 'warn',
    typed === 0
      ? 'no page has a type'
      : `type equals the top folder${singular ? ' or its singular' : ''} on ${share}% of the pages with a type (${matching} of ${typed})`,
  );

  const deep = found('path-depth').length;
  set('path-depth', deep === 0 ? 'error' : 'warn', deep === 0 ? 'no page deeper than upstream allows' : `${deep} pages deeper than upstream allows`);

  const dates = found('timestamps');
  const datePages = pagesOf(dates);
  const dateOnly = pagesOf(dates.filter((d) => DATE_ONLY.test(d.message)));
  set(
    'timestamps',
    datePages === 0 ? 'error' : most(datePages) ? 'warn' : 'error',
    datePages === 0
      ? 'every timestamp is ISO-8601 UTC like 2026-05-01T10:00:00Z'
      : `${of(datePages)} use other timestamps (${dateOnly} date-only like 2026-05-01)`,
  );

  for (const rule of ['tags', 'sources'] as const) {
    const n = pagesOf(found(rule));
    set(rule, n === 0 ? 'error' : most(n) ? 'warn' : 'error', n === 0 ? `every page's ${rule} is a list of strings` : `${of(n)} write ${rule} another way`);
  }

  const noQuality = pagesOf(found('quality', 'missing-field').filter((d) => d.field === 'quality'));
  const badQuality = pagesOf(found('quality'));
  set(
    'quality',
    noQuality === parsed && parsed > 0 ? 'off' : badQuality === 0 ? 'error' : most(badQuality) ? 'warn' : 'error',
    noQuality === parsed && parsed > 0 ? 'no page has a quality block' : `${of(badQuality)} with quality findings, ${noQuality} without a quality block`,
  );

  set('yaml-dialect', 'warn', `${found('yaml-dialect').length} YAML 1.1/1.2 differences (upstream warns)`);
  damage('broken-link', `markdown links to no file (${survey.markdown} markdown links in all)`);
  const wikilinks = found('wikilink').length;
  const linkStyle =
    survey.wikilinks > survey.markdown
      ? `links are [[wikilinks]] (${survey.wikilinks}) rather than markdown (${survey.markdown})`
      : `${survey.wikilinks} [[wikilinks]], ${survey.markdown} markdown links`;
  set('wikilink', 'error', `${linkStyle}; ${wikilinks} unresolved (never relaxed)`);
  const sources = pagesOf(found('missing-source'));
  set(
    'missing-source',
    sources === 0 ? 'error' : most(sources) ? 'warn' : 'error',
    sources === 0 ? 'every sources entry exists' : `${of(sources)} name sources not in the wiki`,
  );
  set('not-followed', 'warn', `${found('not-followed').length} symlinked or skipped .md files (upstream warns)`);
  damage('stale-index', 'index files out of date');

  const order = new Map(VALIDATE_RULES.map((r, i) => [r, i]));
  settings.sort((a, b) => order.get(a.rule)! - order.get(b.rule)!);
  const width = Math.max(...settings.map((s) => `${s.rule}: ${yamlSeverity(s.severity)}`.length));
  return [
    `# Suggested by \`wiki-steward validate --suggest-config\` from ${total} pages.`,
    'validate:',
    '  preset: upstream',
    ...(singular ? [`  types: singular  # ${singularTypesSaw(survey.singularTypes, typed)}`] : []),
    `  wikilink_aliases: ${readings.wikilinkAliases}  # ${survey.aliasPages} pages give aliases: in their frontmatter`,
    `  linked_sources: ${readings.linkedSources}  # sources entries: ${survey.linkedSources} [[wikilinks]], ${survey.externalSources} URLs or DOIs`,
    '  rules:',
    ...settings.map((s) => `    ${`${s.rule}: ${yamlSeverity(s.severity)}`.padEnd(width)}  # ${s.saw.replace(/\n/g, ' ')}`),
  ].join('\n');
}

const singularTypesSaw = (pages: readonly string[], typed: number): string => {
  const folder = pages[0]!.split('/')[0]!;
  return `${pages.length} of ${typed} pages with a type name their folder in the singular (${folder}/ → ${singularOf(folder)})`;
};

const omissions = (missing: ReadonlyArray<{ field: string; pages: number }>): string => {
  const some = missing.filter((m) => m.pages > 0).map((m) => `${m.field} on ${m.pages}`);
  return some.length === 0 ? '' : `; missing only on a few (${some.join(', ')}): defects, not the dialect`;
};

/** `off` is a YAML 1.1 boolean: quoted. */
const yamlSeverity = (s: RuleSeverity): string => (s === 'off' ? '"off"' : s);

interface PageSurvey {
  markdown: number;
  wikilinks: number;
  /** Pages whose type is not their top folder but its singular. */
  singularTypes: string[];
  /** Pages whose frontmatter gives `aliases:`. */
  aliasPages: number;
  /** `sources` entries that are one `[[wikilink]]`, and those that are a URL or a DOI. */
  linkedSources: number;
  externalSources: number;
}

/** What the validator's findings do not say: how links and sources are written, and which pages write their type in the singular. */
async function surveyPages(layout: WikiLayout): Promise<PageSurvey> {
  const survey: PageSurvey = { markdown: 0, wikilinks: 0, singularTypes: [], aliasPages: 0, linkedSources: 0, externalSources: 0 };
  await readPages(
    layout.tree,
    layout.pages.filter((p) => !isIndexFile(p)),
    (path, read) => {
      if (!read.ok) return;
      // The body where the validator reads it: these counts sit beside its findings.
      const body = blankCode(upstreamBody(read.text));
      survey.wikilinks += findWikilinks(body).length;
      for (const link of markdownLinks(body)) if (!EXTERNAL.test(link.target)) survey.markdown++;
      const fm = readFrontmatter(read.text);
      if (fm.kind !== 'ok') return;
      const folder = path.split('/')[0]!;
      if (fm.data.type !== folder && fm.data.type === singularOf(folder)) survey.singularTypes.push(path);
      if (aliasesOf(fm.data).length > 0) survey.aliasPages++;
      for (const source of Array.isArray(fm.data.sources) ? fm.data.sources : []) {
        if (typeof source !== 'string') continue;
        if (sourceWikilink(source) !== undefined) survey.linkedSources++;
        else if (isExternalSource(source)) survey.externalSources++;
      }
    },
  );
  return survey;
}
