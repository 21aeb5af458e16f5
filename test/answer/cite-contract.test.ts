// No answer passes the contract with a made-up source, whoever wrote it.
import { describe, expect, it } from 'vitest';
import type { Claim } from '../../src/answer/answerer.js';
import { TRAINING_DATA_FLAG, enforceCiteContract } from '../../src/answer/cite-contract.js';

const page = ['---', 'title: Hooks', '---', 'The hook validates staged pages.', 'It regenerates index files', 'and stages them.', '', 'Skip it with --no-verify.'].join('\n');
const context = { pagesRead: new Map([['how-to/hooks.md', page]]), searchUrls: new Set(['https://example.org/a']) };
const wiki = (quote: string, lines: [number, number], path = 'how-to/hooks.md'): Claim => ({ text: quote, citations: [{ path, lines, quote }] });

describe('cite contract', () => {
  it('passes a quote that occurs at the cited lines, whitespace-normalised', () => {
    const claim = wiki('It regenerates index files   and stages them.', [5, 6]);
    expect(enforceCiteContract([claim], context)).toEqual({ claims: [claim], violations: [] });
  });

  it('repairs a quote cited at the wrong lines', () => {
    const { claims, violations } = enforceCiteContract([wiki('Skip it with --no-verify.', [4, 4])], context);
    expect(claims[0]!.citations[0]).toMatchObject({ lines: [8, 8] });
    expect(violations).toEqual([expect.objectContaining({ rule: 'quote-not-in-page', action: 'repaired' })]);
  });

  it('drops a claim citing a page that was not read (an invented path included)', () => {
    const { claims, violations } = enforceCiteContract([wiki('The hook validates staged pages.', [4, 4], '../../etc/passwd')], context);
    expect(claims).toEqual([]);
    expect(violations[0]).toMatchObject({ rule: 'page-not-read', action: 'dropped' });
  });

  it('drops a claim whose quote is not in the page', () => {
    const { claims, violations } = enforceCiteContract([wiki('The hook also formats your code.', [4, 4])], context);
    expect(claims).toEqual([]);
    expect(violations[0]).toMatchObject({ rule: 'quote-not-in-page', action: 'dropped' });
  });

  it('drops a quote longer than two lines', () => {
    const { claims } = enforceCiteContract([wiki('The hook validates staged pages.\nIt regenerates index files\nand stages them.', [4, 6])], context);
    expect(claims).toEqual([]);
  });

  it('keeps only URLs that came from this run’s search results', () => {
    const good: Claim = { text: 'A fact.', citations: [{ url: 'https://example.org/a', title: 'A' }] };
    const bad: Claim = { text: 'Another.', citations: [{ url: 'https://evil.example/x', title: 'X' }] };
    const { claims, violations } = enforceCiteContract([good, bad], context);
    expect(claims).toEqual([good]);
    expect(violations[0]).toMatchObject({ rule: 'url-not-from-search', action: 'dropped' });
  });

  it('flags an uncited claim as training data', () => {
    const { claims, violations } = enforceCiteContract([{ text: 'Hooks are scripts.', citations: [] }], context);
    expect(claims[0]!.text).toBe(`Hooks are scripts. ${TRAINING_DATA_FLAG}`);
    expect(violations[0]).toMatchObject({ rule: 'uncited-claim', action: 'repaired' });
    expect(enforceCiteContract(claims, context).violations).toEqual([]);
  });
});
