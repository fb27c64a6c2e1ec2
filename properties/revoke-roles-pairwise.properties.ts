/**
 * §4.1 resources.revoke-roles over its whole input space, pairwise: the
 * operation's input model (src/rules/input-models/revoke-roles.ts, derived
 * from its request schema) gives each list its documented shapes, a covering
 * array drawn from the run's seed holds every pair of classes in some row,
 * and each row is drawn on the roles a pool of the rule's resources hold as
 * last read: the first role named is one the first resource holds on the
 * row's scope (`*` or an explicit list) with teams enough for the row's
 * TeamList form, the other resources hold it on that scope too, the other
 * roles are ones the first resource holds. Each row is sent after the rows
 * before it and each resource it names is read back alone at once; the rows
 * that revoke nothing come first and those that remove most last, so the
 * pool serves as many rows as it can. Resources are claimed for the pool as
 * rows need them, up to a fifth of the profile's (revocations cannot be
 * undone).
 *
 * The oracle needs no open choice (`judgeRevocationRows`, by
 * src/rules/judges/revocation-effects.ts): §4.1's model
 * (`applyRevocation`), started from each resource's first read, applied to
 * every resource named for every role named, must be what every later read of
 * the resource shows (the roles not named unchanged); a revocation whose
 * every value is documented and valid for the target (resources of role
 * kinds, roles and teams of the profile, a TeamList of a documented form) is
 * never refused. Removing a kind-defining role entirely is never sent: the
 * spec leaves open whether it is refused or ignored (§4.1 rule 2).
 */
import { TRAFFIC } from '../src/rules/judges/untagged-traffic.ts';
import fc from 'fast-check';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { precondition } from '../src/rules/assertions.ts';
import { checkProperty } from '../src/rules/check-property.ts';
import { drawCoveringArray, pairCoverage } from '../src/rules/input-models/coverage.ts';
import {
  HELD_ON,
  ORDER,
  revocationPool,
  revokeRolesInputModel,
  severalResources,
} from '../src/rules/input-models/revoke-roles.ts';
import { LONG_LIST, OMITTED } from '../src/rules/input-models/model.ts';
import { ofRoleKind } from '../src/rules/steps/claims.ts';
import { isDefiningRole, listRoles } from '../src/rules/steps/roles.ts';
import type { CheckContext, Judging } from '../src/rules/types.ts';
import type { Judgement } from '../src/rules/judges/judgement.ts';
import type { Observed } from '../src/rules/judges/observed.ts';
import { heldBy, type HeldRoles } from '../src/rules/judges/role-answers.ts';
import type { RevokeRolesRequest } from '../src/schemas/index.ts';
import type { TargetProfile } from '../src/target/profile.ts';
import { judgeRevocationEffects } from '../src/rules/judges/revocation-effects.ts';

/** The read of a resource as it joins the pool, each row's revocation, and the read of each resource after it. */
export const ROLE_ROW_STEP = {
  pool: 'list-roles of a resource joining the pairwise pool',
  // The row in parentheses: driven again on other resources (a revocation cannot be undone), the same
  // departure may show at another row, and a confirmation sets what parentheses name aside.
  revoke: (n: number) => `revoke-roles pairwise (row ${n})`,
  read: (revokeStep: string) => `list-roles after ${revokeStep}`,
} as const;
const REVOKE_PREFIX = 'revoke-roles pairwise (row ';

type Row = ReadonlyMap<string, string>;

/** A resource of the pool: its kind, and the roles it holds as last read. */
export interface PoolEntry {
  kindId: string;
  held: HeldRoles;
}

/** What a row sends. */
export interface RowPlan {
  resourceIds: string[];
  roleIds: string[];
  teams: 'omitted' | '*' | string[];
}

/**
 * The rows that change least first: a team not held or disabled changes
 * nothing, a narrowed list leaves teams to narrow again, and `*` and an
 * omitted TeamList leave nothing for a later row.
 */
const TEAM_ORDER = [
  'not held',
  'disabled',
  'held and not held',
  'one held',
  'several held',
  'long',
  'every held',
  '*',
  OMITTED,
];
const rank = (row: Row): number => TEAM_ORDER.indexOf(row.get('team_ids') ?? '');

