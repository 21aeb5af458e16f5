// Reading a page's frontmatter: the block as upstream extracts it, the upstream dialect hosted as
// gray-matter's `yaml` engine (JavaScript engines refused: frontmatter is data, never code), and a
// standard YAML 1.2 read beside it so pages other tools would read differently get a warning.
import matter from 'gray-matter';
import yaml from 'js-yaml';
import { openerLanguage } from '../markdown/body.js';
import { upstreamFrontmatterBlock } from '../markdown/upstream-dialect.js';
import { cutValue } from './diagnostics.js';
import { type MiniYamlResult, MiniYamlError, parseMiniYaml } from './mini-yaml.js';
import { type PyDict, type PyValue, isPyDict, pyRepr } from './python-compat.js';

export type Frontmatter =
  | { kind: 'none'; refusedLanguage?: string }
  | { kind: 'malformed'; message: string; line: number }
  /** Standard YAML readers would choke on it (an alias bomb): not checked further. Only with `compareWithYaml`. */
  | { kind: 'refused'; message: string; line: number }
  | {
      kind: 'ok';
      data: PyDict;
      /** Page line of each key (`quality.overall` for nested ones). */
      keyLines: Map<string, number>;
      /** Where standard YAML 1.2 reads the block differently from the upstream dialect. */
      yamlDifferences: YamlDifference[];
    };

export interface YamlDifference {
  field: string | null;
  line: number;
  message: string;
}

export class RefusedFrontmatterLanguage extends Error {
  constructor(readonly language: string) {
    super(`frontmatter language '${language}' is refused: frontmatter is data, never code`);
  }
}

const refuse = (language: string) => (): never => {
  throw new RefusedFrontmatterLanguage(language);
};

// The closing delimiter contains a NUL, which no page text holds (binary files are rejected
// before this point), so gray-matter hands the engine exactly the block upstream extracted.
const SEALED_CLOSE = '\u0000---';
const GRAY_MATTER_OPTIONS = {
  language: 'yaml',
  delimiters: ['---', SEALED_CLOSE] as [string, string],
  engines: {
    yaml: { parse: (block: string) => parseMiniYaml(block.startsWith('\n') ? block.slice(1) : block) as unknown as object },
    js: refuse('js'),
    javascript: refuse('javascript'),
    coffee: refuse('coffee'),
  },
};

/** A field read as a list of strings: a list's strings, or a string's comma-separated parts; trimmed, empty ones dropped. */
export function stringList(value: PyValue | undefined): string[] {
  if (Array.isArray(value))
    return value
      .filter((v): v is string => typeof v === 'string')
      .map((v) => v.trim())
      .filter(Boolean);
  if (typeof value === 'string')
    return value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  return [];
}

export interface ReadFrontmatterOptions {
  /** Also read the block as standard YAML 1.2 and report where the two readings differ (the validator does; indexes need not). */
  compareWithYaml?: boolean;
}

export function readFrontmatter(text: string, options: ReadFrontmatterOptions = {}): Frontmatter {
  const block = upstreamFrontmatterBlock(text);
  if (block === undefined) {
    const language = openerLanguage(text);
    if (language && language.toLowerCase() !== 'yaml') return { kind: 'none', refusedLanguage: language };
    return { kind: 'none' };
  }
  let parsed: MiniYamlResult;
  try {
    if (rescansBlankLines(block)) parsed = onlyCommentsAndBlanks(block) ? noKeys() : parseMiniYaml(block);
    else {
      const file = matter(`---\n${block}\n${SEALED_CLOSE}\n`, GRAY_MATTER_OPTIONS);
      parsed = 'keyLines' in file.data ? (file.data as unknown as MiniYamlResult) : noKeys();
    }
  } catch (error) {
    if (error instanceof MiniYamlError) return { kind: 'malformed', message: error.message, line: error.line + 1 };
    throw error;
  }
  const keyLines = new Map([...parsed.keyLines].map(([key, line]) => [key, line + 1]));
  const compared = options.compareWithYaml && !readsTheSameInYaml12(block) ? compareWithYaml12(block, parsed.data, keyLines) : [];
  if (!Array.isArray(compared)) return compared;
  return { kind: 'ok', data: parsed.data, keyLines, yamlDifferences: compared };
}

/**
 * Past this much work, gray-matter's check for a block of only comments would stall the read: its
 * expression `^\s*#[^\n]+` (multiline) runs from every line start over all the blank lines after
 * it, so 50,000 blank lines took seconds and a 2 MB block hours. The block opens with `---` and no
 * language (a language opener is refused above), so gray-matter would hand it to the dialect
 * anyway, unless it holds only blanks and comments: such a block is read as gray-matter reads it,
 * without gray-matter.
 */
