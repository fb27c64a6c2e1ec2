/**
 * Invalid input of every documented shape is rejected (a 4xx, never a 2xx or
 * 5xx) and changes nothing.
 */
import fc from 'fast-check';
import { invalidPaginationLimit, invalidTeamList, malformedDateRange } from '../src/arbitraries/index.ts';
import { checkProperty } from '../src/rules/check-property.ts';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { listRoles, precondition, showActivityRates, showTeams } from '../src/rules/operations.ts';
import { WIDE_RANGE, withRestoredRates, withRestoredTeams } from '../src/rules/state-guard.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { expectRejected, fail } from '../src/rules/expect.ts';
import { canonicalJson } from '../src/core/canonical-json.ts';
import { kindById, listKindId } from '../src/target/profile.ts';

async function stateOf(ctx: CheckContext, resourceId: string): Promise<string> {
  return canonicalJson([
    await showTeams(ctx.client, { resource_id: resourceId, date_range: WIDE_RANGE }),
    await showActivityRates(ctx.client, { resource_id: resourceId, date_range: WIDE_RANGE }),
    await listRoles(ctx.client, { resource_ids: [resourceId] }),
  ]);
}

export default defineRuleGroup({
  section: '§7',
  title: 'Invalid input properties',
  rules: [
    property({
      id: 'errors.prop.malformed-date-range-rejected',
      clause: '§2.1 DateRange',
      sentence:
        'DateRange: string made of two dates separated by `/`. Any other value is rejected and changes nothing.',
      level: 'MUST',
      mutates: 'reversible',
      needs: ['roleKindResource'],
      async check(ctx) {
        const resourceId = ctx.claimResource((_, kindId) => kindById(ctx.profile, kindId)?.supportsRoles === true);
        precondition(resourceId, 'no mutable resource of a role-supporting kind is left');
        const team = ctx.profile.teams.find((t) => t.enabled)?.id;
        precondition(team, 'the profile names no enabled team');
        const before = await stateOf(ctx, resourceId);
        const request = fc.record({
          range: malformedDateRange(),
          operation: fc.constantFrom(
            'resources.show-teams',
            'resources.show-activity-rates',
            'resources.assign-team',
            'resources.assign-activity-rate',
            'resources.unassign-activity-rate',
          ),
        });
        await withRestoredRates(ctx.client, resourceId, () =>
          withRestoredTeams(ctx.client, resourceId, () =>
            checkProperty(ctx, request, async ({ range, operation }) => {
              const body: Record<string, unknown> = { resource_id: resourceId, date_range: range };
              if (operation === 'resources.assign-team')
                Object.assign(body, { team_id: team, head: false, warning_aware: true });
              if (operation === 'resources.assign-activity-rate')
                Object.assign(body, { average_rate: 50, work_regime_id: null });
              expectRejected(
                await ctx.client.post(operation, body),
                `${operation} with date_range ${JSON.stringify(range)}`,
              );
              const after = await stateOf(ctx, resourceId);
              if (after !== before)
                fail(`state of resource ${resourceId}`, 'must be unchanged after a rejected request', before, after);
            }),
          ),
        );
      },
    }),
    property({
      id: 'errors.prop.invalid-limit-rejected',
      clause: '§4.9 table; §4.8',
      sentence: '`limit`: integer or null, the maximum entries in this page. A value of another type is rejected.',
      level: 'MUST',
      needs: ['listKind'],
      async check(ctx) {
        const kind = listKindId(ctx.profile);
        precondition(kind, 'the target profile names no kind to list');
        await checkProperty(ctx, invalidPaginationLimit(), async (limit) => {
          expectRejected(
            await ctx.client.post('resources.list', { kind_id: kind, pagination: { limit, next_token: null } }),
            `limit ${JSON.stringify(limit)}`,
          );
        });
      },
    }),
    property({
      id: 'revoke-roles.prop.invalid-team-ids-rejected',
      clause: '§4.1 rule 7',
      sentence: 'An empty `team_ids` array is rejected; so is any value that is not a TeamList. Nothing changes.',
      level: 'MUST',
      mutates: 'irreversible',
      needs: ['roleKindResource'],
      async check(ctx) {
        const resourceId = ctx.claimResource((_, kindId) => kindById(ctx.profile, kindId)?.supportsRoles === true);
        precondition(resourceId, 'no mutable resource of a role-supporting kind is left');
        const held = (await listRoles(ctx.client, { resource_ids: [resourceId] })).filter((a) => a.is_assigned);
        precondition(held.length > 0, 'the resource holds no role');
        const before = await stateOf(ctx, resourceId);
        await checkProperty(
          ctx,
          fc.record({ teamIds: invalidTeamList(), role: fc.constantFrom(...held.map((a) => a.role_id)) }),
          async ({ teamIds, role }) => {
            expectRejected(
              await ctx.client.post('resources.revoke-roles', {
                resource_ids: [resourceId],
                role_ids: [role],
                team_ids: teamIds,
              }),
              `team_ids ${JSON.stringify(teamIds)}`,
            );
            const after = await stateOf(ctx, resourceId);
            if (after !== before)
              fail(`state of resource ${resourceId}`, 'must be unchanged after a rejected request', before, after);
          },
        );
      },
    }),
  ],
});
