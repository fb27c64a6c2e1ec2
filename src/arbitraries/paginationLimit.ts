import fc from 'fast-check';

export interface PaginationLimitConstraints {
  /** Smallest limit (default 1). */
  min?: number;
  /** Largest limit (default 50; the spec's maximum is not shown). */
  max?: number;
}

/** A `pagination.limit` (spec §4.9), biased towards small pages where the edge cases live. */
export function paginationLimit(constraints: PaginationLimitConstraints = {}): fc.Arbitrary<number> {
  const min = constraints.min ?? 1;
  const max = constraints.max ?? 50;
  return fc.oneof(fc.integer({ min, max: Math.min(max, min + 4) }), fc.integer({ min, max }));
}

/**
 * Values that are no `limit` by type: fractions, strings, booleans, objects.
 * (Zero and negative integers are integers; whether they are refused is not shown.)
 */
export function invalidPaginationLimit(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.double({ min: 0.1, max: 99.9, noInteger: true, noNaN: true }),
    fc.constantFrom('10', 'all', true, false, {}, [5]),
  );
}
