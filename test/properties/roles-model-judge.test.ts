/**
 * The model-based revocation sequences are judged by replaying the model of
 * §4.1 over a run's exchanges (`judgeRevocations`): tested here on logs
 * written by hand, with no network. Where the spec leaves a choice open
 * (removing a kind-defining role entirely) the judge holds nothing of it.
 */
import { describe, expect, test } from 'vitest';
import { judgeRevocations } from '../../properties/roles-model.properties.ts';
import { isNoEvidence, violationsOf } from '../../src/rules/judges/judgement.ts';
import type { Observed } from '../../src/rules/judges/observed.ts';
import type { RoleAssociation } from '../../src/schemas/index.ts';
import { DEFINING, exchange, held, RESOURCE, ROLE, rolesProfile, T1, T2, T3 } from '../helpers/roles-log.ts';

const PROFILE = rolesProfile({ t3Enabled: false });

function read(step: string, roles: RoleAssociation[]): Observed {
  return exchange('resources.list-roles', step, { resource_ids: [RESOURCE], role_ids: [DEFINING, ROLE] }, 200, roles);
}

function revoke(step: string, roleIds: string[], teams: '*' | string[] | undefined, status = 204): Observed {
  const body = { resource_ids: [RESOURCE], role_ids: roleIds, ...(teams === undefined ? {} : { team_ids: teams }) };
  return exchange('resources.revoke-roles', step, body, status);
}

const start = read('list-roles at the start of the sequence', [held(DEFINING, [T1]), held(ROLE, '*')]);

describe('judgeRevocations', () => {
  test('a sequence whose reads show what §4.1 leaves passes', () => {
    const log = [
      start,
      revoke('revoke(roles [1], team_ids [0])', [ROLE], [T1]),
      // Rule 6: the role held on `*` becomes the remaining enabled teams (not the disabled one).
      read('list-roles after revoke(roles [1], team_ids [0])', [held(DEFINING, [T1]), held(ROLE, [T2])]),
      revoke('revoke(roles [1], team_ids *)', [ROLE], '*'),
      read('list-roles after revoke(roles [1], team_ids *)', [held(DEFINING, [T1]), held(ROLE, [])]),
    ];
    expect(judgeRevocations(log, PROFILE)).toEqual([]);
  });

  test('a read that departs from the model is a violation at that read, with both', () => {
    const log = [
      start,
      revoke('revoke(roles [1], team_ids *)', [ROLE], '*'),
      read('list-roles after revoke(roles [1], team_ids *)', [held(DEFINING, [T1])]),
    ];
    const [v, ...more] = violationsOf(judgeRevocations(log, PROFILE));
    expect(more).toEqual([]);
    expect(v).toMatchObject({
      // The place names the role the read departs on: here one it no longer shows at all.
      where: `list-roles after revoke(roles [1], team_ids *): role ${ROLE}`,
      expected: { [DEFINING]: [T1], [ROLE]: [] },
      actual: { [DEFINING]: [T1] },
    });
  });

  test('the model goes on from each revocation: a later read is held to all of them', () => {
    const log = [
      start,
      revoke('revoke(roles [1], team_ids [0])', [ROLE], [T1]),
      read('list-roles after revoke(roles [1], team_ids [0])', [held(DEFINING, [T1]), held(ROLE, [T2])]),
      revoke('revoke(roles [0], team_ids [2])', [DEFINING], [T3]),
      // Revoking a team the role does not have changes nothing (rule 3): the list must not come back as `*`.
      read('list-roles after revoke(roles [0], team_ids [2])', [held(DEFINING, [T1]), held(ROLE, '*')]),
    ];
    expect(violationsOf(judgeRevocations(log, PROFILE)).map((v) => v.where)).toEqual([
      `list-roles after revoke(roles [0], team_ids [2]): role ${ROLE}.team_ids`,
    ]);
  });

  test('an empty team_ids array accepted is a departure of its status; refused, it changes nothing', () => {
    const empty = (status: number) => [
      start,
      revoke('revoke(roles [1], team_ids [])', [ROLE], [], status),
      read('list-roles after revoke(roles [1], team_ids [])', [held(DEFINING, [T1]), held(ROLE, '*')]),
    ];
    expect(violationsOf(judgeRevocations(empty(204), PROFILE)).map((v) => v.where)).toEqual([
      'revoke(roles [1], team_ids []): response.status',
    ]);
    expect(judgeRevocations(empty(422), PROFILE)).toEqual([]);
  });

  test('a valid revocation refused is a departure of its status', () => {
    const log = [start, revoke('revoke(roles [1], team_ids *)', [ROLE], '*', 400)];
    expect(violationsOf(judgeRevocations(log, PROFILE)).map((v) => v.where)).toEqual([
      'revoke(roles [1], team_ids *): response.status',
    ]);
  });

  test('removing a kind-defining role entirely is open: kept or removed, both pass', () => {
    for (const after of [[held(DEFINING, [T1]), held(ROLE, '*')], [held(ROLE, '*')]]) {
      const log = [
        start,
        revoke('revoke(roles [0], team_ids omitted)', [DEFINING], undefined),
        read('list-roles after revoke(roles [0], team_ids omitted)', after),
      ];
      expect(judgeRevocations(log, PROFILE)).toEqual([]);
    }
  });

  test('a run that sent no revocation shows nothing: no evidence', () => {
    expect(isNoEvidence(judgeRevocations([start], PROFILE))).toBe(true);
    expect(isNoEvidence(judgeRevocations([], PROFILE))).toBe(true);
  });
});
