import fc from 'fast-check';
import { dateRange, type DateRangeConstraints } from './dateRange.ts';

/** A DateRange whose end precedes its start (its validity is not shown in the spec). */
export function reversedDateRange(constraints: DateRangeConstraints = {}): fc.Arbitrary<string> {
  return dateRange(constraints)
    .filter((r) => r.slice(0, 10) !== r.slice(11))
    .map((r) => `${r.slice(11)}/${r.slice(0, 10)}`);
}
