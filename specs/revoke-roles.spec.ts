/**
 * §4.1 resources.revoke-roles. Revocation cannot be undone with documented
 * operations, so every rule here is irreversible: it runs only on resources
 * the target profile lists as mutable, and only when the profile opts in.
 * Each rule is a driver (claims a resource holding a suitable role, revokes,
 * reads list-roles after, each request tagged with its step) and a judge of
 * those exchanges.
 */
import { TRAFFIC } from '../src/rules/judges/untagged-traffic.ts';
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { precondition } from '../src/rules/assertions.ts';
import { canonicalRoles, isDefiningRole, listRoles } from '../src/rules/steps/roles.ts';
import { captureState } from '../src/rules/steps/state.ts';
import {
  accepted,
  firstWithStep,
  isClean,
  judgeAll,
  judgeEach,
  noContent,
  noEvidence,
  noServerError,
  rejected,
  withStep,
  type Judgement,
} from '../src/rules/judges/judgement.ts';
import type { Observed } from '../src/rules/judges/observed.ts';
import {
  profileLacksTeams,
  revocationOf,
  rolesShown,
  sameSet,
  teamsTheProfileLacks,
  type Revocation,
} from '../src/rules/judges/role-answers.ts';
import { stateIn, unchangedBetween } from '../src/rules/judges/state.ts';
import type { ListRolesRequest, RevokeRolesRequest, RoleAssociation } from '../src/schemas/index.ts';
import { judgeEveryRead, later, aMoment } from '../src/rules/judges/read-after-write.ts';
import { kindById, type TargetProfile } from '../src/target/profile.ts';

interface Holding {
  resourceId: string;
  association: RoleAssociation;
}

/** The steps drivers of this group tag their requests with, which their judges read. */
const STEP = {
  candidate: 'list-roles of a candidate resource',
  revocation: 'resources.revoke-roles',
  nonRoleKind: 'a revocation for a kind without roles',
  definingWhole: 'revoking the kind-defining role entirely',
  definingStar: 'revoking every team of the kind-defining role',
  absentRole: 'revoking a role the resource does not have',
  absentTeam: 'revoking a team the role does not have',
  withoutTeams: 'revoking roles without team_ids',
  star: 'revoking `*`',
  lastTeams: 'revoking every listed team',
  someTeams: 'revoking some of the listed teams',
  fromStar: 'revoking teams from `*`',
  oneMore: 'revoking one more team from the explicit list',
  emptyTeams: 'an empty team_ids array',
  before: 'list-roles before',
  after: 'list-roles after',
  afterSecond: 'list-roles after the second revocation',
} as const;

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
    const held = await listRoles(ctx, { resource_ids: [resourceId] }, { step: STEP.candidate });
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
  first?: Holding,
): Promise<Holding[]> {
  const holdings = [first ?? (await claimHolding(ctx, pick, what))];
  const roleResources = ctx.profile.mutableResources.filter((r) => kindById(ctx.profile, r.kindId)?.supportsRoles);
  while (roleResources.length >= 12 && holdings.length < 3) {
    const more = await tryClaimHolding(ctx, pick);
    if (!more) break;
    holdings.push(more);
  }
  return holdings;
}

/**
 * Teams to revoke from several explicit lists at once: each list's teams but
 * one it keeps (its last not revoked already), none an earlier list keeps; so
 * the first list is narrowed to one team, and the others to what is left.
 */
function revokedKeepingOneEach(holdings: readonly Holding[]): string[] {
  const kept = new Set<string>();
  const revoked: string[] = [];
  for (const h of holdings) {
    const teams = Array.isArray(h.association.team_ids) ? h.association.team_ids : [];
    const keep = [...teams].reverse().find((t) => !revoked.includes(t));
    if (keep !== undefined) kept.add(keep);
    for (const t of teams) if (t !== keep && !kept.has(t) && !revoked.includes(t)) revoked.push(t);
  }
  return revoked;
}

const notDefining = (ctx: CheckContext) => (a: RoleAssociation) => !isDefiningRole(ctx, a.role_id);
const onStar = (ctx: CheckContext) => (a: RoleAssociation) => a.team_ids === '*' && !isDefiningRole(ctx, a.role_id);

