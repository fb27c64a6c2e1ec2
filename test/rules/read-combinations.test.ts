/**
 * The judges of the reads' pairwise rows, on hand-written logs: a record
 * outside the range, a record inside it left out, two records lying alike
 * against their ranges answered otherwise, an association one answer shows
 * and another that lets it through leaves out, and a refused request whose
 * fields are all present are departures; a refused row that leaves a field
 * out, and a server that clips or leaves out what crosses a range's end
 * every time, are not. What an answer shows of another team or head is the
 * filter rules' (`membership`).
 */
import { describe, expect, test } from 'vitest';
import {
  judgeListRolesRows,
  judgeShowActivityRatesRows,
  judgeShowTeamsRows,
  membership,
  PAIRWISE_STEP,
} from '../../src/rules/judges/read-combinations.ts';
import { isNoEvidence, violationsOf } from '../../src/rules/judges/judgement.ts';
import type { Observed } from '../../src/rules/judges/observed.ts';
import type { RoleAssociation, TeamAssignation } from '../../src/schemas/index.ts';
import { exchange, RESOURCE } from '../helpers/roles-log.ts';
import { ratePeriod } from '../helpers/rate-period.ts';

const [TA, TB] = ['3000000000000000001', '3000000000000000002'] as const;

function assignation(team: string, head: boolean, range: string): TeamAssignation {
  return {
    team: { id: team, name: team },
    head,
    date_range: range,
    regrouping: 'North',
    contract_number: 'K-1',
    external_id: 'X-1',
  };
}

const HEAD = assignation(TA, true, '2019-01-01/2027-12-31');
const SIDE = assignation(TB, false, '2021-03-01/2026-08-31');

function teamsWide(): Observed[] {
  return [true, false].map((head) =>
    exchange(
      'resources.show-teams',
      PAIRWISE_STEP.teamsWide(head),
      { resource_id: RESOURCE, team_ids: [TA, TB], head, date_range: '1900-01-01/2199-12-31' },
      200,
      [HEAD, SIDE].filter((a) => a.head === head),
    ),
  );
}

const teamsRow = (n: number, request: Record<string, unknown>, status: number, body?: unknown): Observed =>
  exchange('resources.show-teams', PAIRWISE_STEP.teamsRow(n), { resource_id: RESOURCE, ...request }, status, body);

const wheres = (j: ReturnType<typeof judgeShowTeamsRows>): string[] => violationsOf(j).map((v) => v.where);

describe('the show-teams rows', () => {
  test('rows that agree with the wide reads pass, clipped or not', () => {
    const log = [
      ...teamsWide(),
      teamsRow(1, { team_ids: [TA, TB], head: false, date_range: '2020-01-01/2022-12-31' }, 200, [SIDE]),
      teamsRow(2, { team_ids: [TA, TB], head: true, date_range: '2020-01-01/2022-12-31' }, 200, [
        assignation(TA, true, '2020-01-01/2022-12-31'),
      ]),
      teamsRow(3, { head: true }, 200, [HEAD]),
    ];
    expect(judgeShowTeamsRows(log)).toEqual([]);
  });

  test('a record outside the range, beside several teams, is this rule’s departure', () => {
    const log = [
      ...teamsWide(),
      teamsRow(1, { team_ids: [TA, TB], head: false, date_range: '2019-02-01/2019-02-28' }, 200, [SIDE]),
    ];
    expect(wheres(judgeShowTeamsRows(log))).toEqual([
      'show-teams pairwise: date_range of response.body[0] (show-teams pairwise row 1)',
    ]);
  });

  test('a record inside the range left out is a departure; with a field left out, it is not judged', () => {
    const inside = { team_ids: [TB], head: false, date_range: '2021-01-01/2026-12-31' };
    expect(wheres(judgeShowTeamsRows([...teamsWide(), teamsRow(1, inside, 200, [])]))).toEqual([
      'show-teams pairwise: response.body lacks a record inside date_range (show-teams pairwise row 1)',
    ]);
    const { head: _head, ...noHead } = inside;
    expect(judgeShowTeamsRows([...teamsWide(), teamsRow(1, noHead, 200, [])])).toEqual([]);
  });

  test('records lying alike against two ranges are shown or left out alike', () => {
    // SIDE crosses the end of both ranges: shown by one row, left out by the other.
    const log = [
      ...teamsWide(),
      teamsRow(1, { team_ids: [TB], head: false, date_range: '2021-01-01/2021-06-30' }, 200, [SIDE]),
      teamsRow(2, { team_ids: [TA, TB], head: false, date_range: '2021-02-01/2021-04-30' }, 200, []),
    ];
    const violations = violationsOf(judgeShowTeamsRows(log));
    expect(violations.map((v) => v.where)).toEqual([
      'show-teams pairwise: date_range of response.body, records across its end',
    ]);
    // Left out both times: the server's choice, made alike.
    const alike = [
      ...teamsWide(),
      teamsRow(1, { team_ids: [TB], head: false, date_range: '2021-01-01/2021-06-30' }, 200, []),
      teamsRow(2, { team_ids: [TA, TB], head: false, date_range: '2021-02-01/2021-04-30' }, 200, []),
    ];
    expect(judgeShowTeamsRows(alike)).toEqual([]);
  });

  test('a refused row is a departure only when every field is present', () => {
    const complete = teamsRow(1, { team_ids: [TA], head: true, date_range: '2020-01-01/2020-12-31' }, 400, {
      message: 'no',
    });
    expect(wheres(judgeShowTeamsRows([...teamsWide(), complete]))).toEqual([
      'show-teams pairwise: response.status (show-teams pairwise row 1)',
    ]);
    const open = teamsRow(1, { team_ids: [TA], head: true }, 400, { message: 'date_range is required' });
    const judged = judgeShowTeamsRows([...teamsWide(), open]);
    expect(violationsOf(judged)).toEqual([]);
  });

  test('without the wide reads there is nothing to judge against', () => {
    expect(isNoEvidence(judgeShowTeamsRows([teamsRow(1, { head: true }, 200, [HEAD])]))).toBe(true);
  });

  test('membership: another team or head is the filter rules’ departure', () => {
    const o = teamsRow(4, { team_ids: [TA], head: true }, 200, [SIDE]);
    const found = Object.fromEntries(membership(o).map((m) => [m.owner, m.violations.map((v) => v.where)]));
    expect(found).toEqual({
      team: ['show-teams pairwise: team.id of response.body[0] (show-teams pairwise row 4)'],
      head: ['show-teams pairwise: head of response.body[0] (show-teams pairwise row 4)'],
    });
  });
});

