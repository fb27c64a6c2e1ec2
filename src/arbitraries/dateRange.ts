import fc from 'fast-check';
import { dateOf, dayOf } from './localDate.ts';

export interface DateRangeConstraints {
  /** Earliest start (default 2000-01-01). */
  min?: string;
  /** Latest end (default 2099-12-31). */
  max?: string;
  /** Longest range in days (default 400). */
  maxLengthDays?: number;
}

/** A DateRange `<start>/<end>` of two real dates, start <= end (spec §2.1). */
export function dateRange(constraints: DateRangeConstraints = {}): fc.Arbitrary<string> {
  const min = dayOf(constraints.min ?? '2000-01-01');
  const max = dayOf(constraints.max ?? '2099-12-31');
  const longest = constraints.maxLengthDays ?? 400;
  return fc
    .integer({ min, max })
    .chain((start) => fc.integer({ min: 0, max: Math.max(0, Math.min(longest, max - start)) }).map((length) => [start, start + length] as const))
    .map(([start, end]) => `${dateOf(start)}/${dateOf(end)}`);
}
