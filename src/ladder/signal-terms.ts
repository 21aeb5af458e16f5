// Signal terms: what in a question could name a page. Deterministic, in this order:
//   1. `code spans` and "quoted phrases" of up to three words are kept whole (longer ones, usually
//      pasted messages, are read word by word);
//   2. version numbers (`0.3.0`, `v2.1`) are kept, without the leading `v`;
//   3. identifiers — tokens with digits, `_ . / @ :` or a hyphen beside a capital or digit inside,
//      or a leading `--`, `.` or `@` (`@actions/core`, `KC_DB_URL`, `--inline-max`, `gpt-4o`),
//      numbers of three or more digits (`429`), and short numbers with the word that names them
//      (`code 7` in `exit code 7`) — are kept whole; lowercase hyphenated words (`read-only`,
//      `simple-git`) are kept whole too, as ordinary words; a trailing possessive `'s` is dropped;
//   4. runs of Capitalised words (or names with inner capitals: `GitHub`, `SearXNG`) not at the
//      start of a sentence are proper-noun phrases ("Brave Search", "GitHub Models"); all-capital
//      acronyms (`API`, `PR`) count as proper nouns;
//   5. every other word is lowercased; stopwords (English and other European languages' lists,
//      question words, the config's own),
//      single characters and shorter numbers are dropped, with the reason kept for the trace.
// Plural and inflected forms are folded when terms are matched (see text-match.ts).
import { deu, eng, fra, ita, nld, por, spa } from 'stopword';
import { replaceCodeSpans } from '../markdown/code.js';
import { foldedWords } from './text-match.js';
import { defineKnobs } from './tuning.js';

export type TermKind = 'code' | 'quoted' | 'version' | 'identifier' | 'proper-noun' | 'word' | 'expanded' | 'proposed' | 'feedback';

export interface SignalTerm {
  term: string;
  kind: TermKind;
  /** For terms the question did not say: the wiki vocabulary, the model or the pages that suggested it. */
  via?: string;
  /** For expanded terms: the page whose title this is; the term stands for that page alone. */
  page?: string;
  /** False when the term ranks pages but is too common to make candidates by the seed's gate. */
  gate?: false;
  /** Why the term does not open the gate. */
  note?: string;
  /** Its weight in the ranking (set by the ladder). */
  weight?: number;
}

export interface DroppedTerm {
  term: string;
  reason: string;
}

/**
 * Terms the question did not say itself: the wiki's vocabulary (`expanded`), the model (`proposed`)
 * and the best pages (`feedback`) add them to reach pages written in other words. They rank pages;
 * coverage is never judged on them.
 */
export const isOwnTerm = (term: Pick<SignalTerm, 'kind'>): boolean => term.kind !== 'expanded' && term.kind !== 'proposed' && term.kind !== 'feedback';
/** Added terms that stand for the question's subject in other words: they choose sentences too (feedback does not). */
export const isRewording = (term: Pick<SignalTerm, 'kind'>): boolean => term.kind === 'expanded' || term.kind === 'proposed';

/** Kinds that name something specific: a page read must contain them for the wiki to cover the question. */
export const STRICT_KINDS: ReadonlySet<TermKind> = new Set(['code', 'quoted', 'version', 'identifier', 'proper-noun']);

