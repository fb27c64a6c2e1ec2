/**
 * FAILs judged over whole walks, in a reproducer: an order over every page
 * of a walk (list.orders-ascending), the same collection counted three ways
 * (list.counts-agree), and walks of the same ids and orders at two page
 * sizes, which must list the same resources in the same order
 * (pagination.stable-with-orders, list.several-orders-stable). A walk's
 * pages are linked by the server's own tokens, which another server (or the
 * same one started again) signs otherwise: the script sends each walk's
 * first page again and follows the live tokens (reproducer-walks.ts), then
 * judges what it collected by the clause, against live answers only: a
 * count against a live walk, walks against the live read of the same query
 * with limit null (the set they must each list once), never against the
 * run's answers, which another server's data would not match.
 */
import type { Exchange } from '../core/exchange.ts';
import { parseJsonText } from '../core/json-text.ts';
import type { RuleResult, Violation } from '../core/types.ts';
import { listRequestShown } from '../core/list-request-shown.ts';
import { tokenSent } from './reproducer-tokens.ts';
import { pagesToFollow, walkFrom, type WalkFollowed } from './reproducer-walks.ts';

/** The resources of the walk from request `at` must come in ascending order of `attribute`, as the rule judged them. */
export interface WalkAscendingCheck {
  at: number;
  kind: 'walk-ascending';
  attribute: string;
}

/**
 * The walk from request `walk`, total_count (strict) of request `at` and the
 * limit null read of request `whole` must count the same; with `ids`, each
 * of these ids, which the live answer to request `sample` must list (else
 * the target holds other resources: exit 3), once.
 */
export interface CountsAgreeCheck {
  at: number;
  kind: 'counts-agree';
  walk: number;
  whole: number;
  ids?: string[];
  sample?: number;
}

/**
 * The walks from requests `walks` must each list once every resource that
 * the answer to request `at` (the same query, limit null) lists, and in the
 * same order as one another.
 */
export interface WalksAgreeCheck {
  at: number;
  kind: 'walks-agree';
  walks: number[];
}

/**
 * The walk from request `at` lists only resources that pass its filters (an
 * id among `ids`, a text of `text.attribute` starting with `text.prefix`
 * whatever its case, read on the resource or in the reference read), and
 * once each resource of the reference read (request `sample`, unfiltered)
 * that passes them.
 */
export interface WalkFilteredCheck {
  at: number;
  kind: 'walk-filtered';
  sample: number;
  ids?: string[];
  text?: { attribute: string; prefix: string };
}

export type WalkedCheck = WalkAscendingCheck | CountsAgreeCheck | WalksAgreeCheck | WalkFilteredCheck;

type WalkedPlan = {
  requests: Array<{ label: string; exchange: Exchange; body?: string }>;
  walks: WalkFollowed[];
  checks: WalkedCheck[];
};

function requestOf(e: Exchange): Map<string, unknown> {
  const body = parseJsonText(e.request.body);
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? new Map(Object.entries(body))
    : new Map<string, unknown>();
}

function labelOf(e: Exchange): string {
  return e.step ?? e.operation;
}

/** The resources a page lists, as records (none where its answer is no list or was cut for the report). */
function resourcesOn(page: Exchange): Array<Map<string, unknown>> {
  if (!page.response || page.response.truncated) return [];
  const body = parseJsonText(page.response.body);
  const data = typeof body === 'object' && body !== null && 'data' in body ? body.data : undefined;
  if (!Array.isArray(data)) return [];
  return data.flatMap((r: unknown) =>
    typeof r === 'object' && r !== null ? [new Map<string, unknown>(Object.entries(r))] : [],
  );
}

/** The text of an attribute of a listed resource, as the suite reads it. */
function attributeOf(r: Map<string, unknown>, attribute: string): string | undefined {
  const attributes = r.get('attributes');
  if (typeof attributes !== 'object' || attributes === null) return undefined;
  const value: unknown = new Map(Object.entries(attributes)).get(attribute);
  return typeof value === 'string' ? value : undefined;
}

