/**
 * The concurrent mode: the activity-rate model on recorded histories (no
 * network), then each concurrent rule (rates, revocations) against a server
 * that loses an update when two requests on one resource overlap (caught and
 * confirmed at every seed) and against the reference server (passes at every
 * seed). The serial rules of the same operation do not see that fault: only
 * requests at once show it.
 */
import { describe, expect, test } from 'vitest';
import { MUTATION_OPTIONS, runAgainstReference } from '../../src/mutation/run-mutations.ts';
import { CATCHES } from '../../src/mutation/fault-catches.ts';
import { loadCatalogue } from '../../src/runner/catalogue.ts';
import { checkLinearizable, type HistoryOperation } from '../../src/rules/linearizability.ts';
import type { ActivityRatePeriod } from '../../src/schemas/index.ts';
import {
  judgeHistory,
  ratesModel,
  type RateAnswer,
  type RateCall,
  type RateCommand,
} from '../../properties/concurrent.properties.ts';

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

const window = { start: '2030-01-01', end: '2030-02-10' };
const period = (date_range: string, average_rate: number): ActivityRatePeriod => ({
  average_rate,
  date_range,
  activity_rate_patterns: [],
  work_regime: {
    id: '1',
    label: { en: 'full time', fr: 'temps plein', de: 'Vollzeit' },
    weekly_worked_hours: 'PT40H',
    weekly_worked_days: 5,
  },
  paid_hourly: false,
  apprentice: false,
  trainee: false,
  indemnity_enabled: true,
  compensation_enabled: false,
});

const command = (label: string, call: RateCommand, invokedAt: number, at: number) =>
  ({ label, call, invokedAt, response: { answer: { status: 204 }, at } }) satisfies HistoryOperation<
    RateCall,
    RateAnswer
  >;
const read = (periods: ActivityRatePeriod[]): HistoryOperation<RateCall, RateAnswer> => ({
  label: 'read',
  call: { kind: 'read' },
  invokedAt: 30,
  response: { answer: { periods }, at: 31 },
});

describe('the model, on recorded histories', () => {
  // Two assignments at once: days 2030-01-03..12 at 31 and 2030-01-21..30 at 67.
  const parallel = [
    command('B1.1 assign', { kind: 'assign', offset: 2, length: 10, rate: 31 }, 0, 20),
    command('B2.1 assign', { kind: 'assign', offset: 20, length: 10, rate: 67 }, 1, 21),
  ];

  test('both changes shown: explained', () => {
    const shown = [
      period('2029-01-01/2030-01-02', 100),
      period('2030-01-03/2030-01-13', 31),
      period('2030-01-14/2030-01-20', 100),
      period('2030-01-21/2030-01-31', 67),
    ];
    expect(checkLinearizable([...parallel, read(shown)], ratesModel(window)).outcome).toBe('linearizable');
  });

  test('one change lost: no order explains it, and the FAIL shows the commands and the orders tried', () => {
    const shown = [period('2029-01-01/2030-01-20', 100), period('2030-01-21/2030-01-31', 67)];
    const history = [...parallel, read(shown)];
    const result = checkLinearizable(history, ratesModel(window));
    expect(result.outcome).toBe('not-linearizable');
    expect(() => judgeHistory(history, result, shown)).toThrow(
      expect.objectContaining({
        violations: [
          expect.objectContaining({
            where: expect.stringContaining(CATCHES['rates-lost-update'].where),
            expected: {
              ordersTried: [
                'B1.1 assign → B2.1 assign → read: the read on 2030-01-03 must show a period with the rate assigned ' +
                  'last over the day: expected rate 31, shows 2029-01-01/2030-01-20 at 100',
                'B2.1 assign → B1.1 assign: the same operations done, in the same state, as an order ruled out above',
              ],
            },
          }),
        ],
      }),
    );
  });

  test('overlapping ranges at once: either order is a correct server, a mix of both is not', () => {
    const overlapping = [
      command('B1.1 assign', { kind: 'assign', offset: 0, length: 20, rate: 10 }, 0, 20),
      command('B2.1 assign', { kind: 'assign', offset: 10, length: 20, rate: 90 }, 1, 21),
    ];
    const firstWins = [period('2030-01-01/2030-01-20', 10), period('2030-01-21/2030-01-31', 90)];
    const secondWins = [period('2030-01-01/2030-01-10', 10), period('2030-01-11/2030-01-31', 90)];
    // Day 15 at 10, day 16 at 90: inside both ranges, no serial order leaves that.
    const mixed = [period('2030-01-01/2030-01-15', 10), period('2030-01-16/2030-01-31', 90)];
    const judge = (shown: ActivityRatePeriod[]) =>
      checkLinearizable([...overlapping, read(shown)], ratesModel(window)).outcome;
    expect(judge(firstWins)).toBe('linearizable');
    expect(judge(secondWins)).toBe('linearizable');
    expect(judge(mixed)).toBe('not-linearizable');
  });

  test('a refused command is pending: it may have taken effect or not', () => {
    const refused: HistoryOperation<RateCall, RateAnswer> = {
      label: 'B2.1 unassign (refused)',
      call: { kind: 'unassign', offset: 20, length: 10 },
      invokedAt: 1,
    };
    const assigned = command('B1.1 assign', { kind: 'assign', offset: 2, length: 10, rate: 31 }, 0, 20);
    const withIt = [period('2029-01-01/2030-01-02', 100), period('2030-01-03/2030-01-13', 31)];
    const without = [...withIt, period('2030-01-14/2030-12-31', 100)];
    expect(checkLinearizable([assigned, refused, read(withIt)], ratesModel(window)).outcome).toBe('linearizable');
    expect(checkLinearizable([assigned, refused, read(without)], ratesModel(window)).outcome).toBe('linearizable');
  });
});

