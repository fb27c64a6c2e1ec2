/**
 * Opaque, authenticated keyset cursors. A token carries the sort values of
 * the last resource of its page (never an offset) and a hash of the query it
 * belongs to (kind, filters, orders), signed with HMAC-SHA256 under a secret
 * drawn when the server starts, so a token cannot be built by hand.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from '../core/canonical-json.ts';
import { HmacSha256 } from './hmac.ts';

export interface TokenPayload {
  /** Hash of kind_id, filters and orders. */
  q: string;
  /** Sort values of the last resource returned, ending with its id. */
  last: string[];
}

/**
 * Every page of an iteration sends the same kind, filters and orders: their
 * hash is remembered by their JSON text, which (the parts being parsed JSON)
 * determines the canonical form, so a remembered hash is the one computed;
 * with neither filters nor orders (the usual list), by the kind alone. The
 * memory is bounded by the text it holds, and dropped wholesale when full.
 */
const MEMO_CHARS = 4 * 1024 * 1024;
const memo = new Map<string, string>();
const plainByKind = new Map<string, string>();
let memoChars = 0;

const isEmptyArray = (v: unknown): boolean => Array.isArray(v) && v.length === 0;

/** Hash of what a token is bound to: kind_id, filters and orders (null where a fault ignores them). */
export function queryHash(kind: string, filters: unknown, orders: unknown): string {
  const plain = isEmptyArray(filters) && isEmptyArray(orders);
  const text = plain ? kind : JSON.stringify([kind, filters, orders]);
  const remembered = plain ? plainByKind : memo;
  let hash = remembered.get(text);
  if (hash === undefined) {
    hash = createHash('sha256').update(canonicalJson({ kind, filters, orders })).digest('base64url').slice(0, 22);
    if (memoChars + text.length > MEMO_CHARS) {
      memo.clear();
      plainByKind.clear();
      memoChars = 0;
    }
    remembered.set(text, hash);
    memoChars += text.length;
  }
  return hash;
}

export class PageTokens {
  private readonly hmac = new HmacSha256(randomBytes(32));

  sign(payload: TokenPayload): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** The payload of a token this server signed, or undefined for anything else. */
  verify(token: string, options: { acceptMacPrefix?: boolean } = {}): TokenPayload | undefined {
    const dot = token.indexOf('.');
    const body = token.slice(0, dot);
    if (options.acceptMacPrefix) {
      // Fault 'pagination-token-mac-prefix-accepted': the signature is compared as a prefix.
      const mac = token.slice(dot + 1);
      if (dot < 1 || mac.length === 0 || !this.mac(body).startsWith(mac)) return undefined;
      return this.payloadOf(body);
    }
    // Strict shape first: Node's base64url decoder skips characters it does not know.
    if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.mac(body), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return this.payloadOf(body);
  }

  private payloadOf(body: string): TokenPayload | undefined {
    try {
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as TokenPayload;
      if (
        typeof payload.q !== 'string' ||
        !Array.isArray(payload.last) ||
        !payload.last.every((v) => typeof v === 'string')
      )
        return undefined;
      return payload;
    } catch {
      return undefined;
    }
  }

  private mac(body: string): string {
    return this.hmac.base64url(body);
  }
}
