/**
 * What a resource holds, as the suite reads it with the documented
 * operations: a record of its own, so the modules that read it (steps), guard
 * it (state-guard) and tell its changes apart (own-mutations) share it
 * without importing one another.
 */
import { canonicalJson } from '../core/canonical-json.ts';
import type { ActivityRatePeriod, RoleAssociation, TeamAssignation } from '../schemas/index.ts';

export type StatePart = 'teams' | 'rates' | 'roles';

export interface ResourceState {
  resourceId: string;
  teams?: TeamAssignation[];
  rates?: ActivityRatePeriod[];
  roles?: RoleAssociation[];
}

/** Associations in one order, their team lists sorted: two reads of the same roles compare equal. */
export function canonicalRoles(list: readonly RoleAssociation[]): RoleAssociation[] {
  return list
    .map((a) => ({ ...a, team_ids: Array.isArray(a.team_ids) ? [...a.team_ids].sort() : a.team_ids }))
    .sort((a, b) => (a.resource_id + a.role_id).localeCompare(b.resource_id + b.role_id));
}

/** The parts a capture holds. */
export function partsOf(state: ResourceState): StatePart[] {
  return (['teams', 'rates', 'roles'] as const).filter((p) => state[p] !== undefined);
}

/** Each part as sorted canonical items, so order and key order never count as a change. */
function canonicalItems(state: ResourceState, part: StatePart): string[] {
  const items: readonly unknown[] = part === 'roles' ? canonicalRoles(state.roles ?? []) : (state[part] ?? []);
  return items.map(canonicalJson).sort();
}

export interface StateDifference {
  /** Items `before` held that `after` does not. */
  missing: string[];
  /** Items `after` holds that `before` did not. */
  unexpected: string[];
}

/** What differs between two captures of the same parts; undefined when nothing does. */
export function stateDifference(before: ResourceState, after: ResourceState): StateDifference | undefined {
  const missing: string[] = [];
  const unexpected: string[] = [];
  for (const part of partsOf(before)) {
    const a = canonicalItems(before, part);
    const b = canonicalItems(after, part);
    missing.push(...a.filter((x) => !b.includes(x)).map((x) => `${part}: ${x}`));
    unexpected.push(...b.filter((x) => !a.includes(x)).map((x) => `${part}: ${x}`));
  }
  return missing.length + unexpected.length === 0 ? undefined : { missing, unexpected };
}
