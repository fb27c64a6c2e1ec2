import fc from 'fast-check';
import type { ListRequest } from '../schemas/index.ts';

type Filter = NonNullable<ListRequest['filters']>[number];
type Order = NonNullable<ListRequest['orders']>[number];

export interface ListQuery {
  filters: Filter[];
  orders: Order[];
}

export interface ListQueryConstraints {
  /** Resource ids the resource.ids filter may name. */
  ids: readonly string[];
  /** Attribute for orders and the resource.text filter. */
  attribute: string;
  /** Prefixes for the resource.text filter. */
  prefixes: readonly string[];
}

/** filters (resource.ids, resource.text starts_with) and orders (resource.attribute asc) of §4.8. */
export function listQuery(c: ListQueryConstraints): fc.Arbitrary<ListQuery> {
  const idsFilter = fc
    .uniqueArray(fc.constantFrom(...c.ids), { minLength: 1, maxLength: c.ids.length })
    .map((value): Filter => ({ key: 'resource.ids', value }));
  const textFilter = fc.constantFrom(...c.prefixes).map((value): Filter => ({
    key: 'resource.text',
    value: { attribute: c.attribute, operator: 'starts_with', value },
  }));
  const ascending: Order = { key: 'resource.attribute', direction: 'asc', attribute: c.attribute };
  return fc.record({
    filters: fc.oneof(
      fc.constant<Filter[]>([]),
      idsFilter.map((f) => [f]),
      textFilter.map((f) => [f]),
    ),
    orders: fc.oneof(fc.constant<Order[]>([]), fc.constant<Order[]>([ascending])),
  });
}

/** A pair of list queries that differ in their filters or their orders (§4.9 rule 5). */
export function listQueryChange(c: ListQueryConstraints): fc.Arbitrary<[ListQuery, ListQuery]> {
  return fc.tuple(listQuery(c), listQuery(c)).filter(([a, b]) => JSON.stringify(a) !== JSON.stringify(b));
}
