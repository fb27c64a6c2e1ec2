/**
 * What a model-based judge says of a sequence step by step, for the report
 * of a FAIL: each command with the ids it sent, the exchanges that belong to
 * it (its own request, then the reads that judged it), the state the model
 * expected beside what the server showed, and their first difference. It is
 * the judge's own replay told step by step, so a trace and a verdict cannot
 * disagree; a pure function of the log, like the judge.
 */
import type { ReplayCheck, StateDifference } from '../../core/types.ts';
import type { TargetProfile } from '../../target/profile.ts';
import type { Observed } from './observed.ts';
import { firstDifference } from './state-difference.ts';

/** One step of a sequence as a judge replayed it; `evidence` indexes the log it read. */
export interface ExplainedStep {
  command: string;
  evidence: number[];
  expected?: unknown;
  shown?: unknown;
  difference?: StateDifference;
  /** How a reproducer judges the answer again; `exchange` indexes this step's `evidence`. */
  check?: ReplayCheck;
}

/** A rule's explainer: the judge's replay of one sequence, step by step. */
export type RuleExplainer = (log: readonly Observed[], profile: TargetProfile) => ExplainedStep[];

/** Collects the steps while a judge replays a log. */
export class TraceBuilder {
  readonly steps: ExplainedStep[] = [];

  /** A new step, begun by the command at `at` in the log, after the reads at `before` (the state it started from). */
  begin(command: string, at: number, before: readonly number[] = []): void {
    this.steps.push({ command, evidence: [...before, at] });
  }

  /** An exchange the current step read; before the first command there is no step to keep it. */
  saw(at: number): void {
    this.steps.at(-1)?.evidence.push(at);
  }

  /**
   * The state the model expected after the current step and what the server
   * showed, in the same terms, read by the exchange at `at`; where they
   * differ, `checkOf` says how a reproducer judges that answer again (given
   * the answer's place among the step's exchanges).
   */
  judged(at: number, expected: unknown, shown: unknown, checkOf?: (exchange: number) => ReplayCheck | undefined): void {
    const step = this.steps.at(-1);
    if (!step) return;
    step.expected = expected;
    step.shown = shown;
    const difference = firstDifference(expected, shown);
    if (!difference) return;
    step.difference = difference;
    const exchange = step.evidence.lastIndexOf(at);
    const check = exchange < 0 ? undefined : checkOf?.(exchange);
    if (check) step.check = check;
  }
}
