// The command tree of `wiki-steward`: parses arguments and hands each command to the core.
import { Command, InvalidArgumentError, Option } from 'commander';
import { ANSWERERS, SEARCH_PROVIDERS } from '../config/config.js';
import type { AskCommandOptions, AskFormat } from './ask-command.js';
import { type CliIo, EXIT, processIo, terminalSafe } from './context.js';
import { DIAGNOSTIC_FORMATS, type DiagnosticFormat } from '../report/diagnostics-format.js';

export const VERSION = '0.1.0';

/** Parses a count option: digits only, at least 1 (`0`, `-1`, `2.5`, `1e3`, `ten` are refused, naming the flag). */
const positiveWholeNumber = (value: string): number => {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('must be a whole number of at least 1');
  return n;
};

export function buildProgram(io: CliIo, setExit: (code: number) => void): Command {
  const run = (work: () => Promise<number>) => async () => setExit(await work());
  const program = new Command('wiki-steward')
    .description('Stewards markdown wikis kept in git: validates pages, builds index files, answers questions with verified citations.')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });

  // Each command's module loads only when that command runs, so start-up stays short for the hook.
  const hooksCommands = () => import('./hooks-command.js');
  program
    .command('validate')
    .description('check pages against the upstream karpathy-wiki rules (every page, or the PATHs given)')
    .argument('[paths...]', 'pages or folders to check, relative to the current directory')
    .option('--wiki <dir>', 'wiki root (default: .wiki-steward.yml, else wiki/, docs/wiki/ or .)')
    .addOption(new Option('--format <format>', 'output format').choices(DIAGNOSTIC_FORMATS as string[]).default('text'))
    .option('--changed-since <rev>', 'only pages changed since <rev> (from its merge base with HEAD; e.g. origin/main on a pull request)')
    .option('--summary', 'instead of the findings, counts by rule (errors, warnings) and the 5 folders with the most findings')
    .addOption(
      new Option('--max-findings <n>', 'list the first N findings and a line saying how many more (the exit code still counts every one)')
        .argParser(positiveWholeNumber)
        .conflicts('summary'),
    )
    .option('--suggest-config', "print a .wiki-steward.yml validate: block that fits the wiki's dialect, each setting with what it saw")
    .action(
      (
        paths: string[],
        opts: { wiki?: string; format: DiagnosticFormat; changedSince?: string; summary?: boolean; maxFindings?: number; suggestConfig?: boolean },
      ) =>
        run(async () =>
          (await import('./validate-command.js')).validateCommand(io, {
            paths,
            format: opts.format,
            summary: Boolean(opts.summary),
            suggestConfig: Boolean(opts.suggestConfig),
            ...(opts.wiki ? { wiki: opts.wiki } : {}),
            ...(opts.changedSince ? { changedSince: opts.changedSince } : {}),
            ...(opts.maxFindings !== undefined ? { maxFindings: opts.maxFindings } : {}),
          }),
        )(),
    );

  program
    .command('ask')
    .description('answer a question from the wiki with verified citations and the trace of how (offline unless --llm)')
    .argument('[question]', 'the question, in quotes')
    .option('--wiki <dir>', 'wiki root')
    .addOption(
      new Option(
        '--format <format>',
        'text (for terminals: the answer and a short trace), markdown (the answer and the folded trace, as the Action posts it) or json (the trace)',
      )
        .choices(['text', 'markdown', 'json'] satisfies AskFormat[])
        .default('text'),
    )
    .option('--json', 'the same as --format json')
    .option('--questions <file>', 'a JSONL file of {"id", "question"} objects: one JSON result per line, same order, whatever the format')
    .option('--inline-max <n>', 'read up to N candidates inline, explore above (default 5)', positiveWholeNumber)
    .addOption(
      new Option(
        '--llm <answerer>',
        'offline (no network; the default), openai (any OpenAI-compatible server), anthropic, or copilot (GitHub Copilot through its CLI)',
      ).choices(ANSWERERS),
    )
    .option('--llm-base-url <url>', 'model endpoint, e.g. http://localhost:11434/v1 for Ollama (Anthropic: without /v1)')
    .option('--llm-model <name>', 'model name (copilot: gpt-5-mini by default)')
    .option('--copilot-cli-path <path>', 'the Copilot CLI for --llm copilot (default: copilot on PATH)')
    .option('--llm-terms', "with a model: one more call per question for its signal terms in the wiki's words (config answerer.propose_terms)")
    .addOption(new Option('--web <provider>', 'web search for what the wiki lacks (default none)').choices(SEARCH_PROVIDERS))
    .option('--web-base-url <url>', 'search endpoint (self-hosted SearXNG, proxies); SEARXNG_URL is the default for searxng')
    .option('--capture', 'for a cold or gap outcome, write the capture (and its index files) into the local wiki')
    .option('--no-cache', "load the wiki afresh: neither read nor write the catalog snapshot (in git's directory, or config cache.dir)")
    .action((question: string | undefined, opts: AskCommandOptions & { json?: boolean }, command: Command) =>
      run(async () => {
        const { json, ...rest } = opts;
        if (json && command.getOptionValueSource('format') === 'cli' && opts.format !== 'json')
          throw new Error(`--json is --format json, not --format ${opts.format}`);
        return (await import('./ask-command.js')).askCommand(io, question, { ...rest, format: json ? 'json' : opts.format, stewardVersion: VERSION });
      })(),
    );

  program
    .command('index')
    .description('write every index.md and _index.md exactly as upstream wiki-build-index.py --rebuild-all does')
    .option('--wiki <dir>', 'wiki root')
    .option('--check', 'change nothing; print a unified diff of stale index files and exit 1 if any')
    .action((opts: { wiki?: string; check?: boolean }) =>
      run(async () => (await import('./index-command.js')).indexCommand(io, { check: Boolean(opts.check), ...(opts.wiki ? { wiki: opts.wiki } : {}) }))(),
    );

  program
    .command('digest')
    .description("the period's digest: questions and outcomes, what to write next, capture PRs, feedback, wiki health")
    .option('--wiki <dir>', 'wiki root')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--period <label>', 'a week like 2026-W49 or a month like 2026-11 (default: the current one, per digest.period)')
    .option('--repo <owner/name>', "also read the steward's answer comments and capture PRs (token from GITHUB_TOKEN, API from GITHUB_API_URL)")
    .option('--post', "with --repo: create or update the period's digest issue")
    .action((opts: { wiki?: string; format: 'text' | 'json'; period?: string; repo?: string; post?: boolean }) =>
      run(async () =>
        (await import('./digest-command.js')).digestCommand(io, {
          format: opts.format,
          post: Boolean(opts.post),
          ...(opts.wiki ? { wiki: opts.wiki } : {}),
          ...(opts.period ? { period: opts.period } : {}),
          ...(opts.repo ? { repo: opts.repo } : {}),
        }),
      )(),
    );

  const hooks = program.command('hooks').description('git hooks that validate staged pages and regenerate their indexes');
  hooks
    .command('install')
    .description('install the pre-commit hook (respects core.hooksPath, chains an existing hook)')
    .action(() => run(async () => (await hooksCommands()).hooksInstallCommand(io))());
  hooks
    .command('uninstall')
    .description('remove the pre-commit hook and restore any hook it chained')
    .action(() => run(async () => (await hooksCommands()).hooksUninstallCommand(io))());
  hooks
    .command('pre-commit')
    .description('what the installed hook runs: validate staged pages, regenerate and stage their indexes')
    .action(() => run(async () => (await hooksCommands()).preCommitCommand(io))());
  return program;
}

/** Runs the CLI and returns its exit code; errors become messages, never stack traces. */
export async function main(argv: string[], rawIo: CliIo = processIo()): Promise<number> {
  const io = terminalSafe(rawIo);
  let code: number = EXIT.ok;
  const program = buildProgram(io, (c) => (code = c));
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    const e = error as { code?: string; exitCode?: number; message: string };
    if (e.code?.startsWith('commander.')) return e.code === 'commander.helpDisplayed' || e.code === 'commander.version' ? EXIT.ok : EXIT.usage;
    io.stderr(`wiki-steward: ${e.message}`);
    return EXIT.usage;
  }
  return code;
}
