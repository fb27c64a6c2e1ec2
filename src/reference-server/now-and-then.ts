/**
 * The faults that depart only now and then (one time in N): a counter per
 * server and per kind of request, so the N-th, 2N-th… such request departs
 * and the others conform. The count lives with the server's store, so two
 * servers never share it and a restart starts it again.
 */
const counts = new WeakMap<object, Map<string, number>>();

/** True for every `n`-th call with this `kind` on this server (`store`). */
export function nowAndThen(store: object, kind: string, n: number): boolean {
  const byKind = counts.get(store) ?? new Map<string, number>();
  counts.set(store, byKind);
  const count = (byKind.get(kind) ?? 0) + 1;
  byKind.set(kind, count);
  return count % n === 0;
}
