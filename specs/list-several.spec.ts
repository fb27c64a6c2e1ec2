/**
 * §4.8 `filters` and `orders` are arrays: requests with several entries at
 * once. What the spec states of them is judged (a resource listed matches the
 * filters, every one of them; explicit orders give stable pages); what it
 * does not (how a second order breaks the ties of the first) is only
 * recorded.
 */
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { precondition } from '../src/rules/assertions.ts';
import {
  ascendingOn,
  attributeText,
  idsFilter,
  idsOfWalk,
  listBody,
  listPage,
  startsWithFilter,
  walkPages,
} from '../src/rules/steps/list.ts';
import type { ListResource } from '../src/rules/steps/list.ts';
import type { Violation } from '../src/core/types.ts';
import { firstWithStep, judgeAll, noEvidence, type Judgement } from '../src/rules/judges/judgement.ts';
import { enoughPagesIn, idsFiltered, textFilterOf, walksIn, type WalkRead } from '../src/rules/judges/list-walks.ts';
import { field } from '../src/rules/judges/observed.ts';
import { matchesSchema } from '../src/schemas/index.ts';

type ListContext = CheckContext<'listKind' | 'sortAttribute'>;

/** The step of the sample the drivers choose their filters from, which the judges read. */
const SAMPLE = 'a sample of the listed kind';

/** The first hundred resources of the listed kind with their text values of `attributes`. */
async function sampleWith(ctx: ListContext, attributes: readonly string[]): Promise<ListResource[]> {
  const body = listBody(ctx, { attributes: [...attributes], pagination: { limit: 100, next_token: null } });
  return (await listPage(ctx, body, { step: SAMPLE })).data;
}

