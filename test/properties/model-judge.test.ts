/**
 * The model-based sequences judge each step with pure functions of the model
 * and what the show operations answered: tested here on recorded answers,
 * with no network. Where the spec leaves a day open the model holds nothing,
 * so any answer passes there.
 */
import { describe, expect, test } from 'vitest';
import { judgeRates, judgeTeams, type Model } from '../../properties/model.properties.ts';
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
      where: 'show-activity-rates after assign 60, day 2150-03-01',
      message: 'must show a period with the rate assigned last over the day',
    });
  });

  test('a period still covering an unassigned day is a departure', () => {
    const periods = [period('2150-03-01/2150-03-03', 60), period('2150-03-09/2150-03-12', 50)];
    const [v] = judgeRates(model, periods, 'unassign');
    expect(v?.where).toBe('show-activity-rates after unassign, day 2150-03-10');
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
});
