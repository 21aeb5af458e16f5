// Every sample in the README and docs/ is one a reader can copy (the checks: samples.ts), and
// every relative link leads to a file that exists.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blankCode } from '../../src/markdown/code.js';
import { markdownLinks } from '../../src/markdown/links.js';
import { PROJECT_ROOT } from '../helpers/cli.js';
import { CHECKS, DOC_FILES, SHOWN, type Sample, jsonProblems, samplesOf, shellProblems, yamlProblems } from './samples.js';

const SAMPLES = DOC_FILES.flatMap(samplesOf);

describe('every sample in the README and docs/', () => {
  it('finds the samples it checks', () => {
    expect(SAMPLES.filter((s) => s.lang === 'yaml').length).toBeGreaterThanOrEqual(4);
    expect(SAMPLES.filter((s) => s.lang === 'sh').length).toBeGreaterThan(2);
  });

  it('says what it is: a language that is checked, or text', () => {
    const unnamed = SAMPLES.filter((s) => !(s.lang in CHECKS) && !SHOWN.has(s.lang)).map((s) => `${s.file}:${s.line}: \`\`\`${s.lang}`);
    expect(unnamed).toEqual([]);
  });

  it.each(Object.keys(CHECKS))('```%s blocks are valid', (lang) => {
    const problems = SAMPLES.filter((s) => s.lang === lang).flatMap((s) => CHECKS[lang]!(s));
    expect(problems).toEqual([]);
  });

  it.each(DOC_FILES)('%s: every relative link leads to a file that exists', (file) => {
    const text = blankCode(readFileSync(path.join(PROJECT_ROOT, file), 'utf8'));
    const broken = markdownLinks(text)
      .map((l) => l.target)
      .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('#'))
      .filter((t) => !existsSync(path.resolve(path.dirname(path.join(PROJECT_ROOT, file)), decodeURIComponent(t.split('#')[0]!))));
    expect(broken).toEqual([]);
  });
});

describe('the checks catch what a reader would trip on', () => {
  const sample = (lang: string, text: string): Sample => ({ file: 'x.md', line: 1, lang, text });
  it('a duplicate key, a key the config reader does not know, an input action.yml does not have', () => {
    expect(yamlProblems(sample('yaml', 'labels:\n  trigger: q\nlabels:\n  gap: g\n'))[0]).toMatch(/duplicated mapping key/);
    expect(yamlProblems(sample('yaml', '# .wiki-steward.yml\nladder:\n  inline: 3\n'))[0]).toMatch(/unknown key 'ladder.inline'/);
    expect(yamlProblems(sample('yaml', 'ladder:\n  inline: 3\n'))[0]).toMatch(/start it with the line '# .wiki-steward.yml'/);
    expect(yamlProblems(sample('yaml', 'steps:\n  - uses: wiki-steward/wiki-steward@v0\n    with:\n      wiki: docs\n'))).toEqual([
      "x.md:1: 'wiki' is not an input of action.yml",
    ]);
  });
  it('a shell syntax error, a command or flag that does not exist', () => {
    expect(shellProblems(sample('sh', 'if true; then\n'))[0]).toMatch(/bash -n/);
    expect(shellProblems(sample('sh', 'npx wiki-steward lint\n'))).toEqual(["x.md:1+0: 'wiki-steward lint' is not a command"]);
    expect(shellProblems(sample('sh', 'npx wiki-steward validate --fix  # --nope is a comment\n'))).toEqual([
      "x.md:1+0: 'wiki-steward validate' has no option --fix",
    ]);
    expect(shellProblems(sample('sh', 'npx wiki-steward hooks install && wiki-steward ask --json "q" | jq .\n'))).toEqual([]);
  });
  it('JSON that does not parse', () => {
    expect(jsonProblems(sample('jsonl', '{"id": 1}\n{"id": \n'))).toHaveLength(1);
  });
});
