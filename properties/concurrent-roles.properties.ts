/**
 * Concurrent revocations (§4.1): a short serial prefix of
 * resources.revoke-roles requests on one mutable resource, then two or three
 * branches of them sent at the same time (real parallel
 * requests, one per branch in flight, at most MAX_IN_FLIGHT_PER_RESOURCE on
 * the resource), then resources.list-roles. The run
 * passes when some serial order of the revocations that respects real time,
 * applied to the exact model of §4.1 (the one the serial model-based
 * sequences use, starting from what the server shows), explains every answer
 * and the roles shown: the linearizability check of
 * src/rules/linearizability.ts. Revocations that overlap may land in either
 * order; a history no order explains is a FAIL with the revocations and the
 * orders tried. The driver sends each run inside `ctx.judged`, every request
 * tagged with its place (`P1 revoke(…)` in the prefix, `B2.1 revoke(…)` in a
 * branch); the judge (`judgeConcurrentRevocations`) rebuilds the history from
 * those exchanges alone: the prefix one after the other, then the branches'
 * revocations, which all overlap in time but for each branch's own order,
 * between the read that starts the run and the read that ends it.
 * Revocations cannot be undone: the resource is the rule's for good, and each
 * sequence starts from what the server shows.
 */
import fc from 'fast-check';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { checkProperty } from '../src/rules/check-property.ts';
import { precondition } from '../src/rules/assertions.ts';
import { firstWithStep, noEvidence, type Judgement } from '../src/rules/judges/judgement.ts';
import { field, type Observed } from '../src/rules/judges/observed.ts';
import {
  applyRevocation,
  heldBy,
  revocationOf,
  rolesShown,
  profileLacksTeams,
  heldTeamsTheProfileLacks,
} from '../src/rules/judges/role-answers.ts';
import { claimRoleResource } from '../src/rules/steps/claims.ts';
import { isDefiningRole } from '../src/rules/steps/roles.ts';
import { checkLinearizable, type HistoryOperation, type SequentialModel } from '../src/rules/linearizability.ts';
import { allBranches, InFlightPerResource } from '../src/rules/in-flight-per-resource.ts';
import type { TargetProfile } from '../src/target/profile.ts';
import { ordersTried } from '../src/rules/timed-history.ts';
import { describe, revocationTarget, shown, type Model, type Real } from './roles-model.properties.ts';

/** One revocation: roles and teams as indexes into the profile's lists (so a sequence replays on any target). */
export interface RevokeCommand {
  roles: number[];
  teams: 'omitted' | 'star' | number[];
}

/** What a revocation sends, resolved against the profile. */
export interface RevokeCall {
  kind: 'revoke';
  roleIds: string[];
  teams: 'omitted' | 'star' | string[];
}
export type RolesCall = RevokeCall | { kind: 'read' };
export type RolesAnswer = { status: number } | { roles: Model };

/** A serial prefix, then branches sent at the same time. */
export interface ConcurrentRevocations {
  prefix: RevokeCommand[];
  branches: RevokeCommand[][];
}

/** The reads that start and end each run; each revocation's step is its place (prefix, or branch), then the command. */
const STEP = {
  start: 'list-roles at the start of the sequence',
  end: 'list-roles after the parallel revocations',
} as const;
/** `P<i> …`: the prefix's i-th (branch 0); `B<b>.<i> …`: branch b's i-th. */
const PLACE_STEP = /^(?:P(\d+)|B(\d+)\.(\d+)) /;
function placeOf(step: string): { branch: number; place: number } | undefined {
  const m = PLACE_STEP.exec(step);
  if (!m) return undefined;
  return m[1] !== undefined ? { branch: 0, place: Number(m[1]) } : { branch: Number(m[2]), place: Number(m[3]) };
}

/** The model of §4.1 from `start`: a revocation changes the roles as the serial sequences' model says. */
export function rolesModel(
  start: Model,
  enabledTeamIds: readonly string[],
): SequentialModel<Model, RolesCall, RolesAnswer> {
  return {
    init: start,
    key: (state) => JSON.stringify(describe(state)),
    step(state, call) {
      if (call.kind === 'read') {
        return { state, judge: (answer) => ('roles' in answer ? rolesDeparture(state, answer.roles) : 'not a read') };
      }
      const next = new Map(state);
      applyRevocation(next, call.roleIds, call.teams, enabledTeamIds);
      return { state: next, judge: (answer) => ('status' in answer ? undefined : 'not a revocation') };
    },
  };
}

/** The roles list-roles shows otherwise than the model holds, each with both; undefined when none. */
function rolesDeparture(expected: Model, actual: Model): string | undefined {
  const text = (teams: '*' | string[] | undefined): string =>
    teams === undefined ? 'not held' : teams === '*' ? '*' : `[${teams.join(', ')}]`;
  const differ = [...new Set([...expected.keys(), ...actual.keys()])]
    .sort()
    .filter((role) => text(expected.get(role)) !== text(actual.get(role)))
    .map((role) => `role ${role} shows ${text(actual.get(role))}, must show ${text(expected.get(role))}`);
  return differ.length === 0 ? undefined : `list-roles: ${differ.join('; ')}`;
}

