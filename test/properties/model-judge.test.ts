/**
 * The model-based sequences judge each step with pure functions of the model
 * and what the show operations answered: tested here on recorded answers,
 * with no network. Where the spec leaves a day open the model holds nothing,
 * so any answer passes there. The rule's judge replays the model over a
 * sequence's exchanges: tested here on hand-made logs.
 */
import { describe, expect, test } from 'vitest';
import { judgeSequence } from '../../properties/model.properties.ts';
import { judgeRates, judgeTeams, type Model } from '../../src/rules/judges/effects-model.ts';
import type { Observed } from '../../src/rules/judges/observed.ts';
import type { ActivityRatePeriod, TeamAssignation } from '../../src/schemas/index.ts';

const period = (date_range: string, average_rate: number): ActivityRatePeriod => ({
  date_range,
  average_rate,
  activity_rate_patterns: [],
  work_regime: {
    id: '1',
    label: { en: 'five days', fr: 'cinq jours', de: 'fünf Tage' },
    weekly_worked_hours: 'PT40H',
    weekly_worked_days: 5,
  },
  paid_hourly: false,
  apprentice: false,
  trainee: false,
  indemnity_enabled: false,
  compensation_enabled: false,
});

describe('judgeRates', () => {
  const model: Pick<Model, 'rates'> = {
    rates: new Map<string, number | null>([
      ['2150-03-01', 60],
      ['2150-03-02', 60],
      ['2150-03-10', null],
    ]),
  };

  test('an answer that shows the rate on its days and nothing on an unassigned day passes', () => {
    const periods = [period('2150-03-01/2150-03-03', 60)];
    expect(judgeRates(model, periods, 'assign 60')).toEqual([]);
  });

  test('a rounded rate passes: its integer form is another rule’s business', () => {
    expect(judgeRates(model, [period('2150-03-01/2150-03-03', 60.4)], 'assign 60')).toEqual([]);
  });

  test('the wrong rate on a day the model knows is a departure naming the day', () => {
    const [v] = judgeRates(model, [period('2150-03-01/2150-03-03', 40)], 'assign 60');
    expect(v).toMatchObject({
      where: 'show-activity-rates after assign 60: average_rate on 2150-03-01',
      message: 'must show a period with the rate assigned last over the day',
    });
  });

  test('a period still covering an unassigned day is a departure', () => {
    const periods = [period('2150-03-01/2150-03-03', 60), period('2150-03-09/2150-03-12', 50)];
    const [v] = judgeRates(model, periods, 'unassign');
    expect(v?.where).toBe('show-activity-rates after unassign: date_range on 2150-03-10');
  });

  test('an end day is open: a period ending on it may or may not include it', () => {
    // 2150-03-10 is unassigned; a period whose range ends on that day does not surely cover it.
    const periods = [period('2150-03-01/2150-03-10', 60)];
    expect(judgeRates(model, periods, 'unassign')).toEqual([]);
  });
});

describe('judgeTeams', () => {
  const model: Pick<Model, 'teams'> = { teams: [{ teamId: '7', head: false, days: ['2150-03-01', '2150-03-02'] }] };
  const assignation = (id: string, head: boolean, date_range: string): TeamAssignation => ({
    team: { id, name: `team ${id}` },
    head,
    date_range,
    regrouping: '',
    contract_number: '',
    external_id: '',
  });

  test('the assignation shown over its days passes', () => {
    expect(judgeTeams(model, [assignation('7', false, '2150-03-01/2150-03-05')], 'assign')).toEqual([]);
  });

  test('a missing day, or the wrong head flag, is a departure', () => {
    expect(judgeTeams(model, [assignation('7', false, '2150-03-02/2150-03-05')], 'assign')).toHaveLength(1);
    expect(judgeTeams(model, [assignation('7', true, '2150-03-01/2150-03-05')], 'assign')).toHaveLength(1);
  });

  test('the regrouping sent comes back on each of its days: another one, kept from before, is a departure', () => {
    const sent: Pick<Model, 'teams'> = {
      teams: [{ teamId: '7', head: false, days: ['2150-03-01', '2150-03-02'], regrouping: 'second' }],
    };
    const shown = (regrouping: string): TeamAssignation => ({
      ...assignation('7', false, '2150-03-01/2150-03-05'),
      regrouping,
    });
    expect(judgeTeams(sent, [shown('second')], 'assign again')).toEqual([]);
    expect(judgeTeams(sent, [shown('first')], 'assign again')).toEqual([
      expect.objectContaining({
        where: 'show-teams after assign again: regrouping on 2150-03-01',
        message: 'must show the regrouping the assignment made last sent, on each of its days',
      }),
    ]);
    // Split at the boundary: the new days carry the new regrouping, the old ones the old one.
    const split = [
      { ...assignation('7', false, '2150-02-01/2150-02-28'), regrouping: 'first' },
      { ...assignation('7', false, '2150-03-01/2150-03-05'), regrouping: 'second' },
    ];
    expect(judgeTeams(sent, split, 'assign again')).toEqual([]);
  });
});

