/**
 * Stateful, model-based sequences of revocations (§4.1 rules 2-7): fast-check
 * draws a sequence of resources.revoke-roles requests (whole roles, `*`,
 * explicit teams, an empty list) on one mutable resource, and after every
 * step resources.list-roles must show what an executable model of §4.1 says.
 * The driver sends the sequence and reads after each step; the judge
 * (`judgeRevocations`) replays the model over that run's exchanges, run by
 * run, so fast-check still shrinks. The model starts from what the server
 * shows at the start of each sequence, so it is exact; the driver never sends
 * what the spec leaves open (removing a kind-defining role entirely), and the
 * judge holds nothing of it when it is in a log. Revocations cannot be
 * undone: the resource is the rule's for good, and each sequence goes on from
 * where the last one left it. A failure shrinks to the shortest sequence and
 * replays with `--seed S --path P`.
 */
import fc from 'fast-check';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { checkProperty } from '../src/rules/check-property.ts';
import { precondition } from '../src/rules/assertions.ts';
import {
  accepted,
  firstWithStep,
  isClean,
  noEvidence,
  rejected,
  type Judgement,
} from '../src/rules/judges/judgement.ts';
import { field, type Observed } from '../src/rules/judges/observed.ts';
import {
  applyRevocation,
  describeHeld,
  heldBy,
  revocationOf,
  rolesShown,
  type HeldRoles,
  profileLacksTeams,
  heldTeamsTheProfileLacks,
} from '../src/rules/judges/role-answers.ts';
import { TraceBuilder, type ExplainedStep } from '../src/rules/judges/trace.ts';
import type { ReplayCheck } from '../src/core/types.ts';
import { claimRoleResource } from '../src/rules/steps/claims.ts';
import { isDefiningRole, listRoles } from '../src/rules/steps/roles.ts';
import type { CheckContext } from '../src/rules/types.ts';
import type { TargetProfile } from '../src/target/profile.ts';
import type { StepInteraction } from '../src/rules/types.ts';
import { drawnCommands, earlierIndex } from '../src/arbitraries/relativeRange.ts';

/** Role id → the teams it is held on ('*' or an explicit list); a role not in the map is not held. */
export type Model = HeldRoles;