const catalogue = await loadCatalogue();
const only = (keep: (id: string) => boolean) =>
  catalogue.map((g) => ({ ...g, rules: g.rules.filter((r) => keep(r.id)) })).filter((g) => g.rules.length > 0);

const CASES = [
  // Restored after each sequence: a FAIL is driven again and confirmed.
  {
    rule: 'activity-rates.prop.concurrent-sequences',
    fault: 'rates-lost-update',
    serial: 'activity-rates.',
    confirmed: true,
  },
  // Revocations cannot be undone, so the engine does not drive them again: the FAIL stands unconfirmed.
  {
    rule: 'revoke-roles.prop.concurrent-sequences',
    fault: 'revoke-lost-update',
    serial: 'revoke-roles.',
    confirmed: undefined,
  },
] as const;

describe.each(CASES)('$rule against servers', ({ rule, fault, serial, confirmed }) => {
  const concurrent = only((id) => id === rule);

  test(`${fault} is caught at every one of ten seeds`, async () => {
    for (const seed of SEEDS) {
      const run = await runAgainstReference([fault], concurrent, { ...MUTATION_OPTIONS, seed });
      const result = run.results[0]!;
      expect(result.verdict, `seed ${seed}: ${result.reason ?? ''}`).toBe('FAIL');
      expect(result.confirmed, `seed ${seed}`).toBe(confirmed);
      expect(result.violations.some((v) => v.where.includes(CATCHES[fault].where))).toBe(true);
    }
  });

  test('the reference server passes at every one of ten seeds', async () => {
    for (const seed of SEEDS) {
      const run = await runAgainstReference([], concurrent, { ...MUTATION_OPTIONS, seed });
      const result = run.results[0]!;
      expect(result.verdict, `seed ${seed}: ${JSON.stringify(result.violations).slice(0, 2000)}`).toBe('PASS');
    }
  });

  test(`the serial rules of the same operation do not see ${fault}`, async () => {
    const serialRules = only((id) => id.startsWith(serial) && id !== rule);
    for (const seed of SEEDS.slice(0, 3)) {
      const run = await runAgainstReference([fault], serialRules, { ...MUTATION_OPTIONS, seed });
      expect(run.results.filter((r) => r.verdict === 'FAIL').map((r) => r.ruleId)).toEqual([]);
      expect(run.results.filter((r) => r.verdict === 'PASS').length).toBeGreaterThan(3);
    }
  });
});
