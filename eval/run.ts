// `npm run eval`: asks a question bank of a wiki through the same session `ask --questions` uses,
// ranks the same questions with a stock BM25 baseline (lunr, default settings) over the same pages,
// and prints per question type and overall: how often the expected page was a candidate, read and
// cited, answers and flags, pages read and cited, recall@1/5/10 of both rankings, and the targets.
// With no --bank and no --wiki it runs our bank and every development bank (`--dev DIR`, each
// DIR/*/questions.jsonl over DIR/*/wiki), then one line per bank and the macro average over the
// development banks, each weighing the same: a change is judged on all of them at once.
//
//   npm run eval -- [--bank FILE] [--wiki DIR] [--dev DIR] [--results FILE] [--verbose] [--json] [--proposed]
//   npm run eval -- --ablate [--dev DIR] [--only ID,ID…]
//   npm run eval -- --sweep ID=V,V,… [--dev DIR]
//   npm run eval -- --prune ID,ID,… [--dev DIR]
//   npm run eval -- --llm-stand-in [--dev DIR]
//
// --bank FILE      JSONL bank, ours or eval-dev's (see bank.ts); default eval/questions.jsonl
//                  (--questions is an alias)
// --wiki DIR       default examples/wiki
// --dev DIR        the development banks when no bank is named; default ../shared/eval-dev
// --results FILE   one line per question, as `wiki-steward ask --json --questions` prints it
//                  (the bank line's fields, then the trace): score.mjs reads it (one bank only)
// --verbose        list the misses: terms, top 5 candidates, pages read and cited
// --json           the figures as JSON instead of tables
// --proposed       (all banks) then every bank again with each question's terms proposed by a model
//                  stand-in over the OpenAI chat protocol (proposals.ts), reported apart
// --ablate         every knob of the ladder and the answerer off in turn, on the development banks:
//                  the table and verdicts go to eval/ABLATIONS.md (see ablate.ts); --only names knobs
//                  (their ids, comma-separated) to print instead, leaving the file alone
// --sweep ID=V,…   one numeric knob at each value, on the development banks: every figure per bank,
//                  then leave one out (the value two banks choose, and what it loses on the third)
// --prune ID,…     backward elimination: each knob in turn off with those already gone, kept out
//                  when the set still costs the macro under 2 questions on every figure and no bank
//                  (our own included) more than 2 on any; prints the knobs that can go together
// --llm-stand-in  the development banks through the model answerer against a local OpenAI stand-in
//                  (prompts.ts): input tokens per question, page recall and fact recall of the prompts
// Exits 0 whether or not the targets are met.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { askQuestion, openAskSession } from '../src/answer/ask.js';
import { openWorkspace } from '../src/config/workspace.js';
import { type BankQuestion, type BankSpec, devBanks, firstExpectedRank, isExpected, loadBank } from './bank.js';
import { ablate, ablationTable, prune, sweep } from './ablate.js';
import { type Baseline, buildBaseline } from './baseline.js';
import { contradictionOf } from './contradictions.js';
import { type QuestionResult, type Ratio, type Row, type Target, candidatePaths, citedPages, isFlagged, rowsOf, targetsOf, typesOf } from './figures.js';
import { startProposals } from './proposals.js';
import { measurePrompts, promptTable } from './prompts.js';
import { type BankSummary, branchesOf, macroOf, summaryOf } from './summary.js';

const args = process.argv.slice(2);
const given = (names: string[]): string | undefined => {
  const at = args.findIndex((a) => names.includes(a));
  return at >= 0 && args[at + 1] ? args[at + 1]! : undefined;
};
const OUR_BANK = { name: 'ours', bank: 'eval/questions.jsonl', wiki: 'examples/wiki' };
const bankFlag = given(['--bank', '--questions']);
const wikiFlag = given(['--wiki']);
const devDir = given(['--dev']) ?? '../shared/eval-dev';
const resultsFile = given(['--results']) ?? '';
const verbose = args.includes('--verbose');
const asJson = args.includes('--json');
const withProposals = args.includes('--proposed');

