/**
 * §4.6 resources.list-roles and §4.9 rule 8 (lists without pagination).
 * Each rule is a driver (reads list-roles, each read tagged with its step)
 * and a judge of those reads.
 */
import { isRefusal, NO_SUCH_ID } from '../src/rules/no-such-id.ts';
import { TRAFFIC } from '../src/rules/judges/untagged-traffic.ts';
import type { ApiResponse } from '../src/client/directory-client.ts';
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { owned } from '../src/rules/assertions.ts';
import { associationKey, expectPlainArray, listRoles, untouchedRoleResources } from '../src/rules/steps/roles.ts';
import {
  accepted,
  firstWithStep,
  isClean,
  judgeAll,
  judgeEach,
  noEvidence,
  withStep,
  type Judgement,
} from '../src/rules/judges/judgement.ts';
import { bodySummary, type Observed } from '../src/rules/judges/observed.ts';
import { rolesShown } from '../src/rules/judges/role-answers.ts';
import type { Violation } from '../src/core/types.ts';
import type { ListRolesRequest, RoleAssociation } from '../src/schemas/index.ts';
import { matchesSchema, validateSchema } from '../src/schemas/index.ts';
import { kindById } from '../src/target/profile.ts';
import { ROLES_PLAIN_ARRAY, ROLES_ASSOCIATIONS } from '../src/rules/judges/read-answers.ts';

/** The steps drivers of this group tag their reads with, which their judges read. */
const STEP = {
  profileResources: 'list-roles of profile resources',
  oneResource: 'list-roles of one resource',
  resourcesListed: 'list-roles of several resources in listed order',
  resourcesReversed: 'list-roles of several resources in reverse order',
  oneRole: 'list-roles of one role',
  rolesListed: 'list-roles of several roles in listed order',
  rolesReversed: 'list-roles of several roles in reverse order',
  resourceTwice: 'list-roles of several resources, one named twice',
  unknownResource: 'list-roles of several resources and an id of no resource',
  unknownRole: 'list-roles of several roles and an id of no role',
  mainKey: 'resources.list-roles',
  restrictedKey: 'resources.list-roles with the restricted key',
} as const;

/** Profile resources of a kind that supports roles. */
function roleResources(ctx: CheckContext): string[] {
  return ctx.profile.mutableResources.filter((r) => kindById(ctx.profile, r.kindId)?.supportsRoles).map((r) => r.id);
}

function allRoleIds(ctx: CheckContext): string[] {
  return ctx.profile.roles.map((r) => r.id);
}

/** list-roles for the first `n` profile resources of role kinds and every role, as the server answers it. */
function listRolesOfProfile(ctx: CheckContext, n: number): Promise<ApiResponse> {
  return ctx.client.post(
    'resources.list-roles',
    { resource_ids: roleResources(ctx).slice(0, n), role_ids: allRoleIds(ctx) },
    { step: STEP.profileResources },
  );
}

/** Every association answers the request's filters. */
function only(answer: readonly RoleAssociation[], body: ListRolesRequest, where: string): Violation[] {
  const resources = new Set(body.resource_ids);
  const roles = new Set(body.role_ids);
  const stray = answer.filter((a) => !resources.has(a.resource_id) || !roles.has(a.role_id));
  if (stray.length === 0) return [];
  return [
    {
      where,
      message: 'must hold only associations of the requested resource_ids and role_ids',
      expected: body,
      actual: stray.slice(0, 3),
    },
  ];
}

/** The same associations as `expected`, as a set. */
function sameAssociations(
  answer: readonly RoleAssociation[],
  expected: readonly RoleAssociation[],
  where: string,
): Violation[] {
  const got = new Set(answer.map(associationKey));
  const want = new Set(expected.map(associationKey));
  const missing = [...want].filter((k) => !got.has(k));
  const extra = [...got].filter((k) => !want.has(k));
  if (missing.length === 0 && extra.length === 0) return [];
  return [
    {
      where,
      message: 'must hold the associations of each requested id, as the requests for each id alone show them',
      expected: `${want.size} associations (resource/role/is_assigned/teams)`,
      actual: { missing: missing.slice(0, 5), unexpected: extra.slice(0, 5) },
    },
  ];
}