/**
 * The teams a row of `cls` revokes from a role held on `teams`, or undefined
 * when that holding cannot serve the class (too few teams to narrow and leave
 * some, no team it does not hold).
 */
function teamsFor(cls: string, teams: '*' | readonly string[], profile: TargetProfile): RowPlan['teams'] | undefined {
  const enabled = profile.teams.filter((t) => t.enabled).map((t) => t.id);
  const list = teams === '*' ? enabled : teams;
  const absent = teams === '*' ? undefined : enabled.find((t) => !list.includes(t));
  const disabled = profile.teams.find((t) => !t.enabled)?.id;
  switch (cls) {
    case OMITTED:
      return 'omitted';
    case '*':
      return list.length > 0 ? '*' : undefined;
    case 'one held':
      return list.length >= 2 ? list.slice(0, 1) : undefined;
    case 'several held':
      return list.length >= 3 ? list.slice(0, 2) : undefined;
    case 'every held':
      return list.length > 0 ? [...list] : undefined;
    case 'not held':
      return absent !== undefined && list.length > 0 ? [absent] : undefined;
    case 'held and not held':
      return absent !== undefined && list.length >= 2 ? [list[0] ?? '', absent] : undefined;
    case 'disabled':
      return disabled !== undefined && list.length > 0 ? [disabled] : undefined;
    case 'long':
      return profile.teams.length >= LONG_LIST ? profile.teams.map((t) => t.id) : undefined;
    default:
      return undefined;
  }
}

/**
 * What a row sends, drawn on the pool as last read; undefined when no
 * resource of the pool can serve it. Pure: the driver's test draws rows on a
 * pool of its own.
 */
export function planRow(row: Row, pool: ReadonlyMap<string, PoolEntry>, profile: TargetProfile): RowPlan | undefined {
  const roles = row.get('role_ids');
  const onStar = row.get(HELD_ON) === '*';
  const several = row.get('resource_ids') === 'several';
  const ordinary = (roleId: string): boolean => !isDefiningRole({ profile }, roleId);
  const inScope = (teams: '*' | readonly string[] | undefined): boolean =>
    teams !== undefined && (teams === '*') === onStar;
  for (const [first, entry] of pool) {
    const defining = profile.kinds.find((k) => k.id === entry.kindId)?.definingRoleId;
    const candidates =
      roles === 'with the kind-defining role'
        ? defining === undefined
          ? []
          : [defining]
        : [...entry.held.keys()].filter(ordinary);
    for (const roleId of candidates) {
      const teams = entry.held.get(roleId);
      if (teams === undefined || !inScope(teams)) continue;
      const revoked = teamsFor(row.get('team_ids') ?? '', teams, profile);
      if (revoked === undefined) continue;
      const others = [...entry.held.keys()].filter((r) => r !== roleId && ordinary(r));
      let roleIds: string[];
      if (roles === 'one') roleIds = [roleId];
      else if (roles === 'several') roleIds = [roleId, ...others.slice(0, 2)];
      else if (roles === 'with the kind-defining role') roleIds = [roleId, ...others.slice(0, 1)];
      else if (roles === 'long') roleIds = [roleId, ...profile.roles.map((r) => r.id).filter((r) => r !== roleId)];
      else continue;
      if (roles !== 'one' && roleIds.length < 2) continue;
      const alike = [...pool]
        .filter(([id, e]) => id !== first && inScope(e.held.get(roleId)))
        .map(([id]) => id)
        .slice(0, severalResources(profile) - 1);
      if (several && alike.length === 0) continue;
      const resourceIds = several ? [first, ...alike] : [first];
      if (row.get(ORDER) !== 'reversed') return { resourceIds, roleIds, teams: revoked };
      return {
        resourceIds: resourceIds.reverse(),
        roleIds: roleIds.reverse(),
        teams: Array.isArray(revoked) ? [...revoked].reverse() : revoked,
      };
    }
  }
  return undefined;
}

function bodyOf(plan: RowPlan): RevokeRolesRequest {
  return {
    resource_ids: plan.resourceIds,
    role_ids: plan.roleIds,
    ...(plan.teams === 'omitted' ? {} : { team_ids: plan.teams }),
  };
}

