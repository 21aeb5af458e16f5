// Hostile proposed signal terms through the Copilot stand-in (first send = the proposal).
import { afterAll, describe, expect, it } from 'vitest';
import { parseProposedTerms } from '../../src/answer/model/model-answerer.js';
import { COPILOT_STAND_IN as HOSTILE, CopilotScenarios } from '../providers/copilot-scenarios.js';
import { INSTALL_QUESTION, KEYS, askCli, expectNoKeys } from '../providers/support.js';

const scenarios = new CopilotScenarios();
afterAll(() => scenarios.cleanup());

async function ask(terms: unknown, question = INSTALL_QUESTION) {
  const script = await scenarios.write({ steps: [{ reply: { terms } }], fallback: { reader: true } });
  const run = await askCli(question, ['--llm', 'copilot', '--copilot-cli-path', HOSTILE, '--llm-terms'], {
    COPILOT_GITHUB_TOKEN: KEYS.COPILOT_GITHUB_TOKEN,
    ...script.env,
  });
  expectNoKeys(run.stdout, run.stderr);
  return run;
}

describe('hostile proposed terms (hold up)', () => {
  it('parseProposedTerms: caps, drops markup/metacharacters/__proto__', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `term${i}`);
    expect(parseProposedTerms(JSON.stringify({ terms: many }))).toHaveLength(8);
    expect(parseProposedTerms(JSON.stringify({ terms: ['__proto__', '.*', '(a|b)+$', '<!-- x -->', '@octocat', 'a\nb'] }))).toEqual([]);
    expect(parseProposedTerms('null')).toEqual(expect.any(String));
    expect(parseProposedTerms('[1,2]')).toEqual(expect.any(String));
  });

  it('prototype names, regex-ish joiners, common words, thousands of terms: the run answers, with at most 8 proposed terms', async () => {
    const hostile = [
      ['constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', 'isPrototypeOf', '__defineGetter__', 'propertyIsEnumerable'],
      ['a.b', 'c++', 'a/b', "o'b", 'x&y', '.', 'a-', 'wiki page the and'],
      ['wiki', 'page', 'the', 'a', 'is', 'and', 'of', 'to'],
      ['page', 'wiki', 'steward', 'index', 'hook', 'question', 'answer', 'file'],
      Array.from({ length: 5000 }, (_, i) => `w${i}`),
    ];
    for (const terms of hostile) {
      const run = await ask(terms);
      expect(run.trace.outcome, JSON.stringify(terms).slice(0, 80)).not.toBe('error');
      expect(run.trace.signal_terms.filter((t) => t.kind === 'proposed').length).toBeLessThanOrEqual(8);
    }
  });
});
