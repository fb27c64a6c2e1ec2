/**
 * The concurrent team assignments' models on recorded histories (no
 * network): as §4.3 is worded (every assignation but the last one's open:
 * MUST) and as its warning reads (another team's assignation sharing no day
 * with a later range kept: INFERRED).
 */
import { describe, expect, test } from 'vitest';
import { checkLinearizable, type HistoryOperation } from '../../src/rules/linearizability.ts';
import type { TeamAssignation } from '../../src/schemas/index.ts';
import { teamsModel, type TeamAnswer, type TeamCall } from '../../properties/concurrent-teams.properties.ts';

type Op = HistoryOperation<TeamCall, TeamAnswer>;

const H = '100';
const X = '200';
const Y = '300';

const span = (range: string) => {
  const [start = '', end = ''] = range.split('/');
  return { start, end };
};
const assign = (label: string, teamId: string, range: string, invokedAt: number, at: number): Op => ({
  label,
  call: { kind: 'assign', teamId, head: true, span: span(range) },
  invokedAt,
  response: { answer: { status: 204 }, at },
});
const shown = (teamId: string, date_range: string): TeamAssignation => ({
  team: { id: teamId, name: `team ${teamId}` },
  head: true,
  date_range,
  regrouping: '',
  contract_number: '',
  external_id: '',
});
const read = (assignations: TeamAssignation[]): Op => ({
  label: 'read',
  call: { kind: 'read' },
  invokedAt: 30,
  response: { answer: { assignations }, at: 31 },
});

// Two head assignments of two teams on disjoint ranges at once, inside a head assignation of H.
const parallel = [
  assign('B1.1 assign X', X, '2030-01-03/2030-01-13', 0, 20),
  assign('B2.1 assign Y', Y, '2030-01-21/2030-01-31', 1, 21),
];
const both = [
  shown(H, '2029-01-01/2030-01-02'),
  shown(X, '2030-01-03/2030-01-13'),
  shown(H, '2030-01-14/2030-01-20'),
  shown(Y, '2030-01-21/2030-01-31'),
];
// The second write computed from what the first read: X's range went back to H.
const lost = [shown(H, '2029-01-01/2030-01-20'), shown(Y, '2030-01-21/2030-01-31')];
const none = [shown(H, '2029-01-01/2030-12-31')];

describe('other teams kept (INFERRED)', () => {
  test('both assignments shown: explained', () => {
    expect(checkLinearizable([...parallel, read(both)], teamsModel('kept')).outcome).toBe('linearizable');
  });

  test('one lost to the other: no order explains it', () => {
    const result = checkLinearizable([...parallel, read(lost)], teamsModel('kept'));
    expect(result.outcome).toBe('not-linearizable');
  });

  test('overlapping ranges of two teams at once: the later may trim the earlier, in either order', () => {
    const overlapping = [
      assign('B1.1 assign X', X, '2030-01-03/2030-01-13', 0, 20),
      assign('B2.1 assign Y', Y, '2030-01-10/2030-01-20', 1, 21),
    ];
    for (const assignations of [
      [shown(X, '2030-01-03/2030-01-09'), shown(Y, '2030-01-10/2030-01-20')],
      [shown(X, '2030-01-03/2030-01-13'), shown(Y, '2030-01-14/2030-01-20')],
    ]) {
      expect(checkLinearizable([...overlapping, read(assignations)], teamsModel('kept')).outcome).toBe('linearizable');
    }
  });

  test('a refused assignment is pending: done or not, both explained', () => {
    const pending: Op = { label: 'B2.1 assign Y', call: parallel[1]!.call, invokedAt: 1 };
    for (const assignations of [both, [shown(H, '2029-01-01/2030-01-02'), shown(X, '2030-01-03/2030-01-13')]]) {
      expect(checkLinearizable([parallel[0]!, pending, read(assignations)], teamsModel('kept')).outcome).toBe(
        'linearizable',
      );
    }
  });
});

describe('§4.3 as worded (MUST): every assignation but the last one open', () => {
  test('one lost to the other: the other, done last, may have changed it', () => {
    expect(checkLinearizable([...parallel, read(lost)], teamsModel('open')).outcome).toBe('linearizable');
  });

  test('both lost: in no order is the last one shown over its range', () => {
    expect(checkLinearizable([...parallel, read(none)], teamsModel('open')).outcome).toBe('not-linearizable');
  });

  test('an assignment answered before the other was sent comes first: the later one must show', () => {
    const serial = [
      assign('B1.1 assign X', X, '2030-01-03/2030-01-13', 0, 1),
      assign('B2.1 assign Y', Y, '2030-01-21/2030-01-31', 2, 3),
    ];
    const onlyX = [shown(X, '2030-01-03/2030-01-13'), shown(H, '2030-01-14/2030-12-31')];
    expect(checkLinearizable([...serial, read(onlyX)], teamsModel('open')).outcome).toBe('not-linearizable');
    expect(checkLinearizable([...parallel, read(onlyX)], teamsModel('open')).outcome).toBe('linearizable');
  });
});