const BLANK_LINE_RESCAN_LIMIT = 10_000_000;

/** What gray-matter gives for an empty block. */
const noKeys = (): MiniYamlResult => ({ data: Object.create(null) as MiniYamlResult['data'], keyLines: new Map() });

/** gray-matter's empty block: nothing left once lines of `#` and at least one more character, and blanks, are taken out. */
const onlyCommentsAndBlanks = (block: string): boolean => block.split('\n').every((line) => line.trim() === '' || /^\s*#[^\n]/.test(line));

/** Whether gray-matter's comment check would cost more than BLANK_LINE_RESCAN_LIMIT on the block. */
function rescansBlankLines(block: string): boolean {
  // The cost is at most lines × characters: an ordinary block is answered without splitting it.
  if (block.length * block.length <= BLANK_LINE_RESCAN_LIMIT) return false;
  let cost = 0;
  let runLines = 0;
  let runChars = 0;
  for (const line of block.split('\n')) {
    if (line.trim() === '') {
      runLines++;
      runChars += line.length + 1;
      continue;
    }
    cost += runLines * runChars;
    if (cost > BLANK_LINE_RESCAN_LIMIT) return true;
    runLines = 0;
    runChars = 0;
  }
  return cost + runLines * runChars > BLANK_LINE_RESCAN_LIMIT;
}

/**
 * The most a frontmatter block may grow to once YAML aliases are expanded, counted in characters of
 * its values (each value at least one). Without aliases a block cannot grow past its own size, which
 * the page size limit bounds far below this; a "billion laughs" block of ten nested aliases
 * expands to billions of values.
 */
export const MAX_FRONTMATTER_EXPANSION = 4_000_000;

class TooLarge extends Error {}
class ContainsItself extends Error {}

/**
 * Throws when the value, with every alias expanded, exceeds the budget or contains itself. Shared
 * values (what aliases produce) are measured once, so this costs one visit per distinct value.
 */
function checkExpansion(value: unknown, budget: number): void {
  const measured = new Map<object, number>();
  const open = new Set<object>();
  const size = (v: unknown): number => {
    if (typeof v === 'string') return Math.max(1, v.length);
    if (v === null || typeof v !== 'object') return 1;
    const known = measured.get(v);
    if (known !== undefined) return known;
    if (open.has(v)) throw new ContainsItself();
    open.add(v);
    let total = 1;
    for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) {
      total += size(child);
      if (total > budget) throw new TooLarge();
    }
    open.delete(v);
    measured.set(v, total);
    return total;
  };
  size(value);
}

// Blocks on which the dialect and YAML 1.2 (core schema) provably agree skip the costlier second
// parse: top-level `key: value` lines, and `key:` lines followed by a run of two-space children that
// are all `child: value` or all `- value`, where every value is a double-quoted string free of
// escapes, a plain decimal, a plain word-like string that is none of YAML's special scalars, or an
// inline list of those.
const PLAIN = String.raw`[A-Za-z][\w./@+-]*(?: [\w./@+()-]+)*`;
const SCALAR = String.raw`(?:"[^"\\]*"|[1-9][0-9]*(?:\.[0-9]+)?|0(?:\.[0-9]+)?|${PLAIN})`;
// The dialect splits inline lists on every comma, quoted or not.
const LIST_SCALAR = SCALAR.replace('[^"\\\\]', '[^",\\\\]');
const VALUE = String.raw`(?:${SCALAR}|\[(?:${LIST_SCALAR}(?:, ${LIST_SCALAR})*)?\])`;
const KEY_VALUE = new RegExp(String.raw`^[A-Za-z_][\w-]*: ${VALUE}$`);
const KEY_ONLY = /^[A-Za-z_][\w-]*:$/;
const CHILD_KEY_VALUE = new RegExp(String.raw`^  [A-Za-z_][\w-]*: ${VALUE}$`);
const CHILD_ITEM = new RegExp(String.raw`^  - ${SCALAR}$`);
const YAML_SPECIAL = /(?:^|[\s:[,-])(?:true|false|null|yes|no|on|off|y|n|~|\.inf|\.nan)(?:$|[\s,\]])/i;

