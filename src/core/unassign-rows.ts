/**
 * How far around an unassignment row's range the days it must leave alone
 * are judged, by the rule (activity-rates.prop.unassign-pairwise-combinations)
 * and by its reproducer alike: past the two calendar years of periods the
 * rule lays, whichever row, so that a row that takes a period far from its
 * range (an unassignment computed from a stale state drops the period the
 * last assignment made) shows it.
 */
export const UNASSIGN_ROWS_AROUND_DAYS = 800;
