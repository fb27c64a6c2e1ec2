/**
 * Shared reads: the same read sent with `shared` goes out once; a failure or a
 * non-2xx answer is never kept; any change the suite sends that names a
 * resource forgets what was read about it.
 */
import { Agent } from 'undici';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DirectoryClient } from '../../src/client/directory-client.ts';
import { Redactor } from '../../src/client/redact.ts';
import { SHARED_READS_CHARS, SharedReads } from '../../src/client/shared-reads.ts';
import type { Exchange } from '../../src/core/exchange.ts';
import { startTestServer, type TestServer } from '../helpers/http-server.ts';

let server: TestServer;
let agent: Agent;
/** The next status for show-teams; 200 unless a test sets it. */
let status = 200;
/** Each read of resource 9 answers a newer version of it. */
let version = 0;
/** Reads of resource 10 not answered yet. */
const held: Array<() => void> = [];

beforeAll(async () => {
  agent = new Agent();
  server = await startTestServer((req, res, body) => {
    // A read of resource 10 is held until a request asks to release it: it is answered after what came between.
    if (body.includes('"resource_id":"10"') && req.url?.endsWith('show-teams')) {
      held.push(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify([{ held: true }]));
      });
      return;
    }
    if (body.includes('"release"')) for (const answer of held.splice(0)) answer();
    if (body.includes('"resource_id":"9"')) {
      version += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify([{ version }]));
      return;
    }
    const code = req.url?.endsWith('show-teams') ? status : req.url?.endsWith('assign-team') ? 204 : 200;
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(code === 204 ? undefined : JSON.stringify(code === 200 ? [] : { message: 'no' }));
  });
});
afterAll(async () => {
  await server.close();
  await agent.close();
});

function clients(): { a: DirectoryClient; b: DirectoryClient; shared: SharedReads; seen: Exchange[] } {
  const shared = new SharedReads();
  const seen: Exchange[] = [];
  const a = new DirectoryClient({
    baseUrl: server.url,
    serviceVersion: '26.06.25',
    dispatcher: agent,
    redactor: new Redactor(),
    sharedReads: shared,
  });
  return { a, b: a.derive({ onExchange: (e) => seen.push(e) }), shared, seen };
}

const sent = (operation: string): number => server.requests.filter((r) => r.url.endsWith(operation)).length;

test('the same shared read is sent once; the second reader records it as shared', async () => {
  server.requests.length = 0;
  const { a, b, shared, seen } = clients();
  const body = { resource_id: '7', date_range: '2020-01-01/2020-12-31' };
  await a.post('resources.show-teams', body, { shared: true });
  const again = await b.post('resources.show-teams', body, { shared: true });
  expect(sent('resources.show-teams')).toBe(1);
  expect(again.status).toBe(200);
  expect(seen.map((e) => e.shared)).toEqual([true]);
  expect(shared.hits).toBe(1);
  // Without `shared`, a read is always sent.
  await b.post('resources.show-teams', body);
  expect(sent('resources.show-teams')).toBe(2);
});

test('a non-2xx answer is not kept: the next reader asks again', async () => {
  server.requests.length = 0;
  const { a } = clients();
  status = 404;
  try {
    await a.post('resources.show-teams', { resource_id: '8' }, { shared: true });
    await a.post('resources.show-teams', { resource_id: '8' }, { shared: true });
  } finally {
    status = 200;
  }
  expect(sent('resources.show-teams')).toBe(2);
});

test('a change naming the resource forgets what was read about it, not about others', async () => {
  server.requests.length = 0;
  const { a } = clients();
  await a.post('resources.show-teams', { resource_id: '1' }, { shared: true });
  await a.post('resources.show-teams', { resource_id: '2' }, { shared: true });
  await a.post('resources.assign-team', { resource_id: '1', team_id: '3', date_range: '2020-01-01/2020-12-31' });
  await a.post('resources.show-teams', { resource_id: '1' }, { shared: true });
  await a.post('resources.show-teams', { resource_id: '2' }, { shared: true });
  expect(
    server.requests.filter((r) => r.url.endsWith('show-teams')).map((r) => JSON.parse(r.body).resource_id),
  ).toEqual(['1', '2', '1']);
  // A change whose body cannot be read forgets every resource.
  await a.postRaw('resources.assign-team', { text: '{"resource_id": ' });
  await a.post('resources.show-teams', { resource_id: '2' }, { shared: true });
  expect(sent('resources.show-teams')).toBe(4);
});

