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
