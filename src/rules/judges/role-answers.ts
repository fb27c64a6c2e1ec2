/**
 * Revocations (§4.1) and list-roles reads (§4.6) as a judge reads them from
 * a rule's log: what a revocation asked for, read from its request, and what
 * a read showed. Pure: tested on recorded exchanges with no network.
 */
import { matchesSchema, type RoleAssociation } from '../../schemas/index.ts';
import type { TargetProfile } from '../../target/profile.ts';
import { accepted, isClean, noEvidence, type Judgement, type NoVerdict } from './judgement.ts';
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

/**
 * Teams `actual` holds that the profile's `teams` does not name and
 * `expected` lacks: what §4.1 leaves is computed from the profile's teams
 * (rule 6: every remaining enabled team), which cannot know a team the
 * profile left out, so such a difference is the profile's to fix.
 */
export function teamsTheProfileLacks(
  profile: Pick<TargetProfile, 'teams'>,
  expected: readonly string[],
  actual: readonly string[],
): string[] {
  const named = new Set(profile.teams.map((t) => t.id));
  const wanted = new Set(expected);
  return [...new Set(actual)].filter((t) => !named.has(t) && !wanted.has(t)).sort();
}

/** The same, role by role: teams a role is shown on that the profile does not name and the role's expected list lacks. */
export function heldTeamsTheProfileLacks(
  profile: Pick<TargetProfile, 'teams'>,
  expected: ReadonlyMap<string, '*' | readonly string[]>,
  actual: ReadonlyMap<string, '*' | readonly string[]>,
  alsoExpected: readonly string[] = [],
): string[] {
  const lacking = new Set<string>();
  for (const [role, teams] of actual) {
    if (teams === '*') continue;
    const before = expected.get(role);
    const wanted = [...(before === undefined || before === '*' ? [] : before), ...alsoExpected];
    for (const team of teamsTheProfileLacks(profile, wanted, teams)) lacking.add(team);
  }
  return [...lacking].sort();
}

/** A read whose difference from §4.1's model is teams the profile lacks: ERROR DC_ERR_PROFILE, naming the field. */
export function profileLacksTeams(where: string, teams: readonly string[]): NoVerdict {
  const which = teams.length === 1 ? `team ${teams[0]}` : `teams ${teams.join(', ')}`;
  return {
    code: 'DC_ERR_PROFILE',
    noVerdict:
      `${where}: the target holds ${which}, which the profile's teams do not name; what §4.1 leaves is read ` +
      `from the profile's teams, so add every team of the target to teams (with enabled) and run again`,
  };
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
