/**
 * Requests at the same time on one resource, held to a bound. The concurrent
 * properties send branches of requests on one mutable resource at once; a
 * target's resource is someone's data, and more requests on it at once than
 * a race needs only load it. The run's pacer bounds the requests in flight
 * over the whole target; this bounds them per resource, whatever shape a
 * drawn scenario has: a request past the bound waits until one on the same
 * resource is answered.
 */

/** Requests in flight on one resource at most. */
export const MAX_IN_FLIGHT_PER_RESOURCE = 4;

export class InFlightPerResource {
  private readonly inFlight = new Map<string, number>();
  /** Requests waiting for a place, by resource, first come first served. */
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(private readonly max = MAX_IN_FLIGHT_PER_RESOURCE) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`at least one request in flight, got ${max}`);
  }

  /** Sends `send` once fewer than the bound are in flight on `resourceId`; its place is freed however it ends. */
  async send<T>(resourceId: string, send: () => Promise<T>): Promise<T> {
    await this.place(resourceId);
    try {
      return await send();
    } finally {
      this.free(resourceId);
    }
  }

  private place(resourceId: string): Promise<void> {
    const n = this.inFlight.get(resourceId) ?? 0;
    if (n < this.max) {
      this.inFlight.set(resourceId, n + 1);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const queue = this.waiting.get(resourceId) ?? [];
      queue.push(resolve);
      this.waiting.set(resourceId, queue);
    });
  }

  private free(resourceId: string): void {
    const next = this.waiting.get(resourceId)?.shift();
    // The freed place goes straight to the next waiting request: the count stays as it is.
    if (next) {
      next();
      return;
    }
    this.waiting.delete(resourceId);
    const n = (this.inFlight.get(resourceId) ?? 1) - 1;
    if (n === 0) this.inFlight.delete(resourceId);
    else this.inFlight.set(resourceId, n);
  }
}

/**
 * Waits for every branch sent at once, then fails as the first that failed:
 * a branch stopped (a spent budget, a departure) must not leave the others'
 * requests in flight while the state guard reads what the rule changed, or
 * their changes would look like another party's.
 */
export async function allBranches(branches: ReadonlyArray<Promise<void>>): Promise<void> {
  const settled = await Promise.allSettled(branches);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
}
