/**
 * Concurrent sequences (§4.2, §4.7): a short serial prefix of
 * assign-activity-rate and unassign-activity-rate requests on one mutable
 * resource, then two or three branches of them sent at the same time (real
 * parallel requests, at most one per branch in flight and at most
 * MAX_IN_FLIGHT_PER_RESOURCE on the resource), then a read of the
 * window. Each branch's commands go one after the other; the branches
 * overlap in time. The run passes when some serial order of the commands,
 * one that respects real time (a command answered before another was sent
 * comes first), applied to the model, explains every answer and the final
 * read: the linearizability check of src/rules/linearizability.ts. Commands
 * that overlap may land in either order, so an order the spec leaves to the
 * server is never held against it; a history no order explains is a FAIL,
 * with the commands, their times and the orders tried. The driver only
 * sends, each command tagged with its place ("P1 …", "B2.1 …") and the read
 * after them; the judge rebuilds the history from those exchanges (the
 * request each sent, its answer, and when it went and came back: Observed's
 * `at`) and runs the check, so a recorded sequence is judged the same way.
 *
 * Two rules judge these sequences, each by a model of what the spec says,
 * and so each at its level. A day holds the rate assigned last over it, or
 * no period when it was unassigned last; the end day of a range is left open
 * (whether a range includes it is not shown), and so is every day no command
 * of the sequence touched. What an assignment does to the days outside its
 * range is where they differ. §4.2 rule 1 says "Assigning a new rate may
 * modify other activity rate periods": read as the spec words it, another
 * period may change in any way, so an assignment leaves every day outside
 * its range open (as the serial sequences' model does), and what each
 * success must show is its own range, unless a later command covers it
 * (`activity-rates.prop.concurrent-sequences`, MUST: "status 204, meaning
 * resource activity rate assigned"). Read as the reshaping of the periods
 * around the new range (trimmed, split, merged), an assignment keeps the
 * rate of every day outside it, and an update lost between two requests
 * that overlap in time departs from it
 * (`activity-rates.prop.concurrent-other-days-kept`, INFERRED: the spec
 * does not say so in words). Each rule drives its own sequences; the
 * resource is restored after every sequence.
 */
import fc from 'fast-check';
import { matchesSchema, type ActivityRatePeriod } from '../src/schemas/index.ts';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { checkProperty } from '../src/rules/check-property.ts';
import { precondition } from '../src/rules/assertions.ts';
import { claimRoleResource } from '../src/rules/steps/claims.ts';
import { WIDE_RANGE, showActivityRates } from '../src/rules/steps/assignations.ts';
import { guardResource } from '../src/rules/state-guard.ts';
import { allBranches, InFlightPerResource } from '../src/rules/in-flight-per-resource.ts';
import { addDays, splitRange, type DateSpan } from '../src/rules/dates.ts';
import {
  checkLinearizable,
  type HistoryOperation,
  type LinearizabilityResult,
  type SequentialModel,
} from '../src/rules/linearizability.ts';
import type { CheckContext, Judging } from '../src/rules/types.ts';
import {
  accepted,
  firstWithStep,
  isClean,
  isNoVerdict,
  noEvidence,
  type Judgement,
} from '../src/rules/judges/judgement.ts';
import type { Observed } from '../src/rules/judges/observed.ts';
import type { Violation } from '../src/core/types.ts';
import { ordersTried, sentAtMs, timedHistory } from '../src/rules/timed-history.ts';

const accepted2xx = (o: Observed): boolean => o.status >= 200 && o.status < 300;
import { judgeRates } from '../src/rules/judges/effects-model.ts';

/** One command of a sequence, inside the window: an offset and a length in days. */
export type RateCommand =
  | { kind: 'assign'; offset: number; length: number; rate: number }
  | { kind: 'unassign'; offset: number; length: number };

/** A serial prefix, then branches sent at the same time. */
export interface ConcurrentScenario {
  prefix: RateCommand[];
  branches: RateCommand[][];
}

/** What the history holds of each call: a command as it was sent (a rate not sent is none), or the final read. */
export type RateCall =
  | { kind: 'assign'; span: DateSpan; rate: number | undefined }
  | { kind: 'unassign'; span: DateSpan }
  | { kind: 'read' };
