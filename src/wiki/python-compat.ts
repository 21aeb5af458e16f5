// The upstream scripts are Python; their output bytes and verdicts depend on a handful of Python
// semantics that JavaScript does not share. Each function here reproduces one of them exactly (the
// str.strip family, which markdown readings share, is in markdown/py-strip.ts).
import { pyStrip } from '../markdown/py-strip.js';

/** A value as the upstream mini-YAML reader produces it (Python's str/int/float/bool/None/list/dict). */
export type PyValue = string | PyInt | number | boolean | null | PyValue[] | PyDict;
/** Python ints are unbounded: kept as bigint so `str()` prints every digit. */
export type PyInt = bigint;
export interface PyDict {
  [key: string]: PyValue;
}

/** Python's `isinstance(v, int)`: bools are ints too. */
export const isPyIntLike = (v: PyValue | undefined): v is bigint | boolean => typeof v === 'bigint' || typeof v === 'boolean';
export const isPyDict = (v: PyValue | undefined): v is PyDict => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Python's str.splitlines(): every line boundary Python knows, no trailing empty line. */
export function pySplitLines(s: string): string[] {
  if (s === '') return [];
  const lines = s.split(/\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]/);
  if (/(?:\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029])$/.test(s)) lines.pop();
  return lines;
}

const INT_RE = /^[+-]?(?:0(?:_?0)*|[1-9](?:_?[0-9])*|0[0-9](?:_?[0-9])*)$/;
const DEC_DIGITS = '[0-9](?:_?[0-9])*';
const FLOAT_RE = new RegExp(`^[+-]?(?:(?:${DEC_DIGITS})?\\.${DEC_DIGITS}|${DEC_DIGITS}\\.?)(?:[eE][+-]?${DEC_DIGITS})?$`);
const FLOAT_SPECIAL_RE = /^([+-]?)(nan|inf|infinity)$/i;

/** Python `int(s)` on an already-stripped string; undefined where Python raises ValueError. */
export function pyParseInt(s: string): bigint | undefined {
  if (!INT_RE.test(s)) return undefined;
  return BigInt(s.replace(/_/g, ''));
}

/** Python `float(s)` on a string; undefined where Python raises ValueError. */
export function pyParseFloat(raw: string): number | undefined {
  const s = pyStrip(raw);
  const special = FLOAT_SPECIAL_RE.exec(s);
  if (special) {
    if (special[2]!.toLowerCase() === 'nan') return NaN;
    return special[1] === '-' ? -Infinity : Infinity;
  }
  if (!FLOAT_RE.test(s)) return undefined;
  return Number(s.replace(/_/g, ''));
}

/** Python `float(v)`; undefined where Python raises TypeError or ValueError. */
export function pyToFloat(v: PyValue | undefined): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') return pyParseFloat(v);
  return undefined;
}

/** Python `repr(float)`: shortest round-trip digits, scientific outside 1e-4 <= |x| < 1e16. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, expText] = x.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 16) {
    return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = x < 0 ? '-' : '';
  if (exp >= digits.length - 1) return `${sign}${digits}${'0'.repeat(exp - digits.length + 1)}.0`;
  if (exp >= 0) return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
}

/** Python `'%.2f' % x` / `f'{x:.2f}'`: the exact binary value, rounded half to even. */
export function pyFormatFixed2(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const { numerator, denominator } = exactRational(Math.abs(x));
  const scaled = numerator * 100n;
  let q = scaled / denominator;
  const r2 = (scaled % denominator) * 2n;
  if (r2 > denominator || (r2 === denominator && q % 2n === 1n)) q += 1n;
  const digits = q.toString().padStart(3, '0');
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** Python `round(x, 2)` for the validator's expected mean: half to even on the exact value. */
export function pyRound2(x: number): number {
  return Number(pyFormatFixed2(x));
}

function exactRational(x: number): { numerator: bigint; denominator: bigint } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const exponentBits = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  const mantissa = exponentBits === 0 ? fraction : fraction | (1n << 52n);
  const exponent = (exponentBits === 0 ? 1 : exponentBits) - 1075;
  return exponent >= 0 ? { numerator: mantissa << BigInt(exponent), denominator: 1n } : { numerator: mantissa, denominator: 1n << BigInt(-exponent) };
}

