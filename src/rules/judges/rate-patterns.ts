/** What the judges read of an activity-rate pattern (§2.5): its weekdays, and a rate spread evenly over them. */
import type { ActivityRatePattern } from '../../schemas/index.ts';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/**
 * §4.2: without a pattern, "the rate is spread evenly over the worked days of
 * the work regime": as many non-zero days as the regime works, all equal.
 * Which weekdays are worked is not shown.
 */
export function spreadEvenly(pattern: ActivityRatePattern, workedDays: number): boolean {
  const worked = WEEKDAYS.map((day) => pattern[day]).filter((v) => v > 0);
  return worked.length === workedDays && new Set(worked).size <= 1;
}
