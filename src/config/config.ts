// `.wiki-steward.yml`: one optional file at the repository root, read by the CLI, the hooks and the
// Action. Precedence: CLI flag / Action input > this file > defaults. Unknown keys and bad values
// are errors that name the key.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import yaml from 'js-yaml';

export const CONFIG_FILE = '.wiki-steward.yml';

// Every choice a setting offers, declared once: the types, the config file's checks, the Action's
// inputs and the CLI's flags all come from these lists.
export const ANSWERERS = ['offline', 'openai', 'anthropic', 'copilot'] as const;
export const SEARCH_PROVIDERS = ['none', 'tavily', 'brave', 'searxng'] as const;
/** Repository roles, lowest first (`none` lets anyone ask). */
export const ROLES = ['none', 'read', 'triage', 'write', 'maintain', 'admin'] as const;
export const REFUSALS = ['comment', 'silent'] as const;
export const CAPTURE_MODES = ['queries', 'pending'] as const;
/** Which index files `index` and the hook may (re)write: generated ones only, all, none. */
export const INDEX_POLICIES = ['auto', 'always', 'never'] as const;
export const DIGEST_PERIODS = ['week', 'month'] as const;
/**
 * The named rules of `validate`, one per kind of check, in the order the validator runs them; every
 * diagnostic carries one, and `.wiki-steward.yml` `validate.rules` tunes each by this name.
 */
export const VALIDATE_RULES = [
  'unreadable',
  'page-too-large',
  'unsafe-file-name',
  'check-failed',
  'frontmatter',
  'required-field',
  'type-category',
  'path-depth',
  'timestamps',
  'tags',
  'sources',
  'quality',
  'yaml-dialect',
  'broken-link',
  'wikilink',
  'missing-source',
  'not-followed',
  'stale-index',
] as const;
export const RULE_SEVERITIES = ['error', 'warn', 'off'] as const;
/** `upstream`: upstream's verdicts (the default); `lenient`: for wikis not made by upstream's plugin. */
export const VALIDATE_PRESETS = ['upstream', 'lenient'] as const;
/**
 * What `type` a page in `concepts/` may have: `folder` (upstream's rule) `concepts` alone;
 * `singular` also `concept`, the folder name made singular (wiki/type-names.ts).
 */
export const VALIDATE_TYPE_NAMES = ['folder', 'singular'] as const;

export type AnswererChoice = (typeof ANSWERERS)[number];
export type SearchChoice = (typeof SEARCH_PROVIDERS)[number];
export type Role = (typeof ROLES)[number];
export type Refusal = (typeof REFUSALS)[number];
export type CaptureMode = (typeof CAPTURE_MODES)[number];
export type IndexPolicy = (typeof INDEX_POLICIES)[number];
export type DigestPeriodKind = (typeof DIGEST_PERIODS)[number];
export type ValidateRule = (typeof VALIDATE_RULES)[number];
export type RuleSeverity = (typeof RULE_SEVERITIES)[number];
export type ValidatePreset = (typeof VALIDATE_PRESETS)[number];
export type ValidateTypeNames = (typeof VALIDATE_TYPE_NAMES)[number];
export type ValidateSettings = {
  preset: ValidatePreset;
  rules: Partial<Record<ValidateRule, RuleSeverity>>;
  /** `folder` when not given. */
  types?: ValidateTypeNames;
  /** `[[Alias]]` resolves through a page's frontmatter `aliases:` (default: on under `lenient` only). */
  wikilinkAliases?: boolean;
  /** `sources` entries read as links: `[[wikilinks]]` resolve, URLs and DOIs are sources (default: on under `lenient` only). */
  linkedSources?: boolean;
};

