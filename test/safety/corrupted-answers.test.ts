/**
 * A bad middlebox in front of the conformant reference server corrupts one
 * answer in 30, picked at random from a seed (a field's value flipped, a field
 * dropped, a status changed within its class), once per request. Confirmation
 * before a FAIL (run-rules.ts, confirm-findings.ts) must turn every such
 * departure into FLAKY (or leave a PASS where nothing judged was broken):
 * over 20 seeds, not one FAIL. A selection of the catalogue runs here, with
 * few runs per property: the shapes of every read (judged for their owners
 * in other rules' requests) and the reads' pairwise properties, a walk,
 * model-based sequences that change state, revocations (confirmed by their
 * reads sent again or driven again on another resource, model-based ones
 * too), rules that repeat their judged request (confirmed by the rate of
 * their departure), the rule that judges every error answer of the run.
 * `npm run trials` runs the whole catalogue over the same 20 seeds.
 */
import { embeddedTiming } from '../../src/core/timing.ts';
import { expect, test } from 'vitest';
import type { RuleResult } from '../../src/core/types.ts';
import { startCorruptingProxy } from '../../src/hostile-server/corrupting-proxy.ts';
import { startReferenceServer } from '../../src/reference-server/index.ts';
import { loadCatalogue, selectRules } from '../../src/runner/catalogue.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';

const CORRUPTED_SELECTION = [
  'list-roles.plain-array',
  'list-roles.association-shape',
  'list-roles.filters-respected',
  'list-roles.restricted-sees-subset',
  'list-roles.prop.pairwise-combinations',
  'show-activity-rates.response-shape',
  'show-activity-rates.average-rate-integer',
  'show-activity-rates.prop.pairwise-combinations',
  'show-teams.response-shape',
  'show-teams.head-filter',
  'show-teams.team-filter',
  'show-teams.prop.pairwise-combinations',
  'pagination.envelope',
  'pagination.each-resource-once',
  'pagination.prop.tampered-token-422',
  'pagination.prop.changed-query-422',
  'list.total-count-of-filtered-set',
  'activity-rates.prop.model-sequences',
  'activity-rates.assigned-rate-shown',
  'revoke-roles.no-content',
  'revoke-roles.absent-role-no-change',
  'revoke-roles.star-leaves-no-team',
  'revoke-roles.omitted-team-ids-removes-role',
  'revoke-roles.prop.model-sequences',
  'revoke-roles.prop.invalid-team-ids-rejected',
  'errors.malformed-json-rejected',
  'errors.message-present',
];

const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);

test('one corrupted answer in 30, at random over 20 seeds: no FAIL, the departures FLAKY', async () => {
  const catalogue = await loadCatalogue();
  const groups = selectRules(catalogue, { rules: CORRUPTED_SELECTION });
  const failed: Array<{ seed: number; rule: string; where: string | undefined }> = [];
  const flaky = new Set<string>();
  let corrupted = 0;
  for (const seed of SEEDS) {
    // A server of its own for each seed: revocations cannot be undone, and each seed revokes afresh.
    const server = await startReferenceServer({ timing: embeddedTiming() });
    const proxy = await startCorruptingProxy({ upstream: server.url, seed });
    try {
      const run = await runRules(
        groups,
        {
          baseUrl: proxy.url,
          serviceVersion: '26.06.25',
          apiKey: server.apiKey,
          profile: server.profile,
          timing: server.timing,
        },
        { ...DEFAULT_ENGINE_OPTIONS, allowMutations: true, numRuns: 2, seed, requestTimeoutMs: 10_000 },
        catalogue,
      );
      corrupted += proxy.corrupted.length;
      const fails: RuleResult[] = run.results.filter((r) => r.verdict === 'FAIL');
      failed.push(...fails.map((r) => ({ seed, rule: r.ruleId, where: r.violations[0]?.where })));
      for (const r of run.results) if (r.verdict === 'FLAKY') flaky.add(r.ruleId);
    } finally {
      await proxy.close();
      await server.close();
    }
  }
  expect(failed).toEqual([]);
  // Not vacuous: answers were corrupted, and departures were seen and did not repeat.
  expect(corrupted).toBeGreaterThan(40);
  expect(flaky.size).toBeGreaterThan(2);
}, 300_000);
