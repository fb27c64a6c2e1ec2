/**
 * The revoke-roles pairwise rows on hand-made logs and pools (no network):
 * the judge holds every read to §4.1's model whatever the rows sent, and each
 * departure shows at its place; the rows are drawn on what the pool holds.
 * The recorded logs of the reference server and its faults are judged in
 * test/rules/rule-judges.test.ts.
 */
import { describe, expect, test } from 'vitest';
import {
  judgeRevocationRows,
  planRow,
  ROLE_ROW_STEP,
  type PoolEntry,
} from '../../properties/revoke-roles-pairwise.properties.ts';
import { HELD_ON, ORDER } from '../../src/rules/input-models/revoke-roles.ts';
import type { RoleAssociation } from '../../src/schemas/index.ts';
import { DEFINING, KIND, RESOURCE, ROLE, T1, T2, T3, exchange, held, rolesProfile } from '../helpers/roles-log.ts';

const OTHER = '7000000000000000002';
/** Ten mutable resources of the role kind: the rule may give up two, so a row names several. */
const profile = {
  ...rolesProfile({ t3Enabled: false }),
  mutableResources: Array.from({ length: 10 }, (_, i) => ({ id: `70000000000000000${10 + i}`, kindId: KIND })),
};
const ROW = ROLE_ROW_STEP.revoke(1);

const readOf = (step: string, resourceId: string, roles: RoleAssociation[]) =>
  exchange('resources.list-roles', step, { resource_ids: [resourceId] }, 200, roles);
const on = (resourceId: string, a: RoleAssociation): RoleAssociation => ({ ...a, resource_id: resourceId });

/** A pool read of both resources, one revocation of ROLE on both, and the read of each after it. */
function rowLog(teamIds: unknown, after: [RoleAssociation[], RoleAssociation[]], status = 204) {
  const request = {
    resource_ids: [OTHER, RESOURCE],
    role_ids: [ROLE],
    ...(teamIds === undefined ? {} : { team_ids: teamIds }),
  };
  return [
    readOf(ROLE_ROW_STEP.pool, RESOURCE, [held(DEFINING, '*'), held(ROLE, [T1, T2])]),
    readOf(ROLE_ROW_STEP.pool, OTHER, [on(OTHER, held(ROLE, '*'))]),
    exchange('resources.revoke-roles', ROW, request, status),
    readOf(ROLE_ROW_STEP.read(ROW), OTHER, after[1]),
    readOf(ROLE_ROW_STEP.read(ROW), RESOURCE, after[0]),
  ];
}

describe('the judge of the revoke-roles pairwise rows', () => {
  test('a list narrowed on one resource and made explicit from `*` on another passes', () => {
    // T3 is disabled: revoking T1 from `*` leaves the enabled teams but T1.
    const log = rowLog([T1], [[held(DEFINING, '*'), held(ROLE, [T2])], [on(OTHER, held(ROLE, [T2]))]]);
    expect(judgeRevocationRows(log, profile)).toEqual([]);
  });

  test('the order teams are listed in, and an association not assigned, say nothing', () => {
    const unassigned: RoleAssociation = { ...held(ROLE, []), is_assigned: false };
    const log = rowLog(undefined, [[held(DEFINING, '*'), unassigned], []]);
    expect(judgeRevocationRows(log, profile)).toEqual([]);
  });

  test('a resource named second left as it was fails at its read, naming the role', () => {
    const log = rowLog([T1], [[held(DEFINING, '*'), held(ROLE, [T2])], [on(OTHER, held(ROLE, '*'))]]);
    const v = judgeRevocationRows(log, profile);
    expect(Array.isArray(v) && v[0]?.where).toBe(`${ROLE_ROW_STEP.read(ROW)}: role ${ROLE}.team_ids`);
  });

  test('a role not named that changed fails too', () => {
    const log = rowLog([T1], [[held(DEFINING, [T1]), held(ROLE, [T2])], [on(OTHER, held(ROLE, [T2]))]]);
    const v = judgeRevocationRows(log, profile);
    expect(Array.isArray(v) && v[0]?.where).toBe(`${ROLE_ROW_STEP.read(ROW)}: role ${DEFINING}.team_ids`);
  });

  test('a refused revocation of documented values fails; a 429 or 5xx is no verdict', () => {
    const refused = judgeRevocationRows(rowLog('*', [[], []], 422), profile);
    expect(Array.isArray(refused) && refused[0]?.where).toBe(`${ROW}: response.status`);
    expect(Array.isArray(judgeRevocationRows(rowLog('*', [[], []], 503), profile))).toBe(false);
  });

  test('a log without a row answered has no evidence', () => {
    expect(Array.isArray(judgeRevocationRows(rowLog('*', [[], []]).slice(0, 2), profile))).toBe(false);
  });
});

describe('the rows drawn on the pool', () => {
  const pool = new Map<string, PoolEntry>([
    [
      RESOURCE,
      {
        kindId: KIND,
        held: new Map<string, '*' | string[]>([
          [DEFINING, '*'],
          [ROLE, [T1, T2]],
        ]),
      },
    ],
    [OTHER, { kindId: KIND, held: new Map<string, '*' | string[]>([[ROLE, [T1]]]) }],
  ]);
  const row = (classes: Record<string, string>) => new Map(Object.entries(classes));

  test('a row takes a holding on its scope with teams enough for its form', () => {
    const plan = planRow(
      row({
        resource_ids: 'one',
        role_ids: 'one',
        team_ids: 'held and not held',
        [ORDER]: 'as read',
        [HELD_ON]: 'an explicit list',
      }),
      pool,
      profile,
    );
    // T3 is disabled: ROLE holds every enabled team on RESOURCE, and one team alone on OTHER.
    expect(plan).toBeUndefined();
    const narrowed = planRow(
      row({
        resource_ids: 'several',
        role_ids: 'one',
        team_ids: 'one held',
        [ORDER]: 'reversed',
        [HELD_ON]: 'an explicit list',
      }),
      pool,
      profile,
    );
    expect(narrowed).toEqual({ resourceIds: [OTHER, RESOURCE], roleIds: [ROLE], teams: [T1] });
  });

  test('the kind-defining role is the first role named, beside another', () => {
    const plan = planRow(
      row({
        resource_ids: 'one',
        role_ids: 'with the kind-defining role',
        team_ids: 'disabled',
        [ORDER]: 'as read',
        [HELD_ON]: '*',
      }),
      pool,
      profile,
    );
    expect(plan).toEqual({ resourceIds: [RESOURCE], roleIds: [DEFINING, ROLE], teams: [T3] });
  });

  test('a row no holding can serve is not drawn', () => {
    expect(
      planRow(
        row({ resource_ids: 'several', role_ids: 'one', team_ids: '*', [ORDER]: 'as read', [HELD_ON]: '*' }),
        pool,
        profile,
      ),
    ).toBeUndefined();
  });
});
