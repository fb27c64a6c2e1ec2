/**
 * What every rule of the catalogue must be, checked in one place so a test
 * can show both that the catalogue passes and that a bad rule is caught.
 */
import { citedClauses } from './clauses.ts';
import type { RuleGroup } from './types.ts';

const RULE_ID = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/;
const OPEN_WORDS = /not shown|\bmay\b|Default of/;

/** One line per problem; none for a sound catalogue. */
export function catalogueProblems(groups: readonly RuleGroup[], specText: string): string[] {
  const problems: string[] = [];
  const sections = new Set([...specText.matchAll(/^#{2,3} (\d+(?:\.\d+)?)[ .]/gm)].map((m) => `§${m[1]}`));
  const seen = new Set<string>();
  for (const group of groups) {
    for (const rule of group.rules) {
      const at = `${rule.id} (${group.file})`;
      if (!RULE_ID.test(rule.id)) problems.push(`${at}: the id must be <area>.<what>, lowercase`);
      if (seen.has(rule.id)) problems.push(`${at}: the id is used twice`);
      seen.add(rule.id);
      const cited = citedClauses(rule.clause);
      if (cited.length === 0) problems.push(`${at}: the clause "${rule.clause}" cites no section`);
      for (const c of cited) {
        if (!sections.has(c.split(' ')[0] ?? c)) problems.push(`${at}: cites ${c}, which the spec does not have`);
      }
      if (rule.quotes.length === 0) problems.push(`${at}: quotes nothing of the spec`);
      for (const quote of rule.quotes) {
        if (quote.trim().length < 12) problems.push(`${at}: the quote "${quote}" is too short to say anything`);
        else if (!specText.includes(quote)) problems.push(`${at}: "${quote}" is not the spec's exact words`);
      }
      const saysOpen = rule.quotes.some((q) => OPEN_WORDS.test(q));
      if (rule.level === 'OBSERVED' && !saysOpen && !rule.open) {
        problems.push(`${at}: an OBSERVED rule must quote an open point ("not shown", "may") or say why it is open`);
      }
      if (rule.level !== 'OBSERVED' && rule.open) problems.push(`${at}: only OBSERVED rules record an open point`);
    }
  }
  return problems;
}
