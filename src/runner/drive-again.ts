/**
 * How a FAIL is driven again to confirm it, and what the attempts decide.
 *
 * Most rules are driven once more: the failing example (a property's shrunk
 * counterexample, through its replay path), and the departure repeats when
 * that attempt shows one at the same place with the same message
 * (same-departure.ts). A rule that repeats its judged request (one-in-n.ts)
 * is driven again until the rate of its departure is decided
 * (departure-rate.ts): one repeat in thirty more judged requests is what a
 * middlebox spoiling one answer in thirty gives too. A rule that cannot be
 * undone (a revocation) is driven again on another resource (or role),
 * where a counterexample drawn for the first one's data may mean nothing: a
 * property of those whose counterexample does not show the departure there
 * is driven again whole, as its first attempt found it, and the same
 * departure may show after another command of a drawn sequence
 * (same-departure.ts, `anotherResource`). Such an example rule whose
 * departure is in an answer's status or body (a write's own answer, which
 * cannot be sent again; a read's is sent again first, reads-again.ts) is
 * confirmed on two more resources where the target can spare them: a
 * middlebox spoiling one answer in thirty repeats a departure once one time
 * in thirty, twice one time in nine hundred. With no second resource left,
 * the first confirmation stands. A departure in the state shown after the
 * change is confirmed once: another resource's data may not show it again.
 */
import type { RuleResult } from '../core/types.ts';
import { DepartureRateTest, type RateDecision } from '../rules/departure-rate.ts';
import type { Rule } from '../rules/types.ts';
import { sameDeparture } from './same-departure.ts';

/** What an attempt drives: the failing example (the first attempt's way, for a rule without one), or the whole property. */
export type Drive = 'counterexample' | 'whole';

export interface DriveAgain {
  rule: Rule;
  first: RuleResult;
  /** Drives the rule again: its result, and the judged requests it sent (a rule that repeats them). */
  attempt(drive: Drive): Promise<{ result: RuleResult; judgedRequests: number }>;
  interrupted(): boolean;
}

export type Confirmation =
  | { outcome: 'confirmed'; tried: RuleResult[] }
  | { outcome: 'not repeated'; reason: string; tried: RuleResult[] }
  /** The last attempt ended in neither a PASS nor a FAIL: it says why. */
  | { outcome: 'undecided'; last: RuleResult; tried: RuleResult[] };

export async function driveAgain({ rule, first, attempt, interrupted }: DriveAgain): Promise<Confirmation> {
  const anotherResource = rule.mutates === 'irreversible';
  const counterexample = first.replay?.counterexample;
  const repeats = (r: RuleResult): boolean =>
    r.verdict === 'FAIL' &&
    sameDeparture(
      first.violations,
      r.violations,
      { first: counterexample, again: r.replay?.counterexample },
      { anotherResource, anyValue: rule.repeats !== undefined },
    );
  const replayed = first.replay !== undefined;
  const drives: Drive[] =
    anotherResource && replayed && !rule.repeats ? ['counterexample', 'whole'] : ['counterexample'];
  // An irreversible example rule departing in an answer: both attempts must repeat it (the second where a resource is left).
  const twice =
    anotherResource &&
    !replayed &&
    !rule.repeats &&
    first.violations.some((v) => /response\.(status|body|headers)/.test(v.where));
  // Weighed by the judged requests each attempt sent: a replayed counterexample that holds goes on to the
  // values shrinking tried beside it, so an attempt sends one run's or several.
  const rate = rule.repeats ? new DepartureRateTest() : undefined;
  const tried: RuleResult[] = [];
  for (let i = 0; ; i++) {
    const drive = drives[Math.min(i, drives.length - 1)] ?? 'counterexample';
    const { result: again, judgedRequests } = await attempt(drive);
    if (again.verdict !== 'PASS' && again.verdict !== 'FAIL') {
      // No resource left for a second confirmation: the first one stands.
      if (twice && i > 0) break;
      return { outcome: 'undecided', last: again, tried: [...tried, again] };
    }
    tried.push(again);
    rate?.observe(judgedRequests, repeats(again));
    const more = rate
      ? rate.canAttempt()
      : twice
        ? repeats(again) && i === 0
        : !repeats(again) && i + 1 < drives.length;
    if (!more || interrupted()) break;
  }
  const confirmed = rate ? rate.end() === 'server' : twice ? tried.every(repeats) : tried.some(repeats);
  if (confirmed) return { outcome: 'confirmed', tried };
  return { outcome: 'not repeated', reason: whyNot(tried, repeats, rate, interrupted(), anotherResource), tried };
}

/** Why a departure driven again was not confirmed, from what the attempts showed. */
function whyNot(
  tried: readonly RuleResult[],
  repeats: (r: RuleResult) => boolean,
  rate: DepartureRateTest | undefined,
  interrupted: boolean,
  anotherResource: boolean,
): string {
  const last = tried[tried.length - 1];
  const where = anotherResource ? ' on another resource or role' : '';
  const times = tried.length === 1 ? `driven again${where}` : `driven again${where} ${tried.length} times`;
  if (rate) {
    const shown = `it showed in ${tried.filter(repeats).length} of ${tried.length} attempts (${rate.judged} judged requests)`;
    if (interrupted) return `the run was interrupted before the rate of the departure was decided: ${shown}`;
    return decisionReason(rate.end(), shown, times, rate.judged);
  }
  if (interrupted) return `the run was interrupted before the departure could repeat (the attempts are shown)`;
  return last?.verdict === 'FAIL'
    ? `the departure did not repeat when the failing example was ${times}: the last attempt departed ` +
        `elsewhere (${last.violations[0]?.where ?? ''}; the attempts are shown)`
    : `the departure did not repeat when the failing example was ${times} (the attempts are shown)`;
}

function decisionReason(decision: RateDecision, shown: string, times: string, judged: number): string {
  return decision === 'glitch'
    ? `the departure did not come often enough to be the server's when the failing example was ${times}: ` +
        `${shown}, the rate of an answer spoiled now and then, not of one time in ten (the attempts are shown)`
    : `the rate of the departure was not decided within ${judged} judged requests: ${shown} (the attempts are shown)`;
}
