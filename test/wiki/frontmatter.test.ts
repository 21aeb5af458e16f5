import { describe, expect, it } from 'vitest';
import { readFrontmatter } from '../../src/wiki/frontmatter.js';

const differences = (block: string) => {
  const fm = readFrontmatter(`---\n${block}\n---\nBody\n`, { compareWithYaml: true });
  if (fm.kind !== 'ok') throw new Error(fm.kind);
  return fm.yamlDifferences.map((d) => [d.field, d.line]);
};

describe('frontmatter: the dialect beside standard YAML 1.2', () => {
  it('finds no difference on ordinary upstream frontmatter', () => {
    expect(differences('title: "Cache keys"\ntype: concepts\ntags: [api, cache]\nsources:\n  - raw/a.md\ncreated: "2026-05-01T10:00:00Z"\nquality:\n  accuracy: 4\n  overall: 3.25\n  rated_by: human')).toEqual([]);
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
