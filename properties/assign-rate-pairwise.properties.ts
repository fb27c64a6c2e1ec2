/**
 * §4.2 resources.assign-activity-rate over its whole input space, pairwise:
 * the operation's input model (src/rules/input-models/assign-activity-rate.ts,
 * derived from its request schema) gives each field its value classes, a
 * covering array drawn from the run's seed holds every pair of classes in
 * some row, and each row is an assignment read back over its range at once:
 * a week of its own inside one of a held resource's periods (touching the
 * period the row before made), or exactly the range of a period the resource
 * holds (the one the last row done made: a server may take an existing range
 * for an update of that period). Then one
 * complete row (every field sent, the pattern left to its documented default)
 * for each work-regime class, alternating ASCII and non-ASCII external_id.
 * The resource is restored once after the rows.
 *
 * Oracles that need no open choice, judged by `judgeAssignRows`:
 * - round trip: an assignment answered as done shows a period over its week
 *   carrying what it sent: the rate (shown as an integer: within 0.5), the
 *   work regime it named, each flag sent (indemnity and compensation unless
 *   shown redacted), and every week of the pattern sent, weekday by weekday;
 * - the default pattern: without `activity_rate_patterns`, every week shown
 *   spreads the rate evenly over as many days as the shown period's own work
 *   regime works (which weekdays is not shown);
 * - documented values are accepted: a complete row (every value documented
 *   and valid for the target: its resource, its regime or null, a whole rate
 *   between 0 and 100, booleans, text) is never refused.
 * A row that leaves a field out and is refused is the server's choice
 * (which fields are required is not shown): observed, not judged.
 */
import fc from 'fast-check';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { precondition } from '../src/rules/assertions.ts';
import { checkProperty } from '../src/rules/check-property.ts';
import { addDays, covers, splitRange, type DateSpan } from '../src/rules/dates.ts';
import { drawCoveringArray, pairCoverage } from '../src/rules/input-models/coverage.ts';
import {
  assignActivityRateInputModel,
  EXISTING_PERIOD,
  regimeClass,
} from '../src/rules/input-models/assign-activity-rate.ts';
import { OMITTED } from '../src/rules/input-models/model.ts';
import { claimRoleResource } from '../src/rules/steps/claims.ts';
import { WIDE_RANGE, showActivityRates } from '../src/rules/steps/assignations.ts';
import { guardResource } from '../src/rules/state-guard.ts';
import type { CheckContext, Judging } from '../src/rules/types.ts';
import {
  accepted,
  isClean,
  isNoVerdict,
  noEvidence,
  refusedComplete,
  type Judgement,
} from '../src/rules/judges/judgement.ts';
import type { Observed } from '../src/rules/judges/observed.ts';
import {
  matchesSchema,
  type ActivityRatePattern,
  type ActivityRatePeriod,
  type AssignActivityRateRequest,
} from '../src/schemas/index.ts';
import type { Violation } from '../src/core/types.ts';
import { spreadEvenly, WEEKDAYS } from '../src/rules/judges/rate-patterns.ts';

/** Each row's assignment and the read of its week; a complete row says so in its step. */
export const ASSIGN_ROW_STEP = {
  assign: (n: number, complete: boolean) => `assign-activity-rate pairwise row ${n}${complete ? ' (complete)' : ''}`,
  read: (assignStep: string) => `show-activity-rates after ${assignStep}`,
} as const;
const ASSIGN_PREFIX = 'assign-activity-rate pairwise row ';

/** The days each row's range spans: a week, the next row's starting the day after it ends. */
const ROW_DAYS = 7;

type Row = ReadonlyMap<string, string>;

/** Week `k` of a pattern: the rate on five days in a row, starting `k` days after Monday (so weeks differ). */
function week(rate: number, k: number): ActivityRatePattern {
  const day = (i: number): number => ((i - k + 7) % 7 < 5 ? rate : 0);
  const [monday, tuesday, wednesday, thursday, friday, saturday, sunday] = WEEKDAYS.map((_, i) => day(i));
  return {
    monday: monday ?? 0,
    tuesday: tuesday ?? 0,
    wednesday: wednesday ?? 0,
    thursday: thursday ?? 0,
    friday: friday ?? 0,
    saturday: saturday ?? 0,
    sunday: sunday ?? 0,
  };
}

