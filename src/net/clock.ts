// Time as the steward waits on it: back-off between retries, a time-out on each provider call, the
// grace a CLI gets to stop. Everything that waits takes a Clock, so a test drives time-outs and
// retries by events on its own clock instead of racing real milliseconds.

export interface Clock {
  /** Milliseconds, for durations the trace reports. */
  now(): number;
  /** Resolves after `ms`. */
  sleep(ms: number): Promise<void>;
  /** A signal that aborts with a `TimeoutError` DOMException after `ms`; it never keeps the process alive. */
  timeout(ms: number): AbortSignal;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  timeout: (ms) => AbortSignal.timeout(ms),
};

/** A clock whose sleeps last `scale` of the asked-for time (time-outs are kept whole). */
export function scaledSleeps(clock: Clock, scale: number): Clock {
  if (scale === 1) return clock;
  return { now: () => clock.now(), sleep: (ms) => clock.sleep(ms * scale), timeout: (ms) => clock.timeout(ms) };
}

/** Rejects with `onTimeout()` when `signal` aborts first; the listener is removed either way. */
export async function raceSignal<T>(work: Promise<T>, signal: AbortSignal, onTimeout: () => Error): Promise<T> {
  let stop: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    const fire = () => reject(onTimeout());
    if (signal.aborted) fire();
    signal.addEventListener('abort', fire, { once: true });
    stop = () => signal.removeEventListener('abort', fire);
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    stop?.();
  }
}

/**
 * One deadline on a clock: a single timer armed when it is made (its `signal` aborts when the
 * deadline passes) and the time left, which sleeps on the same clock use up. `what` names it in
 * every fault it causes ("the question's deadline (answerer.deadline_ms: 300000 ms)").
 */
export class Deadline {
  readonly signal: AbortSignal;
  private readonly end: number;

  constructor(
    private readonly clock: Clock,
    readonly ms: number,
    readonly what: string,
  ) {
    this.end = clock.now() + ms;
    this.signal = clock.timeout(ms);
  }

  /** Whether it has passed: its timer fired, or the clock's time reached it (a sleep moves it on). */
  passed(): boolean {
    return this.signal.aborted || this.clock.now() >= this.end;
  }

  /** Milliseconds left; 0 once passed. */
  remaining(): number {
    return this.passed() ? 0 : this.end - this.clock.now();
  }
}

/**
 * A signal that aborts, with its reason, when the first of `signals` does; `release()` lets go of
 * them at once (AbortSignal.any would hold its listeners on a long-lived deadline until collected).
 */
export function firstAborted(...signals: Array<AbortSignal | undefined>): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const given = signals.filter((s): s is AbortSignal => s !== undefined);
  const listeners: Array<[AbortSignal, () => void]> = [];
  const release = () => {
    for (const [signal, listener] of listeners.splice(0)) signal.removeEventListener('abort', listener);
  };
  for (const signal of given) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    const listener = () => {
      controller.abort(signal.reason);
      release();
    };
    signal.addEventListener('abort', listener, { once: true });
    listeners.push([signal, listener]);
  }
  if (controller.signal.aborted) release();
  return { signal: controller.signal, release };
}
