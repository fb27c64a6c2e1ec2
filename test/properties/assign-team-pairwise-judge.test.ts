/**
 * The judge of assign-team's pairwise rows on hand-made logs (no network):
 * what it holds whatever the server chose where §4.3 is open, and each
 * departure at its place. The recorded logs of the reference server and its
 * faults are judged in test/rules/rule-judges.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { judgeTeamRows, TEAM_ROW_STEP } from '../../properties/assign-team-pairwise.properties.ts';
import type { Observed } from '../../src/rules/judges/observed.ts';
import { exchange } from '../helpers/roles-log.ts';
import type { AssignTeamRequest, TeamAssignation } from '../../src/schemas/index.ts';

const RANGE = '2020-01-02/2020-01-08';
const TEAM = '300';
const WARNING = {
  warning_type: 'assign-conflicting-resource-teams',
  description: 'conflicts',
  details: { modifications: [], deletions: [] },
  required_action: 'resend',
};

const body = (extra: Partial<AssignTeamRequest> = {}): AssignTeamRequest => ({
  resource_id: '700',
  team_id: TEAM,
  head: true,
  date_range: RANGE,
  ...extra,
});

const shown = (teamId: string, date_range: string, text: Partial<TeamAssignation> = {}): TeamAssignation => ({
  team: { id: teamId, name: `team ${teamId}` },
  head: true,
  date_range,
  regrouping: '',
  contract_number: '',
  external_id: '',
  ...text,
});

/** One row: the assignment, then the read of its week. */
function row(n: number, sent: AssignTeamRequest, status: number, answer: unknown, read: TeamAssignation[]): Observed[] {
  const step = TEAM_ROW_STEP.assign(n, false);
  return [
    exchange('resources.assign-team', step, sent, status, answer),
    exchange('resources.show-teams', TEAM_ROW_STEP.read(step), { resource_id: '700', date_range: RANGE }, 200, read),
  ];
}

const HEAD_BEFORE = shown('100', '2019-01-01/2021-12-31');

describe('the judge of assign-team pairwise rows', () => {
  test('a warning with nothing changed, and a row done with its text, pass', () => {
    const text = { regrouping: 'Zürich-東京-🚀', external_id: 'dc-1' };
    const log = [
      ...row(1, body({ warning_aware: false }), 409, WARNING, [HEAD_BEFORE]),
      ...row(2, body({ warning_aware: true, ...text }), 200, {}, [shown(TEAM, RANGE, text)]),
    ];
    expect(judgeTeamRows(log)).toEqual([]);
  });

  test('open: a row without warning_aware true answered as done may or may not take effect', () => {
    // "The assignment is done only when this is true": a server may answer success and do nothing.
    expect(judgeTeamRows(row(1, body({ warning_aware: false }), 200, {}, [HEAD_BEFORE]))).toEqual([]);
    expect(judgeTeamRows(row(1, body(), 200, {}, [shown(TEAM, RANGE)]))).toEqual([]);
    // Text left out is the server's to fill.
    expect(
      judgeTeamRows(row(1, body({ warning_aware: true }), 200, {}, [shown(TEAM, RANGE, { regrouping: 'x' })])),
    ).toEqual([]);
  });

  test('a warning that changed something fails at the read after it', () => {
    const v = judgeTeamRows(row(1, body(), 409, WARNING, [shown(TEAM, RANGE)]));
    expect(Array.isArray(v) && v[0]?.where).toBe(`show-teams after ${TEAM_ROW_STEP.assign(1, false)}: team`);
  });

  test('warning_aware true: a warning, a week not covered, or text not byte for byte, each fails', () => {
    const step = TEAM_ROW_STEP.assign(1, false);
    const warned = judgeTeamRows(row(1, body({ warning_aware: true }), 409, WARNING, [HEAD_BEFORE]));
    expect(Array.isArray(warned) && warned[0]?.where).toBe(`${step}: response.body`);
    const uncovered = judgeTeamRows(
      row(1, body({ warning_aware: true }), 200, {}, [shown(TEAM, '2020-01-02/2020-01-04')]),
    );
    expect(Array.isArray(uncovered) && uncovered[0]?.where).toBe(`show-teams after ${step}: date_range`);
    // Composed and decomposed ü: the same text to a reader, not the same bytes.
    const mangled = judgeTeamRows(
      row(1, body({ warning_aware: true, regrouping: 'Z\u00fcrich' }), 200, {}, [
        shown(TEAM, RANGE, { regrouping: 'Zu\u0308rich' }),
      ]),
    );
    expect(Array.isArray(mangled) && mangled[0]?.where).toBe(`show-teams after ${step}: regrouping`);
  });

  test('a complete row refused fails; a row with a field left out refused is only observed', () => {
    const complete = body({ warning_aware: true, regrouping: 'r', contract_number: 'c', external_id: 'e' });
    const refused = judgeTeamRows(row(1, complete, 422, { message: 'no' }, []));
    expect(Array.isArray(refused) && refused[0]?.where).toBe(`${TEAM_ROW_STEP.assign(1, false)}: response.status`);
    expect(judgeTeamRows(row(1, body({ warning_aware: true }), 422, { message: 'no' }, []))).not.toEqual(
      expect.arrayContaining([expect.anything()]),
    );
  });

  test('a 503 says nothing; no row, no evidence', () => {
    const verdict = judgeTeamRows(row(1, body({ warning_aware: true }), 503, { message: 'busy' }, []));
    expect(Array.isArray(verdict)).toBe(false);
    expect(Array.isArray(judgeTeamRows([]))).toBe(false);
  });
});
