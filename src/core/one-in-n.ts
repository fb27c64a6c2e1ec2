/**
 * How often a departure that comes one time in N must be looked for to be
 * seen: the odds the suite's repeated rules (src/rules/one-in-n.ts) and a
 * FAIL's reproducer script (src/report/reproducer-checks.ts) both go by.
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
