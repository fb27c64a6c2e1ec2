/**
 * When a request went and when its answer came, as a judge reads them
 * (Observed's `at`): to a fraction of a millisecond from the answer the
 * suite's client received, and from a recorded exchange's `startedAt` and
 * `durationMs` otherwise, its end put late enough to hold the true one.
 */
import { Agent } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import { DirectoryClient } from '../../src/client/directory-client.ts';
import { Redactor } from '../../src/client/redact.ts';
import type { AnsweredExchange } from '../../src/core/exchange.ts';
import { RECORDED_TIME_SLACK_MS, observedFromExchange } from '../../src/rules/judges/observed.ts';
import { json, startTestServer, type TestServer } from '../helpers/http-server.ts';

let server: TestServer | undefined;
let agent: Agent | undefined;

afterEach(async () => {
  await agent?.close();
  agent = undefined;
  await server?.close();
  server = undefined;
});

const recorded = (fields: Partial<AnsweredExchange>): AnsweredExchange => ({
  operation: 'resources.assign-activity-rate',
  request: { method: 'POST', url: 'http://127.0.0.1/x', headers: {}, body: '{}' },
  response: { status: 204, headers: {}, body: '', truncated: false },
  durationMs: 5,
  attempts: 1,
  ...fields,
});

describe('the times of an exchange', () => {
  test("the client's answer holds the moment the server received the request", async () => {
    let received = Number.NaN;
    server = await startTestServer((_req, res) => {
      received = performance.timeOrigin + performance.now();
      json(res, 200, []);
    });
    agent = new Agent();
    const client = new DirectoryClient({
      baseUrl: server.url,
      serviceVersion: '26.06.25',
      dispatcher: agent,
      redactor: new Redactor(),
    });
    const res = await client.post('resources.show-activity-rates', {
      resource_id: '1',
      date_range: '2030-01-01/2030-02-01',
    });
    expect(res.at?.sent).toBeLessThanOrEqual(received);
    expect(res.at?.answered).toBeGreaterThanOrEqual(received);
    // The answer's own times, not the record's millisecond ones.
    expect(observedFromExchange(res.exchange, res).at).toEqual(res.at);
  });

  test("a recorded exchange's times: from startedAt, its end widened by the records' resolution", () => {
    const at = observedFromExchange(recorded({ startedAt: '2030-01-01T00:00:00.010Z' })).at;
    const sent = Date.parse('2030-01-01T00:00:00.010Z');
    expect(at).toEqual({ sent, answered: sent + 5 + RECORDED_TIME_SLACK_MS });
  });

  test('a recorded exchange without startedAt holds no time', () => {
    expect(observedFromExchange(recorded({})).at).toBeUndefined();
  });
});