/** A command's status, or the periods the read showed. */
export type RateAnswer = { status: number } | { periods: readonly ActivityRatePeriod[] };

/** A day's rate, or null when no period may cover it; a day not in the map is open. */
export type RateState = ReadonlyMap<string, number | null>;

export function describeCommand(c: RateCommand): string {
  return c.kind === 'assign'
    ? `assignRate(+${c.offset}, ${c.length} days, ${c.rate})`
    : `unassignRate(+${c.offset}, ${c.length} days)`;
}

export function rangeIn(window: DateSpan, offset: number, length: number): DateSpan {
  const start = addDays(window.start, offset);
  const end = addDays(start, length);
  return { start, end: end > window.end ? window.end : end };
}

const text = (s: DateSpan): string => `${s.start}/${s.end}`;

/**
 * What an assignment does to the days outside its range: leaves them open
 * (§4.2 rule 1 as it is worded: it "may modify other activity rate
 * periods") or keeps their rate (the rule read as reshaping those periods).
 */
export type OtherDays = 'open' | 'kept';

/**
 * The model of the sequence: a serial command sets the days of its range (the
 * end day left open); an unassignment leaves the rate of every other day as
 * it was, an assignment leaves them as `otherDays` says; the read must agree
 * with the model, judged by `judgeRates`. An assignment that sent no rate
 * leaves its days open.
 */
export function ratesModel(otherDays: OtherDays): SequentialModel<RateState, RateCall, RateAnswer> {
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
      const { span } = call;
      const next = call.kind === 'assign' && otherDays === 'open' ? new Map<string, number | null>() : new Map(state);
      for (let d = span.start; d < span.end; d = addDays(d, 1)) {
        if (call.kind === 'unassign') next.set(d, null);
        else if (call.rate === undefined) next.delete(d);
        else next.set(d, call.rate);
      }
      next.delete(span.end);
      return { state: next, judge: (answer) => ('status' in answer ? undefined : 'not a command') };
    },
  };
}

/** Why a read departs from the model, in one line: the first day that departs, what it must show and what it shows. */
function describeDeparture(state: RateState, periods: readonly ActivityRatePeriod[]): string | undefined {
  const v = judgeRates({ rates: new Map(state) }, periods, 'this order')[0];
  if (!v) return undefined;
  const day = / on (\S+)$/.exec(v.where)?.[1] ?? '';
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
  /** Holds the requests at once on the resource to the bound, whatever shape a drawn scenario has. */
  inFlight: InFlightPerResource;
}

type Operation = HistoryOperation<RateCall, RateAnswer>;

/** The steps the driver tags its requests with, which the judge reads. */
const STEP = {
  /** A command: its place in the sequence ("P1", the prefix; "B2.1", the first of branch 2) and what it does. */
  command: /^(?:P\d+|B\d+\.\d+) /,
  read: 'show-activity-rates after the parallel commands',
} as const;

