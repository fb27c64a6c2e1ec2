/** §4.8 resources.list with the §4.9 pagination protocol. */
import { nowAndThen } from '../now-and-then.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';
import { toDay, todayDay } from '../days.ts';
import type { Resource } from '../model.ts';
import type { FaultName } from '../faults.ts';
import type { Operation, OperationContext } from '../operation.ts';
import { queryHash, type TokenPayload } from '../page-token.ts';
import { fragmentsOf, listBody } from './list-body.ts';
import { compareIds, compareKeys, positionAfter, sortKey, type OrderKey } from '../store.ts';
import {
  array,
  boolean,
  localDate,
  object,
  optional,
  required,
  snowflake,
  snowflakes,
  string,
  type Body,
} from '../validate.ts';

const MAX_LIMIT = 10_000;

type Filter = { kind: 'ids'; ids: Set<string>; given: string[] } | { kind: 'text'; attribute: string; prefix: string };

interface ListQuery {
  kindId: string;
  limit: number | null;
  token: string | null;
  filters: Filter[];
  orders: OrderKey[];
  attributes: string[];
  withTeams: boolean;
  withRelations: boolean;
  /** with_relations was sent as null. */
  relationsNull: boolean;
  withTotalCount: boolean;
  approximate: boolean;
  atDay: number;
  /** What a token is bound to. */
  rawFilters: unknown;
  rawOrders: unknown;
}

function readFilters(value: unknown): Filter[] {
  return array(value, 'filters').map((f, i) => {
    const field = `filters[${i}]`;
    const filter = object(f, field);
    const key = required(filter, 'key', string, `${field}.key`);
    if (key === 'resource.ids') {
      const given = required(filter, 'value', snowflakes, `${field}.value`);
      return { kind: 'ids', ids: new Set(given), given };
    }
    if (key === 'resource.text') {
      const value = object(filter.value, `${field}.value`);
      const operator = required(value, 'operator', string, `${field}.value.operator`);
      if (operator !== 'starts_with')
        throw badRequest(
          `${field}.value.operator`,
          `unsupported operator ${JSON.stringify(operator)} (supported: starts_with)`,
        );
      return {
        kind: 'text',
        attribute: required(value, 'attribute', string, `${field}.value.attribute`),
        prefix: required(value, 'value', string, `${field}.value.value`),
      };
    }
    throw badRequest(
      `${field}.key`,
      `unsupported filter key ${JSON.stringify(key)} (supported: resource.ids, resource.text)`,
    );
  });
}

function readOrders(value: unknown, locale: boolean): OrderKey[] {
  return array(value, 'orders').map((o, i) => {
    const field = `orders[${i}]`;
    const order = object(o, field);
    const key = required(order, 'key', string, `${field}.key`);
    if (key !== 'resource.attribute')
      throw badRequest(`${field}.key`, `unsupported order key ${JSON.stringify(key)} (supported: resource.attribute)`);
    const direction = required(order, 'direction', string, `${field}.direction`);
    if (direction !== 'asc' && direction !== 'desc') throw badRequest(`${field}.direction`, 'must be "asc" or "desc"');
    return {
      attribute: required(order, 'attribute', string, `${field}.attribute`),
      descending: direction === 'desc',
      ...(locale ? { locale } : {}),
    };
  });
}