/**
 * Asks a bank on a wiki; with `proposals`, each question's terms are first proposed by the model
 * stand-in (proposals.ts) and the problems its requests had are returned.
 */
async function runBank(bank: readonly BankQuestion[], wiki: string, lunrOf?: Baseline, proposals = false) {
  const opened = await openAskSession(await openWorkspace({ cwd: process.cwd(), wikiFlag: wiki }));
  if (!opened.catalog) throw new Error(`no wiki found at ${wiki}`);
  const catalog = opened.catalog;
  const baseline = lunrOf ?? (await buildBaseline(catalog));
  const results: QuestionResult[] = [];
  const titles = new Map(catalog.entries.map((e) => [e.path, e.title]));
  const proposer = proposals ? await startProposals(baseline, titles) : undefined;
  const session = proposer ? { ...opened, providers: proposer.providers } : opened;
  try {
    for (const q of bank) {
      const started = performance.now();
      const trace = await askQuestion(session, q.question, { id: q.raw.id });
      const ms = performance.now() - started;
      const contradiction = contradictionOf(trace, await catalog.readPages(trace.read), titles);
      results.push({ q, trace, baseline: baseline.rank(q.question), ms, ...(contradiction ? { contradiction } : {}) });
    }
  } finally {
    await proposer?.close();
  }
  const protocolProblems = proposer?.problems() ?? [];
  return { results, baseline, pages: catalog.entries.length, loadMs: session.loadMs, lunrBuildMs: baseline.buildMs, protocolProblems };
}

/** Every bank again with the stand-in's proposed terms: one summary line each, and the macro average. */
async function proposedSummaries(specs: readonly BankSpec[]): Promise<{ lines: BankSummary[]; problems: string[] }> {
  const lines: BankSummary[] = [];
  const problems: string[] = [];
  for (const spec of specs) {
    const run = await runBank(await loadBank(spec.bank), spec.wiki, undefined, true);
    lines.push(summaryOf(spec.name, run.pages, rowsOf(run.results), branchesOf(run.results)));
    problems.push(...run.protocolProblems.map((p) => `${spec.name}: ${p}`));
  }
  return { lines, problems };
}

// ---- printing

const rate = (r: Ratio) => (r.rate === null ? '-' : r.rate.toFixed(2));
const num = (x: number | null) => (x === null ? '-' : String(x));

