/** §4.6 resources.list-roles and §4.1 resources.revoke-roles. */
import { lostUpdateGap } from '../concurrent-faults.ts';
import { StaleReads } from '../stale-reads.ts';
import { nowAndThen } from '../now-and-then.ts';
import { ApiError, badRequest, notFound, unprocessable } from '../errors.ts';
import type { Kind, Resource, RoleHolding } from '../model.ts';
import type { Operation, OperationContext, OperationMaybeLater, OperationResult } from '../operation.ts';
import { optional, required, snowflakes, type Body } from '../validate.ts';

function renderTeams(teams: RoleHolding['teams'], ctx: OperationContext): unknown {
  if (teams !== '*' && ctx.faults.has('list-roles-team-ids-as-string')) return teams.join(',');
  return teams === '*' ? '*' : [...teams];
}

/** Under `roles-stale-read`: what each resource held before its last revocation (stale-reads.ts). */
const staleRoles = new StaleReads<RoleHolding[]>();

function rolesRead(ctx: OperationContext, details: { roles: RoleHolding[] }): RoleHolding[] {
  return ctx.faults.has('roles-stale-read') ? staleRoles.read(details, details.roles, ctx.timing) : details.roles;
}

export const listRoles: Operation = (body, ctx) => {
  let resourceIds = optional(body, 'resource_ids', snowflakes);
  let roleIds = optional(body, 'role_ids', snowflakes);
  if (resourceIds && ctx.faults.has('list-roles-first-resource-only')) resourceIds = resourceIds.slice(0, 1);
  if (resourceIds && ctx.faults.has('list-roles-resource-ids-capped')) resourceIds = resourceIds.slice(0, 50);
  if (roleIds && ctx.faults.has('list-roles-first-role-only')) roleIds = roleIds.slice(0, 1);
  if (
    resourceIds &&
    resourceIds.length > 1 &&
    roleIds &&
    roleIds.length > 1 &&
    ctx.faults.has('list-roles-first-resource-only-beside-several-roles')
  )
    resourceIds = resourceIds.slice(0, 1);
  const roles = roleIds;
  if (roles && ctx.faults.has('list-roles-role-order-matters') && roles.some((id, i) => id < (roles[i - 1] ?? id)))
    roleIds = roles.slice(0, -1);
  const roleFilter = roleIds && !ctx.faults.has('list-roles-ignores-role-filter') ? new Set(roleIds) : undefined;
  // The fault: a role of no one among those asked for empties the answer (a join that finds no row for it).
  if (roleIds?.some((id) => !ctx.store.rolesById.has(id)) && ctx.faults.has('list-roles-unknown-role-empties'))
    return { status: 200, body: [] };
  // Each resource once, however many times it is named; the fault reads the list as given.
  const named =
    resourceIds && !ctx.faults.has('list-roles-repeated-resource-listed-twice')
      ? [...new Set(resourceIds)]
      : resourceIds;
  const resources = named
    ? named.map((id) => ctx.store.resourcesById.get(id)).filter((r) => r !== undefined)
    : ctx.store.domain.resources;
  const out: unknown[] = [];
  for (const resource of resources) {
    if (!ctx.store.kindsById.get(resource.kindId)?.supportsRoles) continue;
    for (const holding of rolesRead(ctx, ctx.store.detailsOf(resource))) {
      if (roleFilter && !roleFilter.has(holding.roleId)) continue;
      if (
        ctx.caller === 'restricted' &&
        ctx.store.rolesById.get(holding.roleId)?.hiddenFromRestricted &&
        !ctx.faults.has('list-roles-restricted-sees-hidden')
      )
        continue;
      out.push({
        resource_id: resource.id,
        role_id: holding.roleId,
        is_assigned: !holding.unassigned,
        team_ids: renderTeams(holding.teams, ctx),
      });
    }
  }
  if (ctx.faults.has('list-roles-envelope')) return { status: 200, body: { data: out, next_token: null } };
  return { status: 200, body: out };
};