function readQuery(body: Body, ctx: OperationContext): ListQuery {
  const faults = ctx.faults;
  const kindId =
    faults.has('list-kind-id-optional') && body.kind_id === undefined ? '' : required(body, 'kind_id', snowflake);
  if (kindId && !ctx.store.kindsById.has(kindId)) throw notFound('kind_id', `unknown kind ${kindId}`);
  let limit: number | null = ctx.variants.has('default-page') && body.pagination === undefined ? 50 : null;
  let token: string | null = null;
  if (body.pagination !== undefined) {
    const p = object(body.pagination, 'pagination');
    if (!('limit' in p)) throw badRequest('pagination.limit', 'is required (null for the whole collection)');
    if (!('next_token' in p)) throw badRequest('pagination.next_token', 'is required (null for the first page)');
    if (p.limit !== null && ctx.faults.has('pagination-invalid-limit-accepted') && !Number.isInteger(p.limit)) {
      limit = null;
    } else if (p.limit !== null) {
      if (typeof p.limit !== 'number' || !Number.isInteger(p.limit) || p.limit < 1 || p.limit > MAX_LIMIT) {
        // One invalid limit in ten lists the whole collection, as if it were null.
        if (!(ctx.faults.has('invalid-limit-accepted-one-in-ten') && nowAndThen(ctx.store, 'invalid limit', 10)))
          throw badRequest('pagination.limit', `must be null or an integer from 1 to ${MAX_LIMIT}`);
      } else limit = p.limit;
    }
    if (p.next_token !== null) token = string(p.next_token, 'pagination.next_token');
  }
  const countingMode = optional(body, 'counting_mode', string);
  if (countingMode !== undefined && countingMode !== 'strict' && countingMode !== 'approximate') {
    throw badRequest('counting_mode', 'must be "strict" or "approximate"');
  }
  if (body.with_relations === null && ctx.faults.has('list-with-relations-null-rejected'))
    throw badRequest('with_relations', 'must be a boolean');
  const withRelations = body.with_relations === null ? false : (optional(body, 'with_relations', boolean) ?? false);
  return {
    kindId,
    limit,
    token,
    filters: body.filters === undefined ? [] : readFilters(body.filters),
    orders: body.orders === undefined ? [] : readOrders(body.orders, ctx.variants.has('locale-collation')),
    attributes:
      body.attributes === undefined
        ? []
        : array(body.attributes, 'attributes').map((a, i) => string(a, `attributes[${i}]`)),
    withTeams: optional(body, 'with_teams', boolean) ?? false,
    withRelations,
    relationsNull: body.with_relations === null,
    withTotalCount: optional(body, 'with_total_count', boolean) ?? false,
    approximate: countingMode === 'approximate',
    atDay: body.at_date === undefined ? todayDay() : atDayOf(localDate(body.at_date, 'at_date'), ctx.faults),
    rawFilters: body.filters ?? [],
    rawOrders: body.orders ?? [],
  };
}

function invalidToken(ctx: OperationContext, why: string): ApiError {
  return new ApiError(
    422,
    `pagination.next_token: the next_token is invalid (${why})`,
    'pagination.next_token',
    ctx.faults.has('pagination-422-without-message') ? {} : undefined,
  );
}

function collection(q: ListQuery, ctx: OperationContext): Resource[] {
  const { store, faults } = ctx;
  const orders = dropsOrders(q, faults)
    ? []
    : faults.has('list-orders-descending')
      ? q.orders.map((o) => ({ ...o, descending: !o.descending }))
      : q.orders;
  let base = q.kindId ? store.orderedResources(q.kindId, orders) : [...store.resourcesById.values()];
  const other =
    faults.has('list-includes-other-kinds') && q.kindId && store.domain.kinds.find((k) => k.id !== q.kindId);
  if (other) {
    // Lists the kind together with the next kind, in one consistent order.
    base = [...base, ...store.orderedResources(other.id, orders)].sort((a, b) =>
      compareKeys(sortKey(a, orders), sortKey(b, orders), orders),
    );
  }
  if (q.kindId && faults.has('list-ids-filter-lists-other-kinds') && q.filters.some((f) => f.kind === 'ids')) {
    // The ids decide alone: every kind's resources, in one consistent order.
    base = store.domain.kinds
      .flatMap((k) => store.orderedResources(k.id, orders))
      .sort((a, b) => compareKeys(sortKey(a, orders), sortKey(b, orders), orders));
  }
  const later = q.token !== null;
  const filters = q.filters.filter(
    (f) =>
      !(
        f.kind === 'text' &&
        (faults.has('list-text-filter-ignored') || (later && faults.has('list-later-pages-text-filter-ignored')))
      ) &&
      !(f.kind === 'ids' && later && faults.has('list-later-pages-ignore-ids-filter')) &&
      !(f.kind === 'ids' && (faults.has('list-ids-filter-ignored') || faults.has('list-ids-filter-after-paging'))) &&
      !(f.kind === 'ids' && q.approximate && faults.has('list-ids-filter-ignored-when-approximate')),
  );
  const applied = faults.has('list-filters-first-only') ? filters.slice(0, 1) : filters;
  if (q.relationsNull && applied.some((f) => f.kind === 'ids') && faults.has('list-with-relations-null-as-filter')) {
    base = base.filter((r) => store.detailsOf(r).relations.length === 0);
  }
  if (applied.length === 0) return base;
  if (
    faults.has('list-ids-filter-unknown-id-empties') &&
    applied.some((f) => f.kind === 'ids' && f.given.some((id) => !store.resourcesById.has(id)))
  )
    return [];
  const filtered = base.filter((r) =>
    applied.every((f) =>
      f.kind === 'ids' ? idsFilterHas(f, r.id, faults) : startsWith(r.attributes[f.attribute] ?? '', f.prefix, faults),
    ),
  );
  if (!faults.has('list-ids-filter-repeat-listed-twice')) return filtered;
  // A join on the ids as given: a resource once per time its id is named.
  const named = (id: string): number =>
    Math.max(1, ...applied.map((f) => (f.kind === 'ids' ? f.given.filter((g) => g === id).length : 1)));
  return filtered.flatMap((r) => Array.from({ length: named(r.id) }, () => r));
}

