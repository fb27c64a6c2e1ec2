/**
 * The concurrent revocations are judged from a run's exchanges alone
 * (`judgeConcurrentRevocations`): the history is rebuilt from the steps'
 * branch and place, with no times. Tested here on logs written by hand, with
 * no network.
 */
import { describe, expect, test } from 'vitest';
import { judgeConcurrentRevocations } from '../../properties/concurrent-roles.properties.ts';
import { isNoEvidence, violationsOf } from '../../src/rules/judges/judgement.ts';
import type { Observed } from '../../src/rules/judges/observed.ts';
import type { RoleAssociation } from '../../src/schemas/index.ts';
import { DEFINING, exchange, held, RESOURCE, ROLE, rolesProfile, T1, T2, T3 } from '../helpers/roles-log.ts';

const PROFILE = rolesProfile();

const read = (step: string, roles: RoleAssociation[]): Observed =>
  exchange('resources.list-roles', step, { resource_ids: [RESOURCE], role_ids: [DEFINING, ROLE] }, 200, roles);

function revoke(step: string, roleIds: string[], teams: '*' | string[] | undefined, status = 204): Observed {
  const body = { resource_ids: [RESOURCE], role_ids: roleIds, ...(teams === undefined ? {} : { team_ids: teams }) };
  return exchange('resources.revoke-roles', step, body, status);
}

const start = read('list-roles at the start of the sequence', [held(DEFINING, [T1]), held(ROLE, [T1, T2, T3])]);
const end = (roles: RoleAssociation[]) => read('list-roles after the parallel revocations', roles);

describe('judgeConcurrentRevocations', () => {
  const branches = [
    revoke('B1.1 revoke(roles [1], team_ids [0])', [ROLE], [T1]),
    revoke('B2.1 revoke(roles [1], team_ids [1])', [ROLE], [T2]),
  ];

  test('two revocations answered 204 both show in the end read: passes', () => {
    const log = [start, ...branches, end([held(DEFINING, [T1]), held(ROLE, [T3])])];
    expect(judgeConcurrentRevocations(log, PROFILE)).toEqual([]);
  });

  test('one of them lost: no serial order explains the answers', () => {
    const log = [start, ...branches, end([held(DEFINING, [T1]), held(ROLE, [T2, T3])])];
    const [v, ...more] = violationsOf(judgeConcurrentRevocations(log, PROFILE));
    expect(more).toEqual([]);
    expect(v?.where).toBe(
      'list-roles after the parallel revocations: no serial order of the revocations explains the answers',
    );
    expect(v?.actual).toMatchObject({
      revocations: [
        { revocation: 'B1.1 revoke(roles [1], team_ids [0])', answer: 204 },
        { revocation: 'B2.1 revoke(roles [1], team_ids [1])', answer: 204 },
      ],
    });
  });

  test('a refused revocation may have taken effect or not', () => {
    const refused = revoke('B2.1 revoke(roles [1], team_ids [1])', [ROLE], [T2], 500);
    for (const teams of [[T3], [T2, T3]]) {
      const log = [start, branches[0]!, refused, end([held(DEFINING, [T1]), held(ROLE, teams)])];
      expect(judgeConcurrentRevocations(log, PROFILE)).toEqual([]);
    }
  });

  test('a kind-defining role removed entirely is open: kept or removed, both pass', () => {
    for (const after of [[held(DEFINING, [T1]), held(ROLE, [T2, T3])], [held(ROLE, [T2, T3])]]) {
      const log = [
        start,
        revoke('B1.1 revoke(roles [0], team_ids omitted)', [DEFINING], undefined),
        branches[0]!,
        end(after),
      ];
      expect(judgeConcurrentRevocations(log, PROFILE)).toEqual([]);
    }
  });

  test('the serial prefix is part of the history: its revocation must show too', () => {
    const prefix = revoke('P1 revoke(roles [1], team_ids [2])', [ROLE], [T3]);
    const shown = [start, prefix, ...branches, end([held(DEFINING, [T1]), held(ROLE, [])])];
    expect(judgeConcurrentRevocations(shown, PROFILE)).toEqual([]);
    const lost = [start, prefix, ...branches, end([held(DEFINING, [T1]), held(ROLE, [T3])])];
    const [v] = violationsOf(judgeConcurrentRevocations(lost, PROFILE));
    expect(v?.actual).toMatchObject({
      revocations: [
        { revocation: 'P1 revoke(roles [1], team_ids [2])', answer: 204 },
        { revocation: 'B1.1 revoke(roles [1], team_ids [0])', answer: 204 },
        { revocation: 'B2.1 revoke(roles [1], team_ids [1])', answer: 204 },
      ],
    });
  });

  test('a run that sent no revocation shows nothing: no evidence', () => {
    const log = [start, end([held(DEFINING, [T1]), held(ROLE, [T1, T2, T3])])];
    expect(isNoEvidence(judgeConcurrentRevocations(log, PROFILE))).toBe(true);
  });
});
