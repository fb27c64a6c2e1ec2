import { Agent } from 'undici';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { DirectoryClient } from '../../src/client/directory-client.ts';
import { retryDelayMs } from '../../src/client/retry.ts';
import { HarnessError } from '../../src/core/errors.ts';
import type { Exchange } from '../../src/core/exchange.ts';
import { Redactor } from '../../src/client/redact.ts';
import { RequestBudget } from '../../src/client/request-budget.ts';
import { sendOnWire } from '../../src/client/wire.ts';
import { json, startTestServer, type TestServer } from '../helpers/http-server.ts';
import { policyWith } from '../helpers/retry-policy.ts';

const KEY = 'sk-live-very-secret-0123456789';
let server: TestServer | undefined;
let agent: Agent | undefined;

afterEach(async () => {
  await agent?.close();
  agent = undefined;
  await server?.close();
  server = undefined;
});

function clientFor(
  url: string,
  extra: Partial<ConstructorParameters<typeof DirectoryClient>[0]> = {},
): { client: DirectoryClient; exchanges: Exchange[] } {
  const redactor = new Redactor();
  redactor.add(KEY, '$DIRECTORY_API_KEY');
  agent = new Agent();
  const exchanges: Exchange[] = [];
  const client = new DirectoryClient({
    baseUrl: url,
    serviceVersion: '26.06.25',
    dispatcher: agent,
    redactor,
    credential: { apiKey: KEY, placeholder: '$DIRECTORY_API_KEY' },
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

describe('DirectoryClient', () => {
  test('sends the documented headers and records the exchange without the key', async () => {
    server = await startTestServer((_req, res) => json(res, 200, { echo: KEY }));
    const { client, exchanges } = clientFor(`${server.url}/prefix/`);
    const res = await client.post('resources.list', { kind_id: '1' });
    expect(res.status).toBe(200);
    const got = server.requests[0]!;
    expect(got.url).toBe('/prefix/api/directory/resources.list');
    expect(got.headers['service-version']).toBe('26.06.25');
    expect(got.headers.accept).toBe('application/json');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(exchanges).toHaveLength(1);
    const recorded = JSON.stringify(exchanges[0]);
    expect(recorded).not.toContain(KEY);
    expect(exchanges[0]!.request.headers.authorization).toBe('Bearer $DIRECTORY_API_KEY');
    expect(res.exchange.response.body).toContain('$DIRECTORY_API_KEY');
    expect(exchanges[0]).toBe(res.exchange);
  });

  test('a status is an answer, not an error', async () => {
    server = await startTestServer((_req, res) => json(res, 500, { message: 'boom' }));
    const { client } = clientFor(server.url);
    const res = await client.postRaw('resources.assign-team', { json: {} });
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ message: 'boom' });
  });

  test('non-JSON bodies are kept as text', async () => {
    server = await startTestServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>hi</html>');
    });
    const { client } = clientFor(server.url);
    const res = await client.postRaw('resources.list', { json: {} });
    expect(res.json).toBeUndefined();
    expect(res.text).toBe('<html>hi</html>');
  });

  test('a server that never answers is a timeout', async () => {
    server = await startTestServer(() => undefined);
    const { client, exchanges } = clientFor(server.url, { timeoutMs: 150 });
    expect(await codeOf(client.postRaw('resources.list', { json: {} }))).toBe('DC_ERR_TIMEOUT');
    expect(exchanges[0]?.error?.code).toBe('DC_ERR_TIMEOUT');
  });

  test('a reset connection is a network fault', async () => {
    server = await startTestServer((req) => void req.socket.destroy());
    const { client } = clientFor(server.url);
    expect(await codeOf(client.postRaw('resources.list', { json: {} }))).toBe('DC_ERR_NETWORK');
  });

  test('an oversized body is cut off', async () => {
    server = await startTestServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`"${'x'.repeat(64 * 1024)}"`);
    });
    const { client } = clientFor(server.url, { maxBodyBytes: 1024 });
    expect(await codeOf(client.postRaw('resources.list', { json: {} }))).toBe('DC_ERR_BODY_TOO_LARGE');
  });

  test('a body that trickles in past the deadline is a timeout, though every part comes in time', async () => {
    // undici's own limits are per part; the deadline is for the whole answer.
    server = await startTestServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => res.write(' '), 20);
      res.on('close', () => clearInterval(drip));
    });
    const { client, exchanges } = clientFor(server.url, { timeoutMs: 200 });
    expect(await codeOf(client.postRaw('resources.list', { json: {} }))).toBe('DC_ERR_TIMEOUT');
    expect(exchanges[0]?.error?.code).toBe('DC_ERR_TIMEOUT');
  });

  test('an interim 1xx answer is passed over: the final answer is the one recorded', async () => {
    server = await startTestServer((_req, res) => {
      res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
      json(res, 200, { data: [] });
    });
    const { client } = clientFor(server.url);
    const res = await client.postRaw('resources.list', { json: {} });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: [] });
    expect(res.exchange.response.status).toBe(200);
    // The pacer learns from the final answer's headers only (a 429 after a 103 must pause it).
    const seen: number[] = [];
    const call = sendOnWire(agent!, {
      origin: server.url,
      path: '/',
      headers: {},
      body: '{}',
      idleTimeoutMs: 5_000,
      maxBodyBytes: 1024,
      onHeaders: (status) => seen.push(status),
    });
    expect((await call.answer).status).toBe(200);
    expect(seen).toEqual([200]);
  });

  test('a body in many parts comes whole, and the transcript shows it redacted', async () => {
    const parts = Array.from({ length: 50 }, (_, i) => `"part ${i} ${KEY}"`);
    server = await startTestServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-echo': KEY });
      let i = 0;
      const next = (): void => {
        if (i === parts.length) return void res.end(']');
        res.write(`${i === 0 ? '[' : ','}${parts[i++]!}`);
        setImmediate(next);
      };
      next();
    });
    const { client, exchanges } = clientFor(server.url);
    const res = await client.postRaw('resources.list', { json: {} });
    expect(res.json).toEqual(parts.map((p) => JSON.parse(p) as string));
    const recorded = res.exchange.response;
    expect(recorded.body).toBe(`[${parts.join(',')}]`.replaceAll(KEY, '$DIRECTORY_API_KEY'));
    expect(recorded.headers['x-echo']).toBe('$DIRECTORY_API_KEY');
    expect(JSON.stringify(exchanges[0])).not.toContain(KEY);
    expect(JSON.parse(JSON.stringify(exchanges[0])) as unknown).toMatchObject({
      response: { status: 200, body: recorded.body, headers: { 'x-echo': '$DIRECTORY_API_KEY' } },
    });
  });

  test('a run aborted while a request waits for a connection ends it at once, and it is never sent', async () => {
    const held: Array<() => void> = [];
    server = await startTestServer((_req, res) => void held.push(() => json(res, 200, {})));
    const controller = new AbortController();
    // One connection: the second request waits behind the first, which the server holds.
    const single = new Agent({ connections: 1 });
    const { client } = clientFor(server.url, { dispatcher: single, signal: controller.signal });
    const first = client.derive({ signal: undefined }).postRaw('resources.list', { json: { n: 1 } });
    await vi.waitUntil(() => held.length === 1);
    const waiting = client.postRaw('resources.list', { json: { n: 2 } });
    controller.abort();
    expect(await codeOf(waiting)).toBe('DC_ERR_ABORTED');
    held[0]!();
    expect((await first).status).toBe(200);
    // Had the waiting request gone out after all, it would arrive now, on the freed connection.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await single.close();
    expect(server.requests.map((r) => r.body)).toEqual(['{"n":1}']);
  });

  test('429 is retried after Retry-After on reads and mutations alike', async () => {
    let calls = 0;
    server = await startTestServer((_req, res) => {
      calls += 1;
      if (calls % 2 === 1) json(res, 429, { message: 'slow down' }, { 'retry-after': '0' });
      else json(res, 200, []);
    });
    const { client, exchanges } = clientFor(server.url);
    const read = await client.postRaw('resources.list-roles', { json: {} });
    expect(read.status).toBe(200);
    expect(exchanges[0]!.attempts).toBe(2);
    const write = await client.postRaw('resources.revoke-roles', { json: {} });
    expect(write.status).toBe(200);
    expect(exchanges[1]!.attempts).toBe(2);
    expect(exchanges[1]!.earlierAttempts).toEqual([{ status: 429 }]);
    expect(server.requests).toHaveLength(4);
  });

  test('retries are bounded', async () => {
    server = await startTestServer((_req, res) => json(res, 503, { message: 'down' }, { 'retry-after': '0' }));
    const { client } = clientFor(server.url, {
      retryPolicy: policyWith({ 'gateway answer': 3, 'dropped connection': 3 }),
    });
    const res = await client.postRaw('resources.list', { json: {} });
    expect(res.status).toBe(503);
    expect(server.requests).toHaveLength(3);
  });

  test('a spent request budget stops sending', async () => {
    server = await startTestServer((_req, res) => json(res, 200, []));
    const { client } = clientFor(server.url, { budget: new RequestBudget({ ratePerSecond: 0, maxRequests: 2 }) });
    await client.postRaw('resources.list', { json: {} });
    await client.postRaw('resources.list', { json: {} });
    expect(await codeOf(client.postRaw('resources.list', { json: {} }))).toBe('DC_ERR_BUDGET');
    expect(server.requests).toHaveLength(2);
  });

  test('retryDelayMs reads seconds and HTTP dates', () => {
    expect(retryDelayMs('2', 1)).toBe(2000);
    expect(retryDelayMs(undefined, 2)).toBe(400);
    const inFuture = new Date(Date.now() + 5000).toUTCString();
    expect(retryDelayMs(inFuture, 1)).toBeGreaterThan(3000);
  });
});

