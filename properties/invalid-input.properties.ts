/**
 * Invalid input of every documented shape is rejected (a 4xx, never a 2xx or
 * 5xx) and changes nothing.
 */
import fc from 'fast-check';
import { invalidPaginationLimit, invalidTeamListsOfEachKind, malformedDateRange } from '../src/arbitraries/index.ts';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { precondition } from '../src/rules/assertions.ts';
import { listBody } from '../src/rules/steps/list.ts';
import { captureState } from '../src/rules/steps/state.ts';
import { claimRoleResource } from '../src/rules/steps/claims.ts';
import { withRestoredState } from '../src/rules/state-guard.ts';
import { checkProperty } from '../src/rules/check-property.ts';
import { judgeAll, judgeEach, rejected, type Judgement } from '../src/rules/judges/judgement.ts';
import type { Observed } from '../src/rules/judges/observed.ts';
import { unchangedBetween } from '../src/rules/judges/state.ts';

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

/** The steps the drivers of this group tag their requests with, which their judges read. */
const STEP = {
  /** A capture of the resource's state just before a run's request (the run before left it in the shared reads). */
  before: 'state before',
  /** A capture of the resource's state after a run's rejected request. */
  after: 'state after',
  /** The invalid request of a run: `<operation> with date_range "..."`, `limit ...`, `team_ids ...`. */
  dateRange: (operation: string, range: string) => `${operation} with date_range ${JSON.stringify(range)}`,
  limit: (limit: unknown) => `limit ${JSON.stringify(limit)}`,
  teamIds: (teamIds: unknown) => `team_ids ${JSON.stringify(teamIds)}`,
} as const;

const UNCHANGED = 'must be unchanged after a rejected request';

/** A run's invalid requests are rejected; when one could change state, the state read before it is read again after it. */
function rejectedAndUnchanged(log: readonly Observed[], requests: readonly Observed[], changes: boolean): Judgement {
  const rejection = judgeEach(requests, 'no invalid request was sent', (o) => rejected(o));
  if (!changes) return rejection;
  return judgeAll([rejection, unchangedBetween(log, { before: STEP.before, after: STEP.after, message: UNCHANGED })]);
}

/** The operation a request tagged by the malformed-date-range driver went to, when it is one of those. */
function rangeOperation(o: Observed): (typeof OPERATIONS_WITH_A_RANGE)[number] | undefined {
  return OPERATIONS_WITH_A_RANGE.find((op) => op === o.operation && o.step.startsWith(`${op} with date_range `));
}