/** A read whose refusal is the target's choice: sent, and recorded when refused. */
async function readUnlessRefused(ctx: CheckContext, body: ListRolesRequest, step: string): Promise<void> {
  const res = await ctx.client.post('resources.list-roles', body, { step });
  if (isRefusal(res)) ctx.observe(`refused: ${step}`, res.status);
}

/** Each association once, however many times a request names its resource or role. */
function once(answer: readonly RoleAssociation[], where: string): Violation[] {
  const seen = new Set<string>();
  const twice = answer.filter((a) => {
    const key = associationKey(a);
    if (seen.has(key)) return true;
    seen.add(key);
    return false;
  });
  if (twice.length === 0) return [];
  return [
    {
      where,
      message: 'must list each association once, however many times the request names its resource or role',
      expected: 'no association twice',
      actual: twice.slice(0, 3),
    },
  ];
}

/** A read's request and what it showed, or the judgement that stops there. */
function readOf(o: Observed): { body: ListRolesRequest; roles: RoleAssociation[] } | { judgement: Judgement } {
  if (!matchesSchema('ListRolesRequest', o.request)) return { judgement: noEvidence(`${o.step} sent no filters`) };
  const read = rolesShown(o, o.step);
  return 'roles' in read ? { body: o.request, roles: read.roles } : read;
}

/**
 * §4.6 filters: each read of several ids must show the union of what the
 * reads of each resource alone showed, narrowed to its roles.
 */
function judgeFilters(log: readonly Observed[]): Judgement {
  const alone = new Map<string, RoleAssociation[]>();
  const parts: Judgement[] = [];
  for (const o of withStep(log, STEP.oneResource)) {
    const read = readOf(o);
    const [id] = 'body' in read ? (read.body.resource_ids ?? []) : [];
    if (!('body' in read) || id === undefined) {
      parts.push('judgement' in read ? read.judgement : noEvidence(`${o.step} named no resource`));
      continue;
    }
    parts.push(only(read.roles, read.body, `${o.step} (resource_ids [${id}]): response.body`));
    alone.set(id, read.roles);
  }
  const holding = [...alone].filter(([, roles]) => roles.length > 0);
  if (holding.length < 2) parts.push(noEvidence('fewer than two untouched resources of a role kind hold a role'));
  const heldRoles = new Set(holding.flatMap(([, roles]) => roles.map((a) => a.role_id)));
  if (heldRoles.size < 2) parts.push(noEvidence('the untouched resources hold fewer than two distinct roles'));
  /** What the reads of each resource alone showed of a request's resources and roles. */
  const expectedOf = (body: ListRolesRequest): RoleAssociation[] | undefined => {
    // An id of no resource imposes nothing; one named twice is one resource.
    const named = [...new Set(body.resource_ids ?? [])].filter((id) => id !== NO_SUCH_ID);
    const answers = named.map((id) => alone.get(id));
    if (answers.some((a) => a === undefined)) return undefined;
    const roles = new Set(body.role_ids);
    return answers.flatMap((a) => a ?? []).filter((a) => roles.has(a.role_id));
  };
  const steps: Array<[string, boolean]> = [
    [STEP.resourcesListed, false],
    [STEP.resourcesReversed, false],
    [STEP.oneRole, true],
    [STEP.rolesListed, false],
    [STEP.rolesReversed, false],
    [STEP.resourceTwice, false],
  ];
  // Sent with an id of no resource or of no role: their refusal is the target's choice (not shown, §7).
  const refusable: readonly string[] = [STEP.unknownResource, STEP.unknownRole];
  for (const [step, perRole] of [...steps, ...refusable.map((s): [string, boolean] => [s, false])]) {
    const reads = withStep(log, step).filter((o) => !(refusable.includes(step) && isRefusal(o)));
    if (reads.length === 0 && !refusable.includes(step)) parts.push(noEvidence(`no ${step}`));
    for (const o of reads) {
      const read = readOf(o);
      if (!('body' in read)) {
        parts.push(read.judgement);
        continue;
      }
      const expected = expectedOf(read.body);
      if (!expected) {
        parts.push(noEvidence(`${o.step} named a resource not read alone`));
        continue;
      }
      const where = perRole ? `${o.step} (role_ids [${(read.body.role_ids ?? []).join(', ')}])` : o.step;
      parts.push([
        ...only(read.roles, read.body, `${where}: response.body`),
        ...sameAssociations(read.roles, expected, `${where}: response.body`),
        ...once(read.roles, `${where}: response.body`),
      ]);
    }
  }
  return judgeAll(parts);
}