/** The attribute of a request's first order, when it is ascending. */
function ascendingOn(e: Exchange): string | undefined {
  const orders = requestOf(e).get('orders');
  const first: unknown = Array.isArray(orders) ? orders[0] : undefined;
  if (typeof first !== 'object' || first === null) return undefined;
  const order = new Map(Object.entries(first));
  const attribute = order.get('attribute');
  return order.get('direction') === 'asc' && typeof attribute === 'string' ? attribute : undefined;
}

/** A pair out of order by every usual collation, as list.orders-ascending judges it (the script's judge does the same). */
function outOfOrder(previous: string, value: string): boolean {
  return previous > value && previous.localeCompare(value, undefined, { sensitivity: 'base' }) > 0;
}

function unordered(pages: readonly Exchange[], attribute: string): boolean {
  const values = pages.flatMap((p) => resourcesOn(p).flatMap((r) => attributeOf(r, attribute) ?? []));
  return values.some((v, i) => i > 0 && outOfOrder(values[i - 1] ?? v, v));
}

/** `resources.list page 1 (attributes last_name, orders last_name asc, limit 25), resource 7…`: the page's words. */
const ORDER_PLACE = /^resources\.list page \d+ \((.*)\), resource \S+$/;

/** An ordered walk whose request the violation's words describe, which departs from the order in the recording. */
function orderPlan(r: RuleResult, v: Violation): WalkedPlan | undefined {
  const words = ORDER_PLACE.exec(v.where)?.[1];
  if (words === undefined) return undefined;
  const log = r.exchanges;
  for (const [start, first] of log.entries()) {
    if (first.operation !== 'resources.list' || tokenSent(first) !== undefined) continue;
    const attribute = ascendingOn(first);
    if (attribute === undefined || listRequestShown(parseJsonText(first.request.body)) !== words) continue;
    const walk = walkFrom(log, start);
    if (!unordered(walk, attribute)) continue;
    return {
      requests: [{ label: labelOf(first), exchange: first }],
      walks: [{ at: 1, pages: pagesToFollow(walk.length) }],
      checks: [{ at: 1, kind: 'walk-ascending', attribute }],
    };
  }
  return undefined;
}

const COUNTED = 'total_count (strict) of ';
const WHOLE = 'limit null of ';
const SAMPLE = 'a sample of the listed kind';

function filtersOf(e: Exchange): string {
  return JSON.stringify(requestOf(e).get('filters') ?? []);
}

/** The ids of a request's resource.ids filter, if it has one. */
function idsFilterOf(e: Exchange): string[] | undefined {
  const filters = requestOf(e).get('filters');
  if (!Array.isArray(filters)) return undefined;
  for (const f of filters) {
    if (typeof f !== 'object' || f === null) continue;
    const filter = new Map(Object.entries(f));
    const value = filter.get('value');
    if (filter.get('key') === 'resource.ids' && Array.isArray(value) && value.every((id) => typeof id === 'string'))
      return value.map(String);
  }
  return undefined;
}

/**
 * The collection the violation names (`the listed kind`, `ids filter of 150
 * listed ids`): its walk, its strict count and its limit null read, sent
 * again in that order; an ids filter's sample first, whose live answer must
 * still list the ids (they were taken from it).
 */
function countsPlan(r: RuleResult, v: Violation): WalkedPlan | undefined {
  const log = r.exchanges;
  const at = log.findLastIndex((e) => e.step === `${COUNTED}${v.where}`);
  const counted = log[at];
  const whole = log.findLast((e) => e.step === `${WHOLE}${v.where}`);
  if (!counted || !whole) return undefined;
  const filters = filtersOf(counted);
  const start = log.findLastIndex(
    (e, i) => i < at && e.step === 'resources.list page 1' && tokenSent(e) === undefined && filtersOf(e) === filters,
  );
  const first = log[start];
  if (!first) return undefined;
  const pages = pagesToFollow(walkFrom(log, start).length);
  const ids = idsFilterOf(counted);
  const sample = ids && log.slice(0, start).findLast((e) => e.step === SAMPLE);
  if (ids && !sample) return undefined;
  const requests = [
    ...(sample ? [{ label: labelOf(sample), exchange: sample }] : []),
    { label: labelOf(first), exchange: first },
    { label: labelOf(counted), exchange: counted },
    { label: labelOf(whole), exchange: whole },
  ];
  const n = requests.length;
  return {
    requests,
    walks: [{ at: n - 2, pages }],
    checks: [{ at: n - 1, kind: 'counts-agree', walk: n - 2, whole: n, ...(ids ? { ids, sample: 1 } : {}) }],
  };
}