export function describeRevocation(c: RevokeCommand): string {
  const teams =
    c.teams === 'omitted' ? 'team_ids omitted' : c.teams === 'star' ? 'team_ids *' : `team_ids [${c.teams.join(', ')}]`;
  return `revoke(roles [${c.roles.join(', ')}], ${teams})`;
}

type Operation = HistoryOperation<RolesCall, RolesAnswer>;

/** Resolves a command against the profile; undefined when nothing is left to send. */
function resolve(real: Real, command: RevokeCommand): RevokeCall | undefined {
  const roleIds = [...new Set(command.roles.map((i) => real.roleIds[i % real.roleIds.length]!))];
  // Removing a kind-defining role entirely is refused or ignored: the spec does not say which.
  const sent = command.teams === 'omitted' ? roleIds.filter((id) => !isDefiningRole(real.ctx, id)) : roleIds;
  if (sent.length === 0) return undefined;
  const teams =
    typeof command.teams === 'string'
      ? command.teams
      : [...new Set(command.teams.map((i) => real.teamIds[i % real.teamIds.length]!))];
  return { kind: 'revoke', roleIds: sent, teams };
}

async function send(real: Real, inFlight: InFlightPerResource, command: RevokeCommand, label: string): Promise<void> {
  const call = resolve(real, command);
  if (!call) return;
  const step = `${label} ${describeRevocation(command)}`;
  const res = await inFlight.send(real.resourceId, () =>
    real.ctx.client.post(
      'resources.revoke-roles',
      {
        resource_ids: [real.resourceId],
        role_ids: call.roleIds,
        ...(call.teams === 'star' ? { team_ids: '*' as const } : {}),
        ...(Array.isArray(call.teams) ? { team_ids: call.teams } : {}),
      },
      { step },
    ),
  );
  // Refused: whether it took effect is not known (the judge lets it take effect at any point, or not).
  if (res.status < 200 || res.status >= 300) {
    real.ctx.observe(`${step} answered ${res.status}`, { status: res.status, body: res.text.slice(0, 200) });
  }
}

/**
 * One run: the roles read, the prefix sent one revocation after the other, the
 * branches sent at once (each branch one command after the other), the roles
 * read again.
 */
async function runBranches(real: Real, { prefix, branches }: ConcurrentRevocations): Promise<void> {
  await shown(real, STEP.start);
  // Whatever shape the branches drawn have, at most MAX_IN_FLIGHT_PER_RESOURCE revocations at once on the resource.
  const inFlight = new InFlightPerResource();
  for (const [i, command] of prefix.entries()) await send(real, inFlight, command, `P${i + 1}`);
  await allBranches(
    branches.map(async (branch, b) => {
      for (const [i, command] of branch.entries()) await send(real, inFlight, command, `B${b + 1}.${i + 1}`);
    }),
  );
  await shown(real, STEP.end);
}

/** The model without the roles whose fate the spec leaves open. */
function without(model: Model, open: ReadonlySet<string>): Model {
  return new Map([...model].filter(([roleId]) => !open.has(roleId)));
}

/**
 * The judge of one run: the history rebuilt from its exchanges. The start
 * read gives the model's first state; each revocation of the prefix (`P<i> …`)
 * comes after the prefix's earlier ones; each tagged `B<b>.<i> …` comes after
 * the whole prefix and overlaps every other but those its branch sent before it;
 * one answered with a success took effect, any other answer says nothing of
 * whether it did (pending); the end read comes after them all. Some serial
 * order must explain the answers (src/rules/linearizability.ts). A
 * kind-defining role a revocation removes entirely is left out (the spec
 * leaves open whether it stays); an empty `team_ids` changes nothing (it is
 * rejected). Pure: no network, no clock.
 */
