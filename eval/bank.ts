// Question banks, read into one shape. Two formats are accepted, line by line (JSONL):
//   ours      {"id", "question", "kind", "expected": [wiki-relative paths]}   empty expected = uncovered
//   eval-dev  {"id", "question", "type", "expected_slugs": [file stems], "must_refuse", …}
// An expected entry containing `/` or ending in `.md` matches a page by its wiki-relative path;
// any other entry matches by file stem, exactly as /work/shared/eval-dev/score.mjs's slugOf does.
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export interface BankQuestion {
  id: string;
  question: string;
  type: string;
  /** Slugs or wiki-relative paths; any one of them counts as the expected page. */
  expected: string[];
  /** Should be flagged (gap or cold) rather than answered. */
  uncovered: boolean;
  /** The bank line as written (the results file echoes it, as `ask --questions` does). */
  raw: Record<string, unknown>;
}

/** score.mjs's slugOf: "./wiki/standards/api-17j.md#L3" → "api-17j". */
export function slugOf(p: string): string {
  const s = p
    .replace(/\\/g, '/')
    .replace(/[#?].*$/, '')
    .replace(/\/+$/, '');
  return path.posix.basename(s).replace(/\.md$/i, '');
}

/** A wiki-relative path without anchors, `./` or backslashes. */
export const normalisePath = (p: string): string =>
  p
    .replace(/\\/g, '/')
    .replace(/[#?].*$/, '')
    .replace(/^(\.\/)+/, '');

const byPath = (entry: string) => entry.includes('/') || entry.toLowerCase().endsWith('.md');

/** Whether a page (wiki-relative path) is one of the question's expected pages. */
export function isExpected(q: BankQuestion, page: string): boolean {
  return q.expected.some((entry) => (byPath(entry) ? normalisePath(entry) === normalisePath(page) : slugOf(page) === entry));
}

/** 0-based position of the first expected page in a ranked list, or undefined. */
export function firstExpectedRank(q: BankQuestion, ranked: readonly string[]): number | undefined {
  const at = ranked.findIndex((p) => isExpected(q, p));
  return at < 0 ? undefined : at;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : []);

export async function loadBank(file: string): Promise<BankQuestion[]> {
  const lines = (await readFile(file, 'utf8')).split(/\r?\n/);
  const rows: Array<{ raw: Record<string, unknown>; line: number }> = [];
  lines.forEach((text, i) => {
    if (text.trim() === '') return;
    const raw = JSON.parse(text) as unknown;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new Error(`${file}:${i + 1}: not a JSON object`);
    rows.push({ raw: raw as Record<string, unknown>, line: i + 1 });
  });
  // eval-dev marks uncovered questions (fabrications name a real nearest page, yet must be refused).
  const hasMustRefuse = rows.some((r) => 'must_refuse' in r.raw);
  return rows.map(({ raw, line }) => {
    if (typeof raw.question !== 'string' || raw.question.trim() === '') throw new Error(`${file}:${line}: "question" must be a non-empty string`);
    const expected = strings(raw.expected_slugs ?? raw.expected);
    return {
      id: typeof raw.id === 'string' ? raw.id : `line ${line}`,
      question: raw.question,
      type: typeof raw.type === 'string' ? raw.type : typeof raw.kind === 'string' ? raw.kind : 'untyped',
      expected,
      uncovered: hasMustRefuse ? raw.must_refuse === true : expected.length === 0,
      raw,
    };
  });
}

export interface BankSpec {
  name: string;
  bank: string;
  wiki: string;
}

/** The development banks under `dir`: each folder holding questions.jsonl and wiki/, by name. */
export function devBanks(dir: string): BankSpec[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(dir, e.name, 'questions.jsonl')) && existsSync(path.join(dir, e.name, 'wiki')))
    .map((e) => ({ name: e.name, bank: path.join(dir, e.name, 'questions.jsonl'), wiki: path.join(dir, e.name, 'wiki') }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}
