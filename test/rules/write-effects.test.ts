/**
 * The effects of rate and team writes judged over any traffic
 * (judgeWriteEffects): hand-written logs of one resource, read before and
 * after writes, as another client's HAR holds them (no step names). What
 * the spec leaves open passes (a range's end day read either way, the
 * default spread, rounding, a refusal, a warning); a write that did not do
 * what it said, or one that should have changed nothing and did, FAILs.
 */
import { describe, expect, test } from 'vitest';
import { isNoEvidence, violationsOf, type Judgement } from '../../src/rules/judges/judgement.ts';
import type { Observed } from '../../src/rules/judges/observed.ts';
import { judgeWriteEffects } from '../../src/rules/judges/write-effects.ts';
import type { ActivityRatePeriod, TeamAssignation } from '../../src/schemas/index.ts';
import { exchange, RESOURCE } from '../helpers/roles-log.ts';
import { ratePeriod } from '../helpers/rate-period.ts';

const RANGE = '2026-03-01/2026-04-30';
const YEAR = '2026-01-01/2026-12-31';
const ASSIGNED = '2026-03-10/2026-03-20';

let entry = 0;
/** The n-th exchange of the HAR, named as `judge` names an untagged one. */
function har(operation: string, request: unknown, status: number, body?: unknown): Observed {
  entry += 1;
  return exchange(`resources.${operation}`, `resources.${operation}, HAR entry ${entry}`, request, status, body);
}

const readRates = (periods: ActivityRatePeriod[], range = RANGE): Observed =>
  har('show-activity-rates', { resource_id: RESOURCE, date_range: range }, 200, periods);
const assignRate = (rate: number, status = 204, range = ASSIGNED): Observed =>
  har('assign-activity-rate', { resource_id: RESOURCE, date_range: range, average_rate: rate }, status);
const unassignRate = (status = 204, range = ASSIGNED): Observed =>
  har('unassign-activity-rate', { resource_id: RESOURCE, date_range: range }, status);

/** The year at 40, the assigned days at `rate`, as a server whose ranges include their end day shows it. */
const splitIncluded = (rate: number): ActivityRatePeriod[] => [
  ratePeriod('2026-01-01/2026-03-09', 40),
  ratePeriod(ASSIGNED, rate),
  ratePeriod('2026-03-21/2026-12-31', 40),
];
/** The same as a server whose ranges exclude their end day shows it. */
const splitExcluded = (rate: number): ActivityRatePeriod[] => [
  ratePeriod('2026-01-01/2026-03-10', 40),
  ratePeriod(ASSIGNED, rate),
  ratePeriod('2026-03-20/2026-12-31', 40),
];

const whereOf = (j: Judgement): string => violationsOf(j)[0]?.where ?? '';

