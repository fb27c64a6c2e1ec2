/**
 * The one shape of a rule's judge as the engine, the rejudge path and the
 * judge-logs recorder use it: a fold over the rule's exchanges, in the order
 * they came. A judge starts with a state made from the profile, takes each
 * exchange into it, and says at the end what they showed.
 *
 * Most rules write their judge as a function of the whole log (`RuleJudge`):
 * its fold keeps the exchanges and calls it at the end (`ofLog`). A rule
 * whose log is too big to keep writes the fold itself (`fold`): the engine
 * applies it exchange by exchange as the answers come and keeps only its
 * state, so `pagination.each-resource-once` judges a walk of a million
 * resources with a compact table of the ids seen, not a million resources.
 * The same fold judges a recorded log by folding over it (`judgeLog`).
 *
 * Why a fold, and not a big log cut into chunks each judged alone (as a
 * property's runs are, `ctx.judged`): the clause compares walks with one
 * another (the same set whatever the limit) and a page with every earlier
 * page of its walk (no resource twice), so a chunk judged alone cannot show
 * it, and state carried from chunk to chunk would live outside the judge,
 * where a recording cannot be judged by it. A fold keeps exactly the state
 * the clause needs, inside the judge, and every other judge is the fold that
 * keeps the log: the engine has one way to judge, whatever the rule.
 *
 * A judge is pure: what it says is a function of the exchanges and the
 * profile alone (no I/O, no clock, no randomness). A fold's state is its own,
 * made by `initial` for one judging and seen by nothing else, so `step` may
 * update it in place (a table of a million ids is not copied per exchange);
 * `end` only reads it, and may be asked at any point of the fold.
 */
import type { TargetProfile } from '../../target/profile.ts';
import type { Judgement } from './judgement.ts';
import type { Observed } from './observed.ts';

/** A judge written as a function of the whole log. */
export type RuleJudge = (log: readonly Observed[], profile: TargetProfile) => Judgement;

/** A judge written as a fold: an initial state, a step per exchange, an end that gives the judgement. */
export interface JudgeFold<S> {
  initial(profile: TargetProfile): S;
  /** The state once `o` is taken in (the same object, updated, or a new one). */
  step(state: S, o: Observed): S;
  /** What the exchanges taken in show; changes nothing. */
  end(state: S): Judgement;
}

/** One judging under way: a fold's state, hidden. */
export interface Folding {
  step(o: Observed): void;
  /** What the exchanges taken so far show; the fold may go on after. */
  end(): Judgement;
}

/** A rule's judge as everything that judges uses it: each judging starts its own fold. */
export interface Judge {
  start(profile: TargetProfile): Folding;
}

/** A judge written as a fold, its state's type hidden. */
export function fold<S>(judge: JudgeFold<S>): Judge {
  return {
    start(profile) {
      let state = judge.initial(profile);
      return {
        step(o) {
          state = judge.step(state, o);
        },
        end: () => judge.end(state),
      };
    },
  };
}

/** A judge of the whole log as a fold: its state is the exchanges, judged at the end. */
export function ofLog(judge: RuleJudge): Judge {
  return fold<{ log: Observed[]; profile: TargetProfile }>({
    initial: (profile) => ({ log: [], profile }),
    step(state, o) {
      state.log.push(o);
      return state;
    },
    // A copy: the fold may go on after, and what was judged must not change.
    end: ({ log, profile }) => judge([...log], profile),
  });
}

/** A recorded log, judged by folding over it. */
export function judgeLog(judge: Judge, log: readonly Observed[], profile: TargetProfile): Judgement {
  const judging = judge.start(profile);
  for (const o of log) judging.step(o);
  return judging.end();
}
