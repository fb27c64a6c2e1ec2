import { HarnessError } from '../core/errors.ts';
import { readRateLimitHeaders, type RateLimitHint } from './rate-limit-headers.ts';

export interface PacerOptions {
  /**
   * 'auto': adapt to what the server says (rate-limit headers, 429s); a number
   * above 0: that many requests per second, evenly spaced; 0: no cap.
   */
  rate: number | 'auto';
  /** Total requests the run may send; 0 = no cap. Rules left when it runs out are NOT-TESTED. */
  maxRequests: number;
  /**
   * Requests in flight at most; 0 = no cap. Default: 8 with 'auto' (rate-limited
   * services advise staying under 10 concurrent requests), no cap otherwise.
   */
  maxInFlight?: number;
  /** Longest pause a Retry-After imposes on the whole run (default 10 s); longer ones are cut to it. */
  maxPauseMs?: number;
  /**
   * The run's time budget (`--max-time`): once `now()` reaches `endsAt`, no
   * request starts (DC_ERR_BUDGET, so the rules left are NOT-TESTED), as once
   * the request count is spent. `said` is how the budget was given.
   */
  timeBudget?: { readonly endsAt: number; readonly now: () => number; readonly said: string };
}

/** What the server answered, for the pacer to learn from. */
export interface PacerAnswer {
  status: number;
  headers: Record<string, string>;
}

/** One request's turn: hold it while the request is in flight, release it with the answer. */
export interface Permit {
  /** Time the request waited for its turn, in ms. */
  readonly queuedMs: number;
  /** Hands the slot back; `answer` is what the server said (omit when no answer came). */
  release(answer?: PacerAnswer): void;
}

export interface PacerStats {
  /** Requests sent (retries included). */
  sent: number;
  /** Answers 429 received. */
  rateLimited: number;
  /** Time requests spent waiting for their turn, summed over requests, in ms. */
  queuedMs: number;
  /** Most requests in flight at once. */
  peakInFlight: number;
}

interface Waiter {
  resolve(permit: Permit): void;
  reject(error: unknown): void;
  enqueuedAt: number;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/** Multiplicative nudge of a learned rate per answer that was not a 429: probing upwards, slowly once measured. */
const PROBE_GROWTH = 1.05;
const MEASURED_GROWTH = 1.005;
/** A rate measured between two empty buckets is used with this margin. */
const MEASURED_MARGIN = 0.95;

/**
 * Paces every request of a run, shared by all its clients:
 *
 * - a total request count (`maxRequests`) and a time budget (`timeBudget`): beyond either,
 *   DC_ERR_BUDGET, so rules are NOT-TESTED;
 * - a cap on requests in flight;
 * - a 429's Retry-After pauses every request, not only the one refused;
 * - a fixed rate spaces requests evenly (no bursts);
 * - 'auto' keeps a model of the server's allowance: from `RateLimit` /
 *   `X-RateLimit-*` headers it knows what remains and how fast it comes back,
 *   and slows to that rate before the allowance runs out (keeping a small
 *   reserve); a server that only answers 429 + Retry-After teaches it the
 *   same: the requests answered between two empty buckets are the refill
 *   rate, which it then keeps to.
 *
 * Retries take the front of the queue, so a request refused once is not
 * starved by newer ones.
 */
export class Pacer {
  private sent = 0;
  private rateLimited = 0;
  private totalQueuedMs = 0;
  private peakInFlight = 0;
  private readonly queue: Waiter[] = [];
  private readonly inFlight = new Set<number>();
  private seq = 0;
  private lastObservedSeq = 0;
  private pausedUntil = 0;
  private nextSlot = 0;
  private consecutiveLimits = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;

  // The model of the server's allowance ('auto' only). Unknown until the server says something.
  private tokens: number | undefined;
  private tokensAt = 0;
  private capacity: number | undefined;
  private refillPerMs: number | undefined;
  /** Where the refill rate comes from: the server's headers are believed, a learned rate keeps probing. */
  private refillSource: 'headers' | 'probe' | 'measured' | undefined;
  private tokensFromHeaders = false;
  private emptyAt: number | undefined;
  private answeredSinceEmpty = 0;
  private answeredBeforeFirstLimit = 0;

  private readonly interval: number;
  private readonly maxInFlight: number;
  private readonly maxPauseMs: number;
  private readonly auto: boolean;

