// `npm run eval`: the question bank over the example wiki, through the same session the CLI's
// `ask --questions` uses. Prints recall of expected pages among pages read and cited, the branch
// mix, median pages read and cited, and how uncovered questions were flagged.
import { readFile } from 'node:fs/promises';
import { askQuestion, openAskSession } from '../src/answer/ask.js';
import { openWorkspace } from '../src/config/workspace.js';
import { type Trace, isWikiCitation } from '../src/ladder/trace.js';

interface BankQuestion {
  id: string;
  question: string;
  kind: string;
  expected: string[];
}

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] ? args[at + 1]! : fallback;
};
const wiki = flag('--wiki', 'examples/wiki');
const bankFile = flag('--questions', 'eval/questions.jsonl');
const verbose = args.includes('--verbose');

const bank: BankQuestion[] = (await readFile(bankFile, 'utf8'))
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as BankQuestion);
const session = await openAskSession(await openWorkspace({ cwd: process.cwd(), wikiFlag: wiki }));
const started = performance.now();
const results: Array<{ q: BankQuestion; trace: Trace }> = [];
for (const q of bank) results.push({ q, trace: await askQuestion(session, q.question, { id: q.id }) });
const elapsed = performance.now() - started;

const cited = (t: Trace) => [...new Set(t.citations.filter(isWikiCitation).map((c) => c.path))];
const share = (xs: boolean[]) => (xs.length === 0 ? NaN : xs.filter(Boolean).length / xs.length);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const covered = results.filter((r) => r.q.expected.length > 0);
const uncovered = results.filter((r) => r.q.expected.length === 0);
const answered = covered.filter((r) => r.trace.outcome === 'answered');

const figures = {
  questions: results.length,
  expected_page_read: share(covered.map((r) => r.q.expected.some((p) => r.trace.read.includes(p)))),
  expected_page_cited: share(covered.map((r) => r.q.expected.some((p) => cited(r.trace).includes(p)))),
  median_pages_cited: median(answered.map((r) => cited(r.trace).length)),
  covered_answered: share(covered.map((r) => r.trace.outcome === 'answered')),
  uncovered_flagged: share(uncovered.map((r) => r.trace.outcome === 'gap' || r.trace.outcome === 'cold')),
  median_pages_read: median(results.map((r) => r.trace.read.length)),
  branch_mix: Object.fromEntries(['cold', 'inline', 'explore'].map((b) => [b, results.filter((r) => r.trace.branch === b).length])),
  ms_per_question: Math.round((elapsed / results.length) * 10) / 10,
};
const targets: Record<string, [number, '>=' | '<=']> = {
  expected_page_read: [0.9, '>='],
  expected_page_cited: [0.8, '>='],
  median_pages_cited: [5, '<='],
  covered_answered: [0.85, '>='],
  uncovered_flagged: [0.9, '>='],
};

if (verbose) {
  for (const { q, trace } of results) {
    const ok = q.expected.length === 0 ? trace.outcome !== 'answered' : trace.outcome === 'answered' && q.expected.some((p) => cited(trace).includes(p));
    if (ok) continue;
    console.log(`${q.id} [${q.kind}] ${q.question}\n  expected ${q.expected.join(', ') || '(uncovered)'} → ${trace.branch}/${trace.outcome}; terms ${trace.signal_terms.map((t) => t.term).join(' | ')}; missing ${trace.missing.join(' | ')}\n  read ${trace.read.slice(0, 6).join(', ')}${trace.read.length > 6 ? ' …' : ''}; cited ${cited(trace).join(', ')}`);
  }
  console.log('');
}
console.log(`question bank: ${bankFile} (${results.length} questions) on ${wiki}\n`);
console.log('| figure | target | measured |\n|---|---|---|');
for (const [name, value] of Object.entries(figures)) {
  const target = targets[name];
  const shown = typeof value === 'number' ? (Number.isInteger(value) ? String(value) : value.toFixed(2)) : JSON.stringify(value);
  const verdict = target ? ((target[1] === '>=' ? (value as number) >= target[0] : (value as number) <= target[0]) ? ' ✓' : ' ✗') : '';
  console.log(`| ${name} | ${target ? `${target[1]} ${target[0]}` : ''} | ${shown}${verdict} |`);
}
const byKind = new Map<string, boolean[]>();
for (const { q, trace } of results) {
  const ok = q.expected.length === 0 ? trace.outcome !== 'answered' : trace.outcome === 'answered';
  byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), ok]);
}
console.log(`\nper kind (answered if covered, flagged if not): ${[...byKind].map(([k, v]) => `${k} ${v.filter(Boolean).length}/${v.length}`).join(', ')}`);

