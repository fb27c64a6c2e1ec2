/** What the test proxies share: a request's body read whole, and its headers as they go upstream. */
import type { IncomingMessage } from 'node:http';

/** The request's headers for the upstream request: hop-by-hop ones and `dropped` left out. */
export function forwardHeaders(req: IncomingMessage, dropped: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined && !['host', 'connection', 'content-length', ...dropped].includes(k))
      out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
