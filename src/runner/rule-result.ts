/** The record of a rule that sent nothing: what the reports say of it before (or instead of) a check. */
import type { RuleResult, Verdict } from '../core/types.ts';
import type { Rule, RuleGroup } from '../rules/types.ts';

export type RuleMeta = Pick<Rule, 'id' | 'clause' | 'sentence' | 'level' | 'kind' | 'mutates'>;

export function emptyResult(
  rule: RuleMeta,
  group: Pick<RuleGroup, 'section' | 'title'>,
  verdict: Verdict,
  extra: Partial<RuleResult> = {},
): RuleResult {
  return {
    ruleId: rule.id,
    clause: rule.clause,
    sentence: rule.sentence,
    section: group.section,
    group: group.title,
    level: rule.level,
    kind: rule.kind,
    mutates: rule.mutates,
    verdict,
    violations: [],
    observations: [],
    exchanges: [],
    requestCount: 0,
    durationMs: 0,
    ...extra,
  };
}
