/**
 * Which of a set of exchanges were in flight at once, as their times tell
 * (Observed's `at`): one sent before another's answer came, and answered
 * after it was sent. Exchanges without times are taken one after another.
 * Sorted once, each question is a binary search: a long recording's reads
 * are not each compared with every write.
 */
import type { Observed } from './observed.ts';

type Span = NonNullable<Observed['at']>;

export class Flights {
  /** The spans with times, by when each was sent. */
  private readonly spans: Span[];
  /** The latest answer among the spans up to each one. */
  private readonly latest: number[];
  /** The exchanges in flight with another of the set. */
  private readonly together = new Set<Observed>();

  constructor(exchanges: readonly Observed[]) {
    const timed = exchanges.flatMap((o) => (o.at ? [{ o, at: o.at }] : [])).sort((a, b) => a.at.sent - b.at.sent);
    this.spans = timed.map((t) => t.at);
    this.latest = [];
    let latest = Number.NEGATIVE_INFINITY;
    for (const [i, { o, at }] of timed.entries()) {
      // Sorted by when they were sent: one sent earlier overlaps this one when its answer came after this was
      // sent; of those sent later, the next one overlaps it if any does.
      const next = timed[i + 1];
      if (latest > at.sent || (next !== undefined && next.at.sent < at.answered)) this.together.add(o);
      latest = Math.max(latest, at.answered);
      this.latest.push(latest);
    }
  }

  /** Whether `o`, one of the set, was in flight with another of it. */
  withAnother(o: Observed): boolean {
    return this.together.has(o);
  }

  /** Whether `o`, any exchange, was in flight with one of the set. */
  during(o: Observed): boolean {
    if (!o.at) return false;
    const { sent, answered } = o.at;
    // The spans sent before `o` was answered: one of them overlaps it when its answer came after `o` was sent.
    let [low, high] = [0, this.spans.length];
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((this.spans[mid]?.sent ?? Number.POSITIVE_INFINITY) < answered) low = mid + 1;
      else high = mid;
    }
    return low > 0 && (this.latest[low - 1] ?? Number.NEGATIVE_INFINITY) > sent;
  }
}