  constructor(readonly options: PacerOptions) {
    this.auto = options.rate === 'auto';
    this.interval = typeof options.rate === 'number' && options.rate > 0 ? 1000 / options.rate : 0;
    this.maxInFlight = options.maxInFlight ?? (this.auto ? 8 : 0);
    this.maxPauseMs = options.maxPauseMs ?? 10_000;
  }

  get requestsSent(): number {
    return this.sent;
  }

  stats(): PacerStats {
    return {
      sent: this.sent,
      rateLimited: this.rateLimited,
      queuedMs: Math.round(this.totalQueuedMs),
      peakInFlight: this.peakInFlight,
    };
  }

  /**
   * Waits for this request's turn. `priority` puts it at the front of the
   * queue (a retry). Throws DC_ERR_BUDGET when the request count is spent
   * (unless `exempt`: putting a target back is never cut short by the budget)
   * and DC_ERR_ABORTED when the signal fires first.
   */
  acquire(signal?: AbortSignal, priority = false, exempt = false): Promise<Permit> {
    if (signal?.aborted) return Promise.reject(aborted());
    const max = this.options.maxRequests;
    if (!exempt && max > 0 && this.sent + this.queue.length >= max) {
      return Promise.reject(new HarnessError('DC_ERR_BUDGET', `request budget of ${max} requests is spent`));
    }
    const time = this.options.timeBudget;
    if (!exempt && time && time.now() >= time.endsAt) {
      return Promise.reject(new HarnessError('DC_ERR_BUDGET', `time budget of ${time.said} (--max-time) is spent`));
    }
    const now = performance.now();
    if (this.queue.length === 0 && this.delayAt(now) <= 0) return Promise.resolve(this.dispatch(now, now));
    return new Promise<Permit>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, enqueuedAt: now };
      if (signal) {
        waiter.signal = signal;
        waiter.onAbort = () => {
          const index = this.queue.indexOf(waiter);
          if (index >= 0) this.queue.splice(index, 1);
          reject(aborted());
          this.pump();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      if (priority) this.queue.unshift(waiter);
      else this.queue.push(waiter);
      this.pump();
    });
  }

  /** Milliseconds until the next request may go; Infinity while it waits for a request in flight to end. */
  private delayAt(now: number): number {
    if (this.maxInFlight > 0 && this.inFlight.size >= this.maxInFlight) return Infinity;
    let wait = this.pausedUntil - now;
    if (this.interval > 0) wait = Math.max(wait, this.nextSlot - now);
    if (this.auto && this.tokens !== undefined) {
      const deficit = this.reserve() + 1 - this.available(now);
      if (deficit > 0) {
        if (this.refillPerMs !== undefined && this.refillPerMs > 0) wait = Math.max(wait, deficit / this.refillPerMs);
        // Nothing known about the refill: one request at a time, each answer tells more.
        else if (this.inFlight.size > 0) return Infinity;
      }
    }
    return wait;
  }

  /** Requests kept back when the server reports what remains: slow down before the bucket is empty. */
  private reserve(): number {
    if (!this.tokensFromHeaders) return 0;
    return Math.min(10, Math.max(1, Math.ceil((this.capacity ?? 0) * 0.05)));
  }

  private available(now: number): number {
    const tokens = this.tokens! + (this.refillPerMs ?? 0) * Math.max(0, now - this.tokensAt);
    return this.capacity !== undefined ? Math.min(this.capacity, tokens) : tokens;
  }

  private dispatch(now: number, enqueuedAt: number): Permit {
    const seq = ++this.seq;
    this.sent += 1;
    this.inFlight.add(seq);
    this.peakInFlight = Math.max(this.peakInFlight, this.inFlight.size);
    if (this.interval > 0) this.nextSlot = Math.max(now, this.nextSlot) + this.interval;
    if (this.auto && this.tokens !== undefined) {
      this.tokens = this.available(now) - 1;
      this.tokensAt = now;
    }
    const queuedMs = now - enqueuedAt;
    this.totalQueuedMs += queuedMs;
    let released = false;
    return {
      queuedMs,
      release: (answer) => {
        if (released) return;
        released = true;
        this.inFlight.delete(seq);
        if (answer) this.observe(seq, answer);
        this.pump();
      },
    };
  }