/** The page sizes of the two walks each rule compares. */
const COMPARED_LIMITS: Record<string, [number, number]> = {
  'pagination.stable-with-orders': [1, 3],
  'list.several-orders-stable': [2, 3],
};

function limitOf(e: Exchange): unknown {
  const pagination = requestOf(e).get('pagination');
  return typeof pagination === 'object' && pagination !== null
    ? new Map(Object.entries(pagination)).get('limit')
    : undefined;
}

/** The request but for its page: the query two walks must share. */
function queryOf(e: Exchange): string {
  const q = requestOf(e);
  q.delete('pagination');
  return JSON.stringify([...q]);
}

/**
 * The two walks the rule compares (an ids filter and orders, at the rule's
 * two page sizes), after the same query with limit null: the set each walk
 * must list once.
 */
function walksAgreePlan(r: RuleResult, limits: [number, number]): WalkedPlan | undefined {
  const log = r.exchanges;
  const firstOf = (limit: number) =>
    log.findLastIndex(
      (e) =>
        e.operation === 'resources.list' &&
        tokenSent(e) === undefined &&
        limitOf(e) === limit &&
        idsFilterOf(e) !== undefined &&
        Array.isArray(requestOf(e).get('orders')),
    );
  const [a, b] = [firstOf(limits[0]), firstOf(limits[1])];
  const one = log[a];
  const other = log[b];
  if (!one || !other || queryOf(one) !== queryOf(other)) return undefined;
  // A faulty walk may have ended early: a fixed server's lists every id, a page each `limit` of them and one more.
  const ids = idsFilterOf(one)?.length ?? 0;
  const pagesOf = (start: number, limit: number) =>
    pagesToFollow(Math.max(walkFrom(log, start).length, Math.ceil(ids / limit) + 1));
  const body = Object.fromEntries(requestOf(one));
  const reference = JSON.stringify({ ...body, pagination: { limit: null, next_token: null } });
  return {
    requests: [
      {
        label: 'the same ids and orders with limit null: the resources each walk must list',
        exchange: one,
        body: reference,
      },
      { label: labelOf(one), exchange: one },
      { label: labelOf(other), exchange: other },
    ],
    walks: [
      { at: 2, pages: pagesOf(a, limits[0]) },
      { at: 3, pages: pagesOf(b, limits[1]) },
    ],
    checks: [{ at: 1, kind: 'walks-agree', walks: [2, 3] }],
  };
}

/** The attribute and prefix of a request's resource.text starts_with filter, if it has one. */
function textFilterOf(e: Exchange): { attribute: string; prefix: string } | undefined {
  const filters = requestOf(e).get('filters');
  if (!Array.isArray(filters)) return undefined;
  for (const f of filters) {
    if (typeof f !== 'object' || f === null) continue;
    const filter = new Map(Object.entries(f));
    const value = filter.get('value');
    if (filter.get('key') !== 'resource.text' || typeof value !== 'object' || value === null) continue;
    const text = new Map(Object.entries(value));
    const [attribute, prefix] = [text.get('attribute'), text.get('value')];
    if (text.get('operator') === 'starts_with' && typeof attribute === 'string' && typeof prefix === 'string')
      return { attribute, prefix };
  }
  return undefined;
}