export function judgeConcurrentRevocations(log: readonly Observed[], profile: TargetProfile): Judgement {
  const first = firstWithStep(log, STEP.start);
  const startRead = rolesShown(first, STEP.start);
  if (!('roles' in startRead)) return startRead.judgement;
  const ids = field(first?.request, 'resource_ids');
  const resourceId = Array.isArray(ids) && typeof ids[0] === 'string' ? ids[0] : undefined;
  if (resourceId === undefined) return noEvidence(`${STEP.start} named no resource`);
  const endRead = rolesShown(firstWithStep(log, STEP.end), STEP.end);
  if (!('roles' in endRead)) return endRead.judgement;
  const sent = log.flatMap((o) => {
    const at = placeOf(o.step);
    const revocation = o.operation === 'resources.revoke-roles' ? revocationOf(o.request) : undefined;
    if (!at || !revocation?.resourceIds.includes(resourceId)) return [];
    return [{ o, revocation, ...at }];
  });
  if (sent.length === 0) return noEvidence('the run sent no revocation');
  const open = new Set(
    sent.flatMap(({ revocation }) =>
      revocation.teams === 'omitted' ? revocation.roleIds.filter((id) => isDefiningRole({ profile }, id)) : [],
    ),
  );
  const ordered = sent
    .filter(({ revocation }) => !(Array.isArray(revocation.teams) && revocation.teams.length === 0))
    .sort((a, b) => a.branch - b.branch || a.place - b.place);
  const history: Operation[] = ordered.map(({ o, revocation, branch, place }) => ({
    label: o.step,
    call: {
      kind: 'revoke',
      roleIds: revocation.roleIds.filter((id) => !open.has(id)),
      teams: revocation.teams,
    },
    // Every revocation was sent after the start read and answered before the end read: no times are needed.
    invokedAt: 0,
    ...(o.status >= 200 && o.status < 300 ? { response: { answer: { status: o.status }, at: 1 } } : {}),
    // The prefix (branch 0) came before everything after it; a branch's own commands came one after the other.
    precededBy: ordered.flatMap((other, i) =>
      (other.branch === branch || other.branch === 0) && (other.branch !== branch || other.place < place) ? [i] : [],
    ),
  }));
  const start = without(heldBy(startRead.roles, resourceId), open);
  const roles = without(heldBy(endRead.roles, resourceId), open);
  history.push({ label: 'read', call: { kind: 'read' }, invokedAt: 2, response: { answer: { roles }, at: 3 } });
  const enabled = profile.teams.filter((t) => t.enabled).map((t) => t.id);
  const result = checkLinearizable(history, rolesModel(start, enabled));
  if (result.outcome === 'linearizable') return [];
  if (result.outcome === 'undecided') {
    return noEvidence(`the linearizability search gave up after ${result.steps} steps`);
  }
  // A team the end read shows that neither the start read nor the profile's enabled teams hold: only the
  // profile's teams could have told the model of it.
  const lacking = heldTeamsTheProfileLacks(profile, start, roles, enabled);
  if (lacking.length > 0) return profileLacksTeams(STEP.end, lacking);
  return [
    {
      where: `${STEP.end}: no serial order of the revocations explains the answers`,
      message: 'must be explained by some serial order of the revocations: each answered success, so each was made',
      expected: {
        start: describe(start),
        ...ordersTried(result),
      },
      actual: {
        revocations: ordered.map(({ o }) => ({
          revocation: o.step,
          answer: o.status >= 200 && o.status < 300 ? o.status : `${o.status}: no answer that says it took effect`,
        })),
        roles: describe(roles),
      },
    },
  ];
}

const revocation: fc.Arbitrary<RevokeCommand> = fc.record({
  roles: fc.array(fc.nat(15), { minLength: 1, maxLength: 2 }),
  teams: fc.oneof(
    { weight: 1, arbitrary: fc.constant('omitted' as const) },
    { weight: 1, arbitrary: fc.constant('star' as const) },
    { weight: 4, arbitrary: fc.array(fc.nat(15), { minLength: 1, maxLength: 2 }) },
  ),
});

/** A prefix of at most two revocations, then two or three branches of one or two: at most three in flight. */
const scenarios: fc.Arbitrary<ConcurrentRevocations> = fc.record({
  prefix: fc.array(revocation, { maxLength: 2 }),
  branches: fc.array(fc.array(revocation, { minLength: 1, maxLength: 2 }), { minLength: 2, maxLength: 3 }),
});

export default defineRuleGroup({
  section: '§4.1',
  title: 'Concurrent revocations',
  rules: [
    property({
      id: 'revoke-roles.prop.concurrent-sequences',
      timing: true,
      concurrent: true,
      clause: '§4.1 Response; §4.1 rules 3-6',
      quote: [
        'Response: status 204, meaning resource roles revoked; no body.',
        'Revokes role access of resources, or narrows the team scope of a role.',
      ],
      // MUST: a 204 is "meaning resource roles revoked", rules 3-6 give each revocation its exact effect, and no
      // clause lets one revocation undo another's: two 204s on one resource must both show in some order. Which
      // order they landed in the spec leaves open, and the judge tries every order real time allows.
      level: 'MUST',
      runs: 3,
      mutates: 'irreversible',
      needs: ['roleKindResource'],
      async drive(ctx) {
        precondition(ctx.profile.teams.length > 1, 'the target profile names fewer than two teams');
        const resourceId = await claimRoleResource(ctx);
        const real = revocationTarget(ctx, resourceId);
        // First: two teams revoked at once from one role the resource holds on several teams.
        const start = await shown(real, 'list-roles at the start');
        const scoped = [...start].find(([, teams]) => teams === '*' || teams.length > 1);
        const examples: ConcurrentRevocations[] = [];
        if (scoped) {
          const [roleId, teams] = scoped;
          const held = teams === '*' ? real.enabledTeamIds : teams;
          const role = real.roleIds.indexOf(roleId);
          const [first, second] = held.slice(0, 2).map((t) => real.teamIds.indexOf(t));
          if (first !== undefined && second !== undefined) {
            examples.push({
              prefix: [],
              branches: [[{ roles: [role], teams: [first] }], [{ roles: [role], teams: [second] }]],
            });
          }
        }
        await checkProperty(ctx, scenarios, (scenario) => ctx.judged(() => runBranches(real, scenario)), {
          examples,
        });
      },
      judge: judgeConcurrentRevocations,
    }),
  ],
});
