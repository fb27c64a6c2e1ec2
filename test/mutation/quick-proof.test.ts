/**
 * The quick proof of every fault, `npm test`'s share of the mutation run: for
 * each fault, only the rules whose traffic reaches it (derived by
 * src/mutation/fault-reach.ts, never listed) run against the server with that
 * fault, and the owner must FAIL at the declared place, with no ERROR, no FAIL
 * the catch does not name and no SKIP it does not declare among what ran, and
 * the same verdicts from the run's HAR judged again. The full matrix (every
 * rule against every fault, ten seeds, both timings) is `npm run proof`.
 */
import { describe, expect, test } from 'vitest';
import { CATCHES } from '../../src/mutation/fault-catches.ts';
import { reachOfEveryFault } from '../../src/mutation/fault-reach.ts';
import { FAULT_NAMES, runMutationWithin } from '../../src/mutation/run-mutations.ts';
import { loadCatalogue } from '../../src/runner/catalogue.ts';
import { expectCaught } from '../helpers/caught-cleanly.ts';

const catalogue = await loadCatalogue();
const reach = await reachOfEveryFault(catalogue);

describe.concurrent('every fault is caught by the rules its traffic reaches', () => {
  test.for(FAULT_NAMES.map((fault) => ({ fault, rule: CATCHES[fault].rule })))(
    '$fault is caught by $rule',
    { timeout: 180_000 },
    async ({ fault }, { expect }) => {
      const rules = reach.get(fault) ?? new Set<string>();
      expect(rules.size, 'a fault no rule reaches cannot be caught').toBeGreaterThan(0);
      expectCaught(expect, await runMutationWithin(fault, catalogue, rules));
    },
  );
});

describe('the quick proof fails when a catch is lost', () => {
  test("a fault run without its owner's rule and the rules that find it is not caught", async () => {
    // pagination-no-trailing-empty-page is caught by a walk of the owner's own: without the rules that
    // reach it, nothing sends the request that shows it.
    const fault = 'pagination-no-trailing-empty-page';
    const rules = new Set([...(reach.get(fault) ?? [])]);
    rules.delete(CATCHES[fault].rule);
    const all = new Set([...rules]);
    for (const id of CATCHES[fault].alsoFails ?? []) all.delete(id);
    const outcome = await runMutationWithin(fault, catalogue, all);
    expect(outcome.caught).toBe(false);
  });
});
