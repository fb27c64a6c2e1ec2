/**
 * The stale-read faults (`rates-stale-read`, `teams-stale-read`,
 * `roles-stale-read`): after a write, reads of the resource serve what it
 * held before, as a replica lagging its primary would, until reads of it
 * pause for the timing's `staleReadMs`, and no longer than its `readLagMs`
 * after the write (the longest lag the suite allows a server before it takes
 * a difference for another party's change). The first read after the write
 * is stale however long it took to come, and so is every read that follows a
 * stale one within the window: reads sent back to back (a read and the one
 * that must agree with it, client/agreed-reads.ts) see the same lag however
 * loaded the machine is, and a read the suite sends a moment later (its
 * `momentMs`, longer than the window) sees the write.
 */
import type { Timing } from '../core/timing.ts';

export class StaleReads<T> {
  private readonly held = new WeakMap<object, { value: T; wroteAt: number; lastServed: number | undefined }>();

  /** `resource` is written: `before` is what reads serve for a while. */
  wrote(resource: object, before: T, timing: Timing): void {
    this.held.set(resource, { value: before, wroteAt: timing.clock.now(), lastServed: undefined });
  }

  /** What a read of `resource`, which now holds `current`, serves. */
  read(resource: object, current: T, timing: Timing): T {
    const stale = this.held.get(resource);
    if (!stale) return current;
    const now = timing.clock.now();
    const caughtUp =
      stale.lastServed !== undefined &&
      (now - stale.lastServed >= timing.staleReadMs || now - stale.wroteAt >= timing.readLagMs);
    if (caughtUp) {
      this.held.delete(resource);
      return current;
    }
    stale.lastServed = now;
    return stale.value;
  }
}
