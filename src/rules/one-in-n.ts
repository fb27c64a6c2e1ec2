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

// The odds themselves live in core, where a FAIL's reproducer script reads them too.
export { CONFIDENCE, ONE_IN, confidenceOf, trialsNeeded } from '../core/one-in-n.ts';
import { trialsNeeded } from '../core/one-in-n.ts';
import type { Depth } from '../core/types.ts';

/** What a repeated rule declares: how many judged requests each of its runs makes at least, once. */
export interface Repeats {
  judgedPerRun: number;
}

/**
 * How many times each run sends its judged request(s), so that the runs
 * together make `trialsNeeded()` of them: 1 for a rule that does not repeat,
 * and 1 at `--depth quick`, a look that fits a rate-limited target's bucket
 * (a departure one time in ten may pass it unseen: the default depth looks
 * for it).
 */
export function repetitionsPerRun(repeats: Repeats | undefined, runs: number, depth: Depth = 'default'): number {
  if (!repeats || depth === 'quick') return 1;
  return Math.max(1, Math.ceil(trialsNeeded() / (Math.max(1, runs) * Math.max(1, repeats.judgedPerRun))));
}