function readTeamIds(body: Body, ctx: OperationContext): '*' | string[] | undefined {
  if (body.team_ids === undefined) return undefined;
  if (body.team_ids === '*') return '*';
  if (typeof body.team_ids === 'string' && ctx.faults.has('revoke-string-team-ids-as-star')) return '*';
  let ids: string[];
  try {
    ids = snowflakes(body.team_ids, 'team_ids');
  } catch (error) {
    // One team_ids in five that is no TeamList (a string but `*`, a list holding a non-Snowflake) is taken as `*`.
    if (ctx.faults.has('invalid-team-ids-as-star-one-in-five') && nowAndThen(ctx.store, 'invalid team_ids', 5))
      return '*';
    throw error;
  }
  if (ids.length === 0) {
    if (ctx.faults.has('revoke-empty-team-ids-as-star')) return '*';
    throw unprocessable('team_ids', 'must not be empty: omit it to remove the role, or send "*" to revoke every team');
  }
  for (const id of ids) if (!ctx.store.teamsById.has(id)) throw notFound('team_ids', `unknown team ${id}`);
  return ids;
}

/** The holding after revoking `revoked` from it; undefined means the role is gone. */
function narrowed(
  holding: RoleHolding,
  revoked: '*' | string[] | undefined,
  ctx: OperationContext,
): RoleHolding | undefined {
  const { faults } = ctx;
  const defining = ctx.store.rolesById.get(holding.roleId)?.definesKindId !== undefined;
  if (revoked === undefined)
    return faults.has('revoke-omitted-team-ids-as-star') ? { ...holding, teams: [] } : undefined;
  if (revoked === '*') {
    if (faults.has('revoke-star-on-explicit-list-ignored') && Array.isArray(holding.teams)) return holding;
    if (
      faults.has('revoke-star-twice-removes-role') &&
      !defining &&
      Array.isArray(holding.teams) &&
      holding.teams.length === 0
    )
      return undefined;
    return faults.has('revoke-star-removes-role') && !defining ? undefined : { ...holding, teams: [] };
  }
  const gone = new Set(faults.has('revoke-first-team-only') ? revoked.slice(0, 1) : revoked);
  let remaining: string[];
  if (holding.fromStar && faults.has('revoke-star-remembered')) {
    // Recomputed from every enabled team, as if the role were still on `*`: earlier revocations are lost.
    remaining = ctx.store.enabledTeamIds().filter((t) => !gone.has(t));
    return { ...holding, teams: remaining };
  }
  if (holding.teams === '*') {
    const enabled = new Set(ctx.store.enabledTeamIds());
    if (faults.has('revoke-disabled-teams-from-star-ignored') && !revoked.some((t) => enabled.has(t))) return holding;
    const source = faults.has('revoke-star-list-includes-disabled')
      ? ctx.store.domain.teams.map((t) => t.id)
      : ctx.store.enabledTeamIds();
    remaining = source.filter((t) => !gone.has(t));
    if (faults.has('revoke-star-remembered')) return { ...holding, teams: remaining, fromStar: true };
  } else {
    const held = holding.teams;
    if (!held.some((t) => gone.has(t))) {
      return faults.has('revoke-absent-team-clears-list') ? { ...holding, teams: [] } : holding;
    }
    if (faults.has('revoke-mixed-absent-team-ignored') && [...gone].some((t) => !held.includes(t))) return holding;
    if (faults.has('revoke-second-narrowing-restores')) {
      // Narrowed from the list it had before its first narrowing: what that one revoked comes back.
      const before = holding.narrowedFrom ?? held;
      return { ...holding, teams: before.filter((t) => !gone.has(t)), narrowedFrom: before };
    }
    remaining = faults.has('revoke-narrow-drops-all') ? [] : held.filter((t) => !gone.has(t));
  }
  if (remaining.length === 0 && faults.has('revoke-last-teams-removes-role') && !defining) return undefined;
  return { ...holding, teams: remaining };
}

