/**
 * Stateful, model-based sequences of revocations (§4.1 rules 2-7): fast-check
 * draws a sequence of resources.revoke-roles requests (whole roles, `*`,
 * explicit teams, an empty list) on one mutable resource, and after every
 * step resources.list-roles must show what an executable model of §4.1 says.
 * The model starts from what the server shows at the start of each sequence,
 * so it is exact; it never sends what the spec leaves open (removing a
 * kind-defining role entirely). Revocations cannot be undone: the resource is
 * the rule's for good, and each sequence goes on from where the last one left
 * it. A failure shrinks to the shortest sequence and replays with
 * `--seed S --path P`.
 */
import fc from 'fast-check';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { checkProperty } from '../src/rules/check-property.ts';
import { expectRejected, expectSuccess, fail, precondition } from '../src/rules/assertions.ts';
import { claimRoleResource } from '../src/rules/steps/claims.ts';
import { isDefiningRole, listRoles } from '../src/rules/steps/roles.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { traced, type SequenceTrace } from '../src/rules/sequence-trace.ts';
import type { ReplayCheck } from '../src/core/types.ts';

/** Role id → the teams it is held on ('*' or an explicit list); a role not in the map is not held. */
export type Model = Map<string, '*' | string[]>;

/** The resource a revocation sequence works on, with the roles and teams of the profile it may name. */
export interface Real {
  ctx: CheckContext;
  resourceId: string;
  roleIds: readonly string[];
  teamIds: readonly string[];
  enabledTeamIds: readonly string[];
  /** The failing sequence's steps, as the report shows them. */
  trace?: SequenceTrace;
}

/** The revocation target for a claimed resource: every role and team the profile names. */
export function revocationTarget(ctx: CheckContext, resourceId: string): Real {
  return {
    ctx,
    resourceId,
    roleIds: ctx.profile.roles.map((r) => r.id),
    teamIds: ctx.profile.teams.map((t) => t.id),
    enabledTeamIds: ctx.profile.teams.filter((t) => t.enabled).map((t) => t.id),
  };
}

type Step = fc.AsyncCommand<Model, Real>;

/** What a revocation asks for: `omitted` removes the role, `*` every team, a list those teams. */
type Teams = { kind: 'omitted' } | { kind: 'star' } | { kind: 'list'; picks: number[] };

export async function shown(real: Pick<Real, 'ctx' | 'resourceId' | 'roleIds'>, step: string): Promise<Model> {
  const list = await listRoles(real.ctx, { resource_ids: [real.resourceId], role_ids: [...real.roleIds] }, { step });
  const model: Model = new Map();
  for (const a of list) {
    if (a.resource_id === real.resourceId && a.is_assigned) {
      model.set(a.role_id, a.team_ids === '*' ? '*' : [...a.team_ids].sort());
    }
  }
  return model;
}

export function describe(model: Model): Record<string, string | string[]> {
  return Object.fromEntries([...model].sort(([a], [b]) => a.localeCompare(b)));
}

/** The reproducer's check of the first role whose teams differ from what the model expects. */
function firstRoleCheck(expected: Model, shown: Model, resourceId: string, exchange: number): ReplayCheck | undefined {
  const roleId = [...new Set([...expected.keys(), ...shown.keys()])].find(
    (id) => JSON.stringify(expected.get(id)) !== JSON.stringify(shown.get(id)),
  );
  if (roleId === undefined) return undefined;
  return { kind: 'role-teams', exchange, resourceId, roleId, teams: expected.get(roleId) ?? null };
}

function sameModel(a: Model, b: Model): boolean {
  return JSON.stringify(describe(a)) === JSON.stringify(describe(b));
}

/**
 * What §4.1 leaves in `model` once `roleIds` are revoked: whole (`omitted`),
 * on every team (`star`) or on the listed teams. Changes `model` in place.
 */
export function applyRevocation(
  model: Model,
  roleIds: readonly string[],
  teams: 'omitted' | 'star' | readonly string[],
  enabledTeamIds: readonly string[],
): void {
  for (const roleId of roleIds) {
    const held = model.get(roleId);
    if (held === undefined) continue; // rule 3: what is not held changes nothing
    if (teams === 'omitted')
      model.delete(roleId); // rule 4
    else if (teams === 'star')
      model.set(roleId, []); // rule 5
    else if (held === '*') {
      // rule 6: the explicit list of the remaining enabled teams
      model.set(roleId, enabledTeamIds.filter((t) => !teams.includes(t)).sort());
    } else
      model.set(
        roleId,
        held.filter((t) => !teams.includes(t)),
      ); // narrowed; none left: rule 5
  }
}

class Revoke implements Step {
  constructor(
    readonly roles: number[],
    readonly teams: Teams,
  ) {}
  check = (): boolean => true;

