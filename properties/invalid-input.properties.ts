/**
 * Invalid input of every documented shape is rejected (a 4xx, never a 2xx or
 * 5xx) and changes nothing.
 */
import fc from 'fast-check';
import { invalidPaginationLimit, invalidTeamList, malformedDateRange } from '../src/arbitraries/index.ts';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { expectRejected, precondition } from '../src/rules/assertions.ts';
import { listBody } from '../src/rules/steps/list.ts';
import { captureState, expectStateUnchanged, partOf } from '../src/rules/steps/state.ts';
import { claimRoleResource } from '../src/rules/steps/claims.ts';
import { withRestoredState } from '../src/rules/state-guard.ts';
import { checkProperty } from '../src/rules/check-property.ts';

const OPERATIONS_WITH_A_RANGE = [
  'resources.show-teams',
  'resources.show-activity-rates',
  'resources.assign-team',
  'resources.assign-activity-rate',
  'resources.unassign-activity-rate',
] as const;

/** What each operation could change if it wrongly accepted the request: the state read after it. */
const CHANGES: Record<(typeof OPERATIONS_WITH_A_RANGE)[number], ReadonlyArray<'teams' | 'rates'>> = {
  'resources.show-teams': [],
  'resources.show-activity-rates': [],
  'resources.assign-team': ['teams'],
  'resources.assign-activity-rate': ['rates'],
  'resources.unassign-activity-rate': ['rates'],
};

export default defineRuleGroup({
  section: '§7',
  title: 'Invalid input properties',
  rules: [
    property({
      id: 'errors.prop.malformed-date-range-rejected',
      clause: '§2.1 DateRange',
      quote: '| DateRange | string made of two dates separated by `/`: `<start_date>/<end_date>` |',
      level: 'MUST',
      runs: 10,
      mutates: 'reversible',
      needs: ['roleKindResource'],
      async check(ctx) {
        const resourceId = await claimRoleResource(ctx);
        const team = ctx.profile.teams.find((t) => t.enabled)?.id;
        precondition(team, 'the profile names no enabled team');
        const before = await captureState(ctx, resourceId, ['teams', 'rates']);
        const request = fc.record({
          range: malformedDateRange(),
          operation: fc.constantFrom(...OPERATIONS_WITH_A_RANGE),
        });
        await withRestoredState(ctx, resourceId, ['rates', 'teams'], () =>
          checkProperty(
            ctx,
            request,
            async ({ range, operation }) => {
              const body: Record<string, unknown> = { resource_id: resourceId, date_range: range };
              if (operation === 'resources.assign-team')
                Object.assign(body, { team_id: team, head: false, warning_aware: true });
              if (operation === 'resources.assign-activity-rate')
                Object.assign(body, { average_rate: 50, work_regime_id: null });
              await expectRejected(() => ctx.client.postRaw(operation, { json: body }, { retry: 'judged' }), {
                step: `${operation} with date_range ${JSON.stringify(range)}`,
              });
              const parts = CHANGES[operation];
              if (parts.length > 0) {
                await expectStateUnchanged(ctx, partOf(before, parts), {
                  message: 'must be unchanged after a rejected request',
                });
              }
            },
            {
              distinct: true,
              // Each operation that changes state, with a range of each broken shape.
              examples: [
                { range: '2026-01-01', operation: 'resources.assign-team' as const },
                { range: '2026-02-30/2026-03-10', operation: 'resources.assign-activity-rate' as const },
                { range: '2026-01-01 - 2026-02-01', operation: 'resources.unassign-activity-rate' as const },
              ],
            },
          ),
        );
      },
    }),
    property({
      id: 'errors.prop.invalid-limit-rejected',
      clause: '§4.9 table; §4.8',
      quote:
        '| limit | integer or null | maximum entries in this page; null returns the whole collection in one response |',
      level: 'MUST',
      runs: 12,
      needs: ['listKind'],
      async check(ctx) {
        await checkProperty(
          ctx,
          invalidPaginationLimit(),
          async (limit) => {
            await expectRejected(
              () =>
                ctx.client.postRaw(
                  'resources.list',
                  { json: { ...listBody(ctx), pagination: { limit, next_token: null } } },
                  { retry: 'judged' },
                ),
              { step: `limit ${JSON.stringify(limit)}` },
            );
          },
          { distinct: true, examples: ['10', 2.5, true] },
        );
      },
    }),
    property({
      id: 'revoke-roles.prop.invalid-team-ids-rejected',
      clause: '§4.1 rule 7',
      quote: [
        'An empty `team_ids` array is rejected.',
        '| TeamList | either the string `*` (refers to all teams) or an array of Snowflake (refers to a list of teams) |',
      ],
      level: 'MUST',
      runs: 8,
      mutates: 'irreversible',
      needs: ['roleKindResource'],
      async check(ctx) {
        const resourceId = await claimRoleResource(ctx);
        // A revocation can change only roles: they are what must stay as they were.
        const before = await captureState(ctx, resourceId, ['roles']);
        const held = (before.roles ?? []).filter((a) => a.is_assigned);
        precondition(held.length > 0, 'the resource holds no role');
        const revocation = fc.record({
          teamIds: invalidTeamList(),
          role: fc.constantFrom(...held.map((a) => a.role_id)),
        });
        await checkProperty(
          ctx,
          revocation,
          async ({ teamIds, role }) => {
            await expectRejected(
              () =>
                ctx.client.postRaw(
                  'resources.revoke-roles',
                  {
                    json: { resource_ids: [resourceId], role_ids: [role], team_ids: teamIds },
                  },
                  { retry: 'judged' },
                ),
              { step: `team_ids ${JSON.stringify(teamIds)}` },
            );
            await expectStateUnchanged(ctx, before, { message: 'must be unchanged after a rejected request' });
          },
          {
            distinct: true,
            // The empty list (§4.1 rule 7), a string that is not `*`, a list of what are not Snowflakes.
            examples: [
              { teamIds: [], role: held[0]!.role_id },
              { teamIds: 'all', role: held[0]!.role_id },
              { teamIds: [1], role: held[0]!.role_id },
            ],
          },
        );
      },
    }),
  ],
});