function readsTheSameInYaml12(block: string): boolean {
  const lines = block.split('\n').filter((line) => line !== '');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (YAML_SPECIAL.test(line.replace(/"[^"]*"/g, '""'))) return false;
    if (KEY_VALUE.test(line)) continue;
    if (!KEY_ONLY.test(line)) return false;
    const child = lines[i + 1] !== undefined && CHILD_ITEM.test(lines[i + 1]!) ? CHILD_ITEM : CHILD_KEY_VALUE;
    let j = i + 1;
    while (j < lines.length && lines[j]!.startsWith(' ')) {
      if (!child.test(lines[j]!) || YAML_SPECIAL.test(lines[j]!.replace(/"[^"]*"/g, '""'))) return false;
      j++;
    }
    if (j === i + 1) return false; // an empty value: the dialect reads [] or {}, YAML reads null
    i = j - 1;
  }
  return true;
}

/**
 * YAML 1.2 (core schema) reading of the block, compared field by field with the dialect's; a refusal
 * when its aliases expand it past MAX_FRONTMATTER_EXPANSION or make it contain itself (js-yaml
 * shares aliased values instead of copying them, so the load is cheap, but anything that walks or
 * prints the result, as the comparison does, would not end).
 */
function compareWithYaml12(block: string, dialect: PyDict, keyLines: Map<string, number>): YamlDifference[] | Extract<Frontmatter, { kind: 'refused' }> {
  let standard: unknown;
  try {
    standard = yaml.load(block, { schema: yaml.CORE_SCHEMA, json: true });
  } catch (error) {
    const mark = (error as yaml.YAMLException).mark;
    const line = (mark?.line ?? 0) + 2;
    const reason = (error as yaml.YAMLException).reason ?? (error as Error).message;
    return [{ field: null, line, message: `frontmatter is not valid YAML 1.2 (${reason}); tools that read standard YAML will reject this page` }];
  }
  try {
    checkExpansion(standard, MAX_FRONTMATTER_EXPANSION);
  } catch (error) {
    const problem =
      error instanceof ContainsItself
        ? 'frontmatter YAML aliases make a value that contains itself'
        : `frontmatter YAML aliases expand to more than ${MAX_FRONTMATTER_EXPANSION.toLocaleString('en-US')} characters of values ` +
          '(a "billion laughs" alias bomb)';
    return {
      kind: 'refused',
      line: 1,
      message:
        `${problem}: standard YAML readers would exhaust their memory on it, so the page is not checked further; ` +
        'write the values out instead of using anchors (&) and aliases (*)',
    };
  }
  if (standard === null || standard === undefined) standard = {};
  if (typeof standard !== 'object' || Array.isArray(standard)) {
    return [{ field: null, line: 2, message: 'frontmatter is not a YAML mapping for standard YAML readers' }];
  }
  const differences: YamlDifference[] = [];
  const standardMap = standard as Record<string, unknown>;
  for (const [key, value] of Object.entries(dialect)) {
    collectDifferences(key, value, standardMap[key], keyLines, differences);
  }
  return differences;
}

function collectDifferences(field: string, dialectValue: PyValue, standardValue: unknown, keyLines: Map<string, number>, out: YamlDifference[]): void {
  if (isPyDict(dialectValue) && standardValue && typeof standardValue === 'object' && !Array.isArray(standardValue)) {
    for (const [child, value] of Object.entries(dialectValue)) {
      collectDifferences(`${field}.${child}`, value, (standardValue as Record<string, unknown>)[child], keyLines, out);
    }
    return;
  }
  if (sameValue(dialectValue, standardValue)) return;
  out.push({
    field,
    line: keyLines.get(field) ?? keyLines.get(field.split('.')[0]!) ?? 2,
    message:
      `frontmatter field '${field}': standard YAML reads ${cutValue(describeStandard(standardValue))}, ` +
      `this wiki's dialect reads ${cutValue(pyRepr(dialectValue))}`,
  });
}

function sameValue(dialect: PyValue, standard: unknown): boolean {
  if (typeof dialect === 'bigint') return typeof standard === 'number' && BigInt(Math.trunc(standard)) === dialect && Number.isInteger(standard);
  if (typeof dialect === 'number') return typeof standard === 'number' && (standard === dialect || (Number.isNaN(standard) && Number.isNaN(dialect)));
  if (Array.isArray(dialect)) {
    return Array.isArray(standard) && standard.length === dialect.length && dialect.every((item, i) => sameValue(item, standard[i]));
  }
  if (isPyDict(dialect)) {
    if (!standard || typeof standard !== 'object' || Array.isArray(standard)) return false;
    const s = standard as Record<string, unknown>;
    const keys = Object.keys(dialect);
    return keys.length === Object.keys(s).length && keys.every((k) => sameValue(dialect[k]!, s[k]));
  }
  if (dialect === '' && standard === null) return true;
  return dialect === standard;
}

function describeStandard(value: unknown): string {
  if (value === undefined) return 'nothing';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
