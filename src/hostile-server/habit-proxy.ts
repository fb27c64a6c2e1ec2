/**
 * Ordinary infrastructure in front of a working server, with one habit each:
 * compressing answers (gzip, br or deflate, as the request's Accept-Encoding
 * allows, error answers included), cutting a body short now and then (a
 * restarting proxy: a Content-Length not met, a chunked body dropped, a JSON
 * body ended by a clean close), or answering a lone 500 to a read. None of it
 * is the server's departure: a suite in front of it must reach the verdicts
 * it reaches against the server directly.
 *
 * Two stubborn faults beside them (STUBBORN_FAULTS), which no retry gets
 * past: one read, every time it is sent, answered with a gzip bomb (a small
 * body that decodes beyond the suite's body cap) or cut short. What that read
 * was for cannot be judged: its rule must end in ERROR, never FAIL, and the
 * run inconclusive.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { request } from 'undici';
import { forwardHeaders, readBody } from './proxy-io.ts';

export type Habit = 'gzip' | 'br' | 'deflate' | 'cut-bodies' | 'server-error' | StubbornFault;
export type StubbornFault = 'gzip-bomb' | 'endless-cut';

/** The habits that must change no verdict. */
export const HABITS: readonly Habit[] = ['gzip', 'br', 'deflate', 'cut-bodies', 'server-error'];
/** One read broken for good: its rule ends in ERROR. */
export const STUBBORN_FAULTS: readonly StubbornFault[] = ['gzip-bomb', 'endless-cut'];

/** What the gzip bomb decodes to: more than the suite's body cap (8 MiB, src/client/directory-client.ts). */
export const BOMB_DECODED_BYTES = 9 * 1024 * 1024;

export interface HabitProxy {
  url: string;
  /** Answers the habit changed (compressed, cut short, or a 500 in place of the server's). */
  readonly changed: number;
  close(): Promise<void>;
}

export interface HabitOptions {
  habit: Habit;
  /** The working server behind the proxy. */
  upstream: string;
  /**
   * cut-bodies and server-error touch every `every`-th answer to a read (a
   * read is safe to repeat; a mutation's answer lost is a transport fault the
   * suite reports, by design): default 7 and 40. A stubborn fault takes the
   * `every`-th read (default 7) and breaks it each time it comes again.
   */
  every?: number;
}

/** Operations that only read: their answers are the ones cut short or replaced. */
const READS = ['resources.list', 'resources.list-roles', 'resources.show-teams', 'resources.show-activity-rates'];

const ENCODERS: Record<'gzip' | 'br' | 'deflate', (body: Buffer) => Buffer> = {
  gzip: gzipSync,
  br: brotliCompressSync,
  deflate: deflateSync,
};

export async function startHabitProxy(options: HabitOptions): Promise<HabitProxy> {
  const { habit } = options;
  const every = options.every ?? (habit === 'server-error' ? 40 : 7);
  let reads = 0;
  let changed = 0;
  // A glitch passes: a request once cut or answered 500 goes through when it is sent again, however the
  // requests of rules running side by side fall around it (else a retry could land on the next hit).
  const glitched = new Set<string>();
  // A stubborn fault's one read (its URL and body): broken each time it is sent.
  let stubborn: string | undefined;
  const stubbornFault = habit === 'gzip-bomb' || habit === 'endless-cut';
  // Spaces, gzipped once (about 9 KiB on the wire): valid JSON whitespace, only too much of it.
  let bomb: Buffer | undefined;
  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const read = READS.some((op) => req.url?.endsWith(`/${op}`) === true);
    const key = `${req.url ?? ''} ${body}`;
    if (stubbornFault) {
      if (read && stubborn === undefined && ++reads % every === 0) stubborn = key;
      if (key === stubborn) {
        changed += 1;
        if (habit === 'gzip-bomb') {
          res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
          bomb ??= gzipSync(Buffer.alloc(BOMB_DECODED_BYTES, 0x20));
          res.end(bomb);
        } else {
          // A cut each time: in turn the three ways a body is cut short.
          const upstream = await request(`${options.upstream}${req.url ?? '/'}`, {
            method: 'POST',
            headers: forwardHeaders(req, ['accept-encoding']),
            body,
          });
          const bytes = Buffer.from(await upstream.body.arrayBuffer());
          cutShort(req, res, upstream.statusCode, 'application/json', bytes, changed);
        }
        return;
      }
    }
    const hit = !stubbornFault && read && !glitched.has(key) && ++reads % every === 0;
    if (hit) glitched.add(key);
    if (habit === 'server-error' && hit) {
      changed += 1;
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"message":"internal error"}');
      return;
    }
    const upstream = await request(`${options.upstream}${req.url ?? '/'}`, {
      method: 'POST',
      headers: forwardHeaders(req, ['accept-encoding']),
      body,
    });
    const bytes = Buffer.from(await upstream.body.arrayBuffer());
    const contentType = String(upstream.headers['content-type'] ?? 'application/json');
    if (habit === 'cut-bodies' && hit && bytes.length > 1) {
      changed += 1;
      cutShort(req, res, upstream.statusCode, contentType, bytes, reads / every);
      return;
    }
    if (habit === 'gzip' || habit === 'br' || habit === 'deflate') {
      // No Accept-Encoding means any coding is acceptable (RFC 9110, 12.5.3): such a server compresses anyway.
      const asked = req.headers['accept-encoding'];
      const accepted = asked === undefined || asked.split(',').some((c) => c.trim().split(';')[0] === habit);
      if (accepted && bytes.length > 0) {
        changed += 1;
        res.writeHead(upstream.statusCode, {
          'content-type': contentType,
          'content-encoding': habit,
          vary: 'accept-encoding',
        });
        res.end(ENCODERS[habit](bytes));
        return;
      }
    }
    res.writeHead(upstream.statusCode, { 'content-type': contentType });
    res.end(bytes);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get changed() {
      return changed;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Half the body, then the connection goes: in turn a Content-Length not met, a chunked body dropped, a clean close. */
function cutShort(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  contentType: string,
  bytes: Buffer,
  turn: number,
): void {
  const half = bytes.subarray(0, Math.floor(bytes.length / 2));
  const socket = req.socket;
  switch (turn % 3) {
    case 0:
      res.writeHead(status, { 'content-type': contentType, 'content-length': String(bytes.length) });
      res.write(half, () => socket.destroy());
      return;
    case 1:
      res.writeHead(status, { 'content-type': contentType });
      res.write(half, () => socket.destroy());
      return;
    default:
      // Framed by the close (no Content-Length, not chunked), and the close comes early but cleanly.
      socket.end(
        Buffer.concat([
          Buffer.from(`HTTP/1.1 ${status} Cut\r\ncontent-type: ${contentType}\r\nconnection: close\r\n\r\n`),
          half,
        ]),
      );
  }
}
