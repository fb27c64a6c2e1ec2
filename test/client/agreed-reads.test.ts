/**
 * The agreed-reads link alone, with the next link a stub: a read stands once
 * the server gave the same answer twice; a change is sent once.
 */
import { expect, test } from 'vitest';
import { agreedReads } from '../../src/client/agreed-reads.ts';
import type { AttemptOutcome, Delivery, TransportRequest } from '../../src/client/transport.ts';
import { HarnessError } from '../../src/core/errors.ts';

function request(operation: TransportRequest['operation']): TransportRequest {
  return {
    operation,
    origin: 'http://127.0.0.1:1',
    path: `/api/directory/${operation}`,
    recordedUrl: `http://127.0.0.1:1/api/directory/${operation}`,
    headers: {},
    recordedHeaders: {},
    text: '{}',
    body: {},
    retryClass: 'read',
    shared: false,
    exemptFromBudget: false,
    signal: undefined,
    step: undefined,
  };
}

function answered(status: number, text: string): AttemptOutcome {
  return { ok: true, status, headers: {}, bytes: Buffer.from(text), text, durationMs: 3, queuedMs: 1 };
}

/** A next link delivering these outcomes in turn (one attempt each), counting the requests. */
function script(...outcomes: AttemptOutcome[]) {
  let sent = 0;
  const next = (): Promise<Delivery> => {
    const outcome = outcomes[sent++];
    if (!outcome) throw new Error('the script ran out of answers');
    return Promise.resolve({ outcome, attempts: 1, earlierAttempts: undefined, queuedMs: 1, retryWaitMs: 0 });
  };
  return { next, sent: () => sent };
}

const LIST = '[{"role_id":"1","is_assigned":true}]';
const FLIPPED = '[{"role_id":"1","is_assigned":false}]';

test('a read answered the same way twice stands, both attempts counted', async () => {
  const { next, sent } = script(answered(200, LIST), answered(200, LIST));
  const delivery = await agreedReads()(next)(request('resources.list-roles'));
  expect(sent()).toBe(2);
  expect(delivery).toMatchObject({ attempts: 2, earlierAttempts: undefined, queuedMs: 2 });
  expect(delivery.outcome).toMatchObject({ ok: true, text: LIST });
});

test('a lone answer spoiled on its way is outvoted by the two that agree', async () => {
  const { next, sent } = script(answered(200, FLIPPED), answered(200, LIST), answered(200, LIST));
  const delivery = await agreedReads()(next)(request('resources.list-roles'));
  expect(sent()).toBe(3);
  expect(delivery.attempts).toBe(3);
  expect(delivery.outcome).toMatchObject({ ok: true, text: LIST });
});

test('a status changed on its way is outvoted too, and is no earlier attempt a judge would name', async () => {
  const { next } = script(answered(200, LIST), answered(201, LIST), answered(200, LIST));
  const delivery = await agreedReads()(next)(request('resources.list-roles'));
  expect(delivery.outcome).toMatchObject({ ok: true, status: 200 });
  expect(delivery).toMatchObject({ attempts: 3, earlierAttempts: undefined });
});

test('a server that answers the same way twice is believed, whatever a third answer would say', async () => {
  const { next, sent } = script(answered(200, FLIPPED), answered(200, FLIPPED), answered(200, LIST));
  const delivery = await agreedReads()(next)(request('resources.list-roles'));
  expect(sent()).toBe(2);
  expect(delivery.outcome).toMatchObject({ ok: true, text: FLIPPED });
});

test('a change is sent once', async () => {
  const { next, sent } = script(answered(204, ''), answered(204, ''));
  await agreedReads()(next)(request('resources.revoke-roles'));
  expect(sent()).toBe(1);
});

test('a read that got no answer is not sent again here; a second read that got none leaves the first standing', async () => {
  const failure: AttemptOutcome = {
    ok: false,
    error: new HarnessError('DC_ERR_NETWORK', 'resources.list-roles: DC_ERR_NETWORK'),
    causes: [],
    durationMs: 3,
    queuedMs: 0,
  };
  const none = script(failure);
  expect((await agreedReads()(none.next)(request('resources.list-roles'))).outcome.ok).toBe(false);
  expect(none.sent()).toBe(1);
  const then = script(answered(200, LIST), failure);
  const delivery = await agreedReads()(then.next)(request('resources.list-roles'));
  expect(delivery).toMatchObject({ attempts: 2, outcome: { ok: true, text: LIST } });
  expect(then.sent()).toBe(2);
});
