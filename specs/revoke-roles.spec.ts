/**
 * §4.1 resources.revoke-roles. Revocation cannot be undone with documented
 * operations, so every rule here is irreversible: it runs only on resources
 * the target profile lists as mutable, and only when the profile opts in.
 */
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import { expectRejected, expectSuccess, fail } from '../src/rules/expect.ts';
import { OWNERS, listRoles, precondition, roleOf, type RoleAssociation } from '../src/rules/operations.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { kindById } from '../src/target/profile.ts';

interface Holding {
  resourceId: string;
  association: RoleAssociation;
}

function isDefiningRole(ctx: CheckContext, roleId: string): boolean {
  return (
    ctx.profile.kinds.some((k) => k.definingRoleId === roleId) ||
    ctx.profile.roles.some((r) => r.id === roleId && r.definesKindId)
  );
}

/**
 * Claims a mutable resource of a role-supporting kind holding a role that
 * matches `pick`; other claimed resources are released by the engine.
 */
async function claimHolding(ctx: CheckContext, pick: (a: RoleAssociation) => boolean, what: string): Promise<Holding> {
  for (;;) {
    const resourceId = ctx.claimResource((_, kindId) => kindById(ctx.profile, kindId)?.supportsRoles === true);
    precondition(resourceId, `no mutable resource of a role-supporting kind holds ${what}`);
    const held = await listRoles(ctx.client, { resource_ids: [resourceId] });
    const association = held.find((a) => a.resource_id === resourceId && a.is_assigned && pick(a));
    if (association) return { resourceId, association };
  }
}

async function revoke(ctx: CheckContext, body: Record<string, unknown>, step: string): Promise<void> {
  expectSuccess(await ctx.client.post('resources.revoke-roles', body), step, undefined, OWNERS.revoke);
}

async function expectRolesUnchanged(
  ctx: CheckContext,
  resourceId: string,
  before: RoleAssociation[],
  message: string,
): Promise<void> {
  const after = await listRoles(ctx.client, { resource_ids: [resourceId] });
  if (snapshot(after) !== snapshot(before)) fail('list-roles after', message, before, after);
}

/** §4.1 rule 5: the role stays assigned, on no team. */
async function expectAssignedOnNoTeam(
  ctx: CheckContext,
  resourceId: string,
  roleId: string,
  after: string,
): Promise<void> {
  const held = await roleOf(ctx.client, resourceId, roleId);
  if (!held)
    fail(
      'list-roles after',
      `must still show the role as assigned (on no team) after ${after}`,
      { is_assigned: true, team_ids: [] },
      '(role gone)',
    );
  if (!Array.isArray(held.team_ids) || held.team_ids.length !== 0) {
    fail('list-roles after.team_ids', `must be an empty list after ${after}`, [], held.team_ids);
  }
}

const onStar = (ctx: CheckContext) => (a: RoleAssociation) => a.team_ids === '*' && !isDefiningRole(ctx, a.role_id);

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const x = [...new Set(a)].sort();
  const y = [...new Set(b)].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

function snapshot(list: RoleAssociation[]): string {
  return JSON.stringify(
    list
      .map((a) => ({ ...a, team_ids: Array.isArray(a.team_ids) ? [...a.team_ids].sort() : a.team_ids }))
      .sort((a, b) => (a.role_id + a.resource_id).localeCompare(b.role_id + b.resource_id)),
  );
}