/** The recorded walk departs from its filters as the script's judge would say (reproducer-judge.ts, walk-filtered). */
function departsFromFilters(pages: readonly Exchange[], sample: Exchange, check: WalkFilteredCheck): boolean {
  const { ids, text } = check;
  const reference = resourcesOn(sample);
  const textOf = new Map(reference.map((r) => [String(r.get('id')), text && attributeOf(r, text.attribute)]));
  const passesText = (value: string | undefined) =>
    !text || (value !== undefined && value.toLowerCase().startsWith(text.prefix.toLowerCase()));
  const listed = pages.flatMap((p) => resourcesOn(p));
  const strays = listed.some((r) => {
    const id = String(r.get('id'));
    return (ids && !ids.includes(id)) || !passesText((text && attributeOf(r, text.attribute)) ?? textOf.get(id));
  });
  const owed = reference.filter((r) => {
    const id = String(r.get('id'));
    const value = textOf.get(id);
    return (!ids || ids.includes(id)) && (!text || (value !== undefined && value.startsWith(text.prefix)));
  });
  const last = pages.at(-1);
  const body = last?.response && !last.response.truncated ? parseJsonText(last.response.body) : undefined;
  const token = typeof body === 'object' && body !== null && 'next_token' in body ? body.next_token : undefined;
  // Ended as §4.9 rule 3 says: only then does a resource not listed count as missed.
  const whole = last !== undefined && (typeof token !== 'string' || resourcesOn(last).length === 0);
  const missed = owed.some((r) => listed.filter((l) => l.get('id') === r.get('id')).length !== 1);
  return strays || (whole && missed);
}

/** The name the judges give a page: its step, or a walk's bare page named by its request too (list-walks.ts's pageNamed). */
function pageName(e: Exchange): string {
  const page = /^(?:resources\.list )?page (\d+)$/.exec(labelOf(e));
  return page ? `resources.list page ${page[1]} (${listRequestShown(parseJsonText(e.request.body))})` : labelOf(e);
}

/**
 * `filters resource.ids (9 ids) and resource.text …, page 1: …`, `ids filter reversed (walk from …): all
 * pages`, or a property's `counterexample {"limit":1,"subset":[…]}: a walk of 1 filtered ids at limit 1: …`.
 */
