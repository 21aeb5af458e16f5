// The catalog's entries as its snapshot keeps them (snapshot-file.ts): each entry's fields, all but
// its path and index file (kept beside them), as one JSON text, the texts laid end to end. A warm
// load decodes an entry only when a question reads it: on a large wiki a question reads a few
// hundred of its thousands, and decoding them all (the strings and arrays of every entry) cost a
// warm load more than anything else it did. The texts are untrusted: a malformed one reads as an
// entry of its path alone (its file name as its title), since the snapshot only ranks.
import path from 'node:path';
import { type FoldedText, foldText, normalize } from './text-match.js';
import { type WikiEntry, entryCategory } from './wiki-entry.js';
import { isObject, isString, isStrings, parseJson } from './json-guards.js';

/** An entry's own fields: what its text holds (folded texts as their joined words, the rest rebuilt from them). */
type EntryFields = Omit<WikiEntry, 'path' | 'category' | 'listedIn'>;
type EntryText = Omit<EntryFields, 'folded'> & { folded: { title: string; summary: string } };

/**
 * The start of an entry's text up to its folded texts, which come last: the same for two entries
 * exactly when their own fields are (a load that reads some pages compares a kept entry by it,
 * without decoding the kept one).
 */
function entryFieldsText(e: Omit<WikiEntry, 'folded'>): string {
  const fields: Omit<EntryText, 'folded'> = {
    title: e.title,
    summary: e.summary,
    tags: e.tags,
    aliases: e.aliases,
    headings: e.headings,
    linkTexts: e.linkTexts,
    openCapture: e.openCapture,
  };
  return `${JSON.stringify(fields).slice(0, -1)},"folded":`;
}

/** The entries' texts, end to end, with where each ends (in bytes); a kept entry's as the file had it. */
export function encodeEntries(entries: readonly WikiEntry[]): { bytes: Buffer; ends: Int32Array<ArrayBuffer> } {
  const ends = new Int32Array(entries.length);
  let end = 0;
  const texts = entries.map((e, i) => {
    const json =
      keptBytes(e) ?? Buffer.from(`${entryFieldsText(e)}${JSON.stringify({ title: e.folded.title.joined, summary: e.folded.summary.joined })}}`, 'utf8');
    ends[i] = end += json.length;
    return json;
  });
  return { bytes: Buffer.concat(texts), ends };
}

/** A kept entry's text as the snapshot file holds it (undefined for an entry a load built). */
export const keptBytes = (entry: WikiEntry): Buffer | undefined => (entry instanceof KeptEntry ? entry.bytes : undefined);

/**
 * Whether a kept entry's text holds these own fields: it starts with their entryFieldsText and what
 * follows is the folded texts alone, then the text's end. The text is untrusted: one that went on
 * past its folded texts (`…},"title":"other"}`, JSON keeping the last) or ended in a malformed tail
 * would decode to other fields than the ones compared.
 */
export function holdsFields(bytes: Buffer, entry: Omit<WikiEntry, 'folded'>): boolean {
  const fields = Buffer.from(entryFieldsText(entry), 'utf8');
  if (bytes.length <= fields.length || bytes[bytes.length - 1] !== 0x7d || !fields.equals(bytes.subarray(0, fields.length))) return false;
  const folded = parseJson(bytes.toString('utf8', fields.length, bytes.length - 1));
  return isObject(folded) && Object.keys(folded).length === 2 && isJoined(folded.title) && isJoined(folded.summary);
}

/** The entry a kept text holds, at `path` and listed in `listedIn` (a kept text holds neither). */
export const keptEntry = (path: string, listedIn: string | undefined, bytes: Buffer): WikiEntry => new KeptEntry(path, listedIn, bytes, 0, bytes.length);

/**
 * The entries kept in `bytes` (entry i's text ends at ends[i]), each decoded when first read. The
 * caller has checked that `ends` rise within `bytes`.
 */
export function keptEntries(paths: readonly string[], listedIn: ReadonlyArray<string | undefined>, bytes: Buffer, ends: Int32Array): WikiEntry[] {
  return paths.map((p, i) => new KeptEntry(p, listedIn[i], bytes, i === 0 ? 0 : ends[i - 1]!, ends[i]!));
}

class KeptEntry implements WikiEntry {
  #fields: EntryFields | undefined;

  constructor(
    readonly path: string,
    readonly listedIn: string | undefined,
    /** The entries' texts, this one's from `start` to `end` (a view made only when read: most never are). */
    private readonly texts: Buffer,
    private readonly start: number,
    private readonly end: number,
  ) {}

  /** The entry's text as the snapshot file holds it (a write copies it as it is). */
  get bytes(): Buffer {
    return this.texts.subarray(this.start, this.end);
  }
  get category(): string {
    return entryCategory(this.path);
  }

  get title(): string {
    return this.#decoded().title;
  }
  get summary(): string {
    return this.#decoded().summary;
  }
  get tags(): string[] {
    return this.#decoded().tags;
  }
  get aliases(): string[] {
    return this.#decoded().aliases;
  }
  get headings(): string[] {
    return this.#decoded().headings;
  }
  get linkTexts(): string[] {
    return this.#decoded().linkTexts;
  }
  get openCapture(): boolean {
    return this.#decoded().openCapture;
  }
  get folded(): { title: FoldedText; summary: FoldedText } {
    return this.#decoded().folded;
  }

  /** The entry as a plain object (what JSON and a comparison see). */
  toJSON(): WikiEntry {
    const { path, category, listedIn } = this;
    return { path, category, ...this.#decoded(), ...(listedIn === undefined ? {} : { listedIn }) };
  }

  #decoded(): EntryFields {
    this.#fields ??= decodeEntry(this.texts.toString('utf8', this.start, this.end), this.path);
    return this.#fields;
  }
}

function decodeEntry(text: string, page: string): EntryFields {
  const kept = parseJson(text);
  if (!isEntryText(kept)) {
    const title = path.posix.basename(page, '.md');
    return {
      title,
      summary: '',
      tags: [],
      aliases: [],
      headings: [],
      linkTexts: [],
      openCapture: false,
      folded: { title: foldText(title), summary: foldText('') },
    };
  }
  // The folded texts rebuilt from their joined words: the costly folding is not done again, and
  // the words and normalised text only when read (a question's term matching reads `joined` alone
  // for most of the entries it decodes).
  const folded = (joined: string, text: string): FoldedText => {
    let words: readonly string[] | undefined;
    let raw: string | undefined;
    return {
      get words() {
        return (words ??= joined.length > 2 ? joined.slice(1, -1).split(' ') : []);
      },
      joined,
      get raw() {
        return (raw ??= normalize(text));
      },
    };
  };
  const { title, summary, tags, aliases, headings, linkTexts, openCapture } = kept;
  return {
    title,
    summary,
    tags,
    aliases,
    headings,
    linkTexts,
    openCapture,
    folded: { title: folded(kept.folded.title, title), summary: folded(kept.folded.summary, summary) },
  };
}

/** Joined folded words: ` word word ` (or two spaces for none). */
const isJoined = (v: unknown): v is string => isString(v) && v.startsWith(' ') && v.endsWith(' ') && v.length >= 2;

function isEntryText(v: unknown): v is EntryText {
  if (!isObject(v) || !isObject(v.folded)) return false;
  const { title, summary, tags, aliases, headings, linkTexts, openCapture, folded } = v;
  return (
    [title, summary].every(isString) &&
    [tags, aliases, headings, linkTexts].every(isStrings) &&
    typeof openCapture === 'boolean' &&
    isJoined(folded.title) &&
    isJoined(folded.summary)
  );
}
