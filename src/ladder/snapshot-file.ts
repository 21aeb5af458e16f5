// The catalog snapshot's file (see catalog-cache.ts for what it is and when it is used), in two
// parts. The head is what a load over unchanged files needs: MAGIC, the header's length (uint32 LE),
// the header (JSON), zeros to a multiple of 8, the typed arrays of HEAD_ARRAYS, zeros to a multiple
// of 8, then the entries' texts (kept-entries.ts). The rest is what a load that reads some pages
// needs: the files' keys (JSON), one JSON line per page, zeros to a multiple of 8, then the typed
// arrays of REST_ARRAYS. Typed arrays are little-endian, each as long as the header says. The file
// is untrusted: everything read is checked, and a malformed part is no snapshot. Two parts are
// checked only when read: an entry's text (a malformed one is an entry of its path alone) and a
// page's line (a malformed one makes the load that asked for it read every page).
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import type { AcronymFindings } from './acronyms.js';
import type { PageFacts, ReadPage } from './page-facts.js';
import type { BodyCounts, FieldCounts, Postings, RelevanceParts } from './relevance.js';
import type { WikiEntry } from './wiki-entry.js';
import { encodeEntries, keptEntries } from './kept-entries.js';
import { type WordIndex, wordIndexHolds } from './word-index.js';
import { isCount, isList, isObject, isPair, isString, isStrings, parseJson } from './json-guards.js';

const MAGIC = Buffer.from('WSCATLG\n', 'latin1');
const NEWLINE = Buffer.from('\n', 'latin1');
/** The counts of a page that could not be read. */
const NO_BODY: BodyCounts = { ids: new Int32Array(0), counts: new Int32Array(0), length: 0 };
/** Past this a snapshot file is not read (a wiki whose snapshot is this large loads cold). */
const MAX_SNAPSHOT_BYTES = 1024 * 1024 * 1024;
/** Where the header's length is, and where the header starts (after the magic and that length). */
const HEADER_AT = MAGIC.length + 4;
/** How a snapshot file is opened: not through a symbolic link, and not waiting for a FIFO's writer. */
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
/** Short fields per page (FieldCounts' ends and lengths). */
const SHORT_FIELD_COUNT = 6;

/**
 * A page as the snapshot keeps it: its facts or why it could not be read, with its file key; one
 * taken from a snapshot carries its line of the file, written again as it was.
 */
export type KeptPage = ReadPage & { key: string; line?: Buffer };

/** Every file a load read (pages, index files, schema.md) and the attributes files in the wiki's folders, wiki-relative, with their keys. */
export type FileKeys = Array<[path: string, key: string]>;

/** The digest of a load's file keys: a warm load compares it, and reads the keys themselves only to update. */
export function keysDigest(keys: ReadonlyArray<readonly [string, string]>): string {
  const hash = createHash('sha256');
  // Hashed a chunk at a time, not a key at a time: a call into the hash per key cost more than the hashing.
  let chunk = '';
  for (const pair of keys) {
    chunk += `${pair[0]}\0${pair[1]}\0`;
    if (chunk.length >= 1 << 16) {
      hash.update(chunk);
      chunk = '';
    }
  }
  return hash.update(chunk).digest('hex');
}

/** What a load computed, as kept (see loadCatalog). */
export interface CatalogSnapshot {
  /** keysDigest of the keys the snapshot was made from. */
  keysDigest: string;
  /** In page order; each entry's fields are decoded when first read. */
  entries: WikiEntry[];
  acronyms: Array<[acronym: string, expansions: string[]]>;
  /** Pages that could not be read (a load adds the files whose names are unsafe). */
  unreadable: Array<{ path: string; reason: string }>;
  /** The ranking's parts: its folded words by id, postings and naming frequencies (see RelevanceIndex.parts). */
  relevance: RelevanceParts;
  /** Which entries hold each word of their titles, summaries and tags, and of their aliases and link texts (word-index.ts). */
  names: WordIndex;
  phrases: WordIndex;
  /**
   * What only a load that reads some pages needs, read and checked when first asked for, once (it
   * rejects when malformed): the file keys, the entries' short fields counted, in entry order, and every page
   * read, in page order, both over `relevance.vocabulary`.
   */
  rest(): Promise<SnapshotRest>;
}

