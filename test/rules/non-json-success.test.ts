/**
 * Every 2xx answer with a body that does not parse as JSON is a departure of
 * the rule that received it (the interface is HTTP/JSON): such a rule never
 * PASSes. Checked two ways: one rule whose requests all get an HTML 200, and
 * the whole catalogue behind a proxy that turns some answers into HTML.
 */
import { embeddedTiming } from '../../src/core/timing.ts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunResult } from '../../src/core/types.ts';
import { startHostileProxy } from '../../src/hostile-server/hostile-proxy.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { loadCatalogue, selectRules } from '../../src/runner/catalogue.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';
import { startForwardingProxy, type ForwardingProxy } from '../helpers/forwarding-proxy.ts';

let upstream: ReferenceServer;
beforeAll(async () => {
  upstream = await startReferenceServer({ timing: embeddedTiming(), resources: 80 });
});
afterAll(() => upstream.close());

async function runAgainst(url: string, rules: string[] = []): Promise<RunResult> {
  const catalogue = await loadCatalogue();
  return runRules(
    rules.length > 0 ? selectRules(catalogue, { rules }) : catalogue,
    {
      baseUrl: url,
      serviceVersion: '26.06.25',
      apiKey: upstream.apiKey,
      profile: upstream.profile,
      timing: upstream.timing,
    },
    { ...DEFAULT_ENGINE_OPTIONS, allowMutations: false, numRuns: 3, seed: 5 },
  );
}

function nonJsonSuccess(body: string, status: number): boolean {
  if (status < 200 || status >= 300 || body.trim() === '') return false;
  try {
    JSON.parse(body);
    return false;
  } catch {
    return true;
  }
}

describe('a 2xx body that is not JSON', () => {
  let proxy: ForwardingProxy;

  beforeAll(async () => {
    // Answers a list request that carries with_relations: null (a documented value) with an HTML 200.
    proxy = await startForwardingProxy(upstream.url, (path, body, res) => {
      if (!path.endsWith('/resources.list') || !body.includes('"with_relations":null')) return false;
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>OK</body></html>');
      return true;
    });
  });
  afterAll(() => proxy.close());

  test('fails list.documented-values-accepted, which received it', async () => {
    const run = await runAgainst(proxy.url, ['list.documented-values-accepted']);
    const result = run.results[0]!;
    expect(result.verdict).toBe('FAIL');
    expect(result.violations[0]).toMatchObject({
      where: 'resources.list with {"with_relations":null}: response.body',
      expected: 'JSON',
    });
  });
});

test('no rule PASSes with a non-JSON 2xx answer in its transcript', async () => {
  const proxy = await startHostileProxy({ mode: 'html', upstream: upstream.url, every: 4 });
  try {
    const run = await runAgainst(proxy.url);
    const passedOverHtml = run.results
      .filter((r) => r.verdict === 'PASS')
      .filter((r) => r.exchanges.some((e) => e.response && nonJsonSuccess(e.response.body, e.response.status)))
      .map((r) => r.ruleId);
    expect(passedOverHtml).toEqual([]);
    // The proxy did hit rules: the check above is not vacuous.
    expect(run.results.some((r) => r.verdict === 'FAIL')).toBe(true);
  } finally {
    await proxy.close();
  }
}, 60_000);
