/**
 * §4.9 Pagination protocol, as used by resources.list (§4.8).
 */
import { TRAFFIC } from '../src/rules/judges/untagged-traffic.ts';
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { fail, owned, precondition } from '../src/rules/assertions.ts';
import {
  ascendingOn,
  attributeText,
  firstIds,
  idsFilter,
  listBody,
  listPage,
  walkPages,
  type Filter,
} from '../src/rules/steps/list.ts';
import { eachResourceOnce, FIRST_WALK_PAGES, pagesFor } from '../src/rules/judges/walks-once.ts';
import { pageNamed } from '../src/rules/judges/list-walks.ts';
import {
  accepted,
  firstWithStep,
  judgeAll,
  judgeEach,
  noEvidence,
  rejected,
  shaped,
  withStep,
  type Judgement,
} from '../src/rules/judges/judgement.ts';
import { field, noVerdict, type Observed } from '../src/rules/judges/observed.ts';
import type { Violation } from '../src/core/types.ts';
import type { ListEnvelope, ListRequest } from '../src/schemas/index.ts';
import { LIST_ENVELOPE, LIST_LIMIT } from '../src/rules/judges/list-answer.ts';
import { EACH_RESOURCE_ONCE } from '../src/rules/judges/walk.ts';

/** Pages are never followed past this; a server that keeps going is caught. */
const MAX_PAGES = 5_000;

type ListContext = CheckContext<'listKind'>;

/** A token from a real first page of a filtered iteration, with the body that produced it. */
async function realToken(ctx: ListContext, extra: Partial<ListRequest> = {}) {
  const ids = await firstIds(ctx, 6, { atLeast: 4 });
  const body = listBody(ctx, { filters: [idsFilter(ids)], ...extra, pagination: { limit: 2, next_token: null } });
  const first = await listPage(ctx, body, { step: 'first page' });
  // A null token while more resources match breaks the envelope's clause ("null when there is none").
  const token = owned(ctx, 'pagination.envelope', () => {
    if (first.next_token === null) {
      fail({
        where: 'page 1.next_token',
        message: 'must not be null while more resources match than `limit`',
        expected: 'a token',
        actual: null,
      });
    }
    return first.next_token;
  });
  return { body, token };
}

/** The steps the drivers of this group tag their requests with, which their judges read. */
const STEP = {
  /** The envelope's pages, followed by hand (the same pages other rules walk). */
  envelopePage: (n: number) => `resources.list page ${n}`,
  envelopeWhole: 'resources.list with limit null',
  /** The limit's pages, followed by hand. */
  limitPage: (limit: number, n: number) => `limit ${limit}, page ${n}`,
  limitNull: 'the whole collection with limit null',
  filtersChanged: 'a next page whose filters changed',
  filtersRemoved: 'a next page whose filters were removed',
  ordersRemoved: 'a next page whose orders were removed',
  ordersAdded: 'a next page whose orders were added',
  malformed: 'a malformed next_token',
  handBuilt: 'a hand-built or altered next_token',
} as const;

/** The step walkPages tags each page with. */
const WALKED_PAGE = /^resources\.list page \d+$/;

/**
 * Follows up to `pages` pages of `body` by hand, each tagged `step(n)`, for
 * the rules whose clause the list step itself judges (a page's envelope, its
 * limit): their judge, not the step, says what the pages showed. Returns the
 * entries seen.
 */
async function pagesByHand(
  ctx: ListContext,
  body: ListRequest,
  pages: number,
  step: (n: number) => string,
): Promise<unknown[]> {
  const entries: unknown[] = [];
  const limit = body.pagination?.limit ?? null;
  let token: string | null = null;
  for (let n = 1; n <= pages; n++) {
    // The same pages other rules walk: the run asks for them once.
    const res = await ctx.client.post(
      'resources.list',
      { ...body, pagination: { limit, next_token: token } },
      { shared: true, step: step(n) },
    );
    const data = field(res.json, 'data');
    const next = field(res.json, 'next_token');
    if (res.status !== 200 || !Array.isArray(data)) break;
    entries.push(...data);
    if (typeof next !== 'string' || data.length === 0) break;
    token = next;
  }
  return entries;
}

