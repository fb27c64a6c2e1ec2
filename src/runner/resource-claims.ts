import type { Quarantine } from '../rules/types.ts';
import type { ProfileResource } from '../target/profile.ts';

export interface ClaimRequest {
  /** Who claims (one per running rule): a rule never waits for a resource it holds itself. */
  holder: string;
  /** The claiming rule cannot be undone (role revocation). */
  irreversible: boolean;
  /** Stops the wait (the rule's deadline); the claim then comes back empty. */
  signal?: AbortSignal;
  /** Told when the claim has to wait and when the wait ends, so the rule's deadline can pause meanwhile. */
  onWait?: (waiting: boolean) => void;
}

export interface ClaimsOptions {
  /** Longest a claim waits for a resource another rule holds; past it the claim comes back empty. */
  maxWaitMs: number;
}

interface Held {
  resource: ProfileResource;
  holder: string;
  irreversible: boolean;
}

interface Waiter {
  request: ClaimRequest;
  predicate: ((resourceId: string, kindId: string) => boolean) | undefined;
  resolve: (id: string | undefined) => void;
}

/**
 * Mutable resources are handed out one rule at a time, so rules that run side
 * by side never change each other's state.
 *
 * A rule that needs a resource another rule holds waits for it (first come,
 * first served) instead of being skipped: which rule gets a resource first
 * must not change any verdict. The wait is bounded (`maxWaitMs`, and the
 * rule's own abort signal), so a run always ends.
 *
 * A rule that cannot be undone never hands its resource back to the rules
 * that restore what they change: such a resource goes to a pool only other
 * irreversible rules take from, after every fresh resource. The engine runs
 * irreversible rules last and one at a time, so they never starve the others
 * and which state each one finds does not depend on scheduling.
 *
 * A resource whose restoration did not verify is quarantined: its holder
 * hands it back to no pool, so no later rule snapshots the state the failed
 * restoration left (and, restoring that, writes it off as put back). Its
 * change stays pending in the journal for `directory-conformance restore`;
 * claims that could only have been served by it come back empty.
 */
export class ResourceClaims implements Quarantine {
  /** Never touched by an irreversible rule. */
  private readonly fresh: ProfileResource[];
  /** Handed back by an irreversible rule: only irreversible rules take these. */
  private readonly used: ProfileResource[] = [];
  private readonly held = new Map<string, Held>();
  private readonly waiters: Waiter[] = [];
  /** Resource id → why its restoration did not verify. */
  private readonly quarantined = new Map<string, string>();

  private readonly all: readonly ProfileResource[];

  constructor(
    resources: readonly ProfileResource[],
    private readonly options: ClaimsOptions = { maxWaitMs: 120_000 },
  ) {
    this.fresh = [...resources];
    this.all = [...resources];
  }

  claim(
    predicate: ((resourceId: string, kindId: string) => boolean) | undefined,
    request: ClaimRequest,
  ): Promise<string | undefined> {
    const taken = this.take(predicate, request);
    if (taken !== undefined) return Promise.resolve(taken);
    if (!this.worthWaiting(predicate, request) || request.signal?.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const onAbort = (): void => finish(undefined);
      const waiter: Waiter = { request, predicate, resolve: (id) => finish(id) };
      const timer = setTimeout(() => finish(undefined), this.options.maxWaitMs);
      timer.unref();
      const finish = (id: string | undefined): void => {
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        request.onWait?.(false);
        resolve(id);
      };
      request.onWait?.(true);
      this.waiters.push(waiter);
      request.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  add(resourceId: string, reason: string): void {
    if (!this.quarantined.has(resourceId)) this.quarantined.set(resourceId, reason);
  }

  reasonFor(resourceId: string): string | undefined {
    return this.quarantined.get(resourceId);
  }

  /** The quarantined resources a claim with this predicate could have taken. */
  quarantinedMatching(predicate: ((resourceId: string, kindId: string) => boolean) | undefined): string[] {
    return this.all
      .filter((r) => this.quarantined.has(r.id) && (!predicate || predicate(r.id, r.kindId)))
      .map((r) => r.id);
  }

  /** Hands back everything `holder` holds; waiting claims are served in the order they came. */
  release(holder: string): void {
    for (const [id, h] of [...this.held]) {
      if (h.holder !== holder) continue;
      this.held.delete(id);
      if (this.quarantined.has(id)) continue;
      // A resource put back and verified goes first: its state is what the suite read last, so the
      // next rule's snapshot is that answer, shared, instead of a request (see SharedReads).
      if (h.irreversible) this.used.push(h.resource);
      else this.fresh.unshift(h.resource);
    }
    for (const waiter of [...this.waiters]) {
      const id = this.take(waiter.predicate, waiter.request);
      if (id !== undefined) waiter.resolve(id);
      else if (!this.worthWaiting(waiter.predicate, waiter.request)) waiter.resolve(undefined);
    }
  }

  private take(
    predicate: ((resourceId: string, kindId: string) => boolean) | undefined,
    request: ClaimRequest,
  ): string | undefined {
    const matches = (r: ProfileResource): boolean => !predicate || predicate(r.id, r.kindId);
    for (const pool of request.irreversible ? [this.fresh, this.used] : [this.fresh]) {
      const index = pool.findIndex(matches);
      if (index < 0) continue;
      const [resource] = pool.splice(index, 1);
      if (resource === undefined) continue;
      this.held.set(resource.id, { resource, holder: request.holder, irreversible: request.irreversible });
      return resource.id;
    }
    return undefined;
  }

  /** Another rule holds a matching resource that will come back to a pool this claim may take from. */
  private worthWaiting(
    predicate: ((resourceId: string, kindId: string) => boolean) | undefined,
    request: ClaimRequest,
  ): boolean {
    for (const h of this.held.values()) {
      if (h.holder === request.holder || this.quarantined.has(h.resource.id)) continue;
      if (h.irreversible && !request.irreversible) continue;
      if (!predicate || predicate(h.resource.id, h.resource.kindId)) return true;
    }
    return false;
  }
}
