// Python's str.strip family, which upstream's scripts apply to page text (descriptions, frontmatter
// lines) and which several readings of markdown here share. Stripping scans inward from each end by
// hand: a trailing-whitespace expression rescans from every position, quadratic on long bodies.

// Characters Python's str.strip() treats as whitespace.
const PY_WHITESPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008,
  0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);
const isPyWhitespace = (s: string, i: number): boolean => PY_WHITESPACE.has(s.charCodeAt(i));

/** Python's `s.lstrip()`. */
export function pyLStrip(s: string): string {
  let start = 0;
  while (start < s.length && isPyWhitespace(s, start)) start++;
  return start === 0 ? s : s.slice(start);
}

/**
 * Python's `s.rstrip()`, or `s.rstrip(chars)`: scanned from the end, never an expression anchored at
 * `$` (which rescans a long run from each of its characters).
 */
export function pyRStrip(s: string, chars?: string): string {
  let end = s.length;
  if (chars === undefined) while (end > 0 && isPyWhitespace(s, end - 1)) end--;
  else while (end > 0 && chars.includes(s[end - 1]!)) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** Python's `s.strip()`. */
export const pyStrip = (s: string): string => pyRStrip(pyLStrip(s));
