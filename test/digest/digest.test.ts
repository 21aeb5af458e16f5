import { describe, expect, it } from 'vitest';
import { type AnswerRecord, buildDigest, renderDigest } from '../../src/digest/digest-report.js';
import { parsePeriod, periodOf } from '../../src/digest/period.js';
import { wikiHealth } from '../../src/digest/wiki-health.js';
import { DEFAULT_CONFIG } from '../../src/config/config.js';
import type { Outcome, Trace } from '../../src/answer/trace.js';
import { openWikiLayout } from '../../src/wiki/open.js';
import { makeWiki, page } from '../helpers/wiki-fixture.js';

describe('digest periods', () => {
  it.each([
    ['2026-11-30T10:00:00Z', '2026-W49', '2026-11-30'],
    ['2026-12-06T23:59:59Z', '2026-W49', '2026-11-30'],
    ['2027-01-01T00:00:00Z', '2026-W53', '2026-12-28'],
    ['2021-01-03T12:00:00Z', '2020-W53', '2020-12-28'],
    ['2024-12-30T00:00:00Z', '2025-W01', '2024-12-30'],
  ])('%s is in ISO week %s starting %s', (at, label, start) => {
    const p = periodOf('week', new Date(at));
    expect(p.label).toBe(label);
    expect(p.start.toISOString().slice(0, 10)).toBe(start);
    expect(parsePeriod(label).start.toISOString()).toBe(p.start.toISOString());
  });

  it('knows months too, and refuses other labels', () => {
    expect(periodOf('month', new Date('2026-11-30T10:00:00Z'))).toMatchObject({ label: '2026-11' });
    expect(parsePeriod('2026-02').end.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(() => parsePeriod('last week')).toThrow('2026-W49 or 2026-11');
  });

  it.each(['2026-49', '2026-13', '2026-00', '2026-W60', '2025-W53', '2026-W00'])(
    'refuses %s with the accepted forms instead of rolling over to another period',
    (label) => {
      expect(() => parsePeriod(label)).toThrow(/like 2026-W49 or 2026-11 \(an ISO week: 01–52, or 53 in a year that has one; or a month: 01–12\)/);
    },
  );

  it('takes week 53 in a year that has one', () => {
    expect(parsePeriod('2020-W53').label).toBe('2020-W53');
  });
});

const trace = (question: string, outcome: Outcome, terms: string[], cited: string[] = []): Trace =>
  ({
    question,
    outcome,
    branch: outcome === 'cold' ? 'cold' : 'inline',
    signal_terms: terms.map((term) => ({ term, kind: 'word' })),
    candidates: cited.map((path) => ({ path, title: path, matched: [] })),
    citations: cited.map((path) => ({ path, lines: [1, 1], quote: 'x' })),
  }) as unknown as Trace;

const record = (n: number, t: Trace, up = 0, down = 0): AnswerRecord => ({
  trace: t,
  where: 'issue',
  issueNumber: n,
  url: `https://github.test/o/r/issues/${n}#c`,
  createdAt: '2026-11-30T10:00:00Z',
  reactions: { up, down },
});

describe('digest report', () => {
  const period = periodOf('week', new Date('2026-11-30T10:00:00Z'));
  const answers = [
    record(1, trace('How do I rotate the deploy keys?', 'cold', ['rotate', 'deploy', 'keys'])),
    record(2, trace('Rotating deploy keys: how?', 'gap', ['rotating', 'deploy', 'keys'])),
    record(3, trace('What is the cache TTL?', 'answered', ['cache', 'ttl'], ['concepts/cache.md']), 3, 0),
    record(4, trace('Where are the backups?', 'cold', ['backups'])),
    record(5, trace('Why is the cache so slow?', 'answered', ['cache', 'slow'], ['concepts/cache.md']), 0, 2),
  ];

  it('counts outcomes, groups reworded questions into topics (most asked first), and tallies feedback', () => {
    const r = buildDigest({
      period,
      now: new Date('2026-12-01T00:00:00Z'),
      answers,
      captures: [{ number: 9, title: 'wiki: capture', url: 'u9', createdAt: '2026-11-20T00:00:00Z', mergedAt: null, state: 'open', issueNumber: 1 }],
      health: undefined,
    });
    expect(r.outcomes).toEqual({ answered: 2, gap: 1, cold: 2, error: 0 });
    expect(r.unansweredTopics.map((g) => g.questions.map((q) => q.issueNumber))).toEqual([[1, 2], [4]]);
    expect(r.unansweredTopics[0]!.capture).toEqual({ number: 9, url: 'u9' });
    expect(r.openCaptures).toEqual([{ number: 9, title: 'wiki: capture', url: 'u9', ageDays: 11 }]);
    expect(r.feedback).toMatchObject({ up: 3, down: 2, mostDownvoted: [{ question: 'Why is the cache so slow?', down: 2 }] });
    expect(r.mostCited).toEqual([{ path: 'concepts/cache.md', citations: 2 }]);
    const md = renderDigest(r, 'wiki-steward digest 2026-W49');
    expect(md).toContain('```mermaid\npie title Outcomes\n  "answered" : 2\n  "gap" : 1\n  "cold" : 2\n```');
    expect(md).toContain('asked 2× (#1, #2), capture #9');
  });

  it('questions from issues and discussions in one table; a reviewed answer counts its question once, with the votes of both answers', () => {
    const inDiscussion = (n: number, t: Trace, key: string, createdAt: string, up = 0, down = 0): AnswerRecord => ({
      ...record(n, t, up, down),
      where: 'discussion',
      questionKey: key,
      url: `https://github.test/o/r/discussions/${n}#${key}`,
      createdAt,
    });
    const r = buildDigest({
      period,
      now: new Date('2026-12-01T00:00:00Z'),
      answers: [
        // The reviewed answer is read first (discussions come newest first): the latest still wins.
        inDiscussion(
          7,
          trace('How do I rotate the deploy keys?', 'answered', ['rotate', 'deploy', 'keys'], ['how-to/keys.md']),
          'discussion-7',
          '2026-12-02T00:00:00Z',
          1,
          0,
        ),
        { ...record(1, trace('How do I rotate the deploy keys?', 'cold', ['rotate', 'deploy', 'keys'])), questionKey: 'issue-1' },
        inDiscussion(7, trace('How do I rotate the deploy keys?', 'cold', ['rotate', 'deploy', 'keys']), 'discussion-7', '2026-11-30T11:00:00Z', 0, 2),
        inDiscussion(8, trace('Deploy keys | rotate them?', 'gap', ['deploy', 'keys', 'rotate']), 'discussion-8', '2026-11-30T12:00:00Z'),
      ],
      captures: [
        { number: 9, title: 'wiki: capture', url: 'u9', createdAt: '2026-11-30T00:00:00Z', mergedAt: null, state: 'open', where: 'issue', issueNumber: 8 },
        {
          number: 10,
          title: 'wiki: capture',
          url: 'u10',
          createdAt: '2026-11-30T00:00:00Z',
          mergedAt: null,
          state: 'open',
          where: 'discussion',
          issueNumber: 8,
        },
      ],
      health: undefined,
    });
    expect(r.asked).toBe(3);
    expect(r.outcomes).toEqual({ answered: 1, gap: 1, cold: 1, error: 0 });
    expect(r.questions.map((q) => [q.where, q.issueNumber, q.outcome, q.up, q.down])).toEqual([
      ['issue', 1, 'cold', 0, 0],
      ['discussion', 7, 'answered', 1, 2],
      ['discussion', 8, 'gap', 0, 0],
    ]);
    expect(r.unansweredTopics.map((g) => g.questions.map((q) => `${q.where} ${q.issueNumber}`))).toEqual([['issue 1', 'discussion 8']]);
    expect(r.unansweredTopics[0]!.capture).toEqual({ number: 10, url: 'u10' }); // the discussion's, not issue #8's
    expect(r.feedback).toMatchObject({ up: 1, down: 2, mostDownvoted: [{ where: 'discussion', issueNumber: 7, down: 2, up: 1 }] });
    const md = renderDigest(r, 'wiki-steward digest 2026-W49');
    expect(md.split('\n').filter((l) => l.startsWith('| '))).toEqual([
      '| Asked in | Question | Outcome | 👍 | 👎 |',
      '| [#1](https://github.test/o/r/issues/1#c) | How do I rotate the deploy keys? | cold | 0 | 0 |',
      '| [discussion #7](https://github.test/o/r/discussions/7#discussion-7) | How do I rotate the deploy keys? | answered | 1 | 2 |',
      '| [discussion #8](https://github.test/o/r/discussions/8#discussion-8) | Deploy keys \\| rotate them? | gap | 0 | 0 |',
    ]);
    expect(md).toContain('asked 2× (#1, discussion #8), capture #10');
  });

  it('reports wiki health: invalid pages, orphans, stale and low-quality pages', async () => {
    const wiki = await makeWiki({
      'concepts/a.md': page({ title: 'Alpha', type: 'concepts', body: 'Links to [beta](/concepts/b.md).' }),
      'concepts/b.md': page({ title: 'Beta', type: 'concepts', body: 'Links to [alpha](a.md) and [nowhere](/x.md).' })
        .replace('overall: 3.25', 'overall: 2.5')
        .replace('rated_by: human', 'rated_by: ingester')
        .replace('accuracy: 4', 'accuracy: 1')
        .replace('signal: 4', 'signal: 4'),
      'concepts/lonely.md': page({ title: 'Lonely', type: 'concepts' }),
    });
    const health = await wikiHealth(await openWikiLayout(wiki, DEFAULT_CONFIG), { now: new Date('2027-06-01T00:00:00Z'), staleDays: 180 });
    expect(health.orphans).toEqual(['concepts/lonely.md']);
    expect(health.brokenLinks).toEqual([{ path: 'concepts/b.md', line: 17, target: '/x.md' }]);
    expect(health.invalid.map((i) => i.path)).toEqual(['concepts/b.md']);
    expect(health.lowQuality).toEqual([{ path: 'concepts/b.md', overall: 2.5 }]);
    expect(health.stale.map((s) => s.path).sort()).toEqual(['concepts/a.md', 'concepts/b.md', 'concepts/lonely.md']);
  });
});
