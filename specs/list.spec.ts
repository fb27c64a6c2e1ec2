/**
 * §4.8 resources.list: the request fields and what each adds to the answer,
 * on every page of a walk, with several values of each list input.
 */
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import type { CheckContext } from '../src/rules/types.ts';
import {
  expectEach,
  expectJson,
  expectRejected,
  expectSuccess,
  fail,
  owned,
  precondition,
} from '../src/rules/assertions.ts';
import {
  ascendingOn,
  attributeText,
  idsAcross,
  idsFilter,
  listBody,
  listPage,
  startsWithFilter,
  walkPages,
  type ListResource,
} from '../src/rules/steps/list.ts';
import type { Violation } from '../src/core/types.ts';
import { recordOf } from '../src/rules/json-values.ts';
import { enoughPages, onEveryPage } from '../src/rules/steps/every-page.ts';
import { validateSchema, type ListEnvelope, type ListRequest } from '../src/schemas/index.ts';

type ListContext = CheckContext<'listKind'>;

/** Walks never go past this; a server that keeps paging is pagination.each-resource-once's business. */
const MAX_PAGES = 10_000;

/** Each resource of the page, with its place in the walk. */
function eachResource(
  page: ListEnvelope,
  index: number,
  check: (r: ListResource, where: string) => Violation | readonly Violation[] | undefined,
): void {
  expectEach(page.data, (r, i) => check(r, `page ${index + 1}: response.body.data[${i}]`));
}

/** `with_teams` / `with_relations`: the flag adds the field, an array, to each resource of every page. */
function addsArrayToEachResource(field: 'teams' | 'relations', id: string, clause: string, quote: string) {
  const flag = `with_${field}` as const;
  return rule({
    id,
    clause,
    quote,
    level: 'MUST',
    needs: ['listKind'],
    async check(ctx) {
      await onEveryPage(ctx, listBody(ctx, { [flag]: true }), 5, (page, index) =>
        eachResource(page, index, (r, where) =>
          Array.isArray(r[field])
            ? undefined
            : {
                where: `${where}.${field}`,
                message: `must be an array when ${flag} is true`,
                expected: 'array',
                actual: r[field],
              },
        ),
      );
    },
  });
}

