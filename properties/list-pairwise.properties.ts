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
 * resources listed are those the filters alone give. The driver sends the
 * rows and the references, each tagged with its step; `judgePairwise` judges
 * that clause from them alone. The whole array is one run (its rows are
 * drawn once, from the run's seed).
 */
import fc from 'fast-check';
import { HarnessError } from '../src/core/errors.ts';
import type { Violation } from '../src/core/types.ts';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { expectJson, expectSuccess, fail, failAll, owned, precondition } from '../src/rules/assertions.ts';
import {
  dateClasses,
  FACTOR,
  NOT_SENT,
  OMITTED,
  TEXT_VALUES,
  listInputModel,
} from '../src/rules/input-models/resources-list.ts';
import { LONG_LIST } from '../src/rules/input-models/model.ts';
import { drawCoveringArray, pairCoverage } from '../src/rules/input-models/coverage.ts';
import {
  accepted,
  isClean,
  isNoEvidence,
  isNoVerdict,
  judgeAll,
  noEvidence,
  type Judgement,
  type NoEvidence,
  type NoVerdict,
} from '../src/rules/judges/judgement.ts';
import { LIST_ANSWER_JUDGES } from '../src/rules/judges/list-answer.ts';
import { idsFiltered, textFilterOf } from '../src/rules/judges/list-walks.ts';
import { field, observedOf, type Observed } from '../src/rules/judges/observed.ts';
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
import { matchesSchema, type ListEnvelope, type ListRequest } from '../src/schemas/index.ts';

type PairwiseContext = CheckContext<'listKind'>;

const THIS: RuleId = 'list.prop.pairwise-combinations';
const ENVELOPE: RuleId = 'pagination.envelope';
const PAGING: RuleId = 'pagination.each-resource-once';
/** A row is walked to its end when that takes at most this many pages; past it, its first page is judged. */
const MAX_WALK_PAGES = 4;
const LIMITS = { '1': 1, small: 2, large: 50, null: null } as const;
/** The ids filter: this many ids, some passing the text filter and some not. */
const IDS = 3;

/** The steps the driver tags its requests with, which the judge reads. */
const STEP = {
  sample: 'a sample of the listed kind',
  /** A row's pages: "row 3 of the pairwise array, page 1". */
  row: (index: number) => `row ${index + 1} of the pairwise array`,
  page: (walk: string, index: number) => `${walk}, page ${index + 1}`,
  /** The references: each filter alone (and, to tell which clause broke, the ids reversed and both filters). */
  idsAlone: 'reference: the ids filter alone',
  idsReversed: 'reference: the ids filter alone, reversed',
  textAlone: (textClass: string) => `reference: the text filter (${textClass}) alone`,
  noFilter: 'reference: no filter',
  bothFilters: 'reference: both filters',
} as const;
const ROW_PAGE = /^(row \d+ of the pairwise array), page (\d+)$/;
const TEXT_ALONE = /^reference: the text filter \(.*\) alone$/;

/** What a row is sent with, found once on the target. */
interface Values {
  attributes: { one: string[]; several: string[] };
  /** The sort attribute (text filter and first order), when the profile names one. */
  attribute: string | undefined;
  second: string | undefined;
  ids: string[];
  /** A hundred ids of the kind, `ids` last (so a server that reads only the start of a long list drops them); none when the kind has fewer. */
  longIds: string[] | undefined;
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
    const ids = idsOrder === 'reversed' ? [...values.ids].reverse() : idsOrder === 'long' ? values.longIds : values.ids;
    filters.push(idsFilter(ids ?? values.ids));
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
  const day = date === undefined ? undefined : dateClasses(ctx.profile.timeZones)[date];
  if (day !== undefined) body.at_date = day;
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
  for (const check of LIST_ANSWER_JUDGES) owned(ctx, check, () => failAll(check.judge(observed)));
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
    const step = STEP.page(name, index);
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

  /** The ids the server lists for exactly `filters` at `date`, with nothing else, sent with `step`. */
  of(filters: Filter[], date: string | undefined, step: string): Promise<string[]> {
    const body = listBody(this.ctx, {
      ...(date !== undefined ? { at_date: date } : {}),
      filters,
      pagination: { limit: null, next_token: null },
    });
    const key = JSON.stringify(body);
    let ids = this.kept.get(key);
    if (ids === undefined) {
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

  /** The ids filter alone, its ids as listed, reversed, or the long list. */
  ids(date: string | undefined, order: 'as listed' | 'reversed' | 'long'): Promise<string[]> {
    const filters = filtersOf(new Map([['filters', 'resource.ids']]), this.values, order);
    return this.of(filters, date, order === 'reversed' ? STEP.idsReversed : STEP.idsAlone);
  }

  /** What the row's filters must list, from each filter alone: their intersection (every filter applies). */
  async expected(row: Row, date: string | undefined): Promise<string[]> {
    const shape = row.get('filters') ?? 'none';
    const parts: string[][] = [];
    if (shape.includes('resource.ids')) {
      parts.push(await this.ids(date, row.get(FACTOR.idsOrder) === 'long' ? 'long' : 'as listed'));
    }
    if (shape.includes('resource.text')) {
      const textClass = row.get(FACTOR.textValue) ?? '';
      const text = new Map([
        ['filters', 'resource.text'],
        [FACTOR.textValue, textClass],
      ]);
      parts.push(await this.of(filtersOf(text, this.values), date, STEP.textAlone(textClass)));
    }
    if (parts.length === 0) return this.of([], date, STEP.noFilter);
    const [first, ...rest] = parts;
    return (first ?? []).filter((id) => rest.every((p) => p.includes(id)));
  }
}

/**
 * A row listed another set than its filters alone give: the references that
 * tell which clause broke, sent only then. An ids filter read in another
 * order lists otherwise (list.ids-filter); two filters together list other
 * than what both let through (list.filters-all-applied); both are other
 * rules' clauses, judged here for them. Otherwise a field that only adds to
 * the answer changed which resources are listed: this rule's judge says so.
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
    const listed = await refs.ids(date, 'as listed');
    const reversed = await refs.ids(date, 'reversed');
    if (!sameSet(listed, reversed)) {
      owned(ctx, 'list.ids-filter', () =>
        fail({
          where: `${name}: ${STEP.idsReversed}`,
          message: 'must list the same resources whatever the order of the ids in the filter',
          expected: [...listed].sort(),
          actual: [...reversed].sort(),
        }),
      );
    }
  }
  if (shape === 'resource.ids and resource.text') {
    const both = await refs.of(filtersOf(row, values), date, STEP.bothFilters);
    if (!sameSet(both, expected)) {
      owned(ctx, 'list.filters-all-applied', () =>
        fail({
          where: `${name}: ${STEP.bothFilters}`,
          message: 'must list what every filter lets through: the resources each filter alone lists, together',
          expected: [...expected].sort(),
          actual: [...both].sort(),
        }),
      );
    }
  }
}

/**
 * Sends one row (its references first, then its pages) and judges on its
 * answers what other rules own. 'differs': the row listed another set than
 * its references give, and the references that tell which clause broke were
 * sent; the array stops there, its judge has what it needs.
 */
async function driveRow(
  ctx: PairwiseContext,
  refs: References,
  values: Values,
  row: Row,
  index: number,
): Promise<'judged' | 'refused' | 'differs' | 'not served'> {
  const name = STEP.row(index);
  if (row.get(FACTOR.idsOrder) === 'long' && values.longIds === undefined) {
    ctx.observe(`${name}: not sent (the listed kind has fewer than ${LONG_LIST} resources)`, describe(row));
    return 'not served';
  }
  const body = requestOf(ctx, row, values);
  const date = body.at_date;
  const expected = await refs.expected(row, date);
  if (row.get(FACTOR.idsOrder) === 'long' && date === undefined && values.longIds !== undefined) {
    // Every id of the long list was listed by the sample (the same kind, at no date): the ids filter alone
    // must list each. A server that reads only the start of the list shows it here, in the reference itself.
    const alone = new Set(await refs.ids(date, 'long'));
    const missing = values.longIds.filter((id) => !alone.has(id));
    if (missing.length > 0) {
      owned(ctx, 'list.ids-filter', () =>
        fail({
          where: `ids filter of ${values.longIds?.length ?? 0} ids (walk from ${STEP.idsAlone}): all pages`,
          message: 'must hold every resource whose id is in the resource.ids filter, once (each was listed before)',
          expected: [...(values.longIds ?? [])].sort(),
          actual: [...alone].sort(),
        }),
      );
    }
  }
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
  const differs =
    listed.ids.some((id) => !wanted.has(id)) || (listed.complete && expected.some((id) => !listedSet.has(id)));
  if (differs) {
    await blame(ctx, refs, row, values, date, expected, name);
    return 'differs';
  }
  if (body.with_total_count === true && body.counting_mode === 'strict') {
    owned(ctx, 'list.counts-agree', () =>
      failAll(
        listed.pages.flatMap((p, i): Violation[] =>
          p.total_count === expected.length
            ? []
            : [
                {
                  where: `${STEP.page(name, i)}: response.body.total_count`,
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
    listBody(ctx, {
      ...(attribute ? { attributes: [attribute] } : {}),
      pagination: { limit: LONG_LIST, next_token: null },
    }),
    STEP.sample,
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
  const rest = sample.data.map((r) => r.id).filter((id) => !ids.includes(id));
  const long = [...rest.slice(0, LONG_LIST - ids.length), ...ids];
  return {
    longIds: long.length >= LONG_LIST ? long : undefined,
    attribute,
    second: known.find((a) => a !== attribute),
    attributes: { one: known.slice(0, 1), several: known.slice(0, 3) },
    ids,
    text: { ...TEXT_VALUES, 'ascii from the data': prefix },
  };
}

/** A row's pages as the judge reads them back: its request, the lists its walk got, whether it ended. */
interface RowRead {
  /** "row 3 of the pairwise array". */
  readonly name: string;
  readonly request: ListRequest;
  readonly pages: readonly ListEnvelope[];
  /** The last page read has next_token null or no data (§4.9 rule 3). */
  readonly ended: boolean;
  /** Why the walk stops short of a page: an answer that says nothing, or one that is no list (refused). */
  readonly unread: Judgement;
}

/** The rows of the log, each rebuilt from its pages (found by step, linked by the next_token each sent). */
function rowsIn(log: readonly Observed[]): RowRead[] {
  const byRow = new Map<string, Map<number, Observed>>();
  for (const o of log) {
    const step = ROW_PAGE.exec(o.step);
    if (!step || o.operation !== 'resources.list') continue;
    const name = step[1] ?? '';
    const pages = byRow.get(name) ?? new Map<number, Observed>();
    if (!pages.has(Number(step[2]))) pages.set(Number(step[2]), o);
    byRow.set(name, pages);
  }
  return [...byRow].flatMap(([name, pages]): RowRead[] => {
    const first = pages.get(1);
    const request: unknown = first?.request;
    if (!first || !matchesSchema('ListRequest', request) || (request.pagination?.next_token ?? null) !== null)
      return [];
    const read: ListEnvelope[] = [];
    let token: string | null = null;
    for (let index = 1; ; index++) {
      const o = pages.get(index);
      // A page the walk did not ask for with the token before it is not this walk's.
      if (!o || field(field(o.request, 'pagination'), 'next_token') !== token) break;
      if (o.status !== 200 || !matchesSchema('ListEnvelope', o.body)) {
        const answer = accepted(o, { status: 200 });
        const unread = isNoVerdict(answer) ? answer : noEvidence(`${o.step} is not a list of resources`);
        return [{ name, request, pages: read, ended: false, unread }];
      }
      read.push(o.body);
      if (o.body.next_token === null || o.body.data.length === 0) {
        return [{ name, request, pages: read, ended: true, unread: [] }];
      }
      token = o.body.next_token;
    }
    return [{ name, request, pages: read, ended: false, unread: [] }];
  });
}

/** A reference as the judge reads it back: what it asked for and the ids it listed. */
interface Reference {
  readonly request: ListRequest;
  readonly ids: readonly string[];
}
type ReferenceRead = Reference | NoVerdict | NoEvidence;
const isRead = (r: ReferenceRead): r is Reference => 'ids' in r;

/** A reference asks for its filters at its date, limit null, and nothing else (nothing that adds to the answer). */
function isReference(r: ListRequest): boolean {
  const asked = Object.keys(r).every((k) => ['kind_id', 'at_date', 'filters', 'pagination'].includes(k));
  return asked && r.pagination?.limit === null && r.pagination.next_token === null;
}

/** One reference of a row: found by its step and by what it asked for (the row's filter, at the row's at_date). */
function referenceOf(
  log: readonly Observed[],
  row: RowRead,
  step: (s: string) => boolean,
  asks: (r: ListRequest) => boolean,
  what: string,
): ReferenceRead {
  for (const o of log) {
    const request: unknown = o.request;
    if (o.operation !== 'resources.list' || !step(o.step) || !matchesSchema('ListRequest', request)) continue;
    if (!isReference(request) || (request.at_date ?? null) !== (row.request.at_date ?? null) || !asks(request)) {
      continue;
    }
    if (o.status !== 200 || !matchesSchema('ListEnvelope', o.body)) {
      const answer = accepted(o, { status: 200 });
      return isNoVerdict(answer) ? answer : noEvidence(`${o.step} (for ${row.name}) is not a list of resources`);
    }
    // limit null is the whole collection in one answer: a reference that pages is no reference.
    if (o.body.next_token !== null) return noEvidence(`${o.step} (for ${row.name}) did not list the whole collection`);
    return { request, ids: o.body.data.map((r) => r.id) };
  }
  return noEvidence(`${row.name}: the log holds no reference of ${what}`);
}

/** The request's one filter, when it has exactly one. */
const onlyFilter = (r: ListRequest): Filter[] | undefined => (r.filters?.length === 1 ? r.filters : undefined);
const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The references a row is judged by, as the driver tagged them. */
function referencesOf(log: readonly Observed[], row: RowRead) {
  const ids = idsFiltered(row.request);
  const text = textFilterOf(row.request);
  return {
    ids,
    text,
    idsAlone: (order: 'as listed' | 'reversed') =>
      referenceOf(
        log,
        row,
        (s) => s === (order === 'reversed' ? STEP.idsReversed : STEP.idsAlone),
        (r) => {
          const sent = idsFiltered({ filters: onlyFilter(r) });
          return sent !== undefined && ids !== undefined && sameSet(sent, ids);
        },
        order === 'reversed' ? 'its ids filter alone, reversed' : 'its ids filter alone',
      ),
    textAlone: () =>
      referenceOf(
        log,
        row,
        (s) => TEXT_ALONE.test(s),
        (r) => text !== undefined && sameJson(textFilterOf({ filters: onlyFilter(r) }), text),
        'its text filter alone',
      ),
    noFilter: () =>
      referenceOf(
        log,
        row,
        (s) => s === STEP.noFilter,
        (r) => (r.filters ?? []).length === 0,
        'no filter',
      ),
    bothFilters: () =>
      referenceOf(
        log,
        row,
        (s) => s === STEP.bothFilters,
        (r) => sameJson(r.filters, row.request.filters),
        'both its filters',
      ),
  };
}

/** The request in one line, for messages: what it asks for but the kind and the token. */
function describeRequest(request: ListRequest): string {
  const { kind_id: _kind, pagination, ...asked } = request;
  return JSON.stringify({ ...asked, limit: pagination?.limit ?? null });
}

/** One row: the resources it listed are those its filters alone give (the references' intersection). */
function judgeRow(log: readonly Observed[], row: RowRead): Judgement {
  if (!isClean(row.unread)) return row.unread;
  const refs = referencesOf(log, row);
  const parts: ReferenceRead[] = [];
  if (refs.ids !== undefined) parts.push(refs.idsAlone('as listed'));
  if (refs.text !== undefined) parts.push(refs.textAlone());
  if (parts.length === 0) parts.push(refs.noFilter());
  const unread = parts.find((p): p is NoVerdict | NoEvidence => !isRead(p));
  if (unread) return unread;
  const [first, ...rest] = parts.filter(isRead).map((p) => p.ids);
  const expected = (first ?? []).filter((id) => rest.every((p) => p.includes(id)));
  const listed = row.pages.flatMap((p) => p.data.map((r) => r.id));
  const wanted = new Set(expected);
  const listedSet = new Set(listed);
  const missing = row.ended ? expected.filter((id) => !listedSet.has(id)) : [];
  const extra = listed.filter((id) => !wanted.has(id));
  if (missing.length === 0 && extra.length === 0) return [];
  const explained = otherClause(row, refs, expected);
  if (explained) return explained;
  const walked = row.ended ? 'all pages' : row.pages.length > 1 ? `pages 1 to ${row.pages.length}` : 'page 1';
  return [
    {
      where: `${row.name}: ${walked}`,
      message:
        'must list the resources its filters alone give: attributes, with_teams, with_relations, with_total_count, counting_mode, orders and limit add to the answer, they do not change which resources it holds',
      expected: `${[...wanted].sort().join(',')} (${describeRequest(row.request)})`,
      actual: { missing, extra },
    },
  ];
}

/**
 * A row that lists otherwise may show another rule's clause, not this one:
 * its ids filter read otherwise in another order (list.ids-filter), or its
 * two filters together listing other than both let through
 * (list.filters-all-applied). The references that tell are in the log (the
 * driver sends them when a row lists otherwise); without them the log cannot
 * show which clause broke: no evidence of this one.
 */
function otherClause(
  row: RowRead,
  refs: ReturnType<typeof referencesOf>,
  expected: readonly string[],
): NoVerdict | NoEvidence | undefined {
  const alone = refs.ids !== undefined ? refs.idsAlone('as listed') : undefined;
  // The row sent its ids in another order than the reference of the ids filter alone.
  if (alone && isRead(alone) && !sameJson(idsFiltered(alone.request), refs.ids)) {
    const reversed = refs.idsAlone('reversed');
    if (!isRead(reversed)) return reversed;
    if (!sameSet(reversed.ids, alone.ids)) {
      return noEvidence(`${row.name}: its ids filter lists otherwise in another order (list.ids-filter's clause)`);
    }
  }
  if (refs.ids !== undefined && refs.text !== undefined) {
    const both = refs.bothFilters();
    if (!isRead(both)) return both;
    if (!sameSet(both.ids, expected)) {
      return noEvidence(
        `${row.name}: its filters together list other than each alone gives (list.filters-all-applied's clause)`,
      );
    }
  }
  return undefined;
}

/**
 * This rule's clause over one run (the whole array): every row lists the
 * resources its filters alone give. A row refused (the largest limit is not
 * shown) or whose difference another clause explains shows nothing of it;
 * the rows that do are enough.
 */
export function judgePairwise(log: readonly Observed[]): Judgement {
  const rows = rowsIn(log);
  if (rows.length === 0) return noEvidence('no row of the pairwise array was sent');
  const judged = rows.map((row) => judgeRow(log, row));
  const all = judgeAll(judged);
  return isNoEvidence(all) && judged.some(isClean) ? [] : all;
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
      // The whole covering array is one run, drawn from the run's seed (a run's numRuns draws no other array).
      runs: 1,
      needs: ['listKind'],
      async drive(ctx) {
        const model = listInputModel(ctx.profile);
        const array = drawCoveringArray(model, ctx.options.seed, ctx.options.depth);
        precondition(array, 'no covering array was drawn');
        const values = await valuesOf(ctx);
        const refs = new References(ctx, values);
        const judged: boolean[] = array.rows.map(() => false);
        try {
          await ctx.judged(async () => {
            for (const [index, classes] of array.rows.entries()) {
              const row: Row = new Map(classes.map((cls, f) => [array.factors[f]?.name ?? '', cls]));
              const outcome = await driveRow(ctx, refs, values, row, index);
              judged[index] = outcome !== 'refused' && outcome !== 'not served';
              // A row that lists otherwise is what the judge needs: the array stops there.
              if (outcome === 'differs') break;
            }
          });
        } catch (error) {
          // Outside fast-check, a run whose traffic holds no evidence of the clause is a SKIP, not a discarded run.
          if (fc.PreconditionFailure.isFailure(error)) {
            throw new HarnessError('DC_ERR_PRECONDITION', 'no row of the pairwise array could show the clause');
          }
          throw error;
        } finally {
          ctx.observe('pairwise coverage of resources.list', pairCoverage(model, array, judged));
        }
      },
      judge: judgePairwise,
    }),
  ],
});
