/**
 * A write's stated effect (§4.1-§4.7) must show in a read right after it and
 * in a read a moment later: a driver reads at once and again after
 * `MOMENT_MS`, and the judge holds every read to the effect, saying how long
 * a stale read lasted at most or that an effect did not last.
 */
import type { Violation } from '../../core/types.ts';

/** How long after a write the second read comes. */
export const MOMENT_MS = 500;

/**
 * The first read that does not show the effect is the departure, said with
 * what the other reads showed (a stale read a moment later corrects, or an
 * effect that does not last); `shownOf` is what a read showed, for `actual`.
 */
export function everyReadShows<R extends { step: string }>(
  reads: readonly R[],
  shows: (r: R) => boolean,
  effect: Violation,
  shownOf: (r: R) => unknown,
): Violation[] {
  const missing = reads.findIndex((r) => !shows(r));
  const read = reads[missing];
  if (read === undefined) return [];
  const shownLater = reads.slice(missing + 1).some(shows);
  const shownBefore = reads.slice(0, missing).some(shows);
  const message = shownLater
    ? `${effect.message}, at once: the read right after the write did not show it, a read ${MOMENT_MS} ms later did (stale for up to ${MOMENT_MS} ms)`
    : shownBefore
      ? `${effect.message}, and keep showing it: a read ${MOMENT_MS} ms after the write no longer did`
      : effect.message;
  return [{ ...effect, where: read.step, message, actual: effect.actual ?? shownOf(read) }];
}
