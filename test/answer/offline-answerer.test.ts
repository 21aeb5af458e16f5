// The offline answerer on small pages: which sentence is quoted, how it is cited, and how many
// pages it reads. Terms are given as the ladder would give them.
import { describe, expect, it } from 'vitest';
import type { AnswerRequest, Claim } from '../../src/answer/answerer.js';
import { enforceCiteContract } from '../../src/answer/cite-contract.js';
import { ANSWERER, OfflineAnswerer, judgeCoverage, tiedWithBest, weighTerms } from '../../src/answer/offline-answerer.js';
import { foldText } from '../../src/ladder/text-match.js';
import { renderAnswer } from '../../src/answer/render.js';
import type { SignalTerm } from '../../src/ladder/signal-terms.js';
import type { WikiCitation } from '../../src/answer/trace.js';

const fm = (title: string) => ['---', `title: ${title}`, 'type: concepts', '---'];
const pageOf = (title: string, ...body: string[]) => [...fm(title), ...body].join('\n');
const words = (...ts: string[]): SignalTerm[] => ts.map((term) => ({ term, kind: 'word' }));

async function ask(question: string, terms: SignalTerm[], pages: Record<string, string>, scores?: Record<string, number>) {
  const request: AnswerRequest = {
    question,
    branch: 'inline',
    terms,
    pages: new Map(Object.entries(pages)),
    ...(scores ? { scores: new Map(Object.entries(scores)) } : {}),
  };
  const draft = await new OfflineAnswerer().answer(request);
  // Every quote the answerer makes passes the cite contract untouched.
  const checked = enforceCiteContract(draft.claims, { pagesRead: new Map(draft.read.map((p) => [p, pages[p]!])), searchUrls: new Set() });
  expect(checked.violations).toEqual([]);
  return draft;
}
const cite = (claim: Claim) => claim.citations[0] as WikiCitation;

