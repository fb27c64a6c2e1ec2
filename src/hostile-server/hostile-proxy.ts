/**
 * A misbehaving server for the suite's own robustness tests: a proxy in front
 * of a working server that breaks the transport or the protocol in one chosen
 * way. The suite must finish in bounded time against every mode, never crash,
 * name the problem in the affected rules and keep its reports valid.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listeningAddress } from '../core/listening.ts';
import { request } from 'undici';
import { KEY_ENCODINGS, type KeyEncoding } from './key-encodings.ts';
import { forwardHeaders, readBody } from './proxy-io.ts';

export type HostileMode =
  | 'hang'
  | 'reset'
  | 'dribble'
  | 'html'
  | 'huge-body'
  | 'wrong-content-type'
  | 'cycling-token'
  | 'endless-pagination'
  | 'unauthorized-halfway'
  | 'echo-credentials'
  | 'echo-encodings'
  | 'break-restores'
  | 'redirect';

export const HOSTILE_MODES: readonly HostileMode[] = [
  'hang',
  'reset',
  'dribble',
  'html',
  'huge-body',
  'wrong-content-type',
  'cycling-token',
  'endless-pagination',
  'unauthorized-halfway',
  'echo-credentials',
  'echo-encodings',
  'break-restores',
  'redirect',
];

export interface HostileProxy {
  url: string;
  close(): Promise<void>;
}

export interface HostileOptions {
  mode: HostileMode;
  /** The working server behind the proxy. */
  upstream: string;
  /**
   * Transport faults hit every `every`-th request (the first request always passes, so preflight works); a
   * reset request stays reset when repeated. For break-restores, every `every`-th request of a restoration's
   * operations.
   */
  every?: number;
  /** For unauthorized-halfway: requests answered before every answer becomes 401; for echo-encodings, before the first redirect. */
  after?: number;
  /**
   * For echo-encodings: how the key is echoed, and the text around it (the
   * offset of the key inside what is base64-encoded changes that encoding).
   */
  echo?: { encodings: readonly KeyEncoding[]; before?: string; after?: string };
}

