/**
 * Concurrent revocations (§4.1): two or three branches of resources.revoke-roles
 * requests on one mutable resource sent at the same time (real parallel
 * requests, one per branch in flight), then resources.list-roles. The run
 * passes when some serial order of the revocations that respects real time,
 * applied to the exact model of §4.1 (the one the serial model-based
 * sequences use, starting from what the server shows), explains every answer
 * and the roles shown: the linearizability check of
 * src/rules/linearizability.ts. Revocations that overlap may land in either
 * order; a history no order explains is a FAIL with the revocations, their
 * times and the orders tried. Revocations cannot be undone: the resource is
 * the rule's for good, and each sequence starts from what the server shows.
 */
import fc from 'fast-check';
import type { ApiResponse } from '../src/client/directory-client.ts';
import { HarnessError } from '../src/core/errors.ts';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { checkProperty } from '../src/rules/check-property.ts';
import { fail, precondition } from '../src/rules/assertions.ts';
import { claimRoleResource } from '../src/rules/steps/claims.ts';
import { isDefiningRole } from '../src/rules/steps/roles.ts';
import { checkLinearizable, type HistoryOperation, type SequentialModel } from '../src/rules/linearizability.ts';
import { applyRevocation, describe, revocationTarget, shown, type Model, type Real } from './roles-model.properties.ts';

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

async function send(real: Real, command: RevokeCommand, label: string): Promise<Operation | undefined> {
  const call = resolve(real, command);
  if (!call) return undefined;
  const step = `${label} ${describeRevocation(command)}`;
  const invokedAt = performance.now();
  const res: ApiResponse = await real.ctx.client.post(
    'resources.revoke-roles',
    {
      resource_ids: [real.resourceId],
      role_ids: call.roleIds,
      ...(call.teams === 'star' ? { team_ids: '*' as const } : {}),
      ...(Array.isArray(call.teams) ? { team_ids: call.teams } : {}),
    },
    { step },
  );
  const at = performance.now();
  if (res.status >= 200 && res.status < 300)
    return { label: step, call, invokedAt, response: { answer: { status: res.status }, at } };
  // Refused: whether it took effect is not known, so it may have, at any point, or not.
  real.ctx.observe(`${step} answered ${res.status}`, { status: res.status, body: res.text.slice(0, 200) });
  return { label: step, call, invokedAt };
}

async function runBranches(real: Real, branches: RevokeCommand[][]): Promise<void> {
  const start = await shown(real, 'list-roles at the start of the sequence');
  const sent = await Promise.all(
    branches.map(async (branch, b) => {
      const done: Operation[] = [];
      for (const [i, command] of branch.entries()) {
        const op = await send(real, command, `B${b + 1}.${i + 1}`);
        if (op) done.push(op);
      }
      return done;
    }),
  );
  const invokedAt = performance.now();
  const roles = await shown(real, 'list-roles after the parallel revocations');
  const history: Operation[] = [
    ...sent.flat(),
    { label: 'read', call: { kind: 'read' }, invokedAt, response: { answer: { roles }, at: performance.now() } },
  ];
  const result = checkLinearizable(history, rolesModel(start, real.enabledTeamIds));
  if (result.outcome === 'linearizable') return;
  if (result.outcome === 'undecided') {
    throw new HarnessError('DC_ERR_HARNESS', `the linearizability search gave up after ${result.steps} steps`);
  }
  const origin = Math.min(...history.map((op) => op.invokedAt));
  const ms = (t: number): number => Math.round((t - origin) * 10) / 10;
  fail({
    where: 'list-roles after the parallel revocations: no serial order of the revocations explains the answers',
    message: 'must be explained by some serial order of the revocations: each answered success, so each was made',
    expected: {
      start: describe(start),
      ordersTried: result.tried.map((t) => `${t.order.join(' → ')}: ${t.reason}`),
      ...(result.triedCount > result.tried.length ? { moreOrdersTried: result.triedCount - result.tried.length } : {}),
    },
    actual: {
      revocations: history
        .filter((op) => op.call.kind !== 'read')
        .map((op) => ({
          revocation: op.label,
          sentAtMs: ms(op.invokedAt),
          answeredAtMs: op.response ? ms(op.response.at) : 'no answer that says it took effect',
        })),
      roles: describe(roles),
    },
  });
}

const revocation: fc.Arbitrary<RevokeCommand> = fc.record({
  roles: fc.array(fc.nat(15), { minLength: 1, maxLength: 2 }),
  teams: fc.oneof(
    { weight: 1, arbitrary: fc.constant('omitted' as const) },
    { weight: 1, arbitrary: fc.constant('star' as const) },
    { weight: 4, arbitrary: fc.array(fc.nat(15), { minLength: 1, maxLength: 2 }) },
  ),
});

/** Two or three branches of one or two revocations: at most three in flight. */
const branchesOf: fc.Arbitrary<RevokeCommand[][]> = fc.array(fc.array(revocation, { minLength: 1, maxLength: 2 }), {
  minLength: 2,
  maxLength: 3,
});

export default defineRuleGroup({
  section: '§4.1',
  title: 'Concurrent revocations',
  rules: [
    property({
      id: 'revoke-roles.prop.concurrent-sequences',
      clause: '§4.1 Response; §4.1 rules 3-6',
      quote: [
        'Response: status 204, meaning resource roles revoked; no body.',
        'Revokes role access of resources, or narrows the team scope of a role.',
      ],
      level: 'MUST',
      runs: 3,
      mutates: 'irreversible',
      needs: ['roleKindResource'],
      async check(ctx) {
        precondition(ctx.profile.teams.length > 1, 'the target profile names fewer than two teams');
        const resourceId = await claimRoleResource(ctx);
        const real = revocationTarget(ctx, resourceId);
        // First: two teams revoked at once from one role the resource holds on several teams.
        const start = await shown(real, 'list-roles at the start');
        const scoped = [...start].find(([, teams]) => teams === '*' || teams.length > 1);
        const examples: RevokeCommand[][][] = [];
        if (scoped) {
          const [roleId, teams] = scoped;
          const held = teams === '*' ? real.enabledTeamIds : teams;
          const role = real.roleIds.indexOf(roleId);
          const [first, second] = held.slice(0, 2).map((t) => real.teamIds.indexOf(t));
          if (first !== undefined && second !== undefined) {
            examples.push([[{ roles: [role], teams: [first] }], [{ roles: [role], teams: [second] }]]);
          }
        }
        await checkProperty(ctx, branchesOf, (branches) => runBranches(real, branches), { examples });
      },
    }),
  ],
});
