/**
 * The concurrent mode: the activity-rate model on recorded histories, and the
 * rule's judge on hand-made exchange logs (no network), then each concurrent
 * rule (rates, revocations) against a server that loses an update when two
 * requests on one resource overlap (caught and confirmed at every seed) and
 * against the reference server (passes at every seed, never more than
 * MAX_IN_FLIGHT_PER_RESOURCE requests at once on its resource, and more than
 * one at some seed). The serial rules of the same operation do not see that
 * fault: only requests at once show it.
 */
import { describe, expect, inject, test } from 'vitest';
import { MUTATION_OPTIONS, runAgainstReference } from '../../src/mutation/run-mutations.ts';
import { CATCHES } from '../../src/mutation/fault-catches.ts';
import { loadCatalogue } from '../../src/runner/catalogue.ts';
import { checkLinearizable, type HistoryOperation } from '../../src/rules/linearizability.ts';
import type { ActivityRatePeriod } from '../../src/schemas/index.ts';
import { field, type Observed } from '../../src/rules/judges/observed.ts';
import { MAX_IN_FLIGHT_PER_RESOURCE } from '../../src/rules/in-flight-per-resource.ts';
import {
  judgeHistory,
  judgeParallelCommands,
  ratesModel,
  type RateAnswer,
  type RateCall,
} from '../../properties/concurrent.properties.ts';

// Ten seeds in the full proof (`npm run proof`, which runs this file too), three in `npm test`.
const SEEDS = inject('proof') === true ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] : [1, 2, 3];
const SEEDS_SAID = SEEDS.length === 10 ? 'ten' : 'three';

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

const span = (range: string) => {
  const [start = '', end = ''] = range.split('/');
  return { start, end };
};
const assign = (range: string, rate: number): RateCall => ({ kind: 'assign', span: span(range), rate });
const unassign = (range: string): RateCall => ({ kind: 'unassign', span: span(range) });
const command = (label: string, call: RateCall, invokedAt: number, at: number) =>
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

describe('the model, on recorded histories (other days kept: the INFERRED reading of §4.2 rule 1)', () => {
  // Two assignments at once: days 2030-01-03..12 at 31 and 2030-01-21..30 at 67.
  const parallel = [
    command('B1.1 assign', assign('2030-01-03/2030-01-13', 31), 0, 20),
    command('B2.1 assign', assign('2030-01-21/2030-01-31', 67), 1, 21),
  ];

  test('both changes shown: explained', () => {
    const shown = [
      period('2029-01-01/2030-01-02', 100),
      period('2030-01-03/2030-01-13', 31),
      period('2030-01-14/2030-01-20', 100),
      period('2030-01-21/2030-01-31', 67),
    ];
    expect(checkLinearizable([...parallel, read(shown)], ratesModel('kept')).outcome).toBe('linearizable');
  });

  test('one change lost: no order explains it, and the FAIL shows the commands and the orders tried', () => {
    const shown = [period('2029-01-01/2030-01-20', 100), period('2030-01-21/2030-01-31', 67)];
    const history = [...parallel, read(shown)];
    const result = checkLinearizable(history, ratesModel('kept'));
    expect(result.outcome).toBe('not-linearizable');
    expect(judgeHistory(history, result, shown)).toEqual([
      expect.objectContaining({
        where: expect.stringContaining(String(CATCHES['rates-lost-update'].where)),
        expected: {
          ordersTried: [
            'B1.1 assign → B2.1 assign → read: the read on 2030-01-03 must show a period with the rate assigned ' +
              'last over the day: expected rate 31, shows 2029-01-01/2030-01-20 at 100',
            'B2.1 assign → B1.1 assign: the same operations done, in the same state, as an order ruled out above',
          ],
        },
      }),
    ]);
  });

  test('overlapping ranges at once: either order is a correct server, a mix of both is not', () => {
    const overlapping = [
      command('B1.1 assign', assign('2030-01-01/2030-01-21', 10), 0, 20),
      command('B2.1 assign', assign('2030-01-11/2030-01-31', 90), 1, 21),
    ];
    const firstWins = [period('2030-01-01/2030-01-20', 10), period('2030-01-21/2030-01-31', 90)];
    const secondWins = [period('2030-01-01/2030-01-10', 10), period('2030-01-11/2030-01-31', 90)];
    // Day 15 at 10, day 16 at 90: inside both ranges, no serial order leaves that.
    const mixed = [period('2030-01-01/2030-01-15', 10), period('2030-01-16/2030-01-31', 90)];
    const judge = (shown: ActivityRatePeriod[]) =>
      checkLinearizable([...overlapping, read(shown)], ratesModel('kept')).outcome;
    expect(judge(firstWins)).toBe('linearizable');
    expect(judge(secondWins)).toBe('linearizable');
    expect(judge(mixed)).toBe('not-linearizable');
  });

  test('a refused command is pending: it may have taken effect or not', () => {
    const refused: HistoryOperation<RateCall, RateAnswer> = {
      label: 'B2.1 unassign (refused)',
      call: unassign('2030-01-21/2030-01-31'),
      invokedAt: 1,
    };
    const assigned = command('B1.1 assign', assign('2030-01-03/2030-01-13', 31), 0, 20);
    const withIt = [period('2029-01-01/2030-01-02', 100), period('2030-01-03/2030-01-13', 31)];
    const without = [...withIt, period('2030-01-14/2030-12-31', 100)];
    expect(checkLinearizable([assigned, refused, read(withIt)], ratesModel('kept')).outcome).toBe('linearizable');
    expect(checkLinearizable([assigned, refused, read(without)], ratesModel('kept')).outcome).toBe('linearizable');
  });
});

