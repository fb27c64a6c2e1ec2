/**
 * Real servers' wire habits: answers compressed with any coding the client
 * asks for (error answers too, whose messages rules judge), a decoded size
 * bounded by the body cap, and bodies cut short (a Content-Length or a chunk
 * not met, a JSON body ended by the connection's close) repeated when safe and
 * otherwise a transport ERROR, never an answer a rule would judge.
 */
import type { Socket } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { Agent } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import { DirectoryClient } from '../../src/client/directory-client.ts';
import { Redactor } from '../../src/client/redact.ts';
import type { Exchange } from '../../src/core/exchange.ts';
import { startTestServer, type TestServer } from '../helpers/http-server.ts';

let server: TestServer | undefined;
let agent: Agent | undefined;

afterEach(async () => {
  await agent?.close();
  agent = undefined;
  await server?.close();
  server = undefined;
});

function clientFor(url: string, maxBodyBytes?: number): { client: DirectoryClient; exchanges: Exchange[] } {
  agent = new Agent();
  const exchanges: Exchange[] = [];
  const client = new DirectoryClient({
    baseUrl: url,
    serviceVersion: '26.06.25',
    dispatcher: agent,
    redactor: new Redactor(),
    onExchange: (e) => exchanges.push(e),
    ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}),
  });
  return { client, exchanges };
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'no error';
  } catch (e) {
    return e instanceof Error && 'code' in e ? String(e.code) : String(e);
  }
}

const PAGE = { data: [{ id: 'r-1', kind_id: 'k', name: 'one' }], next_token: null };

const CODINGS: Record<string, (b: Buffer) => Buffer> = {
  gzip: gzipSync,
  br: brotliCompressSync,
  deflate: deflateSync,
};

describe('content codings', () => {
  test('the client asks for gzip, deflate and br', async () => {
    server = await startTestServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    const { client } = clientFor(server.url);
    await client.postRaw('resources.list', { json: {} });
    expect(server.requests[0]?.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  for (const [coding, encode] of Object.entries(CODINGS)) {
    test(`a ${coding} answer is read as the JSON it encodes, an error answer's message too`, async () => {
      server = await startTestServer((req, res) => {
        const refused = req.url?.endsWith('assign-team') === true;
        const body = Buffer.from(JSON.stringify(refused ? { message: 'team_ids must not be empty' } : PAGE));
        res.writeHead(refused ? 400 : 200, { 'content-type': 'application/json', 'content-encoding': coding });
        res.end(encode(body));
      });
      const { client, exchanges } = clientFor(server.url);
      const page = await client.postRaw('resources.list', { json: {} });
      expect(page.json).toEqual(PAGE);
      const refusal = await client.postRaw('resources.assign-team', { json: {} });
      expect(refusal.status).toBe(400);
      expect(refusal.json).toEqual({ message: 'team_ids must not be empty' });
      // The transcript shows the decoded body, and the coding it came in.
      expect(exchanges[1]?.response?.body).toContain('team_ids must not be empty');
      expect(exchanges[1]?.response?.headers['content-encoding']).toBe(coding);
    });
  }

  test('raw deflate (no zlib wrapper, as some servers send it) and stacked codings are read too', async () => {
    server = await startTestServer((req, res) => {
      const body = Buffer.from(JSON.stringify(PAGE));
      if (req.url?.endsWith('list')) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' });
        res.end(deflateRawSync(body));
      } else {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip, br' });
        res.end(brotliCompressSync(gzipSync(body)));
      }
    });
    const { client } = clientFor(server.url);
    expect((await client.postRaw('resources.list', { json: {} })).json).toEqual(PAGE);
    expect((await client.postRaw('resources.show-teams', { json: {} })).json).toEqual(PAGE);
  });

  test('a bomb (a small body that decodes past the body cap) is stopped: a harness fault, not an answer', async () => {
    const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(64 * 1024);
    server = await startTestServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(bomb);
    });
    const { client } = clientFor(server.url, 1024 * 1024);
    expect(await codeOf(client.postRaw('resources.list', { json: {} }))).toBe('DC_ERR_BODY_TOO_LARGE');
    expect(server.requests).toHaveLength(1);
  });

  test('a coding the client did not ask for, or a body that does not decode, is a harness fault', async () => {
    server = await startTestServer((req, res) => {
      const unknown = req.url?.endsWith('list') === true;
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': unknown ? 'zstd' : 'gzip' });
      res.end('not gzip at all');
    });
    const { client } = clientFor(server.url);
    expect(await codeOf(client.postRaw('resources.list', { json: {} }))).toBe('DC_ERR_DECODE');
    expect(await codeOf(client.postRaw('resources.show-teams', { json: {} }))).toBe('DC_ERR_DECODE');
  });
});

type Cut = 'content-length' | 'chunked' | 'close' | 'gzip';

/** Answers `cuts` in order with a body cut short in that way, then the whole page for ever. */
async function cutting(cuts: Cut[]): Promise<TestServer> {
  let n = 0;
  const whole = JSON.stringify(PAGE);
  const half = whole.slice(0, 20);
  return startTestServer((req, res) => {
    const cut = cuts[n++];
    const socket: Socket = req.socket;
    switch (cut) {
      case 'content-length':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(whole.length) });
        res.write(half);
        setImmediate(() => socket.destroy());
        return;
      case 'chunked':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(half);
        setImmediate(() => socket.destroy());
        return;
      case 'close':
        // An HTTP/1.1 answer framed by the connection's close, ended cleanly in the middle of its JSON.
        socket.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n${half}`);
        return;
      case 'gzip': {
        const encoded = gzipSync(Buffer.from(whole));
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(encoded.subarray(0, encoded.length - 8));
        return;
      }
      default:
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(whole);
    }
  });
}

describe('bodies cut short', () => {
  for (const cut of ['content-length', 'chunked', 'close', 'gzip'] as const) {
    test(`a read whose body is cut short (${cut}) is sent again, and the whole answer stands`, async () => {
      server = await cutting([cut]);
      const { client, exchanges } = clientFor(server.url);
      expect((await client.postRaw('resources.list', { json: {} })).json).toEqual(PAGE);
      expect(server.requests).toHaveLength(2);
      expect(exchanges[0]).toMatchObject({ attempts: 2, earlierAttempts: [{ error: 'DC_ERR_BODY_CUT' }] });
    });
  }

  test('a cut that persists is a transport fault after the bounded attempts, never an answer', async () => {
    server = await cutting(['close', 'content-length', 'close', 'close']);
    const { client } = clientFor(server.url);
    expect(await codeOf(client.postRaw('resources.list', { json: {} }))).toBe('DC_ERR_BODY_CUT');
    expect(server.requests).toHaveLength(3);
  });

  test('a mutation whose answer is cut short is not sent again (it took effect): a transport fault', async () => {
    server = await cutting(['close']);
    const { client } = clientFor(server.url);
    expect(await codeOf(client.postRaw('resources.assign-team', { json: {} }))).toBe('DC_ERR_BODY_CUT');
    expect(server.requests).toHaveLength(1);
  });

  test('broken JSON a server sends whole, framed by the close, stays the answer a rule judges', async () => {
    server = await startTestServer((req) => {
      req.socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"data":[],}');
    });
    const { client } = clientFor(server.url);
    const answer = await client.postRaw('resources.list', { json: {} });
    expect(answer.text).toBe('{"data":[],}');
    expect(answer.json).toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });
});