/** The initial most values share, so the resources it starts are many. */
function commonestInitial(values: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const v of values) if (v !== '') counts.set(v[0]!, (counts.get(v[0]!) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** Case handling of starts_with is not shown: a value passes the filter if it passes without case. */
function startsWithAnyCase(value: string | undefined, prefix: string): boolean {
  return value !== undefined && value.toLowerCase().startsWith(prefix.toLowerCase());
}

/**
 * Resources of the sample that share their value of `attribute` with others,
 * the largest groups first (up to four of each, nine in all): ties the first
 * order leaves for the second to break, with page boundaries among them.
 */
function tiedOn(sample: readonly ListResource[], attribute: string): string[] {
  const groups = new Map<string, string[]>();
  for (const r of sample) {
    const value = attributeText(r, attribute);
    if (value !== undefined) groups.set(value, [...(groups.get(value) ?? []), r.id]);
  }
  return [...groups.values()]
    .filter((ids) => ids.length >= 2)
    .sort((a, b) => b.length - a.length)
    .flatMap((ids) => ids.slice(0, 4))
    .slice(0, 9);
}

/** What the rules of this group need: a kind to list and an attribute to filter and order on. */
const SEVERAL = { level: 'MUST', needs: ['listKind', 'sortAttribute'] } as const;

export default defineRuleGroup({
  section: '§4.8',
  title: 'resources.list: several filters and orders at once',
  rules: [
    rule({
      id: 'list.filters-all-applied',
      clause: '§4.8 filters; §4.8 Response',
      quote: [
        '| filters | array of objects | | each has `key` and `value` |',
        'number of resources matching the filters',
      ],
      ...SEVERAL,
      async drive(ctx) {
        // A resource.ids filter and a resource.text filter at once, chosen so each lets through
        // resources the other stops: the answer is what both let through, on every page.
        const attribute = ctx.sortAttribute;
        const sample = await sampleWith(ctx, [attribute]);
        const text = new Map(sample.map((r) => [r.id, attributeText(r, attribute)]));
        const prefix = commonestInitial([...text.values()].filter((v): v is string => v !== undefined));
        precondition(prefix, `no resource of the listed kind has a text value for ${attribute}`);
        const starting = sample.filter((r) => text.get(r.id)?.startsWith(prefix));
        const both = starting.filter((_, i) => i % 2 === 0).slice(0, 6);
        const textOnly = starting.filter((_, i) => i % 2 === 1);
        const idsOnly = sample.filter((r) => !startsWithAnyCase(text.get(r.id), prefix)).slice(0, 3);
        precondition(
          both.length >= 3 && textOnly.length > 0 && idsOnly.length > 0,
          `the first resources of the listed kind hold too few values of ${attribute} starting with "${prefix}" (and others) for two filters that each stop what the other lets through`,
        );
        const ids = new Set([...both, ...idsOnly].map((r) => r.id));
        const body = listBody(ctx, { filters: [idsFilter([...ids]), startsWithFilter(attribute, prefix)] });
        const limit = Math.max(1, Math.floor(both.length / 3));
        await walkPages(ctx, { ...body, pagination: { limit, next_token: null } }, { maxPages: both.length + 3 });
      },
      judge(log) {
        const sample = firstWithStep(log, SAMPLE);
        const walk = walksIn(log).find((w) => idsFiltered(w.request) && textFilterOf(w.request));
        const ids = new Set(walk ? (idsFiltered(walk.request) ?? []) : []);
        const filter = walk ? textFilterOf(walk.request) : undefined;
        if (!walk || !filter || !sample) return noEvidence('no walk with both filters after a sample');
        if (!matchesSchema('ListEnvelope', sample.body)) return noEvidence(`${SAMPLE} is not a list of resources`);
        const { attribute, prefix } = filter;
        const text = new Map(sample.body.data.map((r) => [r.id, attributeText(r, attribute)]));
        // The sample shows what matches both filters.
        const both = sample.body.data.filter((r) => ids.has(r.id) && text.get(r.id)?.startsWith(prefix));
        const where = `filters resource.ids (${ids.size} ids) and resource.text ${attribute} starts with "${prefix}"`;
        const strays = walk.pages.flatMap((p) =>
          p.page.data.flatMap((r, i): Violation[] =>
            ids.has(r.id) && startsWithAnyCase(text.get(r.id), prefix)
              ? []
              : [
                  {
                    where: `${where}, page ${p.index + 1}: response.body.data[${i}]`,
                    message: 'must match every filter of the request: its id is in the ids and its text starts so',
                    expected: both.map((b) => b.id),
                    actual: { id: r.id, [attribute]: text.get(r.id) ?? '(not in the sample)' },
                  },
                ],
          ),
        );
        // A walk that ends before listing all that matches both misses some.
        const listed = new Set(walk.pages.flatMap((p) => p.page.data.map((r) => r.id)));
        const lost = walk.ended ? both.filter((r) => !listed.has(r.id)) : [];
        const missing: Violation[] =
          lost.length === 0
            ? []
            : [
                {
                  where: `${where}: all pages`,
                  message: 'must list every resource that matches all the filters',
                  expected: both.map((r) => r.id),
                  actual: [...listed],
                },
              ];
        const limit = field(field(walk.request, 'pagination'), 'limit');
        return judgeAll([
          strays,
          missing,
          walk.unread,
          walk.ended ? [] : noEvidence('the walk with both filters did not end'),
          enoughPagesIn(walk, `the walk at limit ${String(limit)}`),
        ]);
      },
    }),
    rule({
      id: 'list.several-orders-stable',
      clause: '§4.8 orders; §4.9 rules 1-3; §4.9 rule 7',
      quote: [
        '| orders | array of objects | | each has `key`, `direction`, and `attribute` |',
        'The cursor derives from the sorted values, so explicit `orders` give stable pages.',
      ],
      ...SEVERAL,
      async drive(ctx) {
        // Two orders over resources that tie on the first: walked with two page sizes, the pages
        // must hold each resource once, all of them, in the same order. Which order the second
        // attribute gives the ties is not stated (a multi-key order is not described): recorded.
        const first = ctx.sortAttribute;
        const second = (ctx.profile.attributes ?? []).find((a) => a !== first);
        precondition(second, 'the target profile names no second attribute (attributes) to order on');
        const sample = await sampleWith(ctx, [first, second]);
        const ids = tiedOn(sample, first);
        precondition(
          ids.length >= 6,
          `fewer than six of the first resources of the listed kind share their ${first} with another`,
        );
        const orders = [ascendingOn(first), ascendingOn(second)];
        const body = listBody(ctx, { filters: [idsFilter(ids)], orders });
        const walk = async (limit: number): Promise<string[]> =>
          (await idsOfWalk(ctx, { ...body, pagination: { limit, next_token: null } }, { maxPages: ids.length + 3 }))
            .ids;
        const byTwo = await walk(2);
        const byThree = await walk(3);
        if (byTwo.length !== ids.length || byTwo.some((id, i) => id !== byThree[i])) return;
        const byId = new Map(sample.map((r) => [r.id, r]));
        const keys = byTwo.map((id) => [first, second].map((attr) => attributeText(byId.get(id)!, attr) ?? ''));
        ctx.observe(
          `ties on ${first} in ascending order of ${second} (code units)`,
          keys.every((k, i) => i === 0 || keys[i - 1]![0] !== k[0] || keys[i - 1]![1]! <= k[1]!),
        );
      },
      judge(log) {
        const walks = walksIn(log).filter((w) => {
          const orders = field(w.request, 'orders');
          return idsFiltered(w.request) !== undefined && Array.isArray(orders) && orders.length === 2;
        });
        const byLimit = (limit: number): WalkRead | undefined =>
          walks.find((w) => field(field(w.request, 'pagination'), 'limit') === limit);
        const two = byLimit(2);
        const three = byLimit(3);
        if (!two || !three) return noEvidence('no two walks with two orders, at limits 2 and 3');
        const ids = idsFiltered(two.request) ?? [];
        const orders = field(two.request, 'orders');
        const [first, second] = Array.isArray(orders) ? orders.map((o) => String(field(o, 'attribute'))) : [];
        const walked: Array<{ limit: number; walk: WalkRead; ids: string[] }> = [
          { limit: 2, walk: two, ids: two.pages.flatMap((p) => p.page.data.map((r) => r.id)) },
          { limit: 3, walk: three, ids: three.pages.flatMap((p) => p.page.data.map((r) => r.id)) },
        ];
        const incomplete = walked.flatMap(({ limit, walk, ids: got }): Judgement[] => {
          if (!walk.ended) return [judgeAll([walk.unread, noEvidence(`the walk at limit ${limit} did not end`)])];
          const missing = ids.filter((id) => !got.includes(id));
          if (missing.length === 0 && got.length === ids.length) return [];
          return [
            [
              {
                where: `orders on ${first} then ${second}, limit ${limit}: all pages`,
                message: 'must yield every filtered resource exactly once, whatever the orders',
                expected: [...ids].sort(),
                actual: [...got].sort(),
              },
            ],
          ];
        });
        if (incomplete.length > 0) return judgeAll(incomplete);
        // Both hold every id once: the first place they differ, if any.
        const [byTwo, byThree] = [walked[0]?.ids ?? [], walked[1]?.ids ?? []];
        const at = byTwo.findIndex((id, i) => id !== byThree[i]);
        if (at < 0) return [];
        return [
          {
            where: `orders on ${first} then ${second}, position ${at}`,
            message: 'must give the same order whatever the page size, for the same orders (limit 2 vs limit 3)',
            expected: byTwo[at],
            actual: byThree[at],
          },
        ];
      },
    }),
  ],
});
