import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type AskSession, askQuestion, openAskSession } from '../answer/ask.js';
import { type LlmChoice, type WebChoice, createProviders } from '../answer/providers.js';
import type { Trace } from '../ladder/trace.js';
import { type CliIo, EXIT, openCliWorkspace } from './context.js';

export interface AskOptions {
  wiki?: string;
  json: boolean;
  questions?: string;
  inlineMax?: number;
  llm: LlmChoice;
  llmBaseUrl?: string;
  llmModel?: string;
  web: WebChoice;
  webBaseUrl?: string;
}

export async function askCommand(io: CliIo, question: string | undefined, options: AskOptions): Promise<number> {
  if (!question && !options.questions) throw new Error('ask needs a question, or --questions FILE.jsonl');
  if (question && options.questions) throw new Error('give either a question or --questions, not both');
  const workspace = await openCliWorkspace(io, options.wiki, (config) => {
    if (options.inlineMax !== undefined) config.ladder.inlineMax = options.inlineMax;
  });
  const providers = createProviders({
    llm: options.llm,
    llmBaseUrl: options.llmBaseUrl,
    llmModel: options.llmModel,
    web: options.web,
    webBaseUrl: options.webBaseUrl,
    env: process.env,
  });
  const session = await openAskSession(workspace, providers);
  if (options.questions) return askBatch(io, session, options.questions);
  const trace = await askQuestion(session, question!);
  io.stdout(options.json ? JSON.stringify(trace, null, 2) : renderForTerminal(trace));
  return trace.outcome === 'error' ? EXIT.faults : EXIT.ok;
}

/** One JSON object per input line, in order, each carrying the input's `id` and other fields. */
async function askBatch(io: CliIo, session: AskSession, file: string): Promise<number> {
  const lines = (await readFile(path.resolve(io.cwd, file), 'utf8')).split('\n');
  let failed = false;
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let input: Record<string, unknown>;
    try {
      input = JSON.parse(line) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`${file}:${i + 1}: not a JSON object: ${(error as Error).message}`);
    }
    if (typeof input.question !== 'string' || input.question.trim() === '') throw new Error(`${file}:${i + 1}: "question" must be a non-empty string`);
    const trace = await askQuestion(session, input.question, { id: input.id });
    failed ||= trace.outcome === 'error';
    io.stdout(JSON.stringify({ ...input, ...trace }));
  }
  return failed ? EXIT.faults : EXIT.ok;
}

/** The answer as the issue comment will show it, then the folded trace. */
export function renderForTerminal(trace: Trace): string {
  const lines = [trace.answer, '', `<details><summary>How this was answered</summary>`, '', ...traceSummary(trace), '', '</details>'];
  return lines.join('\n');
}

export function traceSummary(trace: Trace): string[] {
  const list = (items: string[]) => (items.length > 0 ? items.join(', ') : 'none');
  return [
    `- Branch: **${trace.branch}**, outcome **${trace.outcome}** (answerer: ${trace.answerer})`,
    `- Oriented on: ${list(trace.oriented.map((f) => `\`${f}\``))}`,
    `- Signal terms: ${list(trace.signal_terms.map((t) => `\`${t.term}\`${t.via ? ` (from ${t.via})` : ''}`))}`,
    ...(trace.dropped_terms.length > 0 ? [`- Dropped: ${list(trace.dropped_terms.map((t) => `\`${t.term}\` (${t.reason})`))}`] : []),
    `- Candidates (${trace.candidates.length}): ${list(trace.candidates.slice(0, 20).map((c) => `\`${c.path}\` [${[...new Set(c.matched.map((m) => `${m.term}→${m.field}`))].join('; ')}]`))}${trace.candidates.length > 20 ? ` and ${trace.candidates.length - 20} more` : ''}`,
    `- Read: ${list(trace.read.map((p) => `\`${p}\``))}`,
    ...(trace.unread.length > 0 ? [`- Not read: ${list(trace.unread.map((u) => `\`${u.path}\` (${u.reason})`))}`] : []),
    `- Coverage: ${trace.coverage.covered ? 'every signal term is in the pages read' : `missing ${list(trace.coverage.missing.map((m) => `\`${m}\``))}`}`,
    ...(trace.violations.length > 0 ? [`- Cite contract: ${list(trace.violations.map((v) => `${v.rule} (${v.action}): ${v.detail}`))}`] : []),
    ...(trace.web_searches.length > 0 ? [`- Web searches: ${list(trace.web_searches.map((w) => `${w.provider} "${w.query}" → ${w.error ? `failed: ${w.error}` : `${w.results} results`}`))}`] : []),
    ...(trace.provider_calls.length > 0
      ? [`- Provider calls: ${trace.provider_calls.length} (${trace.provider_calls.reduce((n, c) => n + c.retries, 0)} retries), tokens ${trace.tokens.input} in / ${trace.tokens.output} out`]
      : []),
    `- Timings: load ${trace.timings_ms.load} ms, ladder ${trace.timings_ms.ladder} ms, answer ${trace.timings_ms.answer} ms`,
  ];
}