/** A page's entries and token when it was answered with a page; otherwise the judgement that stops there. */
function pageOf(o: Observed): { data: unknown[]; token: unknown } | { judgement: Judgement } {
  const data = field(o.body, 'data');
  if (o.status === 200 && Array.isArray(data)) return { data, token: field(o.body, 'next_token') };
  // A page's status and shape are pagination.envelope's: here 401, 429 and 5xx are no verdict, the rest no evidence.
  return {
    judgement: noVerdict(o) ? accepted(o, { status: 200 }) : noEvidence(`${o.step} was not answered with a page`),
  };
}

/** A page's entries, none when the answer holds no list of them. */
function pageData(o: Observed): unknown[] {
  const data = field(o.body, 'data');
  return Array.isArray(data) ? data : [];
}

/** The ids of a page's entries. */
function idsIn(data: readonly unknown[]): unknown[] {
  return data.map((r) => field(r, 'id'));
}

/** The ids a list request filtered on, when it filtered on ids. */
function idsFiltered(request: unknown): string[] | undefined {
  const filters = field(request, 'filters');
  const ids = Array.isArray(filters) ? filters.find((f) => field(f, 'key') === 'resource.ids') : undefined;
  const value = field(ids, 'value');
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
}

/** The `pagination.limit` a request asked for. */
function limitOf(request: unknown): unknown {
  return field(field(request, 'pagination'), 'limit');
}

/** The pages walkPages tagged whose request asked for `limit` (and filtered on ids, with `filtered`), in order. */
function walkOf(log: readonly Observed[], limit: number, options: { filtered?: boolean } = {}): Observed[] {
  return log.filter(
    (o) =>
      WALKED_PAGE.test(o.step) &&
      limitOf(o.request) === limit &&
      (options.filtered === undefined || (idsFiltered(o.request) !== undefined) === options.filtered),
  );
}

/** Each exchange whose step starts with `prefix`, refused with 422. */
function refusedWith422(log: readonly Observed[], prefix: string, missing: string): Judgement {
  return judgeEach(
    log.filter((o) => o.step.startsWith(prefix)),
    missing,
    (o) => rejected(o, { status: 422 }),
  );
}

/** Alters one character in the middle of a token (a middle base64 character always changes the bytes). */
function tamper(token: string): string {
  const i = Math.floor(token.length / 2);
  const c = token[i] === 'A' ? 'B' : 'A';
  return token.slice(0, i) + c + token.slice(i + 1);
}

/** Runs of consecutive resources with the same value of the sort attribute (each of two or more ids). */
function tiedRuns(ids: readonly string[], values: ReadonlyMap<string, string | undefined>): string[][] {
  const runs: string[][] = [];
  let current: string[] = [];
  for (const id of ids) {
    const value = values.get(id);
    if (current.length > 0 && value !== undefined && value === values.get(current[0]!)) current.push(id);
    else {
      if (current.length > 1) runs.push(current);
      current = [id];
    }
  }
  if (current.length > 1) runs.push(current);
  return runs;
}

function firstDifference(x: readonly unknown[], y: readonly unknown[]): number {
  for (let i = 0; i < Math.max(x.length, y.length); i++) if (x[i] !== y[i]) return i;
  return -1;
}

