/**
 * A request the server may accept or refuse but must not crash on: like a
 * rejection, a single 5xx is no departure (it may be a passing fault), one
 * that repeats is. The client sends a judged request once more after a 5xx
 * (test/client/judged-requests.test.ts); here each answer is what it
 * delivers: the last status, and the earlier ones in `earlierAttempts`.
 */
import { describe, expect, test } from 'vitest';
import type { ApiResponse } from '../../src/client/directory-client.ts';
import { ConformanceFailure, HarnessError } from '../../src/core/errors.ts';
import { expectNoServerError } from '../../src/rules/assertions.ts';

/** The client delivers the last of these statuses, the others as its earlier attempts; `sent` counts the sends. */
function answering(...statuses: number[]) {
  let sent = 0;
  const earlier = statuses.slice(0, -1);
  const send = (): Promise<ApiResponse> => {
    sent += 1;
    return Promise.resolve({
      status: statuses.at(-1) ?? 200,
      headers: {},
      text: '',
      json: undefined,
      exchange: {
        operation: 'resources.revoke-roles',
        request: { method: 'POST', url: '/', headers: {}, body: '' },
        response: { status: statuses.at(-1) ?? 200, headers: {}, body: '', truncated: false },
        durationMs: 1,
        attempts: statuses.length,
        ...(earlier.length > 0 ? { earlierAttempts: earlier.map((status) => ({ status })) } : {}),
      },
    });
  };
  return { send, sent: () => sent };
}

const step = 'a revocation for a kind without roles';
const message = `must answer ${step} without a server error`;

describe('expectNoServerError', () => {
  test.each([204, 200, 400, 422])('a %i is an answer, sent once', async (status) => {
    const s = answering(status);
    expect((await expectNoServerError(s.send, { step, message })).status).toBe(status);
    expect(s.sent()).toBe(1);
  });

  test('a single 5xx then an answer is no departure, and the assertion sends nothing again', async () => {
    const s = answering(503, 204);
    expect((await expectNoServerError(s.send, { step, message })).status).toBe(204);
    expect(s.sent()).toBe(1);
  });

  test('a single 5xx the client did not repeat is no verdict (ERROR), never a FAIL', async () => {
    const e = await expectNoServerError(answering(500).send, { step, message }).catch((error: unknown) => error);
    expect(e).toBeInstanceOf(HarnessError);
    expect((e as HarnessError).code).toBe('DC_ERR_SERVER_5XX');
  });

  test('a 5xx that repeats is a FAIL described as a server error', async () => {
    const e = await expectNoServerError(answering(500, 500).send, { step, message }).catch((error: unknown) => error);
    expect(e).toBeInstanceOf(ConformanceFailure);
    expect((e as ConformanceFailure).violations[0]).toMatchObject({
      where: `${step}: response.status`,
      message: `${message} (answers: 500, 500)`,
    });
  });

  test('429 and 401 are no verdict (ERROR)', async () => {
    for (const status of [429, 401]) {
      const e = await expectNoServerError(answering(status).send, { step, message }).catch((error: unknown) => error);
      expect(e).toBeInstanceOf(HarnessError);
    }
  });
});
