/**
 * Concurrent team assignments (§4.3, §4.5): a short serial prefix of
 * resources.assign-team requests (head, `warning_aware` true) on one mutable
 * resource, then two or three branches of them sent at the same time (real
 * parallel requests, at most MAX_IN_FLIGHT_PER_RESOURCE on the resource),
 * then resources.show-teams. The run passes when some serial order of the
 * assignments that respects real time, applied to a model, explains every
 * answer and the assignations shown: the linearizability check of
 * src/rules/linearizability.ts. Assignments that overlap in time may land in
 * either order; a history no order explains is a FAIL with the assignments,
 * their times and the orders tried. The driver only sends, each request
 * tagged with its place ("P1 …", "B2.1 …"); the judge rebuilds the history
 * from those exchanges (what each sent, its answer, when it went and came
 * back), so a recorded sequence is judged the same way.
 *
 * Head assignations only, inside a head assignation the resource had, as the
 * serial sequences do: restoring re-assigns that one and so removes them (a
 * side assignation to a new team could not be taken back with the
 * documented operations).
 *
 * Two rules judge these sequences, each by a model of what the spec says,
 * and so each at its level. What an assignment answered as done must show is
 * its own team over its own range (the end day left open: whether a range
 * includes it is not shown). What it does to the other assignations is where
 * they differ. §4.3 says the result "may create a new resource-team
 * association or update an existing one by extending or shortening it", and
 * its warning lists the associations it would modify or delete: read as
 * worded, any other assignation may change, and what each success must show
 * is its own, unless a later assignment may have changed it (the serial
 * sequences' model; `assign-team.prop.concurrent-sequences`, MUST). Read as
 * the warning ties a conflict to the days an assignment covers, an
 * assignation of another team that shares no day with a later assignment's
 * range is kept, and an update lost between two assignments that overlap in
 * time departs from it (`assign-team.prop.concurrent-other-teams-kept`,
 * INFERRED). Each rule drives its own sequences; the resource is restored
 * after every sequence.
 */
import fc from 'fast-check';
import { matchesSchema, type TeamAssignation } from '../src/schemas/index.ts';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { checkProperty } from '../src/rules/check-property.ts';
import { precondition } from '../src/rules/assertions.ts';
import { claimRoleResource } from '../src/rules/steps/claims.ts';
import { WIDE_RANGE, showTeams } from '../src/rules/steps/assignations.ts';
import { guardResource } from '../src/rules/state-guard.ts';
import { allBranches, InFlightPerResource } from '../src/rules/in-flight-per-resource.ts';
import { splitRange, type DateSpan } from '../src/rules/dates.ts';
import { checkLinearizable, type SequentialModel } from '../src/rules/linearizability.ts';
import type { CheckContext, Judging } from '../src/rules/types.ts';
import {
  accepted,
  firstWithStep,
  isClean,
  isNoVerdict,
  noEvidence,
  type Judgement,
} from '../src/rules/judges/judgement.ts';
import { field, type Observed } from '../src/rules/judges/observed.ts';
import type { Violation } from '../src/core/types.ts';
import { isWarning } from '../src/rules/judges/assign-team-warning.ts';
import { certainDays, judgeTeams } from '../src/rules/judges/effects-model.ts';
import { rangeIn, windowIn } from './concurrent.properties.ts';
import { ordersTried, sentAtMs, timedHistory } from '../src/rules/timed-history.ts';

/** One assignment, inside the window: a team as an index into the profile's enabled teams, an offset and a length. */
export interface TeamCommand {
  team: number;
  offset: number;
  length: number;
}

/** A serial prefix, then branches sent at the same time. */
export interface TeamScenario {
  prefix: TeamCommand[];
  branches: TeamCommand[][];
}

/** What the history holds of each call: an assignment as it was sent, or the final read. */
export type TeamCall = { kind: 'assign'; teamId: string; head: boolean; span: DateSpan } | { kind: 'read' };
export type TeamAnswer = { status: number } | { assignations: readonly TeamAssignation[] };

