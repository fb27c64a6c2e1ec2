/**
 * Reads the server answered the same way twice in a row. A departure is
 * confirmed when an attempt driven again, or a read sent again, shows it
 * once more: one answer spoiled on its way there (a middlebox flipping a
 * value) would show a departure of its own and could pass for that repeat,
 * the more so for a revocation driven again on other data and held to a
 * looser idea of the same departure. Through this link each read is sent
 * twice; when the two answers differ it is sent a third time, and that
 * answer stands: the one two of the three gave (or the last, when all three
 * differ). A server's departure shows in both reads, a stale one too (the
 * second read follows the first at once); a lone spoiled answer is outvoted.
 * The reads count as the request's attempts; the answer that stands is the
 * one recorded. Not for a rule that repeats its judged request: its
 * departure may come one time in ten, and is confirmed by how often it
 * comes.
 */
import { READ_OPERATIONS } from '../schemas/operations.ts';
import type { Delivery, SendRequest, TransportRequest } from './transport.ts';

export function agreedReads(): (next: SendRequest) => SendRequest {
  return (next) =>
    async (request: TransportRequest): Promise<Delivery> => {
      const first = await next(request);
      if (!READ_OPERATIONS.has(request.operation) || !first.outcome.ok) return first;
      const second = await next(request);
      // A second read that got no answer says nothing against the first, which stands (the request counted).
      if (!second.outcome.ok) return { ...first, attempts: first.attempts + second.attempts };
      if (sameAnswer(first, second)) return after([first], second);
      // Whichever of the two it agrees with, the third answer is the one two reads gave (or the last of three).
      return after([first, second], await next(request));
    };
}

function sameAnswer(a: Delivery, b: Delivery): boolean {
  return (
    a.outcome.ok && b.outcome.ok && a.outcome.status === b.outcome.status && a.outcome.bytes.equals(b.outcome.bytes)
  );
}

/**
 * `last`, the delivery that stands, with the requests of `earlier` counted
 * among its attempts. What they got is not among its earlier attempts: those
 * are the client's repeats of a failure (retry.ts), which judges name in
 * what they say (`answers: 503, then 200`), and a read sent again to agree
 * is no such repeat.
 */
function after(earlier: readonly Delivery[], last: Delivery): Delivery {
  return {
    ...last,
    attempts: earlier.reduce((n, d) => n + d.attempts, last.attempts),
    queuedMs: earlier.reduce((n, d) => n + d.queuedMs, last.queuedMs),
    retryWaitMs: earlier.reduce((n, d) => n + d.retryWaitMs, last.retryWaitMs),
  };
}
