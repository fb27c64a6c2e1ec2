/**
 * §4.9 Pagination protocol, as used by resources.list (§4.8).
 */
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { expectJson, expectRejected, expectSuccess, fail, owned, precondition } from '../src/rules/assertions.ts';
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
import { SeenIds } from '../src/rules/steps/seen-ids.ts';
import type { ListRequest } from '../src/schemas/index.ts';

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

/** Every id of `expected` is among those `got`: else a departure at `where`, showing both. */
function expectEveryId(
  expected: readonly string[],
  got: ReadonlySet<string>,
  violation: { where: string; message: string },
): void {
  if (expected.some((id) => !got.has(id))) fail({ ...violation, expected: [...expected], actual: [...got] });
}

function firstDifference(x: readonly string[], y: readonly string[]): number {
  for (let i = 0; i < Math.max(x.length, y.length); i++) if (x[i] !== y[i]) return i;
  return -1;
}

export default defineRuleGroup({
  section: '§4.9',
  title: 'Pagination protocol',
  rules: [
    rule({
      id: 'pagination.envelope',
      clause: '§4.8 Response',
      quote: [
        'Response: status 200, envelope:',
        '| data | array of Resource | required; up to `limit` entries |',
        '| next_token | string or null | required; cursor of the next page, null when there is none |',
      ],
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        // Every page of a walk, then the whole collection at once (where next_token must be null, not absent).
        let token: string | null = null;
        for (let page = 1; page <= 4; page++) {
          const step = `resources.list page ${page}`;
          // The same pages other rules walk: the run asks for them once.
          const pageBody = listBody(ctx, { pagination: { limit: 3, next_token: token } });
          const res = await ctx.client.post('resources.list', pageBody, { shared: true });
          expectSuccess(res, { step, status: 200 });
          const envelope = expectJson(res, 'ListEnvelope', { step });
          if (envelope.next_token === null || envelope.data.length === 0) break;
          token = envelope.next_token;
        }
        const ids = await firstIds(ctx, 5);
        const step = 'resources.list with limit null';
        const whole = await ctx.client.post(
          'resources.list',
          listBody(ctx, { filters: [idsFilter(ids)], pagination: { limit: null, next_token: null } }),
        );
        expectSuccess(whole, { step, status: 200 });
        expectJson(whole, 'ListEnvelope', { step });
      },
    }),
    rule({
      id: 'pagination.limit-respected',
      clause: '§4.8 Response; §4.9 table',
      quote: [
        '| data | array of Resource | required; up to `limit` entries |',
        '`pagination.limit` is the maximum number of entries per page',
      ],
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        for (const limit of [1, 3, 7]) {
          // Each page is held to its limit by the list step, for this rule whichever rule reads it.
          const walk = await walkPages(ctx, listBody(ctx, { pagination: { limit, next_token: null } }), {
            maxPages: MAX_PAGES,
            stopAfterPages: 4,
          });
          // A collection no larger than the limit cannot show a page held to it.
          precondition(walk.resources > limit, `the listed kind holds no more than ${limit} resources`);
        }
      },
    }),
    rule({
      id: 'pagination.limit-null-whole-collection',
      clause: '§4.9 table; §8 Page size',
      quote: 'null returns the whole collection in one response',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        const ids = await firstIds(ctx, 9, { atLeast: 3 });
        const whole = await listPage(
          ctx,
          listBody(ctx, { filters: [idsFilter(ids)], pagination: { limit: null, next_token: null } }),
        );
        if (whole.next_token !== null) {
          fail({
            where: 'response.body.next_token',
            message: 'must be null when limit is null (one response holds the whole collection)',
            expected: null,
            actual: whole.next_token,
          });
        }
        expectEveryId(ids, new Set(whole.data.map((r) => r.id)), {
          where: 'response.body.data',
          message: 'must hold every resource of the collection when limit is null',
        });
      },
    }),
    rule({
      id: 'pagination.each-resource-once',
      clause: '§4.9 rules 1-3',
      quote: [
        'The first request carries `next_token` null and an explicit `limit`.',
        'Each following request repeats the same request, with only `next_token` replaced by the value from the previous response.',
        'Iteration stops when the response has `next_token` null or an empty `data` array.',
      ],
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        // Each limit must yield the same set, each resource once and the iteration must end. Big
        // collections are walked with larger pages, so memory stays bounded by the ids seen and the
        // request count by the collection size: 20,000 pages of 500 before a walk counts as endless.
        // One table of every id for all the walks, a bit per walk: a Set per walk held over a hundred
        // bytes an id, and a million resources did not fit in the suite's memory.
        const seenIds = new SeenIds();
        let walks = 0;
        // Within one walk, a repeated resource, a token that comes back and pages that never end are
        // judged by the walk itself (walkPages, owned by this rule whichever rule walks).
        const walk = async (limit: number, maxPages: number) => {
          const bit = 1 << walks++;
          await walkPages(ctx, listBody(ctx, { pagination: { limit, next_token: null } }), {
            maxPages,
            seen: { ids: seenIds, walk: bit },
          });
          return { bit, size: seenIds.countOf(bit, bit) };
        };
        const reference = await walk(500, 20_000);
        // Smaller pages over the whole collection: every page boundary is a chance for an off-by-one
        // (a page size that divides nothing evenly finds other ones; a big collection gets two).
        const limits = reference.size > 2_000 ? [137] : reference.size > 400 ? [10, 4] : [8];
        for (const limit of limits) {
          const seen = await walk(limit, Math.ceil(reference.size / limit) + 3);
          const both = reference.bit | seen.bit;
          const missing = seenIds.idsOf(both, reference.bit, 5);
          const extra = seenIds.idsOf(both, seen.bit, 5);
          if (missing.length > 0 || extra.length > 0) {
            fail({
              where: `limit ${limit}`,
              message: 'must yield every resource of the collection exactly once, the same set whatever the limit',
              expected: `${reference.size} resources (as with limit 500)`,
              actual: `${seen.size} resources; missing ${missing.join(', ') || 'none'}; extra ${extra.join(', ') || 'none'}`,
            });
          }
        }
        // Pages of a single resource, over a filtered handful: the smallest page there is.
        const handful = seenIds.idsOf(reference.bit, reference.bit, 5);
        const single = new Set<string>();
        await walkPages(
          ctx,
          listBody(ctx, { filters: [idsFilter(handful)], pagination: { limit: 1, next_token: null } }),
          {
            maxPages: handful.length + 3,
            onPage(page) {
              for (const r of page.data) single.add(r.id);
            },
          },
        );
        expectEveryId(handful, single, {
          where: 'limit 1, ids filter of 5',
          message: 'must yield every resource of the collection exactly once, the same set whatever the limit',
        });
      },
    }),
    rule({
      id: 'pagination.exact-multiple-empty-page',
      clause: '§4.9 rule 4',
      quote:
        'When the collection size is an exact multiple of `limit`, the last full page still carries a non-null `next_token` and the next page is empty.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        const ids = await firstIds(ctx, 6, { atLeast: 6 });
        for (const limit of [2, 3, 6]) {
          const pages: Array<{ size: number; token: string | null }> = [];
          await walkPages(ctx, listBody(ctx, { filters: [idsFilter(ids)], pagination: { limit, next_token: null } }), {
            maxPages: 6 / limit + 3,
            onPage: (page) => pages.push({ size: page.data.length, token: page.next_token }),
          });
          const full = 6 / limit;
          const lastFull = pages[full - 1];
          if (!lastFull || lastFull.token === null) {
            fail({
              where: `limit ${limit}, page ${full}.next_token`,
              message: 'must not be null on the last full page when the size is an exact multiple of limit',
              expected: 'a token',
              actual: lastFull?.token ?? '(no such page)',
            });
          }
          const trailing = pages[full];
          if (!trailing || trailing.size !== 0) {
            fail({
              where: `limit ${limit}, page ${full + 1}.data`,
              message: 'must be empty after the last full page',
              expected: [],
              actual: trailing ? `${trailing.size} entries` : '(no such page)',
            });
          }
        }
      },
    }),
    rule({
      id: 'pagination.changed-filters-422',
      clause: '§4.9 rule 5; §7',
      quote:
        '`filters` and `orders` must be identical in every request of an iteration; otherwise the request fails with status 422.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        const { body, token } = await realToken(ctx);
        const others = await firstIds(ctx, 8);
        const next = { limit: 2, next_token: token };
        await expectRejected(
          () =>
            ctx.client.post(
              'resources.list',
              { ...body, filters: [idsFilter(others.slice(0, 5))], pagination: next },
              { retry: 'judged' },
            ),
          { step: 'a next page whose filters changed', status: 422 },
        );
        await expectRejected(
          () => ctx.client.post('resources.list', { ...body, filters: [], pagination: next }, { retry: 'judged' }),
          {
            step: 'a next page whose filters were removed',
            status: 422,
          },
        );
      },
    }),
    rule({
      id: 'pagination.changed-orders-422',
      clause: '§4.9 rule 5; §7',
      quote:
        '`filters` and `orders` must be identical in every request of an iteration; otherwise the request fails with status 422.',
      level: 'MUST',
      needs: ['listKind', 'sortAttribute'],
      async check(ctx) {
        const orders = [ascendingOn(ctx.sortAttribute)];
        const ordered = await realToken(ctx, { orders });
        await expectRejected(
          () =>
            ctx.client.post(
              'resources.list',
              {
                ...ordered.body,
                orders: [],
                pagination: { limit: 2, next_token: ordered.token },
              },
              { retry: 'judged' },
            ),
          { step: 'a next page whose orders were removed', status: 422 },
        );
        const plain = await realToken(ctx);
        await expectRejected(
          () =>
            ctx.client.post(
              'resources.list',
              {
                ...plain.body,
                orders,
                pagination: { limit: 2, next_token: plain.token },
              },
              { retry: 'judged' },
            ),
          { step: 'a next page whose orders were added', status: 422 },
        );
      },
    }),
    rule({
      id: 'pagination.malformed-token-422',
      clause: '§4.9 rule 6; §7',
      quote: '`next_token` is opaque: a token that is malformed or built by hand fails with status 422.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        for (const token of ['not-a-token', '%%%', '""', 'eyJ']) {
          await expectRejected(
            () =>
              ctx.client.post('resources.list', listBody(ctx, { pagination: { limit: 2, next_token: token } }), {
                retry: 'judged',
              }),
            { step: `a malformed next_token ${JSON.stringify(token)}`, status: 422 },
          );
        }
      },
    }),
    rule({
      id: 'pagination.hand-built-token-422',
      clause: '§4.9 rule 6; §7',
      quote: '`next_token` is opaque: a token that is malformed or built by hand fails with status 422.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
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
          await expectRejected(
            () =>
              ctx.client.post(
                'resources.list',
                { ...body, pagination: { limit: 2, next_token: forged } },
                { retry: 'judged' },
              ),
            { step: `a hand-built or altered next_token ${JSON.stringify(forged.slice(0, 40))}`, status: 422 },
          );
        }
      },
    }),
    rule({
      id: 'pagination.stable-with-orders',
      clause: '§4.9 rule 7',
      quote: 'The cursor derives from the sorted values, so explicit `orders` give stable pages.',
      level: 'MUST',
      needs: ['listKind', 'sortAttribute'],
      async check(ctx) {
        const body = listBody(ctx, { orders: [ascendingOn(ctx.sortAttribute)], attributes: [ctx.sortAttribute] });
        const walk = async (filters: Filter[], limit: number) => {
          const ids: string[] = [];
          const values = new Map<string, string | undefined>();
          await walkPages(
            ctx,
            { ...body, ...(filters.length > 0 ? { filters } : {}), pagination: { limit, next_token: null } },
            {
              maxPages: MAX_PAGES,
              onPage(page) {
                for (const r of page.data) {
                  ids.push(r.id);
                  values.set(r.id, attributeText(r, ctx.sortAttribute));
                }
              },
            },
          );
          return { ids, values };
        };
        const compare = (first: readonly string[], other: readonly string[], message: string, where: string) => {
          const at = firstDifference(first, other);
          if (at >= 0) fail({ where: `${where}position ${at}`, message, expected: first[at], actual: other[at] });
        };
        // The whole ordered collection in big pages, for its ties: where a cursor that does not derive from the
        // sorted values goes wrong is among resources that tie on the sort value, in pages that end
        // inside each tie. Those are walked with two page sizes whose boundaries differ.
        const whole = await walk([], 50);
        const ties = tiedRuns(whole.ids, whole.values).slice(0, 4).flat().slice(0, 9);
        precondition(ties.length > 0, `no two resources share a value of ${ctx.sortAttribute}: ties cannot be shown`);
        const tied = await walk([idsFilter(ties)], 1);
        compare(
          tied.ids,
          (await walk([idsFilter(ties)], 3)).ids,
          'must give the same order whatever the page size, for the same orders (limit 1 vs limit 3)',
          `ids filter of ${ties.length} tied resources, `,
        );
        const missing = ties.filter((id) => !tied.ids.includes(id));
        if (missing.length > 0) {
          fail({
            where: `ids filter of ${ties.length} tied resources, limit 1`,
            message: 'must yield every resource once, ties on the sort value included',
            expected: ties,
            actual: tied.ids,
          });
        }
      },
    }),
  ],
});