export interface StewardConfig {
  /** Wiki root relative to the repository root; undefined means auto-detect. */
  wiki: string | undefined;
  categories: { include: string[]; exclude: string[] };
  ladder: {
    /** Candidate counts 1..inlineMax are read inline (C); more go to explore (E). */
    inlineMax: number;
    /** Extra words that never count as signal terms. */
    stopwords: string[];
    /** A term matching more than this share of pages is too common to carry signal. */
    commonTermRatio: number;
  };
  labels: { trigger: string; answered: string; gap: string; cold: string; error: string; capture: string; digest: string };
  /** `pullRequests`: whether the answer job opens capture pull requests (off: it answers only). */
  capture: { mode: CaptureMode; pullRequests: boolean };
  /** Which index files `index` and the hook may (re)write. */
  indexes: IndexPolicy;
  /**
   * Who may ask, and how (the Action). `stewardLogins`: accounts whose comments are the steward's
   * own besides the account of the token it runs with (e.g. `github-actions[bot]` after moving to
   * an App token, or for `digest --repo` run with a person's token).
   */
  ask: { command: string; minPermission: Role; refusal: Refusal; stewardLogins: string[] };
  /** Discussions asked in these categories (names or slugs) are questions; none named: the Q&A-format ones. */
  discussions: { categories: string[] };
  /** The answerer; keys never live here, only in the environment. */
  answerer: {
    provider: AnswererChoice;
    model: string | undefined;
    baseUrl: string | undefined;
    /** Most candidate pages a paid model reads per question. */
    budgetPages: number;
    /** Most input tokens a model is sent for one question, over all its calls. */
    maxInputTokens: number;
    /** Most input tokens a model is sent in one run (an Action run, an `ask --questions` batch); none when undefined. */
    maxRunInputTokens: number | undefined;
    /**
     * Whether step B also asks the model for the question's signal terms in the wiki's words (one
     * more call per question); the ladder counts them like its own, marked as proposed.
     */
    proposeTerms: boolean;
    /** The Copilot CLI's path, for `provider: copilot` (else `copilot` on PATH). */
    copilotCliPath: string | undefined;
    /** Longest wait for one attempt of one provider call. */
    timeoutMs: number;
    maxRetries: number;
    /**
     * One deadline per question over every provider call (term proposal, answer, repair, web
     * searches), back-off included: past it no call starts, the one in flight is aborted, and an
     * answer the model has not given is made offline, with a note. Well below a job's `timeout-minutes`.
     */
    deadlineMs: number;
  };
  search: { provider: SearchChoice; baseUrl: string | undefined; maxResults: number };
  /** The scheduled digest: its period, when a page counts as stale, and its write budget per run. */
  digest: { period: DigestPeriodKind; staleDays: number; maxWrites: number };
  /** How `validate`, the hook and the Action weigh each rule: a preset, then per-rule overrides. */
  validate: ValidateSettings;
  /** Where `ask` keeps its catalog snapshot; undefined: the repository's git directory (none outside git). */
  cache: { dir: string | undefined };
}

export const DEFAULT_CONFIG: StewardConfig = {
  wiki: undefined,
  categories: { include: [], exclude: [] },
  ladder: { inlineMax: 5, stopwords: [], commonTermRatio: 0.15 },
  labels: {
    trigger: 'question',
    answered: 'wiki:answered',
    gap: 'wiki:gap',
    cold: 'wiki:cold',
    error: 'wiki:error',
    capture: 'wiki:capture',
    digest: 'wiki:digest',
  },
  capture: { mode: 'queries', pullRequests: true },
  indexes: 'auto',
  ask: { command: '/wiki', minPermission: 'triage', refusal: 'comment', stewardLogins: [] },
  discussions: { categories: [] },
  answerer: {
    provider: 'offline',
    model: undefined,
    baseUrl: undefined,
    budgetPages: 40,
    maxInputTokens: 12_000,
    maxRunInputTokens: undefined,
    proposeTerms: false,
    copilotCliPath: undefined,
    timeoutMs: 60_000,
    maxRetries: 3,
    deadlineMs: 300_000,
  },
  search: { provider: 'none', baseUrl: undefined, maxResults: 3 },
  digest: { period: 'week', staleDays: 180, maxWrites: 5 },
  validate: { preset: 'upstream', rules: {}, types: 'folder' },
  cache: { dir: undefined },
};

export class ConfigError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'ConfigError';
  }
}

/** One key of the file: how its value is checked, and what the configuration reference says of it. */
export interface ConfigKey {
  check: Check;
  /** The values it takes, as the reference shows them. */
  type: string;
  about: string;
  /** Its twins, which win over the file: a CLI flag and an Action input. */
  flag?: string;
  input?: string;
  /** The default as the reference shows it, where the default value alone would not say it. */
  shownDefault?: string;
}
export type ConfigShape = { [key: string]: ConfigShape | ConfigKey };
type Check = (value: unknown, key: string) => string | undefined;
/** How a kind of value is checked, and how the reference names it. */
type Rule = { check: Check; type: string };