/** A number to tell one run's external ids from another's: "unique across the instance" (§4.2). */
let runNumber = 0;

/** The body a row's classes ask for. */
function bodyOf(
  row: Row,
  n: number,
  resourceId: string,
  range: DateSpan,
  regimeIds: readonly string[],
  tag: string,
): AssignActivityRateRequest {
  const body: AssignActivityRateRequest = { resource_id: resourceId, date_range: `${range.start}/${range.end}` };
  const whole = 20 + ((n * 7) % 60);
  const rate = row.get('average_rate');
  if (rate === 'whole') body.average_rate = whole;
  if (rate === 'fraction') body.average_rate = whole + 0.25;
  const regime = row.get('work_regime_id');
  if (regime === 'null') body.work_regime_id = null;
  const index = regimeIds.findIndex((_, i) => regimeClass(i) === regime);
  if (index >= 0) body.work_regime_id = regimeIds[index];
  for (const flag of ['indemnity_enabled', 'compensation_enabled', 'trainee', 'apprentice', 'paid_hourly'] as const) {
    const cls = row.get(flag);
    if (cls === 'true' || cls === 'false') body[flag] = cls === 'true';
  }
  const patterns = row.get('activity_rate_patterns');
  if (patterns === 'one week') body.activity_rate_patterns = [week(whole, 0)];
  if (patterns === 'several weeks') {
    body.activity_rate_patterns = Array.from({ length: 2 + (n % 3) }, (_, k) => week(whole, k));
  }
  const text = row.get('external_id');
  if (text === 'ascii') body.external_id = `dc-${tag}-${n}`;
  if (text === 'non-ascii') body.external_id = `dc-${tag}-${n}-Zürich-Straße-東京-🚀`;
  return body;
}

/** The rows a complete row is sent for: one per work-regime class, text alternating. */
function completeRows(regimeClasses: readonly string[]): Row[] {
  return regimeClasses.map(
    (regime, i) =>
      new Map([
        ['average_rate', 'whole'],
        ['work_regime_id', regime],
        ['indemnity_enabled', 'true'],
        ['compensation_enabled', 'false'],
        ['trainee', i % 2 === 0 ? 'false' : 'true'],
        ['apprentice', i % 2 === 0 ? 'true' : 'false'],
        ['paid_hourly', 'false'],
        ['activity_rate_patterns', OMITTED],
        ['external_id', i % 2 === 0 ? 'non-ascii' : 'ascii'],
      ]),
  );
}

async function drive(ctx: CheckContext<'roleKindResource' | 'workRegime'> & Judging): Promise<void> {
  const model = assignActivityRateInputModel(ctx.profile);
  const array = drawCoveringArray(model, ctx.options.seed, ctx.options.depth);
  precondition(array, 'no covering array was drawn for resources.assign-activity-rate');
  const drawn: Row[] = array.rows.map((classes) => new Map(classes.map((c, f) => [array.factors[f]?.name ?? '', c])));
  // A row over exactly an existing period needs a row done before it: one of a week of its own goes first.
  const ordered = ownWeekFirst(drawn);
  const rows = ordered.map(([, row]) => row);
  const regimeClasses = ['null', ...ctx.workRegimeIds.map((_, i) => regimeClass(i))];
  const complete = completeRows(regimeClasses);
  const judged = drawn.map(() => false);
  const resourceId = await claimRoleResource(ctx);
  const periods = await showActivityRates(ctx, { resource_id: resourceId, date_range: WIDE_RANGE });
  const needed = (rows.length + complete.length) * ROW_DAYS + 2;
  const window = periods
    .map((p) => splitRange(p.date_range))
    .find((s) => s !== undefined && addDays(s.start, needed) < s.end);
  precondition(window, `the resource has no activity rate period of ${needed} days to assign the rows inside`);
  runNumber += 1;
  const tag = `${resourceId}-${ctx.options.seed}-${runNumber}`;
  const guard = guardResource(ctx, resourceId, ['rates'], { known: { resourceId, rates: periods } });
  try {
    await checkProperty(ctx, fc.constant(null), () =>
      ctx.judged(() =>
        guard.around(async () => {
          // The range of the last row done: a period the resource holds now.
          let lastDone: DateSpan | undefined;
          for (const [i, row] of [...rows, ...complete].entries()) {
            const start = addDays(window.start, 1 + i * ROW_DAYS);
            const existing = row.get('date_range') === EXISTING_PERIOD ? lastDone : undefined;
            const range = existing ?? { start, end: addDays(start, ROW_DAYS - 1) };
            const isComplete = i >= rows.length;
            const step = ASSIGN_ROW_STEP.assign(i + 1, isComplete);
            const body = bodyOf(row, i + 1, resourceId, range, ctx.workRegimeIds, tag);
            const res = await ctx.client.post('resources.assign-activity-rate', body, { step });
            if (res.status >= 200 && res.status < 300) {
              lastDone = range;
              const read = { resource_id: resourceId, date_range: body.date_range };
              await showActivityRates(ctx, read, { step: ASSIGN_ROW_STEP.read(step), fresh: true });
            } else if (!isComplete) {
              ctx.observe(`${step}: refused with a field left out`, {
                status: res.status,
                row: Object.fromEntries(row),
              });
            }
            // A row of an existing period that found none was not the row drawn: its pairs stay uncovered.
            const asDrawn = row.get('date_range') !== EXISTING_PERIOD || existing !== undefined;
            const drawnAt = ordered[i]?.[0];
            if (drawnAt !== undefined) judged[drawnAt] = asDrawn && res.status < 500 && res.status !== 429;
          }
        }),
      ),
    );
  } finally {
    ctx.observe('pairwise coverage of resources.assign-activity-rate', pairCoverage(model, array, judged));
  }
}

