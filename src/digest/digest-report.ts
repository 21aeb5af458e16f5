// The digest: what the team should write next. Built from the steward's own answer traces (read
// back from its comments), the reactions on them, the capture pull requests and the wiki itself,
// for one period. Pure data in, report out: the same report prints locally and posts as an issue.
import { foldedWords } from '../ladder/text-match.js';
import type { Outcome, Trace } from '../answer/trace.js';
import { isWikiCitation } from '../answer/trace.js';
import { andMore, boundedList, clip } from '../markdown/bound.js';
import { inlineCode } from '../markdown/code.js';
import { inertText } from '../markdown/inert.js';
import type { Period } from './period.js';
import { CATEGORY_LIMIT, type WikiHealth } from './wiki-health.js';

/** Where a question was asked: an issue (or a comment on one) or a discussion (or a comment in one). */
export type AskedIn = 'issue' | 'discussion';

export interface AnswerRecord {
  trace: Trace;
  where: AskedIn;
  /** The issue's or the discussion's number. */
  issueNumber: number;
  /**
   * The question this answers (its comment's marker key; a reviewed answer's is its discussion's):
   * answers of one question count once, as the latest says, with the votes of them all.
   * Undefined: the answer is its own question.
   */
  questionKey?: string;
  url: string;
  createdAt: string;
  reactions: { up: number; down: number };
}

export interface CaptureRecord {
  number: number;
  title: string;
  url: string;
  createdAt: string;
  mergedAt: string | null;
  state: 'open' | 'closed';
  /** Where the question was asked, and its issue's or discussion's number, from the PR's marker. */
  where?: AskedIn;
  issueNumber?: number;
}

export interface DigestInput {
  period: Period;
  now: Date;
  answers: AnswerRecord[];
  captures: CaptureRecord[];
  health: WikiHealth | undefined;
}

export interface TopicGroup {
  /** The terms that name the group. */
  terms: string[];
  questions: Array<{ question: string; where: AskedIn; issueNumber: number; url: string; outcome: Outcome }>;
  capture?: { number: number; url: string };
}

/** One question of the period, wherever it was asked: its latest answer's outcome and link, the votes on its answers. */
export interface QuestionRow {
  where: AskedIn;
  issueNumber: number;
  question: string;
  outcome: Outcome;
  url: string;
  up: number;
  down: number;
}

export interface DigestReport {
  period: { label: string; start: string; end: string };
  outcomes: Record<Outcome, number>;
  asked: number;
  /** Every question of the period, issues and discussions alike, in the order they were first answered. */
  questions: QuestionRow[];
  unansweredTopics: TopicGroup[];
  openCaptures: Array<{ number: number; title: string; url: string; ageDays: number }>;
  mergedCaptures: Array<{ number: number; title: string; url: string }>;
  feedback: {
    up: number;
    down: number;
    mostDownvoted: Array<{ question: string; where: AskedIn; issueNumber: number; url: string; down: number; up: number }>;
  };
  mostCited: Array<{ path: string; citations: number }>;
  oldestAskedAbout: Array<{ path: string; asked: number; updated: string }>;
  health: WikiHealth | undefined;
}

/** Terms that identify what a question is about: its own signal terms, folded (→ as written), expansions aside. */
const topicTerms = (t: Trace): Map<string, string> =>
  new Map(
    t.signal_terms
      .filter((s) => s.kind !== 'expanded')
      .map((s) => [foldedWords(s.term).join(' '), s.term] as const)
      .filter(([k]) => k !== ''),
  );

/** Reworded questions about the same thing share most of their terms (Jaccard ≥ 0.5). */
const SAME_TOPIC = 0.5;
const jaccard = (a: Map<string, string>, b: Map<string, string>) => {
  let shared = 0;
  for (const x of a.keys()) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared || 1);
};

const firstLine = (a: AnswerRecord): string => a.trace.question.split('\n')[0]!;

