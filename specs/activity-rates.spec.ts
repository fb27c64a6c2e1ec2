/**
 * §4.2 assign-activity-rate, §4.4 show-activity-rates, §4.7
 * unassign-activity-rate and §8 (external_id uniqueness).
 */
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import { addDays, covers, overlapsStrictly, splitRange, type DateSpan } from '../src/rules/dates.ts';
import { precondition, showActivityRates, type ActivityRatePeriod } from '../src/rules/operations.ts';
import { WIDE_RANGE, withRestoredRates } from '../src/rules/state-guard.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { expectRejected, expectSuccess, fail } from '../src/rules/expect.ts';
import { kindById } from '../src/target/profile.ts';

/** A claimed role-supporting resource with an activity rate period of at least 90 days. */
async function resourceWithPeriod(
  ctx: CheckContext,
): Promise<{ resourceId: string; period: ActivityRatePeriod; span: DateSpan }> {
  for (;;) {
    const resourceId = ctx.claimResource((_, kindId) => kindById(ctx.profile, kindId)?.supportsRoles === true);
    precondition(resourceId, 'no mutable resource has an activity rate period of 90 days');
    const periods = await showActivityRates(ctx.client, { resource_id: resourceId, date_range: WIDE_RANGE });
    for (const period of periods) {
      const span = splitRange(period.date_range);
      if (span && addDays(span.start, 90) <= span.end) return { resourceId, period, span };
    }
  }
}

