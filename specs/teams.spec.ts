/**
 * §4.5 resources.show-teams and §4.3 resources.assign-team.
 */
import type { ApiResponse } from '../src/client/directory-client.ts';
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import { overlapsStrictly, splitRange, addDays, covers } from '../src/rules/dates.ts';
import { precondition, showTeams, type TeamAssignation } from '../src/rules/operations.ts';
import { WIDE_RANGE, withRestoredTeams } from '../src/rules/state-guard.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { expectBody, expectSuccess, fail, failAll } from '../src/rules/expect.ts';
import { validateSchema } from '../src/schemas/index.ts';

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
    const resourceId = ctx.claimResource();
    precondition(resourceId, 'no mutable resource has a head team assignation spanning 60 days');
    const teams = await showTeams(ctx.client, { resource_id: resourceId, date_range: WIDE_RANGE });
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

function assignBody(s: Scenario, warningAware: boolean): Record<string, unknown> {
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

function snapshot(items: TeamAssignation[]): string {
  return JSON.stringify(items.map((i) => JSON.stringify(i)).sort());
}

export default defineRuleGroup({
  section: '§4.3',
  title: 'Team assignations: resources.show-teams and resources.assign-team',
  rules: [
    rule({
      id: 'show-teams.response-shape',
      clause: '§4.5 Response; §2.4',
      sentence: 'Response: status 200, JSON array of Team assignation (section 2.4).',
      level: 'MUST',
      needs: ['roleKindResource'],
      async check(ctx) {
        let seen = 0;
        for (const r of ctx.profile.mutableResources.slice(0, 5)) {
          const res = await ctx.client.post('resources.show-teams', { resource_id: r.id, date_range: WIDE_RANGE });
          expectSuccess(res, 'resources.show-teams', [200]);
          seen += (expectBody(res, 'TeamAssignationList') as unknown[]).length;
        }
        ctx.observe('team assignations looked at', seen);
      },
    }),
    rule({
      id: 'show-teams.head-filter',
      clause: '§4.5',
      sentence:
        'Request body: `resource_id`, `team_ids`, `head` (boolean), `date_range`. Retrieves team assignations of a resource.',
      level: 'MUST',
      needs: ['roleKindResource'],
      async check(ctx) {
        for (const r of ctx.profile.mutableResources) {
          const all = await showTeams(ctx.client, { resource_id: r.id, date_range: WIDE_RANGE });
          if (!all.some((a) => a.head) || !all.some((a) => !a.head)) continue;
          for (const head of [true, false]) {
            const some = await showTeams(ctx.client, { resource_id: r.id, head, date_range: WIDE_RANGE });
            const wrong = some.filter((a) => a.head !== head);
            if (wrong.length > 0)
              fail(
                `show-teams(head: ${head})`,
                `must return only assignations whose head is ${head}`,
                head,
                wrong.map((a) => a.head),
              );
            if (some.length === 0)
              fail(
                `show-teams(head: ${head})`,
                `must return the resource's assignations whose head is ${head}`,
                'at least one',
                0,
              );
          }
          return;
        }
        precondition(false, 'no profile resource has both head and side assignations');
      },
    }),
    rule({
      id: 'show-teams.team-filter',
      clause: '§4.5',
      sentence:
        'Request body: `resource_id`, `team_ids` (array of Snowflake), `head`, `date_range`. Retrieves team assignations of a resource.',
      level: 'MUST',
      needs: ['roleKindResource'],
      async check(ctx) {
        for (const r of ctx.profile.mutableResources) {
          const all = await showTeams(ctx.client, { resource_id: r.id, date_range: WIDE_RANGE });
          const teamIds = [...new Set(all.map((a) => a.team.id))];
          if (teamIds.length < 2) continue;
          const one = teamIds[0]!;
          const some = await showTeams(ctx.client, { resource_id: r.id, team_ids: [one], date_range: WIDE_RANGE });
          const wrong = some.filter((a) => a.team.id !== one);
          if (wrong.length > 0)
            fail(
              'show-teams(team_ids)',
              'must return only assignations of the requested teams',
              [one],
              wrong.map((a) => a.team.id),
            );
          if (some.length === 0)
            fail('show-teams(team_ids)', 'must return the assignations of the requested team', one, []);
          return;
        }
        precondition(false, 'no profile resource is assigned to two teams');
      },
    }),
    rule({
      id: 'assign-team.warning-shape',
      clause: '§4.3 Responses',
      sentence:
        'Warning body (returned when the assignment conflicts with existing associations): JSON object with fields `warning_type` (string, value `assign-conflicting-resource-teams`), `description` (string), `details` (object with arrays `modifications` and `deletions`), `required_action` (string).',
      level: 'MUST',
      mutates: 'reversible',
      async check(ctx) {
        const s = await conflictScenario(ctx);
        await withRestoredTeams(ctx.client, s.resourceId, async () => {
          const res = await ctx.client.post('resources.assign-team', assignBody(s, false));
          ctx.observe('status of a conflicting assignment without warning_aware', res.status);
          precondition(
            isWarning(res),
            `the target returned no warning for an overlapping head assignment (status ${res.status}); which assignments conflict is not shown`,
          );
          failAll(validateSchema('AssignTeamWarning', res.json));
          // "Other values of warning_type: not shown": the value is recorded, not judged.
          const body = res.json as { warning_type: string; required_action: string };
          ctx.observe('warning_type of a conflicting head assignment', body.warning_type);
          ctx.observe('required_action of the warning', body.required_action);
        });
      },
    }),
    rule({
      id: 'assign-team.warning-changes-nothing',
      clause: '§4.3 warning_aware',
      sentence:
        '`warning_aware`: the assignment is done only when this is true. A warning is returned when the assignment conflicts with existing associations.',
      level: 'MUST',
      mutates: 'reversible',
      async check(ctx) {
        const s = await conflictScenario(ctx);
        await withRestoredTeams(ctx.client, s.resourceId, async () => {
          const before = await showTeams(ctx.client, { resource_id: s.resourceId, date_range: WIDE_RANGE });
          const res = await ctx.client.post('resources.assign-team', assignBody(s, false));
          precondition(
            isWarning(res),
            `the target returned no warning for an overlapping head assignment (status ${res.status})`,
          );
          const after = await showTeams(ctx.client, { resource_id: s.resourceId, date_range: WIDE_RANGE });
          if (snapshot(after) !== snapshot(before)) {
            fail(
              'show-teams after the warning',
              'must be unchanged: a warning means the assignment was not done (warning_aware false)',
              before,
              after,
            );
          }
        });
      },
    }),
    rule({
      id: 'assign-team.warning-aware-applies',
      clause: '§4.3 warning_aware',
      sentence:
        '`warning_aware`: the assignment is done only when this is true. Assigns a resource to a team (head or side) for a date range.',
      level: 'MUST',
      mutates: 'reversible',
      async check(ctx) {
        const s = await conflictScenario(ctx);
        await withRestoredTeams(ctx.client, s.resourceId, async () => {
          const res = await ctx.client.post('resources.assign-team', assignBody(s, true));
          ctx.observe('status of an assignment with warning_aware true', res.status);
          if (isWarning(res))
            fail(
              'response.body',
              'must not be a warning when warning_aware is true: the assignment is done',
              'success',
              res.json,
            );
          expectSuccess(res, 'resources.assign-team with warning_aware true');
          const after = await showTeams(
            ctx.client,
            { resource_id: s.resourceId, date_range: WIDE_RANGE },
            'show-teams after the assignment',
          );
          const wanted = splitRange(s.range)!;
          const done = after.some(
            (a) =>
              a.team.id === s.otherTeam &&
              a.head &&
              covers(splitRange(a.date_range) ?? { start: '9999', end: '0' }, wanted),
          );
          if (!done)
            fail(
              'show-teams after the assignment',
              'must show the new head assignation over the requested range',
              { team: s.otherTeam, head: true, date_range: s.range },
              after,
            );
          const overlappingHeads = after.filter(
            (a) => a.head && a.team.id !== s.otherTeam && overlapsStrictly(splitRange(a.date_range)!, wanted),
          );
          ctx.observe('other head assignations still overlapping the new one', overlappingHeads.length);
        });
      },
    }),
  ],
});
