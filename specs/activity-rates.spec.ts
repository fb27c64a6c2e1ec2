/**
 * §4.2 assign-activity-rate, §4.4 show-activity-rates, §4.7
 * unassign-activity-rate and §8 (external_id uniqueness).
 */
import { TRAFFIC } from '../src/rules/judges/untagged-traffic.ts';
import { spreadEvenly } from '../src/rules/judges/rate-patterns.ts';
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { precondition } from '../src/rules/assertions.ts';
import { WIDE_RANGE, showActivityRates } from '../src/rules/steps/assignations.ts';
import { captureState } from '../src/rules/steps/state.ts';
import { withRestoredState } from '../src/rules/state-guard.ts';
import { addDays, covers, overlapsStrictly, splitRange, type DateSpan } from '../src/rules/dates.ts';
import {
  accepted,
  firstWithStep,
  isClean,
  judgeAll,
  judgeEach,
  noContent,
  noEvidence,
  rejected,
  shaped,
  withStep,
  type Judgement,
} from '../src/rules/judges/judgement.ts';
import { field, type Observed } from '../src/rules/judges/observed.ts';
import { unchangedBetween } from '../src/rules/judges/state.ts';
import { everyReadShows, aMoment, type Timed } from '../src/rules/judges/read-after-write.ts';
import {
  matchesSchema,
  type ActivityRatePeriod,
  type AssignActivityRateRequest,
  type SchemaType,
} from '../src/schemas/index.ts';
import { kindById } from '../src/target/profile.ts';
import type { Violation } from '../src/core/types.ts';
import { RATES_SHAPE } from '../src/rules/judges/read-answers.ts';

interface Claimed {
  resourceId: string;
  period: ActivityRatePeriod;
  span: DateSpan;
}

/** A claimed role-supporting resource with an activity rate period of at least 90 days. */
async function resourceWithPeriod(ctx: CheckContext): Promise<Claimed> {
  for (;;) {
    const resourceId = await ctx.claimResource((_, kindId) => kindById(ctx.profile, kindId)?.supportsRoles === true);
    precondition(resourceId, 'no mutable resource has an activity rate period of 90 days');
    const periods = await showActivityRates(ctx, { resource_id: resourceId, date_range: WIDE_RANGE });
    for (const period of periods) {
      const span = splitRange(period.date_range);
      if (span && addDays(span.start, 90) <= span.end) return { resourceId, period, span };
    }
  }
}

/** Claims a resource with a long period and runs `change` on it, its activity rates restored afterwards. */
async function changingRatesOf(ctx: CheckContext, change: (claimed: Claimed) => Promise<void>): Promise<void> {
  const claimed = await resourceWithPeriod(ctx);
  await withRestoredState(ctx, claimed.resourceId, ['rates'], () => change(claimed));
}

/** Thirty days inside the claimed period, away from its ends. */
function innerRange(span: DateSpan): string {
  return `${addDays(span.start, 30)}/${addDays(span.start, 59)}`;
}

/** A fully documented assignment inside the period, with values different from the period's. */
function assignment(ctx: CheckContext, claimed: Claimed, externalId?: string): AssignActivityRateRequest {
  const rate = claimed.period.average_rate === 40 ? 60 : 40;
  return {
    resource_id: claimed.resourceId,
    date_range: innerRange(claimed.span),
    average_rate: rate,
    work_regime_id: ctx.profile.workRegimeIds?.[0] ?? null,
    indemnity_enabled: true,
    compensation_enabled: true,
    trainee: true,
    apprentice: false,
    paid_hourly: true,
    activity_rate_patterns: [
      { monday: rate, tuesday: rate, wednesday: rate, thursday: rate, friday: rate, saturday: 0, sunday: 0 },
    ],
    ...(externalId ? { external_id: externalId } : {}),
  };
}

function overlappingPairs(periods: readonly ActivityRatePeriod[]): string[] {
  const spans = periods.flatMap((p) => {
    const span = splitRange(p.date_range);
    return span ? [{ range: p.date_range, span }] : [];
  });
  return spans.flatMap((a, i) =>
    spans.slice(i + 1).flatMap((b) => (overlapsStrictly(a.span, b.span) ? [`${a.range} and ${b.range}`] : [])),
  );
}

/** The steps drivers of this group tag their requests with, which their judges read. */
const STEP = {
  assign: 'the assignment',
  readAfterAssign: 'read right after the assignment',
  readLaterAssign: 'read a moment after the assignment',
  unassign: 'the unassignment',
  readAfterUnassign: 'read right after the unassignment',
  readLaterUnassign: 'read a moment after the unassignment',
  firstContract: 'a contract with a new external_id',
  duplicateContract: 'a contract whose external_id another resource already uses',
  otherBefore: 'the other resource before',
  otherAfter: 'the other resource after',
} as const;

