import { closestName } from '../core/did-you-mean.ts';
import { UsageError } from '../core/errors.ts';
import { allRules, ruleIdMatches, selectRules } from '../runner/catalogue.ts';
import type { RuleGroup } from '../rules/types.ts';

/**
 * Each rule pattern and section asked for must match a rule of the catalogue
 * on its own: one that matches none is a typo, refused in one line with the
 * rule id or section it is closest to, never silently left out.
 */
export function checkSelection(
  catalogue: readonly RuleGroup[],
  request: { rules?: readonly string[]; sections?: readonly string[] },
): void {
  const rules = allRules(catalogue);
  const ids = rules.map((r) => r.id);
  for (const pattern of request.rules ?? []) {
    if (ids.some((id) => ruleIdMatches(id, pattern))) continue;
    const words = new Set(ids.flatMap((id) => id.split('.').map((_, i, all) => all.slice(0, i + 1).join('.'))));
    const near = closestName(pattern.replace(/\*$/, ''), [...words]);
    throw new UsageError(
      `--rule ${JSON.stringify(pattern)} matches no rule${near ? ` (did you mean ${near}?)` : ''}; the rules: \`directory-conformance rules\``,
    );
  }
  for (const section of request.sections ?? []) {
    if (selectRules(catalogue, { rules: [], sections: [section], levels: [] }).length > 0) continue;
    const known = [...new Set(catalogue.map((g) => g.section.replace(/^§/, '')))];
    const near = closestName(section.replace(/^§/, ''), known);
    throw new UsageError(
      `--section ${JSON.stringify(section)} matches no rule${near ? ` (did you mean ${near}?)` : `; the sections: ${known.join(', ')}`}`,
    );
  }
}