export const revokeRoles: OperationMaybeLater = (body, ctx) => {
  const resourceIds = required(body, 'resource_ids', snowflakes);
  const roleIds = required(body, 'role_ids', snowflakes);
  if (resourceIds.length === 0) throw badRequest('resource_ids', 'must not be empty');
  if (roleIds.length === 0) throw badRequest('role_ids', 'must not be empty');
  const teamIds = readTeamIds(body, ctx);
  if (ctx.caller === 'restricted') throw new ApiError(403, 'this API key may not revoke roles');
  const resources = resourceIds.map((id) => {
    const r = ctx.store.resourcesById.get(id);
    if (!r) throw notFound('resource_ids', `unknown resource ${id}`);
    return r;
  });
  for (const id of roleIds) if (!ctx.store.rolesById.has(id)) throw notFound('role_ids', `unknown role ${id}`);
  for (const r of resources) {
    const kind = kindOf(ctx, r);
    if (!kind.supportsRoles) {
      if (ctx.faults.has('revoke-non-role-kind-500')) throw new Error('resource kind has no role table');
      if (ctx.variants.has('lenient-revoke')) continue;
      throw unprocessable('resource_ids', `resource ${r.id} is a ${kind.name}, a kind that does not support roles`);
    }
    if (
      teamIds === undefined &&
      kind.definingRoleId !== undefined &&
      roleIds.includes(kind.definingRoleId) &&
      !ctx.faults.has('revoke-defining-role-removed') &&
      !ctx.variants.has('lenient-revoke')
    ) {
      throw unprocessable(
        'role_ids',
        `role ${kind.definingRoleId} defines the kind of resource ${r.id}: only its teams can be revoked`,
      );
    }
  }
  // Everything is valid: apply all changes in one synchronous step.
  const firstOnly =
    ctx.faults.has('revoke-first-resource-only') ||
    (teamIds === '*' && ctx.faults.has('revoke-star-first-resource-only')) ||
    (Array.isArray(teamIds) && ctx.faults.has('revoke-explicit-list-first-resource-only'));
  const applied = firstOnly ? resources.slice(0, 1) : resources;
  const revokedRoles = ctx.faults.has('revoke-first-role-only') ? roleIds.slice(0, 1) : roleIds;
  const writes: Array<{ details: { roles: RoleHolding[] }; next: RoleHolding[] }> = [];
  for (const r of applied) {
    const kind = kindOf(ctx, r);
    if (!kind.supportsRoles) continue;
    const details = ctx.store.detailsOf(r);
    const next: RoleHolding[] = [];
    // Fault 'revoke-several-roles-share-first-list': the teams the first role named is left with, on this resource.
    let firstList: string[] | undefined;
    for (const holding of details.roles) {
      // lenient-revoke: a kind-defining role is never removed entirely; the request leaves it as it is.
      const keepDefining =
        ctx.variants.has('lenient-revoke') && teamIds === undefined && holding.roleId === kind.definingRoleId;
      if (!revokedRoles.includes(holding.roleId) || keepDefining || holding.unassigned) next.push(holding);
      else {
        let kept = narrowed(holding, teamIds, ctx);
        if (kept && Array.isArray(teamIds) && ctx.faults.has('revoke-several-roles-share-first-list')) {
          if (firstList === undefined) firstList = Array.isArray(kept.teams) ? kept.teams : undefined;
          else kept = { ...kept, teams: firstList };
        }
        if (kept) next.push(kept);
        else if (ctx.variants.has('unassigned-rows'))
          next.push({ roleId: holding.roleId, teams: [], unassigned: true });
      }
    }
    // Read, wait, write (the fault): a revocation that lands meanwhile is overwritten with the roles read here.
    if (ctx.faults.has('revoke-lost-update')) writes.push({ details, next });
    else {
      if (ctx.faults.has('roles-stale-read')) {
        staleRoles.wrote(details, details.roles, ctx.timing);
      }
      details.roles = next;
    }
  }
  const answer = (): OperationResult => {
    for (const { details, next } of writes) details.roles = next;
    if (ctx.faults.has('revoke-returns-200')) return { status: 200, body: { status: 'revoked' } };
    return { status: 204 };
  };
  return writes.length > 0 ? lostUpdateGap(ctx.timing).then(answer) : answer();
};

/** The kind of a resource of the store: every resource's kind is one of the domain's. */
function kindOf(ctx: OperationContext, r: Resource): Kind {
  const kind = ctx.store.kindsById.get(r.kindId);
  if (kind === undefined) throw new Error(`resource ${r.id} is of kind ${r.kindId}, not in the store`);
  return kind;
}
