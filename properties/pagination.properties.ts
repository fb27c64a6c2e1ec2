/**
 * §4.9 as properties: for any page size, any query and any tampering.
 */
import fc from 'fast-check';
import { listQueryChange, paginationLimit, tamperedToken } from '../src/arbitraries/index.ts';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { precondition } from '../src/rules/assertions.ts';
import {
  ascendingOn,
  attributeText,
  firstIds,
  idsFilter,
  listBody,
  listPage,
  startsWithFilter,
  walkPages,
} from '../src/rules/steps/list.ts';
import { checkProperty } from '../src/rules/check-property.ts';
import {
  firstWithStep,
  isClean,
  judgeAll,
  judgeEach,
  noEvidence,
  rejected,
  withStep,
  type Judgement,
} from '../src/rules/judges/judgement.ts';
import { idsFiltered, walksIn, type WalkRead } from '../src/rules/judges/list-walks.ts';
import { field, type Observed } from '../src/rules/judges/observed.ts';
import type { Violation } from '../src/core/types.ts';

/** The step of a request whose next_token was altered by hand. */
const TAMPERED = 'a next_token altered by';

/** The steps of a changed-query run: a first page, then its next page asked for with other filters or orders. */
const CHANGED = {
  first: 'the first page of an iteration',
  next: 'a next page whose filters or orders changed',
} as const;

/** Two list requests with the same filters and orders (an absent list is an empty one). */
function sameQuery(a: unknown, b: unknown): boolean {
  const query = (r: unknown) => JSON.stringify([field(r, 'filters') ?? [], field(r, 'orders') ?? []]);
  return query(a) === query(b);
}

/**
 * One walk over an ids filter (pages tagged "resources.list page N"): every
 * filtered resource exactly once, and on an exact multiple of the limit the
 * last full page carries a token and the page after it is empty.
 */
function judgeOneWalk(walk: WalkRead): Judgement {
  const subset = idsFiltered(walk.request);
  const limit = field(field(walk.request, 'pagination'), 'limit');
  if (!subset || typeof limit !== 'number') return noEvidence('no walk over an ids filter');
  // A page that was no list of resources: an answer that says nothing, or pagination.envelope's departure.
  if (!isClean(walk.unread)) return walk.unread;
  const walked = walk.pages.map(({ page }) => ({ ids: page.data.map((r) => r.id), token: page.next_token }));
  const seen = walked.flatMap((p) => p.ids);
  const violations: Violation[] = [];
  if (subset.some((id) => !seen.includes(id)) || seen.length !== subset.length) {
    violations.push({
      where: `a walk of ${subset.length} filtered ids at limit ${limit}: response.body.data of every page`,
      message: 'must yield every filtered resource exactly once',
      expected: subset.length,
      actual: seen.length,
    });
  }
  if (subset.length % limit === 0) {
    const last = walked[subset.length / limit - 1];
    const after = walked[subset.length / limit];
    if (!last || last.token === null) {
      violations.push({
        where: 'last full page',
        message: 'must carry a next_token when the size is an exact multiple of limit',
        expected: 'a token',
        actual: null,
      });
    }
    if (!after || after.ids.length !== 0) {
      violations.push({
        where: 'page after the last full page',
        message: 'must be empty',
        expected: 0,
        actual: after?.ids.length ?? '(none)',
      });
    }
  }
  return violations;
}

/**
 * A run's walks over an ids filter, each judged alone: the rule walks the
 * same query several times (a departure one time in ten shows), and its
 * walks are told apart by the tokens that link their pages.
 */
export function judgeWalks(log: readonly Observed[]): Judgement {
  const walks = walksIn(log).filter((w) => idsFiltered(w.request) !== undefined);
  if (walks.length === 0) return noEvidence('no walk over an ids filter');
  return judgeAll(walks.map(judgeOneWalk));
}