export interface SnapshotRest {
  keys: FileKeys;
  fieldCounts: FieldCounts[];
  /** The kept pages, in page order, each parsed and checked when asked for. */
  pages: KeptPages;
}

export interface KeptPages {
  readonly count: number;
  /** Page i, its line parsed and checked (it throws when malformed). */
  page(i: number): KeptPage;
  /** Page i as written again without parsing its line: the line and the body's counts. */
  line(i: number): KeptLine;
}

/** A kept page written again as the file has it, its line unparsed, with its body's counts (empty for a page that could not be read). */
export interface KeptLine {
  line: Buffer;
  body: BodyCounts;
}

/** What a load writes: the snapshot with its parts at hand; pages read, or kept as they were. */
export type CatalogSnapshotParts = Omit<CatalogSnapshot, 'rest' | 'keysDigest'> & {
  keys: FileKeys;
  fieldCounts: FieldCounts[];
  pages: Array<KeptPage | KeptLine>;
};

/** A page's facts as kept: the body's counts are in the arrays, the acronyms as pairs. */
type KeptFacts = Omit<PageFacts, 'body' | 'acronyms'> & { acronyms: Array<[string, Array<[string, string]>]> };
type KeptPageJson = { path: string; key: string; facts: KeptFacts } | { path: string; key: string; unreadable: string };

interface Header {
  stamp: string;
  keysDigest: string;
  /** The entries' paths, in entry order. */
  paths: string[];
  /** The index files that list entries (the head array `listedBy` says which lists which). */
  listers: string[];
  acronyms: CatalogSnapshot['acronyms'];
  unreadable: CatalogSnapshot['unreadable'];
  vocabulary: string[];
  nameWords: string[];
  phraseWords: string[];
  /** Each head array's length in elements, HEAD_ARRAYS' order. */
  head: number[];
  /** Bytes of the entries' texts that end the head. */
  entryBytes: number;
  /** Bytes of the keys' JSON that starts the rest, and of the pages' JSON that follows it. */
  keysBytes: number;
  pagesBytes: number;
  /** Each rest array's length in elements, REST_ARRAYS' order. */
  rest: number[];
}

/**
 * The head's typed arrays, in file order: the postings, naming frequencies, the word indexes, and
 * per entry its index file (a position in the header's `listers`, or -1) and where its text ends.
 */
const HEAD_ARRAYS = [
  ['pseudoFrequencies', Float64Array],
  ['offsets', Int32Array],
  ['postingEntries', Int32Array],
  ['naming', Int32Array],
  ['nameOffsets', Int32Array],
  ['nameEntries', Int32Array],
  ['phraseOffsets', Int32Array],
  ['phraseEntries', Int32Array],
  ['listedBy', Int32Array],
  ['entryEnds', Int32Array],
] as const;
/** The rest's typed arrays, in file order: the entries' field counts and every page's body counts (none for one that could not be read). */
const REST_ARRAYS = [
  ['fieldIds', Int32Array],
  ['fieldCounts', Int32Array],
  ['fieldEnds', Int32Array],
  ['fieldLengths', Int32Array],
  ['bodyIds', Int32Array],
  ['bodyCounts', Int32Array],
  ['bodyEnds', Int32Array],
  ['bodyLengths', Int32Array],
] as const;
type ArrayList = typeof HEAD_ARRAYS | typeof REST_ARRAYS;
type Arrays<L extends ArrayList> = { [K in L[number] as K[0]]: K[1] extends Float64ArrayConstructor ? Float64Array<ArrayBuffer> : Int32Array<ArrayBuffer> };
type HeadArrays = Arrays<typeof HEAD_ARRAYS>;
type RestArrays = Arrays<typeof REST_ARRAYS>;
/** Arrays to write: any typed array of the right element type will do. */
type ToWrite<L extends ArrayList> = Record<L[number][0], Float64Array | Int32Array>;

