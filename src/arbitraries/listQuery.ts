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

/** The filters and the order of §4.8 this module draws from. */
function parts(c: ListQueryConstraints): { ids: fc.Arbitrary<Filter>; text: fc.Arbitrary<Filter>; ascending: Order } {
  return {
    ids: fc
      .uniqueArray(fc.constantFrom(...c.ids), { minLength: 1, maxLength: c.ids.length })
      .map((value): Filter => ({ key: 'resource.ids', value })),
    text: fc.constantFrom(...c.prefixes).map((value): Filter => ({
      key: 'resource.text',
      value: { attribute: c.attribute, operator: 'starts_with', value },
    })),
    ascending: { key: 'resource.attribute', direction: 'asc', attribute: c.attribute },
  };
}

/** filters (resource.ids, resource.text starts_with) and orders (resource.attribute asc) of §4.8. */
export function listQuery(c: ListQueryConstraints): fc.Arbitrary<ListQuery> {
  const { ids, text, ascending } = parts(c);
  return fc.record({
    filters: fc.oneof(
      fc.constant<Filter[]>([]),
      ids.map((f) => [f]),
      text.map((f) => [f]),
    ),
    orders: fc.oneof(fc.constant<Order[]>([]), fc.constant<Order[]>([ascending])),
  });
}

/**
 * A pair of list queries that differ in their filters or their orders (§4.9
 * rule 5), one change of each kind drawn as often as the others: the ids
 * filtered, the text filter's prefix, a filter dropped or added, the orders
 * dropped or added; all else the same, so a run shows the one part a token
 * must be bound to.
 */
export function listQueryChange(c: ListQueryConstraints): fc.Arbitrary<[ListQuery, ListQuery]> {
  const { ids, text, ascending } = parts(c);
  const orders = fc.constantFrom<Order[]>([], [ascending]);
  const pair = (a: Filter[], b: Filter[], o: Order[]): [ListQuery, ListQuery] => [
    { filters: a, orders: o },
    { filters: b, orders: o },
  ];
  return fc
    .oneof(
      fc.tuple(ids, ids, orders).map(([a, b, o]) => pair([a], [b], o)),
      fc.tuple(text, text, orders).map(([a, b, o]) => pair([a], [b], o)),
      fc
        .tuple(fc.oneof(ids, text), orders, fc.boolean())
        .map(([f, o, dropped]) => (dropped ? pair([f], [], o) : pair([], [f], o))),
      fc
        .tuple(
          fc.oneof(
            fc.constant<Filter[]>([]),
            ids.map((f) => [f]),
            text.map((f) => [f]),
          ),
          fc.boolean(),
        )
        .map(([filters, dropped]): [ListQuery, ListQuery] => {
          const [a, b] = dropped ? [[ascending], []] : [[], [ascending]];
          return [
            { filters, orders: a },
            { filters, orders: b },
          ];
        }),
    )
    .filter(([a, b]) => JSON.stringify(a) !== JSON.stringify(b));
}
