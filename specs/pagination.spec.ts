/**
 * §4.9 Pagination protocol, as used by resources.list (§4.8).
 */
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import { expectRejected, fail } from '../src/rules/expect.ts';
import { listPage, pageThrough, precondition, type ListBody } from '../src/rules/operations.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { listKindId } from '../src/target/profile.ts';

/** Pages are never followed past this; a server that keeps going is caught. */
const MAX_PAGES = 5_000;

function baseBody(ctx: CheckContext, extra: Partial<ListBody> = {}): ListBody {
  const kind = listKindId(ctx.profile);
  precondition(kind, 'the target profile names no kind to list');
  return { kind_id: kind, ...extra };
}

/** The ids of the first n resources of the listed kind. */
export async function someIds(ctx: CheckContext, n: number): Promise<string[]> {
  const page = await listPage(ctx.client, baseBody(ctx, { pagination: { limit: n, next_token: null } }));
  return page.data.map((r) => r.id);
}

function idsFilter(ids: string[]): unknown[] {
  return [{ key: 'resource.ids', value: ids }];
}

function ordersOn(attribute: string): unknown[] {
  return [{ key: 'resource.attribute', direction: 'asc', attribute }];
}

/** A token from a real first page of a filtered iteration, with the body that produced it. */
async function realToken(ctx: CheckContext, orders?: unknown[]): Promise<{ body: ListBody; token: string }> {
  const ids = await someIds(ctx, 6);
  precondition(ids.length >= 4, 'the listed kind has fewer than 4 resources');
  const body = baseBody(ctx, {
    filters: idsFilter(ids),
    ...(orders ? { orders } : {}),
    pagination: { limit: 2, next_token: null },
  });
  const first = await listPage(ctx.client, body, 'first page');
  if (first.next_token === null) {
    fail('page 1.next_token', 'must not be null while more resources match than `limit`', 'a token', null);
  }
  return { body, token: first.next_token };
}

