/** A mutating check whose restoration fails reports an ERROR with the exact difference, never a FAIL. */
import { request } from 'undici';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { loadCatalogue, selectRules } from '../../src/runner/catalogue.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';
import { startTestServer, type TestServer } from '../helpers/http-server.ts';

let upstream: ReferenceServer;
let drifting: TestServer;

/**
 * In front of the reference server, shown activity rates drift by one:
 * what is read back and assigned again is never what was there, so the
 * snapshot can never be restored.
 */
beforeAll(async () => {
  upstream = await startReferenceServer();
  drifting = await startTestServer(async (req, res, body) => {
    const answer = await request(`${upstream.url}${req.url ?? ''}`, {
      method: 'POST',
      headers: { authorization: req.headers.authorization ?? '', 'content-type': 'application/json' },
      body,
    });
    let text = await answer.body.text();
    if (req.url?.endsWith('resources.show-activity-rates') && answer.statusCode === 200) {
      const periods = JSON.parse(text) as Array<{ average_rate: number }>;
      text = JSON.stringify(periods.map((p) => ({ ...p, average_rate: p.average_rate + 1 })));
    }
    res.writeHead(answer.statusCode, { 'content-type': 'application/json' });
    res.end(text);
  });
});
afterAll(async () => {
  await drifting.close();
  await upstream.close();
});

test('a restoration that does not verify is DC_ERR_RESTORE with the difference', async () => {
  const run = await runRules(
    selectRules(await loadCatalogue(), { rules: ['activity-rates.assign-no-content'] }),
    { baseUrl: drifting.url, serviceVersion: '26.06.25', apiKey: upstream.apiKey, profile: upstream.profile },
    { ...DEFAULT_ENGINE_OPTIONS, allowMutations: true },
  );
  const result = run.results[0]!;
  expect(result.verdict).toBe('ERROR');
  expect(result.errorCode).toBe('DC_ERR_RESTORE');
  expect(result.reason).toMatch(/could not be restored: missing after restore: .*average_rate/);
});

test('a restoring request dropped by the network is sent again and the restoration verifies', async () => {
  const server = await startReferenceServer();
  const dropped = new Set<string>();
  // Restoring assignments carry the snapshot's patterns; each is dropped once, before an answer.
  const flaky = await startTestServer(async (req, res, body) => {
    if (
      req.url?.endsWith('resources.assign-activity-rate') &&
      body.includes('activity_rate_patterns') &&
      !dropped.has(body)
    ) {
      dropped.add(body);
      req.socket.destroy();
      return;
    }
    const answer = await request(`${server.url}${req.url ?? ''}`, {
      method: 'POST',
      headers: {
        authorization: req.headers.authorization ?? '',
        'content-type': 'application/json',
        'service-version': '26.06.25',
      },
      body,
    });
    res.writeHead(answer.statusCode, { 'content-type': 'application/json' });
    res.end(await answer.body.text());
  });
  try {
    const run = await runRules(
      selectRules(await loadCatalogue(), { rules: ['activity-rates.prop.model-sequences'] }),
      { baseUrl: flaky.url, serviceVersion: '26.06.25', apiKey: server.apiKey, profile: server.profile },
      { ...DEFAULT_ENGINE_OPTIONS, allowMutations: true, numRuns: 5, seed: 3 },
    );
    const result = run.results[0]!;
    expect(dropped.size).toBeGreaterThan(0);
    expect([result.verdict, result.reason]).toEqual(['PASS', undefined]);
  } finally {
    await flaky.close();
    await server.close();
  }
});

test('a request budget spent in the middle of a change still lets the change be put back', async () => {
  const server = await startReferenceServer();
  try {
    const target = { baseUrl: server.url, serviceVersion: '26.06.25', apiKey: server.apiKey, profile: server.profile };
    const state = async (): Promise<string> => {
      const parts: string[] = [];
      for (const r of server.profile.mutableResources.slice(0, 4)) {
        for (const op of ['resources.show-teams', 'resources.show-activity-rates']) {
          const res = await request(`${server.url}/api/directory/${op}`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${server.apiKey}`,
              'content-type': 'application/json',
              'service-version': '26.06.25',
            },
            body: JSON.stringify({ resource_id: r.id, date_range: '1900-01-01/2199-12-31' }),
          });
          parts.push(await res.body.text());
        }
      }
      return parts.join('\n');
    };
    const before = await state();
    const run = await runRules(
      selectRules(await loadCatalogue(), { rules: ['activity-rates.prop.model-sequences'] }),
      target,
      { ...DEFAULT_ENGINE_OPTIONS, allowMutations: true, numRuns: 25, seed: 3, maxRequests: 40 },
    );
    expect([run.results[0]!.verdict, run.results[0]!.errorCode]).toEqual(['NOT-TESTED', 'DC_ERR_BUDGET']);
    expect(await state()).toBe(before);
  } finally {
    await server.close();
  }
});
