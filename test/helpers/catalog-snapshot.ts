// For the tests of the catalog's snapshot: what a question can see of an ask session (`seen`: the
// catalog's entries and lookups, and the traces of a few questions, timings left out; equal `seen`
// means a question cannot tell two loads apart), and snapshot files forged: the header changed,
// a value of one of the typed arrays set, two words numbered the other way round.
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
/** The rest's typed arrays in file order, all 4-byte integers: the entries' field counts and the pages' body counts. */
const REST_ARRAYS = ['fieldIds', 'fieldCounts', 'fieldEnds', 'fieldLengths', 'bodyIds', 'bodyCounts', 'bodyEnds', 'bodyLengths'] as const;

export type HeadArray = (typeof HEAD_ARRAYS)[number];
export type RestArray = (typeof REST_ARRAYS)[number];

/** Where one of the snapshot's typed arrays starts in the file, its length in elements and its element's size. */
function arrayPlace(bytes: Buffer, array: HeadArray | RestArray): { offset: number; length: number; size: 4 | 8 } {
  const header = snapshotHeader(bytes);
  const head = header.head as number[];
  const k = HEAD_ARRAYS.indexOf(array as HeadArray);
  if (k >= 0) {
    let offset = align8(12 + bytes.readUInt32LE(8));
    for (let i = 0; i < k; i++) offset += (i === 0 ? 8 : 4) * head[i]!;
    return { offset, length: head[k]!, size: k === 0 ? 8 : 4 };
  }
  // The rest's arrays follow its file keys and pages' lines, from the next multiple of 8.
  const rest = header.rest as number[];
  const r = REST_ARRAYS.indexOf(array as RestArray);
  let offset = align8(snapshotRegions(bytes).restAt + (header.keysBytes as number) + (header.pagesBytes as number));
  for (let i = 0; i < r; i++) offset += 4 * rest[i]!;
  return { offset, length: rest[r]!, size: 4 };
}

/** One of the snapshot's typed arrays, as numbers. */
export function snapshotArray(bytes: Buffer, array: HeadArray | RestArray): number[] {
  const { offset, length, size } = arrayPlace(bytes, array);
  return Array.from({ length }, (_, i) => (size === 8 ? bytes.readDoubleLE(offset + 8 * i) : bytes.readInt32LE(offset + 4 * i)));
}

/** The snapshot with element `at` of one of its typed arrays (of the head or the rest) set to `value`, all else as it was. */
export function withArrayValue(good: Buffer, array: HeadArray | RestArray, at: number, value: number): Buffer {
  const { offset, length, size } = arrayPlace(good, array);
  if (at < 0 || at >= length) throw new Error(`${array} has no element ${at}`);
  const bytes = Buffer.from(good);
  if (size === 8) bytes.writeDoubleLE(value, offset + 8 * at);
  else bytes.writeInt32LE(value, offset + 4 * at);
  return bytes;
}

/** The snapshot with element `at` of one of its head's arrays set to `value`, all else as it was. */
export const withHeadValue = (good: Buffer, array: HeadArray, at: number, value: number): Buffer => withArrayValue(good, array, at, value);

/**
 * The same snapshot with two of its words numbered the other way round: the vocabulary's entries,
 * the words' postings (of as many entries each, so each keeps its place), naming counts, and every
 * id of them in the field and body counts. What it says is what `good` says: another writer's
 * snapshot of the same files, of the same size and keys, whose word ids differ.
 */
export function withWordsSwapped(good: Buffer, first: string, second: string): Buffer {
  const vocabulary = snapshotHeader(good).vocabulary as string[];
  const [a, b] = [vocabulary.indexOf(first), vocabulary.indexOf(second)];
  const offsets = snapshotArray(good, 'offsets');
  const postings = (w: number) => offsets[w + 1]! - offsets[w]!;
  if (a < 0 || b < 0 || a === b || postings(a) !== postings(b)) throw new Error(`${first} and ${second} cannot swap places`);
  let bytes = forgedSnapshot(good, (h) => {
    const words = h.vocabulary as string[];
    [words[a], words[b]] = [words[b]!, words[a]!];
  });
  const swapAt = (array: HeadArray, i: number, j: number) => {
    const values = snapshotArray(bytes, array);
    bytes = withArrayValue(withArrayValue(bytes, array, i, values[j]!), array, j, values[i]!);
  };
  for (let k = 0; k < postings(a); k++) {
    swapAt('postingEntries', offsets[a]! + k, offsets[b]! + k);
    swapAt('pseudoFrequencies', offsets[a]! + k, offsets[b]! + k);
  }
  swapAt('naming', a, b);
  for (const array of ['fieldIds', 'bodyIds'] as const) {
    snapshotArray(bytes, array).forEach((id, i) => {
      if (id === a || id === b) bytes = withArrayValue(bytes, array, i, id === a ? b : a);
    });
  }
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