const FILTERED_PLACE =
  /^(?:filters resource\.ids \(\d+ ids\) and resource\.text |ids filter [^(]*\(walk from (.*)\): all pages$|counterexample (\{.*\}): (?:a walk of \d+ filtered ids at limit \S+: |page after the last full page$))/;

/** The page size and ids a property's counterexample drew (`{"limit":1,"subset":[…]}`). */
function drawnWalk(text: string): { limit: unknown; ids: string[] } | undefined {
  const drawn = parseJsonText(text);
  if (typeof drawn !== 'object' || drawn === null || !('subset' in drawn) || !('limit' in drawn)) return undefined;
  const ids = drawn.subset;
  return Array.isArray(ids) && ids.every((id) => typeof id === 'string')
    ? { limit: drawn.limit, ids: ids.map(String) }
    : undefined;
}

/**
 * A walk with filters (an ids filter, a text filter, or both) that departs
 * from them in the recording as the script will judge it, after the latest
 * unfiltered read before it that lists some of its resources (the reference
 * of what exists: a filtered id it does not list imposes nothing).
 */
function filteredPlan(r: RuleResult, v: Violation): WalkedPlan | undefined {
  const place = FILTERED_PLACE.exec(v.where);
  if (!place) return undefined;
  const [, firstPage, counterexample] = place;
  const drawn = counterexample === undefined ? undefined : drawnWalk(counterexample);
  if (counterexample !== undefined && !drawn) return undefined;
  // An ids filter alone, named by its walk's first page or drawn; else both filters at once.
  const idsAlone = firstPage !== undefined || drawn !== undefined;
  const log = r.exchanges;
  for (const [start, first] of log.entries()) {
    if (first.operation !== 'resources.list' || tokenSent(first) !== undefined || !first.response) continue;
    const ids = idsFilterOf(first);
    const text = textFilterOf(first);
    if (!ids || idsAlone === (text !== undefined)) continue;
    if (firstPage !== undefined && firstPage !== pageName(first)) continue;
    if (drawn && (JSON.stringify(drawn.ids) !== JSON.stringify(ids) || drawn.limit !== limitOf(first))) continue;
    const sample = log
      .slice(0, start)
      .findLast(
        (e) =>
          e.operation === 'resources.list' &&
          idsFilterOf(e) === undefined &&
          textFilterOf(e) === undefined &&
          resourcesOn(e).some((x) => ids.includes(String(x.get('id')))),
      );
    if (!sample) continue;
    const check: WalkFilteredCheck = { at: 2, kind: 'walk-filtered', sample: 1, ids, ...(text ? { text } : {}) };
    const pages = walkFrom(log, start);
    if (!departsFromFilters(pages, sample, check)) continue;
    return {
      requests: [
        { label: labelOf(sample), exchange: sample },
        { label: labelOf(first), exchange: first },
      ],
      walks: [{ at: 2, pages: pagesToFollow(Math.max(pages.length, ids.length + 1)) }],
      checks: [check],
    };
  }
  return undefined;
}

/** `row 3 of the pairwise array: all pages`: a row whose walk lists other resources than its filters alone give. */
const ROW_PAGES = /^(?:counterexample \S+: )?(row \d+ of the pairwise array): all pages$/;

/** The ids a walk of the log lists, in order. */
function idsListed(pages: readonly Exchange[]): string[] {
  return pages.flatMap((p) =>
    resourcesOn(p).flatMap((r) => (typeof r.get('id') === 'string' ? [String(r.get('id'))] : [])),
  );
}

/**
 * A pairwise row's walk against its reference: the read of its filters alone
 * (and its date) with limit null, which the walk must list once each, no
 * more; the reference is sent first, then the row followed with the live
 * tokens.
 */
function rowPlan(r: RuleResult, v: Violation): WalkedPlan | undefined {
  const row = ROW_PAGES.exec(v.where)?.[1];
  if (row === undefined) return undefined;
  const log = r.exchanges;
  const start = log.findLastIndex((e) => e.step === `${row}, page 1` && tokenSent(e) === undefined);
  const first = log[start];
  if (!first) return undefined;
  const asked = requestOf(first);
  const reference = log.findLast(
    (e) =>
      (e.step ?? '').startsWith('reference: ') &&
      filtersOf(e) === filtersOf(first) &&
      JSON.stringify(requestOf(e).get('at_date')) === JSON.stringify(asked.get('at_date')) &&
      limitOf(e) === null,
  );
  const pages = walkFrom(log, start);
  const want = reference && idsListed([reference]).sort();
  const got = idsListed(pages).sort();
  // The recording must depart as the script will judge it: otherwise the script would judge another condition.
  if (!reference || !want || JSON.stringify(want) === JSON.stringify(got)) return undefined;
  return {
    requests: [
      { label: labelOf(reference), exchange: reference },
      { label: labelOf(first), exchange: first },
    ],
    walks: [{ at: 2, pages: pagesToFollow(Math.max(pages.length, want.length + 1)) }],
    checks: [{ at: 1, kind: 'walks-agree', walks: [2] }],
  };
}

/** The plan of a FAIL judged over whole walks, for the rules that have one. */
export function walkedPlan(r: RuleResult, v: Violation): WalkedPlan | undefined {
  if (r.ruleId === 'list.orders-ascending') return orderPlan(r, v);
  if (r.ruleId === 'list.counts-agree') return countsPlan(r, v);
  if (['list.filters-all-applied', 'list.ids-filter', 'pagination.prop.any-limit-once'].includes(r.ruleId))
    return filteredPlan(r, v);
  if (r.ruleId === 'list.prop.pairwise-combinations') return rowPlan(r, v);
  const limits = COMPARED_LIMITS[r.ruleId];
  return limits ? walksAgreePlan(r, limits) : undefined;
}
