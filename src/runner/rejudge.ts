/**
 * A run judged again from its recorded traffic, with no request sent: each
 * rule written as a driver and a judge gets the exchanges the recording tags
 * with it, and its judge says what they show, as it did live: an example
 * rule's whole log at once, a property's one run at a time. Anyone holding a
 * run's HAR can so check that its verdicts follow from its evidence.
 */
import type { Violation } from '../core/types.ts';
import { judgeLog } from '../rules/judges/fold.ts';
import { isNoEvidence, isNoVerdict, violationsOf, type Judgement } from '../rules/judges/judgement.ts';
import type { Rule } from '../rules/types.ts';
import type { TargetProfile } from '../target/profile.ts';
import type { RecordedExchange } from './recorded-traffic.ts';

/**
 * PASS and FAIL as live; NOT-APPLICABLE when the recording holds no evidence
 * of the clause (no such exchange, or a body cut);
 * NO-VERDICT when its answers said nothing of the clause (a 429, a 5xx).
 */
export type RejudgedVerdict = 'PASS' | 'FAIL' | 'OBSERVED' | 'NOT-APPLICABLE' | 'NO-VERDICT';

export interface Rejudged {
  ruleId: string;
  verdict: RejudgedVerdict;
  violations: Violation[];
  reason?: string;
  /** The exchanges judged. */
  exchanges: number;
  /** Where the exchanges of the rule are among the HAR's entries, from 0. */
  entries?: number[];
  /** NO-VERDICT: the stable code of what the answers said instead (a 429, a refused credential, a 5xx). */
  code?: string;
}

export function fromJudgement(ruleId: string, judgement: Judgement, exchanges: number): Rejudged {
  if (isNoVerdict(judgement))
    return {
      ruleId,
      verdict: 'NO-VERDICT',
      violations: [],
      reason: judgement.noVerdict,
      code: judgement.code,
      exchanges,
    };
  if (isNoEvidence(judgement)) {
    return { ruleId, verdict: 'NOT-APPLICABLE', violations: [], reason: judgement.noEvidence, exchanges };
  }
  const violations = [...violationsOf(judgement)];
  return { ruleId, verdict: violations.length > 0 ? 'FAIL' : 'PASS', violations, exchanges };
}

/**
 * A property's runs, each alone as it was judged live: consecutive exchanges
 * of one run number (a confirming attempt numbers its runs from 1 again, after
 * reads of its own); the reads before the runs are not judged.
 */
function runsOf(own: readonly RecordedExchange[]): RecordedExchange[][] {
  const runs: RecordedExchange[][] = [];
  let current: RecordedExchange[] | undefined;
  for (const t of own) {
    if (t.run === undefined) {
      current = undefined;
      continue;
    }
    if (current?.[0]?.run !== t.run) {
      current = [];
      runs.push(current);
    }
    current.push(t);
  }
  return runs;
}

/** What the recording shows of one rule; a rule where the spec is open records what it saw (OBSERVED), as live. */
export function rejudgeRule(rule: Rule, traffic: readonly RecordedExchange[], profile: TargetProfile): Rejudged {
  const judged = {
    ...judgedFromRecording(rule, traffic, profile),
    entries: traffic.filter((t) => t.rule === rule.id).map((t) => t.entry),
  };
  const decided = judged.verdict === 'PASS' || judged.verdict === 'FAIL';
  return rule.level === 'OBSERVED' && decided ? { ...judged, verdict: 'OBSERVED' } : judged;
}

function judgedFromRecording(rule: Rule, traffic: readonly RecordedExchange[], profile: TargetProfile): Rejudged {
  const judge = rule.judge;
  const own = traffic.filter((t) => t.rule === rule.id);
  const notApplicable = (reason: string): Rejudged => ({
    ruleId: rule.id,
    verdict: 'NOT-APPLICABLE',
    violations: [],
    reason,
    exchanges: own.length,
  });
  if (own.length === 0) return notApplicable('the recording holds no exchange of this rule');
  if (rule.kind === 'example') {
    if (own.some((t) => t.cut)) return notApplicable('an answer of this rule is cut in the recording');
    return fromJudgement(
      rule.id,
      judgeLog(
        judge,
        own.map((t) => t.observed),
        profile,
      ),
      own.length,
    );
  }
  const judged = runsOf(own)
    .filter((run) => !run.some((t) => t.cut))
    .map((run) =>
      fromJudgement(
        rule.id,
        judgeLog(
          judge,
          run.map((t) => t.observed),
          profile,
        ),
        run.length,
      ),
    );
  const failed = judged.find((j) => j.verdict === 'FAIL');
  if (failed) return { ...failed, exchanges: own.length };
  const noVerdict = judged.find((j) => j.verdict === 'NO-VERDICT');
  if (noVerdict) return { ...noVerdict, exchanges: own.length };
  if (judged.some((j) => j.verdict === 'PASS'))
    return { ruleId: rule.id, verdict: 'PASS', violations: [], exchanges: own.length };
  return notApplicable('no run of the property in the recording holds evidence of its clause');
}

/** Every rule of `rules`, judged again from `traffic`. */
export function rejudge(
  rules: readonly Rule[],
  traffic: readonly RecordedExchange[],
  profile: TargetProfile,
): Rejudged[] {
  return rules.map((rule) => rejudgeRule(rule, traffic, profile));
}

/** What a verdict comparison needs of a rule's live result (a RuleResult, or one read back from results.json). */
export interface LiveVerdict {
  ruleId: string;
  verdict: string;
  violations: ReadonlyArray<{ foundBy?: string }>;
}

/**
 * The rules whose live verdict does not follow from the recording: each rule
 * whose verdict rests on its own evidence (a PASS, an OBSERVED, a FAIL its own
 * requests showed) must get the same verdict when judged again from the
 * exchanges tagged with it. A rule judged by when its requests went and came
 * (`timing`) is left out: a recording keeps times to the millisecond only; so
 * are the verdicts that rest on another rule's evidence (a finding) or on no
 * evidence (ERROR, SKIP, NOT-TESTED, FLAKY). Says how many verdicts it
 * compared, and the rules that differ, a line each with both verdicts.
 */
export function verdictsNotFollowing(
  live: readonly LiveVerdict[],
  recorded: readonly RecordedExchange[],
  rules: readonly Rule[],
  profile: TargetProfile,
): { compared: number; otherwise: string[] } {
  const byId = new Map(rules.map((r) => [r.id, r]));
  let compared = 0;
  const otherwise = live.flatMap((result): string[] => {
    const rule = byId.get(result.ruleId);
    if (!rule || rule.timing) return [];
    const own = result.violations.every((v) => v.foundBy === undefined);
    const verdict = result.verdict;
    if (!(verdict === 'PASS' || verdict === 'OBSERVED' || (verdict === 'FAIL' && own))) return [];
    compared++;
    const again = rejudgeRule(rule, recorded, profile).verdict;
    // A recording that cut one of the rule's answers cannot show its verdict: it says so, and that is no other verdict.
    const cut = again === 'NOT-APPLICABLE' && recorded.some((t) => t.rule === rule.id && t.cut);
    const same =
      cut || (verdict === 'OBSERVED' ? again === 'OBSERVED' || again === 'NOT-APPLICABLE' : again === verdict);
    return same ? [] : [`${result.ruleId}: ${verdict} live, ${again} from the recording`];
  });
  return { compared, otherwise };
}
