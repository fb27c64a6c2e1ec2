/**
 * §4.9 rule 5 judged over traffic of any client: a `next_token` sent with
 * `filters` or `orders` other than those of the request whose answer gave
 * it must be refused with 422. The traffic holds such a request only where
 * a client changed its query mid-walk (a bug, or on purpose); each one is
 * judged. A token is matched to every request whose answer gave it: a
 * server may give the same token text to two queries, and a request that
 * sends it with the query of either is no changed query. Omitted filters or
 * orders are the same as none. Pure.
 */
import { canonicalJson } from '../../core/canonical-json.ts';
import { judgeAll, noEvidence, rejected, type Judgement } from './judgement.ts';
import { field, type Observed } from './observed.ts';

/** Tokens remembered at once, the latest kept: a session that never ends must not keep every token it saw. */
export const TOKENS_REMEMBERED = 10_000;

/** The part of a query §4.9 rule 5 holds fixed through an iteration. */
type Part = 'filters' | 'orders';

const partOf = (request: unknown, part: Part): string => {
  const value = field(request, part);
  return canonicalJson(value === undefined || value === null ? [] : value);
};

/**
 * Each list request that sent a token with its `changed` part (filters, or
 * orders with the same filters) other than every request the token came
 * from, held to a 422.
 */
export function judgeChangedQueries(log: readonly Observed[], changed: Part): Judgement {
  /** Token → the filters and orders of each request whose answer gave it. */
  const givenTo = new Map<string, Array<{ filters: string; orders: string }>>();
  const judged: Judgement[] = [];
  for (const o of log) {
    if (o.operation !== 'resources.list') continue;
    const token = field(field(o.request, 'pagination'), 'next_token');
    const sent = { filters: partOf(o.request, 'filters'), orders: partOf(o.request, 'orders') };
    const givers = typeof token === 'string' ? givenTo.get(token) : undefined;
    if (givers && givers.length > 0) {
      const differs =
        changed === 'filters'
          ? givers.every((g) => g.filters !== sent.filters)
          : givers.every((g) => g.orders !== sent.orders) && givers.some((g) => g.filters === sent.filters);
      if (differs) judged.push(rejected(o, { status: 422 }));
    }
    const next = o.status === 200 ? field(o.body, 'next_token') : undefined;
    if (typeof next === 'string') {
      givenTo.set(next, [...(givenTo.get(next) ?? []), sent]);
      if (givenTo.size > TOKENS_REMEMBERED) givenTo.delete(givenTo.keys().next().value ?? next);
    }
  }
  return judged.length > 0
    ? judgeAll(judged)
    : noEvidence(`no next page was asked for with other ${changed} than the request that gave its token`);
}
