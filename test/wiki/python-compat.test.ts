import { describe, expect, it } from 'vitest';
import { compareCodePoints, comparePathParts, pyFloatRepr, pyFormatFixed2, pyParseFloat, pyParseInt, pyRepr, pyTitle } from '../../src/wiki/python-compat.js';

describe('Python str.title()', () => {
  // Vectors taken from CPython 3.11 ('…'.title()).
  it.each([
    ['3d models', '3D Models'],
    ['llm apis', 'Llm Apis'],
    ["don't", "Don'T"],
    ['ÄRGER', 'Ärger'],
    ['x2y', 'X2Y'],
    ['ab CD', 'Ab Cd'],
    ['éclair über', 'Éclair Über'],
    ['straße', 'Straße'],
    ['ßtraße', 'Sstraße'],
    ['ǆungla', 'ǅungla'],
    ['日本語 notes', '日本語 Notes'],
    ['αβγ δεζ', 'Αβγ Δεζ'],
    ['привет мир', 'Привет Мир'],
    ['', ''],
  ])('%j → %j', (input, expected) => expect(pyTitle(input)).toBe(expected));
});

describe("Python '%.2f'", () => {
  it.each([
    [3.125, '3.12'],
    [2.675, '2.67'],
    [0.125, '0.12'],
    [0.375, '0.38'],
    [4, '4.00'],
    [3.75, '3.75'],
    [1e-9, '0.00'],
    [-1.005, '-1.00'],
    [123456.789, '123456.79'],
  ])('%d → %s', (x, expected) => expect(pyFormatFixed2(x)).toBe(expected));
});

describe('Python float repr', () => {
  it.each([
    [3, '3.0'],
    [3.5, '3.5'],
    [2.675, '2.675'],
    [1e16, '1e+16'],
    [1.5e-5, '1.5e-05'],
    [0.0001, '0.0001'],
    // A literal past 2^53 on purpose: Python prints the double it rounds to.
    // eslint-disable-next-line no-loss-of-precision
    [123456789012345678, '1.2345678901234568e+17'],
    [NaN, 'nan'],
    [-Infinity, '-inf'],
  ])('%d → %s', (x, expected) => expect(pyFloatRepr(x)).toBe(expected));
});

describe('Python int() and float() on scalars', () => {
  it('parses what Python parses', () => {
    expect(pyParseInt('1_000')).toBe(1000n);
    expect(pyParseInt('+5')).toBe(5n);
    expect(pyParseInt('007')).toBe(7n);
    expect(pyParseInt('12345678901234567890')).toBe(12345678901234567890n);
    expect(pyParseInt('2026-04-24')).toBeUndefined();
    expect(pyParseInt('1__0')).toBeUndefined();
    expect(pyParseFloat('1e3')).toBe(1000);
    expect(pyParseFloat('.5')).toBe(0.5);
    expect(pyParseFloat('inf')).toBe(Infinity);
    expect(Number.isNaN(pyParseFloat('NaN'))).toBe(true);
    expect(pyParseFloat('2026-04-24T10:00:00Z')).toBeUndefined();
    expect(pyParseFloat('abc')).toBeUndefined();
  });
});

describe('Python repr and ordering', () => {
  it('reprs values as Python does', () => {
    expect(pyRepr('2026-04-24')).toBe("'2026-04-24'");
    expect(pyRepr("it's")).toBe('"it\'s"');
    expect(pyRepr({ path: 'raw/x.md' })).toBe("{'path': 'raw/x.md'}");
    expect(pyRepr(['a', 1n, true, null, 2.5])).toBe("['a', 1, True, None, 2.5]");
    expect(pyRepr('tab\there')).toBe("'tab\\there'");
  });

  it('orders by code point and by path part', () => {
    expect(['b', 'B', 'Ä', 'a', '\u{1F600}', '\uFF21'].sort(compareCodePoints)).toEqual(['B', 'a', 'b', 'Ä', '\uFF21', '\u{1F600}']);
    expect(['a-b.md', 'a/z.md'].sort(comparePathParts)).toEqual(['a/z.md', 'a-b.md']);
    // Against the definition (parts split, each compared by code point, fewer parts first), over
    // paths of short parts drawn from characters either side of '/' and of the surrogates.
    const units = ['a', '-', '.', '0', 'é', '\uFF21', '\u{1F600}', '\u{1F601}'];
    let seed = 7;
    const pick = () => units[(seed = (seed * 1103515245 + 12345) % 2147483648) % units.length]!;
    const paths = Array.from({ length: 300 }, () => Array.from({ length: 1 + (seed % 3) }, () => pick() + (seed % 2 ? pick() : '')).join('/'));
    const byDefinition = (a: string, b: string) => {
      const [pa, pb] = [a.split('/'), b.split('/')];
      for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
        const [x, y] = [[...pa[i]!].map((c) => c.codePointAt(0)!), [...pb[i]!].map((c) => c.codePointAt(0)!)];
        for (let k = 0; k < Math.min(x.length, y.length); k++) if (x[k] !== y[k]) return x[k]! - y[k]!;
        if (x.length !== y.length) return x.length - y.length;
      }
      return pa.length - pb.length;
    };
    for (const a of paths) for (const b of paths.slice(0, 40)) expect([a, b, Math.sign(comparePathParts(a, b))]).toEqual([a, b, Math.sign(byDefinition(a, b))]);
  });

  it('orders lone surrogates by their own code points, as Python does (a YAML title may hold one: "\\ud800")', () => {
    // Python: '\ud800' < '\ue000' < '\U00010000'; a lone surrogate is a code point of its own.
    expect(['\u{10000}', '\ue000', '\ud800'].sort(compareCodePoints)).toEqual(['\ud800', '\ue000', '\u{10000}']);
    expect(['\ue000', '\udc00x'].sort(compareCodePoints)).toEqual(['\udc00x', '\ue000']);
    expect(['a/\ue000.md', 'a/\ud800.md'].sort(comparePathParts)).toEqual(['a/\ud800.md', 'a/\ue000.md']);
    // Against the definition, over every string of up to three pieces: lone surrogates (high and
    // low, which side by side make a pair), the units either side of them, pairs and '/'.
    const pieces = ['a', '/', '\ud7ff', '\ud800', '\udbff', '\udc00', '\udfff', '\ue000', '\uffff', '\u{10000}', '\u{1F600}'];
    const strings = [''];
    for (let n = 0; n < 3; n++) for (const s of [...strings]) for (const p of pieces) strings.push(s + p);
    const points = (s: string) => [...s].map((c) => c.codePointAt(0)!);
    const byPoints = (x: number[], y: number[]) => {
      for (let k = 0; k < Math.min(x.length, y.length); k++) if (x[k] !== y[k]) return x[k]! - y[k]!;
      return x.length - y.length;
    };
    const byParts = (a: string, b: string) => {
      const [pa, pb] = [a.split('/'), b.split('/')];
      for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
        const d = byPoints(points(pa[i]!), points(pb[i]!));
        if (d !== 0) return d;
      }
      return pa.length - pb.length;
    };
    const sample = strings.filter((_, i) => i % 7 === 0);
    const wrong: Array<[string, string, string]> = [];
    for (const a of strings)
      for (const b of sample) {
        if (Math.sign(compareCodePoints(a, b)) !== Math.sign(byPoints(points(a), points(b)))) wrong.push(['compareCodePoints', a, b]);
        if (Math.sign(comparePathParts(a, b)) !== Math.sign(byParts(a, b))) wrong.push(['comparePathParts', a, b]);
      }
    expect(wrong).toEqual([]);
  });
});
