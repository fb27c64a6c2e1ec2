/**
 * Retries never flip a verdict: a 429 (not processed) is retried on every
 * request; 502/503/504 and connections dropped before an answer only on
 * requests safe to repeat; attempts and waits are bounded, every attempt is
 * counted, and the last answer stands.
 */
import { Agent } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import { DirectoryClient, type ClientOptions, type OperationName } from '../../src/client/directory-client.ts';
import { Redactor } from '../../src/client/redact.ts';
import { HarnessError } from '../../src/core/errors.ts';
import type { Exchange } from '../../src/core/exchange.ts';
import { json, startTestServer, type TestServer } from '../helpers/http-server.ts';
import { policyWith } from '../helpers/retry-policy.ts';

let server: TestServer | undefined;
let agent: Agent | undefined;

afterEach(async () => {
  await agent?.close();
  agent = undefined;
  await server?.close();
  server = undefined;
});

type Step = number | 'reset' | 'hang' | { status: number; retryAfter: string };

/** A server that answers with `steps` in order, then 200 with `[]` for ever. */
async function scripted(steps: Step[]): Promise<TestServer> {
  let n = 0;
  return startTestServer((req, res) => {
    const step = steps[n++] ?? 200;
    if (step === 'reset') return void req.socket.destroy();
    if (step === 'hang') return;
    if (typeof step === 'number') return json(res, step, step === 200 ? [] : { message: `status ${step}` });
    json(res, step.status, { message: 'later' }, { 'retry-after': step.retryAfter });
  });
}

function clientFor(
  url: string,
  extra: Partial<ClientOptions> = {},
): { client: DirectoryClient; exchanges: Exchange[] } {
  agent = new Agent();
  const exchanges: Exchange[] = [];
  const client = new DirectoryClient({
    baseUrl: url,
    serviceVersion: '26.06.25',
    dispatcher: agent,
    redactor: new Redactor(),
    onExchange: (e) => exchanges.push(e),
    ...extra,
  });
  return { client, exchanges };
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'no error';
  } catch (e) {
    return e instanceof HarnessError ? e.code : String(e);
  }
}

const READS: OperationName[] = [
  'resources.list',
  'resources.list-roles',
  'resources.show-teams',
  'resources.show-activity-rates',
];
const MUTATIONS: OperationName[] = [
  'resources.revoke-roles',
  'resources.assign-team',
  'resources.assign-activity-rate',
  'resources.unassign-activity-rate',
];
const now0 = { status: 429, retryAfter: '0' };

describe('429: the request was not processed, so every request is retried', () => {
  for (const operation of [...READS, ...MUTATIONS]) {
    test(operation, async () => {
      server = await scripted([now0, now0]);
      const { client, exchanges } = clientFor(server.url);
      const res = await client.postRaw(operation, { json: {} });
      expect(res.status).toBe(200);
      expect(server.requests).toHaveLength(3);
      expect(exchanges).toHaveLength(1);
      expect(exchanges[0]).toMatchObject({ attempts: 3, earlierAttempts: [{ status: 429 }, { status: 429 }] });
    });
  }

  test('a 429 that persists is the final answer, every attempt counted', async () => {
    server = await scripted(Array.from({ length: 10 }, () => now0));
    const { client, exchanges } = clientFor(server.url, { retryPolicy: policyWith({ 'rate limited': 4 }) });
    const res = await client.postRaw('resources.assign-team', { json: {} });
    expect(res.status).toBe(429);
    expect(server.requests).toHaveLength(4);
    expect(exchanges[0]!.attempts).toBe(4);
    expect(res.exchange.attempts).toBe(4);
  });

  test('Retry-After is honoured; the wait is recorded apart from the latency', async () => {
    server = await scripted([{ status: 429, retryAfter: '0.4' }]);
    const { client, exchanges } = clientFor(server.url);
    const started = performance.now();
    await client.postRaw('resources.revoke-roles', { json: {} });
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    expect(exchanges[0]!.retryWaitMs).toBe(400);
    // The latency is the server's: the last attempt alone, not the sleep before it.
    expect(exchanges[0]!.durationMs).toBeLessThan(400);
  });

  test('Retry-After as an HTTP date', async () => {
    server = await scripted([{ status: 429, retryAfter: new Date(Date.now() - 1000).toUTCString() }]);
    const { client, exchanges } = clientFor(server.url);
    expect((await client.postRaw('resources.list', { json: {} })).status).toBe(200);
    expect(exchanges[0]!.attempts).toBe(2);
  });

  test('a Retry-After longer than maxRetryDelayMs is not waited for', async () => {
    server = await scripted([{ status: 429, retryAfter: '120' }]);
    const { client } = clientFor(server.url, { retryPolicy: policyWith({}, { maxDelayMs: 5_000 }) });
    expect((await client.postRaw('resources.list', { json: {} })).status).toBe(429);
    expect(server.requests).toHaveLength(1);
  });

  test('the total wait of one request is bounded', async () => {
    server = await scripted(Array.from({ length: 10 }, () => ({ status: 429, retryAfter: '0.1' })));
    const { client, exchanges } = clientFor(server.url, {
      retryPolicy: policyWith({ 'rate limited': 10 }, { maxWaitMs: 250 }),
    });
    expect((await client.postRaw('resources.list', { json: {} })).status).toBe(429);
    // 100 + 100 ms waited; a third wait would pass 250 ms.
    expect(server.requests).toHaveLength(3);
    expect(exchanges[0]!.retryWaitMs).toBe(200);
  });
});