/** A fully documented assignment inside `span` with values different from the period's. */
function assignment(
  ctx: CheckContext,
  resourceId: string,
  span: DateSpan,
  previousRate: number,
  externalId?: string,
): Record<string, unknown> {
  const rate = previousRate === 40 ? 60 : 40;
  const regime = ctx.profile.workRegimeIds?.[0];
  return {
    resource_id: resourceId,
    date_range: `${addDays(span.start, 30)}/${addDays(span.start, 59)}`,
    average_rate: rate,
    work_regime_id: regime ?? null,
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

function overlappingPairs(periods: ActivityRatePeriod[]): string[] {
  const spans = periods.map((p) => ({ p, s: splitRange(p.date_range)! }));
  const pairs: string[] = [];
  for (let i = 0; i < spans.length; i++) {
    for (let j = i + 1; j < spans.length; j++) {
      if (overlapsStrictly(spans[i]!.s, spans[j]!.s))
        pairs.push(`${spans[i]!.p.date_range} and ${spans[j]!.p.date_range}`);
    }
  }
  return pairs;
}

export default defineRuleGroup({
  section: '§4.2',
  title: 'Activity rates: assign, show, unassign',
  rules: [
    rule({
      id: 'show-activity-rates.response-shape',
      clause: '§4.4 Response; §2.5',
      sentence:
        'Response: status 200, JSON array of Activity rate period (section 2.5), with per-weekday patterns and associated or inherited work regimes.',
      level: 'MUST',
      needs: ['roleKindResource'],
      async check(ctx) {
        let seen = 0;
        for (const r of ctx.profile.mutableResources
          .filter((x) => kindById(ctx.profile, x.kindId)?.supportsRoles)
          .slice(0, 5)) {
          seen += (await showActivityRates(ctx.client, { resource_id: r.id, date_range: WIDE_RANGE })).length;
        }
        precondition(seen > 0, 'no profile resource has an activity rate period');
      },
    }),
    rule({
      id: 'show-activity-rates.average-rate-integer',
      clause: '§2.5',
      sentence: '`average_rate`: number, shown as an integer.',
      level: 'MUST',
      needs: ['roleKindResource'],
      async check(ctx) {
        for (const r of ctx.profile.mutableResources.slice(0, 5)) {
          const periods = await showActivityRates(ctx.client, { resource_id: r.id, date_range: WIDE_RANGE });
          periods.forEach((p, i) => {
            if (!Number.isInteger(p.average_rate))
              fail(
                `show-activity-rates(${r.id})[${i}].average_rate`,
                'must be shown as an integer',
                'an integer',
                p.average_rate,
              );
          });
        }
      },
    }),
    rule({
      id: 'activity-rates.assign-no-content',
      clause: '§4.2 Response',
      sentence: 'Response: status 204, meaning resource activity rate assigned; no body.',
      level: 'MUST',
      mutates: 'reversible',
      async check(ctx) {
        const { resourceId, period, span } = await resourceWithPeriod(ctx);
        await withRestoredRates(ctx.client, resourceId, async () => {
          const res = await ctx.client.post(
            'resources.assign-activity-rate',
            assignment(ctx, resourceId, span, period.average_rate),
          );
          if (res.status !== 204)
            fail('response.status', 'must be 204 when the activity rate is assigned', 204, res.status);
          if (res.text.length > 0)
            fail('response.body', 'must be empty (no body) with 204', '(empty)', res.text.slice(0, 200));
        });
      },
    }),
    rule({
      id: 'activity-rates.assigned-rate-shown',
      clause: '§4.2; §4.4',
      sentence:
        'Assigns an activity rate to a resource for a date range. Retrieves activity rate periods of a resource.',
      level: 'MUST',
      mutates: 'reversible',
      needs: ['workRegime'],
      async check(ctx) {
        const { resourceId, period, span } = await resourceWithPeriod(ctx);
        await withRestoredRates(ctx.client, resourceId, async () => {
          const body = assignment(ctx, resourceId, span, period.average_rate);
          expectSuccess(
            await ctx.client.post('resources.assign-activity-rate', body),
            'resources.assign-activity-rate',
          );
          const range = splitRange(body.date_range as string)!;
          const shown = await showActivityRates(ctx.client, {
            resource_id: resourceId,
            date_range: body.date_range as string,
          });
          const carrying = shown.filter((p) => covers(splitRange(p.date_range)!, range));
          const match = carrying.find(
            // "Shown as an integer": a rate may come back rounded.
            (p) =>
              Math.abs(p.average_rate - (body.average_rate as number)) <= 0.5 &&
              p.trainee === true &&
              p.paid_hourly === true &&
              p.apprentice === false &&
              p.work_regime.id === body.work_regime_id,
          );
          if (!match) {
            fail(
              'show-activity-rates after assignment',
              'must show a period covering the assigned range with the assigned average_rate, work regime and flags',
              {
                date_range: body.date_range,
                average_rate: body.average_rate,
                trainee: true,
                paid_hourly: true,
                apprentice: false,
              },
              shown,
            );
          }
        });
      },
    }),
    rule({
      id: 'activity-rates.no-overlap',
      clause: '§4.2 rule 1',
      sentence: 'Assigning a new rate may modify other activity rate periods.',
      level: 'MUST',
      mutates: 'reversible',
      async check(ctx) {
        const { resourceId, period, span } = await resourceWithPeriod(ctx);
        await withRestoredRates(ctx.client, resourceId, async () => {
          expectSuccess(
            await ctx.client.post(
              'resources.assign-activity-rate',
              assignment(ctx, resourceId, span, period.average_rate),
            ),
            'resources.assign-activity-rate',
          );
          const all = await showActivityRates(ctx.client, { resource_id: resourceId, date_range: WIDE_RANGE });
          const pairs = overlappingPairs(all);
          if (pairs.length > 0)
            fail(
              'show-activity-rates after assignment',
              'must not hold overlapping periods: the new rate replaces the others over its range',
              'no overlap',
              pairs,
            );
        });
      },
    }),
    rule({
      id: 'activity-rates.unassign-removes-coverage',
      clause: '§4.7',
      sentence: 'Unassigns an activity rate from a resource for a date range.',
      level: 'MUST',
      mutates: 'reversible',
      async check(ctx) {
        const { resourceId, span } = await resourceWithPeriod(ctx);
        await withRestoredRates(ctx.client, resourceId, async () => {
          const cut = { start: addDays(span.start, 30), end: addDays(span.start, 59) };
          const res = await ctx.client.post('resources.unassign-activity-rate', {
            resource_id: resourceId,
            date_range: `${cut.start}/${cut.end}`,
          });
          ctx.observe('status and body of unassign-activity-rate', {
            status: res.status,
            body: res.text.slice(0, 200),
          });
          expectSuccess(res, 'resources.unassign-activity-rate');
          const all = await showActivityRates(ctx.client, { resource_id: resourceId, date_range: WIDE_RANGE });
          // Days strictly inside the unassigned range: the ends are lenient (inclusive or not is not shown).
          const inner = { start: addDays(cut.start, 1), end: addDays(cut.end, -1) };
          const still = all.filter((p) => overlapsStrictly(splitRange(p.date_range)!, inner));
          if (still.length > 0)
            fail(
              'show-activity-rates after unassign',
              'must show no period over the unassigned range',
              'no period',
              still.map((p) => p.date_range),
            );
        });
      },
    }),
    rule({
      id: 'activity-rates.external-id-unique',
      clause: '§8 Uniqueness; §4.2 external_id',
      sentence: '`external_id` of an activity rate contract is unique across the instance.',
      level: 'MUST',
      mutates: 'reversible',
      async check(ctx) {
        const first = await resourceWithPeriod(ctx);
        const second = await resourceWithPeriod(ctx);
        const externalId = `dc-unique-${first.resourceId}-${Date.now()}`;
        await withRestoredRates(ctx.client, first.resourceId, () =>
          withRestoredRates(ctx.client, second.resourceId, async () => {
            expectSuccess(
              await ctx.client.post(
                'resources.assign-activity-rate',
                assignment(ctx, first.resourceId, first.span, first.period.average_rate, externalId),
              ),
              'assigning a contract with a new external_id',
            );
            const before = await showActivityRates(ctx.client, {
              resource_id: second.resourceId,
              date_range: WIDE_RANGE,
            });
            const res = await ctx.client.post(
              'resources.assign-activity-rate',
              assignment(ctx, second.resourceId, second.span, second.period.average_rate, externalId),
            );
            ctx.observe('status of a duplicate external_id', res.status);
            expectRejected(res, 'a contract whose external_id another resource already uses');
            const after = await showActivityRates(ctx.client, {
              resource_id: second.resourceId,
              date_range: WIDE_RANGE,
            });
            if (JSON.stringify(after) !== JSON.stringify(before))
              fail(
                'show-activity-rates after the rejection',
                'must be unchanged after a rejected request',
                before,
                after,
              );
          }),
        );
      },
    }),
    rule({
      id: 'activity-rates.default-pattern-even',
      clause: '§4.2 activity_rate_patterns',
      sentence:
        '`activity_rate_patterns`: when not specified, the rate is spread evenly over the worked days of the work regime.',
      level: 'MUST',
      mutates: 'reversible',
      needs: ['workRegime'],
      async check(ctx) {
        const { resourceId, span } = await resourceWithPeriod(ctx);
        await withRestoredRates(ctx.client, resourceId, async () => {
          const range = `${addDays(span.start, 30)}/${addDays(span.start, 59)}`;
          const regimeId = ctx.profile.workRegimeIds![0]!;
          expectSuccess(
            await ctx.client.post('resources.assign-activity-rate', {
              resource_id: resourceId,
              date_range: range,
              average_rate: 60,
              work_regime_id: regimeId,
              indemnity_enabled: true,
              compensation_enabled: false,
              trainee: false,
              apprentice: false,
              paid_hourly: false,
            }),
            'an assignment without activity_rate_patterns',
          );
          const shown = (await showActivityRates(ctx.client, { resource_id: resourceId, date_range: range })).find(
            (p) => covers(splitRange(p.date_range)!, splitRange(range)!),
          );
          if (!shown) fail('show-activity-rates', 'must show the assigned period', range, '(none)');
          const days = shown.work_regime.weekly_worked_days;
          for (const [week, pattern] of shown.activity_rate_patterns.entries()) {
            const worked = Object.values(pattern).filter((v) => v > 0);
            // Which weekdays are worked is not shown: only how many, and that they share the rate evenly.
            if (worked.length !== days || new Set(worked).size > 1) {
              fail(
                `activity_rate_patterns[${week}]`,
                `must spread the rate evenly over the ${days} worked days of the work regime`,
                `${days} equal non-zero days`,
                pattern,
              );
            }
          }
        });
      },
    }),
    rule({
      id: 'activity-rates.defaults-observed',
      clause: '§4.2 Request body; §4.2 rule 3',
      sentence:
        'Which fields are required: not shown. When not specified, the instance indemnity and compensation configuration and an even spread of the rate are adopted.',
      level: 'OBSERVED',
      mutates: 'reversible',
      async check(ctx) {
        const { resourceId, span } = await resourceWithPeriod(ctx);
        await withRestoredRates(ctx.client, resourceId, async () => {
          const range = `${addDays(span.start, 30)}/${addDays(span.start, 59)}`;
          const res = await ctx.client.post('resources.assign-activity-rate', {
            resource_id: resourceId,
            date_range: range,
            average_rate: 50,
            work_regime_id: null,
          });
          ctx.observe(
            'status of an assignment with only resource_id, date_range, average_rate and work_regime_id null',
            res.status,
          );
          if (res.status >= 200 && res.status < 300) {
            const shown = await showActivityRates(ctx.client, { resource_id: resourceId, date_range: range });
            ctx.observe('period shown for it (defaults adopted)', shown);
          }
        });
      },
    }),
  ],
});
