/**
 * The page tokens of a reproducer's requests. A `next_token` is the server's
 * (§4.9 rule 6: opaque): another server, or the same one started again,
 * signs its pages otherwise, so a token sent again as recorded says nothing
 * (refused, it reads as a fix). A request that carried a token an earlier
 * answer gave is sent again after that earlier request, with the token its
 * live answer gives; a token altered from one an answer gave, as the suite
 * alters them (characters added to its end, cut from its end, or one
 * changed), is made again from the live token by the same alteration (sent
 * as recorded, a fresh server that still accepts altered tokens would refuse
 * it for another reason: a false fix); any other token was built by hand
 * (no answer gave it) and is sent as it was, whatever start it shares with a
 * server's (a token format such as base64 JSON has common starts).
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

/** Characters a token altered from a server's keeps of it, at least: fewer, and it reads as built by hand. */
const KEPT = 12;

/** How a token sent was made from one a server gave; the script makes it again so from the live token. */
export type TokenAlteration = { append: string } | { drop: number } | { change: number; to: string };

/** The alteration that makes `sent` from `given`, when it is one the suite makes. */
export function alterationOf(sent: string, given: string): TokenAlteration | undefined {
  if (sent === given || Math.min(sent.length, given.length) < KEPT) return undefined;
  if (sent.startsWith(given)) return { append: sent.slice(given.length) };
  if (given.startsWith(sent)) return { drop: given.length - sent.length };
  if (sent.length !== given.length) return undefined;
  const changed = [...Array(sent.length).keys()].filter((i) => sent[i] !== given[i]);
  const at = changed[0];
  return changed.length === 1 && at !== undefined ? { change: at, to: sent.charAt(at) } : undefined;
}

/**
 * One request of a chain: `tokenFrom` is the index, in the chain, of the
 * answer whose token it sends, altered by `alter` where the run altered it.
 */
export interface ChainLink {
  exchange: Exchange;
  tokenFrom?: number;
  alter?: TokenAlteration;
}

/**
 * The requests that lead to exchange `judged` of `log`: the earlier ones
 * whose answers gave the tokens it sent, as given or altered (the latest
 * that gave each), then it.
 */
export function tokenChain(log: readonly Exchange[], judged: number): ChainLink[] {
  const backwards: Array<{ exchange: Exchange; alter?: TokenAlteration }> = [];
  let at = judged;
  for (;;) {
    const e = log[at];
    if (!e) break;
    const token = tokenSent(e);
    const earlier = log.slice(0, at);
    // A token as an answer gave it, else the latest it was altered from.
    const exact = token === undefined ? -1 : earlier.findLastIndex((x) => tokenGiven(x) === token);
    const from =
      exact >= 0 || token === undefined
        ? exact
        : earlier.findLastIndex((x) => {
            const given = tokenGiven(x);
            return given !== undefined && alterationOf(token, given) !== undefined;
          });
    const given = log[from] && tokenGiven(log[from]);
    const alter = token !== undefined && given !== undefined ? alterationOf(token, given) : undefined;
    backwards.push({ exchange: e, ...(alter ? { alter } : {}) });
    if (from < 0) break;
    at = from;
  }
  const chain = backwards.reverse();
  // The first link sent no token an answer of the chain gave (none, or one built by hand): it is sent as it was.
  return chain.map((link, i) => (i > 0 ? { ...link, tokenFrom: i - 1 } : { exchange: link.exchange }));
}
