import fc from 'fast-check';

/** Strings shaped like a LocalDate that name no day of the calendar (2026-02-30, 2025-02-29, 2026-13-01…). */
export function impossibleLocalDate(): fc.Arbitrary<string> {
  const year = fc.integer({ min: 2000, max: 2099 });
  const pad = (n: number): string => String(n).padStart(2, '0');
  return fc.oneof(
    year.map((y) => `${y}-02-30`),
    year.map((y) => `${y}-02-31`),
    year.filter((y) => y % 4 !== 0).map((y) => `${y}-02-29`),
    fc.tuple(year, fc.constantFrom(4, 6, 9, 11)).map(([y, m]) => `${y}-${pad(m)}-31`),
    fc
      .tuple(year, fc.integer({ min: 13, max: 99 }), fc.integer({ min: 1, max: 28 }))
      .map(([y, m, d]) => `${y}-${pad(m)}-${pad(d)}`),
    fc.tuple(year, fc.integer({ min: 1, max: 12 })).map(([y, m]) => `${y}-${pad(m)}-00`),
    fc.tuple(year, fc.integer({ min: 1, max: 28 })).map(([y, d]) => `${y}-00-${pad(d)}`),
    fc
      .tuple(year, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 32, max: 99 }))
      .map(([y, m, d]) => `${y}-${pad(m)}-${d}`),
  );
}