/** What a read tagged `step` showed: its periods, or the judgement that stops there (refused, missing). */
function periodsRead(
  log: readonly Observed[],
  step: string,
): { periods: ActivityRatePeriod[] } | { judgement: Judgement } {
  const o = firstWithStep(log, step);
  if (!o) return { judgement: noEvidence(`no ${step}`) };
  const answer = accepted(o, { status: 200 });
  if (!isClean(answer)) return { judgement: answer };
  // The read's shape is show-activity-rates.response-shape's: a body of another shape says nothing here.
  return matchesSchema('ActivityRatePeriodList', o.body)
    ? { periods: o.body }
    : { judgement: noEvidence(`${step} did not show a list of periods`) };
}

/**
 * A write's effect read twice: at once (no delay) and a moment later. A read
 * right after a write that does not show it is a stale read, whatever the
 * later one shows; the pair tells how long the staleness lasted at most.
 */
async function readTwice(
  ctx: CheckContext,
  body: { resource_id: string; date_range: string },
  steps: { atOnce: string; later: string },
): Promise<void> {
  await showActivityRates(ctx, body, { step: steps.atOnce, fresh: true });
  await aMoment(ctx);
  await showActivityRates(ctx, body, { step: steps.later, fresh: true });
}

/** One read of the pair, what it showed and when (how long a stale read lasted is measured from it). */
interface Read extends Timed {
  step: string;
  periods: ActivityRatePeriod[];
}

/** The reads of a pair that were made, in order; the judgement that stops there when one was refused. */
function readsOf(log: readonly Observed[], steps: readonly string[]): { reads: Read[] } | { judgement: Judgement } {
  const reads: Read[] = [];
  for (const step of steps) {
    const o = firstWithStep(log, step);
    if (!o) continue;
    const read = periodsRead(log, step);
    if (!('periods' in read)) return read;
    reads.push({ step, periods: read.periods, ...(o.at ? { at: o.at } : {}) });
  }
  return reads.length > 0 ? { reads } : { judgement: noEvidence(`no ${steps.join(' or ')}`) };
}

/**
 * The write a driver sent under `write`, accepted, then what the reads
 * tagged `reads` showed: `judge` compares what was sent with each read.
 */
function afterWrite<N extends 'AssignActivityRateRequest' | 'UnassignActivityRateRequest'>(
  log: readonly Observed[],
  schema: N,
  steps: { write: string; reads: readonly string[] },
  judge: (body: SchemaType<N>, reads: Read[], write: Observed) => Judgement,
): Judgement {
  const o = firstWithStep(log, steps.write);
  if (!o || !matchesSchema(schema, o.request)) return noEvidence(`no ${steps.write} was sent`);
  const written = accepted(o);
  if (!isClean(written)) return written;
  const read = readsOf(log, steps.reads);
  return 'reads' in read ? judge(o.request, read.reads, o) : read.judgement;
}

const ASSIGNED = { write: STEP.assign, reads: [STEP.readAfterAssign, STEP.readLaterAssign] } as const;
const UNASSIGNED = { write: STEP.unassign, reads: [STEP.readAfterUnassign, STEP.readLaterUnassign] } as const;

