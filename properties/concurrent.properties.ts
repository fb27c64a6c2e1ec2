/**
 * Concurrent sequences (§4.2, §4.7): a short serial prefix of
 * assign-activity-rate and unassign-activity-rate requests on one mutable
 * resource, then two or three branches of them sent at the same time (real
 * parallel requests, at most one per branch in flight), then a read of the
 * window. Each branch's commands go one after the other; the branches
 * overlap in time. The run passes when some serial order of the commands,
 * one that respects real time (a command answered before another was sent
 * comes first), applied to the model, explains every answer and the final
 * read: the linearizability check of src/rules/linearizability.ts. Commands
 * that overlap may land in either order, so an order the spec leaves to the
 * server is never held against it; a history no order explains is a FAIL,
 * with the commands, their times and the orders tried.
 *
 * The model: a day holds the rate assigned last over it, or no period when it
 * was unassigned last; the end day of a range is left open (whether a range
 * includes it is not shown), and so is every day no command of the sequence
 * touched. §4.2 rule 1 ("Assigning a new rate may modify other activity rate
 * periods") is read as the reshaping of the periods around the new range
 * (trimmed, split, merged), not as a change of the rate of a day outside it:
 * the serial sequences forget every day at each assignment, and with that
 * model no lost assignment could be told from a permitted modification. The
 * resource is restored after every sequence.
 */
import fc from 'fast-check';
import type { ApiResponse } from '../src/client/directory-client.ts';
import { HarnessError } from '../src/core/errors.ts';
import type { ActivityRatePeriod } from '../src/schemas/index.ts';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { checkProperty } from '../src/rules/check-property.ts';
import { fail, precondition } from '../src/rules/assertions.ts';
import { claimRoleResource } from '../src/rules/steps/claims.ts';
import { WIDE_RANGE, showActivityRates } from '../src/rules/steps/assignations.ts';
import { guardResource } from '../src/rules/state-guard.ts';
import { addDays, splitRange, type DateSpan } from '../src/rules/dates.ts';
import {
  checkLinearizable,
  type HistoryOperation,
  type LinearizabilityResult,
  type SequentialModel,
} from '../src/rules/linearizability.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { judgeRates } from './model.properties.ts';

/** One command of a sequence, inside the window: an offset and a length in days. */
export type RateCommand =
  | { kind: 'assign'; offset: number; length: number; rate: number }
  | { kind: 'unassign'; offset: number; length: number };

/** A serial prefix, then branches sent at the same time. */
export interface ConcurrentScenario {
  prefix: RateCommand[];
  branches: RateCommand[][];
}

/** What the history holds of each call: the command, or the final read. */
export type RateCall = RateCommand | { kind: 'read' };
/** A command's status, or the periods the read showed. */
export type RateAnswer = { status: number } | { periods: readonly ActivityRatePeriod[] };

/** A day's rate, or null when no period may cover it; a day not in the map is open. */
export type RateState = ReadonlyMap<string, number | null>;

export function describeCommand(c: RateCommand): string {
  return c.kind === 'assign'
    ? `assignRate(+${c.offset}, ${c.length} days, ${c.rate})`
    : `unassignRate(+${c.offset}, ${c.length} days)`;
}

function rangeIn(window: DateSpan, offset: number, length: number): DateSpan {
  const start = addDays(window.start, offset);
  const end = addDays(start, length);
  return { start, end: end > window.end ? window.end : end };
}

const text = (s: DateSpan): string => `${s.start}/${s.end}`;

/**
 * The model of the sequence over `window`: a serial command sets the days of
 * its range (the end day left open), and leaves the rate of every other day
 * as it was; the read must agree with the model, judged by `judgeRates`.
 */
export function ratesModel(window: DateSpan): SequentialModel<RateState, RateCall, RateAnswer> {
  return {
    init: new Map(),
    key: (state) => JSON.stringify([...state].sort(([a], [b]) => (a < b ? -1 : 1))),
    step(state, call) {
      if (call.kind === 'read') {
        return {
          state,
          judge: (answer) => ('periods' in answer ? describeDeparture(state, answer.periods) : 'not a read'),
        };
      }
      const span = rangeIn(window, call.offset, call.length);
      const next = new Map(state);
      for (let d = span.start; d < span.end; d = addDays(d, 1)) next.set(d, call.kind === 'assign' ? call.rate : null);
      next.delete(span.end);
      return { state: next, judge: (answer) => ('status' in answer ? undefined : 'not a command') };
    },
  };
}

