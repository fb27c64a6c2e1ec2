/**
 * The log a rule's judge reads: every answered exchange of the rule, in the
 * order the answers came, each as the judge reads it (the whole answer, not
 * the transcript's cut copy). The transcript for the report is kept apart
 * (first and last exchanges only); this log is complete, and a property
 * forgets each run's part once it is judged.
 */
import type { ApiResponse, Exchange } from '../core/exchange.ts';
import { observedFromExchange, type Observed } from '../rules/judges/observed.ts';
import type { Judgement } from '../rules/judges/judgement.ts';
import type { RuleLog } from '../rules/types.ts';

export class ExchangeLog implements RuleLog {
  private readonly entries: Observed[] = [];

  /** `onJudged` hears of every judgement made of this log, with its evidence. */
  constructor(private readonly onJudged?: (evidence: readonly Observed[], judgement: Judgement) => void) {}

  /** An exchange the rule's client recorded; one that got no answer holds nothing to judge. */
  add(exchange: Exchange, answer: ApiResponse | undefined): void {
    if (exchange.response && answer) this.entries.push(observedFromExchange(exchange, answer));
  }

  mark(): number {
    return this.entries.length;
  }

  since(mark: number): readonly Observed[] {
    return this.entries.slice(mark);
  }

  judged(evidence: readonly Observed[], judgement: Judgement): void {
    this.onJudged?.(evidence, judgement);
  }

  forget(mark: number): void {
    this.entries.length = Math.min(this.entries.length, Math.max(0, mark));
  }
}
