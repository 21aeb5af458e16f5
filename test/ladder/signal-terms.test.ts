import { describe, expect, it } from 'vitest';
import { extractSignalTerms } from '../../src/ladder/signal-terms.js';

const terms = (q: string, stop: string[] = []) => extractSignalTerms(q, stop).terms.map((t) => `${t.term}:${t.kind}`);

describe('signal-term extraction', () => {
  it.each([
    ['How do I configure the Tavily web search provider?', ['configure:word', 'Tavily:proper-noun', 'web:word', 'search:word', 'provider:word']],
    ['What does `KC_DB_URL` do in simple-git 4.0.2?', ['KC_DB_URL:code', 'simple-git:word', '4.0.2:version']],
    ['Does Brave Search need an API key?', ['Brave Search:proper-noun', 'API:proper-noun', 'key:word']],
    ['What changed in v0.3.0?', ['changed:word', '0.3.0:version']],
    ['Is "quote not found" an error?', ['quote not found:quoted', 'error:word']],
    ['Install it with --inline-max 3 and @actions/core', ['install:word', 'inline-max:identifier', '@actions/core:identifier']],
    [
      "GitHub Models returns 410, what's wrong with GitHub's API?",
      ['GitHub Models:proper-noun', 'returns:word', '410:identifier', 'wrong:word', 'GitHub:proper-noun', 'API:proper-noun'],
    ],
    ['What does exit code 7 mean?', ['exit:word', 'code:word', 'code 7:identifier']],
    ['where is .wiki-steward.yml read from', ['.wiki-steward.yml:identifier', 'read:word']],
    // Hyphenated everyday words are words even with a capital; all-capital or inner-capital parts stay names.
    [
      'An X-ray flagged the O-rings; is X-Forwarded-For or GPT-Neo involved?',
      ['x-ray:word', 'flagged:word', 'o-rings:word', 'X-Forwarded-For:identifier', 'GPT-Neo:identifier', 'involved:word'],
    ],
  ])('%s', (question, expected) => expect(terms(question)).toEqual(expected));

  it('drops "e.g." and "i.e." as abbreviations, not identifiers a page must hold, keeping dotted names', () => {
    const { terms: kept, dropped } = extractSignalTerms('Can I wrap a buffer, e.g. a file, i.e. seekable, in node.js or U.S. law?');
    expect(kept.map((t) => `${t.term}:${t.kind}`)).toEqual([
      'wrap:word',
      'buffer:word',
      'file:word',
      'seekable:word',
      'node.js:identifier',
      'U.S:identifier',
      'law:word',
    ]);
    expect(dropped).toEqual(
      expect.arrayContaining([
        { term: 'e.g', reason: 'abbreviation' },
        { term: 'i.e', reason: 'abbreviation' },
      ]),
    );
  });

  it('reads a long pasted message word by word instead of as one exact phrase', () => {
    expect(terms('CI fails with `3 of 7 index files are stale`')).toEqual(['CI:proper-noun', 'fails:word', 'index:word', 'files:word', 'stale:word']);
  });

  it('drops stopwords, config stopwords, single characters and bare numbers, saying why', () => {
    const { terms: kept, dropped } = extractSignalTerms('how do I add 2 x widgets to the wiki', ['widgets']);
    expect(kept.map((t) => t.term)).toEqual(['add', 'wiki']);
    expect(dropped).toEqual(
      expect.arrayContaining([
        { term: 'how', reason: 'stopword' },
        { term: '2', reason: 'bare number' },
        { term: 'x', reason: expect.stringMatching(/single character|stopword/) },
        { term: 'widgets', reason: 'stopword' },
      ]),
    );
  });

  it('drops contractions of stopwords as the stopwords they contract, keeping the words beside them', () => {
    const { terms: kept, dropped } = extractSignalTerms("We're designing anodes they've sized, and shouldn't the pipe's coating hold?");
    expect(kept.map((t) => t.term)).toEqual(['designing', 'anodes', 'sized', 'pipe', 'coating', 'hold']);
    expect(dropped.map((d) => d.term)).toEqual(expect.arrayContaining(["we're", "they've", "shouldn't"]));
  });

  it('keeps one term per folded form', () => {
    expect(terms('hooks and the hook, Hooks')).toEqual(['hooks:word']);
  });

  it('treats a capital at the start of a sentence as grammar, not a name', () => {
    expect(terms('Install the hook. Then run Tavily Search.')).toEqual(['install:word', 'hook:word', 'run:word', 'Tavily Search:proper-noun']);
  });

  it('handles non-English text', () => {
    expect(terms('Wie funktioniert die Straßenbahn-Übersicht?')).toEqual(['funktioniert:word', 'Straßenbahn-Übersicht:identifier']);
    expect(terms('データベースの設定')).toEqual(['データベース:word', '設定:word']);
    expect(terms('日本酒の造り方を教えてください')).toEqual(['日本酒:word']);
    expect(terms('如何配置数据库')).toEqual(['如何配置数据库:word']);
  });
});