describe('activity rates', () => {
  test('an assignment shown over its range, the days around kept: PASS whichever way ranges end', () => {
    expect(
      judgeWriteEffects([readRates([ratePeriod(YEAR, 40)]), assignRate(60), readRates(splitIncluded(60))]),
    ).toEqual([]);
    expect(
      judgeWriteEffects([readRates([ratePeriod(YEAR, 40)]), assignRate(60), readRates(splitExcluded(60))]),
    ).toEqual([]);
  });

  test('rounding and the spread of a rate sent without a pattern are the server’s: PASS', () => {
    const spread = {
      ...ratePeriod(ASSIGNED, 60),
      activity_rate_patterns: [
        { monday: 12, tuesday: 12, wednesday: 12, thursday: 12, friday: 12, saturday: 0, sunday: 0 },
      ],
    };
    const shown = [ratePeriod('2026-01-01/2026-03-09', 40), spread, ratePeriod('2026-03-21/2026-12-31', 40)];
    expect(judgeWriteEffects([readRates([ratePeriod(YEAR, 40)]), assignRate(59.6), readRates(shown)])).toEqual([]);
  });

  test('a lost assignment: FAIL on its first day', () => {
    const j = judgeWriteEffects([readRates([ratePeriod(YEAR, 40)]), assignRate(60), readRates([ratePeriod(YEAR, 40)])]);
    expect(whereOf(j)).toMatch(
      /HAR entry \d+, read by resources\.show-activity-rates, HAR entry \d+: average_rate on 2026-03-10$/,
    );
  });

  test('an assignment shown with another rate: FAIL', () => {
    const j = judgeWriteEffects([readRates([ratePeriod(YEAR, 40)]), assignRate(60), readRates(splitIncluded(50))]);
    expect(violationsOf(j)[0]).toMatchObject({ expected: { average_rate: 60 } });
  });

  test('an unassignment that uncovered its range, the days around kept: PASS whichever way ranges end', () => {
    const around = (end: 'included' | 'excluded'): ActivityRatePeriod[] =>
      end === 'included'
        ? [ratePeriod('2026-01-01/2026-03-09', 40), ratePeriod('2026-03-21/2026-12-31', 40)]
        : [ratePeriod('2026-01-01/2026-03-10', 40), ratePeriod('2026-03-20/2026-12-31', 40)];
    expect(
      judgeWriteEffects([readRates([ratePeriod(YEAR, 40)]), unassignRate(), readRates(around('included'))]),
    ).toEqual([]);
    expect(
      judgeWriteEffects([readRates([ratePeriod(YEAR, 40)]), unassignRate(), readRates(around('excluded'))]),
    ).toEqual([]);
  });

  test('an unassignment that left a period over its range: FAIL', () => {
    const j = judgeWriteEffects([readRates([ratePeriod(YEAR, 40)]), unassignRate(), readRates([ratePeriod(YEAR, 40)])]);
    expect(whereOf(j)).toMatch(/date_range on 2026-03-10$/);
    expect(violationsOf(j)[0]?.message).toMatch(/no period/);
  });

  test('an unassignment that took a day it did not name: FAIL on that day', () => {
    const shown = [ratePeriod('2026-01-01/2026-03-04', 40), ratePeriod('2026-03-21/2026-12-31', 40)];
    const j = judgeWriteEffects([readRates([ratePeriod(YEAR, 40)]), unassignRate(), readRates(shown)]);
    expect(whereOf(j)).toMatch(/average_rate on 2026-03-05$/);
  });

  test('a refused write changes nothing: PASS when nothing changed, FAIL when it was done all the same', () => {
    const before = [ratePeriod(YEAR, 40)];
    expect(judgeWriteEffects([readRates(before), assignRate(60, 422), readRates(before)])).toEqual([]);
    expect(judgeWriteEffects([readRates(before), unassignRate(400), readRates(before)])).toEqual([]);
    const j = judgeWriteEffects([readRates(before), assignRate(60, 422), readRates(splitIncluded(60))]);
    expect(whereOf(j)).toMatch(/average_rate on 2026-03-10$/);
  });

  test('days outside the first read’s range say nothing', () => {
    const narrow = '2026-03-01/2026-03-15';
    // The assignment is shown up to the 15th only: the days after it the first read did not show.
    const shown = [
      ratePeriod('2026-01-01/2026-03-09', 40),
      ratePeriod('2026-03-10/2026-03-15', 60),
      ratePeriod('2026-03-16/2026-12-31', 40),
    ];
    expect(judgeWriteEffects([readRates([ratePeriod(YEAR, 40)], narrow), assignRate(60), readRates(shown)])).toEqual(
      [],
    );
    const lost = judgeWriteEffects([
      readRates([ratePeriod(YEAR, 40)], narrow),
      assignRate(60),
      readRates([ratePeriod(YEAR, 40)]),
    ]);
    expect(whereOf(lost)).toMatch(/average_rate on 2026-03-10$/);
  });

  test('a write in flight with another on the resource: its reads say nothing until one after both', () => {
    const timed = (o: Observed, sent: number, answered: number): Observed => ({ ...o, at: { sent, answered } });
    const log = [
      timed(readRates([ratePeriod(YEAR, 40)]), 0, 5),
      timed(assignRate(60), 10, 30),
      timed(assignRate(70), 20, 40),
      timed(readRates([ratePeriod(YEAR, 40)]), 50, 55),
    ];
    expect(isNoEvidence(judgeWriteEffects(log))).toBe(true);
    // The same writes one after the other: the lost assignment FAILs.
    const apart = [log[0], timed(assignRate(60), 10, 15), timed(assignRate(70), 20, 40), log[3]].flatMap((o) =>
      o ? [o] : [],
    );
    expect(whereOf(judgeWriteEffects(apart))).toMatch(/average_rate on 2026-03-10$/);
  });

  test('a write answered with a server error leaves the resource unknown until it is read again', () => {
    const log = [readRates([ratePeriod(YEAR, 40)]), assignRate(60, 503), readRates([ratePeriod(YEAR, 40)])];
    expect(isNoEvidence(judgeWriteEffects(log))).toBe(true);
  });

  test('reads with no write between them, or writes with no read before: no evidence', () => {
    expect(
      isNoEvidence(judgeWriteEffects([readRates([ratePeriod(YEAR, 40)]), readRates([ratePeriod(YEAR, 40)])])),
    ).toBe(true);
    expect(isNoEvidence(judgeWriteEffects([assignRate(60), readRates(splitIncluded(60))]))).toBe(true);
  });
});