/** What every revocation rule is: a MUST that cannot be undone, on a resource whose kind supports roles. */
const REVOCATION = { level: 'MUST', mutates: 'irreversible', needs: ['roleKindResource'] } as const;

/** A claimed resource holding a role that does not define its kind (so the whole role can be revoked). */
function claimRevocable(ctx: CheckContext): Promise<Holding> {
  return claimHolding(ctx, notDefining(ctx), 'a role that does not define its kind');
}

/** Revokes `teamIds` (or, when undefined, the whole role) of the held role; true when it was accepted. */
async function revokeHeld(
  ctx: CheckContext,
  held: Holding,
  teamIds: '*' | string[] | undefined,
  step: string,
): Promise<boolean> {
  const body: RevokeRolesRequest = { resource_ids: [held.resourceId], role_ids: [held.association.role_id] };
  const res = await ctx.client.post(
    'resources.revoke-roles',
    teamIds === undefined ? body : { ...body, team_ids: teamIds },
    {
      step,
    },
  );
  return res.status >= 200 && res.status < 300;
}

/**
 * What list-roles shows after a revocation, read right after it (tagged
 * `step`) and a moment later (`later(step)`): both must show its effect
 * (judgeEveryRead), so a read served stale for a moment is a departure.
 */
async function readAfterRevocation(ctx: CheckContext, body: ListRolesRequest, step: string): Promise<void> {
  await listRoles(ctx, body, { step, fresh: true });
  await aMoment(ctx);
  await listRoles(ctx, body, { step: later(step), fresh: true });
}

/**
 * Each resource's roles read alone right after a revocation of several, all
 * tagged `step`, then again a moment later: a read of one resource does not
 * lean on list-roles taking several (that is list-roles' own clause).
 */
async function readEachAfterRevocation(ctx: CheckContext, resourceIds: readonly string[], step: string): Promise<void> {
  for (const id of resourceIds) await listRoles(ctx, { resource_ids: [id] }, { step, fresh: true });
  await aMoment(ctx);
  for (const id of resourceIds) await listRoles(ctx, { resource_ids: [id] }, { step: later(step), fresh: true });
}

/** The held role as list-roles shows it right after a revocation and a moment later. */
async function readRole(ctx: CheckContext, held: Holding, step: string): Promise<void> {
  await readAfterRevocation(ctx, { resource_ids: [held.resourceId], role_ids: [held.association.role_id] }, step);
}

/** The revocation a driver sent under `step`, accepted; or the judgement that stops there. */
function revocationIn(log: readonly Observed[], step: string): { revocation: Revocation } | { judgement: Judgement } {
  const o = firstWithStep(log, step);
  const revocation = o ? revocationOf(o.request) : undefined;
  if (!o || !revocation) return { judgement: noEvidence(`no ${step} was sent`) };
  const answer = accepted(o);
  return isClean(answer) ? { revocation } : { judgement: answer };
}

/** The one resource and role a revocation names (the drivers of this group name one of each). */
function target(revocation: Revocation): { resourceId: string; roleId: string } | undefined {
  const [resourceId] = revocation.resourceIds;
  const [roleId] = revocation.roleIds;
  return resourceId !== undefined && roleId !== undefined ? { resourceId, roleId } : undefined;
}

/** The teams `roleId` was held on by `resourceId` when the driver chose it (its last candidate read); undefined when not held. */
function heldBefore(log: readonly Observed[], resourceId: string, roleId: string): '*' | string[] | undefined {
  for (const o of withStep(log, STEP.candidate).reverse()) {
    const read = rolesShown(o, STEP.candidate);
    if (!('roles' in read)) continue;
    const held = read.roles.find((a) => a.resource_id === resourceId && a.role_id === roleId && a.is_assigned);
    if (held) return held.team_ids;
  }
  return undefined;
}

/**
 * The assigned association of `roleId` of `resourceId` the reads tagged
 * `step` showed (one read, or one per resource; undefined: the role is gone).
 */
