/**
 * §4.7 resources.unassign-activity-rate over its whole input space, pairwise:
 * the operation's input model (src/rules/input-models/unassign-activity-rate.ts,
 * derived from its request schema) makes its DateRange two factors, where it
 * lies against the resource's own periods (inside one, exactly one, across a
 * start or an end, adjacent, over two) and where its ends fall (ordinary days, a month's
 * first and last day, a year's end, 29 February). A covering array drawn from
 * the run's seed holds every pair. The rule first lays three periods of its
 * own side by side over two calendar years inside a held resource's period
 * (every value around the rows is one it set, whatever the resource held);
 * each row is the range those classes give around the layout's periods as
 * the last read showed them (date-ranges.ts, never faked: a class the data
 * cannot give is a row not judged; the position holds on the days the range
 * certainly covers), unassigned after the rows before it, so later rows land
 * on what earlier ones changed, and read back whole at once. The rows over
 * exactly one period go first, while the periods are whole (a range that is
 * no period's is no such row). The resource is
 * restored once.
 *
 * Oracles that need no open choice, judged by `judgeUnassignRows` with every
 * range, sent and shown, read with its end day included and again with it
 * excluded (which a range means is not shown; a conformant server reads all
 * of them one way), a departure being one under both readings:
 * - an unassignment answered as done leaves no period over its range;
 * - a day no unassignment named keeps the rate it had (§4.7 unassigns "for a
 *   date range"; the model-based sequences hold the same);
 * - documented values are accepted: every row sends a resource the target
 *   holds and a well-formed range, so a refusal departs.
 */
import fc from 'fast-check';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { precondition } from '../src/rules/assertions.ts';
import { checkProperty } from '../src/rules/check-property.ts';
import { addDays, splitRange, type DateSpan } from '../src/rules/dates.ts';
import { drawCoveringArray, pairCoverage } from '../src/rules/input-models/coverage.ts';
import { unassignActivityRateInputModel } from '../src/rules/input-models/unassign-activity-rate.ts';
import { drawRange, RANGE_ENDS, RANGE_POSITIONS } from '../src/rules/input-models/date-ranges.ts';
import { endsFactor } from '../src/rules/input-models/reads.ts';
import { claimRoleResource } from '../src/rules/steps/claims.ts';
import { WIDE_RANGE, showActivityRates } from '../src/rules/steps/assignations.ts';
import { guardResource } from '../src/rules/state-guard.ts';
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
import { matchesSchema, type ActivityRatePeriod } from '../src/schemas/index.ts';
import type { Violation } from '../src/core/types.ts';
import { UNASSIGN_ROWS_AROUND_DAYS } from '../src/core/unassign-rows.ts';

export const UNASSIGN_ROW_STEP = {
  layout: (k: number) => `assign-activity-rate unassign layout ${k}`,
  before: 'show-activity-rates before the unassign rows',
  row: (n: number, range: string) => `unassign-activity-rate pairwise row ${n} (${range})`,
  read: (rowStep: string) => `show-activity-rates after ${rowStep}`,
} as const;
const ROW_PREFIX = 'unassign-activity-rate pairwise row ';

interface LaidPeriod {
  start: string;
  end: string;
  rate: number;
}

const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/**
 * The two calendar years the rule lays its three periods in, inside one of
 * the resource's periods (so the period goes on around them), a leap year
 * first where one fits: January to June, July to the next June (over a
 * year's end), July to December, each with a rate of its own, unlike the
 * period's and each other's. So every class of a range has data to lie
 * against: 29 February inside a period, a year's end inside one and at one's
 * end.
 */