describe('the model as §4.2 rule 1 is worded (an assignment leaves other days open: MUST)', () => {
  const parallel = [
    command('B1.1 assign', assign('2030-01-03/2030-01-13', 31), 0, 20),
    command('B2.1 assign', assign('2030-01-21/2030-01-31', 67), 1, 21),
  ];
  const judge = (history: ReadonlyArray<HistoryOperation<RateCall, RateAnswer>>, shown: ActivityRatePeriod[]) =>
    checkLinearizable([...history, read(shown)], ratesModel('open')).outcome;

  test('one of two assignments lost: the other, landing last, may have modified its period', () => {
    expect(judge(parallel, [period('2029-01-01/2030-01-20', 100), period('2030-01-21/2030-01-31', 67)])).toBe(
      'linearizable',
    );
  });

  test('both lost: in no order does the last one show its range as it set it', () => {
    expect(judge(parallel, [period('2029-01-01/2030-12-31', 100)])).toBe('not-linearizable');
  });

  test('an unassignment after the last assignment keeps the days around it: its range must show no period', () => {
    const history = [
      command('P1 assign', assign('2030-01-01/2030-02-10', 12), 0, 5),
      command('B1.1 unassign', unassign('2030-01-15/2030-01-23'), 10, 20),
    ];
    expect(judge(history, [period('2030-01-01/2030-01-14', 12), period('2030-01-23/2030-02-10', 12)])).toBe(
      'linearizable',
    );
    expect(judge(history, [period('2030-01-01/2030-02-10', 12)])).toBe('not-linearizable');
  });

  test('overlapping ranges at once, a mix of both: no order explains it either', () => {
    const overlapping = [
      command('B1.1 assign', assign('2030-01-01/2030-01-21', 10), 0, 20),
      command('B2.1 assign', assign('2030-01-11/2030-01-31', 90), 1, 21),
    ];
    expect(judge(overlapping, [period('2030-01-01/2030-01-15', 10), period('2030-01-16/2030-01-31', 90)])).toBe(
      'not-linearizable',
    );
  });
});

