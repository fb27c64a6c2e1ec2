/**
 * §4.8 resources.list: the request fields and what each adds to the answer.
 */
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import { expectBody, expectRejected, expectSuccess, fail, failAll } from '../src/rules/expect.ts';
import { listPage, pageThrough, precondition, type ListBody, type ResourceItem } from '../src/rules/operations.ts';
import type { Violation } from '../src/core/types.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { listKindId } from '../src/target/profile.ts';
import { validateSchema } from '../src/schemas/index.ts';

function body(ctx: CheckContext, extra: Partial<ListBody> = {}): ListBody {
  const kind = listKindId(ctx.profile);
  precondition(kind, 'the target profile names no kind to list');
  return { kind_id: kind, pagination: { limit: 20, next_token: null }, ...extra };
}

async function firstPage(ctx: CheckContext, n: number, extra: Partial<ListBody> = {}): Promise<ResourceItem[]> {
  return (await listPage(ctx.client, body(ctx, { ...extra, pagination: { limit: n, next_token: null } }))).data;
}

function attributeText(r: ResourceItem, attribute: string): string | undefined {
  const v = r.attributes?.[attribute];
  return typeof v === 'string' ? v : undefined;
}

export default defineRuleGroup({
  section: '§4.8',
  title: 'resources.list',
  rules: [
    rule({
      id: 'list.kind-id-required',
      clause: '§4.8 Request body',
      sentence: '`kind_id`: Snowflake, default none, required.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        const res = await ctx.client.post('resources.list', { pagination: { limit: 5, next_token: null } });
        expectRejected(res, 'a list request without kind_id');
      },
    }),
    rule({
      id: 'list.resources-of-the-kind',
      clause: '§4.8',
      sentence: 'Lists resources of a kind.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        const kind = listKindId(ctx.profile)!;
        for (const k of ctx.profile.kinds) {
          const data = await firstPage(ctx, 25, { kind_id: k.id });
          const stray = data.filter((r) => r.kind_id !== k.id);
          if (stray.length > 0) {
            fail(
              `kind ${k.name}: response.body.data`,
              'must hold only resources of the requested kind',
              k.id,
              stray.slice(0, 3).map((r) => `${r.id} of kind ${r.kind_id}`),
            );
          }
        }
        precondition((await firstPage(ctx, 1, { kind_id: kind })).length > 0, 'the listed kind has no resources');
      },
    }),
    rule({
      id: 'list.resource-shape',
      clause: '§2.2',
      sentence:
        'Resource: id, kind_id, label, short_label, sort_label, picture (shape, initial, url), attributes; teams when with_teams; relations when with_relations.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        const res = await ctx.client.post('resources.list', body(ctx, { with_teams: true, with_relations: true }));
        expectSuccess(res, 'resources.list', [200]);
        const page = expectBody(res, 'ListEnvelope') as { data: unknown[] };
        const violations: Violation[] = [];
        page.data.forEach((r, i) => violations.push(...validateSchema('Resource', r, `response.body.data[${i}]`)));
        failAll(violations);
      },
    }),
    rule({
      id: 'list.ids-filter',
      clause: '§4.8 Filter shapes',
      sentence: '`resource.ids`: array of Snowflake.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        const ids = (await firstPage(ctx, 10)).map((r) => r.id);
        precondition(ids.length >= 3, 'the listed kind has fewer than 3 resources');
        const wanted = [ids[0]!, ids[2]!, ids[ids.length - 1]!];
        const data = await firstPage(ctx, 20, { filters: [{ key: 'resource.ids', value: wanted }] });
        const got = data.map((r) => r.id).sort();
        if (JSON.stringify(got) !== JSON.stringify([...wanted].sort())) {
          fail(
            'response.body.data',
            'must hold exactly the resources whose ids are in the resource.ids filter',
            [...wanted].sort(),
            got,
          );
        }
      },
    }),
    rule({
      id: 'list.text-filter-starts-with',
      clause: '§4.8 Filter shapes',
      sentence:
        '`resource.text`: object with `attribute` (string), `operator` (`starts_with` is used), `value` (string).',
      level: 'MUST',
      needs: ['listKind', 'sortAttribute'],
      async check(ctx) {
        const attribute = ctx.profile.sortAttribute!;
        const sample = await firstPage(ctx, 20, { attributes: [attribute] });
        const value = sample.map((r) => attributeText(r, attribute)).find((v) => v && v.length >= 2);
        precondition(value, `no resource of the listed kind has a text value for ${attribute}`);
        const prefix = value.slice(0, 2);
        const filters = [{ key: 'resource.text', value: { attribute, operator: 'starts_with', value: prefix } }];
        const matched = new Set<string>();
        await pageThrough(
          ctx.client,
          body(ctx, { attributes: [attribute], filters, pagination: { limit: 50, next_token: null } }),
          {
            maxPages: 10_000,
            onPage(page) {
              for (const r of page.data) {
                const text = attributeText(r, attribute);
                // Case handling of starts_with is not shown: compare without case.
                if (text === undefined || !text.toLowerCase().startsWith(prefix.toLowerCase())) {
                  fail(
                    `resource ${r.id}.attributes.${attribute}`,
                    `must start with "${prefix}" to pass the starts_with filter`,
                    `${prefix}…`,
                    text,
                  );
                }
                matched.add(r.id);
              }
            },
          },
        );
        // Every resource whose value starts with the prefix exactly must be found.
        const exact = sample.filter((r) => attributeText(r, attribute)?.startsWith(prefix));
        const lost = exact.filter((r) => !matched.has(r.id));
        if (lost.length > 0)
          fail(
            'response.body.data',
            `must include every resource whose ${attribute} starts with "${prefix}"`,
            lost.map((r) => r.id),
            [...matched],
          );
      },
    }),
    rule({
      id: 'list.orders-ascending',
      clause: '§4.8 Order shape',
      sentence:
        'Order shape: `key` is `resource.attribute`, `direction` is `asc` (as used), `attribute` is the attribute name sorted on.',
      level: 'MUST',
      needs: ['listKind', 'sortAttribute'],
      async check(ctx) {
        const attribute = ctx.profile.sortAttribute!;
        const orders = [{ key: 'resource.attribute', direction: 'asc', attribute }];
        let previous: { id: string; value: string } | undefined;
        await pageThrough(
          ctx.client,
          body(ctx, { attributes: [attribute], orders, pagination: { limit: 25, next_token: null } }),
          {
            maxPages: 10_000,
            onPage(page, index) {
              for (const r of page.data) {
                const value = attributeText(r, attribute);
                if (value === undefined) continue;
                // Collation is not shown: only a pair out of order by every usual collation is a departure.
                if (
                  previous &&
                  previous.value > value &&
                  previous.value.localeCompare(value, undefined, { sensitivity: 'base' }) > 0
                ) {
                  fail(
                    `page ${index + 1}, resource ${r.id}`,
                    `must come in ascending order of ${attribute}`,
                    `>= ${JSON.stringify(previous.value)}`,
                    value,
                  );
                }
                previous = { id: r.id, value };
              }
            },
          },
        );
      },
    }),
    rule({
      id: 'list.attributes-returned',
      clause: '§2.2 attributes; §4.8 attributes',
      sentence: '`attributes`: attribute names to return; the response carries those requested through `attributes`.',
      level: 'MUST',
      needs: ['listKind', 'sortAttribute'],
      async check(ctx) {
        const attribute = ctx.profile.sortAttribute!;
        const data = await firstPage(ctx, 10, { attributes: [attribute] });
        data.forEach((r, i) => {
          if (!r.attributes || !(attribute in r.attributes)) {
            fail(
              `response.body.data[${i}].attributes`,
              `must carry the requested attribute ${attribute}`,
              attribute,
              r.attributes,
            );
          }
        });
      },
    }),
    rule({
      id: 'list.with-teams',
      clause: '§4.8 with_teams; §2.2 teams',
      sentence: '`with_teams`: adds `teams` to each resource.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        const data = await firstPage(ctx, 10, { with_teams: true });
        data.forEach((r, i) => {
          if (!Array.isArray(r.teams))
            fail(`response.body.data[${i}].teams`, 'must be an array when with_teams is true', 'array', r.teams);
        });
      },
    }),
    rule({
      id: 'list.with-relations',
      clause: '§4.8 with_relations; §2.2 relations',
      sentence: '`with_relations`: adds `relations` to each resource.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        const data = await firstPage(ctx, 10, { with_relations: true });
        data.forEach((r, i) => {
          if (!Array.isArray(r.relations))
            fail(
              `response.body.data[${i}].relations`,
              'must be an array when with_relations is true',
              'array',
              r.relations,
            );
        });
      },
    }),
    rule({
      id: 'list.documented-values-accepted',
      clause: '§4.8 Request body',
      sentence:
        '`with_relations`: boolean or null, default false. `at_date`: LocalDate. `counting_mode`: allowed values `strict`, `approximate`.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        // Values the request table documents must be accepted (what they change is another rule's business).
        for (const extra of [
          { with_relations: null },
          { at_date: '2024-02-29' },
          { counting_mode: 'strict' as const, with_total_count: true },
        ]) {
          const res = await ctx.client.post(
            'resources.list',
            body(ctx, { ...extra, pagination: { limit: 2, next_token: null } }),
          );
          expectSuccess(res, `resources.list with ${JSON.stringify(extra)}`, [200]);
        }
      },
    }),
    rule({
      id: 'list.total-count-of-filtered-set',
      clause: '§4.8 Response',
      sentence:
        '`total_count`: present only when `with_total_count` is true; number of resources matching the filters. `total_count_approximate`: present when `with_total_count` is true.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        // Ids from further down the collection, so a page that ignores the filter shows it.
        const ids = (await firstPage(ctx, 14)).map((r) => r.id).slice(7);
        precondition(ids.length >= 5, 'the listed kind has fewer than 12 resources');
        const page = await listPage(
          ctx.client,
          body(ctx, {
            filters: [{ key: 'resource.ids', value: ids }],
            with_total_count: true,
            counting_mode: 'strict',
            pagination: { limit: 2, next_token: null },
          }),
        );
        if (page.total_count !== ids.length) {
          fail(
            'response.body.total_count',
            'must be the number of resources matching the filters (not of the page)',
            ids.length,
            page.total_count,
          );
        }
        if (typeof page.total_count_approximate !== 'boolean') {
          fail(
            'response.body.total_count_approximate',
            'must be present (a boolean) when with_total_count is true',
            'boolean',
            page.total_count_approximate,
          );
        }
      },
    }),
    rule({
      id: 'list.total-count-only-when-asked',
      clause: '§4.8 Response',
      sentence: '`total_count`: present only when `with_total_count` is true.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        for (const extra of [{}, { with_total_count: false }]) {
          const page = await listPage(ctx.client, body(ctx, { ...extra, pagination: { limit: 3, next_token: null } }));
          if ('total_count' in page) {
            fail(
              'response.body.total_count',
              'must be absent unless with_total_count is true',
              '(absent)',
              page.total_count,
            );
          }
        }
      },
    }),
    rule({
      id: 'list.counting-mode-approximate',
      clause: '§4.8 counting_mode',
      sentence:
        '`counting_mode`: allowed values `strict`, `approximate`; trades accuracy of the total for speed. Default of `counting_mode`: not shown.',
      level: 'OBSERVED',
      needs: ['listKind'],
      async check(ctx) {
        const approximate = await listPage(
          ctx.client,
          body(ctx, {
            with_total_count: true,
            counting_mode: 'approximate',
            pagination: { limit: 1, next_token: null },
          }),
        );
        ctx.observe('approximate counting: total_count and total_count_approximate', {
          total_count: approximate.total_count,
          total_count_approximate: approximate.total_count_approximate,
        });
        const unset = await listPage(
          ctx.client,
          body(ctx, { with_total_count: true, pagination: { limit: 1, next_token: null } }),
        );
        ctx.observe('counting_mode omitted: total_count_approximate', unset.total_count_approximate);
      },
    }),
    rule({
      id: 'list.without-pagination',
      clause: '§4.9; §8',
      sentence: 'Behaviour of resources.list when the `pagination` object is omitted: not shown.',
      level: 'OBSERVED',
      needs: ['listKind'],
      async check(ctx) {
        const kind = listKindId(ctx.profile)!;
        const res = await ctx.client.post('resources.list', { kind_id: kind });
        const json = res.json as { data?: unknown[]; next_token?: unknown } | undefined;
        ctx.observe('list without pagination object', {
          status: res.status,
          entries: Array.isArray(json?.data) ? json.data.length : undefined,
          next_token: json?.next_token === null ? null : typeof json?.next_token,
        });
      },
    }),
  ],
});
