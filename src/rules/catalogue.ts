/**
 * The rule catalogue: every spec file and property file, in report order.
 * Adding a rule group means adding its import here (see CONTRIBUTING.md).
 */
import type { Rule, RuleGroup } from './types.ts';
import { citedClauses } from './clauses.ts';
import pagination from '../../specs/pagination.spec.ts';
import list from '../../specs/list.spec.ts';
import listRoles from '../../specs/list-roles.spec.ts';
import revokeRoles from '../../specs/revoke-roles.spec.ts';
import auth from '../../specs/auth.spec.ts';
import errors from '../../specs/errors.spec.ts';
import teams from '../../specs/teams.spec.ts';
import activityRates from '../../specs/activity-rates.spec.ts';
import paginationProperties from '../../properties/pagination.properties.ts';
import rolesAndRatesProperties from '../../properties/roles-and-rates.properties.ts';
import invalidInputProperties from '../../properties/invalid-input.properties.ts';

export const CATALOGUE: readonly RuleGroup[] = [
  pagination,
  list,
  listRoles,
  revokeRoles,
  teams,
  activityRates,
  auth,
  errors,
  paginationProperties,
  rolesAndRatesProperties,
  invalidInputProperties,
];

export function allRules(groups: readonly RuleGroup[] = CATALOGUE): Rule[] {
  return groups.flatMap((g) => g.rules);
}

export interface Selection {
  /** Rule ids, or id prefixes ending in `*` (e.g. `pagination.*`). */
  rules?: string[];
  /** Spec sections, e.g. `§4.9` or `4.9`. */
  sections?: string[];
  levels?: Array<'MUST' | 'OBSERVED'>;
}

/** The groups, each cut down to the rules the selection keeps (empty groups dropped). */
export function selectRules(groups: readonly RuleGroup[], selection: Selection): RuleGroup[] {
  const idMatches = (id: string): boolean =>
    !selection.rules?.length ||
    selection.rules.some((pattern) => (pattern.endsWith('*') ? id.startsWith(pattern.slice(0, -1)) : id === pattern));
  const sections = selection.sections?.map((s) => (s.startsWith('§') ? s : `§${s}`));
  const sectionMatches = (r: Rule): boolean =>
    !sections?.length ||
    citedClauses(r.clause).some((c) => sections.some((s) => c === s || c.startsWith(`${s} `) || c.startsWith(`${s}.`)));
  return groups
    .map((g) => ({
      ...g,
      rules: g.rules.filter(
        (r) =>
          idMatches(r.id) && sectionMatches(r) && (!selection.levels?.length || selection.levels.includes(r.level)),
      ),
    }))
    .filter((g) => g.rules.length > 0);
}

/** Shard `index` of `count` (1-based), dealt rule by rule so each shard gets a share of every section. */
export function shardRules(groups: readonly RuleGroup[], index: number, count: number): RuleGroup[] {
  let position = 0;
  return groups
    .map((g) => ({ ...g, rules: g.rules.filter(() => position++ % count === index - 1) }))
    .filter((g) => g.rules.length > 0);
}