/** Why a read departs from the model, in one line: the first day that departs, what it must show and what it shows. */
function describeDeparture(state: RateState, periods: readonly ActivityRatePeriod[]): string | undefined {
  const v = judgeRates({ rates: new Map(state) }, periods, 'this order')[0];
  if (!v) return undefined;
  const day = /day (\S+)$/.exec(v.where)?.[1] ?? '';
  const shown = periods
    .filter((p) => {
      const s = splitRange(p.date_range);
      return s !== undefined && s.start <= day && day <= s.end;
    })
    .map((p) => `${p.date_range} at ${p.average_rate}`);
  const expected = state.get(day);
  return `the read on ${day} ${v.message}: expected ${expected === null ? 'no period' : `rate ${String(expected)}`}, shows ${shown.join(', ') || 'no period'}`;
}

interface Real {
  ctx: CheckContext<'workRegime'>;
  resourceId: string;
  window: DateSpan;
}

type Operation = HistoryOperation<RateCall, RateAnswer>;

/** Sends one command and records when it went and when its answer came. */
async function send(real: Real, command: RateCommand, label: string): Promise<Operation> {
  const { ctx, resourceId, window } = real;
  const span = text(rangeIn(window, command.offset, command.length));
  const step = `${label} ${describeCommand(command)}`;
  const invokedAt = performance.now();
  const res: ApiResponse =
    command.kind === 'assign'
      ? await ctx.client.post(
          'resources.assign-activity-rate',
          {
            resource_id: resourceId,
            date_range: span,
            average_rate: command.rate,
            work_regime_id: ctx.workRegimeIds[0],
            indemnity_enabled: true,
            compensation_enabled: false,
            trainee: false,
            apprentice: false,
            paid_hourly: false,
          },
          { step },
        )
      : await ctx.client.post(
          'resources.unassign-activity-rate',
          { resource_id: resourceId, date_range: span },
          { step },
        );
  const at = performance.now();
  const operation: Operation = { label: step, call: command, invokedAt };
  if (res.status >= 200 && res.status < 300) return { ...operation, response: { answer: { status: res.status }, at } };
  // Refused (a server may refuse a change made at the same moment as another; the spec does not say):
  // whether it took effect is not known, so it is left pending, to take effect at any point or never.
  ctx.observe(`${step} answered ${res.status}`, { status: res.status, body: res.text.slice(0, 200) });
  return operation;
}

async function runScenario(real: Real, scenario: ConcurrentScenario): Promise<void> {
  const prefix: Operation[] = [];
  for (const [i, command] of scenario.prefix.entries()) prefix.push(await send(real, command, `P${i + 1}`));
  // The branches at the same time, each command of a branch after the one before it.
  const branches = await Promise.all(
    scenario.branches.map(async (branch, b) => {
      const done: Operation[] = [];
      for (const [i, command] of branch.entries()) done.push(await send(real, command, `B${b + 1}.${i + 1}`));
      return done;
    }),
  );
  const { ctx, resourceId, window } = real;
  const invokedAt = performance.now();
  const periods = await showActivityRates(
    ctx,
    { resource_id: resourceId, date_range: text(window) },
    { fresh: true, step: 'show-activity-rates after the parallel commands' },
  );
  const read: Operation = {
    label: 'read',
    call: { kind: 'read' },
    invokedAt,
    response: { answer: { periods }, at: performance.now() },
  };
  const history = [...prefix, ...branches.flat(), read];
  const result = checkLinearizable(history, ratesModel(window));
  judgeHistory(history, result, periods);
}

/** The verdict of one history: an order that explains it passes; none is a FAIL that shows what was tried. */
export function judgeHistory(
  history: readonly Operation[],
  result: LinearizabilityResult,
  periods: readonly ActivityRatePeriod[],
): void {
  if (result.outcome === 'linearizable') return;
  if (result.outcome === 'undecided') {
    throw new HarnessError(
      'DC_ERR_HARNESS',
      `the linearizability search gave up after ${result.steps} steps: the sequence is too long to judge`,
    );
  }
  const start = Math.min(...history.map((op) => op.invokedAt));
  const ms = (t: number): number => Math.round((t - start) * 10) / 10;
  fail({
    where: 'show-activity-rates after the parallel commands: no serial order of the commands explains the answers',
    message: 'must be explained by some serial order of the commands: each answered success, so each change was made',
    expected: {
      ordersTried: result.tried.map((t) => `${t.order.join(' → ')}: ${t.reason}`),
      ...(result.triedCount > result.tried.length ? { moreOrdersTried: result.triedCount - result.tried.length } : {}),
    },
    actual: {
      commands: history
        .filter((op) => op.call.kind !== 'read')
        .map((op) => ({
          command: op.label,
          sentAtMs: ms(op.invokedAt),
          answeredAtMs: op.response ? ms(op.response.at) : 'no answer that says it took effect',
        })),
      periods: periods.map((p) => `${p.date_range} at ${p.average_rate}`),
    },
  });
}