export default defineRuleGroup({
  section: '§4.9',
  title: 'Pagination properties',
  rules: [
    property({
      id: 'pagination.prop.any-limit-once',
      clause: '§4.9 rules 1-4',
      quote: [
        'Each following request repeats the same request, with only `next_token` replaced by the value from the previous response.',
        'Iteration stops when the response has `next_token` null or an empty `data` array.',
        'When the collection size is an exact multiple of `limit`, the last full page still carries a non-null `next_token` and the next page is empty.',
      ],
      level: 'MUST',
      runs: 4,
      repeats: { judgedPerRun: 1 },
      needs: ['listKind'],
      async drive(ctx) {
        const ids = await firstIds(ctx, 20, { atLeast: 4 });
        const arbitrary = fc.record({
          limit: paginationLimit({ max: 12 }),
          subset: fc.subarray(ids, { minLength: 1 }),
        });
        await checkProperty(
          ctx,
          arbitrary,
          ({ limit, subset }) =>
            ctx.judged(async () => {
              const body = listBody(ctx, { filters: [idsFilter(subset)], pagination: { limit, next_token: null } });
              // The first walk may be one the run already made; each repetition asks the server again.
              await ctx.repeat((i) => walkPages(ctx, body, { maxPages: subset.length + 3, fresh: i > 0 }));
            }),
          { distinct: true },
        );
      },
      judge: judgeWalks,
    }),
    property({
      id: 'pagination.prop.changed-query-422',
      clause: '§4.9 rule 5; §7',
      quote:
        '`filters` and `orders` must be identical in every request of an iteration; otherwise the request fails with status 422.',
      level: 'MUST',
      runs: 6,
      repeats: { judgedPerRun: 1 },
      needs: ['listKind', 'sortAttribute'],
      async drive(ctx) {
        const ids = await firstIds(ctx, 12, { atLeast: 4 });
        const attribute = ctx.sortAttribute;
        const sample = await listPage(
          ctx,
          listBody(ctx, { attributes: [attribute], pagination: { limit: 20, next_token: null } }),
        );
        const names = sample.data.map((r) => attributeText(r, attribute)).filter((v): v is string => !!v);
        const prefixes = [...new Set(names.map((n) => n.slice(0, 1)))];
        const first = prefixes[0];
        const last = prefixes.at(-1);
        precondition(first !== undefined && last !== undefined, `no text value of ${attribute} to filter on`);
        await checkProperty(
          ctx,
          listQueryChange({ ids, attribute, prefixes }),
          ([a, b]) =>
            ctx.judged(async () => {
              const page = await listPage(ctx, listBody(ctx, { ...a, pagination: { limit: 1, next_token: null } }), {
                step: CHANGED.first,
              });
              // Without a token there is no next page to ask for: the judge finds no evidence and the run is discarded.
              if (page.next_token === null) return;
              const next = listBody(ctx, { ...b, pagination: { limit: 1, next_token: page.next_token } });
              await ctx.repeat(() => ctx.client.post('resources.list', next, { retry: 'judged', step: CHANGED.next }));
            }),
          {
            distinct: true,
            // One change of each kind: the ids filtered, the text filter's prefix, a filter dropped, orders dropped.
            examples: [
              [
                { filters: [idsFilter(ids)], orders: [] },
                { filters: [idsFilter(ids.slice(1))], orders: [] },
              ],
              [
                { filters: [startsWithFilter(attribute, first)], orders: [] },
                { filters: [startsWithFilter(attribute, last === first ? 'zz' : last)], orders: [] },
              ],
              [
                { filters: [startsWithFilter(attribute, first)], orders: [ascendingOn(attribute)] },
                { filters: [], orders: [ascendingOn(attribute)] },
              ],
              [
                { filters: [], orders: [ascendingOn(attribute)] },
                { filters: [], orders: [] },
              ],
            ],
          },
        );
      },
      judge(log) {
        const first = firstWithStep(log, CHANGED.first);
        const next = withStep(log, CHANGED.next);
        if (!first || next.length === 0) return noEvidence('no next page was asked for with another query');
        // The arbitrary changes the query; a run whose query came back the same shows nothing of the clause.
        if (next.every((o) => sameQuery(first.request, o.request)))
          return noEvidence('the next page kept the same filters and orders');
        // Every time it was asked for (the rule repeats it: a departure one time in ten shows).
        return judgeEach(next, 'no next page was asked for', (o) => rejected(o, { status: 422 }));
      },
    }),
    property({
      id: 'pagination.prop.tampered-token-422',
      clause: '§4.9 rule 6; §7',
      quote: '`next_token` is opaque: a token that is malformed or built by hand fails with status 422.',
      level: 'MUST',
      runs: 6,
      repeats: { judgedPerRun: 1 },
      needs: ['listKind'],
      async drive(ctx) {
        const ids = await firstIds(ctx, 8, { atLeast: 4 });
        const body = listBody(ctx, { filters: [idsFilter(ids)], pagination: { limit: 2, next_token: null } });
        const first = await listPage(ctx, body);
        precondition(first.next_token !== null, 'the first page of a filtered list has no next_token');
        const token = first.next_token;
        await checkProperty(
          ctx,
          tamperedToken(),
          (t) =>
            ctx.judged(async () => {
              const tampered = { ...body, pagination: { limit: 2, next_token: t.apply(token) } };
              await ctx.repeat(() =>
                ctx.client.post('resources.list', tampered, { retry: 'judged', step: `${TAMPERED} "${t.name}"` }),
              );
            }),
          // A kind of tampering drawn again is sent again: its runs count toward a departure one time in ten.
        );
      },
      judge: (log) =>
        judgeEach(
          log.filter((o) => o.step.startsWith(TAMPERED)),
          'no altered next_token was sent',
          (o) => rejected(o, { status: 422 }),
        ),
    }),
  ],
});