/** An assignation that must be shown on each of its days. */
interface Required {
  teamId: string;
  head: boolean;
  days: string[];
}
export type TeamState = readonly Required[];

/** What an assignment does to the other assignations: any may change, or those sharing no day with it are kept. */
export type OtherTeams = 'open' | 'kept';

export function describeTeamCommand(c: TeamCommand): string {
  return `assignHeadTeam(team ${c.team}, +${c.offset}, ${c.length} days)`;
}

/**
 * The model: an assignment done must be shown over its range (the end day
 * open); the assignations it may have changed leave the model (the same
 * team's, which it may extend or shorten, and, as `otherTeams` says, every
 * other one or only those with a day in its range, the end day included).
 */
export function teamsModel(otherTeams: OtherTeams): SequentialModel<TeamState, TeamCall, TeamAnswer> {
  return {
    init: [],
    key: (state) => JSON.stringify(state),
    step(state, call) {
      if (call.kind === 'read') {
        return {
          state,
          judge: (answer) => ('assignations' in answer ? describeDeparture(state, answer.assignations) : 'not a read'),
        };
      }
      const kept =
        otherTeams === 'open'
          ? []
          : state.filter(
              (r) =>
                !(r.teamId === call.teamId && r.head === call.head) &&
                !r.days.some((d) => call.span.start <= d && d <= call.span.end),
            );
      const next = [...kept, { teamId: call.teamId, head: call.head, days: certainDays(call.span) }];
      return { state: next, judge: (answer) => ('status' in answer ? undefined : 'not an assignment') };
    },
  };
}

/** Why a read departs from the model, in one line; undefined when it does not. */
function describeDeparture(state: TeamState, assignations: readonly TeamAssignation[]): string | undefined {
  const v = judgeTeams({ teams: [...state] }, assignations, 'this order')[0];
  if (!v) return undefined;
  const shown = assignations.map((a) => `${a.team.id}/${a.head ? 'head' : 'side'} ${a.date_range}`);
  return `${v.message}: expected ${JSON.stringify(v.expected)}, shows ${shown.join(', ') || 'none'}`;
}

interface Real {
  ctx: CheckContext<'roleKindResource'>;
  resourceId: string;
  window: DateSpan;
  teamIds: readonly string[];
  inFlight: InFlightPerResource;
}

/** The steps the driver tags its requests with, which the judge reads. */
const STEP = {
  command: /^(?:P\d+|B\d+\.\d+) /,
  read: 'show-teams after the parallel assignments',
} as const;

/**
 * Sends one assignment. Its team is the drawn index moved on by the branch's
 * number (0 for the prefix): fast-check draws small indexes most often, and
 * two branches drawing the same one then still assign two teams, the case
 * where an update lost between them shows.
 */
async function send(real: Real, command: TeamCommand, label: string, branch: number): Promise<void> {
  const { ctx, resourceId, window, teamIds } = real;
  const span = rangeIn(window, command.offset, command.length);
  const teamId = teamIds[(command.team + branch) % teamIds.length]!;
  const step = `${label} ${describeTeamCommand(command)} team_id ${teamId}`;
  const res = await real.inFlight.send(resourceId, () =>
    ctx.client.post(
      'resources.assign-team',
      {
        resource_id: resourceId,
        team_id: teamId,
        head: true,
        date_range: `${span.start}/${span.end}`,
        warning_aware: true,
      },
      { step },
    ),
  );
  // Refused, or a warning (another rule's departure with warning_aware true): the judge leaves it pending.
  if (res.status < 200 || res.status >= 300 || isWarning(res.json)) {
    ctx.observe(`${step} answered ${res.status}`, { status: res.status, body: res.text.slice(0, 200) });
  }
}

async function runScenario(real: Real, scenario: TeamScenario): Promise<void> {
  for (const [i, command] of scenario.prefix.entries()) await send(real, command, `P${i + 1}`, 0);
  await allBranches(
    scenario.branches.map(async (branch, b) => {
      for (const [i, command] of branch.entries()) await send(real, command, `B${b + 1}.${i + 1}`, b);
    }),
  );
  const { ctx, resourceId } = real;
  // The whole state: the same read restoring makes first, so it is not sent twice.
  await showTeams(ctx, { resource_id: resourceId, date_range: WIDE_RANGE }, { fresh: true, step: STEP.read });
}