function layoutIn(periods: readonly ActivityRatePeriod[]): readonly LaidPeriod[] | undefined {
  const fits = periods.flatMap((p) => {
    const span = splitRange(p.date_range);
    if (!span) return [];
    const first = Number(span.start.slice(0, 4)) + 1;
    const years = Array.from({ length: 8 }, (_, i) => first + i).filter((y) => `${y + 1}-12-31` < span.end);
    return years.map((year) => ({ year, rate: Math.round(p.average_rate) }));
  });
  const chosen = fits.find((f) => isLeap(f.year)) ?? fits[0];
  if (!chosen) return undefined;
  const { year, rate } = chosen;
  return [
    { start: `${year}-01-01`, end: `${year}-06-30`, rate: (rate + 17) % 100 },
    { start: `${year}-07-01`, end: `${year + 1}-06-30`, rate: (rate + 41) % 100 },
    { start: `${year + 1}-07-01`, end: `${year + 1}-12-31`, rate: (rate + 63) % 100 },
  ];
}

/** The laid periods with their places in the layout, in the order they are assigned: the longest last. */
function layoutOrder(layout: readonly LaidPeriod[]): Array<[number, LaidPeriod]> {
  const days = (p: LaidPeriod): number => Date.parse(p.end) - Date.parse(p.start);
  return [...layout.entries()].sort(([, a], [, b]) => days(a) - days(b));
}

async function drive(ctx: CheckContext<'roleKindResource'> & Judging): Promise<void> {
  const model = unassignActivityRateInputModel(ctx.profile);
  const array = drawCoveringArray(model, ctx.options.seed, ctx.options.depth);
  precondition(array, 'no covering array was drawn for resources.unassign-activity-rate');
  const positionAt = array.factors.findIndex((f) => f.name === 'date_range');
  const endsAt = array.factors.findIndex((f) => f.name === endsFactor('date_range'));
  const resourceId = await claimRoleResource(ctx);
  const wide = { resource_id: resourceId, date_range: WIDE_RANGE };
  const periods = await showActivityRates(ctx, wide);
  const spansOf = (shown: readonly ActivityRatePeriod[]): DateSpan[] =>
    shown.flatMap((p) => splitRange(p.date_range) ?? []);
  const layout = layoutIn(periods);
  precondition(layout, 'the resource has no activity rate period over two whole calendar years to lay periods in');
  const judged = array.rows.map(() => false);
  const guard = guardResource(ctx, resourceId, ['rates'], { known: { resourceId, rates: periods } });
  try {
    await checkProperty(ctx, fc.constant(null), () =>
      ctx.judged(() =>
        guard.around(async () => {
          // Periods of the rule's own, side by side over two years: the rows lie around data whose every
          // value the rule set, whatever the resource held before (and whoever held it before). The longest
          // is laid last: the first row, right after it (a second step on the first's data), is then never
          // that period's range exactly (a row over exactly one period takes the shortest that suits).
          for (const [k, part] of layoutOrder(layout)) {
            const res = await ctx.client.post(
              'resources.assign-activity-rate',
              { resource_id: resourceId, date_range: `${part.start}/${part.end}`, average_rate: part.rate },
              { step: UNASSIGN_ROW_STEP.layout(k + 1) },
            );
            precondition(
              res.status >= 200 && res.status < 300,
              `the layout's period ${k + 1} was refused (${res.status})`,
            );
          }
          const laid = await showActivityRates(ctx, wide, { step: UNASSIGN_ROW_STEP.before, fresh: true });
          const years = { start: layout[0]?.start ?? '', end: layout.at(-1)?.end ?? '' };
          // Only the periods over the layout's years: the rows lie around the rule's own data.
          const ownOf = (shown: readonly ActivityRatePeriod[]): DateSpan[] =>
            spansOf(shown).filter((p) => p.start <= years.end && years.start <= p.end);
          const asLaid = ownOf(laid);
          let spans = asLaid;
          // Ranges whose end day may be read either way; the days clocks change in the profile's zones.
          const drawing = { endOpen: true, ...(ctx.profile.timeZones ? { zones: ctx.profile.timeZones } : {}) };
          // The rows over exactly one period go first, while the laid periods are whole.
          const exactly = (row: readonly string[]): boolean => row[positionAt] === 'exactly one';
          const rows = [...array.rows.entries()];
          for (const [i, row] of [...rows.filter(([, r]) => exactly(r)), ...rows.filter(([, r]) => !exactly(r))]) {
            // The row's range from its classes around the periods as the last read showed them, so that
            // "inside one" lies inside one as the row is sent; where the rows before left too little, around
            // the periods as laid. A class neither gives is no row.
            const position = RANGE_POSITIONS.find((c) => c === row[positionAt]);
            const ends = RANGE_ENDS.find((c) => c === row[endsAt]);
            // Exactly one period is one the last read showed, or no row.
            const range =
              position && ends
                ? (drawRange(spans, position, ends, drawing) ??
                  (exactly(row) ? undefined : drawRange(asLaid, position, ends, drawing)))
                : undefined;
            if (range === undefined) continue;
            const step = UNASSIGN_ROW_STEP.row(i + 1, row.join(', '));
            const res = await ctx.client.post(
              'resources.unassign-activity-rate',
              { resource_id: resourceId, date_range: range },
              { step },
            );
            judged[i] = res.status < 500 && res.status !== 429;
            if (res.status < 200 || res.status >= 300) continue;
            // Read at once, whole: a later row must not hide what this one did, and the next row is drawn on it.
            const shown = await showActivityRates(ctx, wide, { step: UNASSIGN_ROW_STEP.read(step), fresh: true });
            spans = ownOf(shown);
          }
        }),
      ),
    );
  } finally {
    ctx.observe('pairwise coverage of resources.unassign-activity-rate', pairCoverage(model, array, judged));
  }
}