async function drive(ctx: CheckContext<'roleKindResource'> & Judging): Promise<void> {
  const model = revokeRolesInputModel(ctx.profile);
  const array = drawCoveringArray(model, ctx.options.seed, ctx.options.depth);
  precondition(array, 'no covering array was drawn for resources.revoke-roles');
  const cap = revocationPool(ctx.profile);
  precondition(cap > 0, 'the target profile lists fewer than five mutable resources of role kinds');
  const rows: Row[] = array.rows.map((classes) => new Map(classes.map((c, f) => [array.factors[f]?.name ?? '', c])));
  const order = rows.map((_, i) => i).sort((a, b) => rank(rows[a] ?? new Map()) - rank(rows[b] ?? new Map()));
  const judged = rows.map(() => false);
  const pool = new Map<string, PoolEntry>();
  const read = async (resourceId: string, step: string): Promise<HeldRoles> =>
    heldBy(await listRoles(ctx, { resource_ids: [resourceId] }, { step, fresh: true }), resourceId);
  const join = async (): Promise<boolean> => {
    const id = await ctx.claimResource(ofRoleKind(ctx));
    const kindId = ctx.profile.mutableResources.find((r) => r.id === id)?.kindId;
    if (id === undefined || kindId === undefined) return false;
    pool.set(id, { kindId, held: await read(id, ROLE_ROW_STEP.pool) });
    return true;
  };
  try {
    // One run, whatever the run's numRuns: the rows used up what they revoked, and a second pass over the
    // same pool would find too little to serve them (discarded runs, not a departure).
    await checkProperty(
      ctx,
      fc.constant(null),
      () =>
        ctx.judged(async () => {
          for (const i of order) {
            const row = rows[i];
            if (row === undefined) continue;
            let plan = planRow(row, pool, ctx.profile);
            while (plan === undefined && pool.size < cap && (await join())) plan = planRow(row, pool, ctx.profile);
            if (plan === undefined) continue;
            const step = ROLE_ROW_STEP.revoke(i + 1);
            const res = await ctx.client.post('resources.revoke-roles', bodyOf(plan), { step });
            judged[i] = res.status < 500 && res.status !== 429;
            if (res.status < 200 || res.status >= 300) continue;
            // Each resource alone: a read of one does not lean on list-roles taking several (its own clause).
            for (const id of plan.resourceIds) {
              const entry = pool.get(id);
              if (entry) entry.held = await read(id, ROLE_ROW_STEP.read(step));
            }
          }
        }),
      { distinct: true },
    );
  } finally {
    ctx.observe('pairwise coverage of resources.revoke-roles', pairCoverage(model, array, judged));
  }
}

/**
 * The judge of the rows: §4.1's model of each resource from its first read,
 * every later read held to it (`judgeRevocationEffects`, which judges any
 * client's traffic the same way), and no row refused. Pure: the same
 * function judges a recorded run.
 */
export function judgeRevocationRows(log: readonly Observed[], profile: TargetProfile): Judgement {
  return judgeRevocationEffects(log, profile, (o) => o.step.startsWith(REVOKE_PREFIX));
}

export default defineRuleGroup({
  section: '§4.1',
  title: 'Revocations: every pair of input classes',
  rules: [
    property({
      id: 'revoke-roles.prop.pairwise-combinations',
      traffic: TRAFFIC.revocationEffects,
      clause: '§4.1 Request body; §4.1 rules 2-6',
      quote: [
        'Revokes role access of resources, or narrows the team scope of a role.',
        'Revoking a role, or a team, that the resource does not have changes nothing.',
        'When `team_ids` is omitted, the role is removed from the resources entirely.',
        'When `team_ids` is `*`, every team is revoked and the role stays assigned on no team. Revoking the last remaining teams of a role has the same result.',
        'When specific teams are revoked from a role held on `*`, the role becomes the explicit list of the remaining enabled teams',
      ],
      level: 'MUST',
      // One covering array per run: its rows are the run's revocations.
      runs: 1,
      mutates: 'irreversible',
      needs: ['roleKindResource'],
      drive,
      judge: judgeRevocationRows,
    }),
  ],
});