  private observe(seq: number, answer: PacerAnswer): void {
    const now = performance.now();
    const limited = answer.status === 429;
    if (!limited && !this.auto) {
      this.consecutiveLimits = 0;
      return;
    }
    const hint = readRateLimitHeaders(answer.headers);
    if (limited) {
      this.rateLimited += 1;
      this.consecutiveLimits += 1;
      // Without Retry-After: 1 s, doubling while the 429s go on.
      const wait = Math.min(this.maxPauseMs, hint.retryAfterMs ?? 1000 * 2 ** Math.min(5, this.consecutiveLimits - 1));
      this.pausedUntil = Math.max(this.pausedUntil, now + wait);
      if (this.auto) this.learnFromLimit(now, wait);
    } else {
      this.consecutiveLimits = 0;
      this.answeredSinceEmpty += 1;
      if (this.emptyAt === undefined) this.answeredBeforeFirstLimit += 1;
      if (this.refillPerMs !== undefined && this.refillSource === 'probe') this.refillPerMs *= PROBE_GROWTH;
      if (this.refillPerMs !== undefined && this.refillSource === 'measured') this.refillPerMs *= MEASURED_GROWTH;
    }
    this.applyHint(seq, now, hint);
  }

  /** A 429: the server's allowance is empty now. Time and answers since the last empty bucket give its refill rate. */
  private learnFromLimit(now: number, wait: number): void {
    if (this.refillSource !== 'headers') {
      const since = this.emptyAt === undefined ? 0 : now - this.emptyAt;
      // 429s in one cluster (the requests that were in flight together) measure nothing.
      if (this.emptyAt !== undefined && since > 2 * wait && this.answeredSinceEmpty >= 2) {
        this.refillPerMs = (this.answeredSinceEmpty / since) * MEASURED_MARGIN;
        this.refillSource = 'measured';
      } else if (this.refillPerMs === undefined) {
        // Retry-After promises at least one request after it: a lower bound to probe up from.
        this.refillPerMs = 1 / Math.max(wait, 50);
        this.refillSource = 'probe';
      }
    }
    if (this.capacity === undefined && this.emptyAt === undefined && this.answeredBeforeFirstLimit > 0) {
      this.capacity = this.answeredBeforeFirstLimit;
    }
    this.emptyAt = now;
    this.answeredSinceEmpty = 0;
    this.tokens = 0;
    this.tokensAt = now;
  }

  private applyHint(seq: number, now: number, hint: RateLimitHint): void {
    if (hint.limit !== undefined && hint.limit > 0) this.capacity = hint.limit;
    if (hint.sustainedPerSecond !== undefined && hint.sustainedPerSecond > 0) {
      this.refillPerMs = hint.sustainedPerSecond / 1000;
      this.refillSource = 'headers';
    }
    // An older answer says less than a newer one already did.
    if (hint.remaining === undefined || seq < this.lastObservedSeq) return;
    this.lastObservedSeq = seq;
    let sentSince = 0;
    for (const s of this.inFlight) if (s > seq) sentSince += 1;
    this.tokens = hint.remaining - sentSince;
    this.tokensAt = now;
    this.tokensFromHeaders = true;
    if (hint.sustainedPerSecond === undefined) {
      // No policy: what is missing comes back by the reset (exact for a bucket, cautious for a window).
      const { limit, resetSeconds } = hint;
      if (limit !== undefined && resetSeconds !== undefined && resetSeconds > 0 && limit > hint.remaining) {
        this.refillPerMs = (limit - hint.remaining) / (resetSeconds * 1000);
        this.refillSource = 'headers';
      }
    }
  }

  private pump(): void {
    const now = performance.now();
    while (this.queue.length > 0) {
      const delay = this.delayAt(now);
      if (delay > 0) {
        if (delay !== Infinity) this.arm(now + delay);
        return;
      }
      const waiter = this.queue.shift()!;
      if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.resolve(this.dispatch(now, waiter.enqueuedAt));
    }
  }

  private arm(at: number): void {
    if (this.timer !== undefined && this.timerAt <= at) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Infinity;
        this.pump();
      },
      Math.max(1, Math.ceil(at - performance.now())),
    );
  }
}

function aborted(): HarnessError {
  return new HarnessError('DC_ERR_ABORTED', 'run aborted');
}
