import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type AskSession, askQuestion, openAskSession } from '../answer/ask.js';
import { createProviders, providerOptions } from '../answer/providers.js';
import { capturesOutcome, planCapture } from '../capture/capture-plan.js';
import type { AnswererChoice, SearchChoice } from '../config/config.js';
import type { Workspace } from '../config/workspace.js';
import { workspaceIndexProvenance } from '../wiki/index-provenance.js';
import { loadFileTree } from '../wiki/tree.js';
import { writeWikiFileAtomically } from '../wiki/write-files.js';
import type { Trace } from '../answer/trace.js';
import { traceSummary } from '../answer/render.js';
import { DEFAULT_WIDTH, renderAskText } from './ask-text.js';
import { type CliIo, EXIT, openCliWorkspace } from './context.js';

/** How `ask` prints one answer: `text` for terminals, `markdown` as the Action posts it, `json` the trace. */
export const ASK_FORMATS = ['text', 'markdown', 'json'] as const;
export type AskFormat = (typeof ASK_FORMATS)[number];

/** `ask`'s flags as commander parses them (`--json` is `format: 'json'`). */
export interface AskCommandOptions {
  wiki?: string;
  format: AskFormat;
  questions?: string;
  inlineMax?: number;
  llm?: AnswererChoice;
  llmBaseUrl?: string;
  llmModel?: string;
  llmTerms?: boolean;
  copilotCliPath?: string;
  web?: SearchChoice;
  webBaseUrl?: string;
  /** Write a capture into the local wiki for cold and gap outcomes. */
  capture?: boolean;
  /** `--no-cache` makes it false: the catalog is loaded afresh and no snapshot is kept. */
  cache?: boolean;
  /** The steward's version, which the catalog snapshot is kept for (set by program.ts, not a flag). */
  stewardVersion?: string;
}

export async function askCommand(io: CliIo, question: string | undefined, options: AskCommandOptions): Promise<number> {
  if (!question && !options.questions) throw new Error('ask needs a question, or --questions FILE.jsonl');
  if (question && options.questions) throw new Error('give either a question or --questions, not both');
  const { llm, llmBaseUrl, llmModel, llmTerms, copilotCliPath, web, webBaseUrl, inlineMax } = options;
  const workspace = await openCliWorkspace(io, options.wiki, { llm, llmBaseUrl, llmModel, llmTerms, copilotCliPath, web, webBaseUrl, inlineMax });
  const providers = createProviders(providerOptions(workspace.config, io.env, io.clock));
  try {
    const { cache = true, stewardVersion } = options;
    const session = await openAskSession(workspace, providers, cache && stewardVersion !== undefined ? { catalogCache: { stewardVersion } } : {});
    try {
      if (options.questions) return await askBatch(io, session, options.questions);
      const trace = await askQuestion(session, question!);
      io.stdout(renderAsk(trace, options.format, io.columns ?? DEFAULT_WIDTH));
      if (options.capture) await captureLocally(io, workspace, trace);
      return trace.outcome === 'error' ? EXIT.faults : EXIT.ok;
    } finally {
      // The catalog's snapshot is written once the answers are out: nobody waits on it to read them.
      await session.catalog?.persist();
    }
  } finally {
    await providers.close();
  }
}

/** One JSON object per input line, in order, each carrying the input's `id` and other fields. */
async function askBatch(io: CliIo, session: AskSession, file: string): Promise<number> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await readFile(path.resolve(io.cwd, file)));
  } catch (error) {
    if (error instanceof TypeError) throw new Error(`${file}: not UTF-8 text (save the question file as UTF-8)`);
    throw error;
  }
  const inputs = parseQuestionLines(file, text);
  let failed = false;
  for (const input of inputs) {
    const trace = await askQuestion(session, input.question, { id: input.id });
    failed ||= trace.outcome === 'error';
    io.stdout(JSON.stringify({ ...input, ...trace }));
  }
  return failed ? EXIT.faults : EXIT.ok;
}

/** Lines of a question file reported by number, at most this many (the count says how many more). */
const MAX_REPORTED_LINES = 20;

/**
 * The question file's objects, in order (blank lines skipped; the decoder has dropped a leading
 * byte order mark). Every line is checked before any question is asked: a bad line ends the run
 * with every bad line named and nothing printed, not with half the answers.
 */
function parseQuestionLines(file: string, text: string): Array<Record<string, unknown> & { question: string }> {
  const inputs: Array<Record<string, unknown> & { question: string }> = [];
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      problems.push(`${file}:${i + 1}: not JSON: ${(error as Error).message}`);
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) problems.push(`${file}:${i + 1}: not a JSON object`);
    else if (typeof (value as { question?: unknown }).question !== 'string' || (value as { question: string }).question.trim() === '') {
      problems.push(`${file}:${i + 1}: "question" must be a non-empty string`);
    } else inputs.push(value as Record<string, unknown> & { question: string });
  });
  if (problems.length === 1) throw new Error(`${problems[0]} (nothing was answered)`);
  if (problems.length > 1) {
    const more = problems.length > MAX_REPORTED_LINES ? [`… and ${problems.length - MAX_REPORTED_LINES} more`] : [];
    throw new Error(
      [`${problems.length} lines of ${file} cannot be asked; nothing was answered:`, ...problems.slice(0, MAX_REPORTED_LINES), ...more].join('\n'),
    );
  }
  return inputs;
}

function renderAsk(trace: Trace, format: AskFormat, width: number): string {
  if (format === 'json') return JSON.stringify(trace, null, 2);
  return format === 'markdown' ? renderMarkdown(trace) : renderAskText(trace, width);
}

/** The answer as the issue comment will show it, then the folded trace. */
export function renderMarkdown(trace: Trace): string {
  const lines = [trace.answer, '', `<details><summary>How this was answered</summary>`, '', ...traceSummary(trace), '', '</details>'];
  return lines.join('\n');
}

/** `ask --capture`: the capture a pull request would add, written into the local wiki instead. */
async function captureLocally(io: CliIo, workspace: Workspace, trace: Trace): Promise<void> {
  if (!capturesOutcome(trace.outcome)) {
    io.stderr(`no capture: the outcome is ${trace.outcome}`);
    return;
  }
  const wikiRoot = workspace.wikiRoot ?? path.join(workspace.repoRoot, 'wiki');
  const tree = workspace.wikiRoot ? await loadFileTree(workspace.wikiRoot) : undefined;
  // Index files a person has edited stay theirs, as `index --check` judges them.
  const provenance = workspace.wikiRoot ? workspaceIndexProvenance(workspace) : undefined;
  const plan = await planCapture(tree, workspace.config, trace, {}, new Date(), provenance);
  for (const [file, content] of plan.files) await writeWikiFileAtomically(wikiRoot, file, content);
  const others = plan.files.size - 1;
  const alsoWritten = others > 0 ? ` (and ${others} ${plan.bootstrap ? 'new wiki' : 'index'} file${others === 1 ? '' : 's'})` : '';
  io.stderr(`captured ${path.relative(io.cwd, path.join(wikiRoot, plan.path))}${alsoWritten}: review it, then commit`);
}