// Words that shape a question without naming its subject, on top of the English stopword list.
const QUESTION_WORDS = [
  'does',
  'doing',
  'done',
  'why',
  'when',
  'whats',
  "what's",
  'hows',
  "how's",
  'which',
  'whom',
  'whose',
  'cannot',
  "can't",
  'cant',
  "don't",
  'dont',
  "doesn't",
  'doesnt',
  "isn't",
  'isnt',
  "won't",
  'wont',
  "didn't",
  'didnt',
  "i'm",
  'im',
  "it's",
  'its',
  'is',
  'are',
  'was',
  'be',
  'will',
  'shall',
  'may',
  'there',
  'any',
  'anything',
  'something',
  'someone',
  'somebody',
  'way',
  'ways',
  'thing',
  'things',
  'stuff',
  'kind',
  'sort',
  'lot',
  'lots',
  'bit',
  'please',
  'thanks',
  'thank',
  'hi',
  'hello',
  'hey',
  'ok',
  'okay',
  'yes',
  'no',
  'not',
  'just',
  'really',
  'actually',
  'exactly',
  'also',
  'even',
  'ever',
  'every',
  'still',
  'yet',
  'already',
  'again',
  'instead',
  'rather',
  'else',
  'whether',
  'possible',
  'able',
  'need',
  'needs',
  'needed',
  'want',
  'wants',
  'wanted',
  'should',
  'would',
  'could',
  'might',
  'must',
  'let',
  'lets',
  'use',
  'using',
  'used',
  'uses',
  'work',
  'works',
  'working',
  'worked',
  'happen',
  'happens',
  'happened',
  'mean',
  'means',
  'meant',
  'tell',
  'know',
  'explain',
  'describe',
  'show',
  'shows',
  'see',
  'seems',
  'seem',
  'find',
  'try',
  'tried',
  'trying',
  'go',
  'goes',
  'going',
  'get',
  'gets',
  'getting',
  'got',
  'make',
  'makes',
  'made',
  'do',
  'did',
  'have',
  'has',
  'had',
  'one',
  'ones',
  'our',
  'we',
  'us',
  'my',
  'mine',
  'i',
  'me',
  'you',
  'your',
  'it',
  'they',
  'them',
  'their',
  'this',
  'that',
  'these',
  'those',
  'here',
  'what',
  'how',
  'who',
  'where',
  'the',
  'a',
  'an',
];
// English first; the other lists cover wikis and questions written in the common European languages.
const LIBRARY_STOPWORDS = [...eng, ...deu, ...fra, ...spa, ...ita, ...por, ...nld];
const WITH_QUESTION_WORDS: ReadonlySet<string> = new Set([...eng, ...QUESTION_WORDS, ...LIBRARY_STOPWORDS]);
const WITHOUT_QUESTION_WORDS: ReadonlySet<string> = new Set(LIBRARY_STOPWORDS);

/** The rules of term extraction, each of which the eval can turn off (see tuning.ts). */
const TERMS = defineKnobs('ladder/signal-terms', {
  QUESTION_WORDS: { value: true, off: false, means: "question words and fillers are stopwords beside the libraries' lists" },
  CONTRACTIONS: { value: true, off: false, means: "a contraction of a stopword is a stopword (we're, shouldn't)" },
  MAX_EXACT_WORDS: { value: 3, off: Number.POSITIVE_INFINITY, means: 'code spans and quotes up to this many words are kept whole' },
  VERSIONS: { value: true, off: false, means: 'version numbers are terms of their own' },
  NUMBER_NAMERS: { value: true, off: false, means: 'a short number with the word that names it is an identifier (exit code 7)' },
  HYPHENATED_WORDS: { value: true, off: false, means: 'lowercase hyphenated words are ordinary words, not identifiers' },
  IDENTIFIERS: { value: true, off: false, means: 'tokens with digits or inner punctuation are identifiers' },
  ACRONYMS: { value: true, off: false, means: 'all-capital words are names' },
  PROPER_NOUNS: { value: true, off: false, means: 'runs of capitalised words not at a sentence start are names' },
  DESIGNATIONS: { value: true, off: false, means: 'a name with a number or code (API RP 581) is a term of its own' },
  ABBREVIATIONS: { value: true, off: false, means: '"e.g." and "i.e." are grammar, not identifiers' },
});

/** The built-in stopwords: the libraries' lists and the question words. */
export const builtinStopwords = (): ReadonlySet<string> => (TERMS.QUESTION_WORDS ? WITH_QUESTION_WORDS : WITHOUT_QUESTION_WORDS);