describe('teams', () => {
  const [A, B] = ['3000000000000000001', '3000000000000000002'];
  const assignation = (team: string, range: string, regrouping = 'r'): TeamAssignation => ({
    team: { id: team, name: `team ${team}` },
    head: true,
    date_range: range,
    regrouping,
    contract_number: 'c',
    external_id: 'e',
  });
  const readTeams = (list: TeamAssignation[], request: object = {}): Observed =>
    har('show-teams', { resource_id: RESOURCE, date_range: RANGE, ...request }, 200, list);
  const WARNING = {
    warning_type: 'assign-conflicting-resource-teams',
    description: 'conflict',
    details: { modifications: [], deletions: [] },
    required_action: 'confirm',
  };
  const assignTeam = (aware: boolean, status: number, body?: unknown): Observed =>
    har(
      'assign-team',
      { resource_id: RESOURCE, team_id: B, head: true, date_range: ASSIGNED, regrouping: 'sent', warning_aware: aware },
      status,
      body,
    );
  const before = [assignation(A, YEAR)];
  const done = [
    assignation(A, '2026-01-01/2026-03-09'),
    assignation(B, ASSIGNED, 'sent'),
    assignation(A, '2026-03-21/2026-12-31'),
  ];

  test('an assignment answered with a warning without warning_aware changes nothing: PASS', () => {
    expect(judgeWriteEffects([readTeams(before), assignTeam(false, 200, WARNING), readTeams(before)])).toEqual([]);
  });

  test('a warned assignment that was applied: FAIL', () => {
    const j = judgeWriteEffects([readTeams(before), assignTeam(false, 200, WARNING), readTeams(done)]);
    expect(whereOf(j)).toMatch(/assignations on 2026-03-10$/);
    expect(violationsOf(j)[0]?.message).toMatch(/warning/);
  });

  test('with warning_aware true the assignment is done, warned or not: PASS when shown, FAIL when lost', () => {
    expect(judgeWriteEffects([readTeams(before), assignTeam(true, 204), readTeams(done)])).toEqual([]);
    expect(judgeWriteEffects([readTeams(before), assignTeam(true, 200, WARNING), readTeams(done)])).toEqual([]);
    const lost = judgeWriteEffects([readTeams(before), assignTeam(true, 204), readTeams(before)]);
    expect(violationsOf(lost)[0]?.message).toMatch(/assignation made last/);
  });

  test('a refused assignment changes nothing; a read filtered by team or head says nothing', () => {
    expect(judgeWriteEffects([readTeams(before), assignTeam(true, 422), readTeams(before)])).toEqual([]);
    const filtered = judgeWriteEffects([
      readTeams(before),
      assignTeam(false, 200, WARNING),
      readTeams(done, { head: true }),
    ]);
    expect(isNoEvidence(filtered)).toBe(true);
  });
});
