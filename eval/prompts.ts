// `npm run eval -- --llm-stand-in`: what the model answerer sends, measured without a model. Every
// bank is asked through the real model answerer and OpenAI client against a local stand-in of the
// OpenAI chat protocol (test/providers/stand-ins.ts) that answers as a well-behaved reader would;
// the point is the prompts, not the replies. The token budget is raised out of reach, so what is
// measured is what the excerpts send, never what a budget cut. Per bank:
//   input tokens   median and p95 per question over all its calls (the budget's estimate: ~4 characters a token)
//   page recall    covered questions with an expected page in the prompt, beside the offline answerer's expected-page-read rate
//   fact recall    the banks' gold facts whose content words are mostly (≥ 60%) in the prompt's page
//                  excerpts (not the question or the instructions), beside the same pages sent whole
//   whole only     the facts the whole pages hold and the excerpts do not, by where they are: in an
//                  expected page alone (what excerpting lost), in another page alone, or only across
//                  pages (the words of the fact met in several pages, none holding most of them)
import { askQuestion, openAskSession } from '../src/answer/ask.js';
import { DEFAULT_MODEL_BUDGET, ModelAnswerer, estimateTokens } from '../src/answer/model/model-answerer.js';
import { OpenAiChatModel } from '../src/answer/model/openai-chat.js';
import type { Providers } from '../src/answer/providers.js';
import { openWorkspace } from '../src/config/workspace.js';
import { builtinStopwords } from '../src/ladder/signal-terms.js';
import { foldWord, lowerWords } from '../src/ladder/text-match.js';
import { bodyOf } from '../src/markdown/body.js';
import { JsonHttpClient } from '../src/net/http-json.js';
import { pagesSent, readerReply, startStandIn, systemText, userText } from '../test/providers/stand-ins.js';
import { type BankQuestion, isExpected, loadBank } from './bank.js';

const KEY = 'sk-eval-stand-in';
/**
 * Claims the stand-in makes per reply. A merge call carries the batches' replies, so their length
 * is part of what is measured: a terse answer (the instructions ask for one) cites a few lines, not
 * one per page read.
 */
const CLAIMS_PER_REPLY = 2;
/** A gold fact is in a text when at least this share of its content words are. */
export const FACT_SHARE = 0.6;

export interface PromptFigures {
  bank: string;
  questions: number;
  median: number;
  p95: number;
  /** Covered questions with an expected page in the prompt, and read by the offline answerer. */
  pageRecall: number;
  offlineRead: number;
  /** Gold facts of covered questions found in the excerpts sent, and in the same pages whole. */
  factExcerpts: number;
  factWhole: number;
  /** The facts found in the whole pages and not in the excerpts: held by an expected page sent, by another page alone, or only across pages. */
  wholeOnly: { expected: number; other: number; across: number };
}

/** A fact's content words, folded as the ladder folds words. */
const contentWords = (text: string): string[] => {
  const stop = builtinStopwords();
  return [...new Set(lowerWords(text).filter((w) => !stop.has(w)))].map(foldWord);
};

/** Whether most of a fact's content words are among a text's words. */
export function factIn(fact: string, words: ReadonlySet<string>): boolean {
  const wanted = contentWords(fact);
  return wanted.length > 0 && wanted.filter((w) => words.has(w)).length >= FACT_SHARE * wanted.length;
}

const wordsOf = (texts: readonly string[]) => new Set(texts.flatMap((t) => lowerWords(t).map(foldWord)));

/** A page sent, whole: whether the question expects it, and its body's words (folded). */
export interface SentWholePage {
  expected: boolean;
  words: ReadonlySet<string>;
}

/**
 * Where a fact the whole pages hold and the excerpts miss is: in an expected page alone (what
 * excerpting lost), in another page alone, or only across pages (no page holds most of its words).
 */
export function wholeOnlyPlace(fact: string, pages: readonly SentWholePage[]): keyof PromptFigures['wholeOnly'] {
  const held = pages.filter((p) => factIn(fact, p.words));
  return held.some((p) => p.expected) ? 'expected' : held.length > 0 ? 'other' : 'across';
}

