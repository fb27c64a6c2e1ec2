/**
 * A failing shared step blocks, never blames: when a server's list envelope
 * breaks its schema, list.resources-of-the-kind (which reads lists through the
 * shared step) is SKIP "blocked by pagination.envelope" with the departure,
 * once; only the owner FAILs. A driven rule whose own requests showed its own
 * departure before the step stopped it FAILs on it instead.
 */
import { embeddedTiming } from '../../src/core/timing.ts';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { renderJUnit } from '../../src/report/junit.ts';
import { loadCatalogue, selectRules } from '../../src/runner/catalogue.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';
import { startForwardingProxy, type ForwardingProxy } from '../helpers/forwarding-proxy.ts';

let upstream: ReferenceServer;
let proxy: ForwardingProxy;
beforeAll(async () => {
  upstream = await startReferenceServer({ timing: embeddedTiming(), resources: 40 });
  proxy = await startForwardingProxy(upstream.url, (path, _body, res) => {
    if (!path.endsWith('/resources.list')) return false;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":[],"next_token":5}');
    return true;
  });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

test('the rule that relies on a failing step is blocked by its owner, with the reason said once', async () => {
  const run = await runRules(
    selectRules(await loadCatalogue(), { rules: ['list.resources-of-the-kind', 'pagination.envelope'] }),
    {
      baseUrl: proxy.url,
      serviceVersion: '26.06.25',
      apiKey: upstream.apiKey,
      profile: upstream.profile,
      timing: upstream.timing,
    },
    { ...DEFAULT_ENGINE_OPTIONS, numRuns: 3, seed: 1 },
  );
  const result = run.results.find((r) => r.ruleId === 'list.resources-of-the-kind')!;
  expect(result).toMatchObject({ verdict: 'SKIP', skipCause: 'blocked', blockedBy: 'pagination.envelope' });
  expect(result.reason).toMatch(/^blocked by pagination\.envelope: \S.*next_token/);
  expect(result.violations).toEqual([]);
  expect(run.results.find((r) => r.ruleId === 'pagination.envelope')!.verdict).toBe('FAIL');
  const junit = renderJUnit(run);
  expect(junit.split('blocked by pagination.envelope').length - 1).toBe(1);
});

test("a driven rule stopped by another rule's departure still FAILs on what its own requests already showed", async () => {
  // A resource of another kind opens every later page: page 2 breaks the kind, page 3 repeats it (a walk's departure).
  const server = await startReferenceServer({
    timing: embeddedTiming(),
    seed: 7,
    resources: 120,
    faults: ['list-later-pages-other-kinds'],
  });
  try {
    const run = await runRules(
      selectRules(await loadCatalogue(), {
        rules: ['list.resources-of-the-kind', 'pagination.each-resource-once'],
      }),
      {
        baseUrl: server.url,
        serviceVersion: '26.06.25',
        apiKey: server.apiKey,
        profile: server.profile,
        timing: server.timing,
      },
      { ...DEFAULT_ENGINE_OPTIONS, numRuns: 3, seed: 1 },
    );
    const result = run.results.find((r) => r.ruleId === 'list.resources-of-the-kind');
    expect(result?.verdict).toBe('FAIL');
    expect(result?.violations.map((v) => v.where)).toContainEqual(
      expect.stringMatching(/, resources\.list page 2 \(limit \d+\): response\.body\.data\[0\]\.kind_id$/),
    );
    expect(run.results.find((r) => r.ruleId === 'pagination.each-resource-once')?.verdict).toBe('FAIL');
  } finally {
    await server.close();
  }
});
