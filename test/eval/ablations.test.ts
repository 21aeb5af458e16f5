// Every constant and rule of the ladder and the offline answerer is measured: each is a knob with a
// row in eval/ABLATIONS.md (what turning it off costs each development bank), or is listed in
// eval/ablate.ts's NOT_KNOBS with the reason it moves no answer by itself. A constant added without
// either fails here.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOT_KNOBS, ablationTable, costsOfGoing, leaveOneOut, verdictOf } from '../../eval/ablate.js';
import { ANSWERER } from '../../src/answer/offline-answerer.js';
import { LADDER } from '../../src/ladder/ladder.js';
import { allKnobs, defineKnobs, withKnobsOff } from '../../src/ladder/tuning.js';
import '../../src/ladder/catalog.js';

const root = path.resolve(import.meta.dirname, '../..');
const sources = [
  ...readdirSync(path.join(root, 'src/ladder'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `src/ladder/${f}`),
  'src/answer/offline-answerer.ts',
];
/** `module.NAME` for each module-level `const NAME` in upper case in `text` that is not a set of knobs. */
function constantsIn(module: string, text: string): string[] {
  return [...text.matchAll(/^(?:export )?const ([A-Z][A-Z0-9_]*)\b(?![^\n]*= defineKnobs\()/gm)].map((m) => `${module}.${m[1]}`);
}
const moduleConstants = (file: string): string[] => constantsIn(file.replace(/^src\//, '').replace(/\.ts$/, ''), readFileSync(path.join(root, file), 'utf8'));

describe('the ablation table', () => {
  const table = readFileSync(path.join(root, 'eval/ABLATIONS.md'), 'utf8');

  it('has a row for every knob, and lists every other module-level constant with its reason', () => {
    const knobs = allKnobs()
      .map((k) => k.id)
      .filter((id) => !id.startsWith('test/'));
    // Every module of the ladder and the answerer that declares knobs is loaded by now.
    expect(knobs).toEqual(expect.arrayContaining(['ladder/ladder.BODY_CANDIDATES', 'ladder/relevance.K1', 'answer/offline-answerer.TIE_SHARE']));
    for (const id of knobs) expect(table, `eval/ABLATIONS.md has no row for ${id}: run npm run eval -- --ablate`).toContain(`| \`${id}\`:`);
    const constants = sources.flatMap(moduleConstants);
    expect(constants.length).toBeGreaterThan(20);
    for (const id of constants) expect(NOT_KNOBS[id], `${id} is neither a knob nor listed in NOT_KNOBS (eval/ablate.ts)`).toBeDefined();
    for (const id of Object.keys(NOT_KNOBS)) {
      expect(constants, `NOT_KNOBS lists ${id}, which no longer exists`).toContain(id);
      expect(table).toContain(`- \`${id}\`:`);
    }
  });

  it('finds a module-level constant that is neither (the scan itself works)', () => {
    const text = "const KEPT = 1;\nexport const SHOWN = 2;\nconst TUNED = defineKnobs('x/y', {});\n  const INNER = 3;\nconst lower = 4;\n";
    expect(constantsIn('x/y', text)).toEqual(['x/y.KEPT', 'x/y.SHOWN']);
  });
});

describe('knobs', () => {
  it('are off inside withKnobsOff and back on after it, even when the work throws', async () => {
    expect(LADDER.BODY_CANDIDATES).toBe(5);
    await withKnobsOff(['ladder/ladder.BODY_CANDIDATES', 'answer/offline-answerer.TIE_SHARE'], async () => {
      expect(LADDER.BODY_CANDIDATES).toBe(0);
      expect(ANSWERER.TIE_SHARE).toBe(Number.POSITIVE_INFINITY);
    });
    expect(LADDER.BODY_CANDIDATES).toBe(5);
    await expect(
      withKnobsOff(['ladder/ladder.BODY_CANDIDATES'], async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(LADDER.BODY_CANDIDATES).toBe(5);
    expect(ANSWERER.TIE_SHARE).toBe(0.96);
  });

  it('refuses an unknown knob by name, and a module declared twice reads one set', async () => {
    await expect(withKnobsOff(['ladder/ladder.NO_SUCH'], async () => 1)).rejects.toThrow(/no knob named ladder\/ladder\.NO_SUCH/);
    const again = defineKnobs('ladder/ladder', { BODY_CANDIDATES: { value: 99, off: 0, means: 'x' } });
    expect(again.BODY_CANDIDATES).toBe(5);
  });

  it('tell a module its memo is stale when they change', async () => {
    let told = 0;
    defineKnobs('test/memo', { FLAG: { value: true, off: false, means: 'a test knob' } }, () => told++);
    await withKnobsOff(['test/memo.FLAG'], async () => expect(told).toBe(1));
    expect(told).toBe(2);
  });
});

describe('backward elimination', () => {
  const figures = (ansCited: number, r1 = 0) => [0, 0, 0, ansCited, 0, 0, 0, r1, 0];
  const base = [figures(80, 70), figures(60, 60), figures(50, 50), figures(40, 40)];
  const banks = ['a', 'b', 'c', 'ours'];

  it('lets a set go that costs the macro under 2 questions and no bank more than 2', () => {
    expect(costsOfGoing(base, [figures(78, 70), figures(61, 60), figures(50, 49), figures(38, 40)], banks, 3)).toEqual([]);
  });
  it('keeps a set whose macro cost reaches 2 on any figure', () => {
    expect(costsOfGoing(base, [figures(78, 70), figures(58, 60), figures(48, 50), base[3]!], banks, 3)).toEqual(['macro ans+cited -2']);
  });
  it('keeps a set that costs any one bank more than 2, the guard bank outside the macro included', () => {
    expect(costsOfGoing(base, [base[0]!, base[1]!, base[2]!, figures(37, 40)], banks, 3)).toEqual(['ours ans+cited -3']);
  });
});

describe('the verdict', () => {
  const banks = ['a', 'b', 'c'];
  const figures = (ansCited: number, r1 = 0) => [0, 0, 0, ansCited, 0, 0, 0, r1, 0];

  it('keeps a knob that earns the macro 2 questions on a figure and costs no bank more than 2', () => {
    expect(verdictOf([figures(3), figures(2), figures(1)], banks)).toEqual({ keep: true, why: 'earns ans+cited +2' });
  });
  it('drops a knob that earns under 2 questions on every macro figure', () => {
    expect(verdictOf([figures(1, 1), figures(1), figures(2)], banks).keep).toBe(false);
  });
  it('drops a knob that costs one bank more than 2 questions, however much it earns elsewhere', () => {
    const verdict = verdictOf([figures(9), figures(9), figures(0, -3)], banks);
    expect(verdict).toEqual({ keep: false, why: 'hurts: c R@1 -3' });
  });
  it('calls a knob that changes under 2 answers on every bank unmeasured, whatever its figures', () => {
    expect(verdictOf([figures(0), figures(1), figures(0)], banks, [0, 1, 1])).toEqual({ keep: true, why: 'unmeasured: changes 2 answers in all' });
    expect(verdictOf([figures(0), figures(1), figures(0)], banks, [0, 2, 1]).keep).toBe(false);
  });
  it('writes one row per knob with the macro and each bank', () => {
    const knob = { id: 'ladder/ladder.X', means: 'a knob', value: 3, off: 0 };
    const text = ablationTable(
      banks,
      [figures(50), figures(60), figures(70)],
      [{ knob, gains: [figures(3), figures(2), figures(1)], changed: [4, 3, 2] }],
      'cmd',
    );
    expect(text).toContain('| `ladder/ladder.X`: a knob | 3 → 0 | 4 / 3 / 2 |');
    expect(text).toContain('+2 (+3 / +2 / +1)');
    expect(text).toContain('keep: earns ans+cited +2');
  });
});

describe('leave one out', () => {
  // ans+cited is the fourth figure; one point per value, one row of figures per bank.
  const point = (value: number, perBank: number[]) => ({ value, figures: perBank.map((n) => [0, 0, 0, n, 0, 0, 0, 0, 0]) });

  it('takes the value the other banks do best with and says what it loses on the bank left out', () => {
    const points = [point(1, [10, 10, 20]), point(2, [12, 12, 15]), point(3, [11, 11, 21])];
    expect(leaveOneOut(points, ['a', 'b', 'c'])).toEqual([
      { bank: 'a', chosen: 3, loss: 1 },
      { bank: 'b', chosen: 3, loss: 1 },
      { bank: 'c', chosen: 2, loss: 6 },
    ]);
  });
});