/** The rows with their places in the covering array, as they are sent: the first of a week of its own, then the rest. */
function ownWeekFirst(rows: readonly Row[]): Array<[number, Row]> {
  const entries = [...rows.entries()];
  const first = entries.find(([, row]) => row.get('date_range') !== EXISTING_PERIOD);
  return first === undefined ? entries : [first, ...entries.filter((e) => e !== first)];
}

/** Is a request one whose every value is documented and valid (the pattern left to its documented default)? */
function isComplete(body: AssignActivityRateRequest): boolean {
  return (
    typeof body.average_rate === 'number' &&
    Number.isInteger(body.average_rate) &&
    body.average_rate >= 0 &&
    body.average_rate <= 100 &&
    body.work_regime_id !== undefined &&
    typeof body.indemnity_enabled === 'boolean' &&
    typeof body.compensation_enabled === 'boolean' &&
    typeof body.trainee === 'boolean' &&
    typeof body.apprentice === 'boolean' &&
    typeof body.paid_hourly === 'boolean' &&
    typeof body.external_id === 'string'
  );
}

const near = (a: number, b: number): boolean => Math.abs(a - b) <= 0.5;

/** What the period shown over a row's week departs from of what the row sent; empty when nothing. */
function roundTrip(body: AssignActivityRateRequest, p: ActivityRatePeriod, where: string): Violation[] {
  const v: Violation[] = [];
  const differ = (field: string, expected: unknown, actual: unknown): void => {
    v.push({ where: `${where}: ${field}`, message: `must show the ${field} the assignment sent`, expected, actual });
  };
  if (body.average_rate !== undefined && !near(p.average_rate, body.average_rate)) {
    differ('average_rate', body.average_rate, p.average_rate);
  }
  if (typeof body.work_regime_id === 'string' && p.work_regime.id !== body.work_regime_id) {
    differ('work_regime', body.work_regime_id, p.work_regime.id);
  }
  for (const flag of ['trainee', 'apprentice', 'paid_hourly'] as const) {
    if (body[flag] !== undefined && p[flag] !== body[flag]) differ(flag, body[flag], p[flag]);
  }
  for (const flag of ['indemnity_enabled', 'compensation_enabled'] as const) {
    // A redacted value is the redaction rule's business.
    if (body[flag] !== undefined && typeof p[flag] === 'boolean' && p[flag] !== body[flag]) {
      differ(flag, body[flag], p[flag]);
    }
  }
  const sent = body.activity_rate_patterns;
  const shown = p.activity_rate_patterns;
  if (sent !== undefined) {
    const weekDiffers = (k: number): boolean => {
      const a = sent[k];
      const b = shown[k];
      return !a || !b || WEEKDAYS.some((d) => !near(a[d], b[d]));
    };
    const k = Array.from({ length: Math.max(sent.length, shown.length) }, (_, i) => i).find(weekDiffers);
    if (k !== undefined) {
      v.push({
        where: `${where}: activity_rate_patterns[${k}]`,
        message: `must show every week of the pattern the assignment sent (${sent.length} weeks)`,
        expected: sent[k] ?? '(no such week)',
        actual: shown[k] ?? `(${shown.length} weeks shown)`,
      });
    }
  } else {
    const days = p.work_regime.weekly_worked_days;
    shown.forEach((pattern, k) => {
      if (!spreadEvenly(pattern, days)) {
        v.push({
          where: `${where}: activity_rate_patterns[${k}]`,
          message: `must spread the rate evenly over the ${days} worked days of the period's work regime (no pattern was sent)`,
          expected: `${days} equal non-zero days`,
          actual: pattern,
        });
      }
    });
    if (shown.length === 0) {
      v.push({
        where: `${where}: activity_rate_patterns`,
        message: 'must hold the pattern the rate was spread into (one entry per week)',
        expected: 'at least one week',
        actual: [],
      });
    }
  }
  return v;
}