/**
 * One record per question: the latest of its answers in the period (a discussion's reviewed answer
 * after its first one), with the votes on all of them, in the order the questions were first answered
 * (then by number).
 */
function oneAnswerPerQuestion(answers: readonly AnswerRecord[]): AnswerRecord[] {
  const byQuestion = new Map<string, { first: number; latest: AnswerRecord; up: number; down: number }>();
  for (const a of answers) {
    const key = `${a.where} ${a.questionKey ?? a.url}`;
    const at = Date.parse(a.createdAt);
    const seen = byQuestion.get(key);
    if (!seen) {
      byQuestion.set(key, { first: at, latest: a, up: a.reactions.up, down: a.reactions.down });
      continue;
    }
    seen.first = Math.min(seen.first, at);
    if (at >= Date.parse(seen.latest.createdAt)) seen.latest = a;
    seen.up += a.reactions.up;
    seen.down += a.reactions.down;
  }
  // GitHub numbers issues and discussions in one sequence, in the order they were opened.
  return [...byQuestion.values()]
    .sort((x, y) => x.first - y.first || x.latest.issueNumber - y.latest.issueNumber || x.latest.url.localeCompare(y.latest.url))
    .map(({ latest, up, down }) => ({ ...latest, reactions: { up, down } }));
}

function groupUnanswered(answers: readonly AnswerRecord[], captures: readonly CaptureRecord[]): TopicGroup[] {
  const groups: Array<TopicGroup & { termSet: Map<string, string> }> = [];
  for (const a of answers) {
    if (a.trace.outcome === 'answered') continue;
    const terms = topicTerms(a.trace);
    const home = groups.find((g) => jaccard(g.termSet, terms) >= SAME_TOPIC);
    const question = { question: firstLine(a), where: a.where, issueNumber: a.issueNumber, url: a.url, outcome: a.trace.outcome };
    if (home) {
      home.questions.push(question);
      for (const [k, v] of terms) if (!home.termSet.has(k)) home.termSet.set(k, v);
    } else groups.push({ terms: [], termSet: new Map(terms), questions: [question] });
  }
  return groups
    .map(({ termSet, ...g }) => {
      const capture = captures.find((c) => g.questions.some((q) => q.issueNumber === c.issueNumber && q.where === (c.where ?? 'issue')));
      return { ...g, terms: [...termSet.values()].slice(0, 4), ...(capture ? { capture: { number: capture.number, url: capture.url } } : {}) };
    })
    .sort((a, b) => b.questions.length - a.questions.length);
}

export function buildDigest(input: DigestInput): DigestReport {
  const inPeriod = oneAnswerPerQuestion(input.answers);
  const outcomes: Record<Outcome, number> = { answered: 0, gap: 0, cold: 0, error: 0 };
  for (const a of inPeriod) outcomes[a.trace.outcome]++;
  const cited = new Map<string, number>();
  for (const a of inPeriod) for (const c of a.trace.citations.filter(isWikiCitation)) cited.set(c.path, (cited.get(c.path) ?? 0) + 1);
  const asked = new Map<string, number>();
  for (const a of inPeriod) for (const p of new Set(a.trace.candidates.slice(0, 5).map((c) => c.path))) asked.set(p, (asked.get(p) ?? 0) + 1);
  const day = 86_400_000;
  return {
    period: { label: input.period.label, start: input.period.start.toISOString(), end: input.period.end.toISOString() },
    outcomes,
    asked: inPeriod.length,
    questions: inPeriod.map((a) => ({
      where: a.where,
      issueNumber: a.issueNumber,
      question: firstLine(a),
      outcome: a.trace.outcome,
      url: a.url,
      up: a.reactions.up,
      down: a.reactions.down,
    })),
    unansweredTopics: groupUnanswered(inPeriod, input.captures),
    openCaptures: input.captures
      .filter((c) => c.state === 'open')
      .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.number - b.number)
      .map((c) => ({ number: c.number, title: c.title, url: c.url, ageDays: Math.floor((input.now.getTime() - Date.parse(c.createdAt)) / day) })),
    mergedCaptures: input.captures
      .filter((c) => c.mergedAt && Date.parse(c.mergedAt) >= input.period.start.getTime() && Date.parse(c.mergedAt) < input.period.end.getTime())
      .map((c) => ({ number: c.number, title: c.title, url: c.url })),
    feedback: {
      up: inPeriod.reduce((n, a) => n + a.reactions.up, 0),
      down: inPeriod.reduce((n, a) => n + a.reactions.down, 0),
      mostDownvoted: inPeriod
        .filter((a) => a.reactions.down > 0)
        .sort((a, b) => b.reactions.down - a.reactions.down || a.reactions.up - b.reactions.up)
        .slice(0, 5)
        .map((a) => ({ question: firstLine(a), where: a.where, issueNumber: a.issueNumber, url: a.url, down: a.reactions.down, up: a.reactions.up })),
    },
    mostCited: [...cited]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 10)
      .map(([path, citations]) => ({ path, citations })),
    oldestAskedAbout: [...asked]
      .filter(([path]) => input.health?.updated.has(path))
      .map(([path, n]) => ({ path, asked: n, updated: input.health!.updated.get(path)! }))
      .sort((a, b) => a.updated.localeCompare(b.updated) || b.asked - a.asked)
      .slice(0, 10),
    health: input.health,
  };
}

