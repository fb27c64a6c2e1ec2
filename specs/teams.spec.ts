/**
 * §4.5 resources.show-teams and §4.3 resources.assign-team.
 */
import { isRefusal, NO_SUCH_ID } from '../src/rules/no-such-id.ts';
import { TRAFFIC } from '../src/rules/judges/untagged-traffic.ts';
import type { ApiResponse } from '../src/client/directory-client.ts';
import { untouchedRoleResources } from '../src/rules/steps/roles.ts';
import { everyReadShows, aMoment, type Timed } from '../src/rules/judges/read-after-write.ts';
import { defineRuleGroup, rule } from '../src/rules/define.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { precondition } from '../src/rules/assertions.ts';
import { WIDE_RANGE, showTeams } from '../src/rules/steps/assignations.ts';
import { captureState } from '../src/rules/steps/state.ts';
import { withRestoredState } from '../src/rules/state-guard.ts';
import { addDays, covers, overlapsStrictly, splitRange } from '../src/rules/dates.ts';
import {
  accepted,
  firstWithStep,
  isClean,
  judgeAll,
  judgeEach,
  noEvidence,
  shaped,
  withStep,
  type Judgement,
} from '../src/rules/judges/judgement.ts';
import { isWarning } from '../src/rules/judges/assign-team-warning.ts';
import { field, type Observed } from '../src/rules/judges/observed.ts';
import { unchangedBetween } from '../src/rules/judges/state.ts';
import { matchesSchema, validateSchema, type AssignTeamRequest, type TeamAssignation } from '../src/schemas/index.ts';
import type { Violation } from '../src/core/types.ts';
import { TEAMS_SHAPE } from '../src/rules/judges/read-answers.ts';

interface Scenario {
  resourceId: string;
  head: TeamAssignation;
  otherTeam: string;
  range: string;
}

/** The steps drivers of this group tag their requests with, which their judges read. */
const STEP = {
  profileRead: 'show-teams of a profile resource',
  unfiltered: 'show-teams without a filter',
  head: (head: boolean) => `show-teams(head: ${head}, with its team_ids)`,
  oneTeam: (id: string) => `show-teams(team_ids [${id}])`,
  severalTeams: (n: number, order: 'listed' | 'reverse') => `show-teams(${n} team_ids in ${order} order)`,
  teamNamedTwice: (n: number) => `show-teams(${n} team_ids, the first named twice)`,
  teamOfNoOne: (n: number) => `show-teams(${n} team_ids, the last of no team)`,
  oneTeamBesideHead: (head: boolean) => `show-teams(one team_ids beside head: ${String(head)})`,
  before: 'show-teams before',
  conflicting: 'the conflicting assignment',
  afterWarning: 'show-teams after the warning',
  afterAssignment: 'show-teams after the assignment',
  momentAfterAssignment: 'show-teams a moment after the assignment',
} as const;

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

/**
 * Builds the conflict scenario, reads the resource's assignations, sends the
 * conflicting assignment (recording its status: the status of both answers
 * is not shown) and hands the answer to `then`, which may read again; the
 * resource's assignations are restored afterwards.
 */