describe('502/503/504: retried only on requests safe to repeat', () => {
  for (const status of [502, 503, 504]) {
    test(`${status} on every read is retried`, async () => {
      server = await scripted([status, status, status, status]);
      const { client, exchanges } = clientFor(server.url, {
        retryPolicy: policyWith({ 'gateway answer': 2, 'dropped connection': 2 }),
      });
      for (const operation of READS) await client.postRaw(operation, { json: {} });
      // Two attempts each for the first two reads, both faults: bounded, and the last answer stands.
      expect(server.requests).toHaveLength(6);
      expect(exchanges.map((e) => [e.response?.status, e.attempts])).toEqual([
        [status, 2],
        [status, 2],
        [200, 1],
        [200, 1],
      ]);
    });

    test(`${status} on a mutation is the answer`, async () => {
      server = await scripted([status, status, status, status]);
      const { client, exchanges } = clientFor(server.url);
      for (const operation of MUTATIONS) expect((await client.postRaw(operation, { json: {} })).status).toBe(status);
      expect(server.requests).toHaveLength(4);
      expect(exchanges.every((e) => e.attempts === 1)).toBe(true);
    });
  }

  test('a restoring mutation is retried (it puts a value back)', async () => {
    server = await scripted([503]);
    const { client } = clientFor(server.url);
    expect((await client.postRaw('resources.assign-team', { json: {} }, { retry: 'restore' })).status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });

  test('Retry-After on a 503 is honoured; without it the back-off doubles', async () => {
    server = await scripted([503, 503]);
    const { client, exchanges } = clientFor(server.url);
    expect((await client.postRaw('resources.list', { json: {} })).status).toBe(200);
    expect(exchanges[0]).toMatchObject({ attempts: 3, retryWaitMs: 200 + 400 });
  });

  test('a lone 500 to a read is sent once more: the repeat stands, the exchange keeps the 500', async () => {
    server = await scripted([500]);
    const { client, exchanges } = clientFor(server.url);
    expect((await client.postRaw('resources.list', { json: {} })).status).toBe(200);
    expect(server.requests).toHaveLength(2);
    expect(exchanges[0]).toMatchObject({ attempts: 2, earlierAttempts: [{ status: 500 }] });
  });

  test('a 500 that repeats on a read stands after two requests', async () => {
    server = await scripted([500, 500, 500]);
    const { client } = clientFor(server.url);
    expect((await client.postRaw('resources.list', { json: {} })).status).toBe(500);
    expect(server.requests).toHaveLength(2);
  });

  test('a 500 to a mutation is not sent again: it may have taken effect', async () => {
    server = await scripted([500]);
    const { client } = clientFor(server.url);
    expect((await client.postRaw('resources.assign-team', { json: {} })).status).toBe(500);
    expect(server.requests).toHaveLength(1);
  });
});

describe('connections dropped before an answer', () => {
  test('a read is retried and the drop is recorded', async () => {
    server = await scripted(['reset']);
    const { client, exchanges } = clientFor(server.url);
    expect((await client.postRaw('resources.show-teams', { json: {} })).status).toBe(200);
    expect(server.requests).toHaveLength(2);
    expect(exchanges[0]).toMatchObject({ attempts: 2, earlierAttempts: [{ error: 'DC_ERR_NETWORK' }] });
  });

  test('a mutation is not retried (it may have taken effect), unless marked idempotent', async () => {
    server = await scripted(['reset', 'reset']);
    const { client, exchanges } = clientFor(server.url);
    expect(await codeOf(client.postRaw('resources.assign-activity-rate', { json: {} }))).toBe('DC_ERR_NETWORK');
    expect(server.requests).toHaveLength(1);
    expect(exchanges[0]).toMatchObject({ attempts: 1, error: { code: 'DC_ERR_NETWORK' } });
    expect((await client.postRaw('resources.assign-activity-rate', { json: {} }, { retry: 'restore' })).status).toBe(
      200,
    );
    expect(server.requests).toHaveLength(3);
  });

  test('a drop that persists is a network fault after the bounded attempts', async () => {
    server = await scripted(['reset', 'reset', 'reset', 'reset']);
    const { client, exchanges } = clientFor(server.url, {
      retryPolicy: policyWith({ 'gateway answer': 2, 'dropped connection': 2 }),
    });
    expect(await codeOf(client.postRaw('resources.list', { json: {} }))).toBe('DC_ERR_NETWORK');
    expect(server.requests).toHaveLength(2);
    expect(exchanges[0]).toMatchObject({ attempts: 2, error: { code: 'DC_ERR_NETWORK' } });
  });

  test('a timeout is not retried: the server may still be working on it', async () => {
    server = await scripted(['hang', 'hang']);
    const { client } = clientFor(server.url, { timeoutMs: 150 });
    expect(await codeOf(client.postRaw('resources.list', { json: {} }))).toBe('DC_ERR_TIMEOUT');
    expect(server.requests).toHaveLength(1);
  });
});
