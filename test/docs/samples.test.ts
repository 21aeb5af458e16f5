// Every sample in the README and docs/ is one a reader can copy (the checks: samples.ts), and
// every relative link leads to a file that exists.
import { describe, expect, it } from 'vitest';
import {
  CHECKS,
  DOC_FILES,
  SHOWN,
  type Sample,
  brokenLinks,
  inlineCommandProblems,
  invocationProblems,
  jsonProblems,
  samplesOf,
  shellProblems,
  yamlProblems,
} from './samples.js';

const SAMPLES = DOC_FILES.flatMap((file) => samplesOf(file));

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

  it.each(DOC_FILES)('%s: every block is closed', (file) => {
    expect(
      samplesOf(file)
        .filter((s) => !s.closed)
        .map((s) => `${s.file}:${s.line}`),
    ).toEqual([]);
  });

  it.each(DOC_FILES)('%s: every `wiki-steward …` in the prose is a real command with real flags', (file) => {
    expect(inlineCommandProblems(file)).toEqual([]);
  });

  it.each(DOC_FILES)('%s: every link into the repository leads to a file it holds, and to a heading that file has', (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });
});

describe('the checks catch what a reader would trip on', () => {
  const sample = (lang: string, text: string): Sample => ({ file: 'x.md', line: 1, lang, text, closed: true });
  it('a duplicate key, a key the config reader does not know, an input action.yml does not have', () => {
    expect(yamlProblems(sample('yaml', 'labels:\n  trigger: q\nlabels:\n  gap: g\n'))[0]).toMatch(/duplicated mapping key/);
    expect(yamlProblems(sample('yaml', '# .wiki-steward.yml\nladder:\n  inline: 3\n'))[0]).toMatch(/unknown key 'ladder.inline'/);
    expect(yamlProblems(sample('yaml', 'ladder:\n  inline: 3\n'))[0]).toMatch(/start it with the line '# .wiki-steward.yml'/);
    expect(yamlProblems(sample('yaml', '- uses: wiki-steward/wiki-steward@v0\n  with:\n    wiki: docs\n'))).toEqual([
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
  it('a config sample that does not say so, a step that is not the published action, an input value or variable the steward does not take', () => {
    expect(yamlProblems(sample('yaml', 'ask:\n  min_permission: superuser\nlabel: x\n'))[0]).toMatch(/start it with the line '# .wiki-steward.yml'/);
    expect(yamlProblems(sample('yaml', 'steward:\n  ask: {}\n'))[0]).toMatch(/neither a workflow/);
    expect(yamlProblems(sample('yaml', '- uses: wiki-steward/wiki-stewart@v0\n'))[0]).toMatch(/is not the published action/);
    expect(yamlProblems(sample('yaml', '- uses: wiki-steward/wiki-steward@v0\n  with:\n    llm: gpt\n'))[0]).toMatch(/input 'llm' must be one of/);
    expect(yamlProblems(sample('yaml', '- uses: wiki-steward/wiki-steward@v0\n  env:\n    OPENAI_KEY: x\n'))[0]).toMatch(/reads no variable 'OPENAI_KEY'/);
    expect(yamlProblems(sample('yaml', 'answer:\n  runson: ubuntu-latest\n  steps:\n    - run: echo\n'))).toContain(
      "x.md:1: job 'answer': unknown key 'runson'",
    );
    expect(yamlProblems(sample('yaml', 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n'))[0]).toMatch(
      /one of examples\/workflows/,
    );
  });
  it('the steward started any way, a bad subcommand or choice; not a word in an echo', () => {
    const at = (line: string) => invocationProblems(line, 'x');
    expect(at('npx --yes wiki-steward@latest lint')).toEqual(["x: 'wiki-steward lint' is not a command"]);
    expect(at('node dist/cli.js validate --fix')).toEqual(["x: 'wiki-steward validate' has no option --fix"]);
    expect(at('npx wiki-steward hooks instal')[0]).toMatch(/is not a command \(hooks has install, uninstall, pre-commit\)/);
    expect(at('wiki-steward validate --format xml')).toEqual(["x: 'wiki-steward validate --format' takes text, json, github, not 'xml'"]);
    expect(at('wiki-steward ask --llm=gpt "q"')[0]).toMatch(/takes offline, openai/);
    expect(at('echo wiki-steward lint; wiki-steward help ask; wiki-steward ask -- --not-a-flag')).toEqual([]);
    expect(inlineCommandProblems('x.md', 'Run `npx wiki-steward lint` first.\n')).toEqual([
      "x.md: `npx wiki-steward lint`: 'wiki-steward lint' is not a command",
    ]);
  });
  it('a link to a missing file or heading, however it is written; an unclosed block', () => {
    const text =
      '[a](docs/cli.md#no-such-heading) [b][r] [c](docs/nope.md "t") <a href="nope.md">d</a> [e](/etc/hosts) [f](docs/cli.md#commands)\n\n[r]: docs/nope2.md\n';
    expect(brokenLinks('README.md', text).sort()).toEqual([
      '/etc/hosts (no such file in the repository)',
      'docs/cli.md#no-such-heading (docs/cli.md has no heading #no-such-heading)',
      'docs/nope.md (no such file in the repository)',
      'docs/nope2.md (no such file in the repository)',
      'nope.md (no such file in the repository)',
    ]);
    expect(samplesOf('x.md', '```text\nnever closed\n\n```sh\nls\n')[0]?.closed).toBe(false);
  });
  it('JSON that does not parse', () => {
    expect(jsonProblems(sample('jsonl', '{"id": 1}\n{"id": \n'))).toHaveLength(1);
  });
});