/** The snapshot file's bytes, in parts. */
export function encodeSnapshot(snapshot: CatalogSnapshotParts, stamp: string): Buffer[] {
  const { postings, naming, vocabulary } = snapshot.relevance;
  const fields = flatten(snapshot.fieldCounts, (f) => [f.ids, f.counts]);
  const pageBodies = snapshot.pages.map((p) => ('facts' in p ? p.facts.body : 'body' in p ? p.body : NO_BODY));
  const bodies = flatten(pageBodies, (b) => [b.ids, b.counts]);
  const listerAt = new Map<string, number>();
  for (const e of snapshot.entries) if (e.listedIn !== undefined && !listerAt.has(e.listedIn)) listerAt.set(e.listedIn, listerAt.size);
  const listers = [...listerAt.keys()];
  const entryTexts = encodeEntries(snapshot.entries);
  const head: ToWrite<typeof HEAD_ARRAYS> = {
    pseudoFrequencies: postings.pseudoFrequencies,
    offsets: postings.offsets,
    postingEntries: postings.entries,
    naming,
    nameOffsets: snapshot.names.offsets,
    nameEntries: snapshot.names.entries,
    phraseOffsets: snapshot.phrases.offsets,
    phraseEntries: snapshot.phrases.entries,
    listedBy: Int32Array.from(snapshot.entries, (e) => (e.listedIn === undefined ? -1 : listerAt.get(e.listedIn)!)),
    entryEnds: entryTexts.ends,
  };
  const rest: ToWrite<typeof REST_ARRAYS> = {
    fieldIds: fields.values[0]!,
    fieldCounts: fields.values[1]!,
    // Each entry's field ends as offsets into the flat ids (FieldCounts' are the entry's own).
    fieldEnds: concatInt32(snapshot.fieldCounts.map((f, e) => f.ends.map((end) => end + (e === 0 ? 0 : fields.ends[e - 1]!)))),
    fieldLengths: concatInt32(snapshot.fieldCounts.map((f) => f.lengths)),
    bodyIds: bodies.values[0]!,
    bodyCounts: bodies.values[1]!,
    bodyEnds: bodies.ends,
    bodyLengths: Int32Array.from(pageBodies, (b) => b.length),
  };
  // One line per page; a page the snapshot held with the same key is its line again (nothing of it changed).
  const pagesJson = Buffer.concat(
    snapshot.pages.flatMap((p, i) => [
      ...(i === 0 ? [] : [NEWLINE]),
      !('path' in p) ? p.line : (p.line ?? Buffer.from(JSON.stringify(keptPageJson(p)), 'utf8')),
    ]),
  );
  const keysJson = Buffer.from(JSON.stringify(snapshot.keys), 'utf8');
  const header: Header = {
    stamp,
    keysDigest: keysDigest(snapshot.keys),
    paths: snapshot.entries.map((e) => e.path),
    listers,
    acronyms: snapshot.acronyms,
    unreadable: snapshot.unreadable,
    vocabulary: [...vocabulary],
    nameWords: [...snapshot.names.words],
    phraseWords: [...snapshot.phrases.words],
    head: HEAD_ARRAYS.map(([name]) => head[name].length),
    entryBytes: entryTexts.bytes.length,
    keysBytes: keysJson.length,
    pagesBytes: pagesJson.length,
    rest: REST_ARRAYS.map(([name]) => rest[name].length),
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const layout = layoutOf(json.length, header);
  const lead = Buffer.alloc(HEADER_AT);
  MAGIC.copy(lead, 0);
  lead.writeUInt32LE(json.length, MAGIC.length);
  // The parts as they go into the file, the arrays' own bytes and no copy of them.
  const parts: Buffer[] = [lead, json, Buffer.alloc(layout.headArraysAt - HEADER_AT - json.length)];
  const bytesOf = (array: Float64Array | Int32Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
  for (const [name] of HEAD_ARRAYS) parts.push(bytesOf(head[name]));
  const written = () => parts.reduce((n, part) => n + part.length, 0);
  parts.push(Buffer.alloc(layout.entriesAt - written()), entryTexts.bytes);
  parts.push(Buffer.alloc(layout.restAt - written()), keysJson, pagesJson);
  parts.push(Buffer.alloc(layout.restArraysAt - written()));
  for (const [name] of REST_ARRAYS) parts.push(bytesOf(rest[name]));
  return parts;
}

/** A page as its line of the file holds it: the body's counts are in the arrays, the acronyms as pairs. */
function keptPageJson(p: KeptPage): KeptPageJson {
  if (!('facts' in p)) return { path: p.path, key: p.key, unreadable: p.unreadable };
  const { title, ownSummary, tags, aliases, headings, links, wikilinks, acronyms, openCapture } = p.facts;
  const pairs: KeptFacts['acronyms'] = [...acronyms].map(([k, forms]) => [k, [...forms]]);
  return { path: p.path, key: p.key, facts: { title, ownSummary, tags, aliases, headings, links, wikilinks, acronyms: pairs, openCapture } };
}

/** Where each part of a snapshot file starts, from its header (and the header's length in bytes). */
function layoutOf(headerBytes: number, header: Pick<Header, 'head' | 'entryBytes' | 'keysBytes' | 'pagesBytes' | 'rest'>) {
  const bytesOf = (list: ArrayList, lengths: readonly number[]) => list.reduce((n, [, Type], i) => n + (lengths[i] ?? 0) * Type.BYTES_PER_ELEMENT, 0);
  const headArraysAt = align8(HEADER_AT + headerBytes);
  const entriesAt = align8(headArraysAt + bytesOf(HEAD_ARRAYS, header.head));
  const restAt = align8(entriesAt + header.entryBytes);
  const restArraysAt = align8(restAt + header.keysBytes + header.pagesBytes);
  return { headArraysAt, entriesAt, restAt, restArraysAt, end: restArraysAt + bytesOf(REST_ARRAYS, header.rest) };
}

/** Lists of pairs of arrays as two flat arrays, with each item's end (cumulative) in `ends`. */
function flatten<T>(items: readonly T[], pair: (item: T) => [Int32Array, Int32Array]): { values: Int32Array<ArrayBuffer>[]; ends: Int32Array<ArrayBuffer> } {
  const ends = new Int32Array(items.length);
  let total = 0;
  items.forEach((item, i) => (ends[i] = total += pair(item)[0].length));
  const values = [new Int32Array(total), new Int32Array(total)];
  let at = 0;
  for (const item of items) {
    const [a, b] = pair(item);
    values[0]!.set(a, at);
    values[1]!.set(b, at);
    at += a.length;
  }
  return { values, ends };
}

function concatInt32(arrays: readonly Int32Array[]): Int32Array<ArrayBuffer> {
  const out = new Int32Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

const align8 = (n: number): number => Math.ceil(n / 8) * 8;

/** Bytes [at, at + length) of an open file, or undefined when the file is shorter. */
async function readRange(handle: FileHandle, at: number, length: number): Promise<Buffer | undefined> {
  // Its own buffer, never the pool's: typed arrays are laid over it, aligned. Not zeroed first: a
  // read that fills less of it is refused.
  const bytes = Buffer.allocUnsafeSlow(length);
  const { bytesRead } = await handle.read(bytes, 0, length, at);
  return bytesRead === length ? bytes : undefined;
}

/**
 * The snapshot in `file` when it is well formed and of this `stamp`, reading its head only; else
 * undefined. Its rest is read, and checked, when a load asks for it.
 */
export async function readSnapshot(file: string, stamp: string): Promise<CatalogSnapshot | undefined> {
  // Never through a symbolic link, and never waiting on a FIFO: only a regular file is read.
  const handle = await open(file, READ_FLAGS);
  try {
    const info = await handle.stat();
    const size = info.size;
    const lead = info.isFile() && size <= MAX_SNAPSHOT_BYTES ? await readRange(handle, 0, HEADER_AT) : undefined;
    if (!lead || !lead.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    const headerLength = lead.readUInt32LE(MAGIC.length);
    const headerBytes = HEADER_AT + headerLength <= size ? await readRange(handle, HEADER_AT, headerLength) : undefined;
    const header = headerBytes && parseJson(headerBytes);
    if (!headerBytes || !isHeader(header) || header.stamp !== stamp) return undefined;
    const layout = layoutOf(headerLength, header);
    if (layout.end !== size) return undefined;
    const head = await readRange(handle, layout.headArraysAt, layout.restAt - layout.headArraysAt);
    const arrays = head && typedArrays(head, HEAD_ARRAYS, header.head);
    if (!arrays) return undefined;
    const entryTexts = head.subarray(layout.entriesAt - layout.headArraysAt, layout.entriesAt - layout.headArraysAt + header.entryBytes);
    // The rest is read from the file as it is when first asked for, once; the same header (and so
    // the same keys and word ids) or nothing.
    let restRead: Promise<SnapshotRest> | undefined;
    const rest = () => (restRead ??= readRest());
    const readRest = async (): Promise<SnapshotRest> => {
      const again = await open(file, READ_FLAGS);
      try {
        const info = await again.stat();
        const same = info.isFile() && info.size === size && (await readRange(again, HEADER_AT, headerLength))?.equals(headerBytes);
        const bytes = same ? await readRange(again, layout.restAt, size - layout.restAt) : undefined;
        if (!bytes) throw new MalformedSnapshot('rewritten while read');
        const restArrays = typedArrays(bytes.subarray(layout.restArraysAt - layout.restAt), REST_ARRAYS, header.rest);
        if (!restArrays) throw new MalformedSnapshot('rest');
        const words = header.vocabulary.length;
        const keys = parseJson(bytes.subarray(0, header.keysBytes));
        if (!isList(keys, (k) => isPair(k, isString, isString))) throw new MalformedSnapshot('keys');
        if (keysDigest(keys) !== header.keysDigest) throw new MalformedSnapshot('keys');
        return {
          keys,
          fieldCounts: keptFieldCounts(restArrays, header.paths.length, words),
          pages: keptPages(bytes.subarray(header.keysBytes, header.keysBytes + header.pagesBytes), restArrays, words),
        };
      } finally {
        await again.close();
      }
    };
    return decodeHead(header, arrays, entryTexts, rest);
  } finally {
    await handle.close();
  }
}

/** The snapshot's head, checked: undefined when any part is malformed. */
function decodeHead(header: Header, arrays: HeadArrays, entryTexts: Buffer, rest: CatalogSnapshot['rest']): CatalogSnapshot | undefined {
  const words = header.vocabulary.length;
  const postings: Postings = { offsets: arrays.offsets, entries: arrays.postingEntries, pseudoFrequencies: arrays.pseudoFrequencies };
  const entries = header.paths.length;
  const { listedBy, entryEnds } = arrays;
  const names: WordIndex = { words: header.nameWords, offsets: arrays.nameOffsets, entries: arrays.nameEntries };
  const phrases: WordIndex = { words: header.phraseWords, offsets: arrays.phraseOffsets, entries: arrays.phraseEntries };
  if (
    !wordIndexHolds(names, entries) ||
    !wordIndexHolds(phrases, entries) ||
    arrays.offsets.length !== words + 1 ||
    !postingsHold(postings, entries) ||
    arrays.naming.length !== words ||
    !arrays.naming.every((n) => n >= 0 && n <= entries) ||
    new Set(header.vocabulary).size !== words ||
    listedBy.length !== entries ||
    !listedBy.every((n) => n >= -1 && n < header.listers.length) ||
    entryEnds.length !== entries ||
    !entryEnds.every((end, i) => end >= (i === 0 ? 0 : entryEnds[i - 1]!)) ||
    (entries > 0 ? entryEnds[entries - 1]! : 0) !== header.entryBytes
  )
    return undefined;
  const listedIn = Array.from(listedBy, (n) => header.listers[n]);
  return {
    keysDigest: header.keysDigest,
    entries: keptEntries(header.paths, listedIn, entryTexts, entryEnds),
    acronyms: header.acronyms,
    unreadable: header.unreadable,
    relevance: { vocabulary: header.vocabulary, postings, naming: arrays.naming },
    names,
    phrases,
    rest,
  };
}

/**
 * The arrays of `list` laid over `bytes` (from its start), each `lengths[i]` long, when the lengths
 * fit; a copy when `bytes` does not start on a multiple of 8 (a typed array must be aligned).
 */
function typedArrays<L extends ArrayList>(bytes: Buffer, list: L, lengths: readonly number[]): Arrays<L> | undefined {
  if (lengths.length !== list.length) return undefined;
  const base = bytes.byteOffset % 8 === 0 ? bytes : Buffer.from(bytes);
  const out: Record<string, Float64Array | Int32Array> = {};
  let at = 0;
  for (const [i, [name, Type]] of list.entries()) {
    const byteLength = lengths[i]! * Type.BYTES_PER_ELEMENT;
    if (at + byteLength > base.length) return undefined;
    out[name] = new Type(base.buffer as ArrayBuffer, base.byteOffset + at, lengths[i]!);
    at += byteLength;
  }
  return out as Arrays<L>;
}

/** Offsets rise from 0 to the postings' count; each word's pages ascend, within the catalog; every weight positive. */
function postingsHold({ offsets, entries, pseudoFrequencies }: Postings, pages: number): boolean {
  if (entries.length !== pseudoFrequencies.length || offsets[0] !== 0 || offsets[offsets.length - 1] !== entries.length) return false;
  for (let w = 0; w + 1 < offsets.length; w++) {
    const [from, to] = [offsets[w]!, offsets[w + 1]!];
    if (to < from) return false;
    let last = -1;
    for (let k = from; k < to; k++) {
      const entry = entries[k]!;
      if (entry <= last || entry >= pages) return false;
      last = entry;
    }
  }
  // Plain loops: a callback per posting costs more than the check (millions on a large wiki).
  for (let k = 0; k < pseudoFrequencies.length; k++) {
    const f = pseudoFrequencies[k]!;
    if (!(f > 0 && f < Number.POSITIVE_INFINITY)) return false;
  }
  return true;
}

class MalformedSnapshot extends Error {
  constructor(what: string) {
    super(`malformed catalog snapshot: ${what}`);
  }
}

/** Word ids below `words` with positive counts, `ends` rising within the ids: else MalformedSnapshot. */
function checkCounted(ids: Int32Array, counts: Int32Array, ends: Int32Array, words: number, what: string): void {
  if (counts.length !== ids.length) throw new MalformedSnapshot(what);
  for (let k = 0; k < ids.length; k++) if (ids[k]! < 0 || ids[k]! >= words || counts[k]! <= 0) throw new MalformedSnapshot(what);
  let last = 0;
  for (const end of ends) {
    if (end < last || end > ids.length) throw new MalformedSnapshot(what);
    last = end;
  }
  if (ends.length > 0 && last !== ids.length) throw new MalformedSnapshot(what);
}

function keptFieldCounts(arrays: RestArrays, entries: number, words: number): FieldCounts[] {
  const { fieldIds, fieldCounts, fieldEnds, fieldLengths } = arrays;
  if (fieldEnds.length !== entries * SHORT_FIELD_COUNT || fieldLengths.length !== fieldEnds.length || !fieldLengths.every((n) => n >= 0))
    throw new MalformedSnapshot('field counts');
  checkCounted(fieldIds, fieldCounts, fieldEnds, words, 'field counts');
  return Array.from({ length: entries }, (_, e) => {
    const from = e === 0 ? 0 : fieldEnds[e * SHORT_FIELD_COUNT - 1]!;
    const to = fieldEnds[(e + 1) * SHORT_FIELD_COUNT - 1]!;
    return {
      ids: fieldIds.subarray(from, to),
      counts: fieldCounts.subarray(from, to),
      ends: fieldEnds.slice(e * SHORT_FIELD_COUNT, (e + 1) * SHORT_FIELD_COUNT).map((end) => end - from),
      lengths: fieldLengths.subarray(e * SHORT_FIELD_COUNT, (e + 1) * SHORT_FIELD_COUNT),
    };
  });
}

/** The kept pages over the rest's bytes and arrays: the bodies checked now, each line when its page is asked for. */
function keptPages(bytes: Buffer, arrays: RestArrays, words: number): KeptPages {
  // Each line as the file's bytes: a page kept again is written from them, never encoded anew.
  const lines: Buffer[] = [];
  for (let from = 0; from < bytes.length;) {
    const end = bytes.indexOf(0x0a, from);
    const to = end < 0 ? bytes.length : end;
    lines.push(bytes.subarray(from, to));
    from = to + 1;
  }
  const { bodyIds, bodyCounts, bodyEnds, bodyLengths } = arrays;
  if (bodyEnds.length !== lines.length || bodyLengths.length !== lines.length || !bodyLengths.every((n) => n >= 0)) throw new MalformedSnapshot('page bodies');
  checkCounted(bodyIds, bodyCounts, bodyEnds, words, 'page bodies');
  const body = (i: number): BodyCounts => {
    const from = i === 0 ? 0 : bodyEnds[i - 1]!;
    return { ids: bodyIds.subarray(from, bodyEnds[i]!), counts: bodyCounts.subarray(from, bodyEnds[i]!), length: bodyLengths[i]! };
  };
  return {
    count: lines.length,
    line: (i) => ({ line: lines[i]!, body: body(i) }),
    page(i) {
      const line = lines[i]!;
      const page = parseJson(line);
      if (!isKeptPage(page)) throw new MalformedSnapshot('pages');
      if (!('facts' in page)) return { ...page, line };
      const { acronyms, ...facts } = page.facts;
      const findings: AcronymFindings = new Map(acronyms.map(([key, forms]) => [key, new Map(forms)]));
      return { path: page.path, key: page.key, facts: { ...facts, acronyms: findings, body: body(i) }, line };
    },
  };
}

const isLink = (v: unknown): v is { target: string; text?: string } => isObject(v) && isString(v.target) && (v.text === undefined || isString(v.text));

function isKeptPage(v: unknown): v is KeptPageJson {
  if (!isObject(v) || !isString(v.path) || !isString(v.key)) return false;
  if (!('facts' in v)) return isString(v.unreadable);
  const f = v.facts;
  return (
    isObject(f) &&
    [f.title, f.ownSummary].every(isString) &&
    [f.tags, f.aliases, f.headings].every(isStrings) &&
    isList(f.links, (l): l is { target: string; text: string } => isLink(l) && isString(l.text)) &&
    isList(f.wikilinks, isLink) &&
    typeof f.openCapture === 'boolean' &&
    isList(f.acronyms, (a): a is [string, Array<[string, string]>] => isPair(a, isString, (forms) => isList(forms, (p) => isPair(p, isString, isString))))
  );
}

function isHeader(v: unknown): v is Header {
  return (
    isObject(v) &&
    isString(v.stamp) &&
    isString(v.keysDigest) &&
    isStrings(v.paths) &&
    isStrings(v.listers) &&
    isList(v.acronyms, (a) => isPair(a, isString, isStrings)) &&
    isList(v.unreadable, (u): u is { path: string; reason: string } => isObject(u) && isString(u.path) && isString(u.reason)) &&
    isStrings(v.vocabulary) &&
    isStrings(v.nameWords) &&
    isStrings(v.phraseWords) &&
    isList(v.head, isCount) &&
    isCount(v.entryBytes) &&
    isCount(v.keysBytes) &&
    isCount(v.pagesBytes) &&
    isList(v.rest, isCount)
  );
}
