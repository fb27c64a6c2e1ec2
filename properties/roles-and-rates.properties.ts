/**
 * §4.1, §4.2 and §4.4 as properties, on resources the profile lets the suite change.
 */
import fc from 'fast-check';
import { activityRatePattern, dateRange, teamList } from '../src/arbitraries/index.ts';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { precondition } from '../src/rules/assertions.ts';
import { isDefiningRole } from '../src/rules/steps/roles.ts';
import { WIDE_RANGE, showActivityRates } from '../src/rules/steps/assignations.ts';
import { captureState } from '../src/rules/steps/state.ts';
import { claimRoleResource } from '../src/rules/steps/claims.ts';
import { withRestoredState } from '../src/rules/state-guard.ts';
import { checkProperty } from '../src/rules/check-property.ts';
import { covers, splitRange } from '../src/rules/dates.ts';
import { accepted, firstWithStep, isClean, noEvidence, type Judgement } from '../src/rules/judges/judgement.ts';
import type { Observed } from '../src/rules/judges/observed.ts';
import { stateIn } from '../src/rules/judges/state.ts';
import { stateDifference } from '../src/rules/resource-state.ts';
import { matchesSchema } from '../src/schemas/index.ts';

/** The steps the drivers of this group tag their requests with, which their judges read. */
const STEP = {
  firstRevocation: 'first revocation',
  afterFirst: 'after the first revocation',
  secondRevocation: 'the same revocation again',
  afterSecond: 'after the second revocation',
  assign: 'the assignment',
  readAfterAssign: 'show-activity-rates after the assignment',
} as const;

/** A request the driver sent under `step`, accepted; otherwise the judgement that stops there. */
function acceptedAt(log: readonly Observed[], step: string): Judgement {
  const o = firstWithStep(log, step);
  return o ? accepted(o) : noEvidence(`no ${step} was sent`);
}

/** Revoking twice: the roles read after the second revocation are those read after the first. */
function judgeRevokedTwice(log: readonly Observed[]): Judgement {
  for (const step of [STEP.firstRevocation, STEP.secondRevocation]) {
    const revoked = acceptedAt(log, step);
    if (!isClean(revoked)) return revoked;
  }
  const once = stateIn(log, STEP.afterFirst);
  const twice = stateIn(log, STEP.afterSecond);
  if (!once?.roles || !twice?.roles) return noEvidence('the roles were not read after both revocations');
  const difference = stateDifference(once, twice);
  return difference
    ? [
        {
          where: `list-roles ${STEP.afterSecond}`,
          message: 'must equal the state after the first: revoking what is no longer held changes nothing',
          expected: 'unchanged',
          actual: difference,
        },
      ]
    : [];
}

/** An assignment, then a read over its range: a period covers the range with what was sent. */
function judgeAssignThenShow(log: readonly Observed[]): Judgement {
  const o = firstWithStep(log, STEP.assign);
  if (!o || !matchesSchema('AssignActivityRateRequest', o.request)) return noEvidence('no assignment was sent');
  const body = o.request;
  const assigned = accepted(o);
  if (!isClean(assigned)) return assigned;
  const span = splitRange(body.date_range);
  if (!span) return noEvidence(`the assignment's range ${body.date_range} is not a range`);
  const read = firstWithStep(log, STEP.readAfterAssign);
  if (!read) return noEvidence(`no ${STEP.readAfterAssign}`);
  const answer = accepted(read, { status: 200 });
  if (!isClean(answer)) return answer;
  // The read's shape is show-activity-rates.response-shape's: a body of another shape says nothing here.
  if (!matchesSchema('ActivityRatePeriodList', read.body)) return noEvidence(`${read.step} showed no list of periods`);
  const shown = read.body;
  const match = shown.find((p) => {
    const shownSpan = splitRange(p.date_range);
    // "Shown as an integer" is another rule's business: a rounded rate matches. A field not sent imposes nothing.
    return (
      shownSpan !== undefined &&
      covers(shownSpan, span) &&
      Math.abs(p.average_rate - (body.average_rate ?? p.average_rate)) <= 0.5 &&
      (body.trainee === undefined || p.trainee === body.trainee) &&
      (body.apprentice === undefined || p.apprentice === body.apprentice) &&
      (body.paid_hourly === undefined || p.paid_hourly === body.paid_hourly) &&
      (body.work_regime_id === null || body.work_regime_id === undefined || p.work_regime.id === body.work_regime_id)
    );
  });
  if (match) return [];
  return [
    {
      where: read.step,
      message: 'must show a period over the assigned range carrying the assigned values',
      expected: {
        date_range: body.date_range,
        average_rate: body.average_rate,
        work_regime_id: body.work_regime_id,
        trainee: body.trainee,
        apprentice: body.apprentice,
        paid_hourly: body.paid_hourly,
      },
      actual: shown,
    },
  ];
}

