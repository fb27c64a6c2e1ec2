/**
 * One clock and the windows read by it, shared by the suite and the
 * reference server (Kubernetes' `clock.Clock` is the model): every wait the
 * suite makes on the wall clock and every window the reference server keeps
 * read a `Timing`, so that against the embedded server both can agree on
 * short windows, while against an external target the windows are what a
 * real server needs (a replica lagging its primary for hundreds of ms).
 *
 * Verdicts do not depend on which timing a run uses: the stale-read faults
 * serve the state before a write to the first read after it however late it
 * comes, and a read "a moment later" comes after `momentMs`, which is longer
 * than any server window of the same timing (`checkTiming`).
 */
import { setTimeout as sleepFor } from 'node:timers/promises';

export interface Clock {
  /** Milliseconds since the epoch (Exchange and Observed times are on this scale). */
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason once it is aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleepFor(ms, undefined, signal ? { signal } : undefined),
};

export interface Timing {
  readonly clock: Clock;
  /** The suite: how long after a write its second read comes (read-after-write.ts). */
  readonly momentMs: number;
  /** The suite: how long a restoration whose first read differs waits before reading again (state-guard.ts). */
  readonly settleMs: number;
  /**
   * The suite: how long after its answer a change of the suite's may still
   * show in reads as not yet made (quiet-reads.ts). A window, not a wait: it
   * costs nothing, so both timings keep it wide.
   */
  readonly readLagMs: number;
  /** The reference server: the pause in reads after which the stale-read faults serve a write (stale-reads.ts). */
  readonly staleReadMs: number;
  /** The reference server: the gap the lost-update faults leave between reading and writing (concurrent-faults.ts). */
  readonly lostUpdateGapMs: number;
}

/** Against any target the suite did not start: a real server's replicas and caches need these. */
export const TARGET_TIMING: Timing = {
  clock: SYSTEM_CLOCK,
  momentMs: 500,
  settleMs: 1000,
  readLagMs: 1000,
  staleReadMs: 300,
  lostUpdateGapMs: 25,
};

/**
 * Against the embedded server (and its faulty variants): the suite and the
 * server share these, so a read a moment later still comes after the
 * server's stale window, and no wait is longer than the behaviour needs.
 * The stale window is still wide enough for reads sent back to back to fall
 * in it on a loaded machine: a confirming attempt's read stands once two
 * answers agree (client/agreed-reads.ts), a stale one too.
 */
export const EMBEDDED_TIMING: Timing = {
  clock: SYSTEM_CLOCK,
  momentMs: 250,
  settleMs: 300,
  readLagMs: 1000,
  staleReadMs: 200,
  // Wide enough that writes the suite sends at once still meet in it on a loaded machine (a quick-proof run
  // beside the static checks saw two concurrent assignments 25 ms apart): a fault that needs them to meet
  // must not depend on scheduling. Only the faulty servers wait it.
  lostUpdateGapMs: 100,
};

/** Why `timing` cannot show what the suite judges with it, or undefined when it can. */
export function checkTiming(timing: Timing): string | undefined {
  if (timing.momentMs <= timing.staleReadMs)
    return `the read a moment later (${timing.momentMs} ms) must come after the stale window (${timing.staleReadMs} ms)`;
  if (timing.settleMs <= timing.staleReadMs)
    return `a restoration's settled read (${timing.settleMs} ms) must come after the stale window (${timing.staleReadMs} ms)`;
  return undefined;
}