async function conflictingAssignment(
  ctx: CheckContext,
  warningAware: boolean,
  then: (res: ApiResponse, scenario: Scenario) => Promise<void> = async () => {},
): Promise<void> {
  const scenario = await conflictScenario(ctx);
  await withRestoredState(ctx, scenario.resourceId, ['teams'], async () => {
    await captureState(ctx, scenario.resourceId, ['teams'], { step: STEP.before });
    const res = await ctx.client.post('resources.assign-team', assignBody(scenario, warningAware), {
      step: STEP.conflicting,
    });
    ctx.observe(`status of a conflicting assignment with warning_aware ${warningAware}`, res.status);
    await then(res, scenario);
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

/**
 * The conflicting assignment a driver sent with `warningAware`, or why there
 * is nothing to judge: none was sent, or not with that warning_aware.
 */
function conflicting(
  log: readonly Observed[],
  warningAware: boolean,
): { o: Observed; body: AssignTeamRequest } | { judgement: Judgement } {
  const o = firstWithStep(log, STEP.conflicting);
  if (!o || !matchesSchema('AssignTeamRequest', o.request) || o.request.warning_aware !== warningAware) {
    return { judgement: noEvidence(`no conflicting assignment with warning_aware ${warningAware} was sent`) };
  }
  return { o, body: o.request };
}

/**
 * A resource whose assignations `pick` finds worth looking at through a filter: first among those
 * the suite never changes (so no assignment running beside this rule moves them between two
 * reads), then among the profile's mutable ones. Each read is tagged `STEP.unfiltered`.
 */
async function firstResourceWhere<T>(
  ctx: CheckContext,
  pick: (assignations: TeamAssignation[]) => T | undefined,
): Promise<{ resourceId: string; found: T } | undefined> {
  const untouched = await untouchedRoleResources(ctx, 10);
  for (const id of [...untouched, ...ctx.profile.mutableResources.map((r) => r.id)]) {
    const found = pick(await showTeams(ctx, { resource_id: id, date_range: WIDE_RANGE }, { step: STEP.unfiltered }));
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

/** The assignations the unfiltered read of `resourceId` showed, if the log holds one that is a list. */
function unfilteredOf(log: readonly Observed[], resourceId: unknown): TeamAssignation[] | undefined {
  const o = withStep(log, STEP.unfiltered).find((r) => field(r.request, 'resource_id') === resourceId);
  return o && matchesSchema('TeamAssignationList', o.body) ? o.body : undefined;
}

/**
 * A filtered read: accepted, and a list of assignations (its shape is
 * show-teams.response-shape's: a body of another shape says nothing here).
 */
function filteredRead(o: Observed): { shown: TeamAssignation[] } | { judgement: Judgement } {
  const answer = accepted(o, { status: 200 });
  if (!isClean(answer)) return { judgement: answer };
  return matchesSchema('TeamAssignationList', o.body)
    ? { shown: o.body }
    : { judgement: noEvidence(`${o.step} did not show a list of assignations`) };
}

export default defineRuleGroup({
  section: '§4.3',
  title: 'Team assignations: resources.show-teams and resources.assign-team',
  rules: [
    rule({
      id: 'show-teams.response-shape',
      checks: [TEAMS_SHAPE],
      traffic: TRAFFIC.answers('resources.show-teams'),
      clause: '§4.5 Response; §2.4',
      quote: 'Response: status 200, JSON array of Team assignation (section 2.4).',
      level: 'MUST',
      needs: ['roleKindResource'],
      async drive(ctx) {
        let seen = 0;
        for (const r of ctx.profile.mutableResources.slice(0, 5)) {
          const res = await ctx.client.post(
            'resources.show-teams',
            { resource_id: r.id, date_range: WIDE_RANGE },
            // The state other rules read too: the run sends it once until a change names the resource.
            { step: STEP.profileRead, shared: true },
          );
          if (Array.isArray(res.json)) seen += res.json.length;
        }
        ctx.observe('team assignations looked at', seen);
      },
      judge(log) {
        const reads = withStep(log, STEP.profileRead);
        const shapes = judgeEach(reads, 'no show-teams was read', (o) => shaped(o, 'TeamAssignationList'));
        // An empty array has no shape to judge: the items are what §2.4 describes.
        const seen = reads.reduce((n, o) => n + (Array.isArray(o.body) ? o.body.length : 0), 0);
        return judgeAll([shapes, seen > 0 ? [] : noEvidence('no profile resource read has a team assignation')]);
      },
    }),
    rule({
      id: 'show-teams.head-filter',
      clause: '§4.5',
      quote: FILTER_QUOTE,
      level: 'MUST',
      needs: ['roleKindResource'],
      async drive(ctx) {
        const mixed = await firstResourceWhere(ctx, (all) =>
          all.some((a) => a.head) && all.some((a) => !a.head) ? [...new Set(all.map((a) => a.team.id))] : undefined,
        );
        precondition(mixed, 'no profile resource has both head and side assignations');
        // Beside team_ids naming every team the resource holds: the head filter must still apply.
        for (const head of [true, false]) {
          await showTeams(
            ctx,
            { resource_id: mixed.resourceId, team_ids: mixed.found, head, date_range: WIDE_RANGE },
            { step: STEP.head(head) },
          );
        }
      },
      judge: (log) =>
        judgeAll(
          [true, false].map((head): Judgement => {
            const step = STEP.head(head);
            const o = firstWithStep(log, step);
            if (!o) return noEvidence(`no ${step} was read`);
            const all = unfilteredOf(log, field(o.request, 'resource_id'));
            if (!all) return noEvidence(`no unfiltered read of the resource of ${step}`);
            const read = filteredRead(o);
            if (!('shown' in read)) return read.judgement;
            const others = read.shown.flatMap((a, i): Violation[] =>
              a.head === head
                ? []
                : [
                    {
                      where: `${step}[${i}].head`,
                      message: `must return only assignations whose head is ${head}`,
                      expected: head,
                      actual: a.head,
                    },
                  ],
            );
            const missing: Violation[] =
              read.shown.length === 0 && all.some((a) => a.head === head)
                ? [
                    {
                      where: step,
                      message: `must return the resource's assignations whose head is ${head}`,
                      expected: 'at least one',
                      actual: 0,
                    },
                  ]
                : [];
            return [...others, ...missing];
          }),
        ),
    }),
    rule({
      id: 'show-teams.team-filter',
      clause: '§4.5',
      quote: FILTER_QUOTE,
      level: 'MUST',
      needs: ['roleKindResource'],
      async drive(ctx) {
        // team_ids is a list: each team alone, then several in both orders, must answer exactly
        // the unfiltered assignations of those teams.
        const found = await firstResourceWhere(ctx, (all) => {
          const teamIds = [...new Set(all.map((a) => a.team.id))];
          // Beside head, the first team alone, with the head of another team's assignation: a filter
          // dropped there shows that other team.
          const otherHead = all.find((a) => a.team.id !== teamIds[0])?.head;
          return teamIds.length >= 2 && otherHead !== undefined ? { teamIds, otherHead } : undefined;
        });
        precondition(found, 'no profile resource is assigned to two teams');
        const { teamIds, otherHead } = found.found;
        const read = (ids: readonly string[], step: string, head?: boolean) =>
          showTeams(
            ctx,
            {
              resource_id: found.resourceId,
              team_ids: [...ids],
              date_range: WIDE_RANGE,
              ...(head === undefined ? {} : { head }),
            },
            { step },
          );
        for (const id of teamIds.slice(0, 3)) await read([id], STEP.oneTeam(id));
        const several = teamIds.slice(0, 3);
        await read(several, STEP.severalTeams(several.length, 'listed'));
        await read([...several].reverse(), STEP.severalTeams(several.length, 'reverse'));
        // A list as real requests hold it, an id named twice: it changes nothing.
        await read([...several, ...several.slice(0, 1)], STEP.teamNamedTwice(several.length + 1));
        // An id of no team imposes nothing; whether a target refuses it is not shown (§7).
        const unknown = await ctx.client.post(
          'resources.show-teams',
          { resource_id: found.resourceId, team_ids: [...several, NO_SUCH_ID], date_range: WIDE_RANGE },
          { step: STEP.teamOfNoOne(several.length + 1) },
        );
        if (isRefusal(unknown)) ctx.observe('refused: show-teams with an id of no team', unknown.status);
        await read(teamIds.slice(0, 1), STEP.oneTeamBesideHead(otherHead), otherHead);
      },
      judge(log) {
        const filtered = log.filter(
          (o) =>
            o.step.startsWith('show-teams(') &&
            Array.isArray(field(o.request, 'team_ids')) &&
            // A refusal of an id of no team is the target's choice (not shown, §7).
            !(o.step.endsWith('of no team)') && isRefusal(o)),
        );
        return judgeEach(filtered, 'no show-teams with team_ids was read', (o) => {
          const ids = field(o.request, 'team_ids');
          const all = unfilteredOf(log, field(o.request, 'resource_id'));
          if (!Array.isArray(ids) || !all) return noEvidence(`no unfiltered read of the resource of ${o.step}`);
          const read = filteredRead(o);
          if (!('shown' in read)) return read.judgement;
          const head = field(o.request, 'head');
          if (typeof head === 'boolean') {
            // Which assignations head keeps is show-teams.head-filter's clause: here, only their teams.
            const others = read.shown.filter((a) => !ids.includes(a.team.id));
            return others.length === 0
              ? []
              : [
                  {
                    where: `${o.step}: team.id`,
                    message: 'must return only assignations of the requested teams, whatever head asks too',
                    expected: ids,
                    actual: assignationKeys(others),
                  },
                ];
          }
          const want = assignationKeys(all.filter((a) => ids.includes(a.team.id)));
          const got = assignationKeys(read.shown);
          return JSON.stringify(got) === JSON.stringify(want)
            ? []
            : [
                {
                  where: o.step,
                  message: 'must return the assignations of the requested teams, and only those',
                  expected: want,
                  actual: got,
                },
              ];
        });
      },
    }),
    rule({
      id: 'assign-team.warning-shape',
      traffic: TRAFFIC.warningShaped,
      clause: '§4.3 Responses',
      quote:
        'Warning body (returned when the assignment conflicts with existing associations): JSON object with fields `warning_type` (string, value `assign-conflicting-resource-teams`), `description` (string), `details` (object with arrays `modifications` and `deletions`), `required_action` (string).',
      level: 'MUST',
      mutates: 'reversible',
      async drive(ctx) {
        await conflictingAssignment(ctx, false, async (res) => {
          if (!isWarning(res.json)) return;
          // "Other values of warning_type: not shown": the value is recorded, not judged.
          ctx.observe('warning_type of a conflicting head assignment', field(res.json, 'warning_type'));
          ctx.observe('required_action of the warning', field(res.json, 'required_action'));
        });
      },
      judge(log) {
        const sent = conflicting(log, false);
        if ('judgement' in sent) return sent.judgement;
        const { o } = sent;
        if (!isWarning(o.body))
          return noEvidence(
            `the target returned no warning for an overlapping head assignment (status ${o.status}); which assignments conflict is not shown`,
          );
        return validateSchema('AssignTeamWarning', o.body, `${o.step}: response.body`);
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
      async drive(ctx) {
        await conflictingAssignment(ctx, false, async (res, s) => {
          if (isWarning(res.json)) {
            await captureState(ctx, s.resourceId, ['teams'], { step: STEP.afterWarning, fresh: true });
          }
        });
      },
      judge(log) {
        const sent = conflicting(log, false);
        if ('judgement' in sent) return sent.judgement;
        if (!isWarning(sent.o.body))
          return noEvidence(
            `the target returned no warning for an overlapping head assignment (status ${sent.o.status})`,
          );
        return unchangedBetween(log, {
          before: STEP.before,
          after: STEP.afterWarning,
          message: 'must be unchanged: a warning means the assignment was not done (warning_aware false)',
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
      async drive(ctx) {
        await conflictingAssignment(ctx, true, async (res, s) => {
          if (res.status < 200 || res.status >= 300 || isWarning(res.json)) return;
          const after = await showTeams(
            ctx,
            { resource_id: s.resourceId, date_range: WIDE_RANGE },
            { step: STEP.afterAssignment },
          );
          // Read at once and again a moment later: both must show the assignation (§4.3 states its effect).
          await aMoment(ctx);
          await showTeams(
            ctx,
            { resource_id: s.resourceId, date_range: WIDE_RANGE },
            { step: STEP.momentAfterAssignment, fresh: true },
          );
          const wanted = splitRange(s.range)!;
          const overlappingHeads = after.filter(
            (a) => a.head && a.team.id !== s.otherTeam && overlapsStrictly(splitRange(a.date_range)!, wanted),
          );
          ctx.observe('other head assignations still overlapping the new one', overlappingHeads.length);
        });
      },
      judge(log) {
        const sent = conflicting(log, true);
        if ('judgement' in sent) return sent.judgement;
        const { o, body } = sent;
        if (isWarning(o.body)) {
          return [
            {
              where: `${o.step}: response.body`,
              message: 'must not be a warning when warning_aware is true: the assignment is done',
              expected: 'success',
              actual: o.body,
            },
          ];
        }
        const done = accepted(o);
        if (!isClean(done)) return done;
        const reads: Array<{ step: string; shown: TeamAssignation[] } & Timed> = [];
        for (const step of [STEP.afterAssignment, STEP.momentAfterAssignment]) {
          const read = firstWithStep(log, step);
          if (!read) continue;
          const shown = filteredRead(read);
          if (!('shown' in shown)) return shown.judgement;
          reads.push({ step, shown: shown.shown, ...(read.at ? { at: read.at } : {}) });
        }
        if (reads.length === 0) return noEvidence(`no ${STEP.afterAssignment} was read`);
        const wanted = splitRange(body.date_range);
        if (!wanted) return noEvidence(`the assignment's range ${body.date_range} is not a range`);
        const showsIt = (r: { shown: TeamAssignation[] }): boolean =>
          r.shown.some((a) => {
            const span = splitRange(a.date_range);
            return a.team.id === body.team_id && a.head && span !== undefined && covers(span, wanted);
          });
        return everyReadShows(
          reads,
          showsIt,
          {
            where: STEP.afterAssignment,
            message: 'must show the new head assignation over the requested range',
            expected: { team: body.team_id, head: true, date_range: body.date_range },
          },
          (r) => r.shown,
          o,
        );
      },
    }),
  ],
});