/** The resource a revocation sequence works on, with the roles and teams of the profile it may name. */
export interface Real {
  ctx: CheckContext;
  resourceId: string;
  roleIds: readonly string[];
  teamIds: readonly string[];
  enabledTeamIds: readonly string[];
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

/**
 * The driver keeps no model of §4.1 (the judge replays it over the run's
 * exchanges), only what it needs to give a step the data of earlier ones:
 * the roles each earlier step named (indices among the profile's roles) and
 * what the last read showed held.
 */
interface Reading {
  named: number[][];
  held: Model;
}

type Step = fc.AsyncCommand<Reading, Real>;

/**
 * What a revocation asks for: `omitted` removes the role, `*` every team, a
 * list those teams (indices among the profile's), `held` those of the teams
 * the first role is held on as last read (indices among them: every enabled
 * team for `*`), so a scope is narrowed and then narrowed again.
 */
type Teams =
  { kind: 'omitted' } | { kind: 'star' } | { kind: 'list'; picks: number[] } | { kind: 'held'; picks: number[] };

/** The read each sequence starts with, and the prefix of the read after each revocation (its step follows). */
const STEP = { start: 'list-roles at the start of the sequence', after: 'list-roles after ' } as const;

export async function shown(real: Pick<Real, 'ctx' | 'resourceId' | 'roleIds'>, step: string): Promise<Model> {
  const list = await listRoles(real.ctx, { resource_ids: [real.resourceId], role_ids: [...real.roleIds] }, { step });
  return heldBy(list, real.resourceId);
}

export function describe(model: Model): Record<string, string | string[]> {
  return describeHeld(model);
}

function sameModel(a: Model, b: Model): boolean {
  return JSON.stringify(describe(a)) === JSON.stringify(describe(b));
}

/** Where two models first differ: a role one holds and the other does not, or the teams of a role. */
function firstDifference(expected: Model, actual: Model): string {
  const roles = [...new Set([...expected.keys(), ...actual.keys()])].sort();
  const differs = (id: string): boolean =>
    JSON.stringify(expected.get(id) ?? null) !== JSON.stringify(actual.get(id) ?? null);
  const id = roles.find(differs) ?? '';
  return expected.has(id) && actual.has(id) ? `role ${id}.team_ids` : `role ${id}`;
}

/** The model without the roles whose fate the spec leaves open. */
function known(model: Model, open: ReadonlySet<string>): Model {
  return new Map([...model].filter(([roleId]) => !open.has(roleId)));
}

/**
 * The judge of one sequence: the model of §4.1 replayed over the run's
 * exchanges. It starts from what list-roles showed at the start (tagged
 * `list-roles at the start of the sequence`), applies each revocation in the
 * order it was sent (a valid one must be accepted, an empty `team_ids` must be
 * rejected and changes nothing), and holds each read after a revocation to
 * the model. Removing a kind-defining role entirely is refused or ignored:
 * the spec does not say which, so that role is left out from then on. Pure:
 * tested on recorded sequences with no network.
 */
function replayRevocations(log: readonly Observed[], profile: TargetProfile, trace?: TraceBuilder): Judgement {
  const first = firstWithStep(log, STEP.start);
  const start = rolesShown(first, STEP.start);
  if (!('roles' in start)) return start.judgement;
  const ids = field(first?.request, 'resource_ids');
  const resourceId = Array.isArray(ids) && typeof ids[0] === 'string' ? ids[0] : undefined;
  if (resourceId === undefined) return noEvidence(`${STEP.start} named no resource`);
  const model = heldBy(start.roles, resourceId);
  const open = new Set<string>();
  const enabled = profile.teams.filter((t) => t.enabled).map((t) => t.id);
  let revocations = 0;
  for (const [at, o] of log.entries()) {
    if (o.operation === 'resources.revoke-roles') {
      const revocation = revocationOf(o.request);
      if (!revocation?.resourceIds.includes(resourceId)) continue;
      revocations++;
      // The first step starts with the read the sequence started from: revocations cannot be undone, so a
      // reproducer replays the sequence only on a target that still shows those roles (it reads them first).
      trace?.begin(commandOf(o), at, revocations === 1 && first ? [log.indexOf(first)] : []);
      const { roleIds, teams } = revocation;
      if (Array.isArray(teams) && teams.length === 0) {
        // §4.1 rule 7: an empty team_ids array is rejected (and so changes nothing).
        const answer = rejected(o);
        if (!isClean(answer)) return answer;
        continue;
      }
      const answer = accepted(o);
      if (!isClean(answer)) return answer;
      if (teams === 'omitted') for (const id of roleIds) if (isDefiningRole({ profile }, id)) open.add(id);
      const applied = roleIds.filter((id) => !open.has(id));
      applyRevocation(model, applied, teams, enabled);
    } else if (o.step.startsWith(STEP.after)) {
      trace?.saw(at);
      const read = rolesShown(o, o.step);
      if (!('roles' in read)) return read.judgement;
      const expected = known(model, open);
      const actual = known(heldBy(read.roles, resourceId), open);
      trace?.judged(at, describe(expected), describe(actual), (exchange) =>
        firstRoleCheck(expected, actual, resourceId, exchange),
      );
      if (!sameModel(actual, expected)) {
        const lacking = heldTeamsTheProfileLacks(profile, expected, actual);
        if (lacking.length > 0) return profileLacksTeams(o.step, lacking);
        return [
          {
            where: `${o.step}: ${firstDifference(expected, actual)}`,
            message: 'must show the roles and teams §4.1 leaves after the revocations so far',
            expected: describe(expected),
            actual: describe(actual),
          },
        ];
      }
    }
  }
  return revocations > 0 ? [] : noEvidence('the sequence sent no revocation');
}

/** The rule's judge: §4.1's model replayed over one sequence (pure: the same function judges a recorded one). */
export function judgeRevocations(log: readonly Observed[], profile: TargetProfile): Judgement {
  return replayRevocations(log, profile);
}

/** The same replay told step by step: the trace of a failing sequence. */
export function explainRevocations(log: readonly Observed[], profile: TargetProfile): ExplainedStep[] {
  const trace = new TraceBuilder();
  replayRevocations(log, profile, trace);
  return trace.steps;
}

/** A revocation in the trace: the ids it sent, not fast-check's indexes. */
function commandOf(o: Observed): string {
  const revocation = revocationOf(o.request);
  if (!revocation) return `revoke-roles ${o.text}`;
  const { resourceIds, roleIds, teams } = revocation;
  const scope =
    teams === 'omitted' ? 'team_ids omitted' : teams === 'star' ? 'team_ids *' : `team_ids [${teams.join(', ')}]`;
  return `revoke-roles on resource ${resourceIds.join(', ')}: roles [${roleIds.join(', ')}], ${scope}`;
}

/** The reproducer's check of the first role whose teams differ from what the model expects. */
function firstRoleCheck(expected: Model, shown: Model, resourceId: string, exchange: number): ReplayCheck | undefined {
  const roleId = [...new Set([...expected.keys(), ...shown.keys()])].find(
    (id) => JSON.stringify(expected.get(id)) !== JSON.stringify(shown.get(id)),
  );
  if (roleId === undefined) return undefined;
  return { kind: 'role-teams', exchange, resourceId, roleId, teams: expected.get(roleId) ?? null };
}

/**
 * The roles a revocation names, as indices among `roleCount` roles: with
 * `again`, those an earlier step named (`ref` counted back from the last
 * one), its own picks otherwise and in a sequence's first step.
 */
export function rolesNamed(
  step: Pick<Revoke, 'roles' | 'again' | 'ref'>,
  named: readonly number[][],
  roleCount: number,
): number[] {
  const earlier = step.again && named.length > 0 ? named[earlierIndex(step.ref, named.length)] : undefined;
  return earlier ?? [...new Set(step.roles.map((i) => i % roleCount))];
}

export class Revoke implements Step {
  constructor(
    readonly roles: number[],
    readonly teams: Teams,
    readonly again = false,
    readonly ref = 0,
  ) {}
  check = (): boolean => true;