describe('the show-activity-rates rows', () => {
  const FIRST = ratePeriod('2018-01-01/2023-12-31', 60);
  const SECOND = ratePeriod('2024-01-01/2030-12-31', 80);
  const wide = exchange(
    'resources.show-activity-rates',
    PAIRWISE_STEP.ratesWide,
    { resource_id: RESOURCE, date_range: '1900-01-01/2199-12-31' },
    200,
    [FIRST, SECOND],
  );
  const row = (n: number, range: string, body: unknown[]): Observed =>
    exchange(
      'resources.show-activity-rates',
      PAIRWISE_STEP.ratesRow(n),
      { resource_id: RESOURCE, date_range: range },
      200,
      body,
    );

  test('a period across the end left out only when the range starts on a month’s first day is a departure', () => {
    const log = [wide, row(1, '2017-12-15/2018-02-10', [FIRST]), row(2, '2017-12-01/2018-01-31', [])];
    expect(violationsOf(judgeShowActivityRatesRows(log)).map((v) => v.where)).toEqual([
      'show-activity-rates pairwise: date_range of response.body, records across its end',
    ]);
  });

  test('periods shown over two, clipped or whole, pass', () => {
    const log = [
      wide,
      row(1, '2023-12-31/2024-01-01', [
        ratePeriod('2023-12-31/2023-12-31', 60),
        ratePeriod('2024-01-01/2024-01-01', 80),
      ]),
      row(2, '2019-01-01/2019-12-31', [FIRST]),
    ];
    expect(judgeShowActivityRatesRows(log)).toEqual([]);
  });
});

describe('the list-roles rows', () => {
  const OTHER = '7000000000000000002';
  const [R1, R2] = ['2000000000000000001', '2000000000000000002'] as const;
  const assoc = (resource: string, role: string): RoleAssociation => ({
    resource_id: resource,
    role_id: role,
    is_assigned: true,
    team_ids: '*',
  });
  const all = [assoc(RESOURCE, R1), assoc(RESOURCE, R2), assoc(OTHER, R1)];
  const row = (n: number, resources: string[], roles: string[], body: RoleAssociation[]): Observed =>
    exchange(
      'resources.list-roles',
      PAIRWISE_STEP.rolesRow(n),
      { resource_ids: resources, role_ids: roles },
      200,
      body,
    );

  test('several resources and roles at once show the union of each alone', () => {
    const log = [
      row(1, [RESOURCE, OTHER], [R1, R2], all),
      row(2, [OTHER, RESOURCE], [R1], [assoc(RESOURCE, R1), assoc(OTHER, R1)]),
      row(3, [RESOURCE], [R2, R1], [assoc(RESOURCE, R1), assoc(RESOURCE, R2)]),
    ];
    expect(judgeListRolesRows(log)).toEqual([]);
  });

  test('an association one answer shows and another that names it leaves out is a departure', () => {
    const log = [
      row(1, [RESOURCE, OTHER], [R1, R2], [assoc(RESOURCE, R1), assoc(RESOURCE, R2)]),
      row(2, [OTHER, RESOURCE], [R1], [assoc(RESOURCE, R1), assoc(OTHER, R1)]),
    ];
    expect(violationsOf(judgeListRolesRows(log)).map((v) => v.where)).toEqual([
      `list-roles pairwise: response.body association ${OTHER}/${R1} (shown by list-roles pairwise row 2, not by list-roles pairwise row 1)`,
    ]);
  });

  test('a row that leaves a filter out is compared with none', () => {
    const log = [
      row(1, [RESOURCE, OTHER], [R1, R2], all),
      row(2, [OTHER], [R1], [assoc(OTHER, R1)]),
      exchange('resources.list-roles', PAIRWISE_STEP.rolesRow(3), { role_ids: [R1] }, 200, []),
    ];
    expect(judgeListRolesRows(log)).toEqual([]);
  });
});