/** Fixed-width: the first `left` columns padded on the right, the others on the left. */
function table(head: string[], rows: string[][], ruleAfter: number[] = [], left = 1): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]) =>
    r
      .map((c, i) => (i < left ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [fmt(head), rule, ...rows.flatMap((r, i) => (ruleAfter.includes(i) ? [fmt(r), rule] : [fmt(r)]))].join('\n');
}

const answersTable = (rows: readonly Row[]) =>
  table(
    ['scope', 'n', 'exp.cand', 'exp.read', 'read@5', 'all.read', 'exp.cited', 'cite.prec', 'answered', 'flagged', 'med.read', 'med.cited'],
    rows.map((r) => [
      r.scope,
      String(r.questions),
      rate(r.expected_candidate),
      rate(r.expected_read),
      rate(r.expected_read_top5),
      rate(r.all_expected_read),
      rate(r.expected_cited),
      rate(r.citation_precision),
      rate(r.answered),
      rate(r.flagged),
      num(r.median_pages_read),
      num(r.median_pages_cited),
    ]),
    [2],
  );

const rankingTable = (rows: readonly Row[]) =>
  table(
    ['scope', 'covered', 'ours R@1', 'R@5', 'R@10', 'lunr R@1', 'R@5', 'R@10'],
    rows
      .filter((r) => r.recall.at1.of > 0)
      .map((r) => [
        r.scope,
        String(r.recall.at1.of),
        rate(r.recall.at1),
        rate(r.recall.at5),
        rate(r.recall.at10),
        rate(r.lunr_recall.at1),
        rate(r.lunr_recall.at5),
        rate(r.lunr_recall.at10),
      ]),
    [1],
  );

const targetsTable = (targets: readonly Target[]) =>
  table(
    ['target', 'wanted', 'measured', ''],
    targets.map((t) => [t.figure, t.target, t.shown, t.met ? '✓' : '✗']),
    [],
    2,
  );

const outcomesOf = (rs: readonly QuestionResult[]) =>
  Object.fromEntries(typesOf(rs).map((t) => [t, countBy(rs.filter((r) => r.q.type === t).map((r) => r.trace.outcome))]));

function countBy(xs: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
}

/** Covered: not answered or no expected page cited. Uncovered: not flagged. */
const isMiss = (r: QuestionResult) =>
  r.q.uncovered ? !isFlagged(r.trace) : r.trace.outcome !== 'answered' || !citedPages(r.trace).some((p) => isExpected(r.q, p));

function missLines(rs: readonly QuestionResult[]): string[] {
  const rank = (r: QuestionResult, list: readonly string[]) => {
    const at = firstExpectedRank(r.q, list);
    return at === undefined ? '-' : String(at + 1);
  };
  return rs
    .filter(isMiss)
    .flatMap((r) => [
      `${r.q.id} [${r.q.type}] ${r.q.question}`,
      `  expected ${r.q.expected.join(', ') || '-'}${r.q.uncovered ? ' (uncovered)' : ''} → ${r.trace.branch}/${r.trace.outcome}; rank ours ${rank(r, candidatePaths(r.trace))}, lunr ${rank(r, r.baseline)}`,
      `  terms ${r.trace.signal_terms.map((t) => t.term).join(' | ')}`,
      `  candidates ${candidatePaths(r.trace).slice(0, 5).join(', ')}${r.trace.candidates.length > 5 ? ` … (${r.trace.candidates.length})` : ''}`,
      `  read ${r.trace.read.join(', ') || '-'}`,
      `  cited ${citedPages(r.trace).join(', ') || '-'}`,
    ]);
}

const summaryTable = (lines: readonly BankSummary[]) => {
  const r = (x: number | null) => (x === null ? '-' : x.toFixed(2));
  const mix = (b: BankSummary) => [b.branch_mix.cold, b.branch_mix.inline, b.branch_mix.explore].map((x) => x.toFixed(2)).join('/');
  return table(
    [
      'bank',
      'n',
      'ans+cited',
      'read',
      'read@5',
      'cited',
      'cite.prec',
      'flagged',
      'contra.',
      'gold',
      'para.read',
      'R@1',
      'R@5',
      'R@10',
      'lunr R@1',
      'R@5',
      'R@10',
      'med.read',
      'cold/inl/expl',
      'cov.inline',
    ],
    lines.map((b) => [
      b.bank,
      String(b.questions),
      r(b.answered_cited),
      r(b.read),
      r(b.read_top5),
      r(b.cited),
      r(b.citation_precision),
      r(b.flagged),
      String(b.contradictions),
      r(b.gold_facts),
      r(b.paraphrase_read),
      r(b.recall.at1),
      r(b.recall.at5),
      r(b.recall.at10),
      r(b.lunr_recall.at1),
      r(b.lunr_recall.at5),
      r(b.lunr_recall.at10),
      b.median_pages_read === null ? '-' : String(b.median_pages_read),
      mix(b),
      r(b.covered_inline),
    ]),
    lines.length > 2 ? [lines.length - 2] : [],
  );
};

/** One bank: asked, scored, printed (or returned as JSON); its summary line. */
async function evaluate(spec: BankSpec, results: string): Promise<{ json: object; summary: BankSummary }> {
  const bank = await loadBank(spec.bank);
  const run = await runBank(bank, spec.wiki);
  const { results: answered } = run;
  if (results) await writeFile(results, answered.map((r) => `${JSON.stringify({ ...r.q.raw, ...r.trace })}\n`).join(''));
  const rows = rowsOf(answered);
  const targets = targetsOf(rows);
  const msPerQuestion = Math.round((answered.reduce((s, r) => s + r.ms, 0) / Math.max(1, answered.length)) * 10) / 10;
  const branches = branchesOf(answered);
  const branchMix = { cold: branches.cold, inline: branches.inline, explore: branches.explore };
  const outcomes = outcomesOf(answered);
  const summary = summaryOf(spec.name, run.pages, rows, branches);
  const json = {
    bank: spec.bank,
    wiki: spec.wiki,
    questions: answered.length,
    pages: run.pages,
    ms_per_question: msPerQuestion,
    load_ms: run.loadMs,
    lunr_build_ms: run.lunrBuildMs,
    branch_mix: branchMix,
    outcomes,
    rows,
    targets,
  };
  if (asJson) {
    if (verbose) console.error(missLines(answered).join('\n'));
    return { json, summary };
  }
  if (verbose) console.log(`misses:\n${missLines(answered).join('\n')}\n`);
  console.log(
    `bank ${spec.bank}: ${answered.length} questions (${rows[1]!.questions} covered, ${rows[2]!.questions} uncovered) on ${spec.wiki} (${run.pages} pages)`,
  );
  console.log(
    `ms per question ${msPerQuestion} (load ${run.loadMs} ms, lunr index ${run.lunrBuildMs} ms); ` +
      `branch mix cold/inline/explore ${branchMix.cold} / ${branchMix.inline} / ${branchMix.explore}\n`,
  );
  console.log(`${answersTable(rows)}\n`);
  console.log(`recall@k: the first expected page's position among our candidates, and in lunr 2.3.9's ranking\n${rankingTable(rows)}\n`);
  const perType = Object.entries(outcomes).map(
    ([t, o]) =>
      `  ${t}: ${Object.entries(o)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`,
  );
  console.log(`outcomes per type:\n${perType.join('\n')}\n`);
  const contradicted = answered.filter((r) => r.contradiction !== undefined);
  if (contradicted.length > 0) console.log(`contradictions:\n${contradicted.map((r) => `  ${r.q.raw.id ?? '?'}: ${r.contradiction}`).join('\n')}\n`);
  console.log(`${targetsTable(targets)}\n`);
  return { json, summary };
}

// ---- main

/** Asks every bank again each time it is called (knobs may have changed); lunr, which no knob moves, is built once per bank. */
async function bankAsker(specs: readonly BankSpec[]): Promise<() => Promise<QuestionResult[][]>> {
  const banks = await Promise.all(specs.map((spec) => loadBank(spec.bank)));
  const lunrs: Baseline[] = [];
  return async () => {
    const out = [];
    for (const [i, spec] of specs.entries()) {
      const run = await runBank(banks[i]!, spec.wiki, lunrs[i]);
      lunrs[i] = run.baseline;
      out.push(run.results);
    }
    return out;
  };
}

if (args.includes('--llm-stand-in')) {
  const dev = devBanks(devDir);
  if (dev.length === 0) throw new Error(`--llm-stand-in needs the development banks: none under ${devDir}`);
  const rows = [];
  for (const spec of dev) rows.push(await measurePrompts(spec.name, spec.bank, spec.wiki));
  console.log("the model answerer's prompts, against the OpenAI stand-in, the token budget out of reach (input tokens: the estimate, 4 characters a token)");
  console.log(promptTable(rows));
} else if (given(['--prune'])) {
  // Backward elimination over the named knobs, on the development banks with our bank as a guard.
  const specs = [...devBanks(devDir), OUR_BANK];
  const askBanks = await bankAsker(specs);
  const started = performance.now();
  const { gone, kept } = await prune(
    specs.map((s) => s.name),
    specs.length - 1,
    askBanks,
    given(['--prune'])!.split(','),
    (line) => console.error(`${((performance.now() - started) / 1000).toFixed(0)} s  ${line}`),
  );
  console.log(`can go together: ${gone.join(', ') || 'none'}`);
  for (const k of kept) console.log(`stays: ${k.id} (${k.why})`);
} else if (args.includes('--ablate') || given(['--sweep'])) {
  const dev = devBanks(devDir);
  if (dev.length === 0) throw new Error(`--ablate and --sweep need the development banks: none under ${devDir}`);
  const only = given(['--only'])?.split(',') ?? [];
  const askBanks = await bankAsker(dev);
  const names = dev.map((d) => d.name);
  const swept = given(['--sweep']);
  if (swept) {
    const [id, values] = swept.split('=');
    const numbers = (values ?? '').split(',').map(Number);
    if (!id || numbers.length === 0 || numbers.some(Number.isNaN)) throw new Error(`--sweep wants ID=V,V,… (numbers), not ${swept}`);
    console.log(await sweep(names, askBanks, id, numbers));
  } else {
    const started = performance.now();
    const { base, rows } = await ablate(names, askBanks, only, (line) => console.error(`${((performance.now() - started) / 1000).toFixed(0)} s  ${line}`));
    const text = ablationTable(names, base, rows, 'npm run eval -- --ablate');
    if (only.length > 0) console.log(text);
    else await writeFile('eval/ABLATIONS.md', text);
  }
} else if (bankFlag !== undefined || wikiFlag !== undefined) {
  const spec = { name: path.basename(path.dirname(bankFlag ?? OUR_BANK.bank)), bank: bankFlag ?? OUR_BANK.bank, wiki: wikiFlag ?? OUR_BANK.wiki };
  const { json } = await evaluate(spec, resultsFile);
  if (asJson) console.log(JSON.stringify(json, null, 2));
} else {
  if (resultsFile) throw new Error("--results writes one bank's results: name the bank with --bank (and its --wiki)");
  const dev = devBanks(devDir);
  if (dev.length === 0) console.error(`no development banks under ${devDir} (each DIR/NAME/questions.jsonl with DIR/NAME/wiki/): ours only`);
  const ours = await evaluate(OUR_BANK, '');
  const devRuns = [];
  for (const spec of dev) devRuns.push(await evaluate(spec, ''));
  const devSummaries = devRuns.map((r) => r.summary);
  const macro = devSummaries.length > 0 ? macroOf(devSummaries) : undefined;
  const proposed = withProposals ? await proposedSummaries([OUR_BANK, ...dev]) : undefined;
  const proposedMacro = proposed && proposed.lines.length > 1 ? macroOf(proposed.lines.slice(1)) : undefined;
  if (asJson) {
    const banks = [ours, ...devRuns].map((r) => r.json);
    const apart = proposed ? { proposed: { summary: proposed.lines, macro: proposedMacro ?? null, protocol_problems: proposed.problems } } : {};
    console.log(JSON.stringify({ banks, summary: [ours.summary, ...devSummaries], macro: macro ?? null, ...apart }, null, 2));
  } else {
    console.log('every bank, side by side (macro: the mean over the development banks, each weighing the same)');
    console.log(summaryTable([ours.summary, ...devSummaries, ...(macro ? [macro] : [])]));
    if (proposed) {
      console.log(
        "\nthe same, with each question's terms first proposed by the model stand-in (eval/proposals.ts: the titles of lunr's first pages, " +
          'over the OpenAI chat protocol); apart from the offline figures, never toward a target',
      );
      console.log(summaryTable([...proposed.lines, ...(proposedMacro ? [proposedMacro] : [])]));
      console.log(`stand-in requests that did not fit the protocol: ${proposed.problems.length === 0 ? 'none' : proposed.problems.join('; ')}`);
    }
  }
}
