import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface ForwardingProxy {
  url: string;
  close(): Promise<void>;
}

/** Headers of one connection, not of the request: never forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'upgrade']);

/**
 * A proxy on 127.0.0.1, port 0, in front of `upstream`: `intercept` may answer
 * a request itself (return or resolve true), or do something first (a change
 * of its own on the upstream) and let it through; everything else is
 * forwarded as it came, headers included (a missing header stays missing, so
 * the rules about headers see what they would see directly), and the
 * upstream's status, content type and body come back.
 */
export async function startForwardingProxy(
  upstream: string,
  intercept: (path: string, body: string, res: ServerResponse) => boolean | Promise<boolean>,
): Promise<ForwardingProxy> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      void Promise.resolve(intercept(req.url ?? '/', body, res))
        .then(async (answered) => {
          if (answered) return;
          const up = await request(`${upstream}${req.url ?? '/'}`, {
            method: 'POST',
            headers: forwardHeaders(req),
            body,
          });
          const contentType = up.headers['content-type'];
          res.writeHead(up.statusCode, contentType ? { 'content-type': String(contentType) } : {});
          res.end(await up.body.text());
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function forwardHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