test('kept answers are bounded by their bodies: the least recently read go first and are sent again', async () => {
  const shared = new SharedReads();
  const sends: string[] = [];
  const read = (key: string, chars = Math.floor(SHARED_READS_CHARS / 4)) =>
    shared.read(key, [], async () => {
      sends.push(key);
      const text = 'x'.repeat(chars);
      const outcome = {
        ok: true,
        status: 200,
        headers: {},
        bytes: Buffer.from(text),
        text,
        durationMs: 1,
        queuedMs: 0,
      } as const;
      return { outcome, attempts: 1, earlierAttempts: undefined, queuedMs: 0, retryWaitMs: 0 };
    });
  for (const key of ['a', 'b', 'c', 'd']) await read(key);
  // Read again, 'a' is the most recent: the next answer pushes 'b' out, not 'a'.
  expect((await read('a')).shared).toBe(true);
  await read('e');
  for (const key of ['a', 'c', 'd', 'e', 'b']) await read(key);
  expect(sends).toEqual(['a', 'b', 'c', 'd', 'e', 'b']);
  // An answer over a quarter of the bound is not kept at all, and evicts nothing.
  await read('big', Math.floor(SHARED_READS_CHARS / 4) + 1);
  await read('big', Math.floor(SHARED_READS_CHARS / 4) + 1);
  for (const key of ['c', 'd', 'e', 'b']) await read(key);
  expect(sends).toEqual(['a', 'b', 'c', 'd', 'e', 'b', 'big', 'big']);
});

test('a read sent afresh replaces the answer kept for it: a later shared read gets the newer one', async () => {
  server.requests.length = 0;
  const { a } = clients();
  const body = { resource_id: '9', date_range: '2020-01-01/2020-12-31' };
  await a.post('resources.show-teams', body, { shared: true });
  const fresh = await a.post('resources.show-teams', body);
  const shared = await a.post('resources.show-teams', body, { shared: true });
  expect(fresh.json).toEqual([{ version: 2 }]);
  expect(shared.json).toEqual([{ version: 2 }]);
  expect(sent('resources.show-teams')).toBe(2);
});

test('a read of a resource sent afresh is kept for the shared reads after it, unless a change crossed it', async () => {
  server.requests.length = 0;
  const { a } = clients();
  const body = { resource_id: '9', date_range: '2020-01-01/2020-12-31' };
  // None kept before: the fresh answer is kept, and the shared read after it gets it without a request.
  const fresh = await a.post('resources.show-teams', body);
  const shared = await a.post('resources.show-teams', body, { shared: true });
  expect(shared.json).toEqual(fresh.json);
  expect(sent('resources.show-teams')).toBe(1);
  // A change naming the resource while a fresh read is in flight, the read answered after it: that answer
  // may be older than the change, and is not kept.
  const other = { resource_id: '10', date_range: '2020-01-01/2020-12-31' };
  const crossed = a.post('resources.show-teams', other);
  await a.post('resources.assign-team', { resource_id: '10', team_id: '3', date_range: '2020-01-01/2020-12-31' });
  await a.postRaw('resources.list', { json: { release: true } });
  expect((await crossed).json).toEqual([{ held: true }]);
  const after = a.post('resources.show-teams', other, { shared: true });
  await a.postRaw('resources.list', { json: { release: true } });
  await after;
  expect(
    server.requests.filter((r) => r.body.includes('"resource_id":"10"') && r.url.endsWith('show-teams')),
  ).toHaveLength(2);
});

test('a fresh read that names no resource is never kept: what it reads may change without the suite', async () => {
  server.requests.length = 0;
  const { a } = clients();
  const body = { kind_id: '1', with_teams: true, pagination: { limit: 1, next_token: null } };
  await a.post('resources.list', body);
  await a.post('resources.list', body, { shared: true });
  expect(sent('resources.list')).toBe(2);
});