/** The largest page size the target takes for a long walk (the maximum `limit` is not shown). */
async function largeLimit(ctx: ListContext): Promise<number> {
  for (const limit of [500, 100]) {
    const res = await ctx.client.post('resources.list', listBody(ctx, { pagination: { limit, next_token: null } }));
    if (res.status === 200) return limit;
    ctx.observe(`limit ${limit} refused`, res.status);
  }
  return 50;
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
        await expectRejected(
          () =>
            ctx.client.postRaw(
              'resources.list',
              { json: { pagination: { limit: 5, next_token: null } } },
              { retry: 'judged' },
            ),
          {
            step: 'a list request without kind_id',
          },
        );
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
          let filled = 0;
          await walkPages(
            ctx,
            { kind_id: kind.id, pagination: { limit: 8, next_token: null } },
            {
              maxPages: MAX_PAGES,
              stopAfterPages: 4,
              onPage(page, index) {
                if (page.data.length > 0) filled += 1;
                eachResource(page, index, (r, where) =>
                  r.kind_id === kind.id
                    ? undefined
                    : {
                        where: `kind ${kind.name}, ${where}.kind_id`,
                        message: 'must be of the requested kind',
                        expected: kind.id,
                        actual: r.kind_id,
                      },
                );
              },
            },
          );
          // Other kinds are looked at as far as they go; the listed kind must show every page.
          if (kind.id === ctx.listKindId) enoughPages(filled, 'the listed kind at limit 8');
        }
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
        // Every page read here, past the list step: its resources are this rule's clause, the envelope pagination.envelope's.
        let token: string | null = null;
        let filled = 0;
        for (let page = 1; page <= 4; page++) {
          const step = `resources.list page ${page}`;
          const body = listBody(ctx, {
            with_teams: true,
            with_relations: true,
            pagination: { limit: 7, next_token: token },
          });
          const res = await ctx.client.post('resources.list', body);
          const envelope = owned(ctx, 'pagination.envelope', () => {
            expectSuccess(res, { step, status: 200 });
            return expectJson(res, 'ListEnvelope', { step });
          });
          expectEach(envelope.data, (r, i) => validateSchema('Resource', r, `page ${page}: response.body.data[${i}]`));
          if (envelope.data.length > 0) filled += 1;
          if (envelope.next_token === null || envelope.data.length === 0) break;
          token = envelope.next_token;
        }
        enoughPages(filled, 'the walk at limit 7');
      },
    }),
    rule({
      id: 'list.ids-filter',
      clause: '§4.8 Filter shapes',
      quote: '| `resource.ids` | array of Snowflake |',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        // Seven ids from across the collection, in its order and reversed, over pages of two.
        const wanted = await idsAcross(ctx, 7);
        for (const order of [wanted, [...wanted].reverse()]) {
          const got: string[] = [];
          await walkPages(
            ctx,
            listBody(ctx, { filters: [idsFilter(order)], pagination: { limit: 2, next_token: null } }),
            {
              maxPages: MAX_PAGES,
              // A page holding an id outside the filter is caught by the list step, for this rule.
              onPage(page) {
                got.push(...page.data.map((r) => r.id));
              },
            },
          );
          const missing = wanted.filter((id) => !got.includes(id));
          if (missing.length > 0 || got.length !== wanted.length) {
            fail({
              where: `ids in the order ${order === wanted ? 'of the collection' : 'reversed'}: all pages`,
              message: 'must hold every resource whose id is in the resource.ids filter, once',
              expected: [...wanted].sort(),
              actual: [...got].sort(),
            });
          }
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
        const sample = (
          await listPage(ctx, listBody(ctx, { attributes: [attribute], pagination: { limit: 40, next_token: null } }))
        ).data;
        // The first letter most of the sample shares, so the filtered walk spans several pages.
        const initials = sample.map((r) => attributeText(r, attribute)?.slice(0, 1)).filter((v): v is string => !!v);
        const prefix = initials.sort(
          (a, b) => initials.filter((x) => x === b).length - initials.filter((x) => x === a).length,
        )[0];
        precondition(prefix, `no resource of the listed kind has a text value for ${attribute}`);
        const expected = sample.filter((r) => attributeText(r, attribute)?.startsWith(prefix));
        const limit = Math.max(1, Math.floor(expected.length / 3));
        const matched = new Set<string>();
        const body = listBody(ctx, { attributes: [attribute], filters: [startsWithFilter(attribute, prefix)] });
        await walkPages(
          ctx,
          { ...body, pagination: { limit, next_token: null } },
          {
            maxPages: MAX_PAGES,
            onPage(page, index) {
              for (const r of page.data) matched.add(r.id);
              // Case handling of starts_with is not shown: compare without case.
              eachResource(page, index, (r, where) => {
                const text = attributeText(r, attribute);
                return text !== undefined && text.toLowerCase().startsWith(prefix.toLowerCase())
                  ? undefined
                  : {
                      where: `${where}.attributes.${attribute}`,
                      message: `must start with "${prefix}" to pass the starts_with filter`,
                      expected: `${prefix}…`,
                      actual: text,
                    };
              });
            },
          },
        );
        const lost = expected.filter((r) => !matched.has(r.id));
        if (lost.length > 0) {
          fail({
            where: 'all pages',
            message: `must include every resource whose ${attribute} starts with "${prefix}"`,
            expected: expected.map((r) => r.id),
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
        let compared = 0;
        let filled = 0;
        const attribute = ctx.sortAttribute;
        const body = listBody(ctx, {
          attributes: [attribute],
          orders: [ascendingOn(attribute)],
          pagination: { limit: 25, next_token: null },
        });
        await walkPages(ctx, body, {
          maxPages: MAX_PAGES,
          onPage(page, index) {
            if (page.data.length > 0) filled += 1;
            for (const r of page.data) {
              const value = attributeText(r, attribute);
              if (value === undefined) continue;
              if (previous !== undefined) compared += 1;
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
        enoughPages(filled, 'the ordered walk at limit 25');
        precondition(compared > 0, `fewer than two resources carry ${attribute}: no order to judge`);
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
        // Up to four attributes the profile says every resource carries, in its order and reversed.
        const requested = [...new Set([ctx.sortAttribute, ...(ctx.profile.attributes ?? [])])].slice(0, 4);
        ctx.observe('attributes requested together', requested);
        for (const attributes of [requested, [...requested].reverse()]) {
          await onEveryPage(ctx, listBody(ctx, { attributes }), 5, (page, index) =>
            eachResource(page, index, (r, where) => {
              const absent = attributes.filter((a) => attributeText(r, a) === undefined);
              return absent.length === 0
                ? undefined
                : {
                    where: `attributes ${attributes.join(',')}, ${where}.attributes`,
                    message: `must carry every requested attribute (missing ${absent.join(', ')})`,
                    expected: attributes,
                    actual: r.attributes,
                  };
            }),
          );
        }
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
          { counting_mode: 'approximate', with_total_count: true },
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
        // Seven ids from across the collection: a count of the page, or of what remains, shows on some page.
        const ids = await idsAcross(ctx, 7);
        const body = listBody(ctx, { filters: [idsFilter(ids)], with_total_count: true, counting_mode: 'strict' });
        await onEveryPage(ctx, body, 2, (page, index) => {
          if (page.total_count !== ids.length) {
            fail({
              where: `page ${index + 1}: response.body.total_count`,
              message: 'must be the number of resources matching the filters (not of the page), on every page',
              expected: ids.length,
              actual: page.total_count,
            });
          }
          if (typeof page.total_count_approximate !== 'boolean') {
            fail({
              where: `page ${index + 1}: response.body.total_count_approximate`,
              message: 'must be present (a boolean) when with_total_count is true',
              expected: 'boolean',
              actual: page.total_count_approximate,
            });
          }
        });
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
          await onEveryPage(ctx, listBody(ctx, extra), 3, (page, index) => {
            if ('total_count' in page) {
              fail({
                where: `page ${index + 1}: response.body.total_count`,
                message: 'must be absent unless with_total_count is true',
                expected: '(absent)',
                actual: page.total_count,
              });
            }
          });
        }
      },
    }),
    rule({
      id: 'list.counts-agree',
      clause: '§4.8 Response; §4.9 table; §4.9 rule 3',
      quote: [
        'number of resources matching the filters',
        'null returns the whole collection in one response',
        'Iteration stops when the response has `next_token` null or an empty `data` array.',
      ],
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        // The same collection counted three ways, for the whole kind and for filtered sets, so a
        // cap (on a page, a count, a filter, a walk) shows when the collection is larger than it.
        const limit = await largeLimit(ctx);
        const attribute = ctx.profile.sortAttribute;
        const first = listBody(ctx, {
          attributes: attribute ? [attribute] : [],
          pagination: { limit, next_token: null },
        });
        const sample = (await listPage(ctx, first)).data;
        const initial = attribute
          ? sample.map((r) => attributeText(r, attribute)?.slice(0, 1)).find((v) => !!v)
          : undefined;
        // Ids taken from the listing exist, so their filter must match each of them: a cap on the
        // ids a filter reads would otherwise agree with itself three times.
        const listedIds = sample.slice(0, 150).map((r) => r.id);
        const collections: Array<{ name: string; filters: ListRequest['filters']; size?: number }> = [
          { name: 'the listed kind', filters: [] },
          {
            name: `ids filter of ${listedIds.length} listed ids`,
            filters: [idsFilter(listedIds)],
            size: listedIds.length,
          },
          ...(attribute && initial
            ? [{ name: `${attribute} starts with "${initial}"`, filters: [startsWithFilter(attribute, initial)] }]
            : []),
        ];
        for (const { name, filters, size } of collections) {
          const walked = await walkPages(ctx, listBody(ctx, { filters, pagination: { limit, next_token: null } }), {
            maxPages: MAX_PAGES,
          });
          const counted = await listPage(
            ctx,
            listBody(ctx, {
              filters,
              with_total_count: true,
              counting_mode: 'strict',
              pagination: { limit: 1, next_token: null },
            }),
          );
          const whole = await listPage(ctx, listBody(ctx, { filters, pagination: { limit: null, next_token: null } }));
          ctx.observe(`resources of ${name}`, walked.resources);
          // Three counts of nothing agree for nothing.
          precondition(walked.resources > 0 || filters?.length !== 0, 'the listed kind has no resource to count');
          const expected = size ?? walked.resources;
          if (walked.resources !== expected || counted.total_count !== expected || whole.data.length !== expected) {
            fail({
              where: name,
              message:
                'must count the same collection whichever way it is read: a walk, total_count (strict) and limit null',
              expected: size === undefined ? 'the same number three times' : `${size} (one per listed id) three times`,
              actual: { walk: walked.resources, total_count: counted.total_count, 'limit null': whole.data.length },
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
        const json = recordOf(res.json);
        ctx.observe('list without pagination object', {
          status: res.status,
          entries: Array.isArray(json.data) ? json.data.length : undefined,
          next_token: json.next_token === null ? null : typeof json.next_token,
        });
      },
    }),
  ],
});
