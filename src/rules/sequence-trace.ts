/**
 * What a model-based property records of one sequence, step by step: the
 * command with the ids it sent, its request and the reads that judged it,
 * the state the model expected and what the server showed. The engine keeps
 * the trace of the failing (shrunk) sequence on the rule's result.
 */
import type { DirectoryClient } from '../client/directory-client.ts';
import type { Exchange } from '../core/exchange.ts';
import type { ReplayCheck, StateDifference, TraceStep } from '../core/types.ts';
import { firstDifference } from './state-difference.ts';

export class SequenceTrace {
  readonly steps: TraceStep[] = [];

  /** A new step: the exchanges seen from now on are its own. */
  begin(command: string): void {
    this.steps.push({ command, exchanges: [] });
  }

  /** An exchange the sequence's client recorded; before the first step there is none to keep. */
  saw(exchange: Exchange): void {
    this.steps.at(-1)?.exchanges.push(exchange);
  }

  /** How many exchanges the current step has so far: the index the next one will take. */
  get nextExchange(): number {
    return this.steps.at(-1)?.exchanges.length ?? 0;
  }

  /**
   * The state the model expected after the current step and what the server
   * showed, in the same terms; where they differ, `checkOf` says how a
   * reproducer judges the answer again at the first difference.
   */
  judged(expected: unknown, shown: unknown, checkOf?: (d: StateDifference) => ReplayCheck | undefined): void {
    const step = this.steps.at(-1);
    if (!step) return;
    step.expected = expected;
    step.shown = shown;
    const difference = firstDifference(expected, shown);
    if (!difference) return;
    step.difference = difference;
    const check = checkOf?.(difference);
    if (check) step.check = check;
  }
}

/**
 * The sequence's target with its client tapped: every exchange its commands
 * send is recorded by the engine as before and kept in `trace` too.
 */
export function traced<R extends { ctx: { client: DirectoryClient } }>(
  real: R,
  trace: SequenceTrace,
): R & { trace: SequenceTrace } {
  return { ...real, ctx: { ...real.ctx, client: real.ctx.client.tapped((e) => trace.saw(e)) }, trace };
}