describe('offline answerer', () => {
  it('quotes the section whose heading matches, not a command fragment ending in a colon', async () => {
    const keys = pageOf(
      'Command reference',
      '',
      '# Command reference',
      '',
      '`wiki keys list` shows every workspace key with its age.',
      '',
      'To rotate keys for every workspace at once, run:',
      '',
      '```',
      'wiki keys rotate --all',
      '```',
      '',
      '## Rotating keys (recommended procedure)',
      '',
      'Create the new key first and deploy it everywhere before you revoke the old one.',
    );
    const draft = await ask('How do I rotate keys?', words('rotate', 'keys'), { 'how-to/keys.md': keys });
    expect(draft.claims[0]!.section).toEqual({ path: 'how-to/keys.md', heading: 'Rotating keys (recommended procedure)', line: 16 });
    expect(draft.claims[0]!.text).toBe('Create the new key first and deploy it everywhere before you revoke the old one.');
    expect(cite(draft.claims[0]!).lines).toEqual([18, 18]);
    for (const claim of draft.claims) expect(claim.text).not.toMatch(/:$/);
  });

  it('leads with a bold lead sentence that answers, over a list introduction', async () => {
    const keys = pageOf(
      'Keys',
      '',
      '**Rotate keys every ninety days: create the new key, deploy it, then revoke the old one.**',
      '',
      'Rotating keys from the command line:',
      '',
      '- `wiki keys rotate`',
    );
    const draft = await ask('How do I rotate keys?', words('rotate', 'keys'), { 'how-to/keys.md': keys });
    expect(draft.claims.map((c) => c.text)).toEqual(['Rotate keys every ninety days: create the new key, deploy it, then revoke the old one.']);
  });

  it('quotes the lead sentence that defines the term, not a table row of links or a transcript timestamp', async () => {
    const notes = pageOf(
      'Reading group notes',
      '',
      '# Reading group notes',
      '',
      '| Paper | Links |',
      '|---|---|',
      '| GRPO | [arxiv](https://arxiv.org/abs/2402.03300) · [code](https://github.com/example/grpo) |',
      '',
      '[00:41:07] GRPO came up again, everyone liked GRPO and the GRPO results',
      '',
      'GRPO (Group Relative Policy Optimization) is a reinforcement-learning method that ranks a group of sampled answers against each other instead of training a value model.',
      '',
      'We compared GRPO runs with PPO runs on the same budget.',
    );
    const draft = await ask('What is GRPO?', [{ term: 'GRPO', kind: 'proper-noun' }], { 'concepts/reading-group.md': notes });
    expect(draft.claims[0]!.text).toMatch(/^GRPO \(Group Relative Policy Optimization\) is a reinforcement-learning method/);
    expect(cite(draft.claims[0]!).lines).toEqual([14, 14]);
    for (const claim of draft.claims) expect(claim.text).not.toMatch(/\||00:41|arxiv/);
  });

  it('quotes a hard-wrapped sentence whole, and a sentence longer than two lines by its lines with two quoted', async () => {
    const plans = pageOf(
      'Plans',
      '',
      'The free plan keeps three pages',
      'of history for every workspace.',
      '',
      '## Paid plans',
      '',
      'The team plan keeps the history of every page',
      'for as long as the workspace exists, with one',
      'reviewer per page and a weekly digest.',
    );
    const free = await ask('How much history does the free plan keep?', words('free', 'history'), { 'concepts/plans.md': plans });
    expect(free.claims[0]!.citations).toEqual([
      { path: 'concepts/plans.md', lines: [6, 7], quote: 'The free plan keeps three pages of history for every workspace.' },
    ]);
    const team = await ask('How long does the team plan keep history?', words('team', 'history'), { 'concepts/plans.md': plans });
    expect(team.claims[0]!.citations).toEqual([
      { path: 'concepts/plans.md', lines: [11, 13], quote: 'The team plan keeps the history of every page for as long as the workspace exists, with one…' },
    ]);
  });

  it('never shows wikilinks, link targets or table markup, and the contract accepts the readable quote', async () => {
    const deploys = pageOf(
      'Deploys',
      '',
      '| Step | Owner |',
      '|---|---|',
      '| Deploys need the gate | [[ops]] |',
      '',
      'Deploys go through [[runbooks/deploy-gate|the deploy gate]] and need [[approvals]] from',
      '[on-call](../people/on-call.md) before **noon**.',
    );
    const draft = await ask('What do deploys need?', words('deploys', 'gate'), { 'concepts/deploys.md': deploys });
    expect(draft.claims.map((c) => c.text)).toEqual(['Deploys go through the deploy gate and need approvals from on-call before noon.']);
    const answer = renderAnswer({ outcome: 'answered', branch: 'inline', claims: draft.claims, missing: [], terms: [] });
    const quotes = answer.split('\n').filter((line) => line.startsWith('- “'));
    expect(quotes).toHaveLength(1);
    for (const line of quotes) expect(line).not.toMatch(/\[\[|\]\(|\||\*\*/);
  });

  it('says which missing words another page read holds, and the answer names only the rest as not in the wiki', async () => {
    const pages: Record<string, string> = {};
    for (let i = 1; i <= 4; i++) pages[`concepts/cache-${i}.md`] = pageOf(`Cache ${i}`, '', `Cache keys of kind ${i} rotate with the tenant.`);
    // Beyond the pages coverage is judged on, and only in a heading (never quoted): read, not quoted.
    pages['concepts/calendar.md'] = pageOf('Calendar', '', '## Quarterly', '', 'The calendar lists the release dates.');
    const draft = await ask('Do cache keys rotate quarterly with the fiscal tenant?', words('cache', 'keys', 'rotate', 'quarterly', 'fiscal', 'tenant'), pages);
    expect(draft.read).toContain('concepts/calendar.md');
    expect(draft.missing).toEqual(expect.arrayContaining(['quarterly', 'fiscal']));
    expect(draft.missingElsewhere).toEqual(['quarterly']);
    const answer = renderAnswer({
      outcome: 'gap',
      branch: 'explore',
      claims: draft.claims,
      missing: draft.missing,
      missingElsewhere: draft.missingElsewhere,
      terms: [],
    });
    expect(answer).toMatch(/\*\*Not in the wiki:\*\* `fiscal`\./);
    expect(answer).toMatch(/\*\*Not in the best-matching pages:\*\* `quarterly`\./);
  });

  it('reads candidates in rank order up to the page budget and lists the rest as unread, with why', async () => {
    const pages: Record<string, string> = {};
    for (let i = 1; i <= ANSWERER.OFFLINE_READ_BUDGET + 2; i++)
      pages[`concepts/widget-${i}.md`] = pageOf(`Widget ${i}`, '', `Widget number ${i} spins the gasket clockwise.`);
    const draft = await ask('Which widget spins the gasket?', words('widget', 'gasket'), pages);
    expect(ANSWERER.OFFLINE_READ_BUDGET).toBe(10);
    expect(draft.read).toEqual(Object.keys(pages).slice(0, 10));
    expect(draft.unread).toEqual([
      { path: 'concepts/widget-11.md', reason: 'beyond the offline read budget of 10 pages' },
      { path: 'concepts/widget-12.md', reason: 'beyond the offline read budget of 10 pages' },
    ]);
    // The best-ranked page leads; a later page is quoted only when it adds a term.
    expect(draft.claims.map((c) => cite(c).path)).toEqual(['concepts/widget-1.md']);
  });

  it('adds a later page only when it brings what the answer lacks, and lists the sections quoted from', async () => {
    const pages = {
      'concepts/cache.md': pageOf(
        'Cache',
        '',
        '## Expiry',
        '',
        'Cached pages expire after one day.',
        '',
        '## Keys',
        '',
        'Cached pages are keyed by their address.',
      ),
      'concepts/fetch.md': pageOf('Fetching', '', 'Fetched pages are cached and retried twice when a fetch fails.'),
      'concepts/other.md': pageOf('Other', '', 'Cached pages expire quickly here as well, every day.'),
    };
    // Two terms the first page lacks: the second page is quoted for them.
    const draft = await ask('How long are fetched pages cached, and are they retried?', words('fetched', 'cached', 'expire', 'retried'), pages);
    expect(draft.claims.map((c) => [cite(c).path, c.text])).toEqual([
      ['concepts/cache.md', 'Cached pages expire after one day.'],
      ['concepts/fetch.md', 'Fetched pages are cached and retried twice when a fetch fails.'],
    ]);
    expect(draft.claims.map((c) => c.section)).toEqual([
      { path: 'concepts/cache.md', heading: 'Expiry', line: 6 },
      // Above the first heading: the body's first line with text, not the blank line after the frontmatter.
      { path: 'concepts/fetch.md', heading: 'Fetching', line: 6 },
    ]);
    // One ordinary word is not worth a second page's quote; the best-ranked pages still cover it.
    const lean = await ask('How long are fetched pages cached?', words('fetched', 'cached', 'expire'), pages);
    expect(lean.claims.map((c) => cite(c).path)).toEqual(['concepts/cache.md']);
    expect(lean).toMatchObject({ covered: true, missing: [] });
    expect(draft).toMatchObject({ covered: true, missing: [] });
  });

  it('answers from a page of a hundred thousand sentences on one line, checking only the sentences it may quote', async () => {
    // Each sentence used to be checked against its (one, enormous) line before the best was chosen: minutes.
    const pages = { 'concepts/flood.md': pageOf('Flood', '', `${'The ocelot hunts. '.repeat(100_000)}The ocelot sleeps by day.`) };
    const draft = await ask('When does the ocelot sleep?', words('ocelot', 'sleep'), pages);
    expect(draft.claims[0]!.text).toBe('The ocelot sleeps by day.');
  });

  it('quotes a table row that states the asked-for value beside its page’s sentence, but a row neither leads nor brings in a page', async () => {
    const table = [
      '| Regime | Cycles to failure | Driver |',
      '|---|---|---|',
      '| Low-cycle fatigue | 10² – 10⁵ cycles | plastic strain |',
      '| High-cycle fatigue | 10⁵ – 10⁷ cycles | elastic stress |',
    ];
    const pages = {
      'concepts/fatigue.md': pageOf('Fatigue', '', 'Fatigue regimes are told apart by the cycles to failure.', '', ...table),
      'concepts/other.md': pageOf('Other', '', '| Low-cycle fatigue cycles | counted per shift | logbook |', '|---|---|---|', '| x | y | z |'),
    };
    const draft = await ask(
      'How many cycles separate low-cycle fatigue from high-cycle fatigue?',
      words('cycles', 'low-cycle', 'high-cycle', 'fatigue'),
      pages,
    );
    expect(draft.claims[0]!.text).toBe('Fatigue regimes are told apart by the cycles to failure.');
    expect(draft.claims.map((c) => c.text)).toContain('High-cycle fatigue · 10⁵ – 10⁷ cycles · elastic stress');
    expect(draft.claims.map((c) => cite(c).path)).not.toContain('concepts/other.md');
  });

  it('quotes each page tied with the best (the ranking cannot tell them apart), not only the one that won by a hair', async () => {
    const pages = {
      'concepts/cache.md': pageOf('Cache', '', 'Cached pages expire after one day.'),
      'concepts/fetch.md': pageOf('Fetching', '', 'Fetched pages are cached for a day before the next fetch.'),
    };
    const question = 'How long are fetched pages cached?';
    const terms = words('fetched', 'cached', 'expire');
    // The second page adds one ordinary word the first lacks: alone, not worth a quote…
    const apart = await ask(question, terms, pages, { 'concepts/cache.md': 10, 'concepts/fetch.md': 9 });
    expect(apart.claims.map((c) => cite(c).path)).toEqual(['concepts/cache.md']);
    // …but scored within 4% of the best, it is as likely to be the answer, and says its best sentence.
    const tied = await ask(question, terms, pages, { 'concepts/cache.md': 10, 'concepts/fetch.md': 9.7 });
    expect(tied.claims.map((c) => [cite(c).path, c.text])).toEqual([
      ['concepts/cache.md', 'Cached pages expire after one day.'],
      ['concepts/fetch.md', 'Fetched pages are cached for a day before the next fetch.'],
    ]);
  });

  it('counts the pages tied with the best in rank order, stopping at the first that falls behind', () => {
    const read = ['a.md', 'b.md', 'c.md', 'd.md'];
    expect(
      tiedWithBest(
        read,
        new Map([
          ['a.md', 10],
          ['b.md', 9.6],
          ['c.md', 9],
          ['d.md', 9.9],
        ]),
      ),
    ).toBe(2);
    expect(
      tiedWithBest(
        read,
        new Map([
          ['a.md', 10],
          ['b.md', 9.5],
        ]),
      ),
    ).toBe(1);
    expect(tiedWithBest(read, undefined)).toBe(1);
    expect(
      tiedWithBest(
        read,
        new Map([
          ['a.md', 0],
          ['b.md', 0],
        ]),
      ),
    ).toBe(1);
  });
});

describe('judgeCoverage', () => {
  const terms = weighTerms([
    { term: 'rotate', kind: 'word' },
    { term: 'keys', kind: 'word' },
    { term: 'quarterly', kind: 'word' },
    { term: '--max-citations', kind: 'identifier' },
  ]);
  it('says which missing terms another page read holds: those are not absent from the wiki', () => {
    const judged = [foldText('Rotate the keys with the admin console.')];
    const others = [foldText('Reports are sent quarterly.'), foldText('Nothing else here.')];
    const coverage = judgeCoverage(terms, judged, others);
    expect(coverage).toMatchObject({ covered: false, found: ['rotate', 'keys'], missing: ['quarterly', '--max-citations'], elsewhere: ['quarterly'] });
    // Without other pages read, nothing is elsewhere.
    expect(judgeCoverage(terms, judged).elsewhere).toEqual([]);
  });
});
