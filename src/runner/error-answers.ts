import type { Exchange } from '../core/exchange.ts';
import { recordedErrorMessage } from '../rules/assertions.ts';
import { observedFromExchange, type Observed } from '../rules/judges/observed.ts';
import type { ErrorAnswer, ErrorAnswersSeen } from '../rules/types.ts';

/**
 * The 4xx answers of a run, for the rule that judges every one of them (§7:
 * every error body carries a message). A 429 is left out: it says the request
 * was not processed, and the response to an exceeded rate limit is not shown
 * (§8).
 *
 * Memory stays bounded on a long run without leaving an answer unjudged: up
 * to the cap every answer is kept; past it, an answer with a message has
 * passed the rule already and is only counted, and one without (the answers
 * the rule fails on, or cannot judge: a cut body, a warning) is kept up to a
 * second cap, then counted.
 */
export class ErrorAnswers {
  private readonly kept: ErrorAnswer[] = [];
  private withMessage = 0;
  private withoutMessage = 0;

  constructor(private readonly cap = 5_000) {}

  add(ruleId: string, exchange: Exchange): void {
    if (!exchange.response) return;
    const { status, body } = exchange.response;
    if (status < 400 || status > 499 || status === 429) return;
    if (this.kept.length < this.cap) this.kept.push({ ruleId, exchange });
    else if (recordedErrorMessage(body) !== undefined) this.withMessage += 1;
    else if (this.kept.length < 2 * this.cap) this.kept.push({ ruleId, exchange });
    else this.withoutMessage += 1;
  }

  /**
   * The kept answers as a judge reads them, in the order they came: the log
   * the judge of the rule that judges them all is handed. A body the
   * transcript cut short is left out: it is not the answer, and cannot be read.
   */
  observed(): Observed[] {
    return this.kept.filter((a) => !a.exchange.response.truncated).map((a) => observedFromExchange(a.exchange));
  }

  seen(): ErrorAnswersSeen {
    return {
      kept: [...this.kept],
      withMessageNotKept: this.withMessage,
      withoutMessageNotKept: this.withoutMessage,
    };
  }
}
