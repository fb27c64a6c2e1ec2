/**
 * §4.5 resources.show-teams and §4.3 resources.assign-team.
 */
import type { ApiResponse } from '../src/client/directory-client.ts';
import { untouchedRoleResources } from '../src/rules/steps/roles.ts';
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { expectEach, expectJson, expectSuccess, fail, precondition } from '../src/rules/assertions.ts';
import { WIDE_RANGE, showTeams } from '../src/rules/steps/assignations.ts';
import { captureState, expectStateUnchanged, type ResourceState } from '../src/rules/steps/state.ts';
import { withRestoredState } from '../src/rules/state-guard.ts';
import { addDays, covers, overlapsStrictly, splitRange } from '../src/rules/dates.ts';
import type { AssignTeamRequest, TeamAssignation } from '../src/schemas/index.ts';

interface Scenario {
  resourceId: string;
  head: TeamAssignation;
  otherTeam: string;
  range: string;
}

/**
 * A claimed resource with a head assignation spanning at least 60 days, and
 * an enabled team it is not assigned to. Assigning that team as head over the
 * middle of the head assignation overlaps it: the conflict §4.3 warns about.
 */
async function conflictScenario(ctx: CheckContext): Promise<Scenario> {
  for (;;) {
    const resourceId = await ctx.claimResource();
    precondition(resourceId, 'no mutable resource has a head team assignation spanning 60 days');
    const teams = await showTeams(ctx, { resource_id: resourceId, date_range: WIDE_RANGE });
    const head = teams.find((t) => {
      const s = splitRange(t.date_range);
      return t.head && s && addDays(s.start, 60) <= s.end;
    });
    const assigned = new Set(teams.map((t) => t.team.id));
    const otherTeam = ctx.profile.teams.find((t) => t.enabled && !assigned.has(t.id))?.id;
    if (!head || !otherTeam) continue;
    const s = splitRange(head.date_range)!;
    return { resourceId, head, otherTeam, range: `${addDays(s.start, 20)}/${addDays(s.start, 40)}` };
  }
}

interface Conflict {
  scenario: Scenario;
  /** The resource's assignations before the conflicting assignment. */
  before: ResourceState;
  /** The answer to it. */
  res: ApiResponse;
}

/**
 * Builds the conflict scenario, sends the conflicting assignment (recording
 * its status: the status of both answers is not shown) and hands the
 * outcome to `judge`; the resource's assignations are restored afterwards.
 */
async function afterConflictingAssignment(
  ctx: CheckContext,
  warningAware: boolean,
  judge: (conflict: Conflict) => Promise<void>,
): Promise<void> {
  const scenario = await conflictScenario(ctx);
  await withRestoredState(ctx, scenario.resourceId, ['teams'], async () => {
    const before = await captureState(ctx, scenario.resourceId, ['teams'], { step: 'show-teams before' });
    const res = await ctx.client.post('resources.assign-team', assignBody(scenario, warningAware));
    ctx.observe(`status of a conflicting assignment with warning_aware ${warningAware}`, res.status);
    await judge({ scenario, before, res });
  });
}

function assignBody(s: Scenario, warningAware: boolean): AssignTeamRequest {
  return {
    resource_id: s.resourceId,
    team_id: s.otherTeam,
    head: true,
    date_range: s.range,
    regrouping: 'conformance',
    contract_number: 'DC-CONFORMANCE',
    external_id: `dc-conformance-${s.resourceId}`,
    warning_aware: warningAware,
  };
}

function isWarning(res: ApiResponse): boolean {
  return typeof res.json === 'object' && res.json !== null && 'warning_type' in res.json;
}

/**
 * A resource whose assignations `pick` finds worth looking at through a filter: first among those
 * the suite never changes (so no assignment running beside this rule moves them between two
 * reads), then among the profile's mutable ones.
 */
