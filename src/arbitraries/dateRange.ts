import fc from 'fast-check';
import { dateOf, dayOf } from './localDate.ts';

export interface DateRangeConstraints {
  /** Earliest start (default 2000-01-01). */
  min?: string;
  /** Latest end (default 2099-12-31). */
  max?: string;
  /** Longest range in days (default 400). */
  maxLengthDays?: number;
  /**
   * Shortest range in days, end minus start (default 0). Use 1 where a server may
   * read the end as exclusive (not shown in the spec): "d/d" is then empty.
   */
  minLengthDays?: number;
}

/** A DateRange `<start>/<end>` of two real dates, start <= end (spec §2.1). */
export function dateRange(constraints: DateRangeConstraints = {}): fc.Arbitrary<string> {
  const min = dayOf(constraints.min ?? '2000-01-01');
  const max = dayOf(constraints.max ?? '2099-12-31');
  const longest = constraints.maxLengthDays ?? 400;
  const shortest = constraints.minLengthDays ?? 0;
  return fc
    .integer({ min, max: max - shortest })
    .chain((start) =>
      fc
        .integer({ min: shortest, max: Math.max(shortest, Math.min(longest, max - start)) })
        .map((length) => [start, start + length] as const),
    )
    .map(([start, end]) => `${dateOf(start)}/${dateOf(end)}`);
}