  async run(model: Model, real: Real): Promise<void> {
    const { ctx } = real;
    const roleIds = [...new Set(this.roles.map((i) => real.roleIds[i % real.roleIds.length]!))];
    // Removing a kind-defining role entirely is refused or ignored: the spec does not say which.
    const sent = this.teams.kind === 'omitted' ? roleIds.filter((id) => !isDefiningRole(ctx, id)) : roleIds;
    if (sent.length === 0) return;
    const teamIds =
      this.teams.kind === 'list'
        ? [...new Set(this.teams.picks.map((i) => real.teamIds[i % real.teamIds.length]!))]
        : [];
    const body = {
      resource_ids: [real.resourceId],
      role_ids: sent,
      ...(this.teams.kind === 'star' ? { team_ids: '*' as const } : {}),
      ...(this.teams.kind === 'list' ? { team_ids: teamIds } : {}),
    };
    real.trace?.begin(
      `revoke-roles on resource ${real.resourceId}: roles [${sent.join(', ')}], ${this.teams.kind === 'list' ? `team_ids [${teamIds.join(', ')}]` : this.teams.kind === 'star' ? 'team_ids *' : 'team_ids omitted'}`,
    );
    if (this.teams.kind === 'list' && teamIds.length === 0) {
      // §4.1 rule 7: an empty team_ids array is rejected (and so changes nothing).
      await expectRejected(() => ctx.client.post('resources.revoke-roles', body, { retry: 'judged' }), {
        step: this.toString(),
      });
    } else {
      expectSuccess(await ctx.client.post('resources.revoke-roles', body), { step: this.toString() });
      applyRevocation(model, sent, this.teams.kind === 'list' ? teamIds : this.teams.kind, real.enabledTeamIds);
    }
    const after = await shown(real, `list-roles after ${this.toString()}`);
    const read = (real.trace?.nextExchange ?? 0) - 1;
    real.trace?.judged(describe(model), describe(after), () => firstRoleCheck(model, after, real.resourceId, read));
    if (!sameModel(after, model)) {
      fail({
        where: `list-roles after ${this.toString()}`,
        message: 'must show the roles and teams §4.1 leaves after the revocations so far',
        expected: describe(model),
        actual: describe(after),
      });
    }
  }

  toString = (): string => {
    const teams =
      this.teams.kind === 'omitted'
        ? 'team_ids omitted'
        : this.teams.kind === 'star'
          ? 'team_ids *'
          : `team_ids [${this.teams.picks.join(', ')}]`;
    return `revoke(roles [${this.roles.join(', ')}], ${teams})`;
  };
}

/** The index (among the profile's teams) of a team the role is held on: the first enabled one for `*`. */
function firstTeamOf(teams: '*' | string[], real: Real): number {
  const team = teams === '*' ? real.enabledTeamIds[0] : teams[0];
  return Math.max(0, real.teamIds.indexOf(team ?? ''));
}

/** Longest sequence unless `--max-commands` says otherwise: few, long sequences catch more per request. */
const MAX_COMMANDS = 10;

function sequences(maxCommands: number, replayPath: string | undefined): fc.Arbitrary<Iterable<Step>> {
  const teams: fc.Arbitrary<Teams> = fc.oneof(
    { weight: 1, arbitrary: fc.constant({ kind: 'omitted' as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'star' as const }) },
    { weight: 4, arbitrary: fc.array(fc.nat(15), { maxLength: 3 }).map((picks) => ({ kind: 'list' as const, picks })) },
  );
  return fc.commands(
    [fc.tuple(fc.array(fc.nat(15), { minLength: 1, maxLength: 3 }), teams).map(([r, t]) => new Revoke(r, t))],
    { maxCommands, ...(replayPath ? { replayPath } : {}) },
  );
}

export default defineRuleGroup({
  section: '§4.1',
  title: 'Model-based revocations',
  rules: [
    property({
      id: 'revoke-roles.prop.model-sequences',
      clause: '§4.1 rules 2-7',
      quote: [
        'For the role that defines the kind of a resource, only its teams can be revoked, never the role itself.',
        'Revoking a role, or a team, that the resource does not have changes nothing.',
        'When `team_ids` is omitted, the role is removed from the resources entirely.',
        'When `team_ids` is `*`, every team is revoked and the role stays assigned on no team. Revoking the last remaining teams of a role has the same result.',
        'When specific teams are revoked from a role held on `*`, the role becomes the explicit list of the remaining enabled teams',
        'An empty `team_ids` array is rejected.',
      ],
      level: 'MUST',
      runs: 5,
      mutates: 'irreversible',
      needs: ['roleKindResource'],
      async check(ctx) {
        precondition(ctx.profile.teams.length > 0, 'the target profile names no team');
        const resourceId = await claimRoleResource(ctx);
        const real = revocationTarget(ctx, resourceId);
        // Revocations cannot be undone: each sequence starts where the last one ended. A sequence that
        // held to the model leaves the model equal to what list-roles showed after its last step, so
        // that is the next start; after any other ending the state is read again.
        let known: Model | undefined = await shown(real, 'list-roles at the start');
        // First, on one role the resource holds on teams, the path through every rule that changes a
        // team scope: some teams revoked (rule 6, or a narrowed list), then `*` (rule 5).
        const scoped = [...known].find(([, teams]) => teams === '*' || teams.length > 1)?.[0];
        const examples: Array<Iterable<Step>> =
          scoped === undefined
            ? []
            : [
                [
                  new Revoke([real.roleIds.indexOf(scoped)], {
                    kind: 'list',
                    picks: [firstTeamOf(known.get(scoped)!, real)],
                  }),
                  new Revoke([real.roleIds.indexOf(scoped)], { kind: 'star' }),
                ],
              ];
        await checkProperty(
          ctx,
          sequences(ctx.options.maxCommands ?? MAX_COMMANDS, ctx.options.replayPath),
          async (steps, trace) => {
            const start = known ?? (await shown(real, 'list-roles at the start of the sequence'));
            known = undefined;
            await fc.asyncModelRun(() => ({ model: start, real: traced(real, trace) }), steps);
            known = new Map(start);
          },
          { examples },
        );
      },
    }),
  ],
});
