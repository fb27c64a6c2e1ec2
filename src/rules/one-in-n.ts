/**
 * Departures that come one time in N. A server may depart only now and then
 * (a race, one bad replica behind a balancer): a property that sends its
 * judged request a few times passes it at some seeds and not at others. A
 * rule that judges a rejection or a paging invariant sends its judged
 * requests often enough that a departure one time in ten shows with 95%
 * confidence, and a FAIL is confirmed at that rate too: driven again until
 * the departure is seen to come that often (departure-rate.ts), not merely
 * once more.
 */

/** The rarest departure the suite promises to see: one time in this many. */
export const ONE_IN = 10;
/** How sure the suite is to see it. */
export const CONFIDENCE = 0.95;

/** Judged requests needed to see at least once, with `confidence`, a departure that comes one time in `oneIn`. */
export function trialsNeeded(oneIn = ONE_IN, confidence = CONFIDENCE): number {
  return Math.ceil(Math.log(1 - confidence) / Math.log(1 - 1 / oneIn));
}

/** How sure `trials` judged requests are to see a departure one time in `oneIn`. */
export function confidenceOf(trials: number, oneIn = ONE_IN): number {
  return 1 - (1 - 1 / oneIn) ** trials;
}

/** What a repeated rule declares: how many judged requests each of its runs makes at least, once. */
export interface Repeats {
  judgedPerRun: number;
}

/**
 * How many times each run sends its judged request(s), so that the runs
 * together make `trialsNeeded()` of them: 1 for a rule that does not repeat.
 */
export function repetitionsPerRun(repeats: Repeats | undefined, runs: number): number {
  if (!repeats) return 1;
  return Math.max(1, Math.ceil(trialsNeeded() / (Math.max(1, runs) * Math.max(1, repeats.judgedPerRun))));
}
