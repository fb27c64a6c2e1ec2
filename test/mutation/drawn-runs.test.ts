/**
 * `drawnOnly` leaves the properties' fixed examples out, and the measure of
 * what drawn runs alone find (`npm run drawn-runs`, every property fault at
 * 20 seeds) works on one fault at two seeds here: the whole measure is too
 * slow for `npm test`.
 */
import { embeddedTiming } from '../../src/core/timing.ts';
import { describe, expect, test } from 'vitest';
import { drawnRun, drawnRunsTable, propertyFaults } from '../../src/mutation/drawn-runs.ts';
import { startReferenceServer } from '../../src/reference-server/index.ts';
import { loadCatalogue, selectRules } from '../../src/runner/catalogue.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';

const catalogue = await loadCatalogue();

/** The steps of the first runs of errors.prop.invalid-limit-rejected, whose examples are "10", 2.5 and true. */
async function firstLimits(drawnOnly: boolean): Promise<string[]> {
  const server = await startReferenceServer({ timing: embeddedTiming(), seed: 7 });
  const steps: string[] = [];
  try {
    await runRules(
      selectRules(catalogue, { rules: ['errors.prop.invalid-limit-rejected'] }),
      {
        baseUrl: server.url,
        serviceVersion: '26.06.25',
        apiKey: server.apiKey,
        profile: server.profile,
        timing: server.timing,
      },
      {
        ...DEFAULT_ENGINE_OPTIONS,
        numRuns: 3,
        seed: 11,
        drawnOnly,
        onJudged: (_rule, evidence) => steps.push(...evidence.map((o) => o.step)),
      },
    );
  } finally {
    await server.close();
  }
  // Each run sends its judged request several times (departures one time in ten): one step a run.
  return [...new Set(steps)].slice(0, 3);
}

describe('drawn runs alone', () => {
  test('a run with drawnOnly sends none of the fixed examples first', async () => {
    const examples = ['limit "10"', 'limit 2.5', 'limit true'];
    expect(await firstLimits(false)).toEqual(examples);
    expect(await firstLimits(true)).not.toEqual(examples);
  });

  test('a fault a property owns, found by its drawn runs at two seeds, and the table says so', async () => {
    expect(propertyFaults(catalogue)).toContain('pagination-invalid-limit-accepted');
    const found = [];
    for (const seed of [1, 2]) found.push((await drawnRun('pagination-invalid-limit-accepted', seed, catalogue)).found);
    expect(found).toEqual([true, true]);
    const table = drawnRunsTable([
      { fault: 'pagination-invalid-limit-accepted', rule: 'errors.prop.invalid-limit-rejected', seeds: 2, found: 2 },
      { fault: 'revoke-lost-update', rule: 'revoke-roles.prop.concurrent-sequences', seeds: 20, found: 11 },
    ]);
    expect(table).toContain(
      '| `pagination-invalid-limit-accepted` | `errors.prop.invalid-limit-rejected` | 2 of 2 | no |',
    );
    expect(table).toContain('| 11 of 20 | **yes** |');
  });
});
