// For the tests of the catalog's snapshot: what a question can see of an ask session (`seen`: the
// catalog's entries and lookups, and the traces of a few questions, timings left out; equal `seen`
// means a question cannot tell two loads apart), and snapshot files with a forged header.
import { type AskSession, askQuestion } from '../../src/answer/ask.js';
import { foldedWords, termPattern } from '../../src/ladder/text-match.js';
import { scoresOf } from './catalog-scores.js';

const QUESTIONS = ['How do retry budgets work?', 'cache warming with redis', 'lease renewal'];

export async function seen(session: AskSession): Promise<unknown> {
  const catalog = session.catalog!;
  const traces = [];
  for (const q of QUESTIONS) traces.push({ ...(await askQuestion(session, q)), timings_ms: undefined });
  return {
    // As plain data: a snapshot's entries decode their fields when read (src/ladder/kept-entries.ts).
    entries: JSON.parse(JSON.stringify(catalog.entries)) as unknown,
    acronyms: [...catalog.acronyms],
    unreadable: catalog.unreadable,
    indexFiles: catalog.indexFiles,
    schema: catalog.schema,
    scores: QUESTIONS.map((q) => scoresOf(catalog, q)),
    // What the word indexes say of every word the entries are named or linked by.
    wordIndexes: [...new Set(catalog.entries.flatMap((e) => [e.title, e.summary, ...e.tags, ...e.aliases, ...e.linkTexts].flatMap((t) => foldedWords(t))))]
      .sort()
      .map((word) => [word, catalog.mayMatch(termPattern(word)).map((e) => e.path), [...catalog.phraseHolders(word)]]),
    traces,
  };
}

/** A snapshot file's header, parsed (its layout: src/ladder/snapshot-file.ts). */
export const snapshotHeader = (bytes: Buffer): Record<string, unknown> =>
  JSON.parse(bytes.toString('utf8', 12, 12 + bytes.readUInt32LE(8))) as Record<string, unknown>;

const align8 = (n: number) => Math.ceil(n / 8) * 8;

/**
 * A snapshot file's header, its entries' texts (as the file has them, with where each ends, the
 * head's last array) and where its rest starts. The head's arrays are the postings' weights, 8 bytes
 * each, then 4-byte ones.
 */
export function snapshotRegions(bytes: Buffer): { header: Record<string, unknown>; entriesAt: number; entryTexts: string[]; restAt: number } {
  const header = snapshotHeader(bytes);
  const [weights = 0, ...others] = header.head as number[];
  const endsAt = align8(12 + bytes.readUInt32LE(8)) + 8 * weights + 4 * others.slice(0, -1).reduce((a, b) => a + b, 0);
  const ends = [0, ...new Int32Array(bytes.buffer.slice(bytes.byteOffset + endsAt, bytes.byteOffset + endsAt + 4 * others.at(-1)!))];
  const entriesAt = align8(endsAt + 4 * others.at(-1)!);
  const entryTexts = ends.slice(1).map((end, i) => bytes.toString('utf8', entriesAt + ends[i]!, entriesAt + end));
  return { header, entriesAt, entryTexts, restAt: align8(entriesAt + (header.entryBytes as number)) };
}

/** The head's typed arrays in file order, as src/ladder/snapshot-file.ts lays them out (the first of 8-byte floats, the others 4-byte integers). */
const HEAD_ARRAYS = [
  'pseudoFrequencies',
  'offsets',
  'postingEntries',
  'naming',
  'nameOffsets',
  'nameEntries',
  'phraseOffsets',
  'phraseEntries',
  'listedBy',
  'entryEnds',
] as const;

/** The snapshot with element `at` of one of its head's arrays set to `value`, all else as it was. */
export function withHeadValue(good: Buffer, array: (typeof HEAD_ARRAYS)[number], at: number, value: number): Buffer {
  const lengths = snapshotHeader(good).head as number[];
  const k = HEAD_ARRAYS.indexOf(array);
  let offset = align8(12 + good.readUInt32LE(8));
  for (let i = 0; i < k; i++) offset += (i === 0 ? 8 : 4) * lengths[i]!;
  const bytes = Buffer.from(good);
  if (k === 0) bytes.writeDoubleLE(value, offset + 8 * at);
  else bytes.writeInt32LE(value, offset + 4 * at);
  return bytes;
}

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
