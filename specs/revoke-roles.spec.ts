/**
 * §4.1 resources.revoke-roles. Revocation cannot be undone with documented
 * operations, so every rule here is irreversible: it runs only on resources
 * the target profile lists as mutable, and only when the profile opts in.
 */
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { expectNoContent, expectNoServerError, expectRejected, fail, precondition } from '../src/rules/assertions.ts';
import { canonicalRoles, isDefiningRole, listRoles, revokeRoles, roleOf } from '../src/rules/steps/roles.ts';
import { captureState, expectStateUnchanged } from '../src/rules/steps/state.ts';
import type { RoleAssociation } from '../src/schemas/index.ts';
import { kindById } from '../src/target/profile.ts';

interface Holding {
  resourceId: string;
  association: RoleAssociation;
}

/**
 * Claims a mutable resource of a role-supporting kind holding a role that
 * matches `pick`; resources claimed on the way are released by the engine.
 */
async function claimHolding(ctx: CheckContext, pick: (a: RoleAssociation) => boolean, what: string): Promise<Holding> {
  const held = await tryClaimHolding(ctx, pick);
  precondition(held, `no mutable resource of a role-supporting kind holds ${what}`);
  return held;
}

async function tryClaimHolding(ctx: CheckContext, pick: (a: RoleAssociation) => boolean): Promise<Holding | undefined> {
  for (;;) {
    const resourceId = await ctx.claimResource((_, kindId) => kindById(ctx.profile, kindId)?.supportsRoles === true);
    if (!resourceId) return undefined;
    const held = await listRoles(ctx, { resource_ids: [resourceId] });
    const association = held.find((a) => a.resource_id === resourceId && a.is_assigned && pick(a));
    if (association) return { resourceId, association };
  }
}

/**
 * A revocation takes lists: a rule shows it on several resources at once when
 * the profile can spare them (a revocation cannot be undone, so each resource
 * serves one rule); with a dozen or more mutable resources of role kinds, up
 * to three, else one.
 */
async function claimSeveralHoldings(
  ctx: CheckContext,
  pick: (a: RoleAssociation) => boolean,
  what: string,
): Promise<Holding[]> {
  const holdings = [await claimHolding(ctx, pick, what)];
  const roleResources = ctx.profile.mutableResources.filter((r) => kindById(ctx.profile, r.kindId)?.supportsRoles);
  while (roleResources.length >= 12 && holdings.length < 3) {
    const more = await tryClaimHolding(ctx, pick);
    if (!more) break;
    holdings.push(more);
  }
  return holdings;
}

/** §4.1 rule 5: the role stays assigned, on no team. */
async function expectAssignedOnNoTeam(ctx: CheckContext, resourceId: string, roleId: string, after: string) {
  const held = await roleOf(ctx, resourceId, roleId);
  if (!held) {
    fail({
      where: 'list-roles after',
      message: `must still show the role as assigned (on no team) after ${after}`,
      expected: { is_assigned: true, team_ids: [] },
      actual: '(role gone)',
    });
  }
  if (!Array.isArray(held.team_ids) || held.team_ids.length !== 0) {
    fail({
      where: 'list-roles after.team_ids',
      message: `must be an empty list after ${after}`,
      expected: [],
      actual: held.team_ids,
    });
  }
}

/** §4.1 rule 6: after `revoked` left a role held on `*`, it is the explicit list of the other enabled teams. */
async function expectExplicitEnabled(
  ctx: CheckContext,
  held: Holding,
  enabled: readonly string[],
  revoked: readonly string[],
  where: string,
): Promise<void> {
  const after = await roleOf(ctx, held.resourceId, held.association.role_id);
  const expected = enabled.filter((t) => !revoked.includes(t));
  if (!after || !Array.isArray(after.team_ids)) {
    fail({
      where,
      message: 'must become an explicit list of teams',
      expected,
      actual: after?.team_ids ?? '(role gone)',
    });
  }
  const disabled = new Set(ctx.profile.teams.filter((t) => !t.enabled).map((t) => t.id));
  if (after.team_ids.some((t) => disabled.has(t))) {
    fail({ where, message: 'must hold only enabled teams', expected, actual: after.team_ids });
  }
  if (!sameSet(after.team_ids, expected)) {
    fail({ where, message: 'must be every remaining enabled team', expected, actual: after.team_ids });
  }
}