export default defineRuleGroup({
  section: '§4.9',
  title: 'Pagination protocol',
  rules: [
    rule({
      id: 'pagination.envelope',
      clause: '§4.8 Response',
      sentence:
        'Response: status 200, envelope: `data` (array of Resource, required) and `next_token` (string or null, required).',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        // listPage validates status 200 and the envelope schema, on a page with a
        // next page and on a whole collection (where next_token must be null, not absent).
        const ids = await someIds(ctx, 5);
        await listPage(
          ctx.client,
          baseBody(ctx, { filters: idsFilter(ids), pagination: { limit: null, next_token: null } }),
        );
      },
    }),
    rule({
      id: 'pagination.limit-respected',
      clause: '§4.8 Response; §4.9 table',
      sentence: '`data`: up to `limit` entries. `limit`: maximum entries in this page.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        // listPage fails a page larger than its limit (a check every paging rule relies on).
        for (const limit of [1, 3, 7]) {
          await pageThrough(ctx.client, baseBody(ctx, { pagination: { limit, next_token: null } }), {
            maxPages: MAX_PAGES,
            stopAfterPages: 4,
          });
        }
      },
    }),
    rule({
      id: 'pagination.limit-null-whole-collection',
      clause: '§4.9 table; §8 Page size',
      sentence: '`limit`: null returns the whole collection in one response.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        const ids = await someIds(ctx, 9);
        precondition(ids.length >= 3, 'the listed kind has fewer than 3 resources');
        const whole = await listPage(
          ctx.client,
          baseBody(ctx, { filters: idsFilter(ids), pagination: { limit: null, next_token: null } }),
        );
        if (whole.next_token !== null)
          fail(
            'response.body.next_token',
            'must be null when limit is null (one response holds the whole collection)',
            null,
            whole.next_token,
          );
        const got = new Set(whole.data.map((r) => r.id));
        const missing = ids.filter((id) => !got.has(id));
        if (missing.length > 0)
          fail('response.body.data', 'must hold every resource of the collection when limit is null', ids, [...got]);
      },
    }),
    rule({
      id: 'pagination.each-resource-once',
      clause: '§4.9 rules 1-3',
      sentence:
        'The first request carries `next_token` null and an explicit `limit`. Each following request repeats the same request, with only `next_token` replaced. Iteration stops when the response has `next_token` null or an empty `data` array.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        // Each limit must yield the same set, each resource once. The sets are
        // compared with each other (not with limit null, which has its own rule).
        // Big collections are walked with larger pages, so memory stays bounded by
        // the ids seen and the request count by the collection size.
        // 20,000 pages of 500: ten million resources before a walk counts as endless.
        const reference = { limit: 500, ids: await idsPagedWith(ctx, 500, 20_000) };
        const limits = reference.ids.size > 2_000 ? [137] : reference.ids.size > 200 ? [10, 4] : [10, 4, 1];
        for (const limit of limits) {
          const seen = await idsPagedWith(ctx, limit, Math.ceil(reference.ids.size / limit) + 3);
          const missing = [...reference.ids].filter((id) => !seen.has(id));
          const extra = [...seen].filter((id) => !reference.ids.has(id));
          if (missing.length > 0 || extra.length > 0) {
            fail(
              `limit ${limit}`,
              `must yield every resource of the collection exactly once, the same set whatever the limit`,
              `${reference.ids.size} resources (as with limit ${reference.limit})`,
              `${seen.size} resources; missing ${missing.slice(0, 5).join(', ') || 'none'}; extra ${extra.slice(0, 5).join(', ') || 'none'}`,
            );
          }
        }
      },
    }),
    rule({
      id: 'pagination.exact-multiple-empty-page',
      clause: '§4.9 rule 4',
      sentence:
        'When the collection size is an exact multiple of `limit`, the last full page still carries a non-null `next_token` and the next page is empty.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        const ids = await someIds(ctx, 6);
        precondition(ids.length === 6, 'the listed kind has fewer than 6 resources');
        for (const limit of [2, 3, 6]) {
          const pages: Array<{ size: number; token: string | null }> = [];
          await pageThrough(
            ctx.client,
            baseBody(ctx, { filters: idsFilter(ids), pagination: { limit, next_token: null } }),
            {
              maxPages: 6 / limit + 3,
              onPage(page) {
                pages.push({ size: page.data.length, token: page.next_token });
              },
            },
          );
          const full = 6 / limit;
          const lastFull = pages[full - 1];
          if (!lastFull || lastFull.token === null) {
            fail(
              `limit ${limit}, page ${full}.next_token`,
              'must not be null on the last full page when the size is an exact multiple of limit',
              'a token',
              lastFull?.token ?? '(no such page)',
            );
          }
          const trailing = pages[full];
          if (!trailing || trailing.size !== 0) {
            fail(
              `limit ${limit}, page ${full + 1}.data`,
              'must be empty after the last full page',
              [],
              trailing ? `${trailing.size} entries` : '(no such page)',
            );
          }
        }
      },
    }),
    rule({
      id: 'pagination.changed-filters-422',
      clause: '§4.9 rule 5; §7',
      sentence:
        '`filters` and `orders` must be identical in every request of an iteration; otherwise the request fails with status 422.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        const { body, token } = await realToken(ctx);
        const others = await someIds(ctx, 8);
        const changed = {
          ...body,
          filters: idsFilter(others.slice(0, 5)),
          pagination: { limit: 2, next_token: token },
        };
        expectRejected(await ctx.client.post('resources.list', changed), 'a next page whose filters changed', 422);
        const dropped = { ...body, filters: [], pagination: { limit: 2, next_token: token } };
        expectRejected(await ctx.client.post('resources.list', dropped), 'a next page whose filters were removed', 422);
      },
    }),
    rule({
      id: 'pagination.changed-orders-422',
      clause: '§4.9 rule 5; §7',
      sentence:
        '`filters` and `orders` must be identical in every request of an iteration; otherwise the request fails with status 422.',
      level: 'MUST',
      needs: ['listKind', 'sortAttribute'],
      async check(ctx) {
        const { body, token } = await realToken(ctx, ordersOn(ctx.profile.sortAttribute!));
        const removed = { ...body, orders: [], pagination: { limit: 2, next_token: token } };
        expectRejected(await ctx.client.post('resources.list', removed), 'a next page whose orders were removed', 422);
        const { body: unordered, token: plainToken } = await realToken(ctx);
        const added = {
          ...unordered,
          orders: ordersOn(ctx.profile.sortAttribute!),
          pagination: { limit: 2, next_token: plainToken },
        };
        expectRejected(await ctx.client.post('resources.list', added), 'a next page whose orders were added', 422);
      },
    }),
    rule({
      id: 'pagination.malformed-token-422',
      clause: '§4.9 rule 6; §7',
      sentence: '`next_token` is opaque: a token that is malformed or built by hand fails with status 422.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        for (const token of ['not-a-token', '%%%', '""', 'eyJ']) {
          const res = await ctx.client.post(
            'resources.list',
            baseBody(ctx, { pagination: { limit: 2, next_token: token } }),
          );
          expectRejected(res, `a malformed next_token ${JSON.stringify(token)}`, 422);
        }
      },
    }),
    rule({
      id: 'pagination.hand-built-token-422',
      clause: '§4.9 rule 6; §7',
      sentence: '`next_token` is opaque: a token that is malformed or built by hand fails with status 422.',
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
          const res = await ctx.client.post('resources.list', {
            ...body,
            pagination: { limit: 2, next_token: forged },
          });
          expectRejected(res, `a hand-built or altered next_token ${JSON.stringify(forged.slice(0, 40))}`, 422);
        }
      },
    }),
    rule({
      id: 'pagination.stable-with-orders',
      clause: '§4.9 rule 7',
      sentence: 'The cursor derives from the sorted values, so explicit `orders` give stable pages.',
      level: 'MUST',
      needs: ['listKind', 'sortAttribute'],
      async check(ctx) {
        const body = baseBody(ctx, {
          orders: ordersOn(ctx.profile.sortAttribute!),
          attributes: [ctx.profile.sortAttribute!],
        });
        const runs: string[][] = [];
        for (let i = 0; i < 2; i++) {
          const seq: string[] = [];
          await pageThrough(
            ctx.client,
            { ...body, pagination: { limit: 7, next_token: null } },
            {
              maxPages: MAX_PAGES,
              onPage: (page) => seq.push(...page.data.map((r) => r.id)),
            },
          );
          runs.push(seq);
        }
        const other: string[] = [];
        await pageThrough(
          ctx.client,
          { ...body, pagination: { limit: 3, next_token: null } },
          {
            maxPages: MAX_PAGES,
            onPage: (page) => other.push(...page.data.map((r) => r.id)),
          },
        );
        const [a, b] = runs as [string[], string[]];
        const firstDiff = (x: string[], y: string[]): number => {
          const n = Math.max(x.length, y.length);
          for (let i = 0; i < n; i++) if (x[i] !== y[i]) return i;
          return -1;
        };
        const ab = firstDiff(a, b);
        if (ab >= 0)
          fail(
            `position ${ab}`,
            'must give the same sequence when the same ordered iteration is repeated',
            a[ab],
            b[ab],
          );
        const ao = firstDiff(a, other);
        if (ao >= 0)
          fail(
            `position ${ao}`,
            'must give the same order whatever the page size, for the same orders (limit 7 vs limit 3)',
            a[ao],
            other[ao],
          );
      },
    }),
  ],
});

/** Pages through the listed kind; pageThrough fails on a repeat or a run that never ends. */
async function idsPagedWith(ctx: CheckContext, limit: number, maxPages = MAX_PAGES): Promise<Set<string>> {
  return new Set(
    await pageThrough(ctx.client, baseBody(ctx, { pagination: { limit, next_token: null } }), { maxPages }),
  );
}

/** Alters one character in the middle of a token (a middle base64 character always changes the bytes). */
function tamper(token: string): string {
  const i = Math.floor(token.length / 2);
  const c = token[i] === 'A' ? 'B' : 'A';
  return token.slice(0, i) + c + token.slice(i + 1);
}
