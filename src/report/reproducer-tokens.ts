/**
 * The page tokens of a reproducer's requests. A `next_token` is the server's
 * (§4.9 rule 6: opaque): another server, or the same one started again,
 * signs its pages otherwise, so a token sent again as recorded says nothing
 * (refused, it reads as a fix). A request that carried a token an earlier
 * answer gave is sent again after that earlier request, with the token its
 * live answer gives; a token built by hand (no answer gave it, none is a
 * part of it) is sent as it was; a token altered from a server's (it shares
 * a part with one) cannot be made again on another server: no plan.
 */
import type { Exchange } from '../core/exchange.ts';
import { parseJsonText } from '../core/json-text.ts';

/** The `pagination.next_token` a list request carried, when it is a string. */
export function tokenSent(e: Exchange): string | undefined {
  const body = parseJsonText(e.request.body);
  if (typeof body !== 'object' || body === null || !('pagination' in body)) return undefined;
  const { pagination } = body;
  if (typeof pagination !== 'object' || pagination === null || !('next_token' in pagination)) return undefined;
  return typeof pagination.next_token === 'string' ? pagination.next_token : undefined;
}

/**
 * A request body with its `pagination.next_token` null: the template a
 * script puts the live token in, so that no token of the run is written in
 * the script (it says nothing to another server, and a reader might send it).
 */
export function withoutToken(body: string): string {
  const parsed = parseJsonText(body);
  if (typeof parsed !== 'object' || parsed === null || !('pagination' in parsed)) return body;
  const { pagination } = parsed;
  if (typeof pagination !== 'object' || pagination === null) return body;
  return JSON.stringify({ ...parsed, pagination: { ...pagination, next_token: null } });
}

/** The `next_token` an answer gave, when it is a string (a body cut for the report gives none). */
export function tokenGiven(e: Exchange): string | undefined {
  if (!e.response || e.response.truncated) return undefined;
  const body = parseJsonText(e.response.body);
  if (typeof body !== 'object' || body === null || !('next_token' in body)) return undefined;
  return typeof body.next_token === 'string' ? body.next_token : undefined;
}

/** Characters two tokens share from their start, past which one reads as made from the other. */
const SHARED_PREFIX = 12;

function madeFrom(token: string, given: string): boolean {
  const shared = Math.min(token.length, given.length, SHARED_PREFIX);
  return token.includes(given) || given.includes(token) || token.slice(0, shared) === given.slice(0, shared);
}

/** One request of a chain: `tokenFrom` is the index, in the chain, of the answer whose token it sends. */
export interface ChainLink {
  exchange: Exchange;
  tokenFrom?: number;
}

/**
 * The requests that lead to exchange `judged` of `log`: the earlier ones
 * whose answers gave the tokens it sent (the latest that gave each), then
 * it. Undefined when a token it sent was altered from a server's.
 */
export function tokenChain(log: readonly Exchange[], judged: number): ChainLink[] | undefined {
  const backwards: Exchange[] = [];
  let at = judged;
  for (;;) {
    const e = log[at];
    if (!e) return undefined;
    backwards.push(e);
    const token = tokenSent(e);
    if (token === undefined) break;
    const earlier = log.slice(0, at);
    const from = earlier.findLastIndex((x) => tokenGiven(x) === token);
    if (from < 0) {
      const given = earlier.flatMap((x) => tokenGiven(x) ?? []);
      if (given.some((g) => madeFrom(token, g))) return undefined;
      break;
    }
    at = from;
  }
  const chain = backwards.reverse();
  return chain.map((exchange, i) =>
    i > 0 && tokenSent(exchange) !== undefined ? { exchange, tokenFrom: i - 1 } : { exchange },
  );
}
