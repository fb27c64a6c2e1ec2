/**
 * Through a rate limit like the real service's (a token bucket, 429 with
 * Retry-After and nothing else), a run with adaptive pacing ends with no rule
 * in ERROR for rate limiting and with the verdicts of a direct run. The bucket
 * is small enough that 429s must happen; reads and mutations are both in the
 * selection.
 */
import { afterEach, expect, test } from 'vitest';
import { startRateLimitedProxy, type RateLimitedProxy } from '../../src/hostile-server/rate-limited-proxy.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { loadCatalogue, selectRules } from '../../src/runner/catalogue.ts';
import type { RunResult } from '../../src/core/types.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules, type EngineOptions } from '../../src/runner/run-rules.ts';

const RULES = [
  'assign-team.*',
  'activity-rates.assign-no-content',
  'activity-rates.no-overlap',
  'revoke-roles.no-content',
  'revoke-roles.star-leaves-no-team',
  'list-roles.*',
  'show-teams.*',
  'pagination.exact-multiple-empty-page',
  'pagination.limit-respected',
  'errors.malformed-json-rejected',
  'auth.unknown-key-rejected',
];

const servers: ReferenceServer[] = [];
let proxy: RateLimitedProxy | undefined;

afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function run(through: 'direct' | 'proxy', options: Partial<EngineOptions>): Promise<RunResult> {
  const server = await startReferenceServer({ resources: 120 });
  servers.push(server);
  let baseUrl = server.url;
  if (through === 'proxy') {
    proxy = await startRateLimitedProxy({
      upstream: server.url,
      latencyMs: 2,
      bucketSize: 12,
      refillPerSecond: 60,
      retryAfterPrecision: 'milliseconds',
    });
    baseUrl = proxy.url;
  }
  const groups = selectRules(await loadCatalogue(), { rules: RULES });
  return runRules(
    groups,
    { baseUrl, serviceVersion: '26.06.25', apiKey: server.apiKey, profile: server.profile },
    { ...DEFAULT_ENGINE_OPTIONS, allowMutations: true, numRuns: 5, seed: 7, ...options },
  );
}

const verdicts = (r: RunResult): Record<string, string> =>
  Object.fromEntries(r.results.map((x) => [x.ruleId, x.verdict]));

test('through a rate-limited proxy no rule ends in ERROR for rate limiting, and the verdicts equal the direct run', async () => {
  const direct = await run('direct', {});
  const limited = await run('proxy', { rate: 'auto' });
  const stats = proxy!.stats();
  // The bucket was small enough to refuse requests: the pacing had something to do.
  expect(stats.rateLimited).toBeGreaterThan(0);
  expect(limited.results.filter((r) => r.verdict === 'ERROR').map((r) => [r.ruleId, r.errorCode, r.reason])).toEqual(
    [],
  );
  expect(verdicts(limited)).toEqual(verdicts(direct));
  expect(Object.values(verdicts(direct))).toContain('PASS');
  // Every attempt is counted in the rules' request counts (the preflight is not part of runRules).
  expect(limited.results.reduce((n, r) => n + r.requestCount, 0)).toBe(stats.received);
}, 60_000);

test('without pacing the same proxy does end rules in ERROR (so the test above can fail)', async () => {
  const limited = await run('proxy', { concurrency: 8 });
  expect(limited.results.some((r) => r.errorCode === 'DC_ERR_RATE_LIMITED')).toBe(true);
}, 60_000);
