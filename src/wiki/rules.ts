// Rule severities: what each preset makes of each named rule, and the one place a run's diagnostics
// get the verdicts `.wiki-steward.yml` `validate` asks for. The checks report upstream's severities;
// `applyRules` runs after them, for `validate`, the hook and the Action alike.
import { type RuleSeverity, VALIDATE_RULES, type ValidatePreset, type ValidateRule, type ValidateSettings } from '../config/config.js';
import type { Diagnostic } from './diagnostics.js';

const WARNINGS_UPSTREAM: readonly ValidateRule[] = ['yaml-dialect', 'not-followed'];

/**
 * `lenient` turns upstream's format and convention rules into warnings, for wikis not made by
 * upstream's plugin. It never turns anything off, and leaves as errors what makes a page unreadable
 * or wrong for any wiki: frontmatter parse errors, broken links, unreadable, oversized or unsafely
 * named pages, checks that failed, stale index files.
 */
const LENIENT_WARNINGS: readonly ValidateRule[] = [
  'required-field',
  'type-category',
  'path-depth',
  'timestamps',
  'tags',
  'sources',
  'quality',
  'missing-source',
];

/**
 * Rules upstream does not have. `wikilink` (`[[…]]` that resolve to no page, or to several) is off
 * under `upstream`: upstream's validator reads only markdown links, so checking wikilinks there would
 * change upstream's verdicts on upstream's own wikis. Under `lenient`, for wikis of other dialects
 * (Obsidian's), an unresolved wikilink is a broken link, so an error.
 */
const OFF_UPSTREAM: readonly ValidateRule[] = ['wikilink'];

const presetOf = (rule: ValidateRule, preset: ValidatePreset): RuleSeverity =>
  preset === 'upstream' && OFF_UPSTREAM.includes(rule)
    ? 'off'
    : WARNINGS_UPSTREAM.includes(rule) || (preset === 'lenient' && LENIENT_WARNINGS.includes(rule))
      ? 'warn'
      : 'error';

/** Every rule's severity under the settings: the preset's, then the per-rule overrides. */
export function ruleSeverities(settings: ValidateSettings): Record<ValidateRule, RuleSeverity> {
  return Object.fromEntries(VALIDATE_RULES.map((rule) => [rule, settings.rules[rule] ?? presetOf(rule, settings.preset)])) as Record<
    ValidateRule,
    RuleSeverity
  >;
}

/**
 * Link readings beyond upstream's, each on under `lenient` unless set: `[[Alias]]` through frontmatter
 * `aliases:` (beyond Obsidian too), and `sources` entries as links. Upstream's verdicts stay upstream's.
 */
export const readsAliases = (settings: ValidateSettings): boolean => settings.wikilinkAliases ?? settings.preset === 'lenient';
export const readsLinkedSources = (settings: ValidateSettings): boolean => settings.linkedSources ?? settings.preset === 'lenient';

/** The diagnostics with the settings' verdicts: `off` rules dropped, the others set to error or warning. */
export function applyRules(diagnostics: readonly Diagnostic[], settings: ValidateSettings): Diagnostic[] {
  const severities = ruleSeverities(settings);
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    const severity = severities[d.rule];
    if (severity === 'off') continue;
    const wanted = severity === 'warn' ? 'warning' : 'error';
    out.push(d.severity === wanted ? d : { ...d, severity: wanted });
  }
  return out;
}
