import type { Pacer } from './pacer.ts';
import type { AttemptOptions, AttemptOutcome, SendAttempt, TransportRequest } from './transport.ts';

/**
 * Each attempt waits for its turn from the run's pacer, and hands the turn
 * back as soon as the answer's headers are in: the pacer learns the server's
 * limits from them (a 429, rate-limit headers) before the body is read. A
 * repeat goes to the front of the queue. Throws what the pacer throws (the
 * budget is spent: DC_ERR_BUDGET; the run was aborted).
 */
export function pace(pacer: Pacer): (next: SendAttempt) => SendAttempt {
  return (next) =>
    async (request: TransportRequest, attempt: AttemptOptions): Promise<AttemptOutcome> => {
      const permit = await pacer.acquire(request.signal, attempt.retry, request.exemptFromBudget);
      try {
        const outcome = await next(request, {
          retry: attempt.retry,
          onHeaders: (status, headers) => permit.release({ status, headers }),
        });
        outcome.queuedMs = permit.queuedMs;
        return outcome;
      } finally {
        // A no-op when the headers came; otherwise the turn is handed back without an answer.
        permit.release();
      }
    };
}