/**
 * How a server reads a range's end day: included, or not. Which it is, is not
 * shown; a conformant server reads every range, sent and shown, one way.
 */
type EndDay = 'included' | 'excluded';

/** Whether `day` lies in `span` as `end` reads its end day. */
function within(span: DateSpan, day: string, end: EndDay): boolean {
  return span.start <= day && (end === 'included' ? day <= span.end : day < span.end);
}

/** Each read's periods with their ranges read once: a row's judge asks of every day around it. */
const spansShown = new WeakMap<readonly ActivityRatePeriod[], Array<{ span: DateSpan; rate: number }>>();

/** The rate shown over `day` as `end` reads the ranges shown, or null where no period covers it. */
function rateOn(periods: readonly ActivityRatePeriod[], day: string, end: EndDay): number | null {
  let spans = spansShown.get(periods);
  if (!spans) {
    spans = periods.flatMap((p) => {
      const span = splitRange(p.date_range);
      return span ? [{ span, rate: p.average_rate }] : [];
    });
    spansShown.set(periods, spans);
  }
  return spans.find((p) => within(p.span, day, end))?.rate ?? null;
}

/** The periods a read showed, or what its answer says instead (a refusal, no verdict, no list). */
function periodsOf(o: Observed | undefined): { periods: ActivityRatePeriod[] } | { judgement: Judgement } {
  if (!o) return { judgement: noEvidence('no read of the periods') };
  const answer = accepted(o, { status: 200 });
  if (!isClean(answer)) return { judgement: answer };
  // The read's shape is show-activity-rates.response-shape's: a body of another shape says nothing here.
  return matchesSchema('ActivityRatePeriodList', o.body)
    ? { periods: o.body }
    : { judgement: noEvidence(`${o.step} showed no list`) };
}

/** The first day, by date, of `days` where `departs` says the read departs; undefined when none does. */
function firstDeparting(days: readonly string[], departs: (day: string) => boolean): string | undefined {
  // The days come in order (from the first around a row to the last).
  return days.find(departs);
}

/**
 * The judge of the rows: after each row, the read around its range against
 * the read before the rows with every row so far applied. Pure: the same
 * function judges a recorded run.
 */
export function judgeUnassignRows(log: readonly Observed[]): Judgement {
  const included = judgeAs(log, 'included');
  if (!Array.isArray(included) || included.length === 0) return included;
  // A departure only where the ranges read with their end day excluded depart too: either way of reading
  // them is a conformant server's, and one that departs whichever it chose departs.
  const excluded = judgeAs(log, 'excluded');
  return Array.isArray(excluded) && excluded.length === 0 ? [] : included;
}

