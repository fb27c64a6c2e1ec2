import fc from 'fast-check';

export interface ActivityRatePatternConstraints {
  /** Lowest rate of a weekday (default 0). */
  min?: number;
  /** Highest rate of a weekday (default 100). The unit and range are not shown in the spec. */
  max?: number;
}

export type Pattern = Record<
  'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday',
  number
>;

/** One week of an Activity rate pattern (spec §2.5). */
export function activityRatePattern(constraints: ActivityRatePatternConstraints = {}): fc.Arbitrary<Pattern> {
  const rate = fc.integer({ min: constraints.min ?? 0, max: constraints.max ?? 100 });
  return fc.record({
    monday: rate,
    tuesday: rate,
    wednesday: rate,
    thursday: rate,
    friday: rate,
    saturday: rate,
    sunday: rate,
  });
}

/** One entry per week of the pattern, 1 to `maxWeeks` (default 2). */
export function activityRatePatterns(
  constraints: ActivityRatePatternConstraints & { maxWeeks?: number } = {},
): fc.Arbitrary<Pattern[]> {
  return fc.array(activityRatePattern(constraints), { minLength: 1, maxLength: constraints.maxWeeks ?? 2 });
}
