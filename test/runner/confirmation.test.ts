/**
 * A FAIL is confirmed before it is reported: the failing example is driven
 * once more. A departure that repeats is a FAIL (marked confirmed); one that
 * does not is FLAKY, with both attempts' exchanges, and the run is
 * inconclusive, never not conformant.
 */
import { embeddedTiming } from '../../src/core/timing.ts';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference-server/index.ts';
import { loadCatalogue, selectRules } from '../../src/runner/catalogue.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';
import { request } from 'undici';
import { startForwardingProxy, type ForwardingProxy } from '../helpers/forwarding-proxy.ts';

let upstream: ReferenceServer;
beforeAll(async () => {
  upstream = await startReferenceServer({ timing: embeddedTiming(), resources: 40 });
});
afterAll(() => upstream.close());

/** A proxy that answers list-roles with an envelope (not the plain array §4.6 says) `times` times. */
async function breakingListRoles(times: number): Promise<ForwardingProxy> {
  let left = times;
  return startForwardingProxy(upstream.url, (path, _body, res) => {
    if (!path.endsWith('/resources.list-roles') || left <= 0) return false;
    left -= 1;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":[],"next_token":null}');
    return true;
  });
}

async function runPlainArray(proxy: ForwardingProxy) {
  const run = await runRules(
    selectRules(await loadCatalogue(), { rules: ['list-roles.plain-array'] }),
    {
      baseUrl: proxy.url,
      serviceVersion: '26.06.25',
      apiKey: upstream.apiKey,
      profile: upstream.profile,
      timing: upstream.timing,
    },
    { ...DEFAULT_ENGINE_OPTIONS, seed: 1 },
  );
  const result = run.results.find((r) => r.ruleId === 'list-roles.plain-array');
  return { run, result };
}

test('a departure that repeats when driven again is a confirmed FAIL', async () => {
  const proxy = await breakingListRoles(Number.POSITIVE_INFINITY);
  try {
    const { run, result } = await runPlainArray(proxy);
    expect(result).toMatchObject({ verdict: 'FAIL', confirmed: true });
    expect(run.summary.outcome).toBe('not-conformant');
  } finally {
    await proxy.close();
  }
});

test('a departure seen once that does not repeat is FLAKY: both attempts shown, the run inconclusive', async () => {
  const proxy = await breakingListRoles(1);
  try {
    const { run, result } = await runPlainArray(proxy);
    expect(result?.verdict).toBe('FLAKY');
    expect(result?.violations.length).toBeGreaterThan(0);
    expect(result?.reason).toMatch(/did not repeat/);
    // The first attempt's broken answer and the second attempt's good one are both in the transcript.
    const bodies = (result?.exchanges ?? []).map((e) => e.response?.body ?? '');
    expect(bodies.some((b) => b.startsWith('{"data"'))).toBe(true);
    expect(bodies.some((b) => b.startsWith('['))).toBe(true);
    expect(run.summary.outcome).toBe('inconclusive');
    expect(run.summary.byVerdict.FLAKY).toBe(1);
  } finally {
    await proxy.close();
  }
});

test('the second attempt reads afresh: an answer shared from the first would only repeat it', async () => {
  let broken = false;
  const proxy = await startForwardingProxy(upstream.url, (path, body, res) => {
    if (!path.endsWith('/resources.list') || broken || !body.includes('"limit":null')) return false;
    broken = true;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":[],"next_token":"more"}');
    return true;
  });
  try {
    const run = await runRules(
      selectRules(await loadCatalogue(), { rules: ['pagination.limit-null-whole-collection'] }),
      {
        baseUrl: proxy.url,
        serviceVersion: '26.06.25',
        apiKey: upstream.apiKey,
        profile: upstream.profile,
        timing: upstream.timing,
      },
      { ...DEFAULT_ENGINE_OPTIONS, seed: 1 },
    );
    expect(run.results[0]?.verdict).toBe('FLAKY');
  } finally {
    await proxy.close();
  }
});

test('a next page asked for with a token a middlebox spoiled is not sent again alone: its finder walks again', async () => {
  // The first page of one walk comes back with its next_token spoiled; the server refuses that token (422),
  // which the walk's list step charges to pagination.envelope. Sent again alone, the request would carry the
  // spoiled token again and be refused again: no confirmation of anything the server did.
  let spoiled = false;
  const proxy = await startForwardingProxy(upstream.url, async (path, body, res) => {
    if (
      !path.endsWith('/resources.list') ||
      spoiled ||
      !body.includes('"orders"') ||
      !body.includes('"next_token":null')
    )
      return false;
    spoiled = true;
    const up = await request(`${upstream.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${upstream.apiKey}`,
        'service-version': '26.06.25',
      },
      body,
    });
    const page: unknown = await up.body.json();
    if (typeof page !== 'object' || page === null) throw new Error('the first page of the ordered walk is no object');
    const token: unknown = Reflect.get(page, 'next_token');
    if (typeof token !== 'string') throw new Error('the first page of the ordered walk has no next_token');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...page, next_token: `x${token}` }));
    return true;
  });
  try {
    const run = await runRules(
      selectRules(await loadCatalogue(), { rules: ['list.orders-ascending'] }),
      {
        baseUrl: proxy.url,
        serviceVersion: '26.06.25',
        apiKey: upstream.apiKey,
        profile: upstream.profile,
        timing: upstream.timing,
      },
      { ...DEFAULT_ENGINE_OPTIONS, seed: 1 },
    );
    expect(spoiled).toBe(true);
    const envelope = run.results.find((r) => r.ruleId === 'pagination.envelope');
    expect(envelope?.verdict).not.toBe('FAIL');
    expect(run.results.filter((r) => r.verdict === 'FAIL')).toEqual([]);
  } finally {
    await proxy.close();
  }
});
