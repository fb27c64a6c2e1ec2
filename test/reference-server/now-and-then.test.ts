/**
 * The faults that depart one time in N: one request in every N of a kind
 * departs, counted per server and per kind, and where in the count the
 * departures fall comes from the server's seed, so servers of ten seeds
 * depart first at ten different requests.
 */
import { expect, test } from 'vitest';
import { generateDomain } from '../../src/reference-server/generate-domain.ts';
import { nowAndThen, phaseOf } from '../../src/reference-server/now-and-then.ts';
import { Store } from '../../src/reference-server/store.ts';

const storeOf = (seed: number) => new Store(generateDomain(seed, 10));

/** The calls, from 1, that depart among the first `calls` of `kind`. */
function departing(store: Store, kind: string, n: number, calls: number): number[] {
  return Array.from({ length: calls }, (_, i) => i + 1).filter(() => nowAndThen(store, kind, n));
}

test('one call in n departs, every n-th from the first that does', () => {
  const store = storeOf(7);
  const first = departing(store, 'invalid limit', 10, 100);
  expect(first).toHaveLength(10);
  expect(first.map((c, i) => c - (first[0] ?? 0) - 10 * i)).toEqual(Array.from({ length: 10 }, () => 0));
});

test('each kind has its own count, and so has each server', () => {
  const store = storeOf(1);
  expect(departing(store, 'a', 5, 10)).toEqual(departing(store, 'b', 5, 10));
  expect(departing(storeOf(1), 'a', 5, 10)).toEqual(departing(storeOf(1), 'a', 5, 10));
});

test('servers of ten seeds depart first at ten different calls', () => {
  const firsts = Array.from({ length: 10 }, (_, i) => departing(storeOf(i + 1), 'invalid limit', 10, 10)[0]);
  expect(new Set(firsts).size).toBe(10);
  expect([phaseOf(-3, 10), phaseOf(13, 10), phaseOf(0, 5)]).toEqual([7, 3, 0]);
});