/**
 * The judge of the rows: each assignment with the read of its week. Pure:
 * the same function judges a recorded run.
 */
export function judgeAssignRows(log: readonly Observed[]): Judgement {
  const assigns = log.filter(
    (o) => o.step.startsWith(ASSIGN_PREFIX) && o.operation === 'resources.assign-activity-rate',
  );
  if (assigns.length === 0) return noEvidence('no pairwise row was sent');
  const violations: Violation[] = [];
  let judgedRows = 0;
  for (const o of assigns) {
    if (!matchesSchema('AssignActivityRateRequest', o.request)) continue;
    const body = o.request;
    // A 401, 429 or 5xx says nothing of the clause.
    const done = accepted(o);
    if (isNoVerdict(done)) return done;
    if (!isClean(done)) {
      const refused = isComplete(body)
        ? refusedComplete(o, 'a resource it holds, its work regime or null, a whole rate, booleans, text')
        : undefined;
      if (refused) violations.push(refused);
      continue;
    }
    const range = splitRange(body.date_range);
    const read = log.find((r) => r.step === ASSIGN_ROW_STEP.read(o.step));
    if (!range || !read) continue;
    const answer = accepted(read, { status: 200 });
    if (!isClean(answer)) return answer;
    // The read's shape is show-activity-rates.response-shape's: a body of another shape says nothing here.
    if (!matchesSchema('ActivityRatePeriodList', read.body)) continue;
    judgedRows += 1;
    const covering = read.body.filter((p) => {
      const span = splitRange(p.date_range);
      return span !== undefined && covers(span, range);
    });
    if (covering.length === 0) {
      violations.push({
        where: `${read.step}: date_range`,
        message: 'must show a period over the whole range the assignment was answered as done for',
        expected: body.date_range,
        actual: read.body.map((p) => p.date_range),
      });
      continue;
    }
    // Several periods may cover it only where the server shows overlapping ones (another rule's): any that fits.
    const departures = covering.map((p) => roundTrip(body, p, read.step));
    if (departures.every((d) => d.length > 0)) violations.push(...(departures[0] ?? []));
  }
  if (violations.length > 0) return violations;
  return judgedRows === 0 && assigns.every((o) => o.status < 200 || o.status >= 300)
    ? noEvidence('no row was answered as done, and no refused row was complete')
    : [];
}

export default defineRuleGroup({
  section: '§4.2',
  title: 'Activity-rate assignments: every pair of input classes',
  rules: [
    property({
      id: 'activity-rates.prop.pairwise-combinations',
      clause: '§4.2 Request body; §4.2 Response; §4.4',
      quote: [
        'Assigns an activity rate to a resource for a date range.',
        '| activity_rate_patterns | array of Activity rate pattern | one entry per week of the pattern, starting from Monday; when not specified, the rate is spread evenly over the worked days of the work regime |',
        'Response: status 204, meaning resource activity rate assigned; no body.',
        'Retrieves activity rate periods of a resource, with per-weekday patterns and associated or inherited work regimes.',
      ],
      level: 'MUST',
      // One covering array per run: its rows are the run's assignments.
      runs: 1,
      mutates: 'reversible',
      needs: ['roleKindResource', 'workRegime'],
      drive,
      judge: judgeAssignRows,
    }),
  ],
});
