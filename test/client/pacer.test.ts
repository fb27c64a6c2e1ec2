/**
 * The pacer shared by a run's clients: a fixed rate, a cap on requests in
 * flight, a run-wide pause on Retry-After, and adaptive pacing that slows
 * down before the server's allowance runs out.
 */
import { Agent } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import { DirectoryClient, type ClientOptions } from '../../src/client/directory-client.ts';
import { Pacer } from '../../src/client/pacer.ts';
import { Redactor } from '../../src/client/redact.ts';
import { HarnessError } from '../../src/core/errors.ts';
import type { Exchange } from '../../src/core/exchange.ts';
import {
  startRateLimitedProxy,
  type RateLimitedProxy,
  type RateLimitedProxyOptions,
} from '../../src/hostile-server/rate-limited-proxy.ts';
import { json, startTestServer, type TestServer } from '../helpers/http-server.ts';
import { policyWith } from '../helpers/retry-policy.ts';

let server: TestServer | undefined;
let proxy: RateLimitedProxy | undefined;
let agent: Agent | undefined;

afterEach(async () => {
  await agent?.close();
  agent = undefined;
  await proxy?.close();
  proxy = undefined;
  await server?.close();
  server = undefined;
});

function clientFor(
  url: string,
  budget: Pacer,
  extra: Partial<ClientOptions> = {},
): { client: DirectoryClient; exchanges: Exchange[] } {
  agent ??= new Agent({ connections: 64 });
  const exchanges: Exchange[] = [];
  const client = new DirectoryClient({
    baseUrl: url,
    serviceVersion: '26.06.25',
    dispatcher: agent,
    redactor: new Redactor(),
    budget,
    onExchange: (e) => exchanges.push(e),
    ...extra,
  });
  return { client, exchanges };
}

/** `loops` loops side by side, `total` requests in all, like rules running side by side. */
async function load(client: DirectoryClient, total: number, loops: number): Promise<number[]> {
  const statuses: number[] = [];
  let left = total;
  await Promise.all(
    Array.from({ length: loops }, async () => {
      while (left-- > 0) statuses.push((await client.postRaw('resources.list', { json: {} })).status);
    }),
  );
  return statuses;
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'no error';
  } catch (e) {
    return e instanceof HarnessError ? e.code : String(e);
  }
}

/** Arrival times at the server, in ms from the first. */
function arrivals(times: number[]): number[] {
  return times.map((t) => t - times[0]!);
}

describe('fixed rate and caps', () => {
  test('a fixed rate spaces requests evenly, also when they are sent together', async () => {
    const times: number[] = [];
    server = await startTestServer((_req, res) => {
      times.push(performance.now());
      json(res, 200, []);
    });
    const { client } = clientFor(server.url, new Pacer({ rate: 20, maxRequests: 0 }));
    const started = performance.now();
    await Promise.all(Array.from({ length: 5 }, () => client.postRaw('resources.list', { json: {} })));
    // 20 per second: the k-th request cannot arrive before k × 50 ms (a busy machine only makes it later).
    times.sort((a, b) => a - b);
    times.forEach((t, k) => expect(t - started).toBeGreaterThanOrEqual(k * 50 - 2));
  });

  test('the time waiting for the pacer is recorded, and is not latency', async () => {
    server = await startTestServer((_req, res) => json(res, 200, []));
    const { client, exchanges } = clientFor(server.url, new Pacer({ rate: 1, maxRequests: 0 }));
    await client.postRaw('resources.list', { json: {} });
    await client.postRaw('resources.list', { json: {} });
    expect(exchanges[1]!.queuedMs).toBeGreaterThanOrEqual(500);
    expect(exchanges[1]!.durationMs).toBeLessThan(exchanges[1]!.queuedMs!);
  });

  test('requests in flight are capped', async () => {
    let current = 0;
    let peak = 0;
    server = await startTestServer((_req, res) => {
      current += 1;
      peak = Math.max(peak, current);
      setTimeout(() => {
        current -= 1;
        json(res, 200, []);
      }, 30);
    });
    const pacer = new Pacer({ rate: 0, maxRequests: 0, maxInFlight: 3 });
    const { client } = clientFor(server.url, pacer);
    await Promise.all(Array.from({ length: 12 }, () => client.postRaw('resources.list', { json: {} })));
    expect(peak).toBe(3);
    expect(pacer.stats()).toMatchObject({ sent: 12, peakInFlight: 3 });
  });

  test("'auto' caps requests in flight at 8 by default", async () => {
    let current = 0;
    let peak = 0;
    server = await startTestServer((_req, res) => {
      current += 1;
      peak = Math.max(peak, current);
      setTimeout(() => {
        current -= 1;
        json(res, 200, []);
      }, 30);
    });
    const { client } = clientFor(server.url, new Pacer({ rate: 'auto', maxRequests: 0 }));
    await Promise.all(Array.from({ length: 20 }, () => client.postRaw('resources.list', { json: {} })));
    expect(peak).toBe(8);
  });

  test('queued requests count against the request budget', async () => {
    server = await startTestServer((_req, res) => json(res, 200, []));
    const { client } = clientFor(server.url, new Pacer({ rate: 10, maxRequests: 2 }));
    const codes = await Promise.all(
      Array.from({ length: 3 }, () => codeOf(client.postRaw('resources.list', { json: {} }))),
    );
    expect(codes.sort()).toEqual(['DC_ERR_BUDGET', 'no error', 'no error']);
    expect(server.requests).toHaveLength(2);
  });

  test('once the time budget has passed, no request starts: DC_ERR_BUDGET naming the budget; restorations still go', async () => {
    server = await startTestServer((_req, res) => json(res, 200, []));
    let now = 0;
    const pacer = new Pacer({ rate: 0, maxRequests: 0, timeBudget: { endsAt: 1000, now: () => now, said: '1s' } });
    await expect(pacer.acquire()).resolves.toBeDefined();
    now = 1000;
    await expect(pacer.acquire()).rejects.toThrow('time budget of 1s (--max-time) is spent');
    await expect(pacer.acquire(undefined, false, true)).resolves.toBeDefined();
  });

  test('a request waiting for its turn ends at once when the run is aborted', async () => {
    server = await startTestServer((_req, res) => json(res, 200, []));
    const controller = new AbortController();
    const { client } = clientFor(server.url, new Pacer({ rate: 1, maxRequests: 0 }), { signal: controller.signal });
    await client.postRaw('resources.list', { json: {} });
    const waiting = codeOf(client.postRaw('resources.list', { json: {} }));
    setTimeout(() => controller.abort(), 50);
    expect(await waiting).toBe('DC_ERR_ABORTED');
    expect(server.requests).toHaveLength(1);
  });
});

