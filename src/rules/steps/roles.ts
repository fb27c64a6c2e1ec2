/**
 * resources.list-roles (§4.6) and resources.revoke-roles (§4.1) as typed
 * steps. That list-roles answers a plain array (ROLES_PLAIN_ARRAY) and the
 * shape of each association (ROLES_ASSOCIATIONS) are the business of the
 * rules whose records name those checks; they post their own requests and
 * assert it in plain sight.
 */
import type { ApiResponse, DirectoryClient } from '../../client/directory-client.ts';
import type { ListRolesRequest, RevokeRolesRequest, RoleAssociation } from '../../schemas/index.ts';
import { expectJson, expectSuccess, fail, owned, summariseBody, type StepOptions } from '../assertions.ts';
import { PICKING_PAGE, judgeRead, listBody, listPage } from './list.ts';
import { ROLES_ASSOCIATIONS, ROLES_PLAIN_ARRAY } from '../judges/read-answers.ts';
export { canonicalRoles } from '../resource-state.ts';
import type { BaseCheckContext } from '../types.ts';
import { definesAKind } from '../../target/profile.ts';

type StepContext = Pick<BaseCheckContext, 'ruleId' | 'client' | 'found' | 'ownerOf'>;

export async function listRoles(
  ctx: StepContext,
  body: ListRolesRequest,
  options: { step?: string; client?: DirectoryClient; fresh?: boolean } = {},
): Promise<RoleAssociation[]> {
  const step = options.step ?? 'resources.list-roles';
  const res = await (options.client ?? ctx.client).post('resources.list-roles', body, {
    shared: options.fresh !== true,
    step,
  });
  // 401, 429 and 5xx are no verdict (a harness fault); anything else is judged for the rule it concerns.
  owned(ctx, ROLES_PLAIN_ARRAY, () => expectSuccess(res, { step, status: 200 }));
  judgeRead(ctx, res, step, body);
  return owned(ctx, ROLES_ASSOCIATIONS, () => expectJson(res, 'RoleAssociationList', { step }));
}

/**
 * A list-roles answer is a plain JSON array, without a pagination envelope
 * (§4.6, §4.9 rule 8): the check ROLES_PLAIN_ARRAY, whose rule owns it.
 */
export function expectPlainArray(res: ApiResponse, options: StepOptions = {}): unknown[] {
  if (!Array.isArray(res.json)) {
    fail({
      where: `${options.step ? `${options.step}: ` : ''}response.body`,
      message: 'must be a plain JSON array (no pagination envelope)',
      expected: 'array',
      actual: res.json ?? summariseBody(res),
    });
  }
  return res.json;
}

/** The assigned association of one role of one resource, if any. */
export async function roleOf(ctx: StepContext, resourceId: string, roleId: string) {
  const all = await listRoles(ctx, { resource_ids: [resourceId], role_ids: [roleId] });
  return all.find((a) => a.resource_id === resourceId && a.role_id === roleId && a.is_assigned);
}

/** A revocation the rule's clause documents as valid: it must succeed (its 204 is revoke-roles.no-content's business). */
export async function revokeRoles(
  ctx: StepContext,
  body: RevokeRolesRequest,
  options: { step: string },
): Promise<void> {
  expectSuccess(await ctx.client.post('resources.revoke-roles', body, { step: options.step }), { step: options.step });
}

/** The role that defines a kind (§4.1 rule 2), by the profile. */
export function isDefiningRole(ctx: Pick<BaseCheckContext, 'profile'>, roleId: string): boolean {
  return definesAKind(ctx.profile, roleId);
}

/**
 * The resources of each role-supporting kind on one page of the size every
 * rule picks from (more when a rule wants `n` beside the mutable ones): the
 * same request for every rule, so the run reads it once.
 */
async function roleKindPages(ctx: StepContext & Pick<BaseCheckContext, 'profile'>, n: number): Promise<string[][]> {
  const limit = Math.max(n + ctx.profile.mutableResources.length, PICKING_PAGE);
  const perKind: string[][] = [];
  for (const kind of ctx.profile.kinds.filter((k) => k.supportsRoles)) {
    const page = await listPage(ctx, listBody({ listKindId: kind.id }, { pagination: { limit, next_token: null } }));
    perKind.push(page.data.map((r) => r.id));
  }
  return perKind;
}

/** Up to `n` ids taken from each list in turn. */
function interleave(lists: readonly string[][], n: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n && lists.some((ids) => i < ids.length); i++) {
    for (const ids of lists) {
      const id = ids[i];
      if (id !== undefined && out.length < n) out.push(id);
    }
  }
  return out;
}

/**
 * Up to `n` resources of role-supporting kinds that the suite never changes
 * (listed by `resources.list`, the profile's mutable resources left out), taken
 * from each role kind in turn: reads of them cannot race a revocation.
 */
export async function untouchedRoleResources(
  ctx: StepContext & Pick<BaseCheckContext, 'profile'>,
  n: number,
): Promise<string[]> {
  const mutable = new Set(ctx.profile.mutableResources.map((r) => r.id));
  const perKind = await roleKindPages(ctx, n);
  return interleave(
    perKind.map((ids) => ids.filter((id) => !mutable.has(id))),
    n,
  );
}

/**
 * Up to `max` resources of role-supporting kinds, mutable or not, from the
 * same pages `untouchedRoleResources(ctx, n)` reads (no request of its own):
 * ids a read may name beside those it judges.
 */
export async function roleKindResources(
  ctx: StepContext & Pick<BaseCheckContext, 'profile'>,
  n: number,
  max: number,
): Promise<string[]> {
  return interleave(await roleKindPages(ctx, n), max);
}

/** One association as a key, to compare answers as sets. */
export function associationKey(a: RoleAssociation): string {
  const teams = Array.isArray(a.team_ids) ? [...a.team_ids].sort().join(',') : a.team_ids;
  return `${a.resource_id}/${a.role_id}/${String(a.is_assigned)}/${teams}`;
}