export default defineRuleGroup({
  section: '§4.1',
  title: 'resources.revoke-roles',
  rules: [
    rule({
      id: 'revoke-roles.no-content',
      clause: '§4.1 Response',
      sentence: 'Response: status 204, meaning resource roles revoked; no body.',
      level: 'MUST',
      mutates: 'irreversible',
      needs: ['roleKindResource'],
      async check(ctx) {
        const { resourceId, association } = await claimHolding(ctx, onStar(ctx), 'a role on `*`');
        const res = await ctx.client.post('resources.revoke-roles', {
          resource_ids: [resourceId],
          role_ids: [association.role_id],
        });
        if (res.status !== 204) fail('response.status', 'must be 204 when roles are revoked', 204, res.status);
        if (res.text.length > 0)
          fail('response.body', 'must be empty (no body) with 204', '(empty)', res.text.slice(0, 200));
      },
    }),
    rule({
      id: 'revoke-roles.kind-must-support-roles',
      clause: '§4.1 rule 1',
      sentence: 'Only resources whose kind supports roles (employees and integrations) can have a role revoked.',
      level: 'MUST',
      mutates: 'irreversible',
      needs: ['nonRoleKindResource'],
      async check(ctx) {
        const resourceId = ctx.claimResource((_, kindId) => kindById(ctx.profile, kindId)?.supportsRoles === false);
        precondition(resourceId, 'no mutable resource of a kind without roles is left');
        const roleId = ctx.profile.roles[0]?.id;
        precondition(roleId, 'the target profile names no role');
        const before = await listRoles(ctx.client, { resource_ids: [resourceId] });
        const held = before.filter((a) => a.resource_id === resourceId && a.is_assigned);
        if (held.length > 0)
          fail('list-roles before', 'must show no role for a resource whose kind does not support roles', [], held);
        const res = await ctx.client.post('resources.revoke-roles', { resource_ids: [resourceId], role_ids: [roleId] });
        if (res.status >= 500)
          fail(
            'response.status',
            'must answer a revocation for a kind without roles without a server error',
            '2xx or 4xx',
            res.status,
          );
        ctx.observe('status of revoke-roles for a kind without roles', res.status);
        await expectRolesUnchanged(
          ctx,
          resourceId,
          before,
          'must not change anything for a resource whose kind does not support roles',
        );
      },
    }),
    rule({
      id: 'revoke-roles.defining-role-kept',
      clause: '§4.1 rule 2',
      sentence:
        'For the role that defines the kind of a resource, only its teams can be revoked, never the role itself.',
      level: 'MUST',
      mutates: 'irreversible',
      needs: ['roleKindResource', 'definingRole'],
      async check(ctx) {
        const { resourceId, association } = await claimHolding(
          ctx,
          (a) => isDefiningRole(ctx, a.role_id),
          'its kind-defining role',
        );
        const res = await ctx.client.post('resources.revoke-roles', {
          resource_ids: [resourceId],
          role_ids: [association.role_id],
        });
        ctx.observe('status of revoking a kind-defining role entirely', res.status);
        for (const teamIds of ['*'] as const) {
          const r = await ctx.client.post('resources.revoke-roles', {
            resource_ids: [resourceId],
            role_ids: [association.role_id],
            team_ids: teamIds,
          });
          ctx.observe('status of revoking every team of a kind-defining role', r.status);
        }
        const after = await roleOf(ctx.client, resourceId, association.role_id);
        if (!after)
          fail(
            'list-roles after',
            'must still show the kind-defining role as assigned (only its teams can be revoked)',
            { role_id: association.role_id, is_assigned: true },
            '(role gone)',
          );
      },
    }),
    rule({
      id: 'revoke-roles.absent-role-no-change',
      clause: '§4.1 rule 3',
      sentence: 'Revoking a role, or a team, that the resource does not have changes nothing.',
      level: 'MUST',
      mutates: 'irreversible',
      needs: ['roleKindResource'],
      async check(ctx) {
        const { resourceId } = await claimHolding(ctx, () => true, 'any role');
        const before = await listRoles(ctx.client, { resource_ids: [resourceId] });
        const heldRoles = new Set(before.filter((a) => a.is_assigned).map((a) => a.role_id));
        const absentRole = ctx.profile.roles.find((r) => !heldRoles.has(r.id) && !r.definesKindId);
        precondition(absentRole, 'the resource holds every role of the profile');
        await revoke(
          ctx,
          { resource_ids: [resourceId], role_ids: [absentRole.id] },
          'revoking a role the resource does not have',
        );
        const explicit = before.find(
          (a) => a.is_assigned && Array.isArray(a.team_ids) && !isDefiningRole(ctx, a.role_id),
        );
        if (explicit && Array.isArray(explicit.team_ids)) {
          const absentTeam = ctx.profile.teams.find(
            (t) => t.enabled && !(explicit.team_ids as string[]).includes(t.id),
          );
          if (absentTeam) {
            await revoke(
              ctx,
              { resource_ids: [resourceId], role_ids: [explicit.role_id], team_ids: [absentTeam.id] },
              'revoking a team the role does not have',
            );
          }
        }
        await expectRolesUnchanged(
          ctx,
          resourceId,
          before,
          'must be unchanged after revoking a role or team the resource does not have',
        );
      },
    }),
    rule({
      id: 'revoke-roles.omitted-team-ids-removes-role',
      clause: '§4.1 rule 4',
      sentence: 'When `team_ids` is omitted, the role is removed from the resources entirely.',
      level: 'MUST',
      mutates: 'irreversible',
      needs: ['roleKindResource'],
      async check(ctx) {
        const { resourceId, association } = await claimHolding(
          ctx,
          (a) => !isDefiningRole(ctx, a.role_id),
          'a role that does not define its kind',
        );
        await revoke(
          ctx,
          { resource_ids: [resourceId], role_ids: [association.role_id] },
          'revoking a role without team_ids',
        );
        const after = await roleOf(ctx.client, resourceId, association.role_id);
        if (after)
          fail(
            'list-roles after',
            'must no longer show the role as assigned once it is revoked without team_ids',
            '(no assigned association)',
            after,
          );
      },
    }),
    rule({
      id: 'revoke-roles.star-leaves-no-team',
      clause: '§4.1 rule 5',
      sentence: 'When `team_ids` is `*`, every team is revoked and the role stays assigned on no team.',
      level: 'MUST',
      mutates: 'irreversible',
      needs: ['roleKindResource'],
      async check(ctx) {
        const { resourceId, association } = await claimHolding(
          ctx,
          (a) => !isDefiningRole(ctx, a.role_id),
          'a role that does not define its kind',
        );
        await revoke(
          ctx,
          { resource_ids: [resourceId], role_ids: [association.role_id], team_ids: '*' },
          'revoking `*`',
        );
        await expectAssignedOnNoTeam(ctx, resourceId, association.role_id, 'revoking `*`');
      },
    }),
    rule({
      id: 'revoke-roles.last-teams-like-star',
      clause: '§4.1 rule 5',
      sentence: 'Revoking the last remaining teams of a role has the same result.',
      level: 'MUST',
      mutates: 'irreversible',
      needs: ['roleKindResource'],
      async check(ctx) {
        const { resourceId, association } = await claimHolding(
          ctx,
          (a) => Array.isArray(a.team_ids) && a.team_ids.length > 0 && !isDefiningRole(ctx, a.role_id),
          'a role on an explicit list of teams',
        );
        await revoke(
          ctx,
          { resource_ids: [resourceId], role_ids: [association.role_id], team_ids: association.team_ids },
          'revoking every listed team',
        );
        await expectAssignedOnNoTeam(ctx, resourceId, association.role_id, 'revoking the last remaining teams');
      },
    }),
    rule({
      id: 'revoke-roles.narrows-explicit-list',
      clause: '§4.1',
      sentence: 'Revokes role access of resources, or narrows the team scope of a role.',
      level: 'MUST',
      mutates: 'irreversible',
      needs: ['roleKindResource'],
      async check(ctx) {
        const { resourceId, association } = await claimHolding(
          ctx,
          (a) => Array.isArray(a.team_ids) && a.team_ids.length >= 2 && !isDefiningRole(ctx, a.role_id),
          'a role on an explicit list of at least two teams',
        );
        const teams = association.team_ids as string[];
        await revoke(
          ctx,
          { resource_ids: [resourceId], role_ids: [association.role_id], team_ids: [teams[0]!] },
          'revoking one listed team',
        );
        const after = await roleOf(ctx.client, resourceId, association.role_id);
        const expected = teams.slice(1);
        if (!after || !Array.isArray(after.team_ids) || !sameSet(after.team_ids, expected)) {
          fail(
            'list-roles after.team_ids',
            'must be the former list without the revoked team',
            expected,
            after?.team_ids ?? '(role gone)',
          );
        }
      },
    }),
    rule({
      id: 'revoke-roles.star-to-explicit-enabled',
      clause: '§4.1 rule 6',
      sentence:
        'When specific teams are revoked from a role held on `*`, the role becomes the explicit list of the remaining enabled teams; it then no longer follows teams created afterwards.',
      level: 'MUST',
      mutates: 'irreversible',
      needs: ['roleKindResource'],
      async check(ctx) {
        const enabled = ctx.profile.teams.filter((t) => t.enabled).map((t) => t.id);
        precondition(enabled.length >= 2, 'the target profile lists fewer than two enabled teams');
        const { resourceId, association } = await claimHolding(ctx, onStar(ctx), 'a role on `*`');
        const revoked = enabled[0]!;
        await revoke(
          ctx,
          { resource_ids: [resourceId], role_ids: [association.role_id], team_ids: [revoked] },
          'revoking one team from `*`',
        );
        const after = await roleOf(ctx.client, resourceId, association.role_id);
        const expected = enabled.filter((t) => t !== revoked);
        if (!after || !Array.isArray(after.team_ids)) {
          fail(
            'list-roles after.team_ids',
            'must become an explicit list of teams',
            expected,
            after?.team_ids ?? '(role gone)',
          );
        }
        const disabled = new Set(ctx.profile.teams.filter((t) => !t.enabled).map((t) => t.id));
        const leaked = after.team_ids.filter((t) => disabled.has(t));
        if (leaked.length > 0)
          fail('list-roles after.team_ids', 'must hold only enabled teams', expected, after.team_ids);
        if (!sameSet(after.team_ids, expected))
          fail('list-roles after.team_ids', 'must be every remaining enabled team', expected, after.team_ids);
      },
    }),
    rule({
      id: 'revoke-roles.empty-team-ids-rejected',
      clause: '§4.1 rule 7; §7',
      sentence: 'An empty `team_ids` array is rejected.',
      level: 'MUST',
      mutates: 'irreversible',
      needs: ['roleKindResource'],
      async check(ctx) {
        const { resourceId, association } = await claimHolding(
          ctx,
          (a) => !isDefiningRole(ctx, a.role_id),
          'a role that does not define its kind',
        );
        const before = await listRoles(ctx.client, { resource_ids: [resourceId] });
        const res = await ctx.client.post('resources.revoke-roles', {
          resource_ids: [resourceId],
          role_ids: [association.role_id],
          team_ids: [],
        });
        ctx.observe('status of rejecting an empty team_ids', res.status);
        expectRejected(res, 'an empty team_ids array');
        await expectRolesUnchanged(ctx, resourceId, before, 'must be unchanged after a rejected request');
      },
    }),
  ],
});
