import { HarnessError } from '../core/errors.ts';

export interface RequestBudgetOptions {
  /** Requests per second across the run; 0 = no cap. */
  ratePerSecond: number;
  /** Total requests the run may send; 0 = no cap. Rules left when it runs out are NOT-TESTED. */
  maxRequests: number;
}

/**
 * A politeness budget shared by every client of a run: a request-rate cap
 * (spaced evenly, no bursts) and a total request count.
 */
export class RequestBudget {
  private sent = 0;
  private nextSlot = 0;

  constructor(private readonly options: RequestBudgetOptions) {}

  get requestsSent(): number {
    return this.sent;
  }

  async take(signal?: AbortSignal): Promise<void> {
    if (this.options.maxRequests > 0 && this.sent >= this.options.maxRequests) {
      throw new HarnessError('DC_ERR_BUDGET', `request budget of ${this.options.maxRequests} requests is spent`);
    }
    this.sent += 1;
    if (this.options.ratePerSecond <= 0) return;
    const interval = 1000 / this.options.ratePerSecond;
    const now = performance.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + interval;
    const wait = slot - now;
    if (wait > 1) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, wait);
        signal?.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            reject(new HarnessError('DC_ERR_ABORTED', 'run aborted'));
          },
          { once: true },
        );
      });
    }
  }
}
