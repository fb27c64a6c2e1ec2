/**
 * Input the spec says must be rejected: a 5xx may be a passing fault, so it is
 * a FAIL only when it repeats and is a server error that speaks of the request
 * (500, 501…); 502/503/504 are gateway and overload answers, so even repeated
 * they are an ERROR; a 429 (after the client's retries) is no verdict at all.
 * Messages name every answer seen, the client's own retries included. The
 * client sends a judged request once more after a 5xx
 * (test/client/judged-requests.test.ts); here each answer is what it
 * delivers: the last status, and the earlier ones in `earlierAttempts`.
 */
import { describe, expect, test } from 'vitest';
import type { ApiResponse } from '../../src/client/directory-client.ts';
import { ConformanceFailure, HarnessError } from '../../src/core/errors.ts';
import { expectNoServerError, expectRejected } from '../../src/rules/assertions.ts';

function answer(status: number, body = '{"message":"no"}', earlier: number[] = []): ApiResponse {
  return {
    status,
    headers: { 'content-type': 'application/json' },
    text: body,
    json: parsed(body),
    exchange: {
      operation: 'resources.list',
      request: { method: 'POST', url: '/', headers: {}, body: '' },
      response: { status, headers: { 'content-type': 'application/json' }, body, truncated: false },
      durationMs: 1,
      attempts: 1 + earlier.length,
      ...(earlier.length > 0 ? { earlierAttempts: earlier.map((status) => ({ status })) } : {}),
    },
  };
}

function parsed(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/** What the client delivers for a request answered these statuses in turn; `sent` counts the sends. */
function server(...statuses: number[]) {
  let sent = 0;
  return {
    send: () => {
      sent += 1;
      return Promise.resolve(answer(statuses.at(-1) ?? 200, '{"message":"no"}', statuses.slice(0, -1)));
    },
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
    // The client sent it again: the assertion sends nothing itself.
    expect(s.sent()).toBe(1);
  });

  test('a 500 that repeats is a FAIL described as a server error, naming both answers', async () => {
    const s = server(500, 500);
    const e = await failureOf(expectRejected(s.send, { step: 'a forged token' }));
    expect(e).toBeInstanceOf(ConformanceFailure);
    expect((e as ConformanceFailure).violations[0]!.message).toBe(
      'must reject a forged token with a 4xx status, not a server error (answers: 500, 500)',
    );
  });

  for (const gateway of [502, 503, 504]) {
    test(`a ${gateway} that repeats is an ERROR (a gateway answer says nothing about the request), never a FAIL`, async () => {
      const s = server(gateway, gateway);
      const e = await failureOf(expectRejected(s.send, { step: 'a forged token' }));
      expect(e).toBeInstanceOf(HarnessError);
      expect((e as HarnessError).code).toBe('DC_ERR_SERVER_5XX');
      expect((e as HarnessError).message).toContain(`(${gateway}, ${gateway})`);
    });
  }

  test('a 500 then a gateway answer is an ERROR: the 500 did not repeat', async () => {
    const e = await failureOf(expectRejected(server(500, 502).send, { step: 'a forged token' }));
    expect((e as HarnessError).code).toBe('DC_ERR_SERVER_5XX');
    expect((e as HarnessError).message).toContain('(500, 502)');
  });

  test("every answer is named, the client's own retries of a gateway answer included", async () => {
    const e = await failureOf(expectRejected(server(502, 503, 504).send, { step: 'a forged token' }));
    expect((e as HarnessError).code).toBe('DC_ERR_SERVER_5XX');
    expect((e as HarnessError).message).toContain('(502, 503, 504)');
  });

  test('a single 500 the client did not repeat is no verdict (ERROR), never a FAIL', async () => {
    const e = await failureOf(expectRejected(server(500).send, { step: 'a forged token' }));
    expect(e).toBeInstanceOf(HarnessError);
    expect((e as HarnessError).code).toBe('DC_ERR_SERVER_5XX');
    expect((e as HarnessError).message).toContain('not repeated (500)');
  });

  test('a 5xx then a 2xx is a FAIL that names both answers', async () => {
    const e = await failureOf(expectRejected(server(500, 200).send, { step: 'a forged token' }));
    expect(e).toBeInstanceOf(ConformanceFailure);
    expect((e as ConformanceFailure).violations[0]!.message).toBe(
      'must reject a forged token with a 4xx status (answers: 500, 200)',
    );
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

describe('expectNoServerError', () => {
  const options = { step: 'resources.revoke-roles', message: 'must answer without a server error' };

  test('a single 5xx (a 502 from a gateway) then an answer is no departure', async () => {
    const send = (): Promise<ApiResponse> => Promise.resolve(answer(204, '', [502]));
    expect((await expectNoServerError(send, options)).status).toBe(204);
  });

  test('a repeated 500 is a FAIL naming both answers; a repeated 503 an ERROR', async () => {
    const fail500 = await failureOf(expectNoServerError(server(500, 500).send, options));
    expect(fail500).toBeInstanceOf(ConformanceFailure);
    expect((fail500 as ConformanceFailure).violations[0]!.message).toBe(
      'must answer without a server error (answers: 500, 500)',
    );
    const error503 = await failureOf(expectNoServerError(server(503, 503).send, options));
    expect((error503 as HarnessError).code).toBe('DC_ERR_SERVER_5XX');
  });

  test('a 4xx is an answer', async () => {
    expect((await expectNoServerError(server(422).send, options)).status).toBe(422);
  });
});
