/**
 * A rule that repeats its judged request is confirmed by how often its
 * departure comes (departure-rate.ts): a proxy turns the 422 of a tampered
 * next_token into a 400 for the first judged request, then every N-th. One
 * time in 30 repeats within thirty more judged requests, which once was
 * enough to confirm it; it is a middlebox's rate, no server's: FLAKY. One
 * time in 90 is a glitch's (FLAKY); one time in ten or five the server's.
 */
import { embeddedTiming } from '../../src/core/timing.ts';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { request } from 'undici';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { loadCatalogue, selectRules } from '../../src/runner/catalogue.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';
import { startForwardingProxy, type ForwardingProxy } from '../helpers/forwarding-proxy.ts';

const RULE = 'pagination.prop.tampered-token-422';

let upstream: ReferenceServer;
beforeAll(async () => {
  upstream = await startReferenceServer({ timing: embeddedTiming(), resources: 40 });
});
afterAll(() => upstream.close());

/** A proxy answering 400 instead of the upstream's 422 to the first rejected list request, then to every `every`-th. */
async function spoilingRejections(every: number): Promise<ForwardingProxy> {
  let rejections = 0;
  return startForwardingProxy(upstream.url, async (path, body, res) => {
    if (!path.endsWith('/resources.list')) return false;
    const up = await request(`${upstream.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${upstream.apiKey}`,
        'service-version': '26.06.25',
      },
      body,
    });
    const text = await up.body.text();
    const spoiled = up.statusCode === 422 && rejections++ % every === 0;
    res.writeHead(spoiled ? 400 : up.statusCode, { 'content-type': 'application/json' });
    res.end(text);
    return true;
  });
}

async function runTampered(proxy: ForwardingProxy) {
  const run = await runRules(
    selectRules(await loadCatalogue(), { rules: [RULE] }),
    {
      baseUrl: proxy.url,
      serviceVersion: '26.06.25',
      apiKey: upstream.apiKey,
      profile: upstream.profile,
      timing: upstream.timing,
    },
    { ...DEFAULT_ENGINE_OPTIONS, seed: 1 },
  );
  const result = run.results.find((r) => r.ruleId === RULE);
  if (!result) throw new Error(`${RULE} has no result`);
  return result;
}

test('a departure every 30th judged request repeats within thirty more, at a middlebox’s rate: FLAKY, undecided', async () => {
  const proxy = await spoilingRejections(30);
  try {
    const result = await runTampered(proxy);
    expect(result.verdict).toBe('FLAKY');
    expect(result.reason).toMatch(
      /the rate of the departure was not decided within \d+ judged requests: it showed in [1-9]/,
    );
  } finally {
    await proxy.close();
  }
});

test('one time in 90: a glitch’s rate, FLAKY', async () => {
  const proxy = await spoilingRejections(90);
  try {
    const result = await runTampered(proxy);
    expect(result.verdict).toBe('FLAKY');
    expect(result.reason).toMatch(/did not come often enough to be the server's/);
  } finally {
    await proxy.close();
  }
});

for (const every of [10, 5]) {
  test(`one time in ${every}: the server’s, a confirmed FAIL`, async () => {
    const proxy = await spoilingRejections(every);
    try {
      const result = await runTampered(proxy);
      expect(result).toMatchObject({ verdict: 'FAIL', confirmed: true });
    } finally {
      await proxy.close();
    }
  });
}
