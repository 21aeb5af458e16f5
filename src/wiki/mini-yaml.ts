// The frontmatter dialect upstream's scripts read (reference/upstream-format.md §2.1). It is not
// YAML: it accepts LLM-written lines such as `title: Foo: bar`, needs list items indented, never
// unescapes quotes and keeps `created: 2026-04-24` a string. Validator verdicts and index bytes
// depend on reading it exactly this way, so this is the one hand-written parser in the project.
import { pyLStrip, pyRStrip, pyStrip } from '../markdown/py-strip.js';
import { type PyDict, type PyValue, pyParseFloat, pyParseInt, pySplitLines, pyStrRepr } from './python-compat.js';

export class MiniYamlError extends Error {
  constructor(
    message: string,
    /** 1-based line within the frontmatter block. */
    readonly line: number,
  ) {
    super(message);
    this.name = 'MiniYamlError';
  }
}

const ONE_KEY_MAP_ITEM = /^[A-Za-z_][A-Za-z0-9_-]*:(\s|$)/;

export function parseScalar(raw: string): PyValue {
  const s = pyStrip(raw);
  if (s === '') return '';
  if (s === 'null' || s === '~') return null;
  if (s === 'true') return true;
  if (s === 'false') return false;
  if (s.length >= 2 && ((s[0] === '"' && s.endsWith('"')) || (s[0] === "'" && s.endsWith("'")))) return s.slice(1, -1);
  const asInt = pyParseInt(s);
  if (asInt !== undefined) return asInt;
  const asFloat = pyParseFloat(s);
  if (asFloat !== undefined) return asFloat;
  return s;
}

/** A dict with no prototype, so keys such as `__proto__` from page text stay plain data. */
export const newPyDict = (): PyDict => Object.create(null) as PyDict;

export interface MiniYamlResult {
  data: PyDict;
  /** 1-based line (within the block) on which each top-level key, and `parent.child`, was written. */
  keyLines: Map<string, number>;
}

const partition = (s: string, sep: string): [string, string] => {
  const at = s.indexOf(sep);
  return [s.slice(0, at), s.slice(at + sep.length)];
};

const isSkippable = (line: string): boolean => pyStrip(line) === '' || pyLStrip(line).startsWith('#');

export function parseMiniYaml(block: string): MiniYamlResult {
  const data = newPyDict();
  const keyLines = new Map<string, number>();
  const lines = pySplitLines(block);
  const n = lines.length;
  let i = 0;
  while (i < n) {
    const line = pyRStrip(lines[i]!);
    if (line === '' || line.startsWith('#')) {
      i++;
      continue;
    }
    if (!line.includes(':')) throw new MiniYamlError(`malformed line (no colon): ${pyStrRepr(line)}`, i + 1);
    const [rawKey, rawRest] = partition(line, ':');
    const key = pyStrip(rawKey);
    const rest = pyStrip(rawRest);
    keyLines.set(key, i + 1);
    if (rest === '') {
      let j = i + 1;
      while (j < n && isSkippable(lines[j]!)) j++;
      if (j >= n) {
        data[key] = [];
        i++;
        continue;
      }
      if (pyLStrip(lines[j]!).startsWith('- ')) {
        const items: PyValue[] = [];
        let k = j;
        while (k < n) {
          const itemLine = pyRStrip(lines[k]!);
          if (itemLine === '') {
            k++;
            continue;
          }
          const s = pyLStrip(itemLine);
          if (!s.startsWith('- ') || itemLine.length - s.length < 2) break;
          const content = s.slice(2);
          if (ONE_KEY_MAP_ITEM.test(content)) {
            const [ck, cv] = partition(content, ':');
            const item = newPyDict();
            item[pyStrip(ck)] = parseScalar(cv);
            items.push(item);
          } else items.push(parseScalar(content));
          k++;
        }
        data[key] = items;
        i = k;
        continue;
      }
      const nested = newPyDict();
      let k = j;
      while (k < n) {
        const childLine = pyRStrip(lines[k]!);
        if (childLine === '') {
          k++;
          continue;
        }
        const s = pyLStrip(childLine);
        if (childLine.length - s.length < 2) break;
        if (!s.includes(':')) throw new MiniYamlError(`malformed nested line: ${pyStrRepr(childLine)}`, k + 1);
        const [ck, cv] = partition(s, ':');
        const childKey = pyStrip(ck);
        nested[childKey] = parseScalar(cv);
        keyLines.set(`${key}.${childKey}`, k + 1);
        k++;
      }
      data[key] = nested;
      i = k;
      continue;
    }
    if (rest.startsWith('[')) {
      if (!rest.endsWith(']')) throw new MiniYamlError(`unterminated inline list for ${key}`, i + 1);
      const inner = pyStrip(rest.slice(1, -1));
      data[key] = inner === '' ? [] : inner.split(',').map(parseScalar);
      i++;
      continue;
    }
    data[key] = parseScalar(rest);
    i++;
  }
  return { data, keyLines };
}
