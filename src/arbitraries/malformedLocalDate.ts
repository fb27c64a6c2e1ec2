import fc from 'fast-check';
import { localDate } from './localDate.ts';

/** Strings that are not LocalDates at all: other shapes, times, words. */
export function malformedLocalDate(): fc.Arbitrary<string> {
  return fc.oneof(
    localDate().map((d) => d.replace(/-/g, '/')),
    localDate().map((d) => `${d}T00:00:00Z`),
    localDate().map((d) => d.slice(2)),
    localDate().map((d) => ` ${d}`),
    localDate().map((d) => d.split('-').reverse().join('-')),
    fc.constantFrom('', 'yesterday', '26-1-1', '2026-1-1', '20260101', '2026-01', '∞'),
  );
}