const LIST_LIMIT = 20;
/** The rows of the questions table. */
const TABLE_LIMIT = 50;
const more = (n: number) => (n > LIST_LIMIT ? [`- ${andMore(n - LIST_LIMIT)}`] : []);
/** The characters of one field a list item shows (a title, a question, a validator message). */
const FIELD_CHARS = 200;

// What the digest repeats was written by askers, pages and pull request authors: a question term
// kept whole from a code span (`![p](https://…)`, `<img …>`) is code here too, a question, a title
// or a validator's message (which quotes frontmatter) is inert text, and each is clipped.
const code = (text: string, max = FIELD_CHARS): string => inlineCode(clip(text, max));
const plain = (text: string, max = FIELD_CHARS): string => inertText(clip(text.replace(/\s+/g, ' ').trim(), max));
const cell = (text: string, max = FIELD_CHARS): string => plain(text, max).replace(/\|/g, '\\|');

/** Where a question was asked, as the digest names it: `#12` for an issue, `discussion #12` for a discussion. */
const askedAt = (q: { where: AskedIn; issueNumber: number }): string => `${q.where === 'discussion' ? 'discussion ' : ''}#${q.issueNumber}`;

/** The report as the digest issue's markdown (and the job summary, and the CLI's output). */
export function renderDigest(r: DigestReport, title: string): string {
  const lines = [`# ${title}`, '', `Period ${r.period.label} (${r.period.start.slice(0, 10)} to ${r.period.end.slice(0, 10)}, UTC).`, ''];
  lines.push(
    '## Questions',
    '',
    `${r.asked} questions asked: ${r.outcomes.answered} answered, ${r.outcomes.gap} gap, ${r.outcomes.cold} cold, ${r.outcomes.error} error.`,
    '',
  );
  if (r.asked > 0) {
    lines.push(
      '```mermaid',
      'pie title Outcomes',
      ...(['answered', 'gap', 'cold', 'error'] as const).filter((o) => r.outcomes[o] > 0).map((o) => `  "${o}" : ${r.outcomes[o]}`),
      '```',
      '',
      '| Asked in | Question | Outcome | 👍 | 👎 |',
      '|---|---|---|---|---|',
      ...r.questions.slice(0, TABLE_LIMIT).map((q) => `| [${askedAt(q)}](${q.url}) | ${cell(q.question, 140)} | ${q.outcome} | ${q.up} | ${q.down} |`),
      ...(r.questions.length > TABLE_LIMIT ? ['', andMore(r.questions.length - TABLE_LIMIT)] : []),
      '',
    );
  }
  lines.push('## What to write next', '');
  if (r.asked === 0) lines.push('No questions were asked this period.');
  else if (r.unansweredTopics.length === 0) lines.push('Every question this period was answered from the wiki.');
  for (const g of r.unansweredTopics.slice(0, LIST_LIMIT)) {
    const asks = boundedList(g.questions.map(askedAt), LIST_LIMIT).join(', ');
    const capture = g.capture ? `, capture #${g.capture.number}` : '';
    const terms = g.terms.map((t) => code(t, 60)).join(', ');
    lines.push(`- **${terms || 'no terms'}** — asked ${g.questions.length}× (${asks})${capture}: “${plain(g.questions[0]!.question, 140)}”`);
  }
  lines.push(...more(r.unansweredTopics.length), '', '## Capture pull requests', '');
  lines.push(r.openCaptures.length === 0 ? 'No capture pull request is open.' : `${r.openCaptures.length} open, oldest first:`);
  for (const c of r.openCaptures.slice(0, LIST_LIMIT)) lines.push(`- #${c.number} (${c.ageDays} days) ${plain(c.title)}`);
  lines.push(...more(r.openCaptures.length));
  if (r.mergedCaptures.length > 0)
    lines.push(
      '',
      `Merged this period: ${boundedList(
        r.mergedCaptures.map((c) => `#${c.number}`),
        LIST_LIMIT * 5,
      ).join(', ')}.`,
    );
  lines.push('', '## Reader feedback', '', `👍 ${r.feedback.up} · 👎 ${r.feedback.down} on answers this period.`);
  for (const d of r.feedback.mostDownvoted) lines.push(`- 👎 ${d.down} / 👍 ${d.up}: [${plain(d.question.replace(/[[\]\\]/g, ''), 100)}](${d.url})`);
  if (r.mostCited.length > 0) lines.push('', '## Most cited pages', '', ...r.mostCited.map((c) => `- ${code(c.path)} (${c.citations})`));
  if (r.oldestAskedAbout.length > 0)
    lines.push(
      '',
      '## Most asked-about pages, oldest first',
      '',
      ...r.oldestAskedAbout.map((p) => `- ${code(p.path)} — updated ${plain(p.updated.slice(0, 10))}, asked about ${p.asked}×`),
    );
  const h = r.health;
  if (h) {
    lines.push(
      '',
      '## Wiki health',
      '',
      `${h.pages} pages in ${h.categories} categories${h.categories > CATEGORY_LIMIT ? ` (more than ${CATEGORY_LIMIT}: consider merging categories)` : ''}.`,
      '',
    );
    const section = <T>(name: string, items: readonly T[], show: (x: T) => string) => {
      lines.push(`- **${name}**: ${items.length}`);
      for (const x of items.slice(0, LIST_LIMIT)) lines.push(`  - ${show(x)}`);
      if (items.length > LIST_LIMIT) lines.push(`  - ${andMore(items.length - LIST_LIMIT)}`);
    };
    // A validator's message quotes the page's own values: inert text, clipped.
    section(
      'Invalid pages',
      h.invalid,
      (x) =>
        `${code(x.path)}: ${x.messages
          .slice(0, 2)
          .map((m) => plain(m))
          .join('; ')}`,
    );
    // A link's target is page text: one inline code span, whatever backticks it holds.
    section('Broken links', h.brokenLinks, (x) => `${code(x.path)} line ${x.line} → ${code(x.target)}`);
    section('Orphan pages (no inbound link)', h.orphans, (x) => code(x));
    section('Stale pages', h.stale, (x) => `${code(x.path)} (updated ${plain(x.updated.slice(0, 10))})`);
    section('Low-quality pages (overall < 3.0, not rated by a person)', h.lowQuality, (x) => `${code(x.path)} (${plain(String(x.overall), 20)})`);
    section('Index files over 8 KB', h.oversizedIndexes, (x) => `${code(x.path)} (${x.bytes} bytes)`);
    section('Pages deeper than the cap', h.tooDeep, (x) => code(x));
  }
  return lines.join('\n');
}