describe('judgeSequence: the model replayed over a sequence', () => {
  const exchange = (operation: string, step: string, request: unknown, status: number, body?: unknown): Observed => ({
    operation,
    step,
    request,
    status,
    body,
    text: body === undefined ? '' : JSON.stringify(body),
    earlierStatuses: [],
    credential: 'main',
  });
  const assign = (step: string, date_range: string, average_rate: number) =>
    exchange('resources.assign-activity-rate', step, { resource_id: '1', date_range, average_rate }, 204);
  const unassign = (step: string, date_range: string) =>
    exchange('resources.unassign-activity-rate', step, { resource_id: '1', date_range }, 204);
  const rates = (after: string, periods: ActivityRatePeriod[]) =>
    exchange(
      'resources.show-activity-rates',
      `show-activity-rates after ${after}`,
      { resource_id: '1', date_range: '2150-03-01/2150-04-10' },
      200,
      periods,
    );
  const assignTeam = (step: string, warning_aware: boolean, status: number, body?: unknown) =>
    exchange(
      'resources.assign-team',
      step,
      { resource_id: '1', team_id: '7', head: true, date_range: '2150-03-01/2150-03-05', warning_aware },
      status,
      body,
    );
  const teams = (step: string, list: TeamAssignation[]) =>
    exchange('resources.show-teams', step, { resource_id: '1', date_range: '2150-03-01/2150-04-10' }, 200, list);
  const head7 = (date_range: string): TeamAssignation => ({
    team: { id: '7', name: 'team 7' },
    head: true,
    date_range,
    regrouping: '',
    contract_number: '',
    external_id: '',
  });
  const warning = { warning_type: 'overlap', message: 'the assignation overlaps another' };

  const A = 'assignRate(+0, 10 days, 30)';
  const U = 'unassignRate(+2, 3 days)';

  test('reads that agree with the model after each command are clean; the restoration around them is not judged', () => {
    const log = [
      assign(A, '2150-03-01/2150-03-11', 30),
      rates(A, [period('2150-03-01/2150-03-11', 30)]),
      unassign(U, '2150-03-03/2150-03-06'),
      rates(U, [period('2150-03-01/2150-03-03', 30), period('2150-03-06/2150-03-11', 30)]),
      // The state guard's restoration: another tag, not a command of the sequence.
      assign('resources.assign-activity-rate', '2150-03-01/2150-03-11', 99),
    ];
    expect(judgeSequence(log)).toEqual([]);
  });

  test('a read that keeps a period over unassigned days departs at the read after the unassignment', () => {
    const log = [
      assign(A, '2150-03-01/2150-03-11', 30),
      rates(A, [period('2150-03-01/2150-03-11', 30)]),
      unassign(U, '2150-03-03/2150-03-06'),
      rates(U, [period('2150-03-01/2150-03-11', 30)]),
    ];
    expect(judgeSequence(log)).toEqual([
      expect.objectContaining({ where: `show-activity-rates after ${U}: date_range on 2150-03-03` }),
    ]);
  });

  test('a command refused departs at its own answer, before any read', () => {
    const log = [{ ...assign(A, '2150-03-01/2150-03-11', 30), status: 422 }, rates(A, [])];
    expect(judgeSequence(log)).toEqual([expect.objectContaining({ where: `${A}: response.status` })]);
  });

  test('an assignment made with warning_aware must not be answered with a warning', () => {
    const T = 'assignHeadTeam(team 0, +0, 4 days, warning_aware true)';
    expect(judgeSequence([assignTeam(T, true, 200, warning)])).toEqual([
      expect.objectContaining({ where: `${T}: response.body` }),
    ]);
  });

  test('a warning without warning_aware must change nothing: the teams read around it are compared', () => {
    const T = 'assignHeadTeam(team 0, +0, 4 days, warning_aware false)';
    const before = teams(`show-teams before ${T}`, [head7('2150-01-01/2150-12-31')]);
    const same = teams(`show-teams after ${T} answered a warning`, [head7('2150-01-01/2150-12-31')]);
    const changed = teams(`show-teams after ${T} answered a warning`, [head7('2150-03-01/2150-03-05')]);
    expect(judgeSequence([before, assignTeam(T, false, 200, warning), same])).toEqual([]);
    expect(judgeSequence([before, assignTeam(T, false, 200, warning), changed])).toEqual([
      expect.objectContaining({ where: `show-teams after ${T} answered a warning` }),
    ]);
  });

  test('an assignment made with warning_aware must show on each of its days in the reads after it', () => {
    const T = 'assignHeadTeam(team 0, +0, 4 days, warning_aware true)';
    const shown = teams(`show-teams after ${T}`, [head7('2150-03-01/2150-03-05')]);
    const missing = teams(`show-teams after ${T}`, [head7('2150-03-03/2150-03-05')]);
    expect(judgeSequence([assignTeam(T, true, 200), shown])).toEqual([]);
    expect(judgeSequence([assignTeam(T, true, 200), missing])).toEqual([
      expect.objectContaining({ where: `show-teams after ${T}` }),
    ]);
  });

  test('a sequence that sent no command shows nothing: no evidence', () => {
    expect(judgeSequence([rates('looking again', [])])).toEqual({ noEvidence: 'the sequence sent no command' });
  });
});
