/**
 * A rule's deadline that can stop counting: time a rule spends waiting for a
 * mutable resource another rule holds is the schedule's doing, not the
 * rule's, and must not turn into a timeout that another order would not have.
 * It counts on the run's clock (core/timing.ts).
 */
import { SYSTEM_CLOCK, type Clock } from '../core/timing.ts';

export class PausableDeadline {
  private armed: AbortController | undefined;
  private remaining: number;
  private since: number;
  private pauses = 0;
  private done = false;

  constructor(
    ms: number,
    private readonly onExpire: () => void,
    private readonly clock: Clock = SYSTEM_CLOCK,
  ) {
    this.remaining = ms;
    this.since = clock.now();
    this.arm();
  }

  pause(): void {
    if (this.done || this.pauses++ > 0) return;
    this.armed?.abort();
    this.remaining -= this.clock.now() - this.since;
  }

  resume(): void {
    if (this.done || this.pauses === 0 || --this.pauses > 0) return;
    this.since = this.clock.now();
    this.arm();
  }

  clear(): void {
    this.done = true;
    this.armed?.abort();
  }

  private arm(): void {
    const armed = new AbortController();
    this.armed = armed;
    this.clock.sleep(Math.max(0, this.remaining), armed.signal).then(
      () => {
        if (armed.signal.aborted || this.done) return;
        this.done = true;
        this.onExpire();
      },
      // Paused or cleared: the wait was called off.
      () => undefined,
    );
  }
}
