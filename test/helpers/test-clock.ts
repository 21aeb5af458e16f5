// A clock the test drives, so no outcome depends on how fast the machine is: sleeps (back-off,
// retry-after) resolve at once and move this clock's time on; a time-out fires only when the test
// says so (`expire()`, `expire(ms)` for those of one length, or `advance(ms)` past its deadline).
// A question's deadline (answerer.deadline_ms) is one such time-out, armed before any other: a test
// that means only an attempt's time-out to pass expires that length alone. `whenArmed(n)` waits,
// by events, until the code under test has armed its n-th time-out (of a given length, with `ms`):
// the moment it is waiting on something.
import type { Clock } from '../../src/net/clock.js';

interface Armed {
  deadline: number;
  ms: number;
  controller: AbortController;
}

export class TestClock implements Clock {
  private time = 0;
  private readonly pending: Armed[] = [];
  private readonly waiters: Array<{ count: number; ms: number | undefined; resolve: () => void }> = [];
  /** Every sleep asked for, in milliseconds, in order. */
  readonly sleeps: number[] = [];
  /** Every time-out armed, in milliseconds, in order. */
  readonly timeouts: number[] = [];

  now(): number {
    return this.time;
  }

  sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    this.time += ms;
    return Promise.resolve();
  }

  timeout(ms: number): AbortSignal {
    const controller = new AbortController();
    this.pending.push({ deadline: this.time + ms, ms, controller });
    this.timeouts.push(ms);
    for (const waiter of this.waiters.filter((w) => this.armedCount(w.ms) >= w.count)) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    return controller.signal;
  }

  /** Resolves once `count` time-outs (of `ms` milliseconds, when given) have been armed in all; at once if they already have. */
  whenArmed(count = 1, ms?: number): Promise<void> {
    if (this.armedCount(ms) >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, ms, resolve }));
  }

  private armedCount(ms: number | undefined): number {
    return ms === undefined ? this.timeouts.length : this.timeouts.filter((t) => t === ms).length;
  }

  /** Moves time on by `ms`, firing every time-out whose deadline it reaches, oldest first. */
  advance(ms: number): void {
    this.time += ms;
    this.fire((armed) => armed.deadline <= this.time);
  }

  /** Every time-out armed so far (of `ms` milliseconds, when given) runs out now. */
  expire(ms?: number): void {
    this.fire((armed) => ms === undefined || armed.ms === ms);
  }

  private fire(due: (armed: Armed) => boolean): void {
    for (const armed of this.pending.filter(due)) {
      this.pending.splice(this.pending.indexOf(armed), 1);
      armed.controller.abort(new DOMException(`timed out after ${armed.ms} ms (test clock)`, 'TimeoutError'));
    }
  }
}
