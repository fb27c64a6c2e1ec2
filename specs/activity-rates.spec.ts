/**
 * §4.2 assign-activity-rate, §4.4 show-activity-rates, §4.7
 * unassign-activity-rate and §8 (external_id uniqueness).
 */
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import type { CheckContext } from '../src/rules/types.ts';
import {
  expectEach,
  expectJson,
  expectNoContent,
  expectRejected,
  expectSuccess,
  fail,
  precondition,
} from '../src/rules/assertions.ts';
import { WIDE_RANGE, showActivityRates } from '../src/rules/steps/assignations.ts';
import { captureState, expectStateUnchanged } from '../src/rules/steps/state.ts';
import { withRestoredState } from '../src/rules/state-guard.ts';
import { addDays, covers, overlapsStrictly, splitRange, type DateSpan } from '../src/rules/dates.ts';
import type { ActivityRatePeriod, AssignActivityRateRequest } from '../src/schemas/index.ts';
import { kindById } from '../src/target/profile.ts';

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

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

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
  const spans = periods.map((p) => ({ range: p.date_range, span: splitRange(p.date_range)! }));
  return spans.flatMap((a, i) =>
    spans.slice(i + 1).flatMap((b) => (overlapsStrictly(a.span, b.span) ? [`${a.range} and ${b.range}`] : [])),
  );
}

