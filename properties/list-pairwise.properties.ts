/**
 * §4.8 resources.list over its whole input space, pairwise: the input model
 * (src/rules/input-models/resources-list.ts, derived from the request's JSON
 * Schema) gives each field its value classes, a covering array (drawn from
 * the run's seed) holds every pair of classes the target can serve in some
 * row, and every row is sent and judged by oracles that hold whatever the
 * server chose where the spec is open. Each oracle's departure belongs to the
 * rule whose clause it enforces (`owned`): a refused documented request to
 * list.documented-values-accepted, a missing attribute to
 * list.attributes-returned, and so on. This rule's own clause is what the
 * presentation fields say of themselves: they add to the answer, so the
 * resources listed are those the filters alone give.
 */
import type { Violation } from '../src/core/types.ts';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { expectJson, expectSuccess, fail, failAll, owned, precondition } from '../src/rules/assertions.ts';
import {
  DATE_CLASSES,
  FACTOR,
  NOT_SENT,
  OMITTED,
  TEXT_VALUES,
  listInputModel,
} from '../src/rules/input-models/resources-list.ts';
import { drawCoveringArray, pairCoverage } from '../src/rules/input-models/coverage.ts';
import { LIST_ANSWER_JUDGES } from '../src/rules/judges/list-answer.ts';
import { observedOf } from '../src/rules/judges/observed.ts';
import { WalkJudge } from '../src/rules/judges/walk.ts';
import type { RuleId } from '../src/rules/rule-ids.ts';
import {
  ascendingOn,
  attributeText,
  idsFilter,
  listBody,
  startsWithFilter,
  type Filter,
  type ListResource,
} from '../src/rules/steps/list.ts';
import type { CheckContext } from '../src/rules/types.ts';
import type { ListEnvelope, ListRequest } from '../src/schemas/index.ts';

type PairwiseContext = CheckContext<'listKind'>;

const THIS: RuleId = 'list.prop.pairwise-combinations';
const ENVELOPE: RuleId = 'pagination.envelope';
const PAGING: RuleId = 'pagination.each-resource-once';
/** A row is walked to its end when that takes at most this many pages; past it, its first page is judged. */
const MAX_WALK_PAGES = 4;
const LIMITS = { '1': 1, small: 2, large: 50, null: null } as const;
/** The ids filter: this many ids, some passing the text filter and some not. */
const IDS = 3;

/** What a row is sent with, found once on the target. */
interface Values {
  attributes: { one: string[]; several: string[] };
  /** The sort attribute (text filter and first order), when the profile names one. */
  attribute: string | undefined;
  second: string | undefined;
  ids: string[];
  /** The text filter's value of each text class. */
  text: Record<string, string>;
}

/** A row of the array as the classes of its factors, by factor name. */
type Row = ReadonlyMap<string, string>;

const limitOf = (row: Row): number | null => {
  const cls = row.get(FACTOR.limit);
  return cls === '1' || cls === 'small' || cls === 'large' || cls === 'null' ? LIMITS[cls] : null;
};

/** The filters a row's classes ask for, in the form the request sends. */
function filtersOf(row: Row, values: Values, idsOrder = row.get(FACTOR.idsOrder)): Filter[] {
  const filters: Filter[] = [];
  const shape = row.get('filters') ?? 'none';
  if (shape.includes('resource.ids')) {
    filters.push(idsFilter(idsOrder === 'reversed' ? [...values.ids].reverse() : values.ids));
  }
  if (shape.includes('resource.text') && values.attribute !== undefined) {
    filters.push(startsWithFilter(values.attribute, values.text[row.get(FACTOR.textValue) ?? ''] ?? ''));
  }
  return filters;
}

