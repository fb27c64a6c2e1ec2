/**
 * The log a rule's judge reads: every answered exchange of the rule, in the
 * order the answers came, each as the judge reads it (the whole answer, not
 * the transcript's cut copy). The engine does not keep the log and then
 * judge it: it folds each exchange into the rule's judge as it comes
 * (src/rules/judges/fold.ts) and keeps what the judge keeps. A judge of the
 * whole log keeps the exchanges; a judge written as a fold keeps its state
 * (a walk of a million resources: a table of the ids seen). An example
 * rule's exchanges are folded into one judging from the start; a property's
 * into one judging per run, forgotten once judged. The transcript for the
 * report is kept apart (first and last exchanges only).
 */
import type { ApiResponse, Exchange } from '../core/exchange.ts';
import { observedFromExchange, type Observed } from '../rules/judges/observed.ts';
import type { Folding, Judge } from '../rules/judges/fold.ts';
import type { Judgement } from '../rules/judges/judgement.ts';
import type { RuleLog } from '../rules/types.ts';
import type { TargetProfile } from '../target/profile.ts';

/** Hears of every judgement made of a log, with the exchanges it judged. */
export type OnJudged = (evidence: readonly Observed[], judgement: Judgement) => void;

/**
 * One judging under way. It takes each exchange into the fold one exchange
 * late: when a step reports another rule's departure in the latest answer,
 * what came before it can still be judged alone (`before`). The exchanges
 * themselves are kept only when someone asked to hear the evidence (the
 * judge-logs recorder, a FAIL's trace): otherwise a judging keeps what its
 * judge keeps.
 */
class Judging {
  private readonly folding: Folding;
  private latest: Observed | undefined;
  private folded = 0;
  private readonly kept: Observed[] | undefined;
  /** The judgement of what came before the first answer that showed another rule's departure. */
  private beforeFound: { judgement: Judgement; count: number } | undefined;

  constructor(judge: Judge, profile: TargetProfile, keep: boolean) {
    this.folding = judge.start(profile);
    this.kept = keep ? [] : undefined;
  }

  add(o: Observed): void {
    if (this.latest) {
      this.folding.step(this.latest);
      this.folded += 1;
    }
    this.latest = o;
    this.kept?.push(o);
  }

  /** The latest answer showed another rule's departure: what came before it is judged now, the first time. */
  found(): void {
    this.beforeFound ??= { judgement: this.folding.end(), count: this.folded };
  }

  /** Every exchange taken in, judged. */
  end(): { judgement: Judgement; evidence: readonly Observed[] } {
    if (this.latest) {
      this.folding.step(this.latest);
      this.folded += 1;
      this.latest = undefined;
    }
    return { judgement: this.folding.end(), evidence: this.kept ?? [] };
  }

  /** The exchanges before the first answer that showed another rule's departure (before the latest when none did), judged. */
  before(): { judgement: Judgement; evidence: readonly Observed[] } {
    const { judgement, count } = this.beforeFound ?? { judgement: this.folding.end(), count: this.folded };
    return { judgement, evidence: this.kept?.slice(0, count) ?? [] };
  }
}

export class ExchangeLog implements RuleLog {
  /** The property run under way (0: none yet), and whether one is. */
  private run = 0;
  private inRun = false;
  /** An example rule's judging of its whole log, from the start. */
  private readonly whole: Judging | undefined;
  /** A property's judging of the run under way. */
  private current: Judging | undefined;
  /** The recorded exchange each kept entry was read from, for a FAIL's trace; dropped with the entry. */
  private readonly recorded = new WeakMap<Observed, Exchange>();
  /** Judged requests the driver sent through `ctx.repeat`. */
  private judged = 0;

  /**
   * `judge`: the rule's, with what it judges (an example rule's whole log, or
   * each of a property's runs; nothing for a rule judged otherwise: written
   * as one check, or judging the run's error answers). `onJudged` hears of
   * every judgement made of this log, with its evidence.
   */
  constructor(
    private readonly judge: { judge: Judge; judges: 'whole log' | 'each run' } | undefined,
    private readonly profile: TargetProfile,
    private readonly onJudged?: OnJudged,
  ) {
    if (judge?.judges === 'whole log') this.whole = new Judging(judge.judge, profile, onJudged !== undefined);
  }

  /** An exchange the rule's client recorded; one that got no answer holds nothing to judge. */
  add(exchange: Exchange, answer: ApiResponse | undefined): void {
    // Tagged, a property's exchanges can be judged again run by run from a recording.
    if (this.inRun) exchange.run = this.run;
    if (!exchange.response || !answer) return;
    const judging = this.whole ?? this.current;
    if (!judging) return;
    const observed = observedFromExchange(exchange, answer);
    if (this.onJudged) this.recorded.set(observed, exchange);
    judging.add(observed);
  }

  /** The recorded exchange (as the report shows it) that `observed`, an entry heard by `onJudged`, was read from. */
  exchangeOf(observed: Observed): Exchange | undefined {
    return this.recorded.get(observed);
  }

  /** A step reported another rule's departure in the latest answer (see `before`). */
  found(): void {
    this.whole?.found();
  }

  /** An example rule's whole log, judged (undefined when it is judged otherwise). */
  end(): Judgement | undefined {
    if (!this.whole) return undefined;
    const { judgement, evidence } = this.whole.end();
    this.onJudged?.(evidence, judgement);
    return judgement;
  }

  /**
   * What an example rule's exchanges before the first answer that showed
   * another rule's departure show (its driver stopped there): what came after
   * says nothing of its clause. Heard by `onJudged` only when it is the verdict.
   */
  before(): { judgement: Judgement; report(): void } | undefined {
    if (!this.whole) return undefined;
    const { judgement, evidence } = this.whole.before();
    return { judgement, report: () => this.onJudged?.(evidence, judgement) };
  }

  startRun(): void {
    this.run += 1;
    this.inRun = true;
    if (this.judge?.judges === 'each run')
      this.current = new Judging(this.judge.judge, this.profile, this.onJudged !== undefined);
  }

  endRun(): Judgement {
    const judging = this.current;
    if (!judging) throw new Error('no run of a property with a judge is under way');
    const { judgement, evidence } = judging.end();
    this.onJudged?.(evidence, judgement);
    return judgement;
  }

  dropRun(): void {
    this.inRun = false;
    this.current = undefined;
  }

  judgedSent(): void {
    this.judged += 1;
  }

  /** Judged requests the driver sent through `ctx.repeat`. */
  get judgedRequests(): number {
    return this.judged;
  }
}
