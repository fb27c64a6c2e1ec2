/**
 * Revocations (§4.1) and list-roles reads (§4.6) as a judge reads them from
 * a rule's log: what a revocation asked for, read from its request, and what
 * a read showed. Pure: tested on recorded exchanges with no network.
 */
import { matchesSchema, type RoleAssociation } from '../../schemas/index.ts';
import { accepted, isClean, noEvidence, type Judgement } from './judgement.ts';
import { field, type Observed } from './observed.ts';

/** What a revocation asked for: `omitted` removes the roles, `star` every team, a list those teams (maybe none). */
export interface Revocation {
  resourceIds: string[];
  roleIds: string[];
  teams: 'omitted' | 'star' | string[];
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
}

/**
 * The revocation a request body asked for, whatever the schemas allow (an
 * empty `team_ids` is sent on purpose); undefined when it names no list of
 * resources or roles, or `team_ids` is neither `*` nor a list of ids.
 */
export function revocationOf(request: unknown): Revocation | undefined {
  const resourceIds = strings(field(request, 'resource_ids'));
  const roleIds = strings(field(request, 'role_ids'));
  if (!resourceIds || !roleIds) return undefined;
  const teamIds = field(request, 'team_ids');
  if (teamIds === undefined) return { resourceIds, roleIds, teams: 'omitted' };
  if (teamIds === '*') return { resourceIds, roleIds, teams: 'star' };
  const teams = strings(teamIds);
  return teams ? { resourceIds, roleIds, teams } : undefined;
}

/**
 * What a list-roles read showed: its associations, or the judgement that
 * stops there (not sent, refused, not a list: the list's shape is
 * list-roles.plain-array's and list-roles.association-shape's business).
 */
export function rolesShown(
  o: Observed | undefined,
  what: string,
): { roles: RoleAssociation[] } | { judgement: Judgement } {
  if (!o) return { judgement: noEvidence(`no ${what}`) };
  const answer = accepted(o, { status: 200 });
  if (!isClean(answer)) return { judgement: answer };
  return matchesSchema('RoleAssociationList', o.body)
    ? { roles: o.body }
    : { judgement: noEvidence(`${o.step} did not show a list of role associations`) };
}

/** Role id → the teams a resource holds it on ('*' or a sorted list); a role not in the map is not held. */
export type HeldRoles = Map<string, '*' | string[]>;

/** The roles `resourceId` holds in a list-roles answer. */
export function heldBy(list: readonly RoleAssociation[], resourceId: string): HeldRoles {
  const held: HeldRoles = new Map();
  for (const a of list) {
    if (a.resource_id === resourceId && a.is_assigned) {
      held.set(a.role_id, a.team_ids === '*' ? '*' : [...a.team_ids].sort());
    }
  }
  return held;
}

/** The two lists hold the same ids, whatever their order and repeats. */
export function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const x = [...new Set(a)].sort();
  const y = [...new Set(b)].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/** A holding as text, its roles sorted: what a violation shows. */
export function describeHeld(held: HeldRoles): Record<string, string | string[]> {
  return Object.fromEntries([...held].sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * What §4.1 leaves in `held` once `roleIds` are revoked: whole (`omitted`),
 * on every team (`star`) or on the listed teams. Changes `held` in place.
 */
export function applyRevocation(
  held: HeldRoles,
  roleIds: readonly string[],
  teams: 'omitted' | 'star' | readonly string[],
  enabledTeamIds: readonly string[],
): void {
  for (const roleId of roleIds) {
    const scope = held.get(roleId);
    if (scope === undefined) continue; // rule 3: what is not held changes nothing
    if (teams === 'omitted')
      held.delete(roleId); // rule 4
    else if (teams === 'star')
      held.set(roleId, []); // rule 5
    else if (scope === '*') {
      // rule 6: the explicit list of the remaining enabled teams
      held.set(roleId, enabledTeamIds.filter((t) => !teams.includes(t)).sort());
    } else
      held.set(
        roleId,
        scope.filter((t) => !teams.includes(t)),
      ); // narrowed; none left: rule 5
  }
}