/** Sends one command, tagged with its place and what it does. */
async function send(real: Real, command: RateCommand, label: string): Promise<void> {
  const { ctx, resourceId, window } = real;
  const span = text(rangeIn(window, command.offset, command.length));
  const step = `${label} ${describeCommand(command)}`;
  const res = await real.inFlight.send(resourceId, () =>
    command.kind === 'assign'
      ? ctx.client.post(
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
      : ctx.client.post('resources.unassign-activity-rate', { resource_id: resourceId, date_range: span }, { step }),
  );
  // Refused (a server may refuse a change made at the same moment as another; the spec does not say):
  // the judge leaves it pending, to take effect at any point or never.
  if (res.status < 200 || res.status >= 300) {
    ctx.observe(`${step} answered ${res.status}`, { status: res.status, body: res.text.slice(0, 200) });
  }
}

async function runScenario(real: Real, scenario: ConcurrentScenario): Promise<void> {
  for (const [i, command] of scenario.prefix.entries()) await send(real, command, `P${i + 1}`);
  // The branches at the same time, each command of a branch after the one before it.
  await allBranches(
    scenario.branches.map(async (branch, b) => {
      for (const [i, command] of branch.entries()) await send(real, command, `B${b + 1}.${i + 1}`);
    }),
  );
  const { ctx, resourceId } = real;
  // The whole state (the judge looks at the window's days): the same read restoring makes first, so it is not sent twice.
  await showActivityRates(ctx, { resource_id: resourceId, date_range: WIDE_RANGE }, { fresh: true, step: STEP.read });
}

/** The command a request sent, from its body; undefined when it names no range. */
function callOf(o: Observed): RateCall | undefined {
  if (o.operation === 'resources.assign-activity-rate' && matchesSchema('AssignActivityRateRequest', o.request)) {
    const span = splitRange(o.request.date_range);
    return span && { kind: 'assign', span, rate: o.request.average_rate };
  }
  if (o.operation === 'resources.unassign-activity-rate' && matchesSchema('UnassignActivityRateRequest', o.request)) {
    const span = o.request.date_range === undefined ? undefined : splitRange(o.request.date_range);
    return span && { kind: 'unassign', span };
  }
  return undefined;
}

/**
 * A rule's judge: the history rebuilt from the commands' exchanges and the
 * read after them, each with when it went and when its answer came; some
 * serial order that respects real time must explain it under the model
 * `otherDays` gives. Pure: the same function judges a recorded sequence.
 */
export function judgeParallelCommands(log: readonly Observed[], otherDays: OtherDays): Judgement {
  const commands = log.filter(
    (o) =>
      STEP.command.test(o.step) &&
      (o.operation === 'resources.assign-activity-rate' || o.operation === 'resources.unassign-activity-rate'),
  );
  const o = firstWithStep(log, STEP.read);
  if (commands.length === 0 || !o) return noEvidence('no commands, or no read after them');
  const answer = accepted(o, { status: 200 });
  if (isNoVerdict(answer)) return answer;
  // The read's shape is show-activity-rates.response-shape's: a body of another shape says nothing here.
  if (!isClean(answer) || !matchesSchema('ActivityRatePeriodList', o.body)) {
    return noEvidence(`${o.step} showed no list of periods`);
  }
  const periods = o.body;
  // Refused: whether it took effect is not known, so it is left pending, to take effect at any point or never.
  const history = timedHistory(commands, { o, call: { kind: 'read' }, answer: { periods } }, callOf, accepted2xx);
  if (typeof history === 'string') return noEvidence(history);
  return judgeHistory(history, checkLinearizable(history, ratesModel(otherDays)), periods);
}

/** The verdict of one history: an order that explains it passes; none is a violation that shows what was tried. */
export function judgeHistory(
  history: readonly Operation[],
  result: LinearizabilityResult,
  periods: readonly ActivityRatePeriod[],
): Judgement {
  if (result.outcome === 'linearizable') return [];
  if (result.outcome === 'undecided') {
    return noEvidence(
      `the linearizability search gave up after ${result.steps} steps: the sequence is too long to judge`,
    );
  }
  const ms = sentAtMs(history);
  const violation: Violation = {
    where: `${STEP.read}: no serial order of the commands explains the answers`,
    message: 'must be explained by some serial order of the commands: each answered success, so each change was made',
    expected: ordersTried(result),
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
  };
  return [violation];
}

/** Longest period shown: dates a server already accepts for this resource. */
function longestSpan(periods: readonly ActivityRatePeriod[]): DateSpan | undefined {
  const length = (s: DateSpan): number => Date.parse(s.end) - Date.parse(s.start);
  const spans = periods.map((p) => splitRange(p.date_range)).filter((s) => s !== undefined);
  return spans.sort((a, b) => length(b) - length(a))[0];
}

/** Forty days inside the span, a day in from its start. */
export function windowIn(span: DateSpan | undefined): DateSpan | undefined {
  if (!span) return undefined;
  const start = addDays(span.start, 1);
  const end = addDays(start, 40);
  return end < span.end ? { start, end } : undefined;
}

// Assignments twice as often as unassignments: two branches then open with assignments sent at once in most
// runs (two of three with three branches), the case a server that takes writes overlapping in time for a conflict
// gets wrong, while every run still draws unassignments too.
const command: fc.Arbitrary<RateCommand> = fc.oneof(
  {
    arbitrary: fc
      .tuple(fc.integer({ min: 0, max: 35 }), fc.integer({ min: 2, max: 20 }), fc.integer({ min: 0, max: 100 }))
      .map(([offset, length, rate]): RateCommand => ({ kind: 'assign', offset, length, rate })),
    weight: 2,
  },
  {
    arbitrary: fc
      .tuple(fc.integer({ min: 0, max: 35 }), fc.integer({ min: 2, max: 20 }))
      .map(([offset, length]): RateCommand => ({ kind: 'unassign', offset, length })),
    weight: 1,
  },
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

/**
 * The driver both rules share: sequences on a claimed resource's window,
 * each restored and verified, the three fixed ones first (of the four runs
 * each rule makes by default).
 */
async function driveSequences(ctx: CheckContext<'roleKindResource' | 'workRegime'> & Judging): Promise<void> {
  const resourceId = await claimRoleResource(ctx);
  const periods = await showActivityRates(ctx, { resource_id: resourceId, date_range: WIDE_RANGE });
  const window = windowIn(longestSpan(periods));
  precondition(window, 'the resource has no rate period of 42 days');
  const real: Real = { ctx, resourceId, window, inFlight: new InFlightPerResource() };
  // What was just read is the snapshot; each sequence is put back to it and verified.
  const guard = guardResource(ctx, resourceId, ['rates'], { known: { resourceId, rates: periods } });
  await checkProperty(ctx, scenarios, (scenario) => ctx.judged(() => guard.around(() => runScenario(real, scenario))), {
    examples: [
      // Over a rate the prefix set, two unassignments at once: no later assignment may modify their ranges, so
      // both must show no period whatever order they landed in.
      { prefix: [assign(0, 40, 12)], branches: [[unassign(4, 8)], [unassign(20, 8)]] },
      // Two assignments on disjoint ranges at once: both must show where other days keep their rates, the one
      // that landed last wherever they may not.
      { prefix: [], branches: [[assign(2, 10, 31)], [assign(20, 10, 67)]] },
      // Over a rate the prefix set: overlapping assignments and an unassignment, three at once.
      {
        prefix: [assign(0, 40, 12)],
        branches: [[assign(4, 12, 45)], [unassign(14, 8)], [assign(26, 10, 78)]],
      },
    ],
  });
}

/** What each rule quotes: the operations' stated effects, and the rule that lets an assignment change other periods. */
const EFFECTS = [
  'Assigns an activity rate to a resource for a date range.',
  'Response: status 204, meaning resource activity rate assigned; no body.',
  'Unassigns an activity rate from a resource for a date range.',
  'Assigning a new rate may modify other activity rate periods.',
];

export default defineRuleGroup({
  section: '§4.2',
  title: 'Concurrent sequences',
  rules: [
    property({
      id: 'activity-rates.prop.concurrent-sequences',
      timing: true,
      concurrent: true,
      clause: '§4.2 Response; §4.2 rule 1; §4.7',
      quote: EFFECTS,
      // MUST: each success is "resource activity rate assigned" (or unassigned, §4.7), so some serial order must
      // show each one's range as it set it, unless a later command in that order covers it. Other periods may be
      // modified by a later assignment (§4.2 rule 1), so the days outside its range are open: an order the spec
      // leaves to the server, or a modification it allows, never fails this rule.
      level: 'MUST',
      runs: 4,
      mutates: 'reversible',
      needs: ['roleKindResource', 'workRegime'],
      drive: driveSequences,
      judge: (log) => judgeParallelCommands(log, 'open'),
    }),
    property({
      id: 'activity-rates.prop.concurrent-other-days-kept',
      timing: true,
      concurrent: true,
      clause: '§4.2 Response; §4.2 rule 1; §4.7',
      quote: EFFECTS,
      // INFERRED, not MUST: the model keeps a day's rate when another range is assigned, reading §4.2 rule 1's
      // "may modify other activity rate periods" as reshaping them (trim, split, merge), not as changing the rate
      // of a day outside the range. The spec does not say so in words: read as worded, a later assignment may
      // change an earlier one's period, and an update lost between two that overlap in time could be such a
      // change. A departure is reported and counted apart, and fails the run only with --strict.
      level: 'INFERRED',
      runs: 4,
      mutates: 'reversible',
      needs: ['roleKindResource', 'workRegime'],
      drive: driveSequences,
      judge: (log) => judgeParallelCommands(log, 'kept'),
    }),
  ],
});
