/**
 * §4.8 resources.list: the request fields and what each adds to the answer.
 */
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { expectEach, expectJson, expectRejected, expectSuccess, fail, precondition } from '../src/rules/assertions.ts';
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
import type { ListRequest } from '../src/schemas/index.ts';
import { validateSchema } from '../src/schemas/index.ts';

/** The first `n` resources of a page of the listed kind (or of `extra.kind_id`). */
async function firstPage(ctx: CheckContext<'listKind'>, n: number, extra: Partial<ListRequest> = {}) {
  return (await listPage(ctx, listBody(ctx, { ...extra, pagination: { limit: n, next_token: null } }))).data;
}

/** `with_teams` / `with_relations`: the flag adds the field, an array, to each resource. */
function addsArrayToEachResource(field: 'teams' | 'relations', id: string, clause: string, quote: string) {
  const flag = `with_${field}` as const;
  return rule({
    id,
    clause,
    quote,
    level: 'MUST',
    needs: ['listKind'],
    async check(ctx) {
      const data = await firstPage(ctx, 10, { [flag]: true });
      expectEach(data, (r, i) =>
        Array.isArray(r[field])
          ? undefined
          : {
              where: `response.body.data[${i}].${field}`,
              message: `must be an array when ${flag} is true`,
              expected: 'array',
              actual: r[field],
            },
      );
    },
  });
}