export default defineRuleGroup({
  section: '§4.9',
  title: 'Pagination protocol',
  rules: [
    rule({
      id: 'pagination.envelope',
      checks: [LIST_ENVELOPE],
      traffic: TRAFFIC.answers('resources.list'),
      clause: '§4.8 Response',
      quote: [
        'Response: status 200, envelope:',
        '| data | array of Resource | required; up to `limit` entries |',
        '| next_token | string or null | required; cursor of the next page, null when there is none |',
      ],
      level: 'MUST',
      needs: ['listKind'],
      async drive(ctx) {
        // Every page of a walk, then the whole collection at once (where next_token must be null, not absent).
        const entries = await pagesByHand(ctx, listBody(ctx, { pagination: { limit: 3, next_token: null } }), 4, (n) =>
          STEP.envelopePage(n),
        );
        const ids = idsIn(entries)
          .filter((id) => typeof id === 'string')
          .slice(0, 5);
        await ctx.client.post(
          'resources.list',
          listBody(ctx, { filters: [idsFilter(ids)], pagination: { limit: null, next_token: null } }),
          { step: STEP.envelopeWhole },
        );
      },
      judge: (log) =>
        judgeAll([
          judgeEach(
            log.filter((o) => WALKED_PAGE.test(o.step)),
            'no page was read',
            // Every list walk shares these pages: each is named by what its request asked for too.
            (o) => shaped({ ...o, step: pageNamed(o.step, o.request) }, 'ListEnvelope'),
          ),
          judgeEach(withStep(log, STEP.envelopeWhole), 'the collection was not read with limit null', (o) =>
            shaped(o, 'ListEnvelope'),
          ),
        ]),
    }),
    rule({
      id: 'pagination.limit-respected',
      checks: [LIST_LIMIT],
      traffic: TRAFFIC.answers('resources.list'),
      clause: '§4.8 Response; §4.9 table',
      quote: [
        '| data | array of Resource | required; up to `limit` entries |',
        '`pagination.limit` is the maximum number of entries per page',
      ],
      level: 'MUST',
      needs: ['listKind'],
      async drive(ctx) {
        // Every walk of the run judges its pages against its limit for this rule too (the list step), the
        // pairwise rows with limits of every class: here the smallest limit and one the run walks anyway.
        for (const limit of [1, 3]) {
          await pagesByHand(ctx, listBody(ctx, { pagination: { limit, next_token: null } }), 4, (n) =>
            STEP.limitPage(limit, n),
          );
        }
      },
      judge(log) {
        const pages = log.filter((o) => /^limit \d+, page \d+$/.test(o.step));
        const judged = pages.map((o): Judgement => {
          const page = pageOf(o);
          const asked = limitOf(o.request);
          if ('judgement' in page) return page.judgement;
          if (typeof asked !== 'number' || page.data.length <= asked) return [];
          return [
            {
              where: `${o.step}: response.body.data`,
              message: `must hold at most limit (${asked}) entries`,
              expected: `<= ${asked}`,
              actual: page.data.length,
            },
          ];
        });
        // A collection no larger than the limit cannot show a page held to it.
        const limits = [...new Set(pages.map((o) => limitOf(o.request)))].filter((l) => typeof l === 'number');
        const shown = limits.map((limit) => {
          const entries = pages.filter((o) => limitOf(o.request) === limit).reduce((n, o) => n + pageData(o).length, 0);
          return entries > limit ? [] : noEvidence(`the listed kind holds no more than ${limit} resources`);
        });
        return judgeAll([...(pages.length === 0 ? [noEvidence('no page was read')] : []), ...judged, ...shown]);
      },
    }),
    rule({
      id: 'pagination.limit-null-whole-collection',
      clause: '§4.9 table; §8 Page size',
      quote: 'null returns the whole collection in one response',
      level: 'MUST',
      needs: ['listKind'],
      async drive(ctx) {
        const ids = await firstIds(ctx, 9, { atLeast: 3 });
        await listPage(
          ctx,
          listBody(ctx, { filters: [idsFilter(ids)], pagination: { limit: null, next_token: null } }),
          { step: STEP.limitNull },
        );
      },
      judge(log) {
        const o = firstWithStep(log, STEP.limitNull);
        if (!o) return noEvidence('the collection was not read with limit null');
        const page = pageOf(o);
        if ('judgement' in page) return page.judgement;
        const violations: Violation[] = [];
        // An absent next_token is the envelope's departure.
        if (page.token !== null && page.token !== undefined) {
          violations.push({
            where: `${o.step}: response.body.next_token`,
            message: 'must be null when limit is null (one response holds the whole collection)',
            expected: null,
            actual: page.token,
          });
        }
        const asked = idsFiltered(o.request) ?? [];
        const got = idsIn(page.data);
        if (asked.some((id) => !got.includes(id))) {
          violations.push({
            where: `${o.step}: response.body.data`,
            message: 'must hold every resource of the collection when limit is null',
            expected: asked,
            actual: got,
          });
        }
        return violations;
      },
    }),
    rule({
      id: 'pagination.each-resource-once',
      checks: [EACH_RESOURCE_ONCE],
      traffic: TRAFFIC.walks,
      clause: '§4.9 rules 1-3',
      quote: [
        'The first request carries `next_token` null and an explicit `limit`.',
        'Each following request repeats the same request, with only `next_token` replaced by the value from the previous response.',
        'Iteration stops when the response has `next_token` null or an empty `data` array.',
      ],
      level: 'MUST',
      needs: ['listKind'],
      async drive(ctx) {
        // Each limit must yield the same set, each resource once, and the iteration must end. Big
        // collections are walked with larger pages, so the request count stays bounded by the collection
        // size: 20,000 pages of 500 before a walk counts as endless. The driver only sends: what the walks
        // show is its judge's, a fold that the engine hands each page as it comes (judges/walks-once.ts).
        const handful: string[] = [];
        const reference = await walkPages(ctx, listBody(ctx, { pagination: { limit: 500, next_token: null } }), {
          maxPages: FIRST_WALK_PAGES,
          onPage(page) {
            for (const r of page.data) if (handful.length < 5 && !handful.includes(r.id)) handful.push(r.id);
          },
        });
        const size = reference.resources;
        // Smaller pages over the whole collection: every page boundary is a chance for an off-by-one
        // (a page size that divides nothing evenly finds other ones; a big collection gets two).
        const limits = size > 2_000 ? [137] : size > 400 ? [10, 4] : [8];
        for (const limit of limits) {
          await walkPages(ctx, listBody(ctx, { pagination: { limit, next_token: null } }), {
            maxPages: pagesFor(size, limit),
          });
        }
        // Pages of a single resource, over a filtered handful: the smallest page there is.
        if (handful.length === 0) return;
        await walkPages(
          ctx,
          listBody(ctx, { filters: [idsFilter(handful)], pagination: { limit: 1, next_token: null } }),
          { maxPages: pagesFor(handful.length, 1) },
        );
      },
      // A fold, not a function of the whole log: the log of a walk of a million resources is not kept.
      judge: eachResourceOnce,
    }),
    rule({
      id: 'pagination.exact-multiple-empty-page',
      traffic: TRAFFIC.walksOfAShownSize,
      clause: '§4.9 rule 4',
      quote:
        'When the collection size is an exact multiple of `limit`, the last full page still carries a non-null `next_token` and the next page is empty.',
      level: 'MUST',
      needs: ['listKind'],
      async drive(ctx) {
        const ids = await firstIds(ctx, 6, { atLeast: 6 });
        for (const limit of [2, 3, 6]) {
          await walkPages(ctx, listBody(ctx, { filters: [idsFilter(ids)], pagination: { limit, next_token: null } }), {
            maxPages: 6 / limit + 3,
          });
        }
      },
      judge(log) {
        const limits = [...new Set(log.filter((o) => WALKED_PAGE.test(o.step)).map((o) => limitOf(o.request)))].filter(
          (l) => typeof l === 'number',
        );
        const walks = limits.flatMap((limit) => {
          const pages = walkOf(log, limit, { filtered: true });
          const size = pages[0] ? idsFiltered(pages[0].request)?.length : undefined;
          return size !== undefined && size > 0 && size % limit === 0 ? [{ limit, pages, full: size / limit }] : [];
        });
        if (walks.length === 0)
          return noEvidence('no walk over a filtered collection whose size is a multiple of limit');
        return judgeAll(
          walks.map(({ limit, pages, full }): Judgement => {
            const read = pages.map(pageOf);
            const unread = read.flatMap((p) => ('judgement' in p ? [p.judgement] : []));
            if (unread.length > 0) return judgeAll(unread);
            const answered = read.flatMap((p) => ('judgement' in p ? [] : [p]));
            const lastFull = answered[full - 1];
            const trailing = answered[full];
            // A walk the driver was stopped in (another rule's departure on its way) holds a token it did
            // not follow: the pages it did not read say nothing of this clause.
            const last = answered.at(-1);
            const stoppedShort = last !== undefined && last.token !== null && last.data.length > 0;
            if (stoppedShort && (!lastFull || !trailing)) {
              return noEvidence(`the walk with limit ${limit} was stopped before its end`);
            }
            const violations: Violation[] = [];
            if (!lastFull || lastFull.token === null) {
              violations.push({
                where: `limit ${limit}, page ${full}: response.body.next_token`,
                message: 'must not be null on the last full page when the size is an exact multiple of limit',
                expected: 'a token',
                actual: lastFull ? null : '(no such page)',
              });
            }
            const size = trailing?.data.length;
            if (size !== 0) {
              violations.push({
                where: `limit ${limit}, page ${full + 1}: response.body.data`,
                message: 'must be empty after the last full page',
                expected: [],
                actual: size === undefined ? '(no such page)' : `${size} entries`,
              });
            }
            return violations;
          }),
        );
      },
    }),
    rule({
      id: 'pagination.changed-filters-422',
      traffic: TRAFFIC.changedQueries('filters'),
      clause: '§4.9 rule 5; §7',
      quote:
        '`filters` and `orders` must be identical in every request of an iteration; otherwise the request fails with status 422.',
      level: 'MUST',
      needs: ['listKind'],
      async drive(ctx) {
        const { body, token } = await realToken(ctx);
        const others = await firstIds(ctx, 8);
        const next = { limit: 2, next_token: token };
        await ctx.client.post(
          'resources.list',
          { ...body, filters: [idsFilter(others.slice(0, 5))], pagination: next },
          { retry: 'judged', step: STEP.filtersChanged },
        );
        await ctx.client.post(
          'resources.list',
          { ...body, filters: [], pagination: next },
          { retry: 'judged', step: STEP.filtersRemoved },
        );
      },
      judge: (log) =>
        judgeAll([
          refusedWith422(log, STEP.filtersChanged, 'no next page with changed filters was asked for'),
          refusedWith422(log, STEP.filtersRemoved, 'no next page without its filters was asked for'),
        ]),
    }),
    rule({
      id: 'pagination.changed-orders-422',
      traffic: TRAFFIC.changedQueries('orders'),
      clause: '§4.9 rule 5; §7',
      quote:
        '`filters` and `orders` must be identical in every request of an iteration; otherwise the request fails with status 422.',
      level: 'MUST',
      needs: ['listKind', 'sortAttribute'],
      async drive(ctx) {
        const orders = [ascendingOn(ctx.sortAttribute)];
        const ordered = await realToken(ctx, { orders });
        await ctx.client.post(
          'resources.list',
          { ...ordered.body, orders: [], pagination: { limit: 2, next_token: ordered.token } },
          { retry: 'judged', step: STEP.ordersRemoved },
        );
        const plain = await realToken(ctx);
        await ctx.client.post(
          'resources.list',
          { ...plain.body, orders, pagination: { limit: 2, next_token: plain.token } },
          { retry: 'judged', step: STEP.ordersAdded },
        );
      },
      judge: (log) =>
        judgeAll([
          refusedWith422(log, STEP.ordersRemoved, 'no next page without its orders was asked for'),
          refusedWith422(log, STEP.ordersAdded, 'no next page with orders added was asked for'),
        ]),
    }),
    rule({
      id: 'pagination.malformed-token-422',
      clause: '§4.9 rule 6; §7',
      quote: '`next_token` is opaque: a token that is malformed or built by hand fails with status 422.',
      level: 'MUST',
      needs: ['listKind'],
      async drive(ctx) {
        for (const token of ['not-a-token', '%%%', '""', 'eyJ']) {
          await ctx.client.post('resources.list', listBody(ctx, { pagination: { limit: 2, next_token: token } }), {
            retry: 'judged',
            step: `${STEP.malformed} ${JSON.stringify(token)}`,
          });
        }
      },
      judge: (log) => refusedWith422(log, STEP.malformed, 'no malformed next_token was sent'),
    }),
    rule({
      id: 'pagination.hand-built-token-422',
      clause: '§4.9 rule 6; §7',
      quote: '`next_token` is opaque: a token that is malformed or built by hand fails with status 422.',
      level: 'MUST',
      needs: ['listKind'],
      async drive(ctx) {
        const { body, token } = await realToken(ctx);
        const handBuilt = [
          Buffer.from(JSON.stringify({ offset: 2 })).toString('base64'),
          Buffer.from(JSON.stringify({ offset: 2 })).toString('base64url'),
          Buffer.from('2').toString('base64'),
          '2',
          tamper(token),
          token.slice(0, Math.max(1, token.length - 4)),
          `${token}AAAA`,
        ].filter((t) => t !== token);
        for (const forged of handBuilt) {
          await ctx.client.post(
            'resources.list',
            { ...body, pagination: { limit: 2, next_token: forged } },
            { retry: 'judged', step: `${STEP.handBuilt} ${JSON.stringify(forged.slice(0, 40))}` },
          );
        }
      },
      judge: (log) => refusedWith422(log, STEP.handBuilt, 'no hand-built next_token was sent'),
    }),
    rule({
      id: 'pagination.stable-with-orders',
      clause: '§4.9 rule 7',
      quote: 'The cursor derives from the sorted values, so explicit `orders` give stable pages.',
      level: 'MUST',
      needs: ['listKind', 'sortAttribute'],
      async drive(ctx) {
        const body = listBody(ctx, { orders: [ascendingOn(ctx.sortAttribute)], attributes: [ctx.sortAttribute] });
        const walk = (filters: Filter[], limit: number, onPage?: (page: ListEnvelope) => void) =>
          walkPages(
            ctx,
            { ...body, ...(filters.length > 0 ? { filters } : {}), pagination: { limit, next_token: null } },
            { maxPages: MAX_PAGES, ...(onPage ? { onPage } : {}) },
          );
        // The whole ordered collection in big pages, for its ties: where a cursor that does not derive from the
        // sorted values goes wrong is among resources that tie on the sort value, in pages that end
        // inside each tie. Those are walked with two page sizes whose boundaries differ.
        const ids: string[] = [];
        const values = new Map<string, string | undefined>();
        await walk([], 50, (page) => {
          for (const r of page.data) {
            ids.push(r.id);
            values.set(r.id, attributeText(r, ctx.sortAttribute));
          }
        });
        const ties = tiedRuns(ids, values).slice(0, 4).flat().slice(0, 9);
        precondition(ties.length > 0, `no two resources share a value of ${ctx.sortAttribute}: ties cannot be shown`);
        await walk([idsFilter(ties)], 1);
        await walk([idsFilter(ties)], 3);
      },
      judge(log) {
        const byOne = walkOf(log, 1, { filtered: true });
        const byThree = walkOf(log, 3, { filtered: true });
        const ties = byOne[0] ? idsFiltered(byOne[0].request) : undefined;
        if (!ties || byThree.length === 0) return noEvidence('no walk over tied resources with two page sizes');
        const read = [...byOne, ...byThree].map(pageOf);
        const unread = read.flatMap((p) => ('judgement' in p ? [p.judgement] : []));
        if (unread.length > 0) return judgeAll(unread);
        const walked = (pages: readonly Observed[]) => pages.flatMap((o) => idsIn(pageData(o)));
        const first = walked(byOne);
        const other = walked(byThree);
        const where = `ids filter of ${ties.length} tied resources`;
        const violations: Violation[] = [];
        const at = firstDifference(first, other);
        if (at >= 0) {
          violations.push({
            where: `${where}, position ${at}`,
            message: 'must give the same order whatever the page size, for the same orders (limit 1 vs limit 3)',
            expected: first[at],
            actual: other[at],
          });
        }
        if (ties.some((id) => !first.includes(id))) {
          violations.push({
            where: `${where}, limit 1`,
            message: 'must yield every resource once, ties on the sort value included',
            expected: ties,
            actual: first,
          });
        }
        return violations;
      },
    }),
  ],
});
