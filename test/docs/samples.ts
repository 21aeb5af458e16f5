// The fenced samples of the README and docs/, and what is wrong with each as a reader would copy
// it: YAML that does not parse (a duplicate key is an error), a `.wiki-steward.yml` the config
// reader refuses, a workflow GitHub would refuse or with an input action.yml lacks, a shell line
// that does not parse or names a command or flag that does not exist, JSON that does not parse.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import yaml from 'js-yaml';
import { CONFIG_KEYS, parseConfig } from '../../src/config/config.js';
import { buildProgram } from '../../src/cli/program.js';
import { processIo } from '../../src/cli/context.js';
import { closesFence, fenceOpening, indentation } from '../../src/markdown/code.js';
import { PROJECT_ROOT } from '../helpers/cli.js';
import { parseWorkflow, schemaProblems } from '../package/workflow-model.js';

export const DOC_FILES = [
  'README.md',
  'CONTRIBUTING.md',
  'SECURITY.md',
  ...readdirSync(path.join(PROJECT_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
].filter((f) => existsSync(path.join(PROJECT_ROOT, f)));

export interface Sample {
  file: string;
  line: number;
  lang: string;
  text: string;
}

/** The fenced blocks of a markdown file, their content outdented by the fence's own indentation. */
export function samplesOf(file: string): Sample[] {
  const lines = readFileSync(path.join(PROJECT_ROOT, file), 'utf8').split('\n');
  const samples: Sample[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = fenceOpening(lines[i]!);
    if (!fence) continue;
    const { end } = indentation(lines[i]!);
    const lang =
      lines[i]!.slice(end)
        .replace(/^[`~]+/, '')
        .trim()
        .split(/\s+/)[0] ?? '';
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !closesFence(lines[j]!, fence); j++) body.push(lines[j]!.slice(Math.min(end, indentation(lines[j]!).end)));
    samples.push({ file, line: i + 1, lang, text: body.join('\n') + '\n' });
    i = j;
  }
  return samples;
}

const manifest = yaml.load(readFileSync(path.join(PROJECT_ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> };
const INPUTS = new Set(Object.keys(manifest.inputs));
const STEWARD = /^(\.\/|wiki-steward\/wiki-steward@)/;

/** Every step in a parsed YAML value that runs the steward, wherever it sits (a whole workflow or a job's fragment). */
function stewardSteps(value: unknown): Array<{ uses: string; with?: Record<string, unknown> }> {
  if (Array.isArray(value)) return value.flatMap(stewardSteps);
  if (value === null || typeof value !== 'object') return [];
  const node = value as Record<string, unknown>;
  const own = typeof node.uses === 'string' && STEWARD.test(node.uses) ? [node as { uses: string; with?: Record<string, unknown> }] : [];
  return [...own, ...Object.values(node).flatMap(stewardSteps)];
}

/** The problems of a YAML sample: the text as the reader would paste it. */
export function yamlProblems(sample: Sample): string[] {
  const where = `${sample.file}:${sample.line}`;
  let parsed: unknown;
  try {
    parsed = yaml.load(sample.text, { filename: where });
  } catch (error) {
    return [`${where}: not valid YAML: ${(error as Error).message.split('\n')[0]}`];
  }
  const problems: string[] = [];
  const configKeys = Object.keys(CONFIG_KEYS);
  const looksLikeConfig = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) && Object.keys(parsed).every((k) => configKeys.includes(k));
  if (looksLikeConfig && !sample.text.startsWith('# .wiki-steward.yml\n'))
    problems.push(`${where}: a .wiki-steward.yml sample: start it with the line '# .wiki-steward.yml' so the config reader checks it`);
  if (sample.text.startsWith('# .wiki-steward.yml\n')) {
    try {
      parseConfig(sample.text, where);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  for (const step of stewardSteps(parsed))
    for (const input of Object.keys(step.with ?? {})) if (!INPUTS.has(input)) problems.push(`${where}: '${input}' is not an input of action.yml`);
  if (parsed && typeof parsed === 'object' && 'jobs' in parsed && 'on' in parsed) problems.push(...schemaProblems(parseWorkflow(sample.text, where)));
  return problems;
}

/** Each command's options, by its name as typed (`ask`, `hooks install`). */
function commandOptions(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const walk = (command: Command, prefix: string) => {
    for (const sub of command.commands) {
      const name = `${prefix}${sub.name()}`;
      found.set(name, new Set(['--help', '-h', ...sub.options.flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f)))]));
      walk(sub, `${name} `);
    }
  };
  walk(
    buildProgram(processIo(), () => {}),
    '',
  );
  return found;
}
const COMMANDS = commandOptions();

/** Words of a shell line as the shell splits them, up to a comment or the end of the command. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/"(?:[^"\\]|\\.)*"|'[^']*'|(?:[^\s"'#;&|<>]|\\.)+|[#;&|<>]/g)) {
    if (/^[#;&|<>]$/.test(m[0])) {
      words.push(m[0]);
      if (m[0] === '#') break;
    } else words.push(m[0]);
  }
  return words;
}

/** The problems of a shell sample: syntax, and every `wiki-steward` command and flag. */
export function shellProblems(sample: Sample): string[] {
  const where = `${sample.file}:${sample.line}`;
  const syntax = spawnSync('bash', ['-n'], { input: sample.text, encoding: 'utf8' });
  const problems = syntax.status === 0 ? [] : [`${where}: bash -n: ${syntax.stderr.trim()}`];
  for (const [offset, line] of sample.text.replace(/\\\n/g, ' ').split('\n').entries()) {
    const words = shellWords(line);
    for (let i = words.indexOf('wiki-steward'); i >= 0; i = words.indexOf('wiki-steward', i + 1)) {
      const rest = words.slice(i + 1, words.findIndex((w, k) => k > i && /^[#;&|<>]$/.test(w)) >>> 0);
      const command = COMMANDS.has(`${rest[0]} ${rest[1]}`) ? `${rest[0]} ${rest[1]}` : rest[0];
      if (command === undefined || command === '--version' || command === '--help') continue;
      const options = COMMANDS.get(command);
      if (!options) {
        problems.push(`${where}+${offset}: 'wiki-steward ${command}' is not a command`);
        continue;
      }
      for (const word of rest.filter((w) => w.startsWith('-')))
        if (!options.has(word.split('=')[0]!)) problems.push(`${where}+${offset}: 'wiki-steward ${command}' has no option ${word}`);
    }
  }
  return problems;
}

export function jsonProblems(sample: Sample): string[] {
  const where = `${sample.file}:${sample.line}`;
  const documents = sample.lang === 'jsonl' ? sample.text.split('\n').filter((l) => l.trim() !== '') : [sample.text];
  return documents.flatMap((doc) => {
    try {
      JSON.parse(doc);
      return [];
    } catch (error) {
      return [`${where}: not valid JSON: ${(error as Error).message}`];
    }
  });
}

/** Languages read as prose, not run: output, messages, markdown shown as markdown. */
export const SHOWN = new Set(['text', 'markdown', 'diff']);
export const CHECKS: Record<string, (sample: Sample) => string[]> = {
  yaml: yamlProblems,
  yml: yamlProblems,
  sh: shellProblems,
  bash: shellProblems,
  shell: shellProblems,
  json: jsonProblems,
  jsonl: jsonProblems,
};
