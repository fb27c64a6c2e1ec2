/**
 * §4.1, §4.2 and §4.4 as properties, on resources the profile lets the suite change.
 */
import fc from 'fast-check';
import { activityRatePattern, dateRange, teamList } from '../src/arbitraries/index.ts';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { expectSuccess, fail, precondition } from '../src/rules/assertions.ts';
import { isDefiningRole, revokeRoles } from '../src/rules/steps/roles.ts';
import { WIDE_RANGE, showActivityRates } from '../src/rules/steps/assignations.ts';
import { captureState, stateDifference } from '../src/rules/steps/state.ts';
import { claimRoleResource } from '../src/rules/steps/claims.ts';
import { withRestoredState } from '../src/rules/state-guard.ts';
import { checkProperty } from '../src/rules/check-property.ts';
import { covers, splitRange } from '../src/rules/dates.ts';

export default defineRuleGroup({
  section: '§4.1',
  title: 'Role and activity-rate properties',
  rules: [
    property({
      id: 'revoke-roles.prop.idempotent',
      clause: '§4.1 rule 3',
      quote: 'Revoking a role, or a team, that the resource does not have changes nothing.',
      level: 'MUST',
      runs: 4,
      mutates: 'irreversible',
      needs: ['roleKindResource'],
      async check(ctx) {
        const resourceId = await claimRoleResource(ctx);
        const roles = ctx.profile.roles.filter((r) => !isDefiningRole(ctx, r.id)).map((r) => r.id);
        const teams = ctx.profile.teams.filter((t) => t.enabled).map((t) => t.id);
        precondition(roles.length > 0 && teams.length > 0, 'the profile names no role or team to revoke');
        const revocation = fc.record({
          roleId: fc.constantFrom(...roles),
          teamIds: fc.option(teamList({ teamIds: teams }), { nil: undefined }),
        });
        await checkProperty(ctx, revocation, async ({ roleId, teamIds }) => {
          const body = {
            resource_ids: [resourceId],
            role_ids: [roleId],
            ...(teamIds !== undefined ? { team_ids: teamIds } : {}),
          };
          await revokeRoles(ctx, body, { step: 'first revocation' });
          const once = await captureState(ctx, resourceId, ['roles'], { step: 'after the first revocation' });
          await revokeRoles(ctx, body, { step: 'the same revocation again' });
          const twice = await captureState(ctx, resourceId, ['roles'], { step: 'after the second revocation' });
          const difference = stateDifference(once, twice);
          if (difference) {
            fail({
              where: 'list-roles after the second revocation',
              message: 'must equal the state after the first: revoking what is no longer held changes nothing',
              expected: 'unchanged',
              actual: difference,
            });
          }
        });
      },
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
      async check(ctx) {
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
          checkProperty(ctx, assignment, async (a) => {
            const res = await ctx.client.post('resources.assign-activity-rate', {
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
            });
            expectSuccess(res, { step: 'resources.assign-activity-rate' });
            const span = splitRange(a.range)!;
            const shown = await showActivityRates(ctx, { resource_id: resourceId, date_range: a.range });
            const match = shown.find(
              // "Shown as an integer" is another rule's business: a rounded rate matches.
              (p) =>
                covers(splitRange(p.date_range)!, span) &&
                Math.abs(p.average_rate - a.rate) <= 0.5 &&
                p.trainee === a.trainee &&
                p.apprentice === a.apprentice &&
                p.paid_hourly === a.paidHourly &&
                p.work_regime.id === a.regime,
            );
            if (!match) {
              fail({
                where: 'show-activity-rates',
                message: 'must show a period over the assigned range carrying the assigned values',
                expected: a,
                actual: shown,
              });
            }
          }),
        );
      },
    }),
  ],
});