function roleShown(
  log: readonly Observed[],
  step: string,
  resourceId: string,
  roleId: string,
): { association: RoleAssociation | undefined } | { judgement: Judgement } {
  const reads = withStep(log, step);
  if (reads.length === 0) return { judgement: noEvidence(`no ${step}`) };
  const shown: RoleAssociation[] = [];
  for (const o of reads) {
    const read = rolesShown(o, step);
    if (!('roles' in read)) return read;
    shown.push(...read.roles);
  }
  return {
    association: shown.find((a) => a.resource_id === resourceId && a.role_id === roleId && a.is_assigned),
  };
}

/**
 * §4.1 rule 5: after the revocation tagged `step`, each role it named that a
 * resource it named held (every team of it revoked, as `revokes` says) stays
 * assigned, on no team: on every one of the resources, whichever is named first.
 */
function assignedOnNoTeam(
  log: readonly Observed[],
  step: string,
  after: string,
  revokes: (revocation: Revocation, before: '*' | string[]) => boolean,
): Judgement {
  const sent = revocationIn(log, step);
  if (!('revocation' in sent)) return sent.judgement;
  const { revocation } = sent;
  const pairs = revocation.resourceIds.flatMap((resourceId) =>
    revocation.roleIds.flatMap((roleId) => {
      const before = heldBefore(log, resourceId, roleId);
      return before !== undefined && revokes(revocation, before) ? [{ resourceId, roleId }] : [];
    }),
  );
  if (pairs.length === 0) return noEvidence(`${step} did not revoke every team of a role a resource held`);
  for (const { resourceId, roleId } of pairs) {
    const shown = roleShown(log, STEP.after, resourceId, roleId);
    if (!('association' in shown)) return shown.judgement;
    const held = shown.association;
    const which = revocation.resourceIds.length > 1 ? ` on resource ${resourceId}, one of several` : '';
    if (!held) {
      return [
        {
          where: STEP.after,
          message: `must still show the role as assigned (on no team)${which} after ${after}`,
          expected: { resource_id: resourceId, role_id: roleId, is_assigned: true, team_ids: [] },
          actual: '(role gone)',
        },
      ];
    }
    if (!Array.isArray(held.team_ids) || held.team_ids.length !== 0) {
      return [
        {
          where: `${STEP.after}.team_ids`,
          message: `must be an empty list${which} after ${after}`,
          expected: [],
          actual: { resource_id: resourceId, role_id: roleId, team_ids: held.team_ids },
        },
      ];
    }
  }
  return [];
}

/** §4.1 rule 6: after `revoked` left a role held on `*`, the read tagged `step` shows the explicit list of the other enabled teams. */
function explicitEnabled(
  log: readonly Observed[],
  profile: TargetProfile,
  named: { resourceId: string; roleId: string },
  revoked: readonly string[],
  steps: { read: string; where: string },
): Judgement {
  const shown = roleShown(log, steps.read, named.resourceId, named.roleId);
  if (!('association' in shown)) return shown.judgement;
  const after = shown.association;
  const where = steps.where;
  const expected = profile.teams.filter((t) => t.enabled && !revoked.includes(t.id)).map((t) => t.id);
  if (!after || !Array.isArray(after.team_ids)) {
    return [
      { where, message: 'must become an explicit list of teams', expected, actual: after?.team_ids ?? '(role gone)' },
    ];
  }
  const disabled = new Set(profile.teams.filter((t) => !t.enabled).map((t) => t.id));
  if (after.team_ids.some((t) => disabled.has(t))) {
    return [{ where, message: 'must hold only enabled teams', expected, actual: after.team_ids }];
  }
  if (!sameSet(after.team_ids, expected)) {
    const lacking = teamsTheProfileLacks(profile, expected, after.team_ids);
    if (lacking.length > 0) return profileLacksTeams(where, lacking);
    return [{ where, message: 'must be every remaining enabled team', expected, actual: after.team_ids }];
  }
  return [];
}

