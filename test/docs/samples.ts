// The samples of the README and docs/, and what is wrong with each as a reader would copy it.
// Blocks are found as a markdown renderer finds them (marked's lexer: inside lists and quotes too),
// and each must name its language:
//   yaml   parses (a duplicate key is an error) and is one of two kinds: a `.wiki-steward.yml`
//          sample, whose first line says so and which the config reader loads, or a workflow (a
//          whole file, a job or a list of steps), which has the shape GitHub requires, runs the
//          published action by its major tag with inputs and values action.yml's reader takes and
//          environment variables the steward reads; a whole workflow is one of examples/workflows/;
//   sh     passes `bash -n`, and every `wiki-steward` command (however it is started) names a real
//          command, subcommand, flag and choice;
//   json   parses (jsonl: each line);
//   text   output and messages, not checked.
// Inline `wiki-steward …` code in the prose is checked as a shell line; links lead to files the
// repository holds, and their #anchors to headings those files have.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import yaml from 'js-yaml';
import { type Token, type Tokens, marked } from 'marked';
import { readInputs } from '../../src/action/inputs.js';
import { CONFIG_KEYS, parseConfig } from '../../src/config/config.js';
import { buildProgram } from '../../src/cli/program.js';
import { processIo } from '../../src/cli/context.js';
import { PROJECT_ROOT } from '../helpers/cli.js';
import { parseWorkflow, schemaProblems } from '../package/workflow-model.js';

