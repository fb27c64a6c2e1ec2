/**
 * §4.1, §4.2 and §4.4 as properties, on resources the profile lets the suite change.
 */
import fc from 'fast-check';
import { activityRatePattern, dateRange, teamList } from '../src/arbitraries/index.ts';
import { checkProperty } from '../src/rules/check-property.ts';
import { covers, overlapsStrictly, splitRange } from '../src/rules/dates.ts';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { OWNERS, listRoles, precondition, showActivityRates, type RoleAssociation } from '../src/rules/operations.ts';
import { WIDE_RANGE, withRestoredRates } from '../src/rules/state-guard.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { expectSuccess, fail } from '../src/rules/expect.ts';
import { canonicalJson } from '../src/core/canonical-json.ts';
import { kindById } from '../src/target/profile.ts';

function claimRoleResource(ctx: CheckContext): string {
  const id = ctx.claimResource((_, kindId) => kindById(ctx.profile, kindId)?.supportsRoles === true);
  precondition(id, 'no mutable resource of a role-supporting kind is left');
  return id;
}

function rolesState(list: RoleAssociation[]): string {
  return canonicalJson(
    list
      .map((a) => ({ ...a, team_ids: Array.isArray(a.team_ids) ? [...a.team_ids].sort() : a.team_ids }))
      .sort((a, b) => (a.role_id < b.role_id ? -1 : 1)),
  );
}

export default defineRuleGroup({
  section: '§4.1',
  title: 'Role and activity-rate properties',
  rules: [
    property({
      id: 'revoke-roles.prop.idempotent',
      clause: '§4.1 rule 3',
      sentence:
        'Revoking a role, or a team, that the resource does not have changes nothing: revoking twice equals revoking once.',
      level: 'MUST',
      mutates: 'irreversible',
      needs: ['roleKindResource'],
      async check(ctx) {
        const resourceId = claimRoleResource(ctx);
        const roles = ctx.profile.roles
          .filter((r) => !r.definesKindId && !ctx.profile.kinds.some((k) => k.definingRoleId === r.id))
          .map((r) => r.id);
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
          expectSuccess(
            await ctx.client.post('resources.revoke-roles', body),
            'first revocation',
            undefined,
            OWNERS.revoke,
          );
          const once = rolesState(await listRoles(ctx.client, { resource_ids: [resourceId] }));
          expectSuccess(
            await ctx.client.post('resources.revoke-roles', body),
            'the same revocation again',
            undefined,
            OWNERS.revoke,
          );
          const twice = rolesState(await listRoles(ctx.client, { resource_ids: [resourceId] }));
          if (once !== twice)
            fail(
              'list-roles after the second revocation',
              'must equal the state after the first: revoking what is no longer held changes nothing',
              once,
              twice,
            );
        });
      },
    }),
    property({
      id: 'activity-rates.prop.assign-then-show',
      clause: '§4.2 rule 1; §4.4',
      sentence:
        'What assign-activity-rate assigns for a date range, show-activity-rates shows over that range, and the periods of a resource never overlap.',
      level: 'MUST',
      mutates: 'reversible',
      needs: ['roleKindResource', 'workRegime'],
      async check(ctx) {
        const resourceId = claimRoleResource(ctx);
        const regimes = ctx.profile.workRegimeIds!;
        // Inside the resource's longest existing period: dates a server already accepts for it.
        const periods = await showActivityRates(ctx.client, { resource_id: resourceId, date_range: WIDE_RANGE });
        const longest = periods
          .map((p) => splitRange(p.date_range)!)
          .sort((a, b) => Date.parse(b.end) - Date.parse(b.start) - (Date.parse(a.end) - Date.parse(a.start)))[0];
        precondition(
          longest && longest.start < longest.end,
          'the resource has no activity rate period to assign inside',
        );
        const assignment = fc.record({
          range: dateRange({ min: longest.start, max: longest.end, minLengthDays: 1, maxLengthDays: 60 }),
          rate: fc.integer({ min: 0, max: 100 }),
          pattern: activityRatePattern(),
          regime: fc.constantFrom(...regimes),
          trainee: fc.boolean(),
          apprentice: fc.boolean(),
          paidHourly: fc.boolean(),
        });
        await withRestoredRates(ctx.client, resourceId, () =>
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
            expectSuccess(res, 'resources.assign-activity-rate');
            const span = splitRange(a.range)!;
            const shown = await showActivityRates(ctx.client, { resource_id: resourceId, date_range: a.range });
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
            if (!match)
              fail(
                'show-activity-rates',
                'must show a period over the assigned range carrying the assigned values',
                a,
                shown,
              );
            const all = await showActivityRates(ctx.client, { resource_id: resourceId, date_range: WIDE_RANGE });
            const spans = all.map((p) => splitRange(p.date_range)!);
            for (let i = 0; i < spans.length; i++) {
              for (let j = i + 1; j < spans.length; j++) {
                if (overlapsStrictly(spans[i]!, spans[j]!))
                  fail('show-activity-rates', 'must not hold overlapping periods', 'no overlap', [
                    all[i]!.date_range,
                    all[j]!.date_range,
                  ]);
              }
            }
          }),
        );
      },
    }),
  ],
});