function isNonRoleResource(profile: TargetProfile, resourceId: string | undefined): boolean {
  const resource = profile.mutableResources.find((r) => r.id === resourceId);
  return resource !== undefined && kindById(profile, resource.kindId)?.supportsRoles === false;
}

export default defineRuleGroup({
  section: '§4.1',
  title: 'resources.revoke-roles',
  rules: [
    rule({
      id: 'revoke-roles.no-content',
      traffic: TRAFFIC.noContent('resources.revoke-roles', 204),
      clause: '§4.1 Response',
      quote: 'Response: status 204, meaning resource roles revoked; no body.',
      ...REVOCATION,
      async drive(ctx) {
        const held = await claimHolding(ctx, onStar(ctx), 'a role on `*`');
        await revokeHeld(ctx, held, undefined, STEP.revocation);
      },
      judge: (log) =>
        judgeEach(withStep(log, STEP.revocation), 'no revocation was sent', (o) => noContent(o, { status: 204 })),
    }),
    rule({
      id: 'revoke-roles.kind-must-support-roles',
      clause: '§4.1 rule 1',
      quote: 'Only resources whose kind supports roles (employees and integrations) can have a role revoked.',
      level: 'MUST',
      mutates: 'irreversible',
      needs: ['nonRoleKindResource'],
      async drive(ctx) {
        const resourceId = await ctx.claimResource(
          (_, kindId) => kindById(ctx.profile, kindId)?.supportsRoles === false,
        );
        precondition(resourceId, 'no mutable resource of a kind without roles is left');
        const roleId = ctx.profile.roles[0]?.id;
        precondition(roleId, 'the target profile names no role');
        await captureState(ctx, resourceId, ['roles'], { step: STEP.before });
        // Sent once more after a 5xx (revoking what is not held changes nothing, rule 3): a passing fault is no verdict.
        const res = await ctx.client.post(
          'resources.revoke-roles',
          { resource_ids: [resourceId], role_ids: [roleId] },
          { retry: 'judged', step: STEP.nonRoleKind },
        );
        ctx.observe('status of revoke-roles for a kind without roles', res.status);
        await captureState(ctx, resourceId, ['roles'], { step: STEP.after });
      },
      judge(log, profile) {
        const o = firstWithStep(log, STEP.nonRoleKind);
        if (!o) return noEvidence(`no ${STEP.nonRoleKind} was sent`);
        const resourceId = revocationOf(o.request)?.resourceIds[0];
        if (!isNonRoleResource(profile, resourceId)) {
          return noEvidence(`${STEP.nonRoleKind} named no resource the profile lists of a kind without roles`);
        }
        const held = (stateIn(log, STEP.before)?.roles ?? []).filter(
          (a) => a.resource_id === resourceId && a.is_assigned,
        );
        return judgeAll([
          held.length > 0
            ? [
                {
                  where: STEP.before,
                  message: 'must show no role for a resource whose kind does not support roles',
                  expected: [],
                  actual: held,
                },
              ]
            : [],
          noServerError(o, 'must answer a revocation for a kind without roles without a server error'),
          unchangedBetween(log, {
            before: STEP.before,
            after: STEP.after,
            message: 'must not change anything for a resource whose kind does not support roles',
          }),
        ]);
      },
    }),
    rule({
      id: 'revoke-roles.defining-role-kept',
      clause: '§4.1 rule 2',
      quote: 'For the role that defines the kind of a resource, only its teams can be revoked, never the role itself.',
      level: 'MUST',
      mutates: 'irreversible',
      needs: ['roleKindResource', 'definingRole'],
      async drive(ctx) {
        const held = await claimHolding(ctx, (a) => isDefiningRole(ctx, a.role_id), 'its kind-defining role');
        const whole = { resource_ids: [held.resourceId], role_ids: [held.association.role_id] };
        // Which answer a request to remove it is given is not shown: recorded, not judged.
        const res = await ctx.client.post('resources.revoke-roles', whole, { step: STEP.definingWhole });
        ctx.observe('status of revoking a kind-defining role entirely', res.status);
        const star = await ctx.client.post(
          'resources.revoke-roles',
          { ...whole, team_ids: '*' },
          { step: STEP.definingStar },
        );
        ctx.observe('status of revoking every team of a kind-defining role', star.status);
        await readRole(ctx, held, STEP.after);
      },
      judge: (log, profile) =>
        judgeEveryRead(log, (log) => {
          const o = firstWithStep(log, STEP.definingWhole);
          const revocation = o ? revocationOf(o.request) : undefined;
          const named = revocation ? target(revocation) : undefined;
          if (!named) return noEvidence(`no ${STEP.definingWhole} was sent`);
          if (
            !isDefiningRole({ profile }, named.roleId) ||
            heldBefore(log, named.resourceId, named.roleId) === undefined
          ) {
            return noEvidence('the revoked role is not a kind-defining role the resource held');
          }
          const shown = roleShown(log, STEP.after, named.resourceId, named.roleId);
          if (!('association' in shown)) return shown.judgement;
          if (shown.association) return [];
          return [
            {
              where: STEP.after,
              message: 'must still show the kind-defining role as assigned (only its teams can be revoked)',
              expected: { role_id: named.roleId, is_assigned: true },
              actual: '(role gone)',
            },
          ];
        }),
    }),
    rule({
      id: 'revoke-roles.absent-role-no-change',
      clause: '§4.1 rule 3',
      quote: 'Revoking a role, or a team, that the resource does not have changes nothing.',
      ...REVOCATION,
      async drive(ctx) {
        const { resourceId } = await claimHolding(ctx, () => true, 'any role');
        const before = await captureState(ctx, resourceId, ['roles'], { step: STEP.before });
        const held = (before.roles ?? []).filter((a) => a.is_assigned);
        const heldRoles = new Set(held.map((a) => a.role_id));
        const absentRole = ctx.profile.roles.find((r) => !heldRoles.has(r.id) && !r.definesKindId);
        precondition(absentRole, 'the resource holds every role of the profile');
        await ctx.client.post(
          'resources.revoke-roles',
          { resource_ids: [resourceId], role_ids: [absentRole.id] },
          { step: STEP.absentRole },
        );
        const explicit = held.find((a) => Array.isArray(a.team_ids) && !isDefiningRole(ctx, a.role_id));
        const listed = Array.isArray(explicit?.team_ids) ? explicit.team_ids : [];
        const absentTeam = ctx.profile.teams.find((t) => t.enabled && !listed.includes(t.id));
        if (explicit && absentTeam) {
          await ctx.client.post(
            'resources.revoke-roles',
            { resource_ids: [resourceId], role_ids: [explicit.role_id], team_ids: [absentTeam.id] },
            { step: STEP.absentTeam },
          );
        }
        await captureState(ctx, resourceId, ['roles'], { step: STEP.after });
      },
      judge(log) {
        const before = stateIn(log, STEP.before);
        if (!before?.roles) return noEvidence(`no ${STEP.before}`);
        const held = before.roles.filter((a) => a.resource_id === before.resourceId && a.is_assigned);
        // Each revocation names what the resource did not have when it was read before.
        const absent = (o: Observed): boolean => {
          const r = revocationOf(o.request);
          if (!r || !r.resourceIds.every((id) => id === before.resourceId)) return false;
          const teams = r.teams;
          return r.roleIds.every((roleId) => {
            const a = held.find((h) => h.role_id === roleId);
            if (!a) return true;
            return Array.isArray(teams) && Array.isArray(a.team_ids) && teams.every((t) => !a.team_ids.includes(t));
          });
        };
        const sent = [...withStep(log, STEP.absentRole), ...withStep(log, STEP.absentTeam)].filter(absent);
        if (sent.length === 0) return noEvidence('no revocation of a role or team the resource does not have was sent');
        return judgeAll([
          ...sent.map((o) => accepted(o)),
          unchangedBetween(log, {
            before: STEP.before,
            after: STEP.after,
            message: 'must be unchanged after revoking a role or team the resource does not have',
          }),
        ]);
      },
    }),
    rule({
      id: 'revoke-roles.omitted-team-ids-removes-role',
      clause: '§4.1 rule 4',
      quote: 'When `team_ids` is omitted, the role is removed from the resources entirely.',
      ...REVOCATION,
      async drive(ctx) {
        const holdings = await claimSeveralHoldings(ctx, notDefining(ctx), 'a role that does not define its kind');
        const resourceIds = holdings.map((h) => h.resourceId);
        const before = await listRoles(ctx, { resource_ids: resourceIds }, { step: STEP.before });
        // Every role any of them holds that can be revoked whole, up to three; sent in the reverse
        // order of the resources and roles, so a server that reads only the first of each shows it.
        const roleIds = [
          ...new Set(before.filter((a) => a.is_assigned && !isDefiningRole(ctx, a.role_id)).map((a) => a.role_id)),
        ].slice(0, 3);
        const res = await ctx.client.post(
          'resources.revoke-roles',
          { resource_ids: [...resourceIds].reverse(), role_ids: [...roleIds].reverse() },
          { step: STEP.withoutTeams },
        );
        if (res.status >= 200 && res.status < 300) {
          await readAfterRevocation(ctx, { resource_ids: resourceIds }, STEP.after);
        }
      },
      judge: (log) =>
        judgeEveryRead(log, (log) => {
          const sent = revocationIn(log, STEP.withoutTeams);
          if (!('revocation' in sent)) return sent.judgement;
          const { roleIds, teams } = sent.revocation;
          if (teams !== 'omitted' || roleIds.length === 0) return noEvidence(`${STEP.withoutTeams} named no role`);
          const before = rolesShown(firstWithStep(log, STEP.before), STEP.before);
          if (!('roles' in before)) return before.judgement;
          const after = rolesShown(firstWithStep(log, STEP.after), STEP.after);
          if (!('roles' in after)) return after.judgement;
          const revoked = new Set(roleIds);
          const resources = new Set(sent.revocation.resourceIds);
          const remaining = after.roles.filter(
            (a) => a.is_assigned && revoked.has(a.role_id) && resources.has(a.resource_id),
          );
          const others = (list: RoleAssociation[]) =>
            canonicalRoles(list.filter((a) => a.is_assigned && !revoked.has(a.role_id)));
          return [
            ...(remaining.length > 0
              ? [
                  {
                    where: STEP.after,
                    message:
                      'must no longer show a role as assigned on any of the resources once it is revoked without team_ids',
                    expected: '(no assigned association of the revoked roles)',
                    actual: remaining.slice(0, 3),
                  },
                ]
              : []),
            ...(JSON.stringify(others(after.roles)) !== JSON.stringify(others(before.roles))
              ? [
                  {
                    where: `${STEP.after} (roles not revoked)`,
                    message: 'must leave the roles the request does not name as they were',
                    expected: others(before.roles),
                    actual: others(after.roles),
                  },
                ]
              : []),
          ];
        }),
    }),
    rule({
      id: 'revoke-roles.star-leaves-no-team',
      clause: '§4.1 rule 5',
      quote: 'When `team_ids` is `*`, every team is revoked and the role stays assigned on no team.',
      ...REVOCATION,
      async drive(ctx) {
        // Several resources at once where the profile can spare them, named in the reverse order and each with
        // the role it holds: a server that applies `*` to the first resource only shows it.
        const holdings = await claimSeveralHoldings(ctx, notDefining(ctx), 'a role that does not define its kind');
        const resourceIds = holdings.map((h) => h.resourceId);
        const roleIds = [...new Set(holdings.map((h) => h.association.role_id))];
        const res = await ctx.client.post(
          'resources.revoke-roles',
          { resource_ids: [...resourceIds].reverse(), role_ids: [...roleIds].reverse(), team_ids: '*' },
          { step: STEP.star },
        );
        if (res.status >= 200 && res.status < 300) await readEachAfterRevocation(ctx, resourceIds, STEP.after);
      },
      judge: (log) =>
        judgeEveryRead(log, (log) => assignedOnNoTeam(log, STEP.star, 'revoking `*`', (r) => r.teams === 'star')),
    }),
    rule({
      id: 'revoke-roles.last-teams-like-star',
      clause: '§4.1 rule 5',
      quote: 'Revoking the last remaining teams of a role has the same result.',
      ...REVOCATION,
      async drive(ctx) {
        const held = await claimHolding(
          ctx,
          (a) => Array.isArray(a.team_ids) && a.team_ids.length > 0 && !isDefiningRole(ctx, a.role_id),
          'a role on an explicit list of teams',
        );
        if (await revokeHeld(ctx, held, held.association.team_ids, STEP.lastTeams)) {
          await readRole(ctx, held, STEP.after);
        }
      },
      judge: (log) =>
        judgeEveryRead(log, (log) =>
          assignedOnNoTeam(
            log,
            STEP.lastTeams,
            'revoking the last remaining teams',
            (r, before) =>
              Array.isArray(before) && before.length > 0 && Array.isArray(r.teams) && sameSet(r.teams, before),
          ),
        ),
    }),
    rule({
      id: 'revoke-roles.narrows-explicit-list',
      clause: '§4.1',
      quote: 'Revokes role access of resources, or narrows the team scope of a role.',
      ...REVOCATION,
      async drive(ctx) {
        const onTeams = (n: number) => (a: RoleAssociation) =>
          Array.isArray(a.team_ids) && a.team_ids.length >= n && !isDefiningRole(ctx, a.role_id);
        // Three teams or more show a revocation of several at once; two is the least the rule needs.
        const first =
          (await tryClaimHolding(ctx, onTeams(3))) ??
          (await claimHolding(ctx, onTeams(2), 'a role on an explicit list of at least two teams'));
        // Several resources at once where the profile can spare them, each narrowing its own list: a server
        // that narrows the first resource named only shows it.
        const holdings = await claimSeveralHoldings(ctx, onTeams(2), 'a role on an explicit list of two teams', first);
        const revoked = revokedKeepingOneEach(holdings).reverse();
        const resourceIds = holdings.map((h) => h.resourceId);
        const roleIds = [...new Set(holdings.map((h) => h.association.role_id))];
        const res = await ctx.client.post(
          'resources.revoke-roles',
          { resource_ids: [...resourceIds].reverse(), role_ids: [...roleIds].reverse(), team_ids: revoked },
          { step: STEP.someTeams },
        );
        if (res.status >= 200 && res.status < 300) await readEachAfterRevocation(ctx, resourceIds, STEP.after);
      },
      judge: (log, profile) =>
        judgeEveryRead(log, (log) => {
          const sent = revocationIn(log, STEP.someTeams);
          if (!('revocation' in sent)) return sent.judgement;
          const { revocation } = sent;
          const revoked = revocation.teams;
          if (!Array.isArray(revoked)) return noEvidence(`${STEP.someTeams} named no explicit list of teams`);
          const several = revocation.resourceIds.length > 1;
          // Every role named that a resource named held: its list narrowed (§4.1), a role on `*` the remaining
          // enabled teams (rule 6), none left the empty list (rule 5).
          const pairs = revocation.resourceIds.flatMap((resourceId) =>
            revocation.roleIds.flatMap((roleId) => {
              const before = heldBefore(log, resourceId, roleId);
              if (before === undefined) return [];
              const from = before === '*' ? profile.teams.filter((t) => t.enabled).map((t) => t.id) : before;
              return [{ resourceId, roleId, before, expected: from.filter((t) => !revoked.includes(t)) }];
            }),
          );
          if (!pairs.some((p) => Array.isArray(p.before) && p.expected.length > 0)) {
            return noEvidence(`${STEP.someTeams} did not revoke some of the teams of a role held on an explicit list`);
          }
          for (const { resourceId, roleId, expected } of pairs) {
            const shown = roleShown(log, STEP.after, resourceId, roleId);
            if (!('association' in shown)) return shown.judgement;
            const after = shown.association;
            if (after && Array.isArray(after.team_ids) && sameSet(after.team_ids, expected)) continue;
            const lacking = Array.isArray(after?.team_ids)
              ? teamsTheProfileLacks(profile, expected, after.team_ids)
              : [];
            if (lacking.length > 0) return profileLacksTeams(`${STEP.after}.team_ids`, lacking);
            const which = several ? ` (resource ${resourceId}, one of several)` : '';
            return [
              {
                where: `${STEP.after}.team_ids`,
                message: `must be the former list without the revoked teams${which}`,
                expected,
                actual: after?.team_ids ?? '(role gone)',
              },
            ];
          }
          return [];
        }),
    }),
    rule({
      id: 'revoke-roles.star-to-explicit-enabled',
      clause: '§4.1 rule 6',
      quote:
        'When specific teams are revoked from a role held on `*`, the role becomes the explicit list of the remaining enabled teams; it then no longer follows teams created afterwards.',
      ...REVOCATION,
      async drive(ctx) {
        const enabled = ctx.profile.teams.filter((t) => t.enabled).map((t) => t.id);
        precondition(enabled.length >= 2, 'the target profile lists fewer than two enabled teams');
        const held = await claimHolding(ctx, onStar(ctx), 'a role on `*`');
        // Two steps: several teams revoked from `*` (two when three or more are enabled, in reverse
        // order), then one more from the explicit list it became: the first step must not be forgotten.
        const first = enabled.length >= 3 ? enabled.slice(0, 2).reverse() : enabled.slice(0, 1);
        if (!(await revokeHeld(ctx, held, first, STEP.fromStar))) return;
        await readRole(ctx, held, STEP.after);
        const next = enabled[first.length];
        if (enabled.length - first.length >= 2 && next !== undefined) {
          if (await revokeHeld(ctx, held, [next], STEP.oneMore)) await readRole(ctx, held, STEP.afterSecond);
        }
      },
      judge: (log, profile) =>
        judgeEveryRead(log, (log) => {
          const sent = revocationIn(log, STEP.fromStar);
          if (!('revocation' in sent)) return sent.judgement;
          const named = target(sent.revocation);
          const first = sent.revocation.teams;
          if (!named || !Array.isArray(first) || heldBefore(log, named.resourceId, named.roleId) !== '*') {
            return noEvidence(`${STEP.fromStar} did not revoke teams of a role held on \`*\``);
          }
          const parts: Judgement[] = [
            explicitEnabled(log, profile, named, first, { read: STEP.after, where: `${STEP.after}.team_ids` }),
          ];
          if (firstWithStep(log, STEP.oneMore)) {
            const second = revocationIn(log, STEP.oneMore);
            const more = 'revocation' in second ? second.revocation.teams : [];
            parts.push(
              'judgement' in second
                ? second.judgement
                : explicitEnabled(log, profile, named, [...first, ...(Array.isArray(more) ? more : [])], {
                    read: STEP.afterSecond,
                    where: `${STEP.afterSecond}.team_ids`,
                  }),
            );
          }
          return judgeAll(parts);
        }),
    }),
    rule({
      id: 'revoke-roles.empty-team-ids-rejected',
      clause: '§4.1 rule 7; §7',
      quote: 'An empty `team_ids` array is rejected.',
      ...REVOCATION,
      async drive(ctx) {
        const { resourceId, association } = await claimRevocable(ctx);
        await captureState(ctx, resourceId, ['roles'], { step: STEP.before });
        const res = await ctx.client.post(
          'resources.revoke-roles',
          { resource_ids: [resourceId], role_ids: [association.role_id], team_ids: [] },
          { retry: 'judged', step: STEP.emptyTeams },
        );
        ctx.observe('status of rejecting an empty team_ids', res.status);
        await captureState(ctx, resourceId, ['roles'], { step: STEP.after });
      },
      judge(log) {
        const o = firstWithStep(log, STEP.emptyTeams);
        const revocation = o ? revocationOf(o.request) : undefined;
        if (!o || !Array.isArray(revocation?.teams) || revocation.teams.length > 0) {
          return noEvidence(`no revocation with ${STEP.emptyTeams} was sent`);
        }
        return judgeAll([
          rejected(o),
          unchangedBetween(log, {
            before: STEP.before,
            after: STEP.after,
            message: 'must be unchanged after a rejected request',
          }),
        ]);
      },
    }),
  ],
});
