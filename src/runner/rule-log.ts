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
  /** The recorded exchange each entry was read from, for a FAIL's trace; dropped with the entry. */
  private readonly recorded = new WeakMap<Observed, Exchange>();
  /** The property run under way (0: none yet), and whether one is. */
  private run = 0;
  private inRun = false;

  /** `onJudged` hears of every judgement made of this log, with its evidence. */
  constructor(private readonly onJudged?: (evidence: readonly Observed[], judgement: Judgement) => void) {}

  /** An exchange the rule's client recorded; one that got no answer holds nothing to judge. */
  add(exchange: Exchange, answer: ApiResponse | undefined): void {
    // Tagged, a property's exchanges can be judged again run by run from a recording.
    if (this.inRun) exchange.run = this.run;
    if (exchange.response && answer) {
      const observed = observedFromExchange(exchange, answer);
      this.recorded.set(observed, exchange);
      this.entries.push(observed);
    }
  }

  /** The recorded exchange (as the report shows it) that `observed` was read from. */
  exchangeOf(observed: Observed): Exchange | undefined {
    return this.recorded.get(observed);
  }

  mark(): number {
    return this.entries.length;
  }

  startRun(): number {
    this.run += 1;
    this.inRun = true;
    return this.entries.length;
  }

  since(mark: number): readonly Observed[] {
    return this.entries.slice(mark);
  }

  judged(evidence: readonly Observed[], judgement: Judgement): void {
    this.onJudged?.(evidence, judgement);
  }

  forget(mark: number): void {
    this.inRun = false;
    this.entries.length = Math.min(this.entries.length, Math.max(0, mark));
  }
}
