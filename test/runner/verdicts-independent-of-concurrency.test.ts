/**
 * Verdicts must not depend on scheduling: the whole catalogue against the
 * embedded reference server with a single mutable resource, at concurrency 1,
 * 4 and 8, gives the same verdict for every rule. With one resource, rules
 * that change state must wait for it in turn instead of being skipped while
 * another rule holds it.
 */
import { embeddedTiming } from '../../src/core/timing.ts';
import { expect, test } from 'vitest';
import { startReferenceServer } from '../../src/reference-server/index.ts';
import { loadCatalogue } from '../../src/runner/catalogue.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';
import { kindById, type TargetProfile } from '../../src/target/profile.ts';

/** A fresh server each time (the same generated data): revoked roles cannot be given back between runs. */
async function verdicts(concurrency: number): Promise<Record<string, string>> {
  const server = await startReferenceServer({ timing: embeddedTiming(), resources: 120 });
  try {
    return await verdictsAgainst(server, concurrency);
  } finally {
    await server.close();
  }
}

async function verdictsAgainst(
  server: Awaited<ReturnType<typeof startReferenceServer>>,
  concurrency: number,
): Promise<Record<string, string>> {
  const only = server.profile.mutableResources.find((r) => kindById(server.profile, r.kindId)?.supportsRoles)!;
  const profile: TargetProfile = { ...server.profile, mutableResources: [only] };
  const run = await runRules(
    await loadCatalogue(),
    { baseUrl: server.url, serviceVersion: '26.06.25', apiKey: server.apiKey, profile, timing: server.timing },
    { ...DEFAULT_ENGINE_OPTIONS, allowMutations: true, numRuns: 5, seed: 3, concurrency },
  );
  return Object.fromEntries(run.results.map((r) => [r.ruleId, r.verdict]));
}

test('the same verdict per rule at concurrency 1, 4 and 8 with one mutable resource', async () => {
  const one = await verdicts(1);
  const four = await verdicts(4);
  const eight = await verdicts(8);
  expect(four).toEqual(one);
  expect(eight).toEqual(one);
  // Every reversible rule got the one resource in turn: none is skipped for the lack of it.
  const mutatingPassed = Object.entries(one).filter(([id, v]) => v === 'PASS' && /^(teams|activity-rates)\./.test(id));
  expect(mutatingPassed.length).toBeGreaterThan(5);
  expect(Object.values(one)).not.toContain('ERROR');
  expect(Object.values(one)).not.toContain('FAIL');
});
