/**
 * Each link of the client's chain alone, with the next link a stub: no
 * network (the wire link is tested against loopback servers in
 * directory-client.test.ts and retries.test.ts).
 */
import { describe, expect, test } from 'vitest';
import { pace } from '../../src/client/pace.ts';
import { Pacer } from '../../src/client/pacer.ts';
import { record } from '../../src/client/record.ts';
import { Redactor } from '../../src/client/redact.ts';
import { retry } from '../../src/client/retry.ts';
import { SharedReads, shareReads } from '../../src/client/shared-reads.ts';
import type { AttemptOptions, AttemptOutcome, Delivery, TransportRequest } from '../../src/client/transport.ts';
import { HarnessError, type HarnessErrorCode } from '../../src/core/errors.ts';
import type { Exchange } from '../../src/core/exchange.ts';
import { policyWith } from '../helpers/retry-policy.ts';

function request(overrides: Partial<TransportRequest> = {}): TransportRequest {
  return {
    operation: 'resources.list',
    origin: 'http://127.0.0.1:1',
    path: '/api/directory/resources.list',
    recordedUrl: 'http://127.0.0.1:1/api/directory/resources.list',
    headers: { authorization: 'Bearer secret-key' },
    recordedHeaders: { authorization: 'Bearer $KEY' },
    text: '{"kind_id":"1"}',
    body: { kind_id: '1' },
    retryClass: 'read',
    shared: false,
    exemptFromBudget: false,
    signal: undefined,
    step: undefined,
    ...overrides,
  };
}

function answered(status: number, text = '[]', headers: Record<string, string> = {}): AttemptOutcome {
  return { ok: true, status, headers, bytes: Buffer.from(text), text, durationMs: 3, queuedMs: 0 };
}

function failed(code: HarnessErrorCode, causes: string[] = []): AttemptOutcome {
  return { ok: false, error: new HarnessError(code, `resources.list: ${code}`), causes, durationMs: 3, queuedMs: 0 };
}

function delivered(outcome: AttemptOutcome, extra: Partial<Delivery> = {}): Delivery {
  return { outcome, attempts: 1, earlierAttempts: undefined, queuedMs: 0, retryWaitMs: 0, ...extra };
}

describe('retry', () => {
  /** A next link answering these outcomes in turn, recording how each attempt went out. */
  function script(...outcomes: AttemptOutcome[]) {
    const attempts: AttemptOptions[] = [];
    const next = (_request: TransportRequest, attempt: AttemptOptions) => {
      attempts.push(attempt);
      return Promise.resolve(outcomes[attempts.length - 1] ?? answered(200));
    };
    return { next, attempts };
  }
  const fast = policyWith({}, { backoffMs: 0 });

  test('repeats what the policy says for the class, and the last outcome stands with the earlier ones', async () => {
    const { next, attempts } = script(answered(503), failed('DC_ERR_NETWORK', ['ECONNRESET']));
    const delivery = await retry(fast)(next)(request());
    expect(delivery).toMatchObject({
      attempts: 3,
      earlierAttempts: [{ status: 503 }, { error: 'DC_ERR_NETWORK' }],
    });
    expect(delivery.outcome).toMatchObject({ ok: true, status: 200 });
    expect(attempts.map((a) => a.retry)).toEqual([false, true, true]);
  });

  test('a mutation takes a 503 as its answer; a 429 is repeated for every class', async () => {
    const mutation = script(answered(503));
    expect((await retry(fast)(mutation.next)(request({ retryClass: 'mutation' }))).attempts).toBe(1);
    const limited = script(answered(429, '', { 'retry-after': '0' }));
    expect((await retry(fast)(limited.next)(request({ retryClass: 'mutation' }))).attempts).toBe(2);
  });

  test('counts answers per rule: a judged read gets one more attempt after a 500, three after a 502', async () => {
    const twice500 = script(answered(500), answered(500), answered(200));
    expect((await retry(fast)(twice500.next)(request({ retryClass: 'judged read' }))).outcome).toMatchObject({
      status: 500,
    });
    const gateways = script(answered(502), answered(502), answered(502), answered(200));
    expect((await retry(fast)(gateways.next)(request({ retryClass: 'judged read' }))).attempts).toBe(3);
  });

  test("a 429 does not use up a judged request's one more attempt after a 500", async () => {
    const { next } = script(answered(429, '', { 'retry-after': '0' }), answered(500), answered(500));
    const delivery = await retry(fast)(next)(request({ retryClass: 'judged read' }));
    expect(delivery).toMatchObject({ attempts: 3, earlierAttempts: [{ status: 429 }, { status: 500 }] });
  });

  test('a wait longer than the policy allows is not made', async () => {
    const { next } = script(answered(429, '', { 'retry-after': '60' }));
    const delivery = await retry(policyWith({}, { maxDelayMs: 1_000 }))(next)(request());
    expect(delivery).toMatchObject({ attempts: 1, retryWaitMs: 0 });
  });

  test('sums the time waited for the pacer over the attempts', async () => {
    const first = answered(503);
    first.queuedMs = 5;
    const second = answered(200);
    second.queuedMs = 7;
    const { next } = script(first, second);
    expect((await retry(fast)(next)(request())).queuedMs).toBe(12);
  });
});