/** An English contraction's ending: "we're", "they've", "shouldn't" are stopwords as "we", "they", "should" are. */
const CONTRACTION = /['’](?:s|re|ve|ll|d|m)$|n['’]t$/;
const TRIM = /^[\s([{"'“‘«<]+|(?:['’]s)?[\s)\]}"'”’»>,.;:!?]*$/g;
/** Words after which a short number is an identifier: `exit code 7`, `HTTP 404`, `port 8080`. */
const NUMBER_NAMERS = new Set(['code', 'status', 'error', 'exit', 'http', 'port', 'version', 'v', 'step', 'rule', 'issue', 'pr', '#']);
/**
 * Ordinary words joined by hyphens: lowercase parts (`read-only`), or a capital letter or
 * capitalised word beside at least one lowercase part (`X-ray`, `O-rings`, `Cut-outs` at a sentence
 * start). All-capital or inner-capital parts (`X-Forwarded-For`, `GPT-Neo`) stay identifiers.
 */
const compoundPart = /^(?:\p{Lu}|\p{Lu}?\p{Ll}+)$/u;
const isHyphenatedWords = (token: string): boolean => {
  const parts = token.split('-');
  return parts.length > 1 && parts.every((p) => compoundPart.test(p)) && parts.some((p) => /^\p{Ll}+$/u.test(p));
};
const VERSION = /^v?(\d+(?:\.\d+)+(?:[-+][0-9A-Za-z.-]+)?)$/i;
const IDENTIFIER = /^(?:--?|\.|@)\S|\S[-_./@:]\S|\p{N}.*\p{L}|\p{L}.*\p{N}|^\d{3,}$|\d\p{No}/u;
const ACRONYM = /^[A-Z]{2,}s?$/;
/** A lowercase abbreviation written with dots ("e.g.", "i.e."): grammar, not an identifier. */
const ABBREVIATION = /^(?:\p{Ll}\.)+\p{Ll}$/u;
/** A capitalised word, or a name with inner capitals (`GitHub`, `SearXNG`, `OpenAI`). */
const CAPITALISED = /^\p{Lu}[\p{L}\p{M}'’]*$/u;
const SENTENCE_END = /[.!?:;]$/;

const HAN_OR_KANA = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HIRAGANA_RUN = /\p{Script=Hiragana}+/u;

/**
 * Japanese writes no spaces; its grammar (particles, verb endings) is written in hiragana and its
 * content words mostly in kanji and katakana. A run mixing them is cut at the hiragana, which is
 * dropped: 日本酒の造り方を教えてください → 日本酒, 造, 方, 教 (single characters then drop out).
 * Runs of one script only (Chinese, or all-hiragana words) are kept whole.
 */
function splitJapanese(word: string): string[] {
  if (!HIRAGANA_RUN.test(word) || !/[\p{Script=Han}\p{Script=Katakana}]/u.test(word)) return [word];
  return word.split(/\p{Script=Hiragana}+/u).filter(Boolean);
}

export interface ExtractedTerms {
  terms: SignalTerm[];
  dropped: DroppedTerm[];
}

export function extractSignalTerms(question: string, extraStopwords: readonly string[] = []): ExtractedTerms {
  const terms: SignalTerm[] = [];
  const dropped: DroppedTerm[] = [];
  const stopwords = new Set([...builtinStopwords(), ...extraStopwords.map((w) => w.toLowerCase())]);
  let rest = question;
  // A long code span or quote is usually a pasted message with run-specific parts (paths,
  // counts): its words are read like the rest of the question instead of as one exact phrase (the
  // backticks of code inside it too: ``error: `x` not found``).
  const exact = (kind: TermKind, written: string | undefined): string => {
    const text = written?.trim();
    if (!text) return ' . ';
    if (text.split(/\s+/).length > TERMS.MAX_EXACT_WORDS) return ` ${text.replaceAll('`', ' ')} . `;
    terms.push({ term: text, kind });
    return ' . ';
  };
  // Code spans as a reader pairs them, on one line only: a term is shown back to the asker in
  // backticks, and a line break inside one would carry the rest of the question out of the answer's text.
  rest = replaceCodeSpans(rest, (span, content) => (span.includes('\n') ? span : exact('code', content)));
  rest = rest.replace(/"([^"\n]{2,})"|“([^”\n]{2,})”|(?<![\p{L}\p{N}])'([^'\n]{2,}?)'(?![\p{L}\p{N}])/gu, (_, ...groups: unknown[]) =>
    exact(
      'quoted',
      groups.slice(0, -2).find((g): g is string => typeof g === 'string'),
    ),
  );

  const tokens = rest.split(/\s+/).filter(Boolean);
  let sentenceStart = true;
  let phrase: string[] = [];
  const closePhrase = () => {
    if (phrase.length > 0) terms.push({ term: phrase.join(' '), kind: 'proper-noun' });
    phrase = [];
  };
  for (let i = 0; i < tokens.length; i++) {
    const raw = tokens[i]!;
    const token = raw.replace(TRIM, '');
    const atStart = sentenceStart;
    sentenceStart = SENTENCE_END.test(raw) || raw === '.';
    if (token === '') {
      closePhrase();
      continue;
    }
    const version = TERMS.VERSIONS ? VERSION.exec(token) : null;
    if (version) {
      closePhrase();
      terms.push({ term: version[1]!, kind: 'version' });
    } else if (TERMS.NUMBER_NAMERS && /^\d{1,2}$/.test(token) && NUMBER_NAMERS.has((tokens[i - 1] ?? '').replace(TRIM, '').toLowerCase())) {
      // A short number means something only with its name: "code 7", not every 7 on a page.
      closePhrase();
      terms.push({ term: `${(tokens[i - 1] ?? '').replace(TRIM, '')} ${token}`, kind: 'identifier' });
    } else if (TERMS.ABBREVIATIONS && ABBREVIATION.test(token)) {
      closePhrase();
      dropped.push({ term: token, reason: 'abbreviation' });
    } else if (TERMS.HYPHENATED_WORDS && isHyphenatedWords(token)) {
      // `read-only`, `pre-commit`: ordinary words joined, matched as a phrase but not strict.
      closePhrase();
      addWord(token);
    } else if (TERMS.IDENTIFIERS && IDENTIFIER.test(token)) {
      closePhrase();
      terms.push({ term: token.replace(/^-+/, ''), kind: 'identifier' });
    } else if (TERMS.ACRONYMS && ACRONYM.test(token)) {
      closePhrase();
      terms.push({ term: token, kind: 'proper-noun' });
    } else if (TERMS.PROPER_NOUNS && CAPITALISED.test(token) && !stopwords.has(token.toLowerCase())) {
      const next = tokens[i + 1]?.replace(TRIM, '') ?? '';
      // A capital at a sentence start is grammar, not a name, unless a capitalised word follows.
      if (!atStart || phrase.length > 0 || (!sentenceStart && CAPITALISED.test(next) && !stopwords.has(next.toLowerCase()))) {
        phrase.push(token);
      } else addWord(token);
    } else {
      closePhrase();
      for (const word of token.split(/[^\p{L}\p{N}'’-]+/u)) for (const piece of splitJapanese(word)) addWord(piece);
    }
    if (sentenceStart) closePhrase();
  }
  closePhrase();
  if (TERMS.DESIGNATIONS) terms.push(...designations(question, stopwords));

  function addWord(word: string): void {
    if (HAN_OR_KANA.test(word) && [...word].length < 2) {
      dropped.push({ term: word, reason: 'single character' });
      return;
    }
    const lower = word.toLowerCase().replace(/^['’-]+|['’-]+$/g, '');
    if (lower === '') return;
    if (stopwords.has(lower) || (TERMS.CONTRACTIONS && stopwords.has(lower.replace(CONTRACTION, '')))) dropped.push({ term: lower, reason: 'stopword' });
    else if (/^\d+$/.test(lower)) dropped.push({ term: lower, reason: 'bare number' });
    else if ([...lower].length < 2) dropped.push({ term: lower, reason: 'single character' });
    else terms.push({ term: lower, kind: 'word' });
  }

  // Each dropped word once, however often the question repeats it.
  const seenDropped = new Set<string>();
  const droppedOnce = dropped.filter((d) => !seenDropped.has(d.term) && seenDropped.add(d.term));
  return { terms: dedupe(terms), dropped: droppedOnce };
}

/**
 * A name followed by a number or code names one thing: "API RP 581", "ISO 9223", "AWS D1.1",
 * "Section VIII", "Method G" (a code is digits, a roman numeral, or one capital letter). The
 * whole designation is a term of its own (its parts stay terms too), so a title that carries it
 * whole is told apart from its siblings ("API RP 580").
 */
const DESIGNATION = /(?:(?:\p{Lu}[\p{L}&]*)[ \t]+){1,3}(?:\p{Lu}?\d[\p{L}\p{N}.-]*\p{N}?|[IVX]{2,5}(?![\p{L}\p{N}])|\p{Lu}(?![\p{L}\p{N}]))/gu;
function designations(question: string, stopwords: ReadonlySet<string>): SignalTerm[] {
  const found: SignalTerm[] = [];
  for (const m of question.matchAll(DESIGNATION)) {
    const words = m[0].replace(/[.-]+$/, '').split(/[ \t]+/);
    while (words.length > 1 && stopwords.has(words[0]!.toLowerCase())) words.shift();
    if (words.length >= 2) found.push({ term: words.join(' '), kind: 'proper-noun' });
  }
  return found;
}

/** One term per folded form; the first (most specific) reading wins. */
function dedupe(terms: SignalTerm[]): SignalTerm[] {
  const seen = new Set<string>();
  return terms.filter((t) => {
    const key = foldedWords(t.term).join(' ') || t.term.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
