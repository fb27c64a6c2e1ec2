/** A mutating check whose restoration fails reports an ERROR with the exact difference, never a FAIL. */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { loadCatalogue, selectRules } from '../../src/rules/catalogue.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';

let server: ReferenceServer;
beforeAll(async () => {
  // Shown rates drift by a quarter on every round trip, so the snapshot can never be restored.
  server = await startReferenceServer({ faults: ['rates-average-rate-unrounded'] });
});
afterAll(() => server.close());

test('a restoration that does not verify is DC_ERR_RESTORE with the difference', async () => {
  const run = await runRules(
    selectRules(await loadCatalogue(), { rules: ['activity-rates.assign-no-content'] }),
    { baseUrl: server.url, serviceVersion: '26.06.25', apiKey: server.apiKey, profile: server.profile },
    { ...DEFAULT_ENGINE_OPTIONS, allowMutations: true },
  );
  const result = run.results[0]!;
  expect(result.verdict).toBe('ERROR');
  expect(result.errorCode).toBe('DC_ERR_RESTORE');
  expect(result.reason).toMatch(/could not be restored: missing after restore: .*average_rate/);
});
