/**
 * The stale-read faults (`rates-stale-read`, `teams-stale-read`,
 * `roles-stale-read`): after a write, reads of the resource serve what it
 * held before, as a replica lagging its primary would, for STALE_READ_MS and
 * at least once: the first read after the write is stale however long it
 * took to come, so a busy machine, slow to send it, cannot hide the fault.
 */
export const STALE_READ_MS = 300;

export class StaleReads<T> {
  private readonly held = new WeakMap<object, { value: T; until: number; served: boolean }>();

  /** `resource` is written: `before` is what reads serve for a while. */
  wrote(resource: object, before: T): void {
    this.held.set(resource, { value: before, until: performance.now() + STALE_READ_MS, served: false });
  }

  /** What a read of `resource`, which now holds `current`, serves. */
  read(resource: object, current: T): T {
    const stale = this.held.get(resource);
    if (!stale || (stale.served && performance.now() >= stale.until)) return current;
    stale.served = true;
    return stale.value;
  }
}