const text: Rule = { type: 'string', check: (v, key) => (typeof v === 'string' && v.trim() !== '' ? undefined : `'${key}' must be a non-empty string`) };
const oneWord: Rule = {
  type: 'one word',
  check: (v, key) => (typeof v === 'string' && /^\S+$/.test(v) ? undefined : `'${key}' must be one word such as /wiki, got ${JSON.stringify(v)}`),
};
const textList: Rule = {
  type: 'list of strings',
  check: (v, key) => (Array.isArray(v) && v.every((x) => typeof x === 'string' && x !== '') ? undefined : `'${key}' must be a list of strings`),
};
const oneOf = (values: readonly string[]): Rule => ({
  type: values.join(' | '),
  check: (v, key) => (typeof v === 'string' && values.includes(v) ? undefined : `'${key}' must be one of ${values.join(', ')}, got ${JSON.stringify(v)}`),
});
const boolean: Rule = {
  type: 'true | false',
  check: (v, key) => (typeof v === 'boolean' ? undefined : `'${key}' must be true or false, got ${JSON.stringify(v)}`),
};
const ratio: Rule = {
  type: 'number above 0, at most 1',
  check: (v, key) => (typeof v === 'number' && v > 0 && v <= 1 ? undefined : `'${key}' must be a number above 0 and at most 1, got ${JSON.stringify(v)}`),
};
const wholeNumber = (min: number, max: number): Rule => ({
  type: `whole number ${min}–${max}`,
  check: (v, key) =>
    Number.isInteger(v) && (v as number) >= min && (v as number) <= max
      ? undefined
      : `'${key}' must be a whole number from ${min} to ${max}, got ${JSON.stringify(v)}`,
});
const url: Rule = {
  type: 'http(s) URL',
  check: (v, key) => (typeof v === 'string' && /^https?:\/\/\S+$/.test(v) ? undefined : `'${key}' must be an http(s) URL, got ${JSON.stringify(v)}`),
};
const ruleMap: Rule = {
  type: `mapping of rule names to ${RULE_SEVERITIES.join(' | ')}`,
  check: (v, key) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return `'${key}' must be a mapping of rule names to ${RULE_SEVERITIES.join(', ')}`;
    for (const [rule, severity] of Object.entries(v)) {
      if (!(VALIDATE_RULES as readonly string[]).includes(rule)) return `unknown rule '${key}.${rule}' (known: ${VALIDATE_RULES.join(', ')})`;
      const problem = oneOf(RULE_SEVERITIES).check(severity, `${key}.${rule}`);
      if (problem) return problem;
    }
    return undefined;
  },
};

const key = (rule: Rule, about: string, more: Omit<ConfigKey, 'check' | 'type' | 'about'> = {}): ConfigKey => ({ ...rule, about, ...more });
/**
 * A key that exists only to be refused with a helpful message: secrets are never read from the
 * file. The reference leaves these out.
 */
export const SECRET_TRAP = 'never: keys come from the environment';
const noSecrets = key(
  {
    type: SECRET_TRAP,
    check: (_v, name) =>
      `'${name}': secrets are never read from this file; set the key in the environment ` +
      '(OPENAI_API_KEY, ANTHROPIC_API_KEY or COPILOT_GITHUB_TOKEN for a model; TAVILY_API_KEY or BRAVE_API_KEY for search)',
  },
  '',
);

