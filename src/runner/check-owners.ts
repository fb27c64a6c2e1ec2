/**
 * Whose a shared check is: the rule whose record names it among its
 * `checks` (src/rules/types.ts). The steps make the check for every rule
 * that reads or walks, and the engine charges a departure to this owner,
 * whichever rules the run selected: the map is of the whole catalogue.
 */
import type { SharedCheck } from '../rules/judges/observed.ts';
import { isRuleId, type RuleId } from '../rules/rule-ids.ts';
import type { Rule } from '../rules/types.ts';

export function checkOwners(rules: readonly Rule[]): (check: SharedCheck) => RuleId {
  const owners = new Map<SharedCheck, RuleId>();
  for (const rule of rules) {
    for (const check of rule.checks ?? []) {
      const other = owners.get(check);
      // Two owners would make a departure two rules' FAIL: a mistake of the records, said at once.
      if (other !== undefined && other !== rule.id)
        throw new Error(`the check "${check.name}" is named by both ${other} and ${rule.id}`);
      if (!isRuleId(rule.id)) throw new Error(`${rule.id} is not a rule of the generated id list`);
      owners.set(check, rule.id);
    }
  }
  return (check) => {
    const owner = owners.get(check);
    if (owner === undefined) throw new Error(`no rule of the catalogue names the check "${check.name}"`);
    return owner;
  };
}

/** The shared checks each rule's record names, by rule id. */
export function checksByRule(rules: readonly Rule[]): (ruleId: string) => readonly SharedCheck[] {
  const byId = new Map(rules.map((r) => [r.id, r.checks ?? []]));
  return (ruleId) => byId.get(ruleId) ?? [];
}