/** Longest period shown: dates a server already accepts for this resource. */
function longestSpan(periods: readonly ActivityRatePeriod[]): DateSpan | undefined {
  const length = (s: DateSpan): number => Date.parse(s.end) - Date.parse(s.start);
  const spans = periods.map((p) => splitRange(p.date_range)).filter((s) => s !== undefined);
  return spans.sort((a, b) => length(b) - length(a))[0];
}

/** Forty days inside the span, a day in from its start. */
function windowIn(span: DateSpan | undefined): DateSpan | undefined {
  if (!span) return undefined;
  const start = addDays(span.start, 1);
  const end = addDays(start, 40);
  return end < span.end ? { start, end } : undefined;
}

const command: fc.Arbitrary<RateCommand> = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 35 }), fc.integer({ min: 2, max: 20 }), fc.integer({ min: 0, max: 100 }))
    .map(([offset, length, rate]): RateCommand => ({ kind: 'assign', offset, length, rate })),
  fc
    .tuple(fc.integer({ min: 0, max: 35 }), fc.integer({ min: 2, max: 20 }))
    .map(([offset, length]): RateCommand => ({ kind: 'unassign', offset, length })),
);

/** Up to two serial commands, then two or three branches of one or two commands: at most three in flight. */
export const scenarios: fc.Arbitrary<ConcurrentScenario> = fc.record({
  prefix: fc.array(command, { maxLength: 2 }),
  branches: fc.array(fc.array(command, { minLength: 1, maxLength: 2 }), { minLength: 2, maxLength: 3 }),
});

const assign = (offset: number, length: number, rate: number): RateCommand => ({
  kind: 'assign',
  offset,
  length,
  rate,
});
const unassign = (offset: number, length: number): RateCommand => ({ kind: 'unassign', offset, length });

export default defineRuleGroup({
  section: '§4.2',
  title: 'Concurrent sequences',
  rules: [
    property({
      id: 'activity-rates.prop.concurrent-sequences',
      clause: '§4.2 Response; §4.7',
      quote: [
        'Assigns an activity rate to a resource for a date range.',
        'Response: status 204, meaning resource activity rate assigned; no body.',
        'Unassigns an activity rate from a resource for a date range.',
        'Assigning a new rate may modify other activity rate periods.',
      ],
      // INFERRED, not MUST: the model keeps a day's rate when another range is assigned, reading §4.2
      // rule 1's "may modify other activity rate periods" as reshaping them (trim, split, merge), not as
      // changing the rate of a day outside the range. The spec does not say so in words, so a lost update
      // is reported and counted apart, and fails the run only with --strict (as activity-rates.no-overlap).
      level: 'INFERRED',
      runs: 4,
      mutates: 'reversible',
      needs: ['roleKindResource', 'workRegime'],
      async check(ctx) {
        const resourceId = await claimRoleResource(ctx);
        const periods = await showActivityRates(ctx, { resource_id: resourceId, date_range: WIDE_RANGE });
        const window = windowIn(longestSpan(periods));
        precondition(window, 'the resource has no rate period of 42 days');
        const real: Real = { ctx, resourceId, window };
        // What was just read is the snapshot; each sequence is put back to it and verified.
        const guard = guardResource(ctx, resourceId, ['rates'], { known: { resourceId, rates: periods } });
        await checkProperty(ctx, scenarios, (scenario) => guard.around(() => runScenario(real, scenario)), {
          examples: [
            // Two assignments on disjoint ranges at once: both must show.
            { prefix: [], branches: [[assign(2, 10, 31)], [assign(20, 10, 67)]] },
            // Over a rate the prefix set: overlapping assignments and an unassignment, three at once.
            {
              prefix: [assign(0, 40, 12)],
              branches: [[assign(4, 12, 45)], [unassign(14, 8)], [assign(26, 10, 78)]],
            },
          ],
        });
      },
    }),
  ],
});
