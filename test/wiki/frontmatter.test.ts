import { describe, expect, it } from 'vitest';
import { readFrontmatter } from '../../src/wiki/frontmatter.js';

const differences = (block: string) => {
  const fm = readFrontmatter(`---\n${block}\n---\nBody\n`, { compareWithYaml: true });
  if (fm.kind !== 'ok') throw new Error(fm.kind);
  return fm.yamlDifferences.map((d) => [d.field, d.line]);
};

describe('frontmatter: the dialect beside standard YAML 1.2', () => {
  it('finds no difference on ordinary upstream frontmatter', () => {
    expect(
      differences(
        'title: "Cache keys"\ntype: concepts\ntags: [api, cache]\nsources:\n  - raw/a.md\ncreated: "2026-05-01T10:00:00Z"\nquality:\n  accuracy: 4\n  overall: 3.25\n  rated_by: human',
      ),
    ).toEqual([]);
  });

  it.each([
    ['title: Foo: bar', null, 2],
    ['title: "say \\"hi\\""', 'title', 2],
    ['count: 1_000', 'count', 2],
    ['draft: True', 'draft', 2],
    ['title: x\ntags:', 'tags', 3],
    ['tags: ["a, b"]', 'tags', 2],
    ['quality:\n  a: 1\n    b: 2', null, 4],
    ['sources:\n  - path: raw/x.md\nextra: 0x1F', 'extra', 4],
  ])('warns where the readings differ: %j', (block, field, line) => {
    expect(differences(block)[0]).toEqual([field, line]);
  });

  it('keeps keys such as __proto__ as plain data', () => {
    const fm = readFrontmatter('---\n__proto__: polluted\nconstructor: x\n---\n');
    expect(fm.kind === 'ok' && fm.data.__proto__).toBe('polluted');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('frontmatter: blocks that stall gray-matter', () => {
  it('reads a block of two hundred thousand blank lines as gray-matter would, without its rescan', () => {
    // gray-matter's comment check (`^\s*#[^\n]+`, multiline) ran from each line start over every
    // blank line after it: 50,000 blank lines took seconds, these 200,000 well over the test's limit.
    const blanks = ' \n'.repeat(200_000);
    const keyed = readFrontmatter(`---\n${blanks}title: Far down\n---\nbody\n`);
    expect(keyed).toMatchObject({ kind: 'ok', data: { title: 'Far down' } });
    expect(keyed.kind === 'ok' && keyed.keyLines.get('title')).toBe(200_002);
    // Only blanks and comments: no keys, as gray-matter's empty block gives; a bare `#` is not a comment to it.
    expect(readFrontmatter(`---\n${blanks}# a comment\n---\nbody\n`)).toMatchObject({ kind: 'ok', data: {} });
    expect(readFrontmatter(`---\n${blanks}#\n---\nbody\n`)).toMatchObject({ kind: 'ok', data: {} });
    expect(readFrontmatter(`---\n${blanks}not yaml\n---\nbody\n`)).toMatchObject({ kind: 'malformed', line: 200_002 });
    // Small blocks take gray-matter's own path and read the same.
    expect(readFrontmatter('---\n \n \ntitle: Near\n---\nbody\n')).toMatchObject({ kind: 'ok', data: { title: 'Near' } });
  });
});