export default defineRuleGroup({
  section: '§4.2',
  title: 'Activity rates: assign, show, unassign',
  rules: [
    rule({
      id: 'show-activity-rates.response-shape',
      checks: [RATES_SHAPE],
      traffic: TRAFFIC.answers('resources.show-activity-rates'),
      clause: '§4.4 Response; §2.5',
      quote: [
        'Response: status 200, JSON array of Activity rate period (section 2.5).',
        'Retrieves activity rate periods of a resource, with per-weekday patterns and associated or inherited work regimes.',
      ],
      level: 'MUST',
      needs: ['roleKindResource'],
      async drive(ctx) {
        const resources = ctx.profile.mutableResources.filter((r) => kindById(ctx.profile, r.kindId)?.supportsRoles);
        for (const r of resources.slice(0, 5)) {
          // The state other rules read too: the run sends it once until a change names the resource.
          await ctx.client.post(
            'resources.show-activity-rates',
            { resource_id: r.id, date_range: WIDE_RANGE },
            { shared: true },
          );
        }
      },
      judge(log) {
        const reads = log.filter((o) => o.operation === 'resources.show-activity-rates');
        const shapes = judgeEach(reads, 'no show-activity-rates was read', (o) => shaped(o, 'ActivityRatePeriodList'));
        const periods = reads.reduce((n, o) => n + (Array.isArray(o.body) ? o.body.length : 0), 0);
        return judgeAll([shapes, periods > 0 ? [] : noEvidence('no profile resource has an activity rate period')]);
      },
    }),
    rule({
      id: 'show-activity-rates.average-rate-integer',
      clause: '§2.5',
      quote: '| average_rate | number | shown as an integer |',
      level: 'MUST',
      needs: ['roleKindResource'],
      async drive(ctx) {
        for (const r of ctx.profile.mutableResources.slice(0, 5)) {
          await showActivityRates(ctx, { resource_id: r.id, date_range: WIDE_RANGE });
        }
      },
      judge(log) {
        const rates = log
          .filter((o) => o.operation === 'resources.show-activity-rates' && o.status === 200)
          .flatMap((o) => {
            const periods = matchesSchema('ActivityRatePeriodList', o.body) ? o.body : [];
            const id = field(o.request, 'resource_id');
            return periods.map((p, i) => ({ where: `show-activity-rates(${String(id)})[${i}]`, rate: p.average_rate }));
          });
        if (rates.length === 0) return noEvidence('no profile resource read has an activity rate period');
        return rates.flatMap(({ where, rate }): Violation[] =>
          Number.isInteger(rate)
            ? []
            : [
                {
                  where: `${where}.average_rate`,
                  message: 'must be shown as an integer',
                  expected: 'an integer',
                  actual: rate,
                },
              ],
        );
      },
    }),
    rule({
      id: 'activity-rates.assign-no-content',
      traffic: TRAFFIC.noContent('resources.assign-activity-rate'),
      clause: '§4.2 Response',
      quote: 'Response: status 204, meaning resource activity rate assigned; no body.',
      level: 'MUST',
      mutates: 'reversible',
      async drive(ctx) {
        await changingRatesOf(ctx, async (claimed) => {
          await ctx.client.post('resources.assign-activity-rate', assignment(ctx, claimed), { step: STEP.assign });
        });
      },
      judge: (log) => judgeEach(withStep(log, STEP.assign), 'no assignment was sent', (o) => noContent(o)),
    }),
    rule({
      id: 'activity-rates.assigned-rate-shown',
      clause: '§4.2; §4.4',
      quote: [
        'Assigns an activity rate to a resource for a date range.',
        'Retrieves activity rate periods of a resource',
      ],
      level: 'MUST',
      mutates: 'reversible',
      needs: ['workRegime'],
      async drive(ctx) {
        await changingRatesOf(ctx, async (claimed) => {
          const body = assignment(ctx, claimed);
          const res = await ctx.client.post('resources.assign-activity-rate', body, { step: STEP.assign });
          if (res.status >= 200 && res.status < 300) {
            const read = { resource_id: claimed.resourceId, date_range: body.date_range };
            await readTwice(ctx, read, { atOnce: STEP.readAfterAssign, later: STEP.readLaterAssign });
          }
        });
      },
      judge: (log) =>
        afterWrite(log, 'AssignActivityRateRequest', ASSIGNED, (body, reads, write) => {
          const range = splitRange(body.date_range);
          if (!range) return noEvidence(`the assignment's range ${body.date_range} is not a range`);
          const shows = ({ periods }: Read): boolean =>
            periods.some((p) => {
              const span = splitRange(p.date_range);
              return (
                span !== undefined &&
                covers(span, range) &&
                // "Shown as an integer": a rate may come back rounded.
                Math.abs(p.average_rate - (body.average_rate ?? p.average_rate)) <= 0.5 &&
                (body.trainee === undefined || p.trainee === body.trainee) &&
                (body.paid_hourly === undefined || p.paid_hourly === body.paid_hourly) &&
                (body.apprentice === undefined || p.apprentice === body.apprentice) &&
                (body.work_regime_id === null ||
                  body.work_regime_id === undefined ||
                  p.work_regime.id === body.work_regime_id)
              );
            });
          return everyReadShows(
            reads,
            shows,
            {
              where: STEP.readAfterAssign,
              message:
                'must show a period covering the assigned range with the assigned average_rate, work regime and flags',
              expected: {
                date_range: body.date_range,
                average_rate: body.average_rate,
                work_regime_id: body.work_regime_id,
                trainee: body.trainee,
                paid_hourly: body.paid_hourly,
                apprentice: body.apprentice,
              },
            },
            (r) => r.periods,
            write,
          );
        }),
    }),
    rule({
      id: 'activity-rates.no-overlap',
      clause: '§4.2 rule 1',
      quote: 'Assigning a new rate may modify other activity rate periods.',
      level: 'INFERRED',
      mutates: 'reversible',
      async drive(ctx) {
        await changingRatesOf(ctx, async (claimed) => {
          const res = await ctx.client.post('resources.assign-activity-rate', assignment(ctx, claimed), {
            step: STEP.assign,
          });
          if (res.status >= 200 && res.status < 300) {
            const read = { resource_id: claimed.resourceId, date_range: WIDE_RANGE };
            await readTwice(ctx, read, { atOnce: STEP.readAfterAssign, later: STEP.readLaterAssign });
          }
        });
      },
      judge: (log) =>
        afterWrite(log, 'AssignActivityRateRequest', ASSIGNED, (_, reads) =>
          reads.flatMap(({ step, periods }): Violation[] => {
            const pairs = overlappingPairs(periods);
            return pairs.length === 0
              ? []
              : [
                  {
                    where: step,
                    message: 'must not hold overlapping periods: the new rate replaces the others over its range',
                    expected: 'no overlap',
                    actual: pairs,
                  },
                ];
          }),
        ),
    }),
    rule({
      id: 'activity-rates.unassign-removes-coverage',
      clause: '§4.7',
      quote: 'Unassigns an activity rate from a resource for a date range.',
      level: 'MUST',
      mutates: 'reversible',
      async drive(ctx) {
        await changingRatesOf(ctx, async (claimed) => {
          const res = await ctx.client.post(
            'resources.unassign-activity-rate',
            { resource_id: claimed.resourceId, date_range: innerRange(claimed.span) },
            { step: STEP.unassign },
          );
          ctx.observe('status and body of unassign-activity-rate', {
            status: res.status,
            body: res.text.slice(0, 200),
          });
          if (res.status >= 200 && res.status < 300) {
            const read = { resource_id: claimed.resourceId, date_range: WIDE_RANGE };
            await readTwice(ctx, read, { atOnce: STEP.readAfterUnassign, later: STEP.readLaterUnassign });
          }
        });
      },
      judge: (log) =>
        afterWrite(log, 'UnassignActivityRateRequest', UNASSIGNED, (body, reads, write) => {
          const cut = splitRange(body.date_range ?? '');
          if (!cut) return noEvidence('the unassignment named no date range');
          // Days strictly inside the unassigned range: the ends are lenient (inclusive or not is not shown).
          const inner = { start: addDays(cut.start, 1), end: addDays(cut.end, -1) };
          const still = ({ periods }: Read): ActivityRatePeriod[] =>
            periods.filter((p) => {
              const span = splitRange(p.date_range);
              return span !== undefined && overlapsStrictly(span, inner);
            });
          const stale = reads.find((r) => still(r).length > 0);
          return everyReadShows(
            reads,
            (r) => still(r).length === 0,
            {
              where: STEP.readAfterUnassign,
              message: 'must show no period over the unassigned range',
              expected: 'no period',
              actual: (stale ? still(stale) : []).map((p) => p.date_range),
            },
            (r) => r.periods,
            write,
          );
        }),
    }),
    rule({
      id: 'activity-rates.external-id-unique',
      clause: '§8 Uniqueness; §4.2 external_id',
      quote: '| Uniqueness | `external_id` of an activity rate contract is unique across the instance |',
      level: 'MUST',
      mutates: 'reversible',
      async drive(ctx) {
        const first = await resourceWithPeriod(ctx);
        const second = await resourceWithPeriod(ctx);
        const externalId = `dc-unique-${first.resourceId}-${Date.now()}`;
        await withRestoredState(ctx, first.resourceId, ['rates'], () =>
          withRestoredState(ctx, second.resourceId, ['rates'], async () => {
            const res = await ctx.client.post('resources.assign-activity-rate', assignment(ctx, first, externalId), {
              step: STEP.firstContract,
            });
            if (res.status < 200 || res.status >= 300) return;
            await captureState(ctx, second.resourceId, ['rates'], { step: STEP.otherBefore });
            const duplicate = await ctx.client.post(
              'resources.assign-activity-rate',
              assignment(ctx, second, externalId),
              { retry: 'judged', step: STEP.duplicateContract },
            );
            ctx.observe('status of a duplicate external_id', duplicate.status);
            await captureState(ctx, second.resourceId, ['rates'], { step: STEP.otherAfter, fresh: true });
          }),
        );
      },
      judge(log) {
        const first = firstWithStep(log, STEP.firstContract);
        if (!first) return noEvidence('no contract with a new external_id was sent');
        const accepted1 = accepted(first);
        if (!isClean(accepted1)) return accepted1;
        const duplicate = firstWithStep(log, STEP.duplicateContract);
        if (!duplicate) return noEvidence('no contract with a duplicate external_id was sent');
        return judgeAll([
          rejected(duplicate),
          unchangedBetween(log, {
            before: STEP.otherBefore,
            after: STEP.otherAfter,
            message: 'must be unchanged after a rejected request',
          }),
        ]);
      },
    }),
    rule({
      id: 'activity-rates.default-pattern-even',
      clause: '§4.2 activity_rate_patterns',
      quote: 'when not specified, the rate is spread evenly over the worked days of the work regime',
      level: 'MUST',
      mutates: 'reversible',
      needs: ['workRegime'],
      async drive(ctx) {
        await changingRatesOf(ctx, async (claimed) => {
          const range = innerRange(claimed.span);
          const res = await ctx.client.post(
            'resources.assign-activity-rate',
            {
              resource_id: claimed.resourceId,
              date_range: range,
              average_rate: 60,
              work_regime_id: ctx.workRegimeIds[0],
              indemnity_enabled: true,
              compensation_enabled: false,
              trainee: false,
              apprentice: false,
              paid_hourly: false,
            },
            { step: STEP.assign },
          );
          if (res.status >= 200 && res.status < 300) {
            const read = { resource_id: claimed.resourceId, date_range: range };
            await readTwice(ctx, read, { atOnce: STEP.readAfterAssign, later: STEP.readLaterAssign });
          }
        });
      },
      judge: (log) =>
        afterWrite(log, 'AssignActivityRateRequest', ASSIGNED, (body, reads) => {
          const range = splitRange(body.date_range);
          const covering = ({ periods }: Read): ActivityRatePeriod | undefined =>
            periods.find((p) => {
              const span = splitRange(p.date_range);
              return range !== undefined && span !== undefined && covers(span, range);
            });
          // A read that does not show the period at all is a stale or lost assignment: assigned-rate-shown's.
          const read = reads.find((r) => covering(r) !== undefined);
          const shown = read && covering(read);
          if (!read || !shown) {
            return [
              {
                where: STEP.readLaterAssign,
                message: 'must show the assigned period',
                expected: body.date_range,
                actual: '(none)',
              },
            ];
          }
          // The rate is spread over the weeks of the pattern: without one there is nothing spread.
          if (shown.activity_rate_patterns.length === 0) {
            return [
              {
                where: `${read.step}: activity_rate_patterns`,
                message: 'must hold the pattern the rate was spread into (one entry per week)',
                expected: 'at least one week',
                actual: [],
              },
            ];
          }
          const days = shown.work_regime.weekly_worked_days;
          // Which weekdays are worked is not shown: only how many, and that they share the rate evenly.
          return shown.activity_rate_patterns.flatMap((pattern, week): Violation[] => {
            return spreadEvenly(pattern, days)
              ? []
              : [
                  {
                    where: `${read.step}: activity_rate_patterns[${week}]`,
                    message: `must spread the rate evenly over the ${days} worked days of the work regime`,
                    expected: `${days} equal non-zero days`,
                    actual: pattern,
                  },
                ];
          });
        }),
    }),
    rule({
      id: 'activity-rates.defaults-observed',
      clause: '§4.2 Request body; §4.2 rule 3',
      quote: [
        'Which fields are required: not shown.',
        'when not specified, the instance indemnity configuration is adopted',
        'when not specified, the instance compensation configuration is adopted',
      ],
      level: 'OBSERVED',
      mutates: 'reversible',
      async drive(ctx) {
        await changingRatesOf(ctx, async (claimed) => {
          const range = innerRange(claimed.span);
          const res = await ctx.client.post(
            'resources.assign-activity-rate',
            { resource_id: claimed.resourceId, date_range: range, average_rate: 50, work_regime_id: null },
            { step: STEP.assign },
          );
          ctx.observe(
            'status of an assignment with only resource_id, date_range, average_rate and work_regime_id null',
            res.status,
          );
          if (res.status >= 200 && res.status < 300) {
            ctx.observe(
              'period shown for it (defaults adopted)',
              await showActivityRates(
                ctx,
                { resource_id: claimed.resourceId, date_range: range },
                { step: STEP.readAfterAssign },
              ),
            );
          }
        });
      },
      // Which fields are required is not shown: any answer is what the server chose, recorded above.
      judge: (log) => (firstWithStep(log, STEP.assign) ? [] : noEvidence('no assignment was sent')),
    }),
  ],
});
