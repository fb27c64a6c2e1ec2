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
  /**
   * Resolves after `ms` of real time, or rejects with the signal's reason once
   * it is aborted: for what must really elapse (a deadline, a retry's pause,
   * a faulty server's gap that other requests must arrive in).
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Lets `ms` pass on this clock for a behaviour to show (a read a moment
   * after a write, a restoration's settled read): the system clock sleeps; a
   * clock the suite shares with the server it started moves on at once while
   * the run holds it `alone`.
   */
  wait(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Runs `work` as the only user of the clock (the run's irreversible rules,
   * one at a time): nothing else reads the clock meanwhile, so nothing can
   * tell a wait that moved the clock on from one that slept.
   */
  alone<T>(work: () => Promise<T>): Promise<T>;
}

function realSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return sleepFor(ms, undefined, signal ? { signal } : undefined);
}

/** Milliseconds since the epoch, to a fraction: two exchanges within one millisecond keep their order. */
function realNow(): number {
  return performance.timeOrigin + performance.now();
}

export const SYSTEM_CLOCK: Clock = {
  now: realNow,
  sleep: realSleep,
  wait: realSleep,
  alone: (work) => work(),
};

/**
 * The clock the suite shares with the embedded server it started (the model
 * is Kubernetes' fake clock, whose `Step` moves time on without sleeping):
 * real time plus the waits it skipped. While the run holds it alone, a wait
 * adds its `ms` and resolves at once; the server, reading the same clock,
 * sees the pause the wait stands for (a stale window closing, a lag passing),
 * so verdicts are those of a run that slept. Outside `alone` it sleeps, as
 * rules running side by side must not move each other's time on.
 */
export class SharedClock implements Clock {
  private skipped = 0;
  private holders = 0;

  now(): number {
    return realNow() + this.skipped;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return realSleep(ms, signal);
  }

  wait(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.holders === 0) return realSleep(ms, signal);
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.skipped += Math.max(0, ms);
    return Promise.resolve();
  }

  async alone<T>(work: () => Promise<T>): Promise<T> {
    this.holders += 1;
    try {
      return await work();
    } finally {
      this.holders -= 1;
    }
  }
}

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
const EMBEDDED_WINDOWS: Omit<Timing, 'clock'> = {
  momentMs: 250,
  settleMs: 300,
  readLagMs: 1000,
  staleReadMs: 200,
  // Wide enough that writes the suite sends at once still meet in it on a loaded machine (a quick-proof run
  // beside the static checks saw two concurrent assignments 25 ms apart): a fault that needs them to meet
  // must not depend on scheduling. Only the faulty servers wait it.
  lostUpdateGapMs: 100,
};

/**
 * The timing of one embedded server and the runs against it: a clock of its
 * own (a run that moves its clock on must not move another run's), the
 * embedded windows.
 */
export function embeddedTiming(): Timing {
  return { clock: new SharedClock(), ...EMBEDDED_WINDOWS };
}

/** Why `timing` cannot show what the suite judges with it, or undefined when it can. */
export function checkTiming(timing: Timing): string | undefined {
  if (timing.momentMs <= timing.staleReadMs)
    return `the read a moment later (${timing.momentMs} ms) must come after the stale window (${timing.staleReadMs} ms)`;
  if (timing.settleMs <= timing.staleReadMs)
    return `a restoration's settled read (${timing.settleMs} ms) must come after the stale window (${timing.staleReadMs} ms)`;
  return undefined;
}
