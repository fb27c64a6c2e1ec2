/**
 * The faults that depart only now and then (one time in N): a counter per
 * server and per kind of request, so one such request in N departs and the
 * others conform. The count lives with the server's store, so two servers
 * never share it and a restart starts it again. Where in the count the
 * departures fall (its phase) comes from the server's seed: servers of
 * different seeds depart at different requests, as a race would, so a suite
 * run at several seeds does not meet the departure at the same request of
 * its draws each time.
 */
import type { Store } from './store.ts';

const counts = new WeakMap<Store, Map<string, number>>();

/** True for one in every `n` calls with this `kind` on this server (`store`), at the phase its seed gives. */
export function nowAndThen(store: Store, kind: string, n: number): boolean {
  const byKind = counts.get(store) ?? new Map<string, number>();
  counts.set(store, byKind);
  const count = (byKind.get(kind) ?? 0) + 1;
  byKind.set(kind, count);
  return (count + phaseOf(store.domain.seed, n)) % n === 0;
}

/** The phase of a count of `n` for a seed: from 0 to n - 1, whatever the seed's sign. */
export function phaseOf(seed: number, n: number): number {
  return ((Math.trunc(seed) % n) + n) % n;
}
