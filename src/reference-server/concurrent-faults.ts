/**
 * What the concurrent faults share: how long a write waits between reading a
 * resource's state and writing it, and the writes of each resource waiting
 * to be written (under the *-concurrent-assignments-dropped faults, two that
 * wait at once are a conflict, written by neither and both answered as done).
 */
import type { Timing } from '../core/timing.ts';

/** The lost-update faults' wait between reading and writing: the timing's gap, on its clock. */
export function lostUpdateGap(timing: Timing): Promise<void> {
  return timing.clock.sleep(timing.lostUpdateGapMs);
}

export class ConcurrentWrites {
  private readonly pending = new WeakMap<object, Set<{ conflict: boolean }>>();

  /** Waits the gap; true when another write to `resource` waited at the same time (a conflict). */
  async waitForConflict(resource: object, timing: Timing): Promise<boolean> {
    const pending = this.pending.get(resource) ?? new Set<{ conflict: boolean }>();
    this.pending.set(resource, pending);
    const mine = { conflict: pending.size > 0 };
    for (const other of pending) other.conflict = true;
    pending.add(mine);
    await lostUpdateGap(timing);
    pending.delete(mine);
    return mine.conflict;
  }
}