/** The assignment a request sent, from its body; undefined when it names no team, role or range. */
function callOf(o: Observed): TeamCall | undefined {
  const teamId = field(o.request, 'team_id');
  const head = field(o.request, 'head');
  const range = field(o.request, 'date_range');
  const span = typeof range === 'string' ? splitRange(range) : undefined;
  if (typeof teamId !== 'string' || typeof head !== 'boolean' || !span) return undefined;
  return { kind: 'assign', teamId, head, span };
}

/**
 * A rule's judge: the history rebuilt from the assignments' exchanges and the
 * read after them; some serial order that respects real time must explain it
 * under the model `otherTeams` gives. Pure: the same function judges a
 * recorded sequence.
 */
export function judgeParallelAssignments(log: readonly Observed[], otherTeams: OtherTeams): Judgement {
  const commands = log.filter((o) => STEP.command.test(o.step) && o.operation === 'resources.assign-team');
  const o = firstWithStep(log, STEP.read);
  if (commands.length === 0 || !o) return noEvidence('no assignments, or no read after them');
  const answer = accepted(o, { status: 200 });
  if (isNoVerdict(answer)) return answer;
  // The read's shape is show-teams' own rule's: a body of another shape says nothing here.
  if (!isClean(answer) || !matchesSchema('TeamAssignationList', o.body)) {
    return noEvidence(`${o.step} showed no list of assignations`);
  }
  const assignations = o.body;
  // Refused, or answered with a warning: whether it took effect is not known (pending: at any point, or never).
  const done = (c: Observed): boolean => c.status >= 200 && c.status < 300 && !isWarning(c.body);
  const history = timedHistory(commands, { o, call: { kind: 'read' }, answer: { assignations } }, callOf, done);
  if (typeof history === 'string') return noEvidence(history);
  const result = checkLinearizable(history, teamsModel(otherTeams));
  if (result.outcome === 'linearizable') return [];
  if (result.outcome === 'undecided') {
    return noEvidence(`the linearizability search gave up after ${result.steps} steps: the sequence is too long`);
  }
  const ms = sentAtMs(history);
  const violation: Violation = {
    where: `${STEP.read}: no serial order of the assignments explains the answers`,
    message: 'must be explained by some serial order of the assignments: each answered success, so each was done',
    expected: ordersTried(result),
    actual: {
      assignments: history
        .filter((op) => op.call.kind !== 'read')
        .map((op) => ({
          assignment: op.label,
          ...(op.call.kind === 'assign'
            ? { team: op.call.teamId, date_range: `${op.call.span.start}/${op.call.span.end}` }
            : {}),
          sentAtMs: ms(op.invokedAt),
          answeredAtMs: op.response ? ms(op.response.at) : 'no answer that says it was done',
        })),
      assignations: assignations.map((a) => `${a.team.id}/${a.head ? 'head' : 'side'} ${a.date_range}`),
    },
  };
  return [violation];
}

/** The longest head assignation shown: the window lies inside it, and restoring re-assigns it. */
export function longestHead(assignations: readonly TeamAssignation[]): { teamId: string; span: DateSpan } | undefined {
  const length = (s: DateSpan): number => Date.parse(s.end) - Date.parse(s.start);
  const heads = assignations.flatMap((a) => {
    const span = a.head ? splitRange(a.date_range) : undefined;
    return span ? [{ teamId: a.team.id, span }] : [];
  });
  return heads.sort((a, b) => length(b.span) - length(a.span))[0];
}

const command: fc.Arbitrary<TeamCommand> = fc.record({
  team: fc.nat(15),
  offset: fc.integer({ min: 0, max: 35 }),
  length: fc.integer({ min: 2, max: 12 }),
});