const notDefining = (ctx: CheckContext) => (a: RoleAssociation) => !isDefiningRole(ctx, a.role_id);
const onStar = (ctx: CheckContext) => (a: RoleAssociation) => a.team_ids === '*' && !isDefiningRole(ctx, a.role_id);

/** What every revocation rule is: a MUST that cannot be undone, on a resource whose kind supports roles. */
const REVOCATION = { level: 'MUST', mutates: 'irreversible', needs: ['roleKindResource'] } as const;

/** A claimed resource holding a role that does not define its kind (so the whole role can be revoked). */
function claimRevocable(ctx: CheckContext): Promise<Holding> {
  return claimHolding(ctx, notDefining(ctx), 'a role that does not define its kind');
}

/** Revokes `teamIds` (or, when undefined, the whole role) of the held role. */
async function revokeHeld(ctx: CheckContext, held: Holding, teamIds: '*' | string[] | undefined, step: string) {
  const body = { resource_ids: [held.resourceId], role_ids: [held.association.role_id] };
  await revokeRoles(ctx, teamIds === undefined ? body : { ...body, team_ids: teamIds }, { step });
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const x = [...new Set(a)].sort();
  const y = [...new Set(b)].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

export default defineRuleGroup({
  section: '§4.1',
  title: 'resources.revoke-roles',
  rules: [
    rule({
      id: 'revoke-roles.no-content',
      clause: '§4.1 Response',
      quote: 'Response: status 204, meaning resource roles revoked; no body.',
      ...REVOCATION,
      async check(ctx) {
        const { resourceId, association } = await claimHolding(ctx, onStar(ctx), 'a role on `*`');
        const res = await ctx.client.post('resources.revoke-roles', {
          resource_ids: [resourceId],
          role_ids: [association.role_id],
        });
        expectNoContent(res, { step: 'resources.revoke-roles', status: 204 });
      },
    }),
    rule({
      id: 'revoke-roles.kind-must-support-roles',
      clause: '§4.1 rule 1',
      quote: 'Only resources whose kind supports roles (employees and integrations) can have a role revoked.',
      level: 'MUST',
      mutates: 'irreversible',
      needs: ['nonRoleKindResource'],
      async check(ctx) {
        const resourceId = await ctx.claimResource(
          (_, kindId) => kindById(ctx.profile, kindId)?.supportsRoles === false,
        );
        precondition(resourceId, 'no mutable resource of a kind without roles is left');
        const roleId = ctx.profile.roles[0]?.id;
        precondition(roleId, 'the target profile names no role');
        const before = await captureState(ctx, resourceId, ['roles'], { step: 'list-roles before' });
        const held = (before.roles ?? []).filter((a) => a.resource_id === resourceId && a.is_assigned);
        if (held.length > 0) {
          fail({
            where: 'list-roles before',
            message: 'must show no role for a resource whose kind does not support roles',
            expected: [],
            actual: held,
          });
        }
        // Sent once more after a 5xx (revoking what is not held changes nothing, rule 3): a passing fault is no verdict.
        const res = await expectNoServerError(
          () =>
            ctx.client.post(
              'resources.revoke-roles',
              { resource_ids: [resourceId], role_ids: [roleId] },
              { retry: 'judged' },
            ),
          {
            step: 'resources.revoke-roles',
            message: 'must answer a revocation for a kind without roles without a server error',
          },
        );
        ctx.observe('status of revoke-roles for a kind without roles', res.status);
        await expectStateUnchanged(ctx, before, {
          message: 'must not change anything for a resource whose kind does not support roles',
        });
      },
    }),
    rule({
      id: 'revoke-roles.defining-role-kept',
      clause: '§4.1 rule 2',
      quote: 'For the role that defines the kind of a resource, only its teams can be revoked, never the role itself.',
      level: 'MUST',
      mutates: 'irreversible',
      needs: ['roleKindResource', 'definingRole'],
      async check(ctx) {
        const { resourceId, association } = await claimHolding(
          ctx,
          (a) => isDefiningRole(ctx, a.role_id),
          'its kind-defining role',
        );
        const whole = { resource_ids: [resourceId], role_ids: [association.role_id] };
        const res = await ctx.client.post('resources.revoke-roles', whole);
        ctx.observe('status of revoking a kind-defining role entirely', res.status);
        const star = await ctx.client.post('resources.revoke-roles', { ...whole, team_ids: '*' });
        ctx.observe('status of revoking every team of a kind-defining role', star.status);
        const after = await roleOf(ctx, resourceId, association.role_id);
        if (!after) {
          fail({
            where: 'list-roles after',
            message: 'must still show the kind-defining role as assigned (only its teams can be revoked)',
            expected: { role_id: association.role_id, is_assigned: true },
            actual: '(role gone)',
          });
        }
      },
    }),
    rule({
      id: 'revoke-roles.absent-role-no-change',
      clause: '§4.1 rule 3',
      quote: 'Revoking a role, or a team, that the resource does not have changes nothing.',
      ...REVOCATION,
      async check(ctx) {
        const { resourceId } = await claimHolding(ctx, () => true, 'any role');
        const before = await captureState(ctx, resourceId, ['roles'], { step: 'list-roles before' });
        const held = (before.roles ?? []).filter((a) => a.is_assigned);
        const heldRoles = new Set(held.map((a) => a.role_id));
        const absentRole = ctx.profile.roles.find((r) => !heldRoles.has(r.id) && !r.definesKindId);
        precondition(absentRole, 'the resource holds every role of the profile');
        await revokeRoles(
          ctx,
          { resource_ids: [resourceId], role_ids: [absentRole.id] },
          { step: 'revoking a role the resource does not have' },
        );
        const explicit = held.find((a) => Array.isArray(a.team_ids) && !isDefiningRole(ctx, a.role_id));
        const listed = Array.isArray(explicit?.team_ids) ? explicit.team_ids : [];
        const absentTeam = ctx.profile.teams.find((t) => t.enabled && !listed.includes(t.id));
        if (explicit && absentTeam) {
          await revokeRoles(
            ctx,
            { resource_ids: [resourceId], role_ids: [explicit.role_id], team_ids: [absentTeam.id] },
            { step: 'revoking a team the role does not have' },
          );
        }
        await expectStateUnchanged(ctx, before, {
          message: 'must be unchanged after revoking a role or team the resource does not have',
        });
      },
    }),
    rule({
      id: 'revoke-roles.omitted-team-ids-removes-role',
      clause: '§4.1 rule 4',
      quote: 'When `team_ids` is omitted, the role is removed from the resources entirely.',
      ...REVOCATION,
      async check(ctx) {
        const holdings = await claimSeveralHoldings(ctx, notDefining(ctx), 'a role that does not define its kind');
        const resourceIds = holdings.map((h) => h.resourceId);
        const before = await listRoles(ctx, { resource_ids: resourceIds }, { step: 'list-roles before' });
        // Every role any of them holds that can be revoked whole, up to three; sent in the reverse
        // order of the resources and roles, so a server that reads only the first of each shows it.
        const roleIds = [
          ...new Set(before.filter((a) => a.is_assigned && !isDefiningRole(ctx, a.role_id)).map((a) => a.role_id)),
        ].slice(0, 3);
        await revokeRoles(
          ctx,
          { resource_ids: [...resourceIds].reverse(), role_ids: [...roleIds].reverse() },
          { step: `revoking ${roleIds.length} roles of ${resourceIds.length} resources without team_ids` },
        );
        const after = await listRoles(ctx, { resource_ids: resourceIds }, { step: 'list-roles after' });
        const revoked = new Set(roleIds);
        const remaining = after.filter((a) => a.is_assigned && revoked.has(a.role_id));
        if (remaining.length > 0) {
          fail({
            where: 'list-roles after',
            message:
              'must no longer show a role as assigned on any of the resources once it is revoked without team_ids',
            expected: '(no assigned association of the revoked roles)',
            actual: remaining.slice(0, 3),
          });
        }
        const others = (list: RoleAssociation[]) =>
          canonicalRoles(list.filter((a) => a.is_assigned && !revoked.has(a.role_id)));
        if (JSON.stringify(others(after)) !== JSON.stringify(others(before))) {
          fail({
            where: 'list-roles after (roles not revoked)',
            message: 'must leave the roles the request does not name as they were',
            expected: others(before),
            actual: others(after),
          });
        }
      },
    }),
    rule({
      id: 'revoke-roles.star-leaves-no-team',
      clause: '§4.1 rule 5',
      quote: 'When `team_ids` is `*`, every team is revoked and the role stays assigned on no team.',
      ...REVOCATION,
      async check(ctx) {
        const held = await claimRevocable(ctx);
        await revokeHeld(ctx, held, '*', 'revoking `*`');
        await expectAssignedOnNoTeam(ctx, held.resourceId, held.association.role_id, 'revoking `*`');
      },
    }),
    rule({
      id: 'revoke-roles.last-teams-like-star',
      clause: '§4.1 rule 5',
      quote: 'Revoking the last remaining teams of a role has the same result.',
      ...REVOCATION,
      async check(ctx) {
        const held = await claimHolding(
          ctx,
          (a) => Array.isArray(a.team_ids) && a.team_ids.length > 0 && !isDefiningRole(ctx, a.role_id),
          'a role on an explicit list of teams',
        );
        await revokeHeld(ctx, held, held.association.team_ids, 'revoking every listed team');
        await expectAssignedOnNoTeam(
          ctx,
          held.resourceId,
          held.association.role_id,
          'revoking the last remaining teams',
        );
      },
    }),
    rule({
      id: 'revoke-roles.narrows-explicit-list',
      clause: '§4.1',
      quote: 'Revokes role access of resources, or narrows the team scope of a role.',
      ...REVOCATION,
      async check(ctx) {
        const onTeams = (n: number) => (a: RoleAssociation) =>
          Array.isArray(a.team_ids) && a.team_ids.length >= n && !isDefiningRole(ctx, a.role_id);
        // Three teams or more show a revocation of several at once; two is the least the rule needs.
        const held =
          (await tryClaimHolding(ctx, onTeams(3))) ??
          (await claimHolding(ctx, onTeams(2), 'a role on an explicit list of at least two teams'));
        const teams = Array.isArray(held.association.team_ids) ? held.association.team_ids : [];
        // Several teams at once (all but one), in the reverse of the listed order.
        const revoked = teams.slice(0, Math.max(1, teams.length - 1)).reverse();
        await revokeHeld(ctx, held, revoked, `revoking ${revoked.length} of ${teams.length} listed teams`);
        const after = await roleOf(ctx, held.resourceId, held.association.role_id);
        const expected = teams.filter((t) => !revoked.includes(t));
        if (!after || !Array.isArray(after.team_ids) || !sameSet(after.team_ids, expected)) {
          fail({
            where: 'list-roles after.team_ids',
            message: 'must be the former list without the revoked teams',
            expected,
            actual: after?.team_ids ?? '(role gone)',
          });
        }
      },
    }),
    rule({
      id: 'revoke-roles.star-to-explicit-enabled',
      clause: '§4.1 rule 6',
      quote:
        'When specific teams are revoked from a role held on `*`, the role becomes the explicit list of the remaining enabled teams; it then no longer follows teams created afterwards.',
      ...REVOCATION,
      async check(ctx) {
        const enabled = ctx.profile.teams.filter((t) => t.enabled).map((t) => t.id);
        precondition(enabled.length >= 2, 'the target profile lists fewer than two enabled teams');
        const held = await claimHolding(ctx, onStar(ctx), 'a role on `*`');
        // Two steps: several teams revoked from `*` (two when three or more are enabled, in reverse
        // order), then one more from the explicit list it became: the first step must not be forgotten.
        const first = enabled.length >= 3 ? [enabled[1]!, enabled[0]!] : [enabled[0]!];
        await revokeHeld(ctx, held, first, `revoking ${first.length} teams from \`*\``);
        await expectExplicitEnabled(ctx, held, enabled, first, 'list-roles after.team_ids');
        if (enabled.length - first.length >= 2) {
          const second = [...first, enabled[first.length]!];
          await revokeHeld(ctx, held, [enabled[first.length]!], 'revoking one more team from the explicit list');
          await expectExplicitEnabled(ctx, held, enabled, second, 'list-roles after the second revocation.team_ids');
        }
      },
    }),
    rule({
      id: 'revoke-roles.empty-team-ids-rejected',
      clause: '§4.1 rule 7; §7',
      quote: 'An empty `team_ids` array is rejected.',
      ...REVOCATION,
      async check(ctx) {
        const { resourceId, association } = await claimRevocable(ctx);
        const before = await captureState(ctx, resourceId, ['roles'], { step: 'list-roles before' });
        const res = await expectRejected(
          () =>
            ctx.client.post(
              'resources.revoke-roles',
              {
                resource_ids: [resourceId],
                role_ids: [association.role_id],
                team_ids: [],
              },
              { retry: 'judged' },
            ),
          { step: 'an empty team_ids array' },
        );
        ctx.observe('status of rejecting an empty team_ids', res.status);
        await expectStateUnchanged(ctx, before, { message: 'must be unchanged after a rejected request' });
      },
    }),
  ],
});