export default defineRuleGroup({
  section: '§4.8',
  title: 'resources.list',
  rules: [
    rule({
      id: 'list.kind-id-required',
      clause: '§4.8 Request body',
      quote: '| kind_id | Snowflake | none | required |',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        await expectRejected(() => ctx.client.post('resources.list', { pagination: { limit: 5, next_token: null } }), {
          step: 'a list request without kind_id',
        });
      },
    }),
    rule({
      id: 'list.resources-of-the-kind',
      clause: '§4.8',
      quote: 'Lists resources of a kind.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        for (const kind of ctx.profile.kinds) {
          const data = await firstPage(ctx, 25, { kind_id: kind.id });
          const stray = data.filter((r) => r.kind_id !== kind.id);
          if (stray.length > 0) {
            fail({
              where: `kind ${kind.name}: response.body.data`,
              message: 'must hold only resources of the requested kind',
              expected: kind.id,
              actual: stray.slice(0, 3).map((r) => `${r.id} of kind ${String(r.kind_id)}`),
            });
          }
        }
        precondition((await firstPage(ctx, 1)).length > 0, 'the listed kind has no resources');
      },
    }),
    rule({
      id: 'list.resource-shape',
      clause: '§2.2',
      quote: [
        '| id | Snowflake | |',
        '| kind_id | Snowflake | kind of the resource |',
        '| label | string | |',
        '| short_label | string | |',
        '| sort_label | string | |',
        '| picture | object | fields `shape` (string, value `round` is used), `initial` (string), `url` (string) |',
        '| attributes | object | attributes of the resource; the response carries those requested through `attributes` |',
      ],
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        const res = await ctx.client.post(
          'resources.list',
          listBody(ctx, { with_teams: true, with_relations: true, pagination: { limit: 20, next_token: null } }),
        );
        expectSuccess(res, { step: 'resources.list', status: 200 });
        const page = expectJson(res, 'ListEnvelope');
        expectEach(page.data, (r, i) => validateSchema('Resource', r, `response.body.data[${i}]`));
      },
    }),
    rule({
      id: 'list.ids-filter',
      clause: '§4.8 Filter shapes',
      quote: '| `resource.ids` | array of Snowflake |',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        const ids = await firstIds(ctx, 10, { atLeast: 3 });
        const wanted = [ids[0]!, ids[2]!, ids[ids.length - 1]!];
        const data = await firstPage(ctx, 20, { filters: [idsFilter(wanted)] });
        const got = data.map((r) => r.id).sort();
        if (JSON.stringify(got) !== JSON.stringify([...wanted].sort())) {
          fail({
            where: 'response.body.data',
            message: 'must hold exactly the resources whose ids are in the resource.ids filter',
            expected: [...wanted].sort(),
            actual: got,
          });
        }
      },
    }),
    rule({
      id: 'list.text-filter-starts-with',
      clause: '§4.8 Filter shapes',
      quote:
        '| `resource.text` | object with `attribute` (string), `operator` (string, `starts_with` is used), `value` (string) |',
      level: 'MUST',
      needs: ['listKind', 'sortAttribute'],
      async check(ctx) {
        const attribute = ctx.sortAttribute;
        const sample = await firstPage(ctx, 20, { attributes: [attribute] });
        const value = sample.map((r) => attributeText(r, attribute)).find((v) => v && v.length >= 2);
        precondition(value, `no resource of the listed kind has a text value for ${attribute}`);
        const prefix = value.slice(0, 2);
        const matched = new Set<string>();
        const body = listBody(ctx, {
          attributes: [attribute],
          filters: [startsWithFilter(attribute, prefix)],
          pagination: { limit: 50, next_token: null },
        });
        await walkPages(ctx, body, {
          maxPages: 10_000,
          onPage(page) {
            for (const r of page.data) matched.add(r.id);
            // Case handling of starts_with is not shown: compare without case.
            expectEach(page.data, (r) => {
              const text = attributeText(r, attribute);
              return text !== undefined && text.toLowerCase().startsWith(prefix.toLowerCase())
                ? undefined
                : {
                    where: `resource ${r.id}.attributes.${attribute}`,
                    message: `must start with "${prefix}" to pass the starts_with filter`,
                    expected: `${prefix}…`,
                    actual: text,
                  };
            });
          },
        });
        // Every resource whose value starts with the prefix exactly must be found.
        const lost = sample.filter((r) => attributeText(r, attribute)?.startsWith(prefix) && !matched.has(r.id));
        if (lost.length > 0) {
          fail({
            where: 'response.body.data',
            message: `must include every resource whose ${attribute} starts with "${prefix}"`,
            expected: lost.map((r) => r.id),
            actual: [...matched],
          });
        }
      },
    }),
    rule({
      id: 'list.orders-ascending',
      clause: '§4.8 Order shape',
      quote:
        'Order shape: `key` is `resource.attribute`, `direction` is `asc` (as used), `attribute` is the attribute name sorted on.',
      level: 'MUST',
      needs: ['listKind', 'sortAttribute'],
      async check(ctx) {
        let previous: string | undefined;
        const attribute = ctx.sortAttribute;
        const body = listBody(ctx, {
          attributes: [attribute],
          orders: [ascendingOn(attribute)],
          pagination: { limit: 25, next_token: null },
        });
        await walkPages(ctx, body, {
          maxPages: 10_000,
          onPage(page, index) {
            for (const r of page.data) {
              const value = attributeText(r, attribute);
              if (value === undefined) continue;
              // Collation is not shown: only a pair out of order by every usual collation is a departure.
              if (
                previous !== undefined &&
                previous > value &&
                previous.localeCompare(value, undefined, { sensitivity: 'base' }) > 0
              ) {
                fail({
                  where: `page ${index + 1}, resource ${r.id}`,
                  message: `must come in ascending order of ${attribute}`,
                  expected: `>= ${JSON.stringify(previous)}`,
                  actual: value,
                });
              }
              previous = value;
            }
          },
        });
      },
    }),
    rule({
      id: 'list.attributes-returned',
      clause: '§2.2 attributes; §4.8 attributes',
      quote: [
        '| attributes | array of string | | attribute names to return |',
        'the response carries those requested through `attributes`',
      ],
      level: 'MUST',
      needs: ['listKind', 'sortAttribute'],
      async check(ctx) {
        const attribute = ctx.sortAttribute;
        const data = await firstPage(ctx, 10, { attributes: [attribute] });
        expectEach(data, (r, i) =>
          attributeText(r, attribute) === undefined
            ? {
                where: `response.body.data[${i}].attributes`,
                message: `must carry the requested attribute ${attribute}`,
                expected: attribute,
                actual: r.attributes,
              }
            : undefined,
        );
      },
    }),
    addsArrayToEachResource(
      'teams',
      'list.with-teams',
      '§4.8 with_teams; §2.2 teams',
      '| with_teams | boolean | false | adds `teams` to each resource |',
    ),
    addsArrayToEachResource(
      'relations',
      'list.with-relations',
      '§4.8 with_relations; §2.2 relations',
      '| with_relations | boolean or null | false | adds `relations` to each resource |',
    ),
    rule({
      id: 'list.documented-values-accepted',
      clause: '§4.8 Request body',
      quote: [
        '| with_relations | boolean or null | false |',
        '| at_date | LocalDate | | |',
        'allowed values `strict`, `approximate`',
      ],
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        // Values the request table documents must be accepted (what they change is another rule's business).
        const documented: Partial<ListRequest>[] = [
          { with_relations: null },
          { at_date: '2024-02-29' },
          { counting_mode: 'strict', with_total_count: true },
        ];
        for (const extra of documented) {
          const res = await ctx.client.post(
            'resources.list',
            listBody(ctx, { ...extra, pagination: { limit: 2, next_token: null } }),
          );
          expectSuccess(res, { step: `resources.list with ${JSON.stringify(extra)}`, status: 200 });
        }
      },
    }),
    rule({
      id: 'list.total-count-of-filtered-set',
      clause: '§4.8 Response',
      quote: [
        '| total_count | integer | present only when `with_total_count` is true; number of resources matching the filters |',
        '| total_count_approximate | boolean | present when `with_total_count` is true |',
      ],
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        // Ids from further down the collection, so a page that ignores the filter shows it.
        const ids = (await firstIds(ctx, 14, { atLeast: 12 })).slice(7);
        const page = await listPage(
          ctx,
          listBody(ctx, {
            filters: [idsFilter(ids)],
            with_total_count: true,
            counting_mode: 'strict',
            pagination: { limit: 2, next_token: null },
          }),
        );
        if (page.total_count !== ids.length) {
          fail({
            where: 'response.body.total_count',
            message: 'must be the number of resources matching the filters (not of the page)',
            expected: ids.length,
            actual: page.total_count,
          });
        }
        if (typeof page.total_count_approximate !== 'boolean') {
          fail({
            where: 'response.body.total_count_approximate',
            message: 'must be present (a boolean) when with_total_count is true',
            expected: 'boolean',
            actual: page.total_count_approximate,
          });
        }
      },
    }),
    rule({
      id: 'list.total-count-only-when-asked',
      clause: '§4.8 Response',
      quote: '| total_count | integer | present only when `with_total_count` is true;',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        for (const extra of [{}, { with_total_count: false }]) {
          const page = await listPage(ctx, listBody(ctx, { ...extra, pagination: { limit: 3, next_token: null } }));
          if ('total_count' in page) {
            fail({
              where: 'response.body.total_count',
              message: 'must be absent unless with_total_count is true',
              expected: '(absent)',
              actual: page.total_count,
            });
          }
        }
      },
    }),
    rule({
      id: 'list.counting-mode-approximate',
      clause: '§4.8 counting_mode',
      quote: [
        'allowed values `strict`, `approximate`; trades accuracy of the total for speed',
        'Default of `counting_mode`: not shown.',
      ],
      level: 'OBSERVED',
      needs: ['listKind'],
      async check(ctx) {
        const pagination = { limit: 1, next_token: null };
        const approximate = await listPage(
          ctx,
          listBody(ctx, { with_total_count: true, counting_mode: 'approximate', pagination }),
        );
        ctx.observe('approximate counting: total_count and total_count_approximate', {
          total_count: approximate.total_count,
          total_count_approximate: approximate.total_count_approximate,
        });
        const unset = await listPage(ctx, listBody(ctx, { with_total_count: true, pagination }));
        ctx.observe('counting_mode omitted: total_count_approximate', unset.total_count_approximate);
      },
    }),
    rule({
      id: 'list.without-pagination',
      clause: '§4.9; §8',
      quote: '| pagination | object | | see section 8 |',
      open: 'the request table gives `pagination` no default and does not mark it required: what a list without it returns is not described',
      level: 'OBSERVED',
      needs: ['listKind'],
      async check(ctx) {
        const res = await ctx.client.post('resources.list', listBody(ctx));
        const json = typeof res.json === 'object' && res.json !== null ? (res.json as Record<string, unknown>) : {};
        ctx.observe('list without pagination object', {
          status: res.status,
          entries: Array.isArray(json.data) ? json.data.length : undefined,
          next_token: json.next_token === null ? null : typeof json.next_token,
        });
      },
    }),
  ],
});
