/**
 * §4.6 resources.list-roles and §4.9 rule 8 (lists without pagination).
 */
import type { ApiResponse } from '../src/client/directory-client.ts';
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { expectEach, expectSuccess, fail, owned, precondition } from '../src/rules/assertions.ts';
import { associationKey, expectPlainArray, listRoles, untouchedRoleResources } from '../src/rules/steps/roles.ts';
import type { ListRolesRequest, RoleAssociation } from '../src/schemas/index.ts';
import { validateSchema } from '../src/schemas/index.ts';
import { kindById } from '../src/target/profile.ts';

/** Profile resources of a kind that supports roles. */
function roleResources(ctx: CheckContext): string[] {
  return ctx.profile.mutableResources.filter((r) => kindById(ctx.profile, r.kindId)?.supportsRoles).map((r) => r.id);
}

function allRoleIds(ctx: CheckContext): string[] {
  return ctx.profile.roles.map((r) => r.id);
}

/** list-roles for the first `n` profile resources of role kinds and every role, as the server answers it. */
function listRolesOfProfile(ctx: CheckContext, n: number): Promise<ApiResponse> {
  return ctx.client.post('resources.list-roles', {
    resource_ids: roleResources(ctx).slice(0, n),
    role_ids: allRoleIds(ctx),
  });
}

/** Every association answers the request's filters. */
function expectOnly(answer: RoleAssociation[], body: ListRolesRequest, where: string): void {
  const resources = new Set(body.resource_ids);
  const roles = new Set(body.role_ids);
  const stray = answer.filter((a) => !resources.has(a.resource_id) || !roles.has(a.role_id));
  if (stray.length > 0) {
    fail({
      where,
      message: 'must hold only associations of the requested resource_ids and role_ids',
      expected: body,
      actual: stray.slice(0, 3),
    });
  }
}

/** The same associations as `expected`, as a set. */
function expectSameAssociations(answer: RoleAssociation[], expected: RoleAssociation[], where: string): void {
  const got = new Set(answer.map(associationKey));
  const want = new Set(expected.map(associationKey));
  const missing = [...want].filter((k) => !got.has(k));
  const extra = [...got].filter((k) => !want.has(k));
  if (missing.length > 0 || extra.length > 0) {
    fail({
      where,
      message: 'must hold the associations of each requested id, as the requests for each id alone show them',
      expected: `${want.size} associations (resource/role/is_assigned/teams)`,
      actual: { missing: missing.slice(0, 5), unexpected: extra.slice(0, 5) },
    });
  }
}

