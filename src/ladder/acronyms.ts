// Acronyms a wiki spells out itself: "long-term corrosion rate (LTCR)", "Backend for Frontend (BFF)".
// A question that uses one form reaches pages written with the other, with no synonym list: the
// pairs come from the pages. The long form is found by the Schwartz–Hearst rule: walking back from
// the parenthesis, each letter of the acronym must appear, in order, in the words before it, and
// its first letter must start a word.
import { foldedWords } from './text-match.js';
import { defineKnobs } from './tuning.js';

const DEFINITION = /\(([\p{Lu}][\p{Lu}\p{N}&]{1,9}s?)\)/gu;
const ACRONYMS = defineKnobs('ladder/acronyms', {
  LOOK_BACK: { value: 120, off: 100_000, means: 'characters before the parenthesis where the long form may start' },
  MAX_EXPANSIONS: { value: 3, off: Number.POSITIVE_INFINITY, means: 'an acronym the wiki spells out in more ways than this is not trusted' },
});

/** The words before an acronym that spell it, or undefined. */
export function longFormOf(acronym: string, before: string): string | undefined {
  const letters = acronym
    .replace(/s$/, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
  const words = before.trim().split(/[ \t]+/);
  const maxWords = Math.min(letters.length + 5, letters.length * 2);
  for (let count = 1; count <= Math.min(words.length, maxWords); count++) {
    const candidate = words.slice(words.length - count).join(' ');
    if (spells(letters, candidate.toLowerCase())) return candidate;
  }
  return undefined;
}

function spells(letters: string, longForm: string): boolean {
  let l = longForm.length - 1;
  for (let a = letters.length - 1; a >= 0; a--) {
    const c = letters[a]!;
    // The first letter of the acronym must start a word of the long form.
    while (l >= 0 && (longForm[l] !== c || (a === 0 && l > 0 && /[\p{L}\p{N}]/u.test(longForm[l - 1]!)))) l--;
    if (l < 0) return false;
    l--;
  }
  // The long form must start with the word the first letter matched.
  return /^[\p{L}\p{N}]/u.test(longForm) && longForm.startsWith(letters[0]!);
}

/** Folded acronym → folded long form → the long form as first written, in the order first found. */
export type AcronymFindings = Map<string, Map<string, string>>;

/** Gathers the acronyms pages spell out, page by page as the catalog reads them. */
export class AcronymCollector {
  private readonly found: AcronymFindings = new Map();

  add(text: string): void {
    for (const m of text.matchAll(DEFINITION)) {
      const acronym = m[1]!;
      const before = text.slice(Math.max(0, m.index - ACRONYMS.LOOK_BACK), m.index);
      // The long form is the end of the same line and clause: never across a line or sentence break,
      // nor a pipe (a table cell's edge, or a wikilink's target before the text it shows).
      const clause = before.slice(Math.max(before.lastIndexOf('\n'), before.search(/[.;:!?(\][|][^.;:!?(\][|]*$/)) + 1);
      const longForm = longFormOf(acronym, clause);
      if (!longForm) continue;
      const key = foldedWords(acronym.replace(/s$/, '')).join(' ');
      const long = foldedWords(longForm).join(' ');
      if (key === '' || long === '' || long === key) continue;
      this.note(key, long, longForm.toLowerCase());
    }
  }

  /** Keeps the first form written for each folded long form, keys and forms in first-seen order. */
  private note(key: string, long: string, written: string): void {
    const forms = this.found.get(key) ?? new Map<string, string>();
    if (!forms.has(long)) forms.set(long, written);
    this.found.set(key, forms);
  }

  /** Everything found so far, every expansion kept (`result` drops the untrusted), to merge elsewhere. */
  findings(): AcronymFindings {
    return this.found;
  }

  /**
   * Adds another collector's findings as if its pages had been read after this one's: merging the
   * chunks of a wiki in order gives what reading its pages in order would.
   */
  merge(findings: AcronymFindings): void {
    for (const [key, forms] of findings) for (const [long, written] of forms) this.note(key, long, written);
  }

  /** Folded acronym → the long forms the wiki gives it, as first written (one per folded form). */
  result(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const [key, forms] of this.found) if (forms.size <= ACRONYMS.MAX_EXPANSIONS) out.set(key, [...forms.values()]);
    return out;
  }
}