describe("the rules' judge, on exchange logs", () => {
  const exchange = (
    operation: string,
    step: string,
    request: unknown,
    at: { sent: number; answered: number } | undefined,
    status = 204,
    body?: unknown,
  ): Observed => ({
    operation,
    step,
    request,
    status,
    body,
    text: body === undefined ? '' : JSON.stringify(body),
    earlierStatuses: [],
    credential: 'main',
    ...(at ? { at } : {}),
  });
  const assigned = (step: string, date_range: string, average_rate: number, sent: number, answered: number) =>
    exchange(
      'resources.assign-activity-rate',
      step,
      { resource_id: '1', date_range, average_rate },
      { sent, answered },
    );
  const readAt = (shown: ActivityRatePeriod[]) =>
    exchange(
      'resources.show-activity-rates',
      'show-activity-rates after the parallel commands',
      { resource_id: '1', date_range: '2030-01-01/2030-02-10' },
      { sent: 100, answered: 101 },
      200,
      shown,
    );
  // The prefix sets 12 over the window, then a branch sets 45 inside it; the read shows 12 there.
  const lost = [period('2030-01-01/2030-02-10', 12)];

  test('both disjoint changes shown: clean; the restoration after the read is not a command', () => {
    const log = [
      assigned('B1.1 assignRate(+2, 10 days, 31)', '2030-01-03/2030-01-13', 31, 0, 20),
      assigned('B2.1 assignRate(+20, 10 days, 67)', '2030-01-21/2030-01-31', 67, 1, 21),
      readAt([period('2030-01-03/2030-01-13', 31), period('2030-01-21/2030-01-31', 67)]),
      exchange('resources.unassign-activity-rate', 'resources.unassign-activity-rate', { resource_id: '1' }, undefined),
    ];
    expect(judgeParallelCommands(log, 'kept')).toEqual([]);
  });

  test('the real-time order comes from the exchanges: a change answered before another was sent comes first', () => {
    const prefix = (answered: number) =>
      assigned('P1 assignRate(+0, 40 days, 12)', '2030-01-01/2030-02-10', 12, 0, answered);
    const branch = assigned('B1.1 assignRate(+4, 12 days, 45)', '2030-01-05/2030-01-17', 45, 10, 20);
    // Answered before the branch's change was sent: it cannot have come after it, so 45 was lost.
    expect(judgeParallelCommands([prefix(5), branch, readAt(lost)], 'kept')).toEqual([
      expect.objectContaining({ where: expect.stringContaining(String(CATCHES['rates-lost-update'].where)) }),
    ]);
    // Answered after it was sent: the two overlap, and the prefix's change landing last explains the read.
    expect(judgeParallelCommands([prefix(15), branch, readAt(lost)], 'kept')).toEqual([]);
  });

  test('a refused command is pending; a repeated one may have taken effect before its last attempt was sent', () => {
    const prefix = assigned('P1 assignRate(+0, 40 days, 12)', '2030-01-01/2030-02-10', 12, 0, 5);
    const branch = assigned('B1.1 assignRate(+4, 12 days, 45)', '2030-01-05/2030-01-17', 45, 10, 20);
    expect(judgeParallelCommands([prefix, { ...branch, status: 409 }, readAt(lost)], 'kept')).toEqual([]);
    // Answered after two attempts: the first may have landed before the prefix's change, which then covered it.
    expect(judgeParallelCommands([prefix, { ...branch, earlierStatuses: [503] }, readAt(lost)], 'kept')).toEqual([]);
  });

  test('a command without times cannot be ordered: no evidence', () => {
    const untimed = exchange(
      'resources.assign-activity-rate',
      'B1.1 assignRate(+2, 10 days, 31)',
      { resource_id: '1', date_range: '2030-01-03/2030-01-13', average_rate: 31 },
      undefined,
    );
    expect(judgeParallelCommands([untimed, readAt([])], 'kept')).toEqual({
      noEvidence: 'B1.1 assignRate(+2, 10 days, 31) holds no time: its order in real time is not known',
    });
  });
});

/**
 * The most requests in flight at once on each resource a log's requests name
 * (`resource_id`, `resource_ids`), from when each went and when its answer
 * came (Observed's `at`, to a fraction of a millisecond in a live run).
 */
function peakInFlightPerResource(log: readonly Observed[]): Map<string, number> {
  const events = new Map<string, Array<{ at: number; change: 1 | -1 }>>();
  for (const o of log) {
    if (!o.at) continue;
    const one = field(o.request, 'resource_id');
    const many = field(o.request, 'resource_ids');
    const ids = [...(typeof one === 'string' ? [one] : []), ...(Array.isArray(many) ? many : [])];
    for (const id of ids.filter((i): i is string => typeof i === 'string')) {
      const list = events.get(id) ?? [];
      list.push({ at: o.at.sent, change: 1 }, { at: o.at.answered, change: -1 });
      events.set(id, list);
    }
  }
  const peaks = new Map<string, number>();
  for (const [id, list] of events) {
    // An answer at the same moment as a sending counts first: the two were not in flight together.
    list.sort((a, b) => a.at - b.at || a.change - b.change);
    let now = 0;
    let peak = 0;
    for (const e of list) {
      now += e.change;
      peak = Math.max(peak, now);
    }
    peaks.set(id, peak);
  }
  return peaks;
}

