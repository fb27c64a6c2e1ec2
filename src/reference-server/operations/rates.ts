/** §4.4 show-activity-rates, §4.2 assign-activity-rate, §4.7 unassign-activity-rate. */
import { StaleReads } from '../stale-reads.ts';
import { ConcurrentWrites, lostUpdateGap } from '../concurrent-faults.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';
import { formatSpan, fromDay, overlaps, sameSpan, subtract, type Span } from '../days.ts';
import { clockChangeDays } from '../../core/clock-changes.ts';
import { evenPattern } from '../generate-domain.ts';
import { WEEKDAYS, type Pattern, type RatePeriod, type Resource } from '../model.ts';
import {
  REDACTED,
  type Operation,
  type OperationContext,
  type OperationMaybeLater,
  type OperationResult,
} from '../operation.ts';
import {
  array,
  boolean,
  dateRange,
  finiteNumber,
  object,
  optional,
  required,
  snowflake,
  string,
  type Body,
} from '../validate.ts';
import { clip, resourceOf } from './teams.ts';

function renderPeriod(p: RatePeriod, ctx: OperationContext): Record<string, unknown> {
  const regime = ctx.store.domain.workRegimes.find((w) => w.id === p.workRegimeId);
  if (regime === undefined) throw new Error(`work regime ${p.workRegimeId} is not in the domain`);
  const restricted = ctx.caller === 'restricted';
  const out: Record<string, unknown> = {
    average_rate: Math.round(p.averageRate) + (ctx.faults.has('rates-average-rate-unrounded') ? 0.25 : 0),
    date_range: formatSpan(p.span),
    activity_rate_patterns: p.patterns.map((x) => ({ ...x })),
    work_regime: { ...regime, label: { ...regime.label } },
    paid_hourly: p.paidHourly,
    apprentice: p.apprentice,
    trainee: p.trainee,
    indemnity_enabled: restricted ? REDACTED : p.indemnityEnabled,
    compensation_enabled: restricted ? REDACTED : p.compensationEnabled,
  };
  if (ctx.faults.has('show-rates-without-work-regime')) delete out.work_regime;
  return out;
}

/** Under `rates-stale-read`: what each resource held before its last write (stale-reads.ts). */
const staleRates = new StaleReads<RatePeriod[]>();

/** A write to a resource's periods is about to happen: under the fault, reads serve the old ones a while. */
function beforeWrite(ctx: OperationContext, details: { rates: RatePeriod[] }): void {
  if (ctx.faults.has('rates-stale-read')) {
    staleRates.wrote(details, details.rates, ctx.timing);
  }
}

function ratesRead(ctx: OperationContext, details: { rates: RatePeriod[] }): RatePeriod[] {
  return ctx.faults.has('rates-stale-read') ? staleRates.read(details, details.rates, ctx.timing) : details.rates;
}

export const showActivityRates: Operation = (body, ctx) => {
  const resource = resourceOf(body, ctx);
  const span = optional(body, 'date_range', dateRange);
  const periods = ratesRead(ctx, ctx.store.detailsOf(resource))
    .filter((p) => !span || overlaps(p.span, span))
    .filter(
      (p) =>
        !span ||
        !ctx.faults.has('show-rates-end-overlap-dropped-on-month-start') ||
        !fromDay(span.start).endsWith('-01') ||
        !(p.span.start >= span.start && p.span.end > span.end),
    )
    .map((p) => renderPeriod(span && ctx.variants.has('clip-ranges') ? { ...p, span: clip(p.span, span) } : p, ctx));
  return { status: 200, body: periods };
};

function readPattern(value: unknown, field: string): Pattern {
  const o = object(value, field);
  const day = (d: (typeof WEEKDAYS)[number]): number => {
    const n = required(o, d, finiteNumber, `${field}.${d}`);
    if (n < 0 || n > 1000) throw badRequest(`${field}.${d}`, 'must be between 0 and 1000');
    return n;
  };
  // Read in the order of the week, so the first wrong day is the one named.
  return {
    monday: day('monday'),
    tuesday: day('tuesday'),
    wednesday: day('wednesday'),
    thursday: day('thursday'),
    friday: day('friday'),
    saturday: day('saturday'),
    sunday: day('sunday'),
  };
}

