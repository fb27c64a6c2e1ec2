/**
 * Input the spec says must be rejected: a 5xx may be a passing fault, so it is
 * a FAIL only when it repeats, and then it is described as a server error; a
 * 429 (after the client's retries) is no verdict at all.
 */
import { describe, expect, test } from 'vitest';
import type { ApiResponse } from '../../src/client/directory-client.ts';
import { ConformanceFailure, HarnessError } from '../../src/core/errors.ts';
import { expectRejected } from '../../src/rules/assertions.ts';

function answer(status: number, body = '{"message":"no"}'): ApiResponse {
  return {
    status,
    headers: { 'content-type': 'application/json' },
    text: body,
    json: JSON.parse(body) as unknown,
    exchange: {
      operation: 'resources.list',
      request: { method: 'POST', url: '/', headers: {}, body: '' },
      durationMs: 1,
      attempts: 1,
    },
  };
}

/** A server that answers with these statuses in turn, counting the requests. */
function server(...statuses: number[]) {
  let sent = 0;
  return {
    send: () => Promise.resolve(answer(statuses[Math.min(sent++, statuses.length - 1)]!)),
    sent: () => sent,
  };
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe('expectRejected', () => {
  test('a single 5xx then a rejection is no departure', async () => {
    const s = server(500, 422);
    expect((await expectRejected(s.send, { step: 'a forged token' })).status).toBe(422);
    expect(s.sent()).toBe(2);
  });

  test('a 5xx that repeats is a FAIL described as a server error', async () => {
    const s = server(500, 500);
    const e = await failureOf(expectRejected(s.send, { step: 'a forged token' }));
    expect(e).toBeInstanceOf(ConformanceFailure);
    expect((e as ConformanceFailure).violations[0]!.message).toBe(
      'must reject a forged token with a 4xx status, not a server error (500, twice)',
    );
    expect(s.sent()).toBe(2);
  });

  test('a 429 is a harness fault (ERROR), never a FAIL', async () => {
    const e = await failureOf(expectRejected(server(429).send, { step: 'a forged token' }));
    expect(e).toBeInstanceOf(HarnessError);
    expect((e as HarnessError).code).toBe('DC_ERR_RATE_LIMITED');
  });

  test('a 2xx is a FAIL at once', async () => {
    const s = server(200);
    expect(await failureOf(expectRejected(s.send, { step: 'a forged token' }))).toBeInstanceOf(ConformanceFailure);
    expect(s.sent()).toBe(1);
  });
});