/** The files the repository holds (tracked, or new and not ignored): what a link may lead to. */
const REPO_FILES = new Set(
  execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: PROJECT_ROOT, encoding: 'utf8' }).split('\0').filter(Boolean),
);
const REPO_DIRS = new Set(
  [...REPO_FILES].flatMap((f) =>
    f
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);

export const DOC_FILES = [...REPO_FILES]
  .filter((f) => /^(README|CONTRIBUTING|SECURITY|CHANGELOG)\.md$/.test(f) || (f.startsWith('docs/') && /\.(md|markdown)$/.test(f)))
  .sort();

export interface Sample {
  file: string;
  line: number;
  lang: string;
  text: string;
  /** Whether the block was closed (an unclosed fence swallows the rest of the file). */
  closed: boolean;
}

const tokensOf = (file: string, text = readFileSync(path.join(PROJECT_ROOT, file), 'utf8')) => ({ text, tokens: marked.lexer(text) });

/** Every code block of a markdown file, fenced or indented, wherever it sits. */
export function samplesOf(file: string, markdown?: string): Sample[] {
  const { text, tokens } = tokensOf(file, markdown);
  const samples: Sample[] = [];
  let from = 0;
  marked.walkTokens(tokens, (token) => {
    if (token.type !== 'code') return;
    const code = token as Tokens.Code;
    const at = text.indexOf(code.raw.split('\n')[0]!, from);
    from = at < 0 ? from : at + 1;
    const fenced = code.codeBlockStyle !== 'indented';
    const lastLine = code.raw.trimEnd().split('\n').at(-1)!.trim();
    samples.push({
      file,
      line: at < 0 ? 0 : text.slice(0, at).split('\n').length,
      lang: fenced ? (code.lang ?? '').split(/\s+/)[0]! : '',
      text: code.text.endsWith('\n') ? code.text : `${code.text}\n`,
      closed: !fenced || (code.raw.trimEnd().split('\n').length > 1 && /^(`{3,}|~{3,})$/.test(lastLine)),
    });
  });
  return samples;
}

const manifest = yaml.load(readFileSync(path.join(PROJECT_ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> };
const INPUTS = new Set(Object.keys(manifest.inputs));
/** The environment variables the steward reads: provider keys, SearXNG's address, Copilot's tokens. */
const STEWARD_ENV = new Set([
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'TAVILY_API_KEY',
  'BRAVE_API_KEY',
  'SEARXNG_URL',
  'COPILOT_GITHUB_TOKEN',
  'GH_TOKEN',
  'GITHUB_TOKEN',
]);
/** A step that means to run the steward, spelled right or not. */
const STEWARD_ISH = /^(\.\/|[\w.-]+\/wiki-stew)/i;
const PUBLISHED = 'wiki-steward/wiki-steward@v0';
const EXAMPLE_WORKFLOWS = readdirSync(path.join(PROJECT_ROOT, 'examples/workflows')).map((f) =>
  readFileSync(path.join(PROJECT_ROOT, 'examples/workflows', f), 'utf8'),
);

type Step = { uses?: unknown; with?: unknown; env?: unknown; [key: string]: unknown };

/** Every step in a parsed YAML value, wherever it sits. */
function stepsIn(value: unknown): Step[] {
  if (Array.isArray(value)) return value.flatMap(stepsIn);
  if (value === null || typeof value !== 'object') return [];
  const node = value as Step;
  return [...(typeof node.uses === 'string' || typeof node.run === 'string' ? [node] : []), ...Object.values(node).flatMap(stepsIn)];
}

/** The problems of one step that runs the steward. */
function stewardStepProblems(step: Step, where: string): string[] {
  const uses = String(step.uses);
  const problems: string[] = [];
  if (uses !== PUBLISHED && uses !== './') problems.push(`${where}: 'uses: ${uses}' is not the published action (${PUBLISHED})`);
  if (step.with !== undefined && (step.with === null || typeof step.with !== 'object' || Array.isArray(step.with)))
    problems.push(`${where}: 'with:' must be a mapping of inputs`);
  const given = (step.with ?? {}) as Record<string, unknown>;
  for (const input of Object.keys(given)) if (!INPUTS.has(input)) problems.push(`${where}: '${input}' is not an input of action.yml`);
  try {
    readInputs({ input: (name: string) => (given[name] === undefined ? '' : String(given[name])), env: {} } as never);
  } catch (error) {
    problems.push(`${where}: ${(error as Error).message}`);
  }
  for (const name of Object.keys((step.env ?? {}) as object)) if (!STEWARD_ENV.has(name)) problems.push(`${where}: the steward reads no variable '${name}'`);
  return problems;
}

/** A fragment as the whole workflow GitHub would see: a job or a list of steps wrapped in one. */
function asWorkflow(parsed: unknown): Record<string, unknown> | undefined {
  if (Array.isArray(parsed)) return { on: { push: null }, jobs: { sample: { 'runs-on': 'ubuntu-latest', steps: parsed } } };
  if (parsed === null || typeof parsed !== 'object') return undefined;
  const node = parsed as Record<string, unknown>;
  if ('jobs' in node || 'on' in node) return node;
  if ('steps' in node || 'runs-on' in node) return { on: { push: null }, jobs: { sample: node } };
  const values = Object.values(node);
  if (values.length > 0 && values.every((v) => v !== null && typeof v === 'object' && ('steps' in v || 'runs-on' in v)))
    return { on: { push: null }, jobs: node };
  return undefined;
}

const CONFIG_HEADER = '# .wiki-steward.yml\n';
/** Other tools' files a sample may be, named on its first line: parsed, and the steward commands in them checked. */
const OTHER_FILES = ['lefthook.yml', '.pre-commit-config.yaml'];
const commandsIn = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : value !== null && typeof value === 'object' ? Object.values(value).flatMap(commandsIn) : [];

/** The problems of a YAML sample: the text as the reader would paste it. */
export function yamlProblems(sample: Sample): string[] {
  const where = `${sample.file}:${sample.line}`;
  let parsed: unknown;
  try {
    parsed = yaml.load(sample.text, { filename: where });
  } catch (error) {
    return [`${where}: not valid YAML: ${(error as Error).message.split('\n')[0]}`];
  }
  if (sample.text.startsWith(CONFIG_HEADER)) {
    try {
      parseConfig(sample.text, where);
      return parsed && typeof parsed === 'object' ? [] : [`${where}: a .wiki-steward.yml sample with no settings`];
    } catch (error) {
      return [(error as Error).message];
    }
  }
  const other = OTHER_FILES.find((name) => sample.text.startsWith(`# ${name}\n`));
  if (other) return commandsIn(parsed).flatMap((line) => invocationProblems(line, `${where} (${other})`));
  const workflow = asWorkflow(parsed);
  if (!workflow) {
    const configKeys = Object.keys(CONFIG_KEYS);
    const looksLikeConfig = parsed !== null && typeof parsed === 'object' && Object.keys(parsed).some((k) => configKeys.includes(k));
    return [
      looksLikeConfig
        ? `${where}: a .wiki-steward.yml sample: start it with the line '# .wiki-steward.yml' so the config reader checks it`
        : `${where}: neither a workflow (a file, a job or steps), a .wiki-steward.yml sample ('# .wiki-steward.yml' first) nor one of ${OTHER_FILES.join(', ')} (named first)`,
    ];
  }
  const problems = schemaProblems(parseWorkflow(yaml.dump(workflow), where));
  for (const step of stepsIn(workflow)) if (typeof step.uses === 'string' && STEWARD_ISH.test(step.uses)) problems.push(...stewardStepProblems(step, where));
  if ('jobs' in (parsed as object) && 'on' in (parsed as object) && !EXAMPLE_WORKFLOWS.includes(sample.text))
    problems.push(`${where}: a whole workflow in the docs is one of examples/workflows/, embedded by npm run docs`);
  return problems;
}

/** Each command's options with their choices, by its name as typed (`ask`, `hooks install`); groups map to their subcommands. */
function commandTree(): { options: Map<string, Map<string, readonly string[] | undefined>>; groups: Map<string, string[]> } {
  const options = new Map<string, Map<string, readonly string[] | undefined>>();
  const groups = new Map<string, string[]>();
  const walk = (command: Command, prefix: string) => {
    for (const sub of command.commands) {
      const name = `${prefix}${sub.name()}`;
      if (sub.commands.length > 0)
        groups.set(
          name,
          sub.commands.map((c) => c.name()),
        );
      const flags = new Map<string, readonly string[] | undefined>([
        ['--help', undefined],
        ['-h', undefined],
      ]);
      for (const o of sub.options) for (const f of [o.long, o.short]) if (f) flags.set(f, o.argChoices);
      options.set(name, flags);
      walk(sub, `${name} `);
    }
  };
  walk(
    buildProgram(processIo(), () => {}),
    '',
  );
  return { options, groups };
}
const COMMANDS = commandTree();

const OPERATOR = /^(?:[;&|<>]+|#)$/;
/** Words of a shell line as the shell splits them, quotes removed; operators as words of their own; nothing after a comment. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/"(?:[^"\\]|\\.)*"|'[^']*'|(?:[^\s"'#;&|<>()`$]|\\.)+|[;&|<>]+|#|[()`$]/g)) {
    if (m[0] === '#') break;
    words.push(m[0].replace(/^(["'])([\s\S]*)\1$/, '$2'));
  }
  return words;
}

/** Words that start the steward: the bin however npm names it, or the built CLI run by node. */
const STARTS_STEWARD = (word: string, previous: string | undefined): boolean =>
  /^(?:.*\/)?wiki-steward(?:@[\w.^~-]+)?$/.test(word) ||
  /^github:wiki-steward\/wiki-steward(#.*)?$/.test(word) ||
  (previous === 'node' && /(^|\/)dist\/cli\.js$/.test(word));

/** The problems of one shell line's `wiki-steward` invocations. */
export function invocationProblems(line: string, where: string): string[] {
  const words = shellWords(line);
  const problems: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (!STARTS_STEWARD(words[i]!, words[i - 1]) || ['echo', 'printf'].includes(words[i - 1] ?? '')) continue;
    if (['install', 'i', 'add'].includes(words[i - 1] ?? '') || words[i - 2] === 'install') continue;
    let end = words.findIndex((w, k) => k > i && OPERATOR.test(w));
    if (end < 0) end = words.length;
    const rest = words.slice(i + 1, end);
    // Options before the command (`--wiki x validate`) are the program's: skip them and their values.
    let at = 0;
    while (at < rest.length && rest[at]!.startsWith('-')) at += rest[at]!.includes('=') ? 1 : 2;
    const first = rest[at];
    if (first === undefined || first === '…' || first === '--version' || first === '--help' || first === 'help') continue;
    let command = first;
    const group = COMMANDS.groups.get(first);
    if (group) {
      const sub = rest[at + 1];
      if (sub === undefined || !group.includes(sub)) {
        problems.push(`${where}: 'wiki-steward ${first} ${sub ?? ''}' is not a command (${first} has ${group.join(', ')})`);
        continue;
      }
      command = `${first} ${sub}`;
    }
    const options = COMMANDS.options.get(command);
    if (!options) {
      problems.push(`${where}: 'wiki-steward ${command}' is not a command`);
      continue;
    }
    const args = rest.slice(at + command.split(' ').length);
    for (let k = 0; k < args.length; k++) {
      const word = args[k]!;
      if (word === '--') break;
      if (!word.startsWith('-')) continue;
      const [flag, inline] = word.split(/=(.*)/s) as [string, string | undefined];
      if (!options.has(flag)) {
        problems.push(`${where}: 'wiki-steward ${command}' has no option ${flag}`);
        continue;
      }
      const choices = options.get(flag);
      const value = inline ?? args[k + 1];
      if (choices && value !== undefined && !choices.includes(value))
        problems.push(`${where}: 'wiki-steward ${command} ${flag}' takes ${choices.join(', ')}, not '${value}'`);
    }
  }
  return problems;
}

/** The problems of a shell sample: syntax, and every `wiki-steward` command and flag. */
export function shellProblems(sample: Sample): string[] {
  const where = `${sample.file}:${sample.line}`;
  const syntax = spawnSync('bash', ['-n'], { input: sample.text, encoding: 'utf8' });
  const problems = syntax.status === 0 ? [] : [`${where}: bash -n: ${syntax.stderr.trim()}`];
  for (const [offset, line] of sample.text.replace(/\\\n/g, ' ').split('\n').entries()) problems.push(...invocationProblems(line, `${where}+${offset}`));
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

/** Inline code in the prose that is a `wiki-steward …` command line. */
export function inlineCommandProblems(file: string, markdown?: string): string[] {
  const { tokens } = tokensOf(file, markdown);
  const problems: string[] = [];
  marked.walkTokens(tokens, (token) => {
    if (token.type === 'codespan' && /(^|\s)(npx\s+)?wiki-steward\s/.test((token as Tokens.Codespan).text))
      problems.push(
        ...invocationProblems(
          (token as Tokens.Codespan).text.replace(/&quot;/g, '"').replace(/&#39;/g, "'"),
          `${file}: \`${(token as Tokens.Codespan).text}\``,
        ),
      );
  });
  return problems;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(file: string): Set<string> {
  const { tokens } = tokensOf(file);
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  marked.walkTokens(tokens, (token) => {
    if (token.type !== 'heading') return;
    const plain = (token as Tokens.Heading).text
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase();
    const slug = plain.replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  });
  return anchors;
}

/** Links (inline, reference definitions, HTML href and src) to this repository that lead nowhere. */
export function brokenLinks(file: string, markdown?: string): string[] {
  const { tokens } = tokensOf(file, markdown);
  const targets: string[] = [];
  marked.walkTokens(tokens, (token: Token) => {
    if (token.type === 'link' || token.type === 'image') targets.push((token as Tokens.Link).href);
    if (token.type === 'def') targets.push((token as Tokens.Def).href);
    if (token.type === 'html') for (const m of (token as Tokens.HTML).raw.matchAll(/\b(?:href|src)="([^"]*)"/g)) targets.push(m[1]!);
  });
  for (const def of Object.values((tokens as unknown as { links: Record<string, { href: string }> }).links ?? {})) targets.push(def.href);
  const broken: string[] = [];
  for (const target of new Set(targets)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [pathPart, anchor] = target.split('#') as [string, string | undefined];
    const resolved =
      pathPart === ''
        ? file
        : path.posix.normalize(pathPart.startsWith('/') ? pathPart.slice(1) : path.posix.join(path.posix.dirname(file), decodeURI(pathPart)));
    if (resolved.startsWith('..') || !(REPO_FILES.has(resolved) || REPO_DIRS.has(resolved.replace(/\/$/, '')))) {
      broken.push(`${target} (no such file in the repository)`);
      continue;
    }
    if (anchor !== undefined && /\.md$/.test(resolved) && !/^L\d+/.test(anchor) && !anchorsOf(resolved).has(decodeURIComponent(anchor)))
      broken.push(`${target} (${resolved} has no heading #${anchor})`);
  }
  return broken;
}
