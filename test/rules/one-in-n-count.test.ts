/**
 * Departures one time in N, counted on the wire: every rule that repeats its
 * judged request makes at least the 29 judged requests it promises, whatever
 * values a seed draws (a value drawn twice is replaced by a new one, not
 * dropped with its repetitions), and a walk it repeats is sent again, never
 * served from the run's shared reads.
 */
import { describe, expect, test } from 'vitest';
import type { Exchange } from '../../src/core/exchange.ts';
import { MUTATION_OPTIONS, runAgainstReference } from '../../src/mutation/run-mutations.ts';
import { loadCatalogue } from '../../src/runner/catalogue.ts';
import { trialsNeeded } from '../../src/rules/one-in-n.ts';

/** Each repeating rule's judged requests, by the step its driver tags them with (a walk counts once, by its first page). */
const JUDGED: Record<string, (step: string) => boolean> = {
  'errors.prop.malformed-date-range-rejected': (step) => step.includes(' with date_range '),
  'errors.prop.invalid-limit-rejected': (step) => step.startsWith('limit '),
  'revoke-roles.prop.invalid-team-ids-rejected': (step) => step.startsWith('team_ids '),
  'pagination.prop.changed-query-422': (step) => step === 'a next page whose filters or orders changed',
  'pagination.prop.tampered-token-422': (step) => step.startsWith('a next_token altered by'),
  'pagination.prop.any-limit-once': (step) => step === 'resources.list page 1',
};

const catalogue = await loadCatalogue();
const repeating = catalogue.flatMap((g) => g.rules.filter((r) => r.repeats !== undefined).map((r) => r.id));
const groups = catalogue
  .map((g) => ({ ...g, rules: g.rules.filter((r) => r.repeats !== undefined) }))
  .filter((g) => g.rules.length > 0);

test('every repeating rule says which of its requests are judged', () => {
  expect(repeating.sort()).toEqual(Object.keys(JUDGED).sort());
});

describe.each([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])('seed %i', (seed) => {
  test(`each repeating rule makes at least ${trialsNeeded()} judged requests, its repeated walks sent again`, async () => {
    const exchanges: Array<{ ruleId: string; exchange: Exchange }> = [];
    const run = await runAgainstReference([], groups, {
      ...MUTATION_OPTIONS,
      seed,
      onExchange: (ruleId, exchange) => exchanges.push({ ruleId, exchange }),
    });
    expect(run.results.filter((r) => r.verdict !== 'PASS')).toEqual([]);
    const judged = (ruleId: string) =>
      exchanges.filter(
        ({ ruleId: id, exchange }) =>
          id === ruleId && exchange.run !== undefined && JUDGED[ruleId]!(exchange.step ?? ''),
      );
    const counts = Object.fromEntries(repeating.map((id) => [id, judged(id).length]));
    expect(
      Object.values(counts).every((n) => n >= trialsNeeded()),
      JSON.stringify(counts),
    ).toBe(true);
    // A run's walks: the first may be one the run already made, the rest each asked of the server.
    const walks = judged('pagination.prop.any-limit-once').map(({ exchange }) => exchange);
    for (const number of new Set(walks.map((e) => e.run))) {
      const shared = walks.filter((e) => e.run === number && e.shared === true);
      expect(shared.length, `run ${number}`).toBeLessThanOrEqual(1);
    }
  });
});