/** The request a row stands for. */
function requestOf(ctx: PairwiseContext, row: Row, values: Values): ListRequest {
  const flag = (name: string): { value: boolean | null } | undefined => {
    const cls = row.get(name);
    if (cls === 'true') return { value: true };
    if (cls === 'false') return { value: false };
    if (cls === 'null') return { value: null };
    return undefined;
  };
  const body: Omit<Partial<ListRequest>, 'kind_id'> = { pagination: { limit: limitOf(row), next_token: null } };
  const date = row.get('at_date');
  if (date === '29 February') body.at_date = DATE_CLASSES[date];
  const attributes = row.get('attributes');
  if (attributes === 'one' || attributes === 'several') body.attributes = values.attributes[attributes];
  const teams = flag('with_teams');
  if (teams !== undefined && teams.value !== null) body.with_teams = teams.value;
  const relations = flag('with_relations');
  if (relations !== undefined) body.with_relations = relations.value;
  const count = flag('with_total_count');
  if (count !== undefined && count.value !== null) body.with_total_count = count.value;
  const mode = row.get('counting_mode');
  if (mode === 'strict' || mode === 'approximate') body.counting_mode = mode;
  const filters = filtersOf(row, values);
  if (filters.length > 0) body.filters = filters;
  const orders = row.get('orders');
  if (values.attribute !== undefined && (orders === 'one' || orders === 'two')) {
    body.orders = [
      ascendingOn(values.attribute),
      ...(orders === 'two' && values.second ? [ascendingOn(values.second)] : []),
    ];
  }
  return listBody(ctx, body);
}

/** The row in one line, for messages: every class but those omitted. */
function describe(row: Row): string {
  return [...row.entries()]
    .filter(([, cls]) => cls !== OMITTED && cls !== NOT_SENT && cls !== 'none')
    .map(([factor, cls]) => `${factor} ${cls}`)
    .join(', ');
}

/**
 * One page of a row or of a reference. A 4xx to a request whose values are
 * all documented and valid is list.documented-values-accepted's departure;
 * every other judge of a list answer runs as in the list step, for its owner.
 */
async function page(ctx: PairwiseContext, body: ListRequest, step: string): Promise<ListEnvelope | 'refused'> {
  const res = await ctx.client.post('resources.list', body, { shared: body.with_teams !== true, step });
  if (res.status >= 400 && res.status < 500 && res.status !== 401 && res.status !== 429) {
    // The largest page size is not shown (§8): a refused large limit is the target's choice.
    if (body.pagination?.limit === LIMITS.large) return 'refused';
    owned(ctx, 'list.documented-values-accepted', () =>
      fail({
        where: `${step}: response.status`,
        message: 'must accept a request whose values are all documented and valid, whatever their combination',
        expected: 200,
        actual: `${res.status} ${res.text.slice(0, 200)}`,
      }),
    );
  }
  owned(ctx, ENVELOPE, () => expectSuccess(res, { step, status: 200 }));
  const observed = observedOf(res, step, body);
  for (const { owner, judge } of LIST_ANSWER_JUDGES) owned(ctx, owner, () => failAll(judge(observed)));
  return owned(ctx, ENVELOPE, () => expectJson(res, 'ListEnvelope', { step }));
}

/** The resources a row listed, and whether its walk reached the end (§4.9 rule 3). */
interface Listed {
  ids: string[];
  complete: boolean;
  pages: ListEnvelope[];
}

async function walk(ctx: PairwiseContext, body: ListRequest, name: string, maxPages: number) {
  const judge = new WalkJudge();
  const pages: ListEnvelope[] = [];
  const ids: string[] = [];
  let token: string | null = null;
  for (let index = 0; index < maxPages; index++) {
    const step = `${name}, page ${index + 1}`;
    const request: ListRequest = { ...body, pagination: { limit: body.pagination?.limit ?? null, next_token: token } };
    const got = await page(ctx, request, step);
    if (got === 'refused') return 'refused';
    const answered = { status: 200, body: got };
    owned(ctx, PAGING, () => failAll(judge.page(answered, index, name)));
    pages.push(got);
    ids.push(...got.data.map((r) => r.id));
    if (got.next_token === null || got.data.length === 0) return { ids, complete: true, pages } satisfies Listed;
    token = got.next_token;
  }
  return { ids, complete: false, pages } satisfies Listed;
}

/** Each resource of each page that `check` finds wanting, owned by `owner`. */
function onEachResource(
  ctx: PairwiseContext,
  owner: RuleId,
  name: string,
  pages: readonly ListEnvelope[],
  check: (r: ListResource, where: string) => Violation | undefined,
): void {
  owned(ctx, owner, () =>
    failAll(
      pages.flatMap((p, index) =>
        p.data.flatMap((r, i) => check(r, `${name}, page ${index + 1}: response.body.data[${i}]`) ?? []),
      ),
    ),
  );
}

