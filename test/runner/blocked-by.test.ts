/**
 * A failing shared step blocks, never blames: when a server accepts a forged
 * next_token, errors.message-present (which needs that rejection to judge the
 * message) is SKIP "blocked by pagination.malformed-token-422" with the
 * departure, once; only the owner FAILs.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { renderJUnit } from '../../src/report/junit.ts';
import { loadCatalogue, selectRules } from '../../src/rules/catalogue.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';
import { startForwardingProxy, type ForwardingProxy } from '../helpers/forwarding-proxy.ts';

let upstream: ReferenceServer;
let proxy: ForwardingProxy;
beforeAll(async () => {
  upstream = await startReferenceServer({ resources: 40 });
  proxy = await startForwardingProxy(upstream.url, (_path, body, res) => {
    if (!body.includes('dc-forged-token')) return false;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":[],"next_token":null}');
    return true;
  });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

test('the rule that relies on a failing step is blocked by its owner, with the reason said once', async () => {
  const run = await runRules(
    selectRules(await loadCatalogue(), { rules: ['errors.message-present'] }),
    { baseUrl: proxy.url, serviceVersion: '26.06.25', apiKey: upstream.apiKey, profile: upstream.profile },
    { ...DEFAULT_ENGINE_OPTIONS, numRuns: 3, seed: 1 },
  );
  const result = run.results[0]!;
  expect(result).toMatchObject({ verdict: 'SKIP', skipCause: 'blocked', blockedBy: 'pagination.malformed-token-422' });
  expect(result.reason).toBe(
    'blocked by pagination.malformed-token-422: a forged next_token: response.status: must reject a forged next_token with 422',
  );
  expect(result.violations).toEqual([]);
  const junit = renderJUnit(run);
  expect(junit.split('blocked by pagination.malformed-token-422').length - 1).toBe(1);
  expect(junit.split('must reject a forged next_token').length - 1).toBe(1);
});
