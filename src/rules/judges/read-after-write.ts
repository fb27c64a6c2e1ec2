/**
 * A write's stated effect (§4.1-§4.7) must show in a read right after it and
 * in a read a moment later: a driver reads at once and again after
 * `MOMENT_MS`, and the judge holds every read to the effect, saying how long
 * a stale read lasted at most or that an effect did not last.
 */
import type { Violation } from '../../core/types.ts';
import { isClean, violationsOf, type Judgement } from './judgement.ts';
import type { Observed } from './observed.ts';

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

/** How the read a moment later is tagged: the step of the read right after the write, and this. */
const LATER = `, ${MOMENT_MS} ms later`;

/** The step of the read that repeats the one tagged `step` a moment after the write. */
export function later(step: string): string {
  return `${step}${LATER}`;
}

/**
 * A judge of a write's effect held to both reads of it: once on the log as
 * it came (the reads right after the write) and once with each read a moment
 * later standing in for the read right after it. The first that departs
 * decides, said as everyReadShows says it: stale for a moment, or an effect
 * that did not last. A log with no read a moment later is judged as it is.
 */
export function judgeEveryRead(log: readonly Observed[], judge: (log: readonly Observed[]) => Judgement): Judgement {
  const repeated = new Set(log.filter((o) => o.step.endsWith(LATER)).map((o) => o.step.slice(0, -LATER.length)));
  const atOnce = judge(log.filter((o) => !o.step.endsWith(LATER)));
  if (repeated.size === 0) return atOnce;
  const moment = judge(
    log.flatMap((o) =>
      o.step.endsWith(LATER) ? [{ ...o, step: o.step.slice(0, -LATER.length) }] : repeated.has(o.step) ? [] : [o],
    ),
  );
  const first = violationsOf(atOnce);
  const second = violationsOf(moment);
  if (first.length > 0) {
    if (!isClean(moment)) return first;
    return first.map((v) => ({
      ...v,
      message: `${v.message}, at once: the read right after the write did not show it, a read ${MOMENT_MS} ms later did (stale for up to ${MOMENT_MS} ms)`,
    }));
  }
  if (!isClean(atOnce)) return atOnce;
  if (second.length === 0) return moment;
  const laterPlace = (where: string): string => {
    const step = [...repeated].sort((a, b) => b.length - a.length).find((s) => where.startsWith(s));
    return step === undefined ? where : `${later(step)}${where.slice(step.length)}`;
  };
  return second.map((v) => ({
    ...v,
    where: laterPlace(v.where),
    message: `${v.message}, and keep showing it: a read ${MOMENT_MS} ms after the write no longer did`,
  }));
}