/** What the fields that add to each resource and to the answer must add, on every page (owned by their rules). */
function judgeAdditions(ctx: PairwiseContext, body: ListRequest, name: string, pages: ListEnvelope[]): void {
  const attributes = body.attributes ?? [];
  if (attributes.length > 0) {
    onEachResource(ctx, 'list.attributes-returned', name, pages, (r, where) => {
      const absent = attributes.filter((a) => attributeText(r, a) === undefined);
      return absent.length === 0
        ? undefined
        : {
            where: `${where}.attributes`,
            message: `must carry every requested attribute (missing ${absent.join(', ')}), whatever else the request holds`,
            expected: attributes,
            actual: r.attributes,
          };
    });
  }
  for (const [flag, field, owner] of [
    ['with_teams', 'teams', 'list.with-teams'],
    ['with_relations', 'relations', 'list.with-relations'],
  ] as const) {
    if (body[flag] !== true) continue;
    onEachResource(ctx, owner, name, pages, (r, where) =>
      Array.isArray(r[field])
        ? undefined
        : {
            where: `${where}.${field}`,
            message: `must be an array when ${flag} is true, whatever else the request holds`,
            expected: 'array',
            actual: r[field],
          },
    );
  }
  const counted = body.with_total_count === true;
  owned(ctx, counted ? 'list.total-count-of-filtered-set' : 'list.total-count-only-when-asked', () =>
    failAll(
      pages.flatMap((p, index): Violation[] => {
        const where = `${name}, page ${index + 1}: response.body.total_count`;
        if (counted && (typeof p.total_count !== 'number' || typeof p.total_count_approximate !== 'boolean')) {
          return [
            {
              where,
              message: 'must be present (with total_count_approximate) when with_total_count is true',
              expected: 'an integer and a boolean',
              actual: { total_count: p.total_count, total_count_approximate: p.total_count_approximate },
            },
          ];
        }
        if (!counted && 'total_count' in p) {
          return [
            {
              where,
              message: 'must be absent unless with_total_count is true',
              expected: '(absent)',
              actual: p.total_count,
            },
          ];
        }
        return [];
      }),
    ),
  );
}

