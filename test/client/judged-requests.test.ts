/**
 * A request a rule judges (`retry: 'judged'`) is sent once more by the client
 * after a 5xx, so a single glitch does not decide a verdict; the assertions
 * judge what it delivers, every answer named. Through the real chain, against
 * a server on loopback.
 */
import { Agent } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import { DirectoryClient } from '../../src/client/directory-client.ts';
import { Redactor } from '../../src/client/redact.ts';
import { ConformanceFailure, HarnessError } from '../../src/core/errors.ts';
import type { Exchange } from '../../src/core/exchange.ts';
import { expectNoServerError, expectRejected } from '../../src/rules/assertions.ts';
import { json, startTestServer, type TestServer } from '../helpers/http-server.ts';

let server: TestServer | undefined;
let agent: Agent | undefined;

afterEach(async () => {
  await agent?.close();
  agent = undefined;
  await server?.close();
  server = undefined;
});

/** A server that answers these statuses in turn, then 200. */
async function answering(...statuses: number[]): Promise<{ client: DirectoryClient; exchanges: Exchange[] }> {
  let n = 0;
  server = await startTestServer((_req, res) => {
    const status = statuses[n++] ?? 200;
    json(res, status, status === 200 ? [] : { message: `status ${status}` });
  });
  agent = new Agent();
  const exchanges: Exchange[] = [];
  const client = new DirectoryClient({
    baseUrl: server.url,
    serviceVersion: '26.06.25',
    dispatcher: agent,
    redactor: new Redactor(),
    onExchange: (e) => exchanges.push(e),
  });
  return { client, exchanges };
}

const body = { resource_id: '7', date_range: '2026-01-01/2026-01-31' };
const options = { step: 'show-teams', message: 'must answer without a server error' };

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe('judged requests', () => {
  test('a judged read answered 500 then 200 passes, one exchange recording both answers', async () => {
    const { client, exchanges } = await answering(500);
    const res = await expectNoServerError(
      () => client.post('resources.show-teams', body, { retry: 'judged' }),
      options,
    );
    expect(res.status).toBe(200);
    expect(server?.requests).toHaveLength(2);
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]).toMatchObject({ attempts: 2, earlierAttempts: [{ status: 500 }] });
  });

  test('a judged read answered 500 twice fails, naming both answers, after two requests', async () => {
    const { client } = await answering(500, 500);
    const e = await failureOf(
      expectNoServerError(() => client.post('resources.show-teams', body, { retry: 'judged' }), options),
    );
    expect(e).toBeInstanceOf(ConformanceFailure);
    expect((e as ConformanceFailure).violations[0]!.message).toBe(
      'must answer without a server error (answers: 500, 500)',
    );
    expect(server?.requests).toHaveLength(2);
  });

  test('a judged mutation answered 500 then refused is a rejection; 500 twice a FAIL', async () => {
    const first = await answering(500, 422);
    const send = () => first.client.postRaw('resources.revoke-roles', { json: { team_ids: [] } }, { retry: 'judged' });
    expect((await expectRejected(send, { step: 'an empty team_ids' })).status).toBe(422);
    expect(server?.requests).toHaveLength(2);
    await agent?.close();
    await server?.close();
    const again = await answering(500, 500);
    const e = await failureOf(
      expectRejected(
        () => again.client.postRaw('resources.revoke-roles', { json: { team_ids: [] } }, { retry: 'judged' }),
        { step: 'an empty team_ids' },
      ),
    );
    expect((e as ConformanceFailure).violations[0]!.message).toBe(
      'must reject an empty team_ids with a 4xx status, not a server error (answers: 500, 500)',
    );
  });

  test('a gateway answer that persists on a judged read is an ERROR after the gateway attempts', async () => {
    const { client } = await answering(503, 503, 503, 503);
    const e = await failureOf(
      expectNoServerError(() => client.post('resources.show-teams', body, { retry: 'judged' }), options),
    );
    expect(e).toBeInstanceOf(HarnessError);
    expect((e as HarnessError).message).toContain('(503, 503, 503)');
    expect(server?.requests).toHaveLength(3);
  });

  test('a read, not judged, is sent once more after a lone 500 too: the repeat stands', async () => {
    const { client, exchanges } = await answering(500);
    const res = await expectNoServerError(() => client.post('resources.show-teams', body), options);
    expect(res.status).toBe(200);
    expect(server?.requests).toHaveLength(2);
    expect(exchanges[0]).toMatchObject({ attempts: 2, earlierAttempts: [{ status: 500 }] });
  });

  test('a mutation, not judged, takes a 500 as the answer: sent once, and no verdict is drawn from it', async () => {
    const { client } = await answering(500);
    const e = await failureOf(
      expectNoServerError(
        () => client.post('resources.assign-team', { resource_id: '7', team_id: 't', date_range: body.date_range }),
        options,
      ),
    );
    expect((e as HarnessError).code).toBe('DC_ERR_SERVER_5XX');
    expect(server?.requests).toHaveLength(1);
  });
});
