// Acceptance against upstream: on the compat corpus (a copy of ../shared/compat), the index files
// written are byte-identical to upstream's, and every page's verdict and set of faults (by kind
// and field) equal upstream's validator output.
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/config.js';
import { planIndexFiles } from '../../src/wiki/index-files.js';
import { openWikiLayout } from '../../src/wiki/open.js';
import { validateWiki } from '../../src/wiki/validator.js';
import { writeWikiFileAtomically } from '../../src/wiki/write-files.js';

const compat = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/compat');
let wiki: string;

beforeAll(async () => {
  wiki = await mkdtemp(path.join(os.tmpdir(), 'ws-compat-'));
  await cp(path.join(compat, 'wiki'), wiki, { recursive: true });
});
afterAll(() => rm(wiki, { recursive: true, force: true, maxRetries: 5 }));

async function expectedIndexFiles(): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  const entries = await readdir(path.join(compat, 'expected'), { recursive: true });
  return entries
    .filter((e) => e.endsWith('index.md'))
    .map((e) => e.split(path.sep).join('/'))
    .sort();
}

describe('index builder on the compat corpus', () => {
  it('writes exactly the files upstream writes, byte for byte', async () => {
    const layout = await openWikiLayout(wiki, DEFAULT_CONFIG);
    const plans = await planIndexFiles(layout, { policy: 'auto' });
    expect(plans.map((p) => p.path).sort()).toEqual(await expectedIndexFiles());
    expect(plans.every((p) => p.status === 'missing')).toBe(true);
    for (const plan of plans) {
      await writeWikiFileAtomically(wiki, plan.path, plan.expected);
      const expected = await readFile(path.join(compat, 'expected', plan.path), 'utf8');
      expect(await readFile(path.join(wiki, plan.path), 'utf8'), plan.path).toBe(expected);
    }
  });

  it('then finds every index file fresh', async () => {
    const layout = await openWikiLayout(wiki, DEFAULT_CONFIG);
    const plans = await planIndexFiles(layout, { policy: 'auto' });
    expect(plans.filter((p) => p.status !== 'fresh')).toEqual([]);
  });
});

/** Upstream's message → the fault kind and field our validator reports for it. */
function upstreamFault(message: string): string {
  const rules: Array<[RegExp, (m: RegExpExecArray) => string]> = [
    [/page at depth \d+ exceeds hard cap/, () => 'too-deep'],
    [/^(created|updated) must be ISO-8601/, (m) => `bad-date:${m[1]}`],
    [/^quality\.rated_at must be ISO-8601/, () => 'bad-date:quality.rated_at'],
    [/^quality\.(\w+) must be int 1\.\.5/, (m) => `score-out-of-range:quality.${m[1]}`],
    [/^quality\.overall must be mean/, () => 'overall-mismatch:quality.overall'],
    [/^quality\.overall not numeric/, () => 'overall-not-numeric:quality.overall'],
    [/^quality\.rated_by must be one of/, () => 'unknown-rater:quality.rated_by'],
    [/^broken markdown link: (.+)$/, (m) => `broken-link:${m[1]}`],
    [/^missing required field: (\w+)$/, (m) => `missing-field:${m[1]}`],
    [/^missing quality\.(\w+)$/, (m) => `missing-field:quality.${m[1]}`],
    [/^sources entry does not exist on disk/, () => 'missing-source:sources'],
    [/^tags must be a list/, () => 'tags-not-list:tags'],
    [/^every tag must be a string/, () => 'tag-not-string:tags'],
    [/^sources must be a flat list/, () => 'sources-not-list:sources'],
    [/^sources entries must be flat strings, got nested mapping/, () => 'nested-source:sources'],
    [/^sources entries must be strings/, () => 'source-not-string:sources'],
    [/^type '.*' not in discovered categories/, () => 'type-not-category:type'],
    [/^type '.*' != path\.parts\[0\]/, () => 'type-path-mismatch:type'],
    [/^no YAML frontmatter/, () => 'no-frontmatter'],
    [/^malformed frontmatter/, () => 'malformed-frontmatter'],
    [/^quality must be a nested mapping/, () => 'quality-not-mapping:quality'],
  ];
  for (const [pattern, kind] of rules) {
    const m = pattern.exec(message);
    if (m) return kind(m);
  }
  throw new Error(`unmapped upstream message: ${message}`);
}

async function upstreamVerdicts(): Promise<Map<string, { pass: boolean; faults: string[] }>> {
  const text = await readFile(path.join(compat, 'expected/validate.txt'), 'utf8');
  const verdicts = new Map<string, { pass: boolean; faults: string[] }>();
  let current: { pass: boolean; faults: string[] } | undefined;
  for (const line of text.split('\n')) {
    const head = /^(PASS|FAIL) (.+)$/.exec(line);
    if (head) {
      current = { pass: head[1] === 'PASS', faults: [] };
      verdicts.set(head[2]!, current);
    } else if (line.trim() !== '') {
      const message = line.trim().replace(/^[^:]+\.md: /, '');
      current!.faults.push(upstreamFault(message));
    }
  }
  return verdicts;
}

describe('validator on the compat corpus', () => {
  it("gives upstream's verdict and faults for every page", async () => {
    const upstream = await upstreamVerdicts();
    const layout = await openWikiLayout(wiki, DEFAULT_CONFIG);
    const { diagnostics, checked } = await validateWiki(layout);
    expect([...checked].sort()).toEqual([...upstream.keys()].sort());
    for (const [page, verdict] of upstream) {
      const errors = diagnostics.filter((d) => d.path === page && d.severity === 'error');
      const ours = errors.map((d) => (d.field !== undefined ? `${d.code}:${d.field}` : d.code)).sort();
      expect({ page, pass: errors.length === 0, faults: ours }).toEqual({ page, pass: verdict.pass, faults: [...verdict.faults].sort() });
    }
  });

  it('points each fault at the line of its field or link', async () => {
    const layout = await openWikiLayout(wiki, DEFAULT_CONFIG);
    const { diagnostics } = await validateWiki(layout);
    const at = (page: string, code: string) => diagnostics.find((d) => d.path === page && d.code === code)?.line;
    expect(at('concepts/bad-date.md', 'bad-date')).toBe(6);
    expect(at('concepts/bad-quality.md', 'unknown-rater')).toBe(15);
    expect(at('concepts/broken-link.md', 'broken-link')).toBe(17);
    expect(at('concepts/no-frontmatter.md', 'no-frontmatter')).toBe(1);
  });
});