describe('Redactor', () => {
  test('replaces the key and its Basic form', () => {
    const r = new Redactor();
    r.add(KEY, '$DIRECTORY_API_KEY');
    const basic = Buffer.from(`:${KEY}`).toString('base64');
    expect(r.redact(`a ${KEY} b ${basic}`)).toBe('a $DIRECTORY_API_KEY b $DIRECTORY_API_KEY');
  });
});

describe('rate limits', () => {
  test('a read still answered 429 after the retries ends the rule in ERROR, never FAIL', async () => {
    const { defineRuleGroup, rule } = await import('../../src/rules/define.ts');
    const { expectSuccess } = await import('../../src/rules/assertions.ts');
    const { DEFAULT_ENGINE_OPTIONS, runRules } = await import('../../src/runner/run-rules.ts');
    server = await startTestServer((_req, res) => json(res, 429, { message: 'slow down' }, { 'retry-after': '0' }));
    const group = {
      file: 't',
      ...defineRuleGroup({
        section: '§4.9',
        title: 't',
        rules: [
          rule({
            id: 't.rate',
            clause: '§4.9 rule 1',
            quote: 'a sentence long enough',
            level: 'MUST',
            judge: () => [],
            drive: async (ctx) =>
              expectSuccess(await ctx.client.postRaw('resources.list', { json: {} }), { step: 'list' }),
          }),
        ],
      }),
    };
    const run = await runRules(
      [group],
      {
        baseUrl: server.url,
        serviceVersion: '26.06.25',
        profile: { kinds: [], roles: [], teams: [], mutableResources: [] },
      },
      DEFAULT_ENGINE_OPTIONS,
    );
    // Five attempts by default, every one counted.
    expect(run.results[0]).toMatchObject({ verdict: 'ERROR', errorCode: 'DC_ERR_RATE_LIMITED', requestCount: 5 });
    expect(server.requests).toHaveLength(5);
  });
});