function quantile(xs: readonly number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

const share = (hits: number, of: number) => (of === 0 ? 0 : hits / of);

export async function measurePrompts(name: string, bankFile: string, wiki: string): Promise<PromptFigures> {
  const bank: BankQuestion[] = await loadBank(bankFile);
  const offline = await openAskSession(await openWorkspace({ cwd: process.cwd(), wikiFlag: wiki }));
  const catalog = offline.catalog;
  if (!catalog) throw new Error(`no wiki found at ${wiki}`);
  const standIn = await startStandIn('openai', { key: KEY });
  standIn.setFallback((request) => {
    const reply = readerReply(request);
    return { reply: { ...reply, claims: reply.claims.slice(0, CLAIMS_PER_REPLY) } };
  });
  const budget = { ...DEFAULT_MODEL_BUDGET, inputTokens: Number.MAX_SAFE_INTEGER, calls: 1_000 };
  const model = new ModelAnswerer(new OpenAiChatModel(new JsonHttpClient(), `${standIn.url}/v1`, 'stand-in', KEY), budget);
  // Answers only: a term proposal is a call of its own, outside the prompts measured here.
  const providers: Providers = { ...offline.providers, answerer: { name: model.name, answer: (request) => model.answer(request) } };
  const session = { ...offline, providers };
  const tokens: number[] = [];
  let covered = 0;
  let inPrompt = 0;
  let readOffline = 0;
  let facts = 0;
  let factsExcerpt = 0;
  let factsWhole = 0;
  const wholeOnly = { expected: 0, other: 0, across: 0 };
  try {
    for (const q of bank) {
      const before = standIn.requests.length;
      await askQuestion(session, q.question);
      const requests = standIn.requests.slice(before);
      const asked = requests.reduce((sum, r) => sum + estimateTokens(systemText(r)) + estimateTokens(userText(r)), 0);
      const sent = requests.flatMap((r) => pagesSent(userText(r)));
      if (requests.length > 0) tokens.push(asked);
      if (q.uncovered) continue;
      covered++;
      const paths = [...new Set(sent.map((p) => p.path))];
      if (paths.some((p) => isExpected(q, p))) inPrompt++;
      if ((await askQuestion(offline, q.question)).read.some((p) => isExpected(q, p))) readOffline++;
      const excerptWords = wordsOf(sent.flatMap((p) => [...p.lines.values()]));
      const whole = await catalog.readPages(paths);
      const wholeWords = wordsOf([...whole.values()].map(bodyOf));
      const gold = Array.isArray(q.raw.gold_facts) ? q.raw.gold_facts.filter((f): f is string => typeof f === 'string') : [];
      // Each whole page's words, taken once for every fact it is asked about.
      let sentPages: SentWholePage[] | undefined;
      const pagesOf = () => (sentPages ??= paths.map((p) => ({ expected: isExpected(q, p), words: wordsOf([bodyOf(whole.get(p) ?? '')]) })));
      for (const fact of gold) {
        facts++;
        const inExcerpts = factIn(fact, excerptWords);
        if (inExcerpts) factsExcerpt++;
        if (!factIn(fact, wholeWords)) continue;
        factsWhole++;
        if (inExcerpts) continue;
        wholeOnly[wholeOnlyPlace(fact, pagesOf())]++;
      }
    }
  } finally {
    await standIn.close();
  }
  return {
    bank: name,
    questions: tokens.length,
    median: quantile(tokens, 0.5),
    p95: quantile(tokens, 0.95),
    pageRecall: share(inPrompt, covered),
    offlineRead: share(readOffline, covered),
    factExcerpts: share(factsExcerpt, facts),
    factWhole: share(factsWhole, facts),
    wholeOnly,
  };
}

/** The figures as a table, a macro row (each bank weighing the same) after the banks. */
export function promptTable(rows: readonly PromptFigures[]): string {
  const mean = (f: (r: PromptFigures) => number) => rows.reduce((s, r) => s + f(r), 0) / Math.max(1, rows.length);
  const macro: PromptFigures = {
    bank: `macro (${rows.length} banks)`,
    questions: rows.reduce((s, r) => s + r.questions, 0),
    median: Math.round(mean((r) => r.median)),
    p95: Math.round(mean((r) => r.p95)),
    pageRecall: mean((r) => r.pageRecall),
    offlineRead: mean((r) => r.offlineRead),
    factExcerpts: mean((r) => r.factExcerpts),
    factWhole: mean((r) => r.factWhole),
    wholeOnly: {
      expected: rows.reduce((s, r) => s + r.wholeOnly.expected, 0),
      other: rows.reduce((s, r) => s + r.wholeOnly.other, 0),
      across: rows.reduce((s, r) => s + r.wholeOnly.across, 0),
    },
  };
  const head = ['bank', 'asked', 'median in', 'p95 in', 'page recall', 'offline read', 'facts excerpt', 'facts whole', 'whole only: expected / other / across'];
  const cells = [...rows, ...(rows.length > 1 ? [macro] : [])].map((r) => [
    r.bank,
    String(r.questions),
    String(r.median),
    String(r.p95),
    r.pageRecall.toFixed(2),
    r.offlineRead.toFixed(2),
    r.factExcerpts.toFixed(3),
    r.factWhole.toFixed(3),
    `${r.wholeOnly.expected} / ${r.wholeOnly.other} / ${r.wholeOnly.across}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const fmt = (c: string[]) => c.map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join('  ');
  return [fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(fmt)].join('\n');
}
