/**
 * A staging-like front for a working server: it adds network latency each
 * way and enforces a rate limit the way the real service behind this
 * interface is documented to (a token bucket per tenant, at most 32 requests
 * in flight, 429 with Retry-After in seconds beyond either). The suite must
 * run through it without a single rule ending in ERROR for rate limiting and
 * with the verdicts it gets from the server directly.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listeningAddress } from '../core/listening.ts';
import { Agent, request } from 'undici';

/** Which rate-limit headers every answer carries (Retry-After on a 429 always). */
export type RateLimitHeaderStyle = 'none' | 'ietf' | 'x-ratelimit';

export interface RateLimitedProxyOptions {
  /** The working server behind the proxy. */
  upstream: string;
  /** Added before the request reaches the bucket, and again before the answer leaves, in ms (default 20). */
  latencyMs?: number;
  /** Tokens the bucket holds, and starts with (default 500). */
  bucketSize?: number;
  /** Tokens added per second (default 4). */
  refillPerSecond?: number;
  /** Requests served at once at most; one more is a 429 (default 32). */
  maxInFlight?: number;
  /**
   * 'none' (default): only Retry-After, as the real service;
   * 'ietf': `RateLimit` / `RateLimit-Policy` of the IETF draft (structured form);
   * 'x-ratelimit': `X-RateLimit-Limit/Remaining/Reset`.
   */
  headers?: RateLimitHeaderStyle;
  /** Retry-After in whole seconds (default, as the real service) or in fractions, for fast tests. */
  retryAfterPrecision?: 'seconds' | 'milliseconds';
}

export interface RateLimitedProxyStats {
  /** Requests that reached the proxy. */
  received: number;
  /** Requests passed on to the server. */
  forwarded: number;
  /** Requests answered 429 (bucket empty or too many in flight). */
  rateLimited: number;
  /** Of those, refused for too many requests in flight. */
  overConcurrency: number;
  /** Most requests served at once. */
  peakInFlight: number;
}

export interface RateLimitedProxy {
  url: string;
  stats(): RateLimitedProxyStats;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'upgrade']);

export async function startRateLimitedProxy(options: RateLimitedProxyOptions): Promise<RateLimitedProxy> {
  const latencyMs = options.latencyMs ?? 20;
  const size = options.bucketSize ?? 500;
  const refillPerMs = (options.refillPerSecond ?? 4) / 1000;
  const maxInFlight = options.maxInFlight ?? 32;
  const style = options.headers ?? 'none';
  const precise = options.retryAfterPrecision === 'milliseconds';
  const stats: RateLimitedProxyStats = {
    received: 0,
    forwarded: 0,
    rateLimited: 0,
    overConcurrency: 0,
    peakInFlight: 0,
  };
  const upstream = new Agent({ connections: maxInFlight, keepAliveTimeout: 10_000 });
  const timers = new Set<NodeJS.Timeout>();
  let tokens = size;
  let tokensAt = performance.now();
  let inFlight = 0;

  const delay = (ms: number): Promise<void> =>
    ms <= 0
      ? Promise.resolve()
      : new Promise((resolve) => {
          const timer = setTimeout(() => {
            timers.delete(timer);
            resolve();
          }, ms);
          timers.add(timer);
        });

  function refill(): void {
    const now = performance.now();
    tokens = Math.min(size, tokens + (now - tokensAt) * refillPerMs);
    tokensAt = now;
  }

  function rateLimitHeaders(): Record<string, string> {
    if (style === 'none') return {};
    const remaining = Math.floor(tokens);
    const untilFull = Math.ceil((size - tokens) / refillPerMs / 1000);
    if (style === 'x-ratelimit') {
      return {
        'x-ratelimit-limit': String(size),
        'x-ratelimit-remaining': String(remaining),
        'x-ratelimit-reset': String(untilFull),
      };
    }
    // The window in which the bucket's size comes back: 500 tokens at 4/s is 125 s. Fractions only for fast tests.
    const window = Number((size / refillPerMs / 1000).toFixed(3));
    return {
      'ratelimit-policy': `"bucket";q=${size};w=${window}`,
      ratelimit: `"bucket";r=${remaining};t=${untilFull}`,
    };
  }

  function retryAfter(): string {
    const ms = tokens >= 1 ? 1000 : (1 - tokens) / refillPerMs;
    return precise ? (Math.max(1, Math.ceil(ms)) / 1000).toFixed(3) : String(Math.max(1, Math.ceil(ms / 1000)));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    stats.received += 1;
    const body = await readBody(req);
    await delay(latencyMs);
    refill();
    if (inFlight >= maxInFlight || tokens < 1) {
      stats.rateLimited += 1;
      if (inFlight >= maxInFlight) stats.overConcurrency += 1;
      const headers = { 'content-type': 'application/json', 'retry-after': retryAfter(), ...rateLimitHeaders() };
      await delay(latencyMs);
      res.writeHead(429, headers);
      res.end(JSON.stringify({ message: 'rate limit exceeded' }));
      return;
    }
    tokens -= 1;
    inFlight += 1;
    stats.peakInFlight = Math.max(stats.peakInFlight, inFlight);
    stats.forwarded += 1;
    let answer: { status: number; headers: Record<string, string>; body: Buffer };
    try {
      const up = await request(`${options.upstream}${req.url ?? '/'}`, {
        method: req.method ?? 'POST',
        headers: forwardHeaders(req.headers),
        body,
        dispatcher: upstream,
      });
      answer = {
        status: up.statusCode,
        headers: forwardHeaders(up.headers),
        body: Buffer.from(await up.body.arrayBuffer()),
      };
    } finally {
      inFlight -= 1;
    }
    refill();
    const headers = { ...answer.headers, ...rateLimitHeaders() };
    await delay(latencyMs);
    res.writeHead(answer.status, headers);
    res.end(answer.body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = listeningAddress(server);
  return {
    url: `http://127.0.0.1:${port}`,
    stats: () => ({ ...stats }),
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await upstream.close();
    },
  };
}

function forwardHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