describe('pace', () => {
  test('takes a turn per attempt, hands it back with the headers, and records the wait', async () => {
    const pacer = new Pacer({ rate: 0, maxRequests: 0 });
    let inFlight = -1;
    const send = pace(pacer)((_request, attempt) => {
      inFlight = pacer.stats().peakInFlight;
      attempt.onHeaders?.(200, {});
      return Promise.resolve(answered(200));
    });
    const outcome = await send(request(), { retry: false });
    expect(inFlight).toBe(1);
    expect(outcome.queuedMs).toBeGreaterThanOrEqual(0);
    expect(pacer.stats().sent).toBe(1);
  });

  test('a spent budget stops the attempt before the wire', async () => {
    const pacer = new Pacer({ rate: 0, maxRequests: 1 });
    let wire = 0;
    const send = pace(pacer)(() => {
      wire += 1;
      return Promise.resolve(answered(200));
    });
    await send(request(), { retry: false });
    await expect(send(request(), { retry: false })).rejects.toMatchObject({ code: 'DC_ERR_BUDGET' });
    expect(wire).toBe(1);
  });
});

describe('shareReads', () => {
  test('a read that opted in is sent once and handed to the next reader marked shared', async () => {
    let sent = 0;
    const next = () => {
      sent += 1;
      return Promise.resolve(delivered(answered(200)));
    };
    const send = shareReads(new SharedReads())(next);
    expect((await send(request({ shared: true }))).shared).toBeUndefined();
    expect((await send(request({ shared: true }))).shared).toBe(true);
    // Not opted in: always sent.
    await send(request());
    expect(sent).toBe(2);
  });

  test('a mutation naming a resource forgets what was read about it', async () => {
    let sent = 0;
    const next = () => {
      sent += 1;
      return Promise.resolve(delivered(answered(200)));
    };
    const send = shareReads(new SharedReads())(next);
    const read = request({
      operation: 'resources.show-teams',
      body: { resource_id: '9' },
      text: '{"resource_id":"9"}',
      shared: true,
    });
    await send(read);
    await send(request({ operation: 'resources.assign-team', body: { resource_id: '9' }, retryClass: 'mutation' }));
    await send(read);
    expect(sent).toBe(3);
  });
});

describe('record', () => {
  const redactor = new Redactor();
  redactor.add('secret-key', '$KEY');

  test('builds the exchange a transcript keeps, credentials replaced, and the answer a rule reads', async () => {
    const seen: Exchange[] = [];
    const send = record({ redactor, onExchange: (e) => seen.push(e) })(() =>
      Promise.resolve(
        delivered(answered(200, '{"echo":"secret-key"}'), {
          attempts: 2,
          earlierAttempts: [{ status: 503 }],
          retryWaitMs: 200,
        }),
      ),
    );
    const res = await send(request({ text: '{"key":"secret-key"}' }));
    expect(res).toMatchObject({ status: 200, json: { echo: 'secret-key' } });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      operation: 'resources.list',
      attempts: 2,
      earlierAttempts: [{ status: 503 }],
      retryWaitMs: 200,
      request: { body: '{"key":"$KEY"}', headers: { authorization: 'Bearer $KEY' } },
      response: { status: 200, body: '{"echo":"$KEY"}' },
    });
  });

  test('no answer: the exchange records the error, and the error is thrown', async () => {
    const seen: Exchange[] = [];
    const send = record({ redactor, onExchange: (e) => seen.push(e) })(() =>
      Promise.resolve(delivered(failed('DC_ERR_TIMEOUT'))),
    );
    await expect(send(request())).rejects.toMatchObject({ code: 'DC_ERR_TIMEOUT' });
    expect(seen[0]).toMatchObject({ error: { code: 'DC_ERR_TIMEOUT' } });
  });

  test('a redirect is recorded and refused', async () => {
    const send = record({ redactor })(() =>
      Promise.resolve(delivered(answered(307, '', { location: 'http://elsewhere/' }))),
    );
    await expect(send(request())).rejects.toMatchObject({ code: 'DC_ERR_REDIRECT' });
  });

  test("a shared delivery is recorded once: each reader's exchange is the first one marked shared", async () => {
    const seen: Exchange[] = [];
    const outcome = answered(200, '{"a":1}');
    const first = delivered(outcome);
    const send = record({ redactor, onExchange: (e) => seen.push(e) });
    const a = await send(() => Promise.resolve(first))(request({ shared: true }));
    const b = await send(() => Promise.resolve({ ...first, shared: true as const }))(request({ shared: true }));
    expect(seen.map((e) => e.shared)).toEqual([undefined, true]);
    expect(seen[1]!.response).toBe(seen[0]!.response);
    expect(b.json).toBe(a.json);
  });
});
