/**
 * §4.6 resources.list-roles and §4.9 rule 8 (lists without pagination).
 */
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { expectEach, expectSuccess, fail, precondition } from '../src/rules/assertions.ts';
import { listRoles } from '../src/rules/steps/roles.ts';
import { validateSchema } from '../src/schemas/index.ts';
import { kindById } from '../src/target/profile.ts';

/** Profile resources of a kind that supports roles. */
function roleResources(ctx: CheckContext): string[] {
  return ctx.profile.mutableResources.filter((r) => kindById(ctx.profile, r.kindId)?.supportsRoles).map((r) => r.id);
}

function allRoleIds(ctx: CheckContext): string[] {
  return ctx.profile.roles.map((r) => r.id);
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
        const body = { resource_ids: roleResources(ctx).slice(0, 3), role_ids: allRoleIds(ctx) };
        const res = await ctx.client.post('resources.list-roles', body);
        expectSuccess(res, { step: 'resources.list-roles' });
        if (!Array.isArray(res.json)) {
          fail({
            where: 'response.body',
            message: 'must be a plain JSON array (no pagination envelope)',
            expected: 'array',
            actual: res.json === undefined ? res.text.slice(0, 200) : res.json,
          });
        }
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
        const body = { resource_ids: roleResources(ctx).slice(0, 5), role_ids: allRoleIds(ctx) };
        const res = await ctx.client.post('resources.list-roles', body);
        expectSuccess(res, { step: 'resources.list-roles', status: 200 });
        if (!Array.isArray(res.json)) {
          fail({
            where: 'response.body',
            message: 'must be a plain JSON array (no pagination envelope)',
            expected: 'array',
            actual: res.json,
            owner: 'list-roles.plain-array',
          });
        }
        precondition(res.json.length > 0, 'no role association to look at among the profile resources');
        expectEach(res.json, (association, i) => validateSchema('RoleAssociation', association, `response.body[${i}]`));
      },
    }),
    rule({
      id: 'list-roles.filters-respected',
      clause: '§4.6 Request body',
      quote: 'Request body: `resource_ids` (array of Snowflake), `role_ids` (array of Snowflake).',
      level: 'MUST',
      needs: ['roleKindResource'],
      async check(ctx) {
        const ids = roleResources(ctx).slice(0, 2);
        const all = await listRoles(ctx, { resource_ids: ids, role_ids: allRoleIds(ctx) });
        const strayResource = all.filter((a) => !ids.includes(a.resource_id));
        if (strayResource.length > 0) {
          fail({
            where: 'response.body',
            message: 'must hold only associations of the requested resource_ids',
            expected: ids,
            actual: strayResource.slice(0, 3),
          });
        }
        const someRole = all[0]?.role_id;
        precondition(someRole, 'the requested resources hold no role');
        const one = await listRoles(ctx, { resource_ids: ids, role_ids: [someRole] });
        const strayRole = one.filter((a) => a.role_id !== someRole);
        if (strayRole.length > 0) {
          fail({
            where: 'response.body',
            message: 'must hold only associations of the requested role_ids',
            expected: [someRole],
            actual: strayRole.slice(0, 3),
          });
        }
        if (one.length === 0) {
          fail({
            where: 'response.body',
            message: 'must hold the associations of the requested role',
            expected: `associations of role ${someRole}`,
            actual: [],
          });
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
        const body = { resource_ids: roleResources(ctx).slice(0, 5), role_ids: allRoleIds(ctx) };
        const full = await listRoles(ctx, body);
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
        const hidden = new Set(ctx.profile.restrictedHiddenRoleIds ?? []);
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