/** Up to two serial assignments, then two or three branches of one or two: at most three in flight. */
export const teamScenarios: fc.Arbitrary<TeamScenario> = fc.record({
  prefix: fc.array(command, { maxLength: 2 }),
  branches: fc.array(fc.array(command, { minLength: 1, maxLength: 2 }), { minLength: 2, maxLength: 3 }),
});

/** The driver both rules share: sequences on a claimed resource's window, each restored and verified. */
async function driveSequences(ctx: CheckContext<'roleKindResource'> & Judging): Promise<void> {
  const resourceId = await claimRoleResource(ctx);
  const assignations = await showTeams(ctx, { resource_id: resourceId, date_range: WIDE_RANGE });
  const head = longestHead(assignations);
  const window = windowIn(head?.span);
  precondition(window, 'the resource has no head assignation of 42 days');
  // Teams other than the window's own head: each assignment done changes what the window shows.
  const teamIds = ctx.profile.teams.filter((t) => t.enabled && t.id !== head?.teamId).map((t) => t.id);
  precondition(teamIds.length > 1, 'the target profile names fewer than two enabled teams besides the head one');
  const real: Real = { ctx, resourceId, window, teamIds, inFlight: new InFlightPerResource() };
  // What was just read is the snapshot; each sequence is put back to it and verified.
  const guard = guardResource(ctx, resourceId, ['teams'], { known: { resourceId, teams: assignations } });
  await checkProperty(
    ctx,
    teamScenarios,
    (scenario) => ctx.judged(() => guard.around(() => runScenario(real, scenario))),
    {
      examples: [
        // Two teams on disjoint ranges at once: both must show where other teams' assignations are kept, the
        // one that landed last wherever any may change.
        { prefix: [], branches: [[{ team: 0, offset: 2, length: 10 }], [{ team: 0, offset: 20, length: 10 }]] },
      ],
    },
  );
}

/** What each rule quotes: the operation's stated effect, what it may do to other associations, and the read. */
const EFFECTS = [
  'Assigns a resource to a team (head or side) for a date range. The result may create a new resource-team association or update an existing one by extending or shortening it.',
  '| warning_aware | boolean | the assignment is done only when this is true; example value is false |',
  'Warning body (returned when the assignment conflicts with existing associations): JSON object with fields `warning_type` (string, value `assign-conflicting-resource-teams`), `description` (string), `details` (object with arrays `modifications` and `deletions`), `required_action` (string).',
  'Retrieves team assignations of a resource.',
];

export default defineRuleGroup({
  section: '§4.3',
  title: 'Concurrent team assignments',
  rules: [
    property({
      id: 'assign-team.prop.concurrent-sequences',
      timing: true,
      concurrent: true,
      clause: '§4.3; §4.5',
      quote: EFFECTS,
      // MUST: with warning_aware true "the assignment is done", so some serial order must show the one done last
      // over its range. Other associations may be extended, shortened, modified or deleted (§4.3 and its
      // warning), so every assignation but the last one's is open: an order the spec leaves to the server, or a
      // change it allows, never fails this rule.
      level: 'MUST',
      runs: 3,
      mutates: 'reversible',
      needs: ['roleKindResource'],
      drive: driveSequences,
      judge: (log) => judgeParallelAssignments(log, 'open'),
    }),
    property({
      id: 'assign-team.prop.concurrent-other-teams-kept',
      timing: true,
      concurrent: true,
      clause: '§4.3; §4.5',
      quote: EFFECTS,
      // INFERRED, not MUST: the model keeps another team's assignation that shares no day with a later
      // assignment's range, reading the warning's "conflicts with existing associations" as a conflict over the
      // days the assignment covers. The spec does not say which associations conflict: read as worded, a later
      // assignment may modify or delete any, and an update lost between two that overlap in time could be such
      // a change. A departure is reported and counted apart, and fails the run only with --strict.
      level: 'INFERRED',
      runs: 3,
      mutates: 'reversible',
      needs: ['roleKindResource'],
      drive: driveSequences,
      judge: (log) => judgeParallelAssignments(log, 'kept'),
    }),
  ],
});
