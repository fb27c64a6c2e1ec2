/**
 * §4.9 as properties: for any page size, any query and any tampering.
 */
import fc from 'fast-check';
import { listQueryChange, paginationLimit, tamperedToken } from '../src/arbitraries/index.ts';
import { checkProperty } from '../src/rules/check-property.ts';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { listPage, pageThrough, precondition, type ListBody } from '../src/rules/operations.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { expectRejected, fail } from '../src/rules/expect.ts';
import { listKindId } from '../src/target/profile.ts';

async function pool(ctx: CheckContext, n: number): Promise<{ kind: string; ids: string[] }> {
  const kind = listKindId(ctx.profile);
  precondition(kind, 'the target profile names no kind to list');
  const page = await listPage(ctx.client, { kind_id: kind, pagination: { limit: n, next_token: null } });
  precondition(page.data.length >= 4, 'the listed kind has fewer than 4 resources');
  return { kind, ids: page.data.map((r) => r.id) };
}

export default defineRuleGroup({
  section: '§4.9',
  title: 'Pagination properties',
  rules: [
    property({
      id: 'pagination.prop.any-limit-once',
      clause: '§4.9 rules 1-4',
      sentence:
        'For any limit: each following request repeats the same request with only next_token replaced; iteration stops on next_token null or an empty data array; when the size is an exact multiple of limit, the last full page carries a token and the next page is empty.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        const { kind, ids } = await pool(ctx, 20);
        const arbitrary = fc.record({
          limit: paginationLimit({ max: 12 }),
          subset: fc.subarray(ids, { minLength: 1 }),
        });
        await checkProperty(ctx, arbitrary, async ({ limit, subset }) => {
          const body: ListBody = {
            kind_id: kind,
            filters: [{ key: 'resource.ids', value: subset }],
            pagination: { limit, next_token: null },
          };
          const sizes: Array<{ size: number; token: string | null }> = [];
          const seen = await pageThrough(ctx.client, body, {
            maxPages: subset.length + 3,
            onPage: (p) => sizes.push({ size: p.data.length, token: p.next_token }),
          });
          const missing = subset.filter((id) => !seen.includes(id));
          if (missing.length > 0 || seen.length !== subset.length)
            fail('pages', 'must yield every filtered resource exactly once', subset.length, seen.length);
          if (subset.length % limit === 0) {
            const last = sizes[subset.length / limit - 1];
            const after = sizes[subset.length / limit];
            if (!last || last.token === null)
              fail(
                'last full page',
                'must carry a next_token when the size is an exact multiple of limit',
                'a token',
                null,
              );
            if (!after || after.size !== 0)
              fail('page after the last full page', 'must be empty', 0, after?.size ?? '(none)');
          }
        });
      },
    }),
    property({
      id: 'pagination.prop.changed-query-422',
      clause: '§4.9 rule 5; §7',
      sentence:
        '`filters` and `orders` must be identical in every request of an iteration; otherwise the request fails with status 422.',
      level: 'MUST',
      needs: ['listKind', 'sortAttribute'],
      async check(ctx) {
        const { kind, ids } = await pool(ctx, 12);
        const attribute = ctx.profile.sortAttribute!;
        const names = (
          await listPage(ctx.client, {
            kind_id: kind,
            attributes: [attribute],
            pagination: { limit: 20, next_token: null },
          })
        ).data
          .map((r) => r.attributes?.[attribute])
          .filter((v): v is string => typeof v === 'string' && v.length > 0);
        const prefixes = [...new Set(names.map((n) => n.slice(0, 1)))];
        precondition(prefixes.length > 0, `no text value of ${attribute} to filter on`);
        await checkProperty(ctx, listQueryChange({ ids, attribute, prefixes }), async ([a, b]) => {
          const first = await listPage(ctx.client, { kind_id: kind, ...a, pagination: { limit: 1, next_token: null } });
          fc.pre(first.next_token !== null);
          const res = await ctx.client.post('resources.list', {
            kind_id: kind,
            ...b,
            pagination: { limit: 1, next_token: first.next_token },
          });
          expectRejected(res, 'a next page whose filters or orders changed', 422);
        });
      },
    }),
    property({
      id: 'pagination.prop.tampered-token-422',
      clause: '§4.9 rule 6; §7',
      sentence: '`next_token` is opaque: a token that is malformed or built by hand fails with status 422.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        const { kind, ids } = await pool(ctx, 8);
        const body: ListBody = {
          kind_id: kind,
          filters: [{ key: 'resource.ids', value: ids }],
          pagination: { limit: 2, next_token: null },
        };
        const first = await listPage(ctx.client, body);
        precondition(first.next_token !== null, 'the first page of a filtered list has no next_token');
        const token = first.next_token;
        await checkProperty(ctx, tamperedToken(), async (t) => {
          const forged = t.apply(token);
          const res = await ctx.client.post('resources.list', {
            ...body,
            pagination: { limit: 2, next_token: forged },
          });
          expectRejected(res, `a next_token altered by "${t.name}"`, 422);
        });
      },
    }),
  ],
});
