// The ranking's and the offline answerer's constants and rules, each declared with the value that
// turns it off, so that every one of them can be measured by what it earns: `npm run eval --
// --ablate` runs the development banks with each knob off in turn and writes eval/ABLATIONS.md.
// A module declares its knobs once (`defineKnobs`) and reads them where it uses them, so turning
// one off needs no reload. Only the eval turns knobs off; the product always runs on the values.

/**
 * One constant or rule: its value, the value that turns it off (a rule disabled, a weight or bonus
 * neutral, a threshold that lets everything through), and what it is for.
 */
export interface Knob<T> {
  value: T;
  off: T;
  /** What the knob does, in a few words (the ablation table's row heading). */
  means: string;
}

/** A registered knob, as the ablation run lists it. */
export interface KnobInfo {
  /** `room/module.NAME`, e.g. `ladder/ladder.BODY_CANDIDATES`. */
  id: string;
  means: string;
  value: unknown;
  off: unknown;
}

interface Registered {
  info: KnobInfo;
  live: Record<string, unknown>;
  name: string;
  /** Drops what the module worked out from the old value (a memo of folded words). */
  changed?: () => void;
}

const registry = new Map<string, Registered>();
/** Each declaring module's live values, by module name. */
const modules = new Map<string, Record<string, unknown>>();

type Values<D> = { readonly [N in keyof D]: D[N] extends Knob<infer T> ? T : never };

/**
 * Declares a module's knobs under `module` (`ladder/ladder`) and returns their live values.
 * Declaring the same module twice (a module loaded twice) keeps the first: both read one object.
 */
export function defineKnobs<const D extends Record<string, Knob<unknown>>>(module: string, knobs: D, changed?: () => void): Values<D> {
  const existing = modules.get(module);
  if (existing) return existing as Values<D>;
  const live: Record<string, unknown> = {};
  modules.set(module, live);
  for (const [name, knob] of Object.entries(knobs)) {
    live[name] = knob.value;
    const info = { id: `${module}.${name}`, means: knob.means, value: knob.value, off: knob.off };
    registry.set(info.id, { info, live, name, ...(changed ? { changed } : {}) });
  }
  return live as Values<D>;
}

/** Every knob declared by the modules loaded so far, in declaration order. */
export function allKnobs(): KnobInfo[] {
  return [...registry.values()].map((r) => r.info);
}

/**
 * Runs `work` with knobs set to other values (id → value), then puts them back, whatever happens.
 * For the eval's ablations and sweeps only: knobs are process-wide, so nothing else may run between.
 */
export async function withKnobs<T>(settings: ReadonlyMap<string, unknown>, work: () => Promise<T>): Promise<T> {
  const knobs = [...settings].map(([id, value]) => {
    const knob = registry.get(id);
    if (!knob) throw new Error(`no knob named ${id} (known: ${[...registry.keys()].join(', ')})`);
    return { knob, value };
  });
  const set = (value: (k: (typeof knobs)[number]) => unknown) => {
    for (const k of knobs) k.knob.live[k.knob.name] = value(k);
    for (const changed of new Set(knobs.map(({ knob }) => knob.changed))) changed?.();
  };
  set((k) => k.value);
  try {
    return await work();
  } finally {
    set((k) => k.knob.info.value);
  }
}

/** Runs `work` with the named knobs off (see withKnobs). */
export function withKnobsOff<T>(ids: readonly string[], work: () => Promise<T>): Promise<T> {
  const off = ids.map((id): [string, unknown] => [id, registry.get(id)?.info.off]);
  return withKnobs(new Map(off), work);
}
