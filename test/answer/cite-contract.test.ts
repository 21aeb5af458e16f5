// No answer passes the contract with a made-up source, whoever wrote it.
import { describe, expect, it } from 'vitest';
import type { Claim } from '../../src/answer/answerer.js';
import { TRAINING_DATA_FLAG, enforceCiteContract } from '../../src/answer/cite-contract.js';

const page = [
  '---',
  'title: Hooks',
  '---',
  'The hook validates staged pages.',
  'It regenerates index files',
  'and stages their pages.',
  '',
  'Skip it with --no-verify.',
].join('\n');
const context = { pagesRead: new Map([['how-to/hooks.md', page]]), searchUrls: new Set(['https://example.org/a']) };
const wiki = (quote: string, lines: [number, number], path = 'how-to/hooks.md'): Claim => ({ text: quote, citations: [{ path, lines, quote }] });

describe('cite contract', () => {
  it('passes a quote that occurs at the cited lines, whitespace-normalised', () => {
    const claim = wiki('It regenerates index files   and stages their pages.', [5, 6]);
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

  it('accepts a long sentence cited by its whole range with its first two lines quoted and "…"', () => {
    const claim = wiki('The hook validates staged pages. It regenerates index files…', [4, 6]);
    expect(enforceCiteContract([claim], context)).toEqual({ claims: [claim], violations: [] });
  });

  it('repairs a long range whose first two lines do not hold the quote to the tightest span', () => {
    const { claims, violations } = enforceCiteContract([wiki('and stages their pages.', [4, 8])], context);
    expect(claims[0]!.citations[0]).toMatchObject({ lines: [6, 6] });
    expect(violations).toEqual([{ rule: 'quote-not-in-page', detail: 'how-to/hooks.md: quote is at lines 6-6, not 4-8', action: 'repaired' }]);
  });

  it('compares quote and page as readable text: links as their text, emphasis and list markers dropped', () => {
    const linked = [
      '---',
      'title: Deploys',
      '---',
      '- Deploys go through [[runbooks/deploy-gate|the deploy gate]] and',
      '  need **two** [approvals](../people/approvals.md).',
    ].join('\n');
    const ctx = { pagesRead: new Map([['concepts/deploys.md', linked]]), searchUrls: new Set<string>() };
    const readable = wiki('Deploys go through the deploy gate and need two approvals.', [4, 5], 'concepts/deploys.md');
    expect(enforceCiteContract([readable], ctx)).toEqual({ claims: [readable], violations: [] });
    // A quote copied with its markup compares the same way.
    const raw = wiki('Deploys go through [[runbooks/deploy-gate|the deploy gate]] and\n  need **two**', [4, 5], 'concepts/deploys.md');
    expect(enforceCiteContract([raw], ctx).violations).toEqual([]);
    expect(enforceCiteContract([wiki('Deploys need three approvals.', [4, 5], 'concepts/deploys.md')], ctx).claims).toEqual([]);
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
