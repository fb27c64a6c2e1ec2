import type { Exchange } from '../core/exchange.ts';
import type { ErrorAnswer } from '../rules/types.ts';

/**
 * The 4xx answers of a run, for the rule that judges every one of them (§7:
 * every error body carries a message). A 429 is left out: it says the request
 * was not processed, and the response to an exceeded rate limit is not shown
 * (§8). Past the cap only the count grows, so a long run stays small in memory.
 */
export class ErrorAnswers {
  private readonly answers: ErrorAnswer[] = [];
  private dropped = 0;

  constructor(private readonly cap = 5_000) {}

  add(ruleId: string, exchange: Exchange): void {
    const status = exchange.response?.status;
    if (status === undefined || status < 400 || status > 499 || status === 429) return;
    if (this.answers.length < this.cap) this.answers.push({ ruleId, exchange });
    else this.dropped += 1;
  }

  all(): readonly ErrorAnswer[] {
    return [...this.answers];
  }

  /** Answers received beyond the cap, not kept. */
  get beyondCap(): number {
    return this.dropped;
  }
}