/** Every key of the file: what the reader checks and what the configuration reference (docs/configuration.md) shows. */
export const CONFIG_KEYS: ConfigShape = {
  wiki: key(text, 'Wiki root, relative to the repository root.', {
    flag: '--wiki',
    input: 'wiki-path',
    shownDefault: 'auto-detect: wiki/, docs/wiki/, then .',
  }),
  categories: {
    include: key(textList, 'Only these top-level folders are categories (empty: every folder).'),
    exclude: key(textList, 'Top-level folders that are not categories, such as an imported reference folder.'),
  },
  ladder: {
    inline_max: key(wholeNumber(1, 1000), 'A question with 1 to this many candidate pages has them read inline; more are explored in batches.', {
      flag: '--inline-max',
    }),
    stopwords: key(textList, 'Extra words that never count as signal terms.'),
    common_term_ratio: key(
      ratio,
      'An ordinary word on more than this share of the pages does not name candidates by itself: it still ranks them, weighed by its rarity. ' +
        'Names, identifiers, versions and quoted phrases are never too common.',
    ),
  },
  labels: {
    trigger: key(text, 'The issue label that asks the wiki.', { input: 'trigger-label' }),
    answered: key(text, 'Label for an answered question.'),
    gap: key(text, 'Label for a question the wiki answers only in part.'),
    cold: key(text, 'Label for a question the wiki has no page for.'),
    error: key(text, 'Label for a question that could not be answered.'),
    capture: key(text, 'Label on capture pull requests.'),
    digest: key(text, 'Label on digest issues.'),
  },
  capture: {
    mode: key(oneOf(CAPTURE_MODES), 'Capture format: `queries` (a page in queries/) or `pending` (a page marked pending in its category).', {
      input: 'capture-mode',
    }),
    pull_requests: key(
      boolean,
      'Whether the answer job opens a capture pull request for a cold or gap question. ' +
        'Off, the job only answers and needs no `contents: write` nor `pull-requests: write`.',
      { input: 'capture-pull-requests' },
    ),
  },
  indexes: key(oneOf(INDEX_POLICIES), 'Which index files `index` and the hook may write: generated ones only (`auto`), all, or none.'),
  ask: {
    command: key(oneWord, 'Title prefix and comment command that ask the wiki (`/wiki How…`, `/wiki ask …`); one word.', { input: 'command' }),
    min_permission: key(oneOf(ROLES), 'Least repository role an asker needs (`none`: everyone).', { input: 'min-permission' }),
    refusal: key(oneOf(REFUSALS), 'What an asker below `min_permission` gets: one short comment, or nothing.', { input: 'refusal' }),
    steward_logins: key(
      textList,
      "Accounts whose comments are the steward's own besides the token's account, " +
        'e.g. `["github-actions[bot]"]` (quoted in YAML) after moving to an App token.',
      { input: 'steward-logins' },
    ),
  },
  discussions: {
    categories: key(
      textList,
      'The discussion categories (names or slugs) whose questions are answered, as issues are: with the trigger label or a `/wiki` title.',
      { shownDefault: 'the categories in Q&A format (those that take an answer)' },
    ),
  },
  answerer: {
    provider: key(oneOf(ANSWERERS), 'Who writes the answer: offline (no network, no key), an OpenAI-compatible server, Anthropic, or GitHub Copilot.', {
      flag: '--llm',
      input: 'llm',
    }),
    model: key(text, 'Model name; required for openai and anthropic.', { flag: '--llm-model', input: 'llm-model', shownDefault: 'none (copilot: gpt-5-mini)' }),
    base_url: key(url, 'Model endpoint, e.g. http://localhost:11434/v1 for Ollama; Anthropic without /v1.', {
      flag: '--llm-base-url',
      input: 'llm-base-url',
      shownDefault: "the provider's own",
    }),
    budget_pages: key(wholeNumber(1, 10_000), 'Most candidate pages a model reads per question.'),
    max_input_tokens: key(
      wholeNumber(1_000, 10_000_000),
      'Most input tokens a model is sent for one question, over all its calls: pages past it go unread, and the trace says so.',
    ),
    max_run_input_tokens: key(
      wholeNumber(1_000, 1_000_000_000),
      'Most input tokens a model is sent in one run (one Action run, one `ask --questions` batch); once spent, questions are answered offline.',
      { shownDefault: 'none' },
    ),
    propose_terms: key(boolean, "One more model call per question for its signal terms in the wiki's words.", { flag: '--llm-terms' }),
    copilot_cli_path: key(text, 'The Copilot CLI, for `provider: copilot`.', {
      flag: '--copilot-cli-path',
      input: 'copilot-cli-path',
      shownDefault: '`copilot` on PATH',
    }),
    timeout_ms: key(wholeNumber(100, 600_000), 'Longest wait for one attempt of one model or search call, in milliseconds.'),
    max_retries: key(wholeNumber(0, 10), 'Retries of a failed call (429, 5xx, time-outs, network faults), with back-off.'),
    deadline_ms: key(
      wholeNumber(1000, 3_600_000),
      'One deadline per question over all its model and search calls, back-off included; past it the answer is made offline. ' +
        "Keep it below the job's `timeout-minutes`.",
    ),
    api_key: noSecrets,
  },
  search: {
    provider: key(oneOf(SEARCH_PROVIDERS), 'Web search for what the wiki lacks.', { flag: '--web', input: 'web' }),
    base_url: key(url, 'Search endpoint, e.g. your SearXNG instance.', {
      flag: '--web-base-url',
      input: 'web-base-url',
      shownDefault: "the provider's own (searxng: SEARXNG_URL)",
    }),
    max_results: key(wholeNumber(1, 20), 'Results kept per search.'),
    api_key: noSecrets,
  },
  digest: {
    period: key(oneOf(DIGEST_PERIODS), 'The period one digest covers: an ISO week (UTC) or a calendar month.'),
    stale_days: key(wholeNumber(1, 3650), 'A page not updated for this many days counts as stale in the digest.'),
    max_writes: key(wholeNumber(1, 100), 'Most GitHub writes one digest run makes.'),
  },
  validate: {
    preset: key(oneOf(VALIDATE_PRESETS), "`upstream`: upstream's verdicts; `lenient`: for wikis not made by upstream's plugin."),
    rules: key(ruleMap, 'Per-rule severities over the preset, by rule name (docs/validation.md lists them).', { shownDefault: "the preset's" }),
    types: key(oneOf(VALIDATE_TYPE_NAMES), 'What `type` a page in `concepts/` may have: `concepts` only, or also `concept`.'),
    wikilink_aliases: key(boolean, "`[[Alias]]` resolves through a page's frontmatter `aliases:`.", { shownDefault: 'on under `lenient` only' }),
    linked_sources: key(boolean, '`sources` entries read as links: `[[wikilinks]]` resolve, URLs and DOIs are sources.', {
      shownDefault: 'on under `lenient` only',
    }),
  },
  cache: {
    dir: key(text, "Folder for `ask`'s catalog snapshot, relative to the repository root (never commit it); `--no-cache` skips it.", {
      shownDefault: '`wiki-steward/` in the git directory; none outside git',
    }),
  },
};