  async run(reading: Reading, real: Real): Promise<void> {
    const { ctx } = real;
    const named = rolesNamed(this, reading.named, real.roleIds.length);
    reading.named.push(named);
    const roleIds = named.map((i) => real.roleIds[i]!);
    // Removing a kind-defining role entirely is refused or ignored: the spec does not say which.
    const sent = this.teams.kind === 'omitted' ? roleIds.filter((id) => !isDefiningRole(ctx, id)) : roleIds;
    if (sent.length === 0) return;
    const teamIds = this.teamIds(reading, real, sent[0]);
    const body = {
      resource_ids: [real.resourceId],
      role_ids: sent,
      ...(this.teams.kind === 'star' ? { team_ids: '*' as const } : {}),
      ...(teamIds !== undefined ? { team_ids: teamIds } : {}),
    };
    // An empty team_ids array is rejected (§4.1 rule 7): its status is judged, so a lone 5xx is sent again.
    const empty = teamIds?.length === 0;
    await ctx.client.post('resources.revoke-roles', body, {
      step: this.toString(),
      ...(empty ? { retry: 'judged' } : {}),
    });
    reading.held = await shown(real, `${STEP.after}${this.toString()}`);
  }

  /** The explicit teams the revocation sends, if it sends a list: `held` picks among the first role's. */
  private teamIds(reading: Reading, real: Real, roleId: string | undefined): string[] | undefined {
    if (this.teams.kind !== 'list' && this.teams.kind !== 'held') return undefined;
    const held = roleId === undefined ? undefined : reading.held.get(roleId);
    const among = this.teams.kind === 'held' ? (held === '*' ? real.enabledTeamIds : held) : undefined;
    const from = among !== undefined && among.length > 0 ? among : real.teamIds;
    return [...new Set(this.teams.picks.map((i) => from[i % from.length]!))];
  }