function roleKindResource(body: Body, ctx: OperationContext): Resource {
  const resource = resourceOf(body, ctx);
  if (ctx.caller === 'restricted') throw new ApiError(403, 'this API key may not change activity rates');
  return resource;
}

/** Takes `span` out of every period of the resource (trimming or splitting them). */
function carve(periods: RatePeriod[], span: Span): RatePeriod[] {
  return periods.flatMap((p) => subtract(p.span, span).map((piece) => ({ ...p, span: piece })));
}

export const assignActivityRate: OperationMaybeLater = (body, ctx) => {
  const resource = roleKindResource(body, ctx);
  const span = required(body, 'date_range', dateRange);
  const averageRate = required(body, 'average_rate', finiteNumber);
  if (averageRate < 0 || averageRate > 1000) throw badRequest('average_rate', 'must be between 0 and 1000');
  const sector = ctx.store.domain.sectors.find((s) => s.id === resource.sectorId);
  if (sector === undefined) throw new Error(`sector ${resource.sectorId} is not in the domain`);
  const regimeId =
    body.work_regime_id === null || body.work_regime_id === undefined
      ? sector.workRegimeId
      : snowflake(body.work_regime_id, 'work_regime_id');
  const regime = ctx.store.domain.workRegimes.find((w) => w.id === regimeId);
  if (!regime) throw notFound('work_regime_id', `unknown work regime ${regimeId}`);
  const sentPatterns =
    body.activity_rate_patterns === undefined
      ? undefined
      : array(body.activity_rate_patterns, 'activity_rate_patterns').map((p, i) =>
          readPattern(p, `activity_rate_patterns[${i}]`),
        );
  const patterns =
    sentPatterns === undefined
      ? [
          ctx.faults.has('rates-default-pattern-monday-only')
            ? evenPattern(averageRate * regime.weekly_worked_days, 1)
            : evenPattern(
                averageRate,
                ctx.faults.has('rates-default-pattern-five-days') ? 5 : regime.weekly_worked_days,
              ),
        ]
      : ctx.faults.has('rates-pattern-later-weeks-dropped')
        ? sentPatterns.slice(0, 1)
        : sentPatterns;
  if (patterns.length === 0) throw badRequest('activity_rate_patterns', 'must hold at least one week');
  const externalId = optional(body, 'external_id', string);
  // The fault: text beyond ASCII taken for invalid.
  if (
    externalId !== undefined &&
    ctx.faults.has('rates-non-ascii-external-id-refused') &&
    /[^\p{ASCII}]/u.test(externalId)
  )
    throw badRequest('external_id', 'must be ASCII text');
  // The fault: paid_hourly dropped when a pattern of several weeks comes with it.
  const paidHourlyIgnored = ctx.faults.has('rates-paid-hourly-ignored-beside-weeks') && (sentPatterns?.length ?? 0) > 1;
  const defaults = ctx.store.domain.instanceDefaults;
  const period: RatePeriod = {
    span,
    averageRate,
    patterns,
    workRegimeId: regimeId,
    paidHourly:
      ctx.faults.has('rates-assign-ignores-flags') || paidHourlyIgnored
        ? false
        : (optional(body, 'paid_hourly', boolean) ?? false),
    apprentice: ctx.faults.has('rates-assign-ignores-apprentice')
      ? false
      : (optional(body, 'apprentice', boolean) ?? false),
    trainee: ctx.faults.has('rates-assign-ignores-flags') ? false : (optional(body, 'trainee', boolean) ?? false),
    indemnityEnabled: optional(body, 'indemnity_enabled', boolean) ?? defaults.indemnityEnabled,
    compensationEnabled: optional(body, 'compensation_enabled', boolean) ?? defaults.compensationEnabled,
    ...(externalId !== undefined ? { externalId } : {}),
  };
  const details = ctx.store.detailsOf(resource);
  const sameRange = details.rates.find((p) => sameSpan(p.span, span));
  if (sameRange && ctx.faults.has('rates-exact-range-updates-rate-only')) {
    // The fault: the range of a period it holds read as an update of that period, its rate alone.
    const others = details.rates.filter((p) => p !== sameRange);
    return writeRate(ctx, resource, details, others, { ...sameRange, averageRate }, undefined);
  }
  if (sameRange && ctx.faults.has('rates-exact-range-keeps-pattern')) {
    // The fault: the update path of a period over the same range writes every field but its weeks.
    const others = details.rates.filter((p) => p !== sameRange);
    return writeRate(ctx, resource, details, others, { ...period, patterns: sameRange.patterns }, externalId);
  }
  if (ctx.faults.has('rates-concurrent-assignments-dropped')) {
    // Wait a moment before writing: an assignment to the same resource that arrives meanwhile is a conflict,
    // which the fault settles by writing neither, both answered as if done.
    return pendingAssignments
      .waitForConflict(details, ctx.timing)
      .then((conflict) =>
        conflict ? { status: 204 } : writeRate(ctx, resource, details, carve(details.rates, span), period, externalId),
      );
  }
  if (ctx.faults.has('rates-lost-update')) {
    // Read, wait, write: another assignment that lands meanwhile is overwritten with the periods read here.
    const read = details.rates;
    return lostUpdateGap(ctx.timing).then(() =>
      writeRate(ctx, resource, details, carve(read, span), period, externalId),
    );
  }
  const remaining = ctx.faults.has('activity-rate-overlap') ? details.rates : carve(details.rates, span);
  if (ctx.faults.has('rates-assign-adjacent-merges')) {
    // The fault: an assignment that starts the day after the previous one ends extends that period, rate and all.
    const previous = lastAssigned.get(details);
    const extended =
      previous && details.rates.includes(previous) && previous.span.end === span.start - 1
        ? { ...previous, span: { start: previous.span.start, end: span.end } }
        : period;
    lastAssigned.set(details, extended);
    return writeRate(ctx, resource, details, carve(remaining, extended.span), extended, externalId);
  }
  return writeRate(ctx, resource, details, remaining, period, externalId);
};

