/**
 * A write's stated effect (§4.1-§4.7) must show in a read right after it and
 * in a read a moment later: a driver reads at once and again after the run's
 * moment (`aMoment`: the timing's `momentMs`, core/timing.ts), and the judge
 * holds every read to the effect, saying how long a stale read lasted as
 * measured, or that an effect did not last. The messages and step names do
 * not say how long the moment was: the reads' own times do.
 */
import type { Timing } from '../../core/timing.ts';
import type { Violation } from '../../core/types.ts';
import { READ_OPERATIONS } from '../../schemas/operations.ts';
import { isClean, violationsOf, type Judgement } from './judgement.ts';
import type { Observed } from './observed.ts';

/** Waits the run's moment: how long after a write the second read comes. */
export function aMoment(ctx: { readonly timing: Timing; readonly signal: AbortSignal }): Promise<void> {
  return ctx.timing.clock.wait(ctx.timing.momentMs, ctx.signal);
}

/** An exchange's times, when the record holds them (Observed's `at`). */
export interface Timed {
  readonly at?: { readonly sent: number; readonly answered: number };
}

/**
 * How long a read stayed stale after a write, as its times measure it: from
 * the write's answer to the answer of the first read that showed the effect
 * (it lasted no longer), and when the read that did not show it was sent (it
 * lasted at least that long). Reads spaced a moment apart bound it; they do
 * not time it to the millisecond.
 */
export function staleness(write: Timed | undefined, stale: Timed | undefined, shown: Timed | undefined): string {
  const from = write?.at?.answered;
  if (from === undefined || stale?.at === undefined || shown?.at === undefined) {
    return 'stale for a moment: the record holds no times to say how long';
  }
  const after = (t: number): number => Math.max(0, Math.round(t - from));
  return (
    `stale for ${after(shown.at.answered)} ms at most as measured, from the write's answer to the answer of ` +
    `the first read that showed it; the read that did not was sent ${after(stale.at.sent)} ms after the write's answer`
  );
}

/** What a stale read right after a write is said as: the effect's message, then how long it was stale. */
function staleMessage(message: string, measured: string): string {
  return `${message}, at once: the read right after the write did not show it, a read a moment later did (${measured})`;
}

/**
 * The first read that does not show the effect is the departure, said with
 * what the other reads showed (a stale read a moment later corrects, for as
 * long as the reads' times and the `write`'s measure, or an effect that does
 * not last); `shownOf` is what a read showed, for `actual`.
 */
export function everyReadShows<R extends { step: string } & Timed>(
  reads: readonly R[],
  shows: (r: R) => boolean,
  effect: Violation,
  shownOf: (r: R) => unknown,
  write: Timed | undefined,
): Violation[] {
  const missing = reads.findIndex((r) => !shows(r));
  const read = reads[missing];
  if (read === undefined) return [];
  const shownLater = reads.slice(missing + 1).find(shows);
  const shownBefore = reads.slice(0, missing).some(shows);
  const message = shownLater
    ? staleMessage(effect.message, staleness(write, read, shownLater))
    : shownBefore
      ? `${effect.message}, and keep showing it: a read a moment after the write no longer did`
      : effect.message;
  return [{ ...effect, where: read.step, message, actual: effect.actual ?? shownOf(read) }];
}

/** How the read a moment later is tagged: the step of the read right after the write, and this. */
const LATER = ', a moment later';

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
  // The read a violation names, by the longest step its place begins with.
  const readOf = (where: string): string | undefined =>
    [...repeated].sort((a, b) => b.length - a.length).find((s) => where.startsWith(s));
  if (first.length > 0) {
    if (!isClean(moment)) return first;
    return first.map((v) => {
      const step = readOf(v.where);
      const stale = step === undefined ? undefined : log.findIndex((o) => o.step === step);
      // The write: the last change the log sent before the stale read.
      const write =
        stale === undefined ? undefined : log.slice(0, stale).findLast((o) => !READ_OPERATIONS.has(o.operation));
      const shown = step === undefined ? undefined : log.find((o) => o.step === later(step));
      return {
        ...v,
        message: staleMessage(v.message, staleness(write, stale === undefined ? undefined : log[stale], shown)),
      };
    });
  }
  if (!isClean(atOnce)) return atOnce;
  if (second.length === 0) return moment;
  const laterPlace = (where: string): string => {
    const step = readOf(where);
    return step === undefined ? where : `${later(step)}${where.slice(step.length)}`;
  };
  return second.map((v) => ({
    ...v,
    where: laterPlace(v.where),
    message: `${v.message}, and keep showing it: a read a moment after the write no longer did`,
  }));
}