/** at_date as a day; with 'list-at-date-past-2038-refused', a date past a 32-bit count of seconds is refused. */
function atDayOf(date: string, faults: ReadonlySet<FaultName>): number {
  if (faults.has('list-at-date-past-2038-refused') && date >= '2038-01-20')
    throw badRequest('at_date', `${date} is out of range`);
  return toDay(date);
}

/** The variant that refuses a resource.ids filter naming a resource of another kind (what it does is not shown). */
function refuseOtherKinds(q: ListQuery, ctx: OperationContext): void {
  for (const [i, f] of q.filters.entries()) {
    if (f.kind !== 'ids') continue;
    const stray = f.given.find((id) => {
      const r = ctx.store.resourcesById.get(id);
      return r !== undefined && r.kindId !== q.kindId;
    });
    if (stray !== undefined) throw badRequest(`filters[${i}].value`, `resource ${stray} is not of kind ${q.kindId}`);
  }
}

/** starts_with (§4.8), or with 'list-text-filter-like-wildcards' a LIKE pattern whose `_` and `%` are not escaped. */
function startsWith(text: string, prefix: string, faults: ReadonlySet<FaultName>): boolean {
  if (!faults.has('list-text-filter-like-wildcards')) return text.startsWith(prefix);
  const pattern = [...prefix]
    .map((c) => (c === '_' ? '.' : c === '%' ? '.*' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${pattern}`, 'su').test(text);
}

function idsFilterHas(f: Extract<Filter, { kind: 'ids' }>, id: string, faults: ReadonlySet<FaultName>): boolean {
  if (faults.has('list-ids-filter-capped-100')) return f.given.slice(0, 100).includes(id);
  if (faults.has('list-ids-filter-assumes-sorted')) {
    // A binary search over the ids as given, as if they came sorted.
    let lo = 0;
    let hi = f.given.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const given = f.given[mid];
      if (given === undefined) return false;
      const c = compareIds(given, id);
      if (c === 0) return true;
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return false;
  }
  return f.ids.has(id);
}

/** The fault that lists later pages in the default order, whatever orders the request gives. */
function dropsOrders(q: ListQuery, faults: ReadonlySet<FaultName>): boolean {
  return q.token !== null && q.orders.length > 0 && faults.has('pagination-later-pages-drop-orders');
}

function effectiveOrders(q: ListQuery, faults: ReadonlySet<FaultName>): OrderKey[] {
  return faults.has('list-orders-descending') ? q.orders.map((o) => ({ ...o, descending: !o.descending })) : q.orders;
}

function boundTo(q: ListQuery, faults: ReadonlySet<FaultName>): string {
  return queryHash(
    q.kindId,
    faults.has('pagination-filters-change-accepted')
      ? null
      : faults.has('pagination-text-filter-change-accepted') && Array.isArray(q.rawFilters)
        ? q.rawFilters.filter((f) => !(typeof f === 'object' && f !== null && 'key' in f && f.key === 'resource.text'))
        : q.rawFilters,
    faults.has('pagination-orders-change-accepted') ? null : q.rawOrders,
  );
}

/** Where the page starts: 0 for the first page, after the token's keyset otherwise. */
function startOf(q: ListQuery, items: Resource[], ctx: OperationContext): number {
  if (q.token === null) return 0;
  const { faults } = ctx;
  if (faults.has('pagination-malformed-token-first-page') && /[^A-Za-z0-9+/=_.-]/.test(q.token)) return 0;
  if (faults.has('pagination-offset-token')) {
    try {
      const parsed: unknown = JSON.parse(Buffer.from(q.token, 'base64').toString('utf8'));
      if (typeof parsed !== 'object' || parsed === null || !('offset' in parsed)) throw new Error('no offset');
      const { offset } = parsed;
      if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) throw new Error('no offset');
      if ('q' in parsed && parsed.q !== undefined && parsed.q !== boundTo(q, faults))
        throw invalidToken(ctx, 'it belongs to another query');
      return offset;
    } catch (e) {
      if (e instanceof ApiError) throw e;
      throw invalidToken(ctx, 'it is malformed');
    }
  }
  const payload: TokenPayload | undefined = ctx.tokens.verify(q.token, {
    acceptMacPrefix: faults.has('pagination-token-mac-prefix-accepted'),
  });
  if (!payload) throw invalidToken(ctx, 'it is malformed or was not issued by this server');
  if (payload.q !== boundTo(q, faults))
    throw invalidToken(ctx, 'filters, orders or kind_id differ from the request that produced it');
  if (dropsOrders(q, faults)) {
    // The page goes on in the default order from where the last resource stands in it.
    const lastId = payload.last.at(-1);
    return items.findIndex((r) => r.id === lastId) + 1;
  }
  const position = positionAfter(items, payload.last, effectiveOrders(q, faults));
  if (faults.has('pagination-keyset-without-id') && q.orders.length > 0) {
    // Skips every resource that ties with the last one on the sort values.
    const tie = payload.last.slice(0, -1).join('\u0000');
    const ties = (r: Resource | undefined): boolean =>
      r !== undefined && sortKey(r, q.orders).slice(0, -1).join('\u0000') === tie;
    let p = position;
    while (ties(items[p])) p++;
    return p;
  }
  if (faults.has('pagination-keyset-first-order-only') && q.orders.length > 1) {
    // Skips every resource that ties with the last one on the first sort value.
    const ties = (r: Resource | undefined): boolean => r !== undefined && sortKey(r, q.orders)[0] === payload.last[0];
    let p = position;
    while (ties(items[p])) p++;
    return p;
  }
  return faults.has('pagination-repeats-last-item') && position > 0 ? position - 1 : position;
}

/** `limit` is the one the page was cut with, which a fault may have set instead of the request's. */
function nextTokenFor(
  q: ListQuery,
  limit: number | null,
  items: Resource[],
  start: number,
  page: Resource[],
  ctx: OperationContext,
): string | null {
  const last = page.at(-1);
  if (limit === null || page.length < limit || last === undefined) return null;
  const end = start + page.length;
  if (ctx.faults.has('pagination-no-trailing-empty-page') && end >= items.length) return null;
  if (ctx.faults.has('pagination-offset-token')) {
    return Buffer.from(JSON.stringify({ offset: end, q: boundTo(q, ctx.faults) })).toString('base64');
  }
  return ctx.tokens.sign({
    q: boundTo(q, ctx.faults),
    last: sortKey(last, effectiveOrders(q, ctx.faults)),
  });
}

function render(r: Resource, q: ListQuery, ctx: OperationContext): Record<string, unknown> {
  const { faults } = ctx;
  /** Faults of the 'list-later-pages-…' kind break only the pages a next_token asks for. */
  const later = (fault: FaultName): boolean => q.token !== null && faults.has(fault);
  const attributes: Record<string, string> = {};
  const requested = faults.has('list-attributes-first-only') ? q.attributes.slice(0, 1) : q.attributes;
  const teamJoin = q.withTeams && faults.has('list-attributes-dropped-with-teams');
  if (!faults.has('list-attributes-ignored') && !later('list-later-pages-drop-attributes') && !teamJoin) {
    for (const name of requested) {
      const value = r.attributes[name];
      if (value !== undefined) attributes[name] = value;
    }
  }
  const out: Record<string, unknown> = {
    id: r.id,
    kind_id: r.kindId,
    label: r.label,
    short_label: r.shortLabel,
    sort_label: r.sortLabel,
    picture: { shape: 'round', initial: r.label.slice(0, 1).toUpperCase(), url: r.pictureUrl },
    attributes,
  };
  if (faults.has('list-resource-without-picture') || later('list-later-pages-without-picture')) delete out.picture;
  const teamsDropped =
    q.filters.some((f) => f.kind === 'text') && faults.has('list-with-teams-ignored-beside-text-filter');
  if (
    q.withTeams &&
    !teamsDropped &&
    !faults.has('list-with-teams-ignored') &&
    !later('list-later-pages-without-teams')
  ) {
    out.teams = ctx.store
      .detailsOf(r)
      .teams.filter((t) => t.span.start <= q.atDay && q.atDay <= t.span.end)
      .map((t) => ({ id: t.teamId, head: t.head, name: ctx.store.teamsById.get(t.teamId)?.name ?? '' }));
  }
  const relationsDropped =
    (q.orders.length > 0 && faults.has('list-with-relations-ignored-beside-orders')) ||
    (q.filters.some((f) => f.kind === 'text') && faults.has('list-with-relations-ignored-beside-text-filter'));
  if (
    q.withRelations &&
    !relationsDropped &&
    !faults.has('list-with-relations-ignored') &&
    !later('list-later-pages-without-relations')
  ) {
    out.relations = ctx.store.detailsOf(r).relations;
  }
  return out;
}

/** Fault 'list-ids-filter-after-paging': the page is cut from the whole kind, then filtered. */
function filteredAfterPaging(page: Resource[], q: ListQuery): Resource[] {
  const ids = q.filters.filter((f) => f.kind === 'ids');
  return page.filter((r) => ids.every((f) => f.ids.has(r.id)));
}

export const list: Operation = (body, ctx) => {
  const { faults } = ctx;
  const q = readQuery(body, ctx);
  if (ctx.variants.has('ids-of-other-kinds-refused')) refuseOtherKinds(q, ctx);
  const later = q.token !== null;
  const items = collection(q, ctx);
  const start = startOf(q, items, ctx);
  const limit = q.limit === null && faults.has('pagination-limit-null-pages') ? 5 : q.limit;
  const exceeded =
    faults.has('pagination-limit-exceeded') || (later && faults.has('pagination-later-pages-limit-exceeded'));
  const size = limit !== null && exceeded ? limit + 1 : limit;
  const end = size === null ? (faults.has('list-limit-null-capped-1000') ? 1000 : undefined) : start + size;
  const page = items.slice(start, end);
  let nextToken = nextTokenFor(q, limit, items, start, page, ctx);
  if (faults.has('pagination-stops-after-1000') && start + page.length >= 1000) nextToken = null;
  const shown = shownPage(page, q, ctx);
  let tail = '';
  if (!(nextToken === null && faults.has('pagination-envelope-without-next-token'))) {
    const token =
      later && nextToken !== null && faults.has('pagination-later-envelope-token-number') ? start : nextToken;
    tail += `,"next_token":${JSON.stringify(token)}`;
  }
  const countDropped =
    (q.orders.length > 0 && faults.has('list-total-count-dropped-beside-orders')) ||
    (q.filters.some((f) => f.kind === 'text') && faults.has('list-total-count-dropped-beside-text-filter'));
  if (
    (q.withTotalCount && !countDropped) ||
    faults.has('list-total-count-always') ||
    (later && faults.has('list-total-count-later-pages-always'))
  ) {
    // With 'list-ids-filter-after-paging' the count is still of the filtered set: only paging is broken.
    const matching = faults.has('list-ids-filter-after-paging') ? filteredAfterPaging(items, q).length : items.length;
    let exact = faults.has('list-total-count-of-page') ? page.length : matching;
    if (later && faults.has('list-total-count-later-pages-remaining')) exact = matching - start;
    if (faults.has('list-total-count-capped-1000')) exact = Math.min(exact, 1000);
    const rounded = q.approximate && ctx.variants.has('rounded-approximate-count');
    tail += `,"total_count":${rounded ? Math.round(exact / 10) * 10 : exact},"total_count_approximate":${q.approximate}`;
  }
  tail += '}';
  const serialise = (r: Resource): string => JSON.stringify(render(r, q, ctx));
  // Teams and relations can change, faults and variants change what is rendered: those are rendered afresh (and
  // every answer under the fault probe, whose requests each ask the faults of their own rendering).
  if (q.withTeams || q.withRelations || faults.size > 0 || ctx.variants.size > 0 || ctx.renderAfresh === true)
    return { status: 200, json: `{"data":[${shown.map(serialise).join(',')}]${tail}` };
  return { status: 200, json: listBody(shown, fragmentsOf(q.attributes), serialise, tail) };
};

/** What a page shows of the resources it was cut from: itself, unless a fault changes it. */
function shownPage(page: Resource[], q: ListQuery, ctx: OperationContext): Resource[] {
  const { faults } = ctx;
  if (faults.has('list-ids-filter-after-paging')) return filteredAfterPaging(page, q);
  if (q.token === null || page.length === 0) return page;
  if (faults.has('list-later-pages-unordered') && q.orders.length > 0) return [...page].reverse();
  if (faults.has('list-later-pages-other-kinds')) {
    const other = ctx.store.domain.kinds.find((k) => k.id !== q.kindId);
    const stranger = other && ctx.store.resourcesOfKind(other.id)[0];
    if (stranger) return [stranger, ...page.slice(1)];
  }
  return page;
}