export default defineRuleGroup({
  section: '§4.6',
  title: 'resources.list-roles',
  rules: [
    rule({
      id: 'list-roles.plain-array',
      clause: '§4.6 Response; §4.9 rule 8',
      quote: [
        'Response: JSON array of Role association (section 2.3), returned without pagination envelope.',
        '`.list` operations that do not declare pagination return a plain JSON array without envelope.',
      ],
      level: 'MUST',
      needs: ['roleKindResource'],
      async check(ctx) {
        const res = await listRolesOfProfile(ctx, 3);
        expectSuccess(res, { step: 'resources.list-roles' });
        expectPlainArray(res);
      },
    }),
    rule({
      id: 'list-roles.association-shape',
      clause: '§2.3',
      quote: [
        '| resource_id | Snowflake |',
        '| role_id | Snowflake |',
        '| is_assigned | boolean |',
        '| team_ids | TeamList |',
      ],
      level: 'MUST',
      needs: ['roleKindResource'],
      async check(ctx) {
        const res = await listRolesOfProfile(ctx, 5);
        expectSuccess(res, { step: 'resources.list-roles', status: 200 });
        const associations = owned(ctx, 'list-roles.plain-array', () => expectPlainArray(res));
        precondition(associations.length > 0, 'no role association to look at among the profile resources');
        expectEach(associations, (association, i) =>
          validateSchema('RoleAssociation', association, `response.body[${i}]`),
        );
      },
    }),
    rule({
      id: 'list-roles.filters-respected',
      clause: '§4.6 Request body',
      quote: 'Request body: `resource_ids` (array of Snowflake), `role_ids` (array of Snowflake).',
      level: 'MUST',
      needs: ['roleKindResource'],
      async check(ctx) {
        // Each filter is a list: an answer for several ids must be the union of the answers for
        // each id alone, whatever the order of the ids. Resources the suite never changes, so
        // the answers cannot differ by a revocation running beside this rule.
        const resources = await untouchedRoleResources(ctx, 4);
        const roles = allRoleIds(ctx);
        const alone = new Map<string, RoleAssociation[]>();
        for (const id of resources) {
          const answer = await listRoles(ctx, { resource_ids: [id], role_ids: roles });
          expectOnly(answer, { resource_ids: [id], role_ids: roles }, `resource_ids [${id}]`);
          alone.set(id, answer);
        }
        const holding = resources.filter((id) => alone.get(id)!.length > 0);
        precondition(holding.length >= 2, 'fewer than two untouched resources of a role kind hold a role');
        const expected = [...alone.values()].flat();
        for (const [order, ids] of [
          ['in listed order', holding],
          ['in reverse order', [...holding].reverse()],
        ] as const) {
          const body = { resource_ids: [...ids], role_ids: roles };
          expectSameAssociations(await listRoles(ctx, body), expected, `${ids.length} resource_ids ${order}`);
        }
        // One role at a time over the several resources: each must agree with the answers above.
        for (const roleId of roles.slice(0, 8)) {
          const body = { resource_ids: holding, role_ids: [roleId] };
          const answer = await listRoles(ctx, body);
          expectOnly(answer, body, `role_ids [${roleId}]`);
          const want = expected.filter((a) => a.role_id === roleId);
          expectSameAssociations(answer, want, `role_ids [${roleId}] with ${holding.length} resource_ids`);
        }
        const held = [...new Set(expected.map((a) => a.role_id))];
        precondition(held.length >= 2, 'the untouched resources hold fewer than two distinct roles');
        const chosen = held.slice(0, 3);
        for (const [order, ids] of [
          ['in listed order', chosen],
          ['in reverse order', [...chosen].reverse()],
        ] as const) {
          const answer = await listRoles(ctx, { resource_ids: holding, role_ids: [...ids] });
          const want = expected.filter((a) => chosen.includes(a.role_id));
          expectSameAssociations(answer, want, `${ids.length} role_ids ${order}`);
        }
      },
    }),
    rule({
      id: 'list-roles.restricted-sees-subset',
      clause: '§4.6; §5',
      quote: [
        'Retrieves all resource-role associations that the caller is allowed to view.',
        'role associations are limited to those the caller may view',
      ],
      level: 'MUST',
      needs: ['roleKindResource', 'restrictedKey'],
      async check(ctx) {
        const body = { resource_ids: await untouchedRoleResources(ctx, 8), role_ids: allRoleIds(ctx) };
        const full = await listRoles(ctx, body);
        precondition(full.length > 0, 'the resources read hold no role');
        const hidden = new Set(ctx.profile.restrictedHiddenRoleIds ?? []);
        // Without a hidden role among the associations, the restricted answer cannot show a filter:
        // a restricted key that sees all the main key sees would pass for nothing.
        precondition(
          hidden.size > 0,
          'the target profile lists no role hidden from the restricted key (restrictedHiddenRoleIds)',
        );
        precondition(
          full.some((a) => hidden.has(a.role_id)),
          'none of the resources read holds a role the profile lists as hidden from the restricted key',
        );
        const limited = await listRoles(ctx, body, {
          client: ctx.restricted,
          step: 'resources.list-roles with the restricted key',
        });
        const key = (a: { resource_id: string; role_id: string }): string => `${a.resource_id}/${a.role_id}`;
        const known = new Set(full.map(key));
        const extra = limited.filter((a) => !known.has(key(a)));
        if (extra.length > 0) {
          fail({
            where: 'restricted response.body',
            message: 'must show a restricted caller no association beyond what a fully permitted caller sees',
            expected: '(a subset)',
            actual: extra.slice(0, 3),
          });
        }
        const leaked = limited.filter((a) => hidden.has(a.role_id));
        if (leaked.length > 0) {
          fail({
            where: 'restricted response.body',
            message: 'must not show associations of roles the restricted caller may not view (restrictedHiddenRoleIds)',
            expected: '(none)',
            actual: leaked.slice(0, 3),
          });
        }
        ctx.observe('associations seen by the restricted key vs the main key', {
          restricted: limited.length,
          main: full.length,
        });
      },
    }),
  ],
});