/** The rows judged with every range, sent and shown, read as `end` says. */
function judgeAs(log: readonly Observed[], end: EndDay): Judgement {
  const rows = log.filter((o) => o.step.startsWith(ROW_PREFIX) && o.operation === 'resources.unassign-activity-rate');
  if (rows.length === 0) return noEvidence('no pairwise row was sent');
  const first = periodsOf(firstWithStep(log, UNASSIGN_ROW_STEP.before));
  if (!('periods' in first)) return first.judgement;
  const before = first.periods;
  const violations: Violation[] = [];
  /** Days a row so far answered as done unassigned, and the ranges every row named. */
  const removed = new Map<string, string>();
  const named: DateSpan[] = [];
  let judgedRows = 0;
  for (const o of rows) {
    if (!matchesSchema('UnassignActivityRateRequest', o.request)) continue;
    const span = splitRange(o.request.date_range ?? '');
    if (!span) continue;
    named.push(span);
    const answer = accepted(o);
    if (isNoVerdict(answer)) return answer;
    if (!isClean(answer)) {
      if (o.status >= 400 && o.status < 500) {
        violations.push({
          where: `${o.step}: response.status`,
          message: 'must accept an unassignment of a resource the target holds over a well-formed range',
          expected: '2xx',
          actual: `${o.status} ${o.text.slice(0, 200)}`,
        });
      }
      continue;
    }
    for (let d = span.start; within(span, d, end); d = addDays(d, 1)) removed.set(d, o.step);
    const read = firstWithStep(log, UNASSIGN_ROW_STEP.read(o.step));
    const shown = periodsOf(read);
    if (!('periods' in shown)) {
      // A 429 or 5xx says nothing; a read refused is show-activity-rates' own rules' to judge.
      if (isNoVerdict(shown.judgement)) return shown.judgement;
      continue;
    }
    if (!read) continue;
    const after = shown.periods;
    judgedRows += 1;
    // The days around the row's range: what it may have done wrong lies there.
    const days: string[] = [];
    const last = addDays(span.end, UNASSIGN_ROWS_AROUND_DAYS);
    for (let d = addDays(span.start, -UNASSIGN_ROWS_AROUND_DAYS); d <= last; d = addDays(d, 1)) days.push(d);
    const stillCovered = firstDeparting(
      days.filter((d) => removed.has(d)),
      (d) => rateOn(after, d, end) !== null,
    );
    if (stillCovered !== undefined) {
      violations.push({
        where: `${read.step}: date_range on ${stillCovered}`,
        message: `must show no period over a day an unassignment answered as done covered (${removed.get(stillCovered) ?? ''})`,
        expected: 'no period',
        actual: after.filter((p) => {
          const s = splitRange(p.date_range);
          return s !== undefined && within(s, stillCovered, end);
        }),
      });
    }
    const untouched = days.filter((d) => !named.some((s) => within(s, d, end)));
    const lost = firstDeparting(untouched, (d) => rateOn(before, d, end) !== rateOn(after, d, end));
    if (lost !== undefined) {
      violations.push({
        where: `${read.step}: average_rate on ${lost}`,
        message: 'must keep the rate of a day no unassignment named',
        expected: rateOn(before, lost, end) ?? 'no period',
        actual: rateOn(after, lost, end) ?? 'no period',
      });
    }
    if (violations.length > 0) return violations;
  }
  if (violations.length > 0) return violations;
  return judgedRows === 0 ? noEvidence('no row was answered as done and read back') : [];
}

export default defineRuleGroup({
  section: '§4.7',
  title: 'Activity-rate unassignments: every pair of input classes',
  rules: [
    property({
      id: 'activity-rates.prop.unassign-pairwise-combinations',
      clause: '§4.7; §4.4',
      quote: [
        'Unassigns an activity rate from a resource for a date range.',
        'Retrieves activity rate periods of a resource, with per-weekday patterns and associated or inherited work regimes.',
      ],
      level: 'MUST',
      // One covering array per run: its rows are the run's unassignments.
      runs: 1,
      mutates: 'reversible',
      needs: ['roleKindResource'],
      drive,
      judge: judgeUnassignRows,
    }),
  ],
});