const catalogue = await loadCatalogue();
const concurrentIds = new Set(catalogue.flatMap((g) => g.rules.filter((r) => r.concurrent).map((r) => r.id)));
const only = (keep: (id: string) => boolean) =>
  catalogue.map((g) => ({ ...g, rules: g.rules.filter((r) => keep(r.id)) })).filter((g) => g.rules.length > 0);

const CASES = [
  // Restored after each sequence: a FAIL is driven again and confirmed.
  {
    rule: 'activity-rates.prop.concurrent-other-days-kept',
    fault: 'rates-lost-update',
    serial: ['activity-rates.'],
    confirmed: true,
  },
  {
    rule: 'activity-rates.prop.concurrent-sequences',
    fault: 'rates-concurrent-assignments-dropped',
    serial: ['activity-rates.'],
    confirmed: true,
  },
  // Revocations cannot be undone: the FAIL is confirmed by driving the rule again on another resource or role.
  {
    rule: 'revoke-roles.prop.concurrent-sequences',
    fault: 'revoke-lost-update',
    serial: ['revoke-roles.'],
    confirmed: true,
  },
  // Head assignments of two teams at once; the serial rules that assign teams are the model-based sequences'.
  {
    rule: 'assign-team.prop.concurrent-other-teams-kept',
    fault: 'teams-lost-update',
    serial: ['assign-team.', 'show-teams.', 'activity-rates.prop.model-sequences'],
    confirmed: true,
  },
  {
    rule: 'assign-team.prop.concurrent-sequences',
    fault: 'teams-concurrent-assignments-dropped',
    serial: ['assign-team.', 'show-teams.', 'activity-rates.prop.model-sequences'],
    confirmed: true,
  },
] as const;

describe.each(CASES)('$rule against servers', ({ rule, fault, serial, confirmed }) => {
  const concurrent = only((id) => id === rule);

  // A run whose changes do not show waits a moment for a lagging read before restoring: about a second each.
  test(`${fault} is caught at every one of ${SEEDS_SAID} seeds`, async () => {
    for (const seed of SEEDS) {
      const run = await runAgainstReference([fault], concurrent, { ...MUTATION_OPTIONS, seed });
      const result = run.results[0]!;
      expect(result.verdict, `seed ${seed}: ${result.reason ?? ''}`).toBe('FAIL');
      expect(result.confirmed, `seed ${seed}`).toBe(confirmed);
      expect(result.violations.some((v) => CATCHES[fault].where.shownBy(v.where))).toBe(true);
    }
  }, 150_000);

  test(`the reference server passes at every one of ${SEEDS_SAID} seeds, with 2 to ${MAX_IN_FLIGHT_PER_RESOURCE} requests at once on the resource`, async () => {
    const peaks: number[] = [];
    for (const seed of SEEDS) {
      const evidence: Observed[] = [];
      const run = await runAgainstReference([], concurrent, {
        ...MUTATION_OPTIONS,
        seed,
        onJudged: (_rule, observed) => evidence.push(...observed),
      });
      const result = run.results[0]!;
      expect(result.verdict, `seed ${seed}: ${JSON.stringify(result.violations).slice(0, 2000)}`).toBe('PASS');
      const peak = Math.max(...peakInFlightPerResource(evidence).values());
      expect(peak, `seed ${seed}`).toBeLessThanOrEqual(MAX_IN_FLIGHT_PER_RESOURCE);
      peaks.push(peak);
    }
    // The branches did go at the same time.
    expect(Math.max(...peaks), JSON.stringify(peaks)).toBeGreaterThan(1);
  });

  test(`the serial rules of the same operation do not see ${fault}`, async () => {
    const serialRules = only((id) => serial.some((p) => id.startsWith(p)) && !concurrentIds.has(id));
    for (const seed of SEEDS.slice(0, 3)) {
      const run = await runAgainstReference([fault], serialRules, { ...MUTATION_OPTIONS, seed });
      expect(run.results.filter((r) => r.verdict === 'FAIL').map((r) => r.ruleId)).toEqual([]);
      expect(run.results.filter((r) => r.verdict === 'PASS').length).toBeGreaterThan(3);
    }
  });
});