export default defineRuleGroup({
  section: '§4.2',
  title: 'Activity rates: assign, show, unassign',
  rules: [
    rule({
      id: 'show-activity-rates.response-shape',
      clause: '§4.4 Response; §2.5',
      quote: [
        'Response: status 200, JSON array of Activity rate period (section 2.5).',
        'Retrieves activity rate periods of a resource, with per-weekday patterns and associated or inherited work regimes.',
      ],
      level: 'MUST',
      needs: ['roleKindResource'],
      async check(ctx) {
        let seen = 0;
        const resources = ctx.profile.mutableResources.filter((r) => kindById(ctx.profile, r.kindId)?.supportsRoles);
        for (const r of resources.slice(0, 5)) {
          const res = await ctx.client.post('resources.show-activity-rates', {
            resource_id: r.id,
            date_range: WIDE_RANGE,
          });
          expectSuccess(res, { step: 'resources.show-activity-rates', status: 200 });
          seen += expectJson(res, 'ActivityRatePeriodList').length;
        }
        precondition(seen > 0, 'no profile resource has an activity rate period');
      },
    }),
    rule({
      id: 'show-activity-rates.average-rate-integer',
      clause: '§2.5',
      quote: '| average_rate | number | shown as an integer |',
      level: 'MUST',
      needs: ['roleKindResource'],
      async check(ctx) {
        const rates: Array<{ where: string; rate: number }> = [];
        for (const r of ctx.profile.mutableResources.slice(0, 5)) {
          const periods = await showActivityRates(ctx, { resource_id: r.id, date_range: WIDE_RANGE });
          rates.push(...periods.map((p, i) => ({ where: `show-activity-rates(${r.id})[${i}]`, rate: p.average_rate })));
        }
        precondition(rates.length > 0, 'no profile resource read has an activity rate period');
        expectEach(rates, ({ where, rate }) =>
          Number.isInteger(rate)
            ? undefined
            : {
                where: `${where}.average_rate`,
                message: 'must be shown as an integer',
                expected: 'an integer',
                actual: rate,
              },
        );
      },
    }),
    rule({
      id: 'activity-rates.assign-no-content',
      clause: '§4.2 Response',
      quote: 'Response: status 204, meaning resource activity rate assigned; no body.',
      level: 'MUST',
      mutates: 'reversible',
      async check(ctx) {
        await changingRatesOf(ctx, async (claimed) => {
          const res = await ctx.client.post('resources.assign-activity-rate', assignment(ctx, claimed));
          expectNoContent(res, { step: 'resources.assign-activity-rate', status: 204 });
        });
      },
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
      async check(ctx) {
        await changingRatesOf(ctx, async (claimed) => {
          const body = assignment(ctx, claimed);
          expectSuccess(await ctx.client.post('resources.assign-activity-rate', body), {
            step: 'resources.assign-activity-rate',
          });
          const range = splitRange(body.date_range)!;
          const shown = await showActivityRates(ctx, { resource_id: claimed.resourceId, date_range: body.date_range });
          const match = shown.find(
            // "Shown as an integer": a rate may come back rounded.
            (p) =>
              covers(splitRange(p.date_range)!, range) &&
              Math.abs(p.average_rate - body.average_rate!) <= 0.5 &&
              p.trainee === true &&
              p.paid_hourly === true &&
              p.apprentice === false &&
              p.work_regime.id === body.work_regime_id,
          );
          if (!match) {
            fail({
              where: 'show-activity-rates after assignment',
              message:
                'must show a period covering the assigned range with the assigned average_rate, work regime and flags',
              expected: {
                date_range: body.date_range,
                average_rate: body.average_rate,
                trainee: true,
                paid_hourly: true,
                apprentice: false,
              },
              actual: shown,
            });
          }
        });
      },
    }),
    rule({
      id: 'activity-rates.no-overlap',
      clause: '§4.2 rule 1',
      quote: 'Assigning a new rate may modify other activity rate periods.',
      level: 'INFERRED',
      mutates: 'reversible',
      async check(ctx) {
        await changingRatesOf(ctx, async (claimed) => {
          expectSuccess(await ctx.client.post('resources.assign-activity-rate', assignment(ctx, claimed)), {
            step: 'resources.assign-activity-rate',
          });
          const all = await showActivityRates(ctx, { resource_id: claimed.resourceId, date_range: WIDE_RANGE });
          const pairs = overlappingPairs(all);
          if (pairs.length > 0) {
            fail({
              where: 'show-activity-rates after assignment',
              message: 'must not hold overlapping periods: the new rate replaces the others over its range',
              expected: 'no overlap',
              actual: pairs,
            });
          }
        });
      },
    }),
    rule({
      id: 'activity-rates.unassign-removes-coverage',
      clause: '§4.7',
      quote: 'Unassigns an activity rate from a resource for a date range.',
      level: 'MUST',
      mutates: 'reversible',
      async check(ctx) {
        await changingRatesOf(ctx, async (claimed) => {
          const cut = splitRange(innerRange(claimed.span))!;
          const res = await ctx.client.post('resources.unassign-activity-rate', {
            resource_id: claimed.resourceId,
            date_range: `${cut.start}/${cut.end}`,
          });
          ctx.observe('status and body of unassign-activity-rate', {
            status: res.status,
            body: res.text.slice(0, 200),
          });
          expectSuccess(res, { step: 'resources.unassign-activity-rate' });
          const all = await showActivityRates(ctx, { resource_id: claimed.resourceId, date_range: WIDE_RANGE });
          // Days strictly inside the unassigned range: the ends are lenient (inclusive or not is not shown).
          const inner = { start: addDays(cut.start, 1), end: addDays(cut.end, -1) };
          const still = all.filter((p) => overlapsStrictly(splitRange(p.date_range)!, inner));
          if (still.length > 0) {
            fail({
              where: 'show-activity-rates after unassign',
              message: 'must show no period over the unassigned range',
              expected: 'no period',
              actual: still.map((p) => p.date_range),
            });
          }
        });
      },
    }),
    rule({
      id: 'activity-rates.external-id-unique',
      clause: '§8 Uniqueness; §4.2 external_id',
      quote: '| Uniqueness | `external_id` of an activity rate contract is unique across the instance |',
      level: 'MUST',
      mutates: 'reversible',
      async check(ctx) {
        const first = await resourceWithPeriod(ctx);
        const second = await resourceWithPeriod(ctx);
        const externalId = `dc-unique-${first.resourceId}-${Date.now()}`;
        await withRestoredState(ctx, first.resourceId, ['rates'], () =>
          withRestoredState(ctx, second.resourceId, ['rates'], async () => {
            expectSuccess(await ctx.client.post('resources.assign-activity-rate', assignment(ctx, first, externalId)), {
              step: 'assigning a contract with a new external_id',
            });
            const before = await captureState(ctx, second.resourceId, ['rates'], { step: 'the other resource before' });
            const res = await expectRejected(
              () =>
                ctx.client.post('resources.assign-activity-rate', assignment(ctx, second, externalId), {
                  retry: 'judged',
                }),
              { step: 'a contract whose external_id another resource already uses' },
            );
            ctx.observe('status of a duplicate external_id', res.status);
            await expectStateUnchanged(ctx, before, { message: 'must be unchanged after a rejected request' });
          }),
        );
      },
    }),
    rule({
      id: 'activity-rates.default-pattern-even',
      clause: '§4.2 activity_rate_patterns',
      quote: 'when not specified, the rate is spread evenly over the worked days of the work regime',
      level: 'MUST',
      mutates: 'reversible',
      needs: ['workRegime'],
      async check(ctx) {
        await changingRatesOf(ctx, async (claimed) => {
          const range = innerRange(claimed.span);
          expectSuccess(
            await ctx.client.post('resources.assign-activity-rate', {
              resource_id: claimed.resourceId,
              date_range: range,
              average_rate: 60,
              work_regime_id: ctx.workRegimeIds[0],
              indemnity_enabled: true,
              compensation_enabled: false,
              trainee: false,
              apprentice: false,
              paid_hourly: false,
            }),
            { step: 'an assignment without activity_rate_patterns' },
          );
          const shown = (await showActivityRates(ctx, { resource_id: claimed.resourceId, date_range: range })).find(
            (p) => covers(splitRange(p.date_range)!, splitRange(range)!),
          );
          if (!shown)
            fail({
              where: 'show-activity-rates',
              message: 'must show the assigned period',
              expected: range,
              actual: '(none)',
            });
          // The rate is spread over the weeks of the pattern: without one there is nothing spread.
          if (shown.activity_rate_patterns.length === 0) {
            fail({
              where: 'activity_rate_patterns',
              message: 'must hold the pattern the rate was spread into (one entry per week)',
              expected: 'at least one week',
              actual: [],
            });
          }
          const days = shown.work_regime.weekly_worked_days;
          // Which weekdays are worked is not shown: only how many, and that they share the rate evenly.
          expectEach(shown.activity_rate_patterns, (pattern, week) => {
            const worked = WEEKDAYS.map((day) => pattern[day]).filter((v) => v > 0);
            return worked.length === days && new Set(worked).size <= 1
              ? undefined
              : {
                  where: `activity_rate_patterns[${week}]`,
                  message: `must spread the rate evenly over the ${days} worked days of the work regime`,
                  expected: `${days} equal non-zero days`,
                  actual: pattern,
                };
          });
        });
      },
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
      async check(ctx) {
        await changingRatesOf(ctx, async (claimed) => {
          const range = innerRange(claimed.span);
          const res = await ctx.client.post('resources.assign-activity-rate', {
            resource_id: claimed.resourceId,
            date_range: range,
            average_rate: 50,
            work_regime_id: null,
          });
          ctx.observe(
            'status of an assignment with only resource_id, date_range, average_rate and work_regime_id null',
            res.status,
          );
          if (res.status >= 200 && res.status < 300) {
            ctx.observe(
              'period shown for it (defaults adopted)',
              await showActivityRates(ctx, { resource_id: claimed.resourceId, date_range: range }),
            );
          }
        });
      },
    }),
  ],
});
