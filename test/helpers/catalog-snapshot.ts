// For the tests of the catalog's snapshot: what a question can see of an ask session (`seen`: the
// catalog's entries and lookups, and the traces of a few questions, timings left out; equal `seen`
// means a question cannot tell two loads apart), and snapshot files with a forged header.
import { type AskSession, askQuestion } from '../../src/answer/ask.js';
import { foldedWords } from '../../src/ladder/text-match.js';

const QUESTIONS = ['How do retry budgets work?', 'cache warming with redis', 'lease renewal'];

export async function seen(session: AskSession): Promise<unknown> {
  const catalog = session.catalog!;
  const score = (q: string) => [...catalog.relevance.score(new Map(foldedWords(q).map((w) => [w, 1])))].sort((a, b) => a[0] - b[0]);
  const traces = [];
  for (const q of QUESTIONS) traces.push({ ...(await askQuestion(session, q)), timings_ms: undefined });
  return {
    entries: catalog.entries,
    acronyms: [...catalog.acronyms],
    unreadable: catalog.unreadable,
    indexFiles: catalog.indexFiles,
    schema: catalog.schema,
    scores: QUESTIONS.map(score),
    traces,
  };
}

/** A snapshot file's header, parsed (its layout: src/ladder/snapshot-file.ts). */
export const snapshotHeader = (bytes: Buffer): Record<string, unknown> =>
  JSON.parse(bytes.toString('utf8', 12, 12 + bytes.readUInt32LE(8))) as Record<string, unknown>;

const align8 = (n: number) => Math.ceil(n / 8) * 8;

/**
 * The snapshot with its header changed as `change` says, of any length: what follows the header
 * moves by a multiple of 8, so the file is well formed but for what `change` did.
 */
export function forgedSnapshot(good: Buffer, change: (h: Record<string, unknown>) => void): Buffer {
  const length = good.readUInt32LE(8);
  const header = snapshotHeader(good);
  change(header);
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const lead = Buffer.alloc(12);
  good.copy(lead, 0, 0, 8);
  lead.writeUInt32LE(json.length, 8);
  return Buffer.concat([lead, json, Buffer.alloc(align8(12 + json.length) - 12 - json.length), good.subarray(align8(12 + length))]);
}