export default defineRuleGroup({
  section: '§4.1',
  title: 'Role and activity-rate properties',
  rules: [
    property({
      id: 'revoke-roles.prop.idempotent',
      clause: '§4.1 rule 3',
      quote: 'Revoking a role, or a team, that the resource does not have changes nothing.',
      level: 'MUST',
      runs: 6,
      mutates: 'irreversible',
      needs: ['roleKindResource'],
      async drive(ctx) {
        const resourceId = await claimRoleResource(ctx);
        const roles = ctx.profile.roles.filter((r) => !isDefiningRole(ctx, r.id)).map((r) => r.id);
        const teams = ctx.profile.teams.filter((t) => t.enabled).map((t) => t.id);
        precondition(roles.length > 0 && teams.length > 0, 'the profile names no role or team to revoke');
        // A role the resource holds is where a second revocation can differ from the first: drawn three
        // times as often as any role, and `*` (the whole role) three times in four beside a list.
        const held = new Set(
          ((await captureState(ctx, resourceId, ['roles'])).roles ?? [])
            .filter((a) => a.is_assigned)
            .map((a) => a.role_id),
        );
        const heldRoles = roles.filter((r) => held.has(r));
        const role = fc.constantFrom(...roles);
        const revocation = fc.record({
          roleId: heldRoles.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...heldRoles), weight: 3 }, role) : role,
          teamIds: fc.option(fc.oneof(fc.constant('*' as const), teamList({ teamIds: teams })), { nil: undefined }),
        });
        await checkProperty(ctx, revocation, ({ roleId, teamIds }) =>
          ctx.judged(async () => {
            const body = {
              resource_ids: [resourceId],
              role_ids: [roleId],
              ...(teamIds !== undefined ? { team_ids: teamIds } : {}),
            };
            await ctx.client.post('resources.revoke-roles', body, { step: STEP.firstRevocation });
            await captureState(ctx, resourceId, ['roles'], { step: STEP.afterFirst });
            await ctx.client.post('resources.revoke-roles', body, { step: STEP.secondRevocation });
            await captureState(ctx, resourceId, ['roles'], { step: STEP.afterSecond });
          }),
        );
      },
      judge: judgeRevokedTwice,
    }),
    property({
      id: 'activity-rates.prop.assign-then-show',
      clause: '§4.2 rule 1; §4.4',
      quote: [
        'Assigns an activity rate to a resource for a date range.',
        'Retrieves activity rate periods of a resource',
      ],
      level: 'MUST',
      runs: 8,
      mutates: 'reversible',
      needs: ['roleKindResource', 'workRegime'],
      async drive(ctx) {
        const resourceId = await claimRoleResource(ctx);
        // Inside the resource's longest existing period: dates a server already accepts for it.
        const periods = await showActivityRates(ctx, { resource_id: resourceId, date_range: WIDE_RANGE });
        const length = (s: { start: string; end: string }): number => Date.parse(s.end) - Date.parse(s.start);
        const longest = periods.map((p) => splitRange(p.date_range)!).sort((a, b) => length(b) - length(a))[0];
        precondition(
          longest && longest.start < longest.end,
          'the resource has no activity rate period to assign inside',
        );
        const assignment = fc.record({
          range: dateRange({ min: longest.start, max: longest.end, minLengthDays: 1, maxLengthDays: 60 }),
          rate: fc.integer({ min: 0, max: 100 }),
          pattern: activityRatePattern(),
          regime: fc.constantFrom(...ctx.workRegimeIds),
          trainee: fc.boolean(),
          apprentice: fc.boolean(),
          paidHourly: fc.boolean(),
        });
        await withRestoredState(ctx, resourceId, ['rates'], () =>
          checkProperty(ctx, assignment, (a) =>
            ctx.judged(async () => {
              const res = await ctx.client.post(
                'resources.assign-activity-rate',
                {
                  resource_id: resourceId,
                  date_range: a.range,
                  average_rate: a.rate,
                  work_regime_id: a.regime,
                  indemnity_enabled: true,
                  compensation_enabled: false,
                  trainee: a.trainee,
                  apprentice: a.apprentice,
                  paid_hourly: a.paidHourly,
                  activity_rate_patterns: [a.pattern],
                },
                { step: STEP.assign },
              );
              if (res.status < 200 || res.status >= 300) return;
              await showActivityRates(
                ctx,
                { resource_id: resourceId, date_range: a.range },
                { step: STEP.readAfterAssign },
              );
            }),
          ),
        );
      },
      judge: judgeAssignThenShow,
    }),
  ],
});
