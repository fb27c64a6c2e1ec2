import fc from 'fast-check';

export interface ListQuery {
  filters: unknown[];
  orders: unknown[];
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
    .map((value) => ({ key: 'resource.ids', value }));
  const textFilter = fc
    .constantFrom(...c.prefixes)
    .map((value) => ({ key: 'resource.text', value: { attribute: c.attribute, operator: 'starts_with', value } }));
  const none = fc.constant(null).map((): unknown[] => []);
  return fc.record<ListQuery>({
    filters: fc.oneof(
      none,
      idsFilter.map((f): unknown[] => [f]),
      textFilter.map((f): unknown[] => [f]),
    ),
    orders: fc.oneof(
      none,
      fc.constant(null).map((): unknown[] => [{ key: 'resource.attribute', direction: 'asc', attribute: c.attribute }]),
    ),
  });
}

/** A pair of list queries that differ in their filters or their orders (§4.9 rule 5). */
export function listQueryChange(c: ListQueryConstraints): fc.Arbitrary<[ListQuery, ListQuery]> {
  return fc.tuple(listQuery(c), listQuery(c)).filter(([a, b]) => JSON.stringify(a) !== JSON.stringify(b));
}