/** Under `rates-assign-adjacent-merges`: the period each resource's last assignment wrote. */
const lastAssigned = new WeakMap<object, RatePeriod>();

/** Under `rates-concurrent-assignments-dropped`: the assignments of each resource waiting to be written. */
const pendingAssignments = new ConcurrentWrites();

/** The new period beside the `remaining` ones, unless its external_id is another contract's. */
function writeRate(
  ctx: OperationContext,
  resource: Resource,
  details: { rates: RatePeriod[] },
  remaining: RatePeriod[],
  period: RatePeriod,
  externalId: string | undefined,
): OperationResult {
  if (externalId !== undefined && !ctx.faults.has('activity-rate-external-id-not-unique')) {
    // Generated contracts are named C-<resource id>-<n>: build that resource's state before comparing.
    const owner = /^C-(\d+)-\d+$/.exec(externalId)?.[1];
    const ownerResource = owner ? ctx.store.resourcesById.get(owner) : undefined;
    if (ownerResource) ctx.store.detailsOf(ownerResource);
    for (const [id, other] of ctx.store.materialisedDetails()) {
      const survivors = id === resource.id ? remaining : other.rates;
      if (survivors.some((p) => p.externalId === externalId)) {
        throw new ApiError(
          409,
          `external_id: ${JSON.stringify(externalId)} is already the external reference of another contract`,
          'external_id',
        );
      }
    }
  }
  beforeWrite(ctx, details);
  // Under the fault: what the resource held before this assignment, which the next unassignment starts from.
  if (ctx.faults.has('rates-unassign-from-stale-state')) beforeLastAssignment.set(details, details.rates);
  details.rates = [...remaining, period].sort((a, b) => a.span.start - b.span.start);
  if (ctx.faults.has('activity-rate-assign-200')) return { status: 200, body: { status: 'assigned' } };
  return { status: 204 };
}