/** Ascending order of the first order's attribute across the row's pages (collation is not shown). */
function judgeOrder(ctx: PairwiseContext, body: ListRequest, name: string, pages: ListEnvelope[]): void {
  const attribute = body.orders?.[0]?.attribute;
  if (attribute === undefined || !(body.attributes ?? []).includes(attribute)) return;
  let previous: string | undefined;
  owned(ctx, 'list.orders-ascending', () =>
    pages.forEach((p, index) => {
      for (const r of p.data) {
        const value = attributeText(r, attribute);
        if (value === undefined) continue;
        if (
          previous !== undefined &&
          previous > value &&
          previous.localeCompare(value, undefined, { sensitivity: 'base' }) > 0
        ) {
          fail({
            where: `${name}, page ${index + 1}, resource ${r.id}`,
            message: `must come in ascending order of ${attribute}, whatever else the request holds`,
            expected: `>= ${JSON.stringify(previous)}`,
            actual: value,
          });
        }
        previous = value;
      }
    }),
  );
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean => {
  const s = new Set(a);
  return s.size === new Set(b).size && b.every((x) => s.has(x));
};

/**
 * The references: each filter alone (ids as listed, or one text value),
 * limit null, at the row's at_date and with nothing else, sent once and
 * shared. What a row lists is judged against them.
 */
class References {
  private readonly kept = new Map<string, Promise<string[]>>();
  constructor(
    private readonly ctx: PairwiseContext,
    private readonly values: Values,
  ) {}

  /** The ids the server lists for exactly `filters` at `date`, with nothing else. */
  of(filters: Filter[], date: string | undefined, name: string): Promise<string[]> {
    const body = listBody(this.ctx, {
      ...(date !== undefined ? { at_date: date } : {}),
      filters,
      pagination: { limit: null, next_token: null },
    });
    const key = JSON.stringify(body);
    let ids = this.kept.get(key);
    if (ids === undefined) {
      const step = `reference: ${name}`;
      ids = page(this.ctx, body, step).then((p) => {
        if (p === 'refused') return [];
        // limit null is the whole collection in one answer: a reference that pages is no reference.
        if (p.next_token !== null) {
          owned(this.ctx, 'pagination.limit-null-whole-collection', () =>
            fail({
              where: `${step}: response.body.next_token`,
              message: 'must be null: limit null returns the whole collection in one response',
              expected: null,
              actual: p.next_token,
            }),
          );
        }
        return p.data.map((r) => r.id);
      });
      this.kept.set(key, ids);
    }
    return ids;
  }

  /** What the row's filters must list, from each filter alone: their intersection (every filter applies). */
  async expected(row: Row, date: string | undefined): Promise<string[]> {
    const shape = row.get('filters') ?? 'none';
    const parts: string[][] = [];
    if (shape.includes('resource.ids')) {
      parts.push(
        await this.of(
          filtersOf(new Map([['filters', 'resource.ids']]), this.values, 'as listed'),
          date,
          'the ids filter alone',
        ),
      );
    }
    if (shape.includes('resource.text')) {
      const text = new Map([
        ['filters', 'resource.text'],
        [FACTOR.textValue, row.get(FACTOR.textValue) ?? ''],
      ]);
      parts.push(
        await this.of(filtersOf(text, this.values), date, `the text filter (${row.get(FACTOR.textValue)}) alone`),
      );
    }
    if (parts.length === 0) return this.of([], date, 'no filter');
    const [first, ...rest] = parts;
    return (first ?? []).filter((id) => rest.every((p) => p.includes(id)));
  }
}

/**
 * The set a row listed is not the one its filters alone give: which clause
 * broke? An ids filter read in another order lists otherwise
 * (list.ids-filter); two filters together list other than what both let
 * through (list.filters-all-applied); otherwise a field that only adds to the
 * answer changed which resources are listed (this rule).
 */
async function blame(
  ctx: PairwiseContext,
  refs: References,
  row: Row,
  values: Values,
  date: string | undefined,
  expected: string[],
  name: string,
): Promise<void> {
  const shape = row.get('filters') ?? 'none';
  if (row.get(FACTOR.idsOrder) === 'reversed') {
    const listed = await refs.of(
      filtersOf(new Map([['filters', 'resource.ids']]), values, 'as listed'),
      date,
      'the ids filter alone',
    );
    const reversed = await refs.of(
      filtersOf(new Map([['filters', 'resource.ids']]), values, 'reversed'),
      date,
      'the ids filter alone, reversed',
    );
    if (!sameSet(listed, reversed)) {
      owned(ctx, 'list.ids-filter', () =>
        fail({
          where: `${name}: reference: the ids filter alone, reversed`,
          message: 'must list the same resources whatever the order of the ids in the filter',
          expected: [...listed].sort(),
          actual: [...reversed].sort(),
        }),
      );
    }
  }
  if (shape === 'resource.ids and resource.text') {
    const both = await refs.of(filtersOf(row, values), date, 'both filters');
    if (!sameSet(both, expected)) {
      owned(ctx, 'list.filters-all-applied', () =>
        fail({
          where: `${name}: reference: both filters`,
          message: 'must list what every filter lets through: the resources each filter alone lists, together',
          expected: [...expected].sort(),
          actual: [...both].sort(),
        }),
      );
    }
  }
}

async function driveRow(
  ctx: PairwiseContext,
  refs: References,
  values: Values,
  row: Row,
  index: number,
): Promise<'judged' | 'refused'> {
  const name = `row ${index + 1} of the pairwise array`;
  const body = requestOf(ctx, row, values);
  const date = body.at_date;
  const expected = await refs.expected(row, date);
  const limit = body.pagination?.limit ?? null;
  const needed = limit === null ? 1 : Math.floor(expected.length / limit) + 1;
  const listed = await walk(ctx, body, name, needed <= MAX_WALK_PAGES ? MAX_WALK_PAGES + 1 : 1);
  if (listed === 'refused') {
    ctx.observe(`${name}: refused (limit ${limit}, whose maximum is not shown)`, describe(row));
    return 'refused';
  }
  judgeAdditions(ctx, body, name, listed.pages);
  judgeOrder(ctx, body, name, listed.pages);
  const wanted = new Set(expected);
  const listedSet = new Set(listed.ids);
  const missing = listed.complete ? expected.filter((id) => !listedSet.has(id)) : [];
  const extra = listed.ids.filter((id) => !wanted.has(id));
  if (missing.length > 0 || extra.length > 0) {
    await blame(ctx, refs, row, values, date, expected, name);
    fail({
      where: `${name}: ${listed.complete ? 'all pages' : 'page 1'}`,
      message:
        'must list the resources its filters alone give: attributes, with_teams, with_relations, with_total_count, counting_mode, orders and limit add to the answer, they do not change which resources it holds',
      expected: `${[...wanted].sort().join(',')} (${describe(row)})`,
      actual: { missing, extra },
    });
  }
  if (body.with_total_count === true && body.counting_mode === 'strict') {
    owned(ctx, 'list.counts-agree', () =>
      failAll(
        listed.pages.flatMap((p, i): Violation[] =>
          p.total_count === expected.length
            ? []
            : [
                {
                  where: `${name}, page ${i + 1}: response.body.total_count`,
                  message:
                    'must count (strict) the resources a walk and limit null list for the same filters, whatever else the request holds',
                  expected: expected.length,
                  actual: p.total_count,
                },
              ],
        ),
      ),
    );
  }
  return 'judged';
}

/** The ids and text values the rows are sent with, from one sample of the listed kind (a read other rules share). */
async function valuesOf(ctx: PairwiseContext): Promise<Values> {
  const attribute = ctx.profile.sortAttribute;
  const known = [...new Set([...(attribute ? [attribute] : []), ...(ctx.profile.attributes ?? [])])];
  const sample = await page(
    ctx,
    listBody(ctx, { ...(attribute ? { attributes: [attribute] } : {}), pagination: { limit: 100, next_token: null } }),
    'a sample of the listed kind',
  );
  precondition(sample !== 'refused', 'the target refused a page of 100');
  precondition(sample.data.length >= IDS, `the listed kind has fewer than ${IDS} resources`);
  const text = (r: ListResource): string => (attribute ? (attributeText(r, attribute) ?? '') : '');
  // A two-letter prefix a few resources share: the text filter lists some, the ids filter others.
  const counts = new Map<string, number>();
  for (const r of sample.data) {
    const p = text(r).slice(0, 2);
    if (p.length === 2) counts.set(p, (counts.get(p) ?? 0) + 1);
  }
  const prefix =
    [...counts.entries()].filter(([, n]) => n >= 2).sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ??
    text(sample.data[0]!).slice(0, 1);
  const starting = sample.data.filter((r) => prefix !== '' && text(r).startsWith(prefix));
  const others = sample.data.filter((r) => !starting.includes(r));
  const ids = [...starting.slice(0, IDS - 1), ...others.slice(others.length >> 1)].slice(0, IDS).map((r) => r.id);
  return {
    attribute,
    second: known.find((a) => a !== attribute),
    attributes: { one: known.slice(0, 1), several: known.slice(0, 3) },
    ids,
    text: { ...TEXT_VALUES, 'ascii from the data': prefix },
  };
}

export default defineRuleGroup({
  section: '§4.8',
  title: 'resources.list: every pair of input classes',
  rules: [
    property({
      id: THIS,
      clause: '§4.8',
      quote: [
        '| with_teams | boolean | false | adds `teams` to each resource |',
        '| with_relations | boolean or null | false | adds `relations` to each resource |',
        '| with_total_count | boolean | false | adds `total_count` and `total_count_approximate` to the response |',
        'number of resources matching the filters',
      ],
      level: 'MUST',
      // One covering array per run: its rows are the runs.
      runs: 1,
      needs: ['listKind'],
      async check(ctx) {
        const model = listInputModel(ctx.profile);
        const array = drawCoveringArray(model, ctx.options.seed, ctx.options.depth);
        precondition(array, 'no covering array was drawn');
        const values = await valuesOf(ctx);
        const refs = new References(ctx, values);
        const judged: boolean[] = array.rows.map(() => false);
        try {
          for (const [index, classes] of array.rows.entries()) {
            const row: Row = new Map(classes.map((cls, f) => [array.factors[f]?.name ?? '', cls]));
            judged[index] = (await driveRow(ctx, refs, values, row, index)) === 'judged';
          }
        } finally {
          ctx.observe('pairwise coverage of resources.list', pairCoverage(model, array, judged));
        }
      },
    }),
  ],
});