export default defineRuleGroup({
  section: '§4.6',
  title: 'resources.list-roles',
  rules: [
    rule({
      id: 'list-roles.plain-array',
      checks: [ROLES_PLAIN_ARRAY],
      traffic: TRAFFIC.answers('resources.list-roles'),
      clause: '§4.6 Response; §4.9 rule 8',
      quote: [
        'Response: JSON array of Role association (section 2.3), returned without pagination envelope.',
        '`.list` operations that do not declare pagination return a plain JSON array without envelope.',
      ],
      level: 'MUST',
      needs: ['roleKindResource'],
      async drive(ctx) {
        await listRolesOfProfile(ctx, 3);
      },
      judge: (log) =>
        judgeEach(withStep(log, STEP.profileResources), `no ${STEP.profileResources}`, (o) => {
          const answer = accepted(o);
          if (!isClean(answer) || Array.isArray(o.body)) return answer;
          return [
            {
              where: `${o.step}: response.body`,
              message: 'must be a plain JSON array (no pagination envelope)',
              expected: 'array',
              actual: o.body ?? bodySummary(o),
            },
          ];
        }),
    }),
    rule({
      id: 'list-roles.association-shape',
      checks: [ROLES_ASSOCIATIONS],
      traffic: TRAFFIC.answers('resources.list-roles'),
      clause: '§2.3',
      quote: [
        '| resource_id | Snowflake |',
        '| role_id | Snowflake |',
        '| is_assigned | boolean |',
        '| team_ids | TeamList |',
      ],
      level: 'MUST',
      needs: ['roleKindResource'],
      async drive(ctx) {
        const res = await listRolesOfProfile(ctx, 5);
        // That the answer is a plain array is list-roles.plain-array's clause.
        if (res.status === 200) owned(ctx, 'list-roles.plain-array', () => expectPlainArray(res));
      },
      judge(log) {
        const o = firstWithStep(log, STEP.profileResources);
        if (!o) return noEvidence(`no ${STEP.profileResources}`);
        const answer = accepted(o, { status: 200 });
        if (!isClean(answer)) return answer;
        if (!Array.isArray(o.body)) return noEvidence(`${o.step} did not answer a plain array`);
        if (o.body.length === 0) return noEvidence('no role association to look at among the profile resources');
        return o.body.flatMap((association: unknown, i) =>
          validateSchema('RoleAssociation', association, `${o.step}: response.body[${i}]`),
        );
      },
    }),
    rule({
      id: 'list-roles.filters-respected',
      clause: '§4.6 Request body',
      quote: 'Request body: `resource_ids` (array of Snowflake), `role_ids` (array of Snowflake).',
      level: 'MUST',
      needs: ['roleKindResource'],
      async drive(ctx) {
        // Each filter is a list: an answer for several ids must be the union of the answers for
        // each id alone, whatever the order of the ids. Resources the suite never changes, so
        // the answers cannot differ by a revocation running beside this rule.
        const resources = await untouchedRoleResources(ctx, 4);
        const roles = allRoleIds(ctx);
        const alone: RoleAssociation[][] = [];
        const holding: string[] = [];
        for (const id of resources) {
          const answer = await listRoles(ctx, { resource_ids: [id], role_ids: roles }, { step: STEP.oneResource });
          alone.push(answer);
          if (answer.length > 0) holding.push(id);
        }
        if (holding.length < 2) return;
        await listRoles(ctx, { resource_ids: holding, role_ids: roles }, { step: STEP.resourcesListed });
        await listRoles(
          ctx,
          { resource_ids: [...holding].reverse(), role_ids: roles },
          { step: STEP.resourcesReversed },
        );
        // One role at a time over the several resources: each must agree with the answers above.
        for (const roleId of roles.slice(0, 8)) {
          await listRoles(ctx, { resource_ids: holding, role_ids: [roleId] }, { step: STEP.oneRole });
        }
        // What lists of ids hold in real requests: an id named twice (it changes nothing), an id of no
        // resource or of no role (it imposes nothing; whether a target refuses it is not shown, §7).
        await listRoles(
          ctx,
          { resource_ids: [...holding, ...holding.slice(0, 1)], role_ids: roles },
          { step: STEP.resourceTwice },
        );
        await readUnlessRefused(ctx, { resource_ids: [...holding, NO_SUCH_ID], role_ids: roles }, STEP.unknownResource);
        const held = [...new Set(alone.flat().map((a) => a.role_id))];
        if (held.length < 2) return;
        const chosen = held.slice(0, 3);
        await listRoles(ctx, { resource_ids: holding, role_ids: chosen }, { step: STEP.rolesListed });
        await listRoles(ctx, { resource_ids: holding, role_ids: [...chosen].reverse() }, { step: STEP.rolesReversed });
        await readUnlessRefused(ctx, { resource_ids: holding, role_ids: [...chosen, NO_SUCH_ID] }, STEP.unknownRole);
      },
      judge: judgeFilters,
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
      async drive(ctx) {
        const body = { resource_ids: await untouchedRoleResources(ctx, 8), role_ids: allRoleIds(ctx) };
        const full = await listRoles(ctx, body, { step: STEP.mainKey });
        const limited = await listRoles(ctx, body, { client: ctx.restricted, step: STEP.restrictedKey });
        ctx.observe('associations seen by the restricted key vs the main key', {
          restricted: limited.length,
          main: full.length,
        });
      },
      judge(log, profile) {
        const full = rolesShown(firstWithStep(log, STEP.mainKey), STEP.mainKey);
        if (!('roles' in full)) return full.judgement;
        if (full.roles.length === 0) return noEvidence('the resources read hold no role');
        const hidden = new Set(profile.restrictedHiddenRoleIds ?? []);
        // Without a hidden role among the associations, the restricted answer cannot show a filter:
        // a restricted key that sees all the main key sees would pass for nothing.
        if (hidden.size === 0) {
          return noEvidence(
            'the target profile lists no role hidden from the restricted key (restrictedHiddenRoleIds)',
          );
        }
        if (!full.roles.some((a) => hidden.has(a.role_id))) {
          return noEvidence(
            'none of the resources read holds a role the profile lists as hidden from the restricted key',
          );
        }
        const limited = rolesShown(firstWithStep(log, STEP.restrictedKey), STEP.restrictedKey);
        if (!('roles' in limited)) return limited.judgement;
        const key = (a: { resource_id: string; role_id: string }): string => `${a.resource_id}/${a.role_id}`;
        const known = new Set(full.roles.map(key));
        const extra = limited.roles.filter((a) => !known.has(key(a)));
        const leaked = limited.roles.filter((a) => hidden.has(a.role_id));
        const where = `${STEP.restrictedKey}: response.body`;
        return [
          ...(extra.length > 0
            ? [
                {
                  where,
                  message: 'must show a restricted caller no association beyond what a fully permitted caller sees',
                  expected: '(a subset)',
                  actual: extra.slice(0, 3),
                },
              ]
            : []),
          ...(leaked.length > 0
            ? [
                {
                  where,
                  message:
                    'must not show associations of roles the restricted caller may not view (restrictedHiddenRoleIds)',
                  expected: '(none)',
                  actual: leaked.slice(0, 3),
                },
              ]
            : []),
        ];
      },
    }),
  ],
});
