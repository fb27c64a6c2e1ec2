/**
 * How a rule reads traffic the suite did not send, as its record says it
 * (`traffic`, src/rules/types.ts): the readings themselves are
 * untagged-traffic.ts's `TRAFFIC`. Types only, so that the rule record can
 * name them without importing the judges.
 */
import type { Judge } from './fold.ts';
import type { Judgement } from './judgement.ts';
import type { Observed, SharedCheck } from './observed.ts';

/** An exchange of the traffic with its place in it: what a rule judged is told by these places. */
export interface Placed {
  readonly o: Observed;
  readonly at: number;
}

/**
 * How a rule reads untagged traffic:
 * - `its judge`: the rule's own judge, over each log `logs` makes of the
 *   traffic; with several, `all` must hold in each (any departure decides,
 *   one without evidence leaves the rule without it), `any` needs one that
 *   shows the clause (any departure decides; one clean log is evidence enough);
 *   Where the rule's own judge reads the steps its driver named (a sequence
 *   the traffic does not hold, the model-based sequences' `judgeSequence`),
 *   `judge` is one of the same clause written for traffic;
 * - `answers`: a judge of one answer, on each answer of `operation` that
 *   is `accepted` (2xx: a refusal of a request whose validity the traffic
 *   does not tell is no answer to shape) or a §4.3 `warning`: the judges the
 *   shared steps run for the rule (the ExchangeJudges its record names among
 *   its `checks`), or the one its own judge applies to each answer.
 */
export type TrafficReading =
  | {
      readonly by: 'its judge';
      readonly logs: (traffic: readonly Placed[]) => ReadonlyArray<readonly Placed[]>;
      readonly each: 'all' | 'any';
      /**
       * The same judgement as a fold whose state stays bounded, for traffic
       * that never ends (the proxy's): fed every exchange it `takes` over the
       * whole session, so it compares answers however far apart they came
       * (a read before a revocation and the read after it).
       */
      readonly session?: { readonly takes: (o: Observed) => boolean; readonly judge: Judge };
      /**
       * A judge of the same clause that finds its evidence by what the
       * requests asked for, in place of the rule's own, which reads the steps
       * its driver named (and may hold them to more than traffic can show).
       */
      readonly judge?: Judge;
      /**
       * Read by long stretches in the proxy, cut only at their budget: its
       * log's exchanges (a write and the reads around it) seldom come within
       * one walk, where the other logs' stretches end.
       */
      readonly long?: true;
      /**
       * The rule's judge is a fold that keeps only its state: the proxy feeds
       * it every walk of the session, one after another, in one log.
       */
      readonly foldsWalks?: true;
    }
  | {
      readonly by: 'answers';
      readonly operation: string;
      readonly which: 'accepted' | 'warning';
      readonly judge: (o: Observed) => Judgement;
    };

/** A rule's reading as its record names it: a reading, or one made of the shared checks its record names. */
export type TrafficReadingOf = TrafficReading | ((checks: readonly SharedCheck[]) => TrafficReading);
