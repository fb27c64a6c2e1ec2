/** Whose each shared check is in the whole catalogue, as a run finds it: for a step's context built by hand. */
import type { SharedCheck } from '../../src/rules/judges/observed.ts';
import type { RuleId } from '../../src/rules/rule-ids.ts';
import { allRules, loadCatalogue } from '../../src/runner/catalogue.ts';
import { checkOwners } from '../../src/runner/check-owners.ts';

export async function catalogueOwners(): Promise<(check: SharedCheck) => RuleId> {
  return checkOwners(allRules(await loadCatalogue()));
}