describe('Retry-After pauses the whole run', () => {
  test('after a 429, no other request goes out before Retry-After has passed', async () => {
    const times: number[] = [];
    server = await startTestServer((_req, res) => {
      times.push(performance.now());
      if (times.length === 1) json(res, 429, { message: 'slow down' }, { 'retry-after': '0.3' });
      else json(res, 200, []);
    });
    const pacer = new Pacer({ rate: 0, maxRequests: 0 });
    const first = clientFor(server.url, pacer);
    const second = clientFor(server.url, pacer);
    const refused = first.client.postRaw('resources.assign-team', { json: {} });
    while (times.length === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 50));
    await second.client.postRaw('resources.list', { json: {} });
    await refused;
    const at = arrivals(times);
    // The other client's request and the retry both wait out the pause.
    expect(at[1]).toBeGreaterThanOrEqual(290);
    expect(at[2]).toBeGreaterThanOrEqual(290);
    expect(second.exchanges[0]!.queuedMs).toBeGreaterThanOrEqual(200);
    expect(pacer.stats().rateLimited).toBe(1);
  });
});

describe("'auto' against a token bucket", () => {
  const upstream = async (): Promise<string> => {
    server = await startTestServer((_req, res) => json(res, 200, []));
    return server.url;
  };
  const bucket = (extra: Partial<RateLimitedProxyOptions>): RateLimitedProxyOptions => ({
    upstream: '',
    latencyMs: 2,
    bucketSize: 8,
    refillPerSecond: 50,
    retryAfterPrecision: 'milliseconds',
    ...extra,
  });

  for (const headers of ['ietf', 'x-ratelimit'] as const) {
    test(`with ${headers} headers it slows down before the bucket is empty: no 429 at all`, async () => {
      // A bucket of 16 leaves the pacer's reading of the headers room for a busy machine's delays.
      proxy = await startRateLimitedProxy(bucket({ upstream: await upstream(), headers, bucketSize: 16 }));
      const pacer = new Pacer({ rate: 'auto', maxRequests: 0 });
      const { client } = clientFor(proxy.url, pacer);
      const statuses = await load(client, 60, 4);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      expect(proxy.stats()).toMatchObject({ received: 60, rateLimited: 0 });
    });
  }

  test('the same load without pacing meets 429s (so the test above can fail)', async () => {
    proxy = await startRateLimitedProxy(bucket({ upstream: await upstream(), headers: 'ietf', bucketSize: 16 }));
    const { client } = clientFor(proxy.url, new Pacer({ rate: 0, maxRequests: 0 }), {
      retryPolicy: policyWith({ 'rate limited': 1 }),
    });
    const statuses = await load(client, 60, 4);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
  });

  test('with Retry-After alone it learns the refill rate: every request ends 200', async () => {
    proxy = await startRateLimitedProxy(bucket({ upstream: await upstream(), headers: 'none' }));
    const pacer = new Pacer({ rate: 'auto', maxRequests: 0 });
    const { client, exchanges } = clientFor(proxy.url, pacer);
    const statuses = await load(client, 60, 4);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const { rateLimited } = proxy.stats();
    expect(rateLimited).toBeGreaterThan(0);
    expect(pacer.stats().rateLimited).toBe(rateLimited);
    // Every attempt is counted: the proxy saw exactly the attempts the exchanges report.
    expect(exchanges.reduce((n, e) => n + e.attempts, 0)).toBe(proxy.stats().received);
  });

  test('too many requests in flight are refused with 429 by the proxy, and the cap avoids them', async () => {
    server = await startTestServer((_req, res) => void setTimeout(() => json(res, 200, []), 20));
    proxy = await startRateLimitedProxy(
      bucket({ upstream: server.url, bucketSize: 1000, refillPerSecond: 1000, maxInFlight: 4 }),
    );
    const unpaced = clientFor(proxy.url, new Pacer({ rate: 0, maxRequests: 0 }), {
      retryPolicy: policyWith({ 'rate limited': 1 }),
    });
    const statuses = await load(unpaced.client, 16, 8);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(proxy.stats().overConcurrency).toBeGreaterThan(0);
    const before = proxy.stats().rateLimited;
    const paced = clientFor(proxy.url, new Pacer({ rate: 'auto', maxRequests: 0, maxInFlight: 4 }));
    expect((await load(paced.client, 16, 8)).every((s) => s === 200)).toBe(true);
    expect(proxy.stats().rateLimited).toBe(before);
  });
});