/**
 * The fault 'rates-unassign-clock-change-day-kept': a server that turns each
 * end day into Paris's local midnight and steps 24 hours at a time misses an
 * end on a day its clocks change, and carves the range without it.
 */
function withoutClockChangeEnds(span: Span): Span {
  const changes = (day: number): boolean => {
    const date = fromDay(day);
    return clockChangeDays([Number(date.slice(0, 4))], ['Europe/Paris']).includes(date);
  };
  return {
    ...span,
    start: changes(span.start) ? span.start + 1 : span.start,
    end: changes(span.end) ? span.end - 1 : span.end,
  };
}

export const unassignActivityRate: Operation = (body, ctx) => {
  const resource = roleKindResource(body, ctx);
  const sent = required(body, 'date_range', dateRange);
  // The fault: an off-by-one where a month starts, the range carved from the day after its first.
  let span =
    ctx.faults.has('rates-unassign-month-start-kept') && fromDay(sent.start).endsWith('-01')
      ? { ...sent, start: sent.start + 1 }
      : sent;
  if (ctx.faults.has('rates-unassign-clock-change-day-kept')) span = withoutClockChangeEnds(span);
  const details = ctx.store.detailsOf(resource);
  beforeWrite(ctx, details);
  if (ctx.faults.has('rates-unassign-first-period-only')) {
    // Only the first period the range overlaps is trimmed; the others keep the unassigned days.
    const first = details.rates.findIndex((p) => overlaps(p.span, span));
    const period = details.rates[first];
    if (period !== undefined) {
      const trimmed = carve([period], span);
      details.rates = [...details.rates.slice(0, first), ...trimmed, ...details.rates.slice(first + 1)];
    }
  } else if (
    ctx.faults.has('rates-unassign-inside-removes-period') &&
    details.rates.some((p) => p.span.start <= span.start && span.end <= p.span.end)
  ) {
    // The period the range lies inside is removed whole, not split around the range.
    details.rates = details.rates.filter((p) => !(p.span.start <= span.start && span.end <= p.span.end));
  } else if (ctx.faults.has('rates-unassign-from-stale-state') && beforeLastAssignment.has(details)) {
    // A second step from a stale cache: the periods as they were before the assignment just made.
    details.rates = carve(beforeLastAssignment.get(details) ?? details.rates, span);
    beforeLastAssignment.delete(details);
  } else if (ctx.faults.has('rates-unassign-exact-range-kept')) {
    // The fault: periods across or around the range are carved; one over exactly the range is neither, and stays.
    const exact = (p: RatePeriod): boolean => sameSpan(p.span, span);
    details.rates = [
      ...carve(
        details.rates.filter((p) => !exact(p)),
        span,
      ),
      ...details.rates.filter(exact),
    ].sort((a, b) => a.span.start - b.span.start);
  } else if (!ctx.faults.has('activity-rate-unassign-noop')) details.rates = carve(details.rates, span);
  if (ctx.faults.has('rates-unassign-trims-next-period')) {
    // The fault: the range read as ending on the day after its end where a period starts there (an off-by-one
    // only a period right after the range shows): that period loses its first day.
    details.rates = details.rates.flatMap((p) =>
      p.span.start === span.end + 1 ? carve([p], { start: p.span.start, end: p.span.start }) : [p],
    );
  }
  return { status: 204 };
};

/** Under `rates-unassign-from-stale-state`: each resource's periods before its last assignment. */
const beforeLastAssignment = new WeakMap<object, RatePeriod[]>();
