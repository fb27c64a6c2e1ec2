/**
 * A property's exchanges carry the run they belong to, so a recording can be
 * judged again run by run, as the live run judged them; the reads a property
 * makes before its runs carry none.
 */
import { expect, test } from 'vitest';
import type { Exchange } from '../../src/core/exchange.ts';
import { runAgainstReference, MUTATION_OPTIONS } from '../../src/mutation/run-mutations.ts';
import { loadCatalogue } from '../../src/runner/catalogue.ts';

test("each run of a property tags its exchanges with the run's number", async () => {
  const catalogue = await loadCatalogue();
  const groups = catalogue
    .map((g) => ({ ...g, rules: g.rules.filter((r) => r.id === 'pagination.prop.tampered-token-422') }))
    .filter((g) => g.rules.length > 0);
  const exchanges: Exchange[] = [];
  const run = await runAgainstReference([], groups, {
    ...MUTATION_OPTIONS,
    onExchange: (_, e) => exchanges.push(e),
  });
  expect(run.results.map((r) => r.verdict)).toEqual(['PASS']);
  const altered = exchanges.filter((e) => e.step?.startsWith('a next_token altered by'));
  const before = exchanges.filter((e) => !e.step?.startsWith('a next_token altered by'));
  expect(altered.length).toBeGreaterThan(2);
  // The numbers count up from 1 without a gap; each run sends its altered token as often as the others
  // (the rule repeats its judged request: src/rules/one-in-n.ts).
  const runs = altered.map((e) => e.run);
  const numbers = [...new Set(runs)];
  expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  expect(new Set(numbers.map((n) => runs.filter((r) => r === n).length)).size).toBe(1);
  expect(before.length).toBeGreaterThan(0);
  expect(before.every((e) => e.run === undefined)).toBe(true);
});