/** Python `repr(str)`. */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (!isPrintable(ch, cp)) {
      out +=
        cp <= 0xff
          ? `\\x${cp.toString(16).padStart(2, '0')}`
          : cp <= 0xffff
            ? `\\u${cp.toString(16).padStart(4, '0')}`
            : `\\U${cp.toString(16).padStart(8, '0')}`;
    } else out += ch;
  }
  return out + quote;
}

// Python treats separators (Z*) other than the ASCII space, and control/format/unassigned/private
// characters, as non-printable.
const NON_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;
const isPrintable = (ch: string, cp: number): boolean => cp === 0x20 || !NON_PRINTABLE.test(ch);

/** Python `repr(value)` for the values the mini-YAML reader produces. */
export function pyRepr(v: PyValue): string {
  if (typeof v === 'string') return pyStrRepr(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (isPyDict(v))
    return `{${Object.entries(v)
      .map(([k, val]) => `${pyStrRepr(k)}: ${pyRepr(val)}`)
      .join(', ')}}`;
  return pyStr(v);
}

/** Python `str(value)`. */
export function pyStr(v: PyValue): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return pyFloatRepr(v);
  if (typeof v === 'string') return v;
  return pyRepr(v);
}

const CASED = /[\p{Lu}\p{Ll}\p{Lt}]/u;

/** Python `str.title()`: a cased character after an uncased one is uppercased, other cased ones lowercased. */
export function pyTitle(s: string): string {
  let out = '';
  let previousCased = false;
  for (const ch of s) {
    const cased = CASED.test(ch);
    if (cased) out += previousCased ? ch.toLowerCase() : titleCaseOf(ch);
    else out += ch;
    previousCased = cased;
  }
  return out;
}

// Python uses the titlecase mapping, which differs from uppercase for digraphs such as 'ǆ' → 'ǅ'.
const TITLECASE_EXCEPTIONS: Record<string, string> = {
  Ǆ: 'ǅ',
  ǅ: 'ǅ',
  ǆ: 'ǅ',
  Ǉ: 'ǈ',
  ǈ: 'ǈ',
  ǉ: 'ǈ',
  Ǌ: 'ǋ',
  ǋ: 'ǋ',
  ǌ: 'ǋ',
  Ǳ: 'ǲ',
  ǲ: 'ǲ',
  ǳ: 'ǲ',
  ß: 'Ss',
};
const titleCaseOf = (ch: string): string => TITLECASE_EXCEPTIONS[ch] ?? ch.toUpperCase();

/** Whether a UTF-16 unit is a high (leading) surrogate. */
const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit < 0xdc00;

/**
 * The code point order of `a` and `b`, which agree up to unit `i` and differ there. The code points
 * compared start at `i`, or at `i - 1` when that unit is a high surrogate (the pair it starts, or
 * it alone, then the code points from `i`). A surrogate not in a pair is a code point of its own, as
 * in Python: '\ud800' comes before '\ue000', which comes before '\u{10000}'.
 */
function pointOrderAt(a: string, b: string, i: number): number {
  if (i > 0 && isHighSurrogate(a.charCodeAt(i - 1))) {
    const d = a.codePointAt(i - 1)! - b.codePointAt(i - 1)!;
    if (d !== 0) return d;
  }
  return a.codePointAt(i)! - b.codePointAt(i)!;
}

/** Python's default string ordering: by code point (JavaScript compares UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return pointOrderAt(a, b, i);
  return a.length - b.length;
}

const SLASH = 0x2f;

/**
 * Python `pathlib` ordering of relative paths: part by part, each part by code point (a part that
 * ends first, at a `/` or the path's end, comes first). Unit by unit, splitting nothing: a large
 * wiki's pages are sorted by it on every load.
 */
export function comparePathParts(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x === SLASH) return -1;
    if (y === SLASH) return 1;
    return pointOrderAt(a, b, i);
  }
  return a.length - b.length;
}

/** Length in code points, as Python's len(str). */
export const codePointLength = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};
