/**
 * Corrupted answers: the whole catalogue, with mutations, through a bad
 * middlebox that corrupts one answer in 30 at random from the seed (a field's
 * value flipped, a field dropped, a status changed within its class), once
 * per request, in front of the conformant reference server. Confirmation
 * before a FAIL must leave no FAIL: each departure the corruption caused did
 * not repeat when driven again (FLAKY), or broke nothing a rule judges.
 */
import { startCorruptingProxy } from '../../src/hostile-server/corrupting-proxy.ts';
import { startReferenceServer } from '../../src/reference-server/index.ts';
import { loadCatalogue } from '../../src/runner/catalogue.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';
import type { TrialOutcome } from './harness.ts';

export async function corruptedAnswersTrial(seed: number): Promise<TrialOutcome> {
  const server = await startReferenceServer({});
  const proxy = await startCorruptingProxy({ upstream: server.url, seed });
  try {
    const run = await runRules(
      await loadCatalogue(),
      { baseUrl: proxy.url, serviceVersion: '26.06.25', apiKey: server.apiKey, profile: server.profile },
      { ...DEFAULT_ENGINE_OPTIONS, allowMutations: true, numRuns: 5, seed, requestTimeoutMs: 10_000 },
    );
    const failed = run.results.filter((r) => r.verdict === 'FAIL').map((r) => r.ruleId);
    const { FLAKY: flaky, PASS: passed, ERROR: errors } = run.summary.byVerdict;
    return {
      held: failed.length === 0,
      // The corruption met what the rules judge: some departure was seen and did not repeat.
      reached: proxy.corrupted.length > 0 && flaky > 0,
      detail:
        `${proxy.corrupted.length} answers corrupted: ${flaky} FLAKY, ${passed} PASS, ${errors} ERROR` +
        (failed.length > 0 ? `, FAIL: ${failed.join(', ')}` : ''),
    };
  } finally {
    await proxy.close();
    await server.close();
  }
}
