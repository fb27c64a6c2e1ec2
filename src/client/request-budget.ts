import { Pacer } from './pacer.ts';

export interface RequestBudgetOptions {
  /** Requests per second across the run; 0 = no cap. */
  ratePerSecond: number;
  /** Total requests the run may send; 0 = no cap. Rules left when it runs out are NOT-TESTED. */
  maxRequests: number;
}

/**
 * The run's request budget at a fixed rate: a Pacer with a fixed rate (spaced
 * evenly, no bursts) and a total request count. Kept for callers that only
 * need those two; `Pacer` adds adaptive pacing and a cap on requests in flight.
 */
export class RequestBudget extends Pacer {
  constructor(options: RequestBudgetOptions) {
    super({ rate: options.ratePerSecond, maxRequests: options.maxRequests });
  }

  /** Waits for a turn and gives it back at once (no answer to learn from). */
  async take(signal?: AbortSignal): Promise<void> {
    (await this.acquire(signal)).release();
  }
}
