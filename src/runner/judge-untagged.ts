/**
 * Traffic the suite did not send, judged: HAR entries of any client, with no
 * rule, step or run, are read by the rules that can be judged from traffic
 * alone (each says how in its record, `traffic`), each under its catalogue id and by its own judge
 * or the judges of one answer its clause owns. Each ends PASS, FAIL or
 * NOT-APPLICABLE (the traffic holds no evidence of its clause; NO-VERDICT
 * where its answers said nothing, a 429 or a 5xx), with the HAR entries it
 * judged. No request is sent.
 */
import { judgeLog } from '../rules/judges/fold.ts';
import { judgeAll, noEvidence, type Judgement } from '../rules/judges/judgement.ts';
import { answerJudged, judgeAny, type Placed, type TrafficReading } from '../rules/judges/untagged-traffic.ts';
import type { Rule } from '../rules/types.ts';
import type { TargetProfile } from '../target/profile.ts';
import type { RecordedExchange } from './recorded-traffic.ts';
import { fromJudgement, type Rejudged } from './rejudge.ts';

/** The rules of `rules` that traffic alone can judge, each with the reading its record names. */
export function trafficRules(rules: readonly Rule[]): Array<Rule & { traffic: TrafficReading }> {
  return rules.flatMap((r) => (r.traffic ? [{ ...r, traffic: r.traffic }] : []));
}

/** One rule's judgement of the traffic, and the places of what it judged (the proxy judges its traffic by stretches with it). */
export function judgedByReading(
  rule: Rule,
  reading: TrafficReading,
  traffic: readonly Placed[],
  profile: TargetProfile,
): { judgement: Judgement; at: number[] } {
  if (reading.by === 'answers') {
    const answers = traffic.filter((p) => answerJudged(reading, p.o));
    const judgement =
      answers.length === 0
        ? noEvidence(
            `the traffic holds no ${reading.which === 'warning' ? 'warning' : '2xx'} answer of ${reading.operation}`,
          )
        : judgeAll(answers.map((p) => reading.judge(p.o)));
    return { judgement, at: answers.map((p) => p.at) };
  }
  const logs = reading.logs(traffic).filter((log) => log.length > 0);
  // No log at all: the rule's judge, given nothing, says what evidence it lacks.
  const parts = (logs.length > 0 ? logs : [[]]).map((log) =>
    judgeLog(
      reading.judge ?? rule.judge,
      log.map((p) => p.o),
      profile,
    ),
  );
  const judgement = reading.each === 'any' ? judgeAny(parts) : judgeAll(parts);
  return { judgement, at: [...new Set(logs.flat().map((p) => p.at))].sort((a, b) => a - b) };
}

/**
 * Every rule of `rules` that traffic alone can judge, judged on the
 * untagged exchanges of `traffic` (the others are left to `rejudge`). An
 * exchange is named by its place in the HAR (`resources.list, HAR entry 12`);
 * an answer the recording cut is left out, as no judge can read it whole.
 */
export function judgeUntagged(
  rules: readonly Rule[],
  traffic: readonly RecordedExchange[],
  profile: TargetProfile,
): Rejudged[] {
  const untagged = traffic.filter((t) => t.rule === undefined && !t.cut);
  const placed: Placed[] = untagged.map((t, at) => ({
    o: { ...t.observed, step: `${t.observed.operation}, HAR entry ${t.entry + 1}` },
    at,
  }));
  return trafficRules(rules).flatMap((rule): Rejudged[] => {
    const { judgement, at } = judgedByReading(rule, rule.traffic, placed, profile);
    const entries = at.flatMap((i) => untagged[i]?.entry ?? []);
    const verdict = fromJudgement(rule.id, judgement, entries.length);
    return [{ ...verdict, entries }];
  });
}
