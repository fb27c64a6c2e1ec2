/**
 * A bad middlebox in front of a working server: one answer in `every` (30 by
 * default), picked at random from a seed, comes back corrupted once in an
 * ordinary way: a field's value flipped, a field dropped, or the status
 * changed to another of its class (a 2xx to another 2xx, a 4xx to another
 * 4xx). A request whose answer was corrupted once is answered as it is
 * when it comes again (the middlebox's glitch passes). The server behind it
 * conforms, so a departure the suite sees there does not repeat when the
 * failing example is driven again: it must never be a FAIL (FLAKY, or PASS
 * when the corruption broke nothing a rule judges).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listeningAddress } from '../core/listening.ts';
import { request } from 'undici';
import { forwardHeaders, readBody } from './proxy-io.ts';

export type Corruption = 'flip-value' | 'drop-field' | 'change-status';

export interface CorruptingProxy {
  url: string;
  /** What was corrupted, in order: the operation's path and the corruption. */
  readonly corrupted: ReadonlyArray<{ path: string; corruption: Corruption }>;
  close(): Promise<void>;
}

export interface CorruptingOptions {
  /** The working server behind the proxy. */
  upstream: string;
  /** Picks the answers and the corruptions: a seed corrupts the same way each time its requests come in the same order. */
  seed: number;
  /** One answer in `every`, on average, is corrupted (default 30). */
  every?: number;
}

export async function startCorruptingProxy(options: CorruptingOptions): Promise<CorruptingProxy> {
  const every = options.every ?? 30;
  const next = seeded(options.seed);
  const corrupted: Array<{ path: string; corruption: Corruption }> = [];
  // A glitch passes: a request once corrupted is answered as it is when it comes again.
  const corruptedOnce = new Set<string>();
  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const key = `${req.url ?? ''} ${body}`;
    const upstream = await request(`${options.upstream}${req.url ?? '/'}`, {
      method: 'POST',
      headers: forwardHeaders(req, ['accept-encoding']),
      body,
    });
    const text = await upstream.body.text();
    const contentType = String(upstream.headers['content-type'] ?? 'application/json');
    let answer = { status: upstream.statusCode, body: text };
    if (next() * every < 1 && !corruptedOnce.has(key)) {
      corruptedOnce.add(key);
      const changed = corrupt(answer, next);
      corrupted.push({ path: req.url ?? '/', corruption: changed.corruption });
      answer = changed;
    }
    res.writeHead(answer.status, answer.body === '' ? {} : { 'content-type': contentType });
    res.end(answer.body);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = listeningAddress(server);
  return {
    url: `http://127.0.0.1:${port}`,
    corrupted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Answer {
  status: number;
  body: string;
}

/** One ordinary corruption of `answer`: of its JSON body when it has one with something to change, else of its status. */
export function corrupt(answer: Answer, next: () => number): Answer & { corruption: Corruption } {
  let json: unknown;
  try {
    json = JSON.parse(answer.body);
  } catch {
    json = undefined;
  }
  const leaves = json === undefined ? [] : leavesOf(json);
  const fields = json === undefined ? [] : fieldsOf(json);
  const choice = next();
  if (choice < 0.4 && leaves.length > 0) {
    const leaf = leaves[Math.floor(next() * leaves.length)];
    if (leaf) {
      leaf.holder[leaf.key] = flipped(leaf.holder[leaf.key]);
      return { status: answer.status, body: JSON.stringify(json), corruption: 'flip-value' };
    }
  }
  if (choice < 0.7 && fields.length > 0) {
    const field = fields[Math.floor(next() * fields.length)];
    if (field) {
      delete field.holder[field.key];
      return { status: answer.status, body: JSON.stringify(json), corruption: 'drop-field' };
    }
  }
  return { status: otherStatus(answer.status), body: answer.body, corruption: 'change-status' };
}

/** Another status of the same class: a 2xx for a 2xx, a 4xx for a 4xx (a 204 becomes a 200 with its empty body). */
function otherStatus(status: number): number {
  if (status === 200) return 201;
  if (status >= 200 && status < 300) return 200;
  if (status === 400) return 422;
  if (status >= 400 && status < 500) return 400;
  return status === 500 ? 503 : 500;
}

function flipped(value: unknown): unknown {
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'string') return value === '' ? 'x' : `${value}x`;
  return value;
}

interface Place {
  holder: Record<string, unknown>;
  key: string;
}

/** Every field of an object in the document that holds a string, a number or a boolean. */
function leavesOf(value: unknown): Place[] {
  return fieldsOf(value).filter((p) => ['string', 'number', 'boolean'].includes(typeof p.holder[p.key]));
}

/** Every field of every object in the document. */
function fieldsOf(value: unknown): Place[] {
  const out: Place[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (const item of v) walk(item);
    } else if (isObject(v)) {
      for (const key of Object.keys(v)) {
        out.push({ holder: v, key });
        walk(v[key]);
      }
    }
  };
  walk(value);
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A small deterministic generator (mulberry32): the same seed, the same picks,
 * and no runs of small values (xorshift32 follows a small value with small
 * ones, which would corrupt answers in bursts, not one in `every`).
 */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000;
  };
}