const isKey = (node: ConfigShape | ConfigKey): node is ConfigKey => typeof node.check === 'function';

/** Every key of the file with its dotted name, in the order they are declared. */
export function configKeys(shape: ConfigShape = CONFIG_KEYS, prefix = ''): Array<{ name: string; spec: ConfigKey }> {
  return Object.entries(shape).flatMap(([name, node]) => {
    const dotted = prefix ? `${prefix}.${name}` : name;
    return isKey(node) ? [{ name: dotted, spec: node }] : configKeys(node, dotted);
  });
}

function checkShape(value: unknown, shape: ConfigShape, prefix: string, file: string): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ConfigError(file, prefix ? `'${prefix}' must be a mapping` : 'the file must hold a YAML mapping');
  }
  for (const [key, child] of Object.entries(value)) {
    const name = prefix ? `${prefix}.${key}` : key;
    const expected = shape[key];
    if (!expected)
      throw new ConfigError(
        file,
        `unknown key '${name}' (known: ${Object.entries(shape)
          .filter(([, node]) => !isKey(node) || node.type !== SECRET_TRAP)
          .map(([k]) => (prefix ? `${prefix}.${k}` : k))
          .join(', ')})`,
      );
    if (isKey(expected)) {
      const problem = expected.check(child, name);
      if (problem) throw new ConfigError(file, problem);
    } else checkShape(child, expected, name, file);
  }
}

/** Parses and checks the file's text; returns the config with defaults filled in. */
export function parseConfig(text: string, file: string): StewardConfig {
  let raw: unknown;
  try {
    raw = yaml.load(text, { schema: yaml.CORE_SCHEMA, filename: file });
  } catch (error) {
    throw new ConfigError(file, `not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (raw === null || raw === undefined) return structuredClone(DEFAULT_CONFIG);
  checkShape(raw, CONFIG_KEYS, '', file);
  return mergeInto(structuredClone(DEFAULT_CONFIG) as unknown as Record<string, unknown>, raw as Record<string, unknown>) as unknown as StewardConfig;
}

const camel = (key: string): string => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The file's (already checked) values over the defaults, snake_case keys to camelCase. */
function mergeInto(target: Record<string, unknown>, source: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(source)) {
    const name = camel(key);
    const current = target[name];
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object' && !Array.isArray(current)) {
      mergeInto(current as Record<string, unknown>, value as Record<string, unknown>);
    } else target[name] = value;
  }
  return target;
}

/**
 * Reads `.wiki-steward.yml` from the repository root; defaults when the file does not exist. Its
 * faults name the file relative to `cwd`, the directory the command or step runs in (not this
 * process's: the Action and the CLI can run in-process for another directory).
 */
export async function loadConfig(repoRoot: string, cwd: string): Promise<{ config: StewardConfig; file: string | undefined }> {
  const file = path.join(repoRoot, CONFIG_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { config: structuredClone(DEFAULT_CONFIG), file: undefined };
    throw new ConfigError(file, `cannot read: ${(error as Error).message}`);
  }
  return { config: parseConfig(text, path.relative(cwd, file) || CONFIG_FILE), file };
}