export default defineRuleGroup({
  section: '§7',
  title: 'Invalid input properties',
  rules: [
    property({
      id: 'errors.prop.malformed-date-range-rejected',
      clause: '§2.1 DateRange',
      quote: '| DateRange | string made of two dates separated by `/`: `<start_date>/<end_date>` |',
      level: 'MUST',
      runs: 6,
      repeats: { judgedPerRun: 1 },
      mutates: 'reversible',
      needs: ['roleKindResource'],
      async drive(ctx) {
        const resourceId = await claimRoleResource(ctx);
        const team = ctx.profile.teams.find((t) => t.enabled)?.id;
        precondition(team, 'the profile names no enabled team');
        await captureState(ctx, resourceId, ['teams', 'rates']);
        const request = fc.record({
          range: malformedDateRange(),
          operation: fc.constantFrom(...OPERATIONS_WITH_A_RANGE),
        });
        await withRestoredState(ctx, resourceId, ['rates', 'teams'], () =>
          checkProperty(
            ctx,
            request,
            ({ range, operation }) =>
              ctx.judged(async () => {
                const parts = CHANGES[operation];
                // Read from the shared reads when the run before left the state there (a request changing it forgets them).
                if (parts.length > 0) await captureState(ctx, resourceId, parts, { step: STEP.before });
                const body: Record<string, unknown> = { resource_id: resourceId, date_range: range };
                if (operation === 'resources.assign-team')
                  Object.assign(body, { team_id: team, head: false, warning_aware: true });
                if (operation === 'resources.assign-activity-rate')
                  Object.assign(body, { average_rate: 50, work_regime_id: null });
                await ctx.repeat(() =>
                  ctx.client.postRaw(
                    operation,
                    { json: body },
                    { retry: 'judged', step: STEP.dateRange(operation, range) },
                  ),
                );
                if (parts.length > 0) await captureState(ctx, resourceId, parts, { step: STEP.after });
              }),
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
      judge(log) {
        const requests = log.filter((o) => rangeOperation(o) !== undefined);
        const changes = requests.some((o) => {
          const operation = rangeOperation(o);
          return operation !== undefined && CHANGES[operation].length > 0;
        });
        return rejectedAndUnchanged(log, requests, changes);
      },
    }),
    property({
      id: 'errors.prop.invalid-limit-rejected',
      clause: '§4.9 table; §4.8',
      quote:
        '| limit | integer or null | maximum entries in this page; null returns the whole collection in one response |',
      level: 'MUST',
      runs: 6,
      repeats: { judgedPerRun: 1 },
      needs: ['listKind'],
      async drive(ctx) {
        await checkProperty(
          ctx,
          invalidPaginationLimit(),
          (limit) =>
            ctx.judged(async () => {
              const json = { ...listBody(ctx), pagination: { limit, next_token: null } };
              await ctx.repeat(() =>
                ctx.client.postRaw('resources.list', { json }, { retry: 'judged', step: STEP.limit(limit) }),
              );
            }),
          { distinct: true, examples: ['10', 2.5, true] },
        );
      },
      judge: (log) =>
        rejectedAndUnchanged(
          log,
          log.filter((o) => o.operation === 'resources.list' && o.step.startsWith('limit ')),
          false,
        ),
    }),
    property({
      id: 'revoke-roles.prop.invalid-team-ids-rejected',
      clause: '§4.1 rule 7',
      quote: [
        'An empty `team_ids` array is rejected.',
        '| TeamList | either the string `*` (refers to all teams) or an array of Snowflake (refers to a list of teams) |',
      ],
      level: 'MUST',
      runs: 5,
      repeats: { judgedPerRun: 1 },
      mutates: 'irreversible',
      needs: ['roleKindResource'],
      async drive(ctx) {
        const resourceId = await claimRoleResource(ctx);
        // A revocation can change only roles: they are what must stay as they were.
        const before = await captureState(ctx, resourceId, ['roles']);
        const held = (before.roles ?? []).filter((a) => a.is_assigned);
        const first = held[0];
        precondition(first, 'the resource holds no role');
        const revocation = fc.record({
          teamIds: invalidTeamListsOfEachKind(),
          role: fc.constantFrom(...held.map((a) => a.role_id)),
        });
        await checkProperty(
          ctx,
          revocation,
          ({ teamIds, role }) =>
            ctx.judged(async () => {
              // Read from the shared reads when the run before left the state there (a revocation forgets them).
              await captureState(ctx, resourceId, ['roles'], { step: STEP.before });
              // Each repetition sends the next kind of invalid team_ids: every run tries each kind, and the
              // repetitions count toward a departure one time in ten.
              await ctx.repeat((i) => {
                const teamIdsSent = teamIds[i % teamIds.length];
                const json = { resource_ids: [resourceId], role_ids: [role], team_ids: teamIdsSent };
                return ctx.client.postRaw(
                  'resources.revoke-roles',
                  { json },
                  { retry: 'judged', step: STEP.teamIds(teamIdsSent) },
                );
              });
              await captureState(ctx, resourceId, ['roles'], { step: STEP.after });
            }),
          {
            distinct: true,
            // The empty list (§4.1 rule 7), a string that is not `*`, a list of what are not Snowflakes, a
            // number, an object.
            examples: [{ teamIds: [[], 'all', [1], 0, {}], role: first.role_id }],
          },
        );
      },
      judge: (log) =>
        rejectedAndUnchanged(
          log,
          log.filter((o) => o.operation === 'resources.revoke-roles' && o.step.startsWith('team_ids ')),
          true,
        ),
    }),
  ],
});