export async function startHostileProxy(options: HostileOptions): Promise<HostileProxy> {
  const every = options.every ?? 3;
  const after = options.after ?? 40;
  let count = 0;
  const hanging = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const resetRequests = new Set<string>();

  let restoring = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    count += 1;
    const n = count;
    const body = await readBody(req);
    const hit = n > 1 && n % every === 0;
    switch (options.mode) {
      case 'hang':
        if (hit) {
          hanging.add(res);
          return;
        }
        break;
      case 'reset': {
        // A request once reset stays reset: a retry of it meets the same fault, so the fault persists.
        const key = `${req.url ?? ''} ${body}`;
        if (hit || resetRequests.has(key)) {
          resetRequests.add(key);
          req.socket.destroy();
          return;
        }
        break;
      }
      case 'dribble':
        if (hit) {
          res.writeHead(200, { 'content-type': 'application/json' });
          const timer = setInterval(() => res.write(' '), 200);
          timers.add(timer);
          res.on('close', () => clearInterval(timer));
          return;
        }
        break;
      case 'html':
        if (hit) {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<!doctype html><html><body><h1>Gateway says hello</h1><script>alert(1)</script></body></html>');
          return;
        }
        break;
      case 'huge-body':
        if (hit) {
          res.writeHead(200, { 'content-type': 'application/json' });
          const chunk = Buffer.alloc(1024 * 1024, 0x20);
          let sent = 0;
          const pump = (): void => {
            while (sent < 50 && res.write(chunk)) sent += 1;
            if (sent >= 50) res.end();
            else res.once('drain', () => ((sent += 1), pump()));
          };
          pump();
          return;
        }
        break;
      case 'redirect':
        if (hit) {
          res.writeHead(307, { location: `https://moved.example${req.url ?? '/'}` });
          res.end();
          return;
        }
        break;
      case 'echo-encodings':
        if (hit && n > after) {
          // A redirect whose Location carries the key: the suite names the Location in its error.
          const first = echoesOf(req, options.echo)[0];
          res.writeHead(307, { location: `https://echo.example/login?token=${first?.text ?? ''}` });
          res.end();
          return;
        }
        break;
      case 'break-restores': {
        // What a restoration sends and reads: every `every`-th of these answers is broken, in turn by a
        // redirect to itself, a cut JSON body and a reset connection.
        if (!RESTORING.some((op) => req.url?.endsWith(op)) || n <= after) break;
        restoring += 1;
        if (restoring % every !== 0) break;
        const kind = (restoring / every) % 3;
        if (kind === 0) {
          res.writeHead(307, { location: req.url ?? '/' });
          res.end();
        } else if (kind === 1) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('[{"date_range":');
        } else req.socket.destroy();
        return;
      }
      case 'unauthorized-halfway':
        if (n > after) {
          res.writeHead(401, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ message: 'token expired' }));
          return;
        }
        break;
      default:
        break;
    }
    const upstream = await request(`${options.upstream}${req.url ?? '/'}`, {
      method: 'POST',
      headers: forwardHeaders(req),
      body: restartOnOwnTokens(body),
    });
    let text = await upstream.body.text();
    let contentType = String(upstream.headers['content-type'] ?? 'application/json');
    if (options.mode === 'wrong-content-type' && hit) contentType = 'text/plain';
    if (
      (options.mode === 'cycling-token' || options.mode === 'endless-pagination') &&
      req.url?.endsWith('/resources.list')
    ) {
      text = rewritePage(text, options.mode, n);
    }
    const headers: Record<string, string> = { 'content-type': contentType };
    if (options.mode === 'echo-credentials') {
      // A careless gateway: the credential comes back in headers, in a URL (percent-encoded) and in error
      // bodies (escaped inside a JSON string).
      const authorization = req.headers.authorization ?? '';
      const key = authorization.replace(/^Bearer /, '');
      headers['x-echo-authorization'] = authorization;
      headers['set-cookie'] = `session=${key}; Path=/`;
      headers.link = `<https://echo.example/login?key=${encodeURIComponent(key)}>; rel="help"`;
      if (upstream.statusCode >= 400) {
        text = JSON.stringify({
          message: `refused for ${authorization}`,
          login: `https://echo.example/login?key=${encodeURIComponent(key)}`,
          upstream: text,
        });
      }
    }
    if (options.mode === 'echo-encodings') {
      // The key in every encoding asked for, in headers and, on error answers, in the body.
      const echoes = echoesOf(req, options.echo);
      for (const { encoding, text: echoed } of echoes) headers[`x-echo-${encoding}`] = echoed;
      if (upstream.statusCode >= 400) {
        text = JSON.stringify({
          message: `refused: ${echoes.map((e) => e.text).join(' ')}`,
          upstream: text,
        });
      }
    }
    res.writeHead(upstream.statusCode, headers);
    res.end(text);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = listeningAddress(server);
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearInterval(t);
        for (const r of hanging) r.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The operations a restoration sends (state-guard.ts) and reads back. */
const RESTORING = [
  'resources.assign-activity-rate',
  'resources.unassign-activity-rate',
  'resources.assign-team',
  'resources.show-activity-rates',
  'resources.show-teams',
];

/** The request's key, in each encoding asked for, with the text around it. */
function echoesOf(req: IncomingMessage, echo: HostileOptions['echo']): Array<{ encoding: KeyEncoding; text: string }> {
  const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
  return (echo?.encodings ?? []).map((encoding) => ({
    encoding,
    text: KEY_ENCODINGS[encoding](`${echo?.before ?? ''}${key}${echo?.after ?? ''}`),
  }));
}

/** The proxy's own tokens lead back to the first page: the collection comes round again. */
function restartOnOwnTokens(body: string): string {
  return body.replace(/"next_token":"(?:cycle-[ab]|endless-\d+)"/, '"next_token":null');
}

/** Pages whose token never ends or comes back around. */
function rewritePage(text: string, mode: HostileMode, n: number): string {
  try {
    const page: unknown = JSON.parse(text);
    if (typeof page !== 'object' || page === null || !('data' in page)) return text;
    if (!Array.isArray(page.data) || page.data.length === 0) return text;
    const token = 'next_token' in page ? page.next_token : undefined;
    if (mode === 'endless-pagination') return JSON.stringify({ ...page, next_token: token ?? `endless-${n}` });
    if (mode === 'cycling-token' && token !== null)
      return JSON.stringify({ ...page, next_token: n % 2 === 0 ? 'cycle-a' : 'cycle-b' });
    return JSON.stringify(page);
  } catch {
    return text;
  }
}
