import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface ForwardingProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * A proxy on 127.0.0.1, port 0, in front of `upstream`: `intercept` may answer
 * a request itself (return true); everything else is forwarded as it came.
 */
export async function startForwardingProxy(
  upstream: string,
  intercept: (path: string, body: string, res: ServerResponse) => boolean,
): Promise<ForwardingProxy> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (intercept(req.url ?? '/', body, res)) return;
      void request(`${upstream}${req.url ?? '/'}`, {
        method: 'POST',
        headers: {
          authorization: req.headers.authorization ?? '',
          'content-type': 'application/json',
          'service-version': String(req.headers['service-version'] ?? ''),
        },
        body,
      })
        .then(async (up) => {
          res.writeHead(up.statusCode, { 'content-type': 'application/json' });
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