async function firstResourceWhere<T>(
  ctx: CheckContext,
  pick: (assignations: TeamAssignation[]) => T | undefined,
): Promise<{ resourceId: string; found: T } | undefined> {
  const untouched = await untouchedRoleResources(ctx, 10);
  for (const id of [...untouched, ...ctx.profile.mutableResources.map((r) => r.id)]) {
    const found = pick(await showTeams(ctx, { resource_id: id, date_range: WIDE_RANGE }));
    if (found !== undefined) return { resourceId: id, found };
  }
  return undefined;
}

/** What the filter rules of show-teams enforce: each field of the request body filters the assignations. */
const FILTER_QUOTE = [
  'Request body: `resource_id` (Snowflake), `team_ids` (array of Snowflake), `head` (boolean), `date_range` (DateRange).',
  'Retrieves team assignations of a resource.',
] as const;

/** Assignations as sorted keys, to compare two answers as sets. */
function assignationKeys(list: readonly TeamAssignation[]): string[] {
  return list.map((a) => `${a.team.id}/${String(a.head)}/${a.date_range}`).sort();
}

export default defineRuleGroup({
  section: '§4.3',
  title: 'Team assignations: resources.show-teams and resources.assign-team',
  rules: [
    rule({
      id: 'show-teams.response-shape',
      clause: '§4.5 Response; §2.4',
      quote: 'Response: status 200, JSON array of Team assignation (section 2.4).',
      level: 'MUST',
      needs: ['roleKindResource'],
      async check(ctx) {
        let seen = 0;
        for (const r of ctx.profile.mutableResources.slice(0, 5)) {
          const res = await ctx.client.post('resources.show-teams', { resource_id: r.id, date_range: WIDE_RANGE });
          expectSuccess(res, { step: 'resources.show-teams', status: 200 });
          seen += expectJson(res, 'TeamAssignationList').length;
        }
        // An empty array has no shape to judge: the items are what §2.4 describes.
        precondition(seen > 0, 'no profile resource read has a team assignation');
        ctx.observe('team assignations looked at', seen);
      },
    }),
    rule({
      id: 'show-teams.head-filter',
      clause: '§4.5',
      quote: FILTER_QUOTE,
      level: 'MUST',
      needs: ['roleKindResource'],
      async check(ctx) {
        const mixed = await firstResourceWhere(ctx, (all) =>
          all.some((a) => a.head) && all.some((a) => !a.head) ? true : undefined,
        );
        precondition(mixed, 'no profile resource has both head and side assignations');
        for (const head of [true, false]) {
          const step = `show-teams(head: ${head})`;
          const some = await showTeams(ctx, { resource_id: mixed.resourceId, head, date_range: WIDE_RANGE }, { step });
          expectEach(some, (a, i) =>
            a.head === head
              ? undefined
              : {
                  where: `${step}[${i}].head`,
                  message: `must return only assignations whose head is ${head}`,
                  expected: head,
                  actual: a.head,
                },
          );
          if (some.length === 0) {
            fail({
              where: step,
              message: `must return the resource's assignations whose head is ${head}`,
              expected: 'at least one',
              actual: 0,
            });
          }
        }
      },
    }),
    rule({
      id: 'show-teams.team-filter',
      clause: '§4.5',
      quote: FILTER_QUOTE,
      level: 'MUST',
      needs: ['roleKindResource'],
      async check(ctx) {
        // team_ids is a list: each team alone, then several in both orders, must answer exactly
        // the unfiltered assignations of those teams.
        const found = await firstResourceWhere(ctx, (all) => {
          const teamIds = [...new Set(all.map((a) => a.team.id))];
          return teamIds.length >= 2 ? { all, teamIds } : undefined;
        });
        precondition(found, 'no profile resource is assigned to two teams');
        const { all, teamIds } = found.found;
        const resource_id = found.resourceId;
        const expectTeams = async (ids: readonly string[], where: string): Promise<void> => {
          const some = await showTeams(
            ctx,
            { resource_id, team_ids: [...ids], date_range: WIDE_RANGE },
            { step: where },
          );
          const want = assignationKeys(all.filter((a) => ids.includes(a.team.id)));
          const got = assignationKeys(some);
          if (JSON.stringify(got) !== JSON.stringify(want)) {
            fail({
              where,
              message: 'must return the assignations of the requested teams, and only those',
              expected: want,
              actual: got,
            });
          }
        };
        for (const id of teamIds.slice(0, 3)) await expectTeams([id], `show-teams(team_ids [${id}])`);
        const several = teamIds.slice(0, 3);
        await expectTeams(several, `show-teams(${several.length} team_ids in listed order)`);
        await expectTeams([...several].reverse(), `show-teams(${several.length} team_ids in reverse order)`);
      },
    }),
    rule({
      id: 'assign-team.warning-shape',
      clause: '§4.3 Responses',
      quote:
        'Warning body (returned when the assignment conflicts with existing associations): JSON object with fields `warning_type` (string, value `assign-conflicting-resource-teams`), `description` (string), `details` (object with arrays `modifications` and `deletions`), `required_action` (string).',
      level: 'MUST',
      mutates: 'reversible',
      async check(ctx) {
        await afterConflictingAssignment(ctx, false, async ({ res }) => {
          precondition(
            isWarning(res),
            `the target returned no warning for an overlapping head assignment (status ${res.status}); which assignments conflict is not shown`,
          );
          // "Other values of warning_type: not shown": the value is recorded, not judged.
          const warning = expectJson(res, 'AssignTeamWarning');
          ctx.observe('warning_type of a conflicting head assignment', warning.warning_type);
          ctx.observe('required_action of the warning', warning.required_action);
        });
      },
    }),
    rule({
      id: 'assign-team.warning-changes-nothing',
      clause: '§4.3 warning_aware',
      quote: [
        '| warning_aware | boolean | the assignment is done only when this is true; example value is false |',
        'Warning body (returned when the assignment conflicts with existing associations)',
      ],
      level: 'MUST',
      mutates: 'reversible',
      async check(ctx) {
        await afterConflictingAssignment(ctx, false, async ({ res, before }) => {
          precondition(
            isWarning(res),
            `the target returned no warning for an overlapping head assignment (status ${res.status})`,
          );
          await expectStateUnchanged(ctx, before, {
            step: 'show-teams after the warning',
            message: 'must be unchanged: a warning means the assignment was not done (warning_aware false)',
          });
        });
      },
    }),
    rule({
      id: 'assign-team.warning-aware-applies',
      clause: '§4.3 warning_aware',
      quote: [
        '| warning_aware | boolean | the assignment is done only when this is true; example value is false |',
        'Assigns a resource to a team (head or side) for a date range.',
      ],
      level: 'MUST',
      mutates: 'reversible',
      async check(ctx) {
        await afterConflictingAssignment(ctx, true, async ({ res, scenario: s }) => {
          if (isWarning(res)) {
            fail({
              where: 'response.body',
              message: 'must not be a warning when warning_aware is true: the assignment is done',
              expected: 'success',
              actual: res.json,
            });
          }
          expectSuccess(res, { step: 'resources.assign-team with warning_aware true' });
          const after = await showTeams(
            ctx,
            { resource_id: s.resourceId, date_range: WIDE_RANGE },
            { step: 'show-teams after the assignment' },
          );
          const wanted = splitRange(s.range)!;
          const done = after.some((a) => {
            const span = splitRange(a.date_range);
            return a.team.id === s.otherTeam && a.head && span !== undefined && covers(span, wanted);
          });
          if (!done) {
            fail({
              where: 'show-teams after the assignment',
              message: 'must show the new head assignation over the requested range',
              expected: { team: s.otherTeam, head: true, date_range: s.range },
              actual: after,
            });
          }
          const overlappingHeads = after.filter(
            (a) => a.head && a.team.id !== s.otherTeam && overlapsStrictly(splitRange(a.date_range)!, wanted),
          );
          ctx.observe('other head assignations still overlapping the new one', overlappingHeads.length);
        });
      },
    }),
  ],
});
