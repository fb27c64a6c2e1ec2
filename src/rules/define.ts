import type { Rule, RuleGroupDefinition } from './types.ts';

type RuleInput = Omit<Rule, 'kind' | 'needs' | 'mutates'> & Partial<Pick<Rule, 'kind' | 'needs' | 'mutates'>>;

/** A rule as plain data plus its check; defaults: an example rule that only reads. */
export function rule(input: RuleInput): Rule {
  return { kind: 'example', needs: [], mutates: 'none', ...input };
}

/** A fast-check property run against the target. */
export function property(input: Omit<RuleInput, 'kind'>): Rule {
  return rule({ ...input, kind: 'property' });
}

export function defineRuleGroup(group: RuleGroupDefinition): RuleGroupDefinition {
  const seen = new Set<string>();
  for (const r of group.rules) {
    if (seen.has(r.id)) throw new Error(`duplicate rule id ${r.id} in the group ${group.title}`);
    seen.add(r.id);
  }
  return group;
}
