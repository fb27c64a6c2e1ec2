/**
 * list.counts-agree judged over traffic of any client (§4.8 Response, §4.9
 * table and rule 3): one collection counted in any of three ways — a walk
 * followed to its end, a strict `total_count`, a read with `limit` null —
 * must give one number whichever ways the traffic holds. The rule's own
 * judge reads the three reads its driver made of the same filters (and holds
 * an ids filter of listed ids to their number, which only a driver that
 * knows the ids exist may); this one finds them by what each request asked
 * for. Two requests read the same collection when they differ only in their
 * pagination, `with_total_count` and `counting_mode` (anything else, an
 * order or `with_relations` included, and they are not compared: a filter
 * another option adds is that option's rule's departure). No documented
 * operation changes which resources a list holds, so reads far apart in the
 * traffic are compared. Pure.
 */
import { canonicalJson } from '../../core/canonical-json.ts';
import { matchesSchema } from '../../schemas/index.ts';
import { noEvidence, type Judgement } from './judgement.ts';
import { walksByToken } from './list-walks.ts';
import { field, type Observed } from './observed.ts';

/** How a collection was counted, its number, and the exchange that showed it. */
interface Count {
  way: 'walk' | 'total_count (strict)' | 'limit null';
  n: number;
  step: string;
}

/** What names a collection: the request without what only pages or counts it. */
function collectionOf(request: unknown): string {
  if (typeof request !== 'object' || request === null) return canonicalJson(request);
  const kept = Object.entries(request).filter(
    ([k]) => k !== 'pagination' && k !== 'with_total_count' && k !== 'counting_mode',
  );
  return canonicalJson(Object.fromEntries(kept));
}

const limitOf = (request: unknown): unknown => field(field(request, 'pagination'), 'limit');

export function judgeCountsInTraffic(log: readonly Observed[]): Judgement {
  const counts = new Map<string, Count[]>();
  const add = (request: unknown, count: Count) => {
    const key = collectionOf(request);
    counts.set(key, [...(counts.get(key) ?? []), count]);
  };
  for (const walk of walksByToken(log)) {
    // A read with limit null is counted as one below; a walk that did not end counts nothing.
    if (!walk.ended || limitOf(walk.request) === null) continue;
    const ids = walk.pages.flatMap((p) => p.page.data.map((r) => r.id));
    // A resource listed twice is pagination.each-resource-once's departure: this walk counts nothing here.
    if (new Set(ids).size !== ids.length) continue;
    add(walk.request, { way: 'walk', n: ids.length, step: walk.pages[0]?.step ?? 'a walk' });
  }
  for (const o of log) {
    if (o.operation !== 'resources.list' || o.status !== 200 || !matchesSchema('ListEnvelope', o.body)) continue;
    const first = field(field(o.request, 'pagination'), 'next_token') === null;
    if (first && limitOf(o.request) === null && o.body.next_token === null) {
      add(o.request, { way: 'limit null', n: o.body.data.length, step: o.step });
    }
    const strict = field(o.request, 'with_total_count') === true && field(o.request, 'counting_mode') === 'strict';
    if (strict && typeof o.body.total_count === 'number') {
      add(o.request, { way: 'total_count (strict)', n: o.body.total_count, step: o.step });
    }
  }
  let compared = 0;
  for (const list of counts.values()) {
    // Two ways of counting, at least: two walks that disagree are pagination's rules' (the same set at any limit).
    if (new Set(list.map((c) => c.way)).size < 2) continue;
    compared += 1;
    for (const a of list) {
      const b = list.find((c) => c.way !== a.way && c.n !== a.n);
      if (!b) continue;
      return [
        {
          where: `${b.step}: ${b.way}`,
          message:
            'must count the same collection whichever way it is read: a walk, total_count (strict) and limit null',
          expected: `${a.n}, as ${a.way} gave (${a.step})`,
          actual: b.n,
        },
      ];
    }
  }
  return compared > 0 ? [] : noEvidence('no collection was counted two ways');
}