  toString = (): string => {
    const teams =
      this.teams.kind === 'omitted'
        ? 'team_ids omitted'
        : this.teams.kind === 'star'
          ? 'team_ids *'
          : this.teams.kind === 'held'
            ? `team_ids [${this.teams.picks.join(', ')}] of those held`
            : `team_ids [${this.teams.picks.join(', ')}]`;
    const roles = this.again ? `roles of -${this.ref}` : `roles [${this.roles.join(', ')}]`;
    return `revoke(${roles}, ${teams})`;
  };
}

/**
 * How many of a sequence's revocations name a role an earlier one of the
 * sequence named, with `roleCount` roles to name. Pure: the roles are
 * resolved as the driver resolves them.
 */
export function revocationInteraction(steps: Iterable<unknown>, roleCount: number): StepInteraction {
  const named: number[][] = [];
  let touching = 0;
  for (const step of drawnCommands(steps)) {
    if (!(step instanceof Revoke)) continue;
    const roles = rolesNamed(step, named, roleCount);
    if (roles.some((r) => named.some((earlier) => earlier.includes(r)))) touching++;
    named.push(roles);
  }
  return { steps: named.length, touching };
}

/** Longest sequence unless `--max-commands` says otherwise: few, long sequences catch more per request. */
const MAX_COMMANDS = 9;

/**
 * The sequences: revocations of drawn roles, most of them the roles an
 * earlier step named (`again`), on teams drawn among the profile's or among
 * those the role is held on, so a scope is narrowed and narrowed again.
 */
function sequences(maxCommands: number, replayPath?: string): fc.Arbitrary<Iterable<Step>> {
  const picks = (minLength: number, maxLength = 3): fc.Arbitrary<number[]> =>
    fc.array(fc.nat(15), { minLength, maxLength });
  const teams: fc.Arbitrary<Teams> = fc.oneof(
    { weight: 1, arbitrary: fc.constant({ kind: 'omitted' as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'star' as const }) },
    { weight: 2, arbitrary: picks(0).map((p) => ({ kind: 'list' as const, picks: p })) },
    { weight: 4, arbitrary: picks(1, 2).map((p) => ({ kind: 'held' as const, picks: p })) },
  );
  return fc.commands(
    [
      fc
        .tuple(
          picks(1),
          teams,
          fc.oneof({ weight: 1, arbitrary: fc.constant(false) }, { weight: 2, arbitrary: fc.constant(true) }),
          fc.nat(2),
        )
        .map(([r, t, again, ref]) => new Revoke(r, t, again, ref)),
    ],
    { maxCommands, ...(replayPath ? { replayPath } : {}) },
  );
}

/** The share over the sequences the seed draws (a hundred of them), with the profile's roles to name. */
export function drawnRevocationInteraction(roleCount: number, seed: number, sequencesDrawn = 100): StepInteraction {
  return fc
    .sample(sequences(MAX_COMMANDS), { seed, numRuns: sequencesDrawn })
    .map((steps) => revocationInteraction(steps, roleCount))
    .reduce((a, b) => ({ steps: a.steps + b.steps, touching: a.touching + b.touching }), { steps: 0, touching: 0 });
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
      runs: 4,
      mutates: 'irreversible',
      needs: ['roleKindResource'],
      async drive(ctx) {
        precondition(ctx.profile.teams.length > 0, 'the target profile names no team');
        const resourceId = await claimRoleResource(ctx);
        const real = revocationTarget(ctx, resourceId);
        const held = await shown(real, 'list-roles at the start');
        // First, on one role the resource holds on several teams (an explicit list if it has one), the
        // path through the rules that narrow a team scope: one of its teams revoked (rule 6, or a narrowed
        // list), then another of those left (the list narrowed again), then `*` (rule 5).
        const scoped =
          [...held].find(([, teams]) => teams !== '*' && teams.length > 1) ??
          [...held].find(([, teams]) => teams === '*');
        const examples: Array<Iterable<Step>> =
          scoped === undefined
            ? []
            : [
                [
                  new Revoke([real.roleIds.indexOf(scoped[0])], { kind: 'held', picks: [0] }),
                  new Revoke([], { kind: 'held', picks: [0] }, true),
                  new Revoke([], { kind: 'star' }, true),
                ],
              ];
        // Revocations cannot be undone: each sequence starts from what the server shows, read again
        // (a read no change has made stale since is the run's shared answer: no request is sent).
        await checkProperty(
          ctx,
          sequences(ctx.options.maxCommands ?? MAX_COMMANDS, ctx.options.replayPath),
          (steps) =>
            ctx.judged(async () => {
              const start = await shown(real, STEP.start);
              await fc.asyncModelRun(() => ({ model: { named: [], held: start }, real }), steps);
            }),
          { examples },
        );
      },
      judge: judgeRevocations,
      explain: explainRevocations,
      interaction: (profile, seed) => drawnRevocationInteraction(profile.roles.length, seed),
    }),
  ],
});
