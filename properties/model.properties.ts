/**
 * Stateful, model-based sequences (§4.2, §4.3, §4.4, §4.5, §4.7): fast-check
 * draws a sequence of assign-activity-rate, unassign-activity-rate and
 * assign-team requests (with and without `warning_aware`) on one mutable
 * resource, and after every step the show operations must agree with an
 * executable model of what the spec states. Where the spec leaves a choice
 * open the model holds nothing (a day it cannot know is left out), so a
 * server that chooses otherwise is never failed for it. The driver sends each
 * command and the reads after it, each tagged with its step; the judge
 * (`judgeSequence`) replays the model over those exchanges, from the requests
 * sent and the answers got, so a recorded sequence is judged the same way. A
 * failure shrinks to the shortest sequence (each run is judged inside it) and
 * replays with `--seed S --path P`; the resource is restored after every
 * sequence.
 */
import { TRAFFIC } from '../src/rules/judges/untagged-traffic.ts';
import fc from 'fast-check';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { checkProperty } from '../src/rules/check-property.ts';
import { precondition } from '../src/rules/assertions.ts';
import { matchesSchema, type SchemaType, type TeamAssignation } from '../src/schemas/index.ts';
import { claimRoleResource } from '../src/rules/steps/claims.ts';
import { WIDE_RANGE, showActivityRates, showTeams } from '../src/rules/steps/assignations.ts';
import { guardResource } from '../src/rules/state-guard.ts';
import { addDays, splitRange, type DateSpan } from '../src/rules/dates.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { isWarning } from '../src/rules/judges/assign-team-warning.ts';
import { accepted, isClean, isNoVerdict, noEvidence, type Judgement } from '../src/rules/judges/judgement.ts';
import { field, type Observed } from '../src/rules/judges/observed.ts';
import { TraceBuilder, type ExplainedStep } from '../src/rules/judges/trace.ts';
import {
  applyWrite,
  certainDays,
  judgeRates,
  judgeTeams,
  mayCover,
  ratesShown,
  type Model,
} from '../src/rules/judges/effects-model.ts';
import {
  describePlacement,
  drawnCommands,
  earlierIndex,
  touches,
  placeRange,
  relativeRange,
  type DaySpan,
  type Placement,
} from '../src/arbitraries/relativeRange.ts';
import type { StepInteraction } from '../src/rules/types.ts';

interface Real {
  ctx: CheckContext<'workRegime'>;
  resourceId: string;
  window: DateSpan;
  teamIds: readonly string[];
}

/**
 * What the driver keeps between commands: show-teams is read after each step
 * once an assignment made with warning_aware was answered without a warning
 * (before that the model holds no assignation); the ranges the sequence used
 * so far (days from the window's start), where the next step's range is
 * placed, and the team each used range was assigned to (none for a rate).
 */
interface Reading {
  teams: boolean;
  used: Used[];
}

/** A range a step used: an assigned rate's, an unassigned one's or a team's (with the team's index). */
interface Used {
  span: DaySpan;
  kind: 'assigned' | 'unassigned' | 'teams';
  team?: number;
}

type Step = fc.AsyncCommand<Reading, Real>;

/** The steps a command's exchanges are tagged with: its own request is tagged with its description. */
const STEP = {
  /** A command's own request: "assignRate(+10, 10 days, 30)", "unassignRate(…)", "assignHeadTeam(…)". */
  command: /^(?:assignRate|unassignRate|assignHeadTeam)\(/,
  ratesAfter: 'show-activity-rates after ',
  teamsAfter: 'show-teams after ',
  look: 'looking again',
  teamsBefore: (command: string): string => `show-teams before ${command}`,
  teamsAfterWarning: (command: string): string => `show-teams after ${command} answered a warning`,
} as const;

/** Days of the window every range of a sequence is placed in. */
const WINDOW_DAYS = 40;

/** The dates of a range placed in the window. */
function datesOf(window: DateSpan, span: DaySpan): DateSpan {
  return { start: addDays(window.start, span.from), end: addDays(window.start, span.to) };
}

/**
 * The ranges a step of `kind` stands to, all of them while there are none
 * such: an assignment's stand to the rates' ranges (assigned or unassigned),
 * an unassignment inside a range to the assigned ones (inside an unassigned
 * one it would change nothing), any other unassignment to the rates' ranges
 * (one that reaches past an earlier unassignment trims the periods on both
 * sides of it), a team's to the teams'.
 */
function ofKind(used: readonly Used[], kind: Used['kind'], relation: Placement['relation']): Used[] {
  const partners: ReadonlyArray<Used['kind']> =
    kind === 'teams'
      ? ['teams']
      : kind === 'unassigned' && relation === 'inside'
        ? ['assigned']
        : ['assigned', 'unassigned'];
  const pool = used.filter((u) => partners.includes(u.kind));
  return pool.length > 0 ? pool : [...used];
}

/** Places a step's range relative to those used before it in the sequence, and records it as used. */
function placeStep(reading: Reading, placement: Placement, kind: Used['kind'], team?: number): DaySpan {
  const span = placeRange(
    placement,
    ofKind(reading.used, kind, placement.relation).map((u) => u.span),
    WINDOW_DAYS,
  );
  reading.used.push({ span, kind, ...(team !== undefined ? { team } : {}) });
  return span;
}

const text = (s: DateSpan): string => `${s.start}/${s.end}`;

/** What a read tagged `step` showed, when it answered a body of `schema`: the read's shape is another rule's. */
function readList<S extends 'ActivityRatePeriodList' | 'TeamAssignationList'>(
  o: Observed,
  schema: S,
): { list: SchemaType<S> } | { judgement: Judgement } {
  const answer = accepted(o, { status: 200 });
  if (isNoVerdict(answer)) return { judgement: answer };
  if (!isClean(answer) || !matchesSchema(schema, o.body)) return { judgement: noEvidence(`${o.step} showed no list`) };
  return { list: o.body };
}

/**
 * One command's exchange replayed over the model: the answer must accept it
 * (a warning aside, for an assignment made without warning_aware), then the
 * model takes what the request asked for. `log` and `at` locate the reads the
 * driver made around an assignment answered with a warning.
 */
function replayCommand(model: Model, log: readonly Observed[], at: number): Judgement {
  const o = log[at];
  if (!o) return noEvidence('no command');
  if (o.operation === 'resources.assign-team' && isWarning(o.body)) return replayWarning(log, at, o);
  const answer = accepted(o);
  if (!isClean(answer)) return answer;
  const range = field(o.request, 'date_range');
  const span = typeof range === 'string' ? splitRange(range) : undefined;
  applyWrite(model, o, span ? certainDays(span) : undefined);
  // Whether the range's end day was unassigned is not shown: the model no longer knows it.
  if (span && o.operation === 'resources.unassign-activity-rate') model.rates.delete(span.end);
  return [];
}

/** §4.3: the assignment is done only when warning_aware is true; a warning must change nothing. */
function replayWarning(log: readonly Observed[], at: number, o: Observed): Judgement {
  if (field(o.request, 'warning_aware') === true) {
    return [
      {
        where: `${o.step}: response.body`,
        message: 'must not be a warning when warning_aware is true: the assignment is done',
        expected: 'success',
        actual: o.body,
      },
    ];
  }
  const before = log.slice(0, at).findLast((r) => r.step === STEP.teamsBefore(o.step));
  const after = log.slice(at + 1).find((r) => r.step === STEP.teamsAfterWarning(o.step));
  // Without both reads of the teams nothing shows whether the warning changed them: nothing is imposed.
  if (!before || !after) return [];
  const was = readList(before, 'TeamAssignationList');
  const is = readList(after, 'TeamAssignationList');
  if (!('list' in was)) return was.judgement;
  if (!('list' in is)) return is.judgement;
  if (JSON.stringify(canonical(is.list)) === JSON.stringify(canonical(was.list))) return [];
  return [
    {
      where: after.step,
      message: 'must be unchanged: a warning means the assignment was not done',
      expected: canonical(was.list),
      actual: canonical(is.list),
    },
  ];
}

const teamKey = (teamId: string, head: boolean): string => `${teamId}/${head ? 'head' : 'side'}`;

/**
 * What show-teams shows of each assignation the model holds, in the model's
 * terms: the days it is shown on and, where the assignment sent one, the
 * regrouping shown (the one sent where every day shows it, else the first
 * other one shown).
 */
function teamsShown(
  model: Pick<Model, 'teams'>,
  assignations: readonly TeamAssignation[],
): Record<string, { days: string[]; regrouping?: unknown }> {
  return Object.fromEntries(
    model.teams.map(({ teamId, head, days, regrouping }) => {
      const covering = (day: string): TeamAssignation[] =>
        assignations.filter((a) => a.team.id === teamId && a.head === head && mayCover(a.date_range, day));
      const shown = days.filter((day) => covering(day).length > 0);
      if (regrouping === undefined) return [teamKey(teamId, head), { days: shown }];
      const other = shown
        .flatMap((day) => (covering(day).some((a) => a.regrouping === regrouping) ? [] : covering(day)))
        .find((a) => typeof a.regrouping === 'string');
      return [teamKey(teamId, head), { days: shown, regrouping: other ? other.regrouping : regrouping }];
    }),
  );
}

/** The assignations the model holds, in the terms `teamsShown` shows them. */
function teamsExpected(model: Pick<Model, 'teams'>): Record<string, { days: string[]; regrouping?: unknown }> {
  return Object.fromEntries(
    model.teams.map(({ teamId, head, days, regrouping }) => [
      teamKey(teamId, head),
      regrouping === undefined ? { days } : { days, regrouping },
    ]),
  );
}

/** A command in the trace: the operation with the ids and values it sent, not fast-check's indexes. */
function commandOf(o: Observed): string {
  const resource = field(o.request, 'resource_id');
  const sent = ['team_id', 'head', 'date_range', 'average_rate', 'warning_aware']
    .map((name) => [name, field(o.request, name)] as const)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name} ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return `${o.operation.replace(/^resources\./, '')} on resource ${String(resource)}: ${sent.join(', ')}`;
}

/**
 * The model replayed over one sequence's exchanges, in the order they were
 * sent. Each command (tagged with its description) moves the model; each
 * read after it (`show-activity-rates after …`, `show-teams after …`) must
 * agree with the model as it stands. The first step that departs decides, as
 * the sequence would have stopped there. `trace` hears each step as it is
 * replayed (the report's trace of a FAIL).
 */
function replaySequence(log: readonly Observed[], trace?: TraceBuilder): Judgement {
  const model: Model = { rates: new Map(), teams: [] };
  let commands = 0;
  for (const [at, o] of log.entries()) {
    let judgement: Judgement = [];
    if (STEP.command.test(o.step)) {
      commands += 1;
      trace?.begin(commandOf(o), at);
      judgement = replayCommand(model, log, at);
    } else {
      trace?.saw(at);
      if (o.operation === 'resources.show-activity-rates' && o.step.startsWith(STEP.ratesAfter)) {
        const read = readList(o, 'ActivityRatePeriodList');
        if ('list' in read) {
          judgement = judgeRates(model, read.list, o.step.slice(STEP.ratesAfter.length));
          const shown = ratesShown(model, read.list);
          trace?.judged(at, { rates: Object.fromEntries(model.rates) }, { rates: shown }, (exchange) => {
            const day = [...model.rates.keys()].find((d) => shown[d] !== model.rates.get(d));
            return day === undefined
              ? undefined
              : { kind: 'rate-on-day', exchange, day, rate: model.rates.get(day) ?? null };
          });
        } else judgement = read.judgement;
      } else if (
        o.operation === 'resources.show-teams' &&
        o.step.startsWith(STEP.teamsAfter) &&
        !o.step.endsWith(' answered a warning')
      ) {
        const read = readList(o, 'TeamAssignationList');
        if ('list' in read) {
          judgement = judgeTeams(model, read.list, o.step.slice(STEP.teamsAfter.length));
          const shown = teamsShown(model, read.list);
          trace?.judged(at, { teams: teamsExpected(model) }, { teams: shown }, (exchange) => {
            const differs = model.teams.find(
              (t) => (shown[teamKey(t.teamId, t.head)]?.days ?? []).length !== t.days.length,
            );
            if (differs)
              return { kind: 'team-on-days', exchange, teamId: differs.teamId, head: differs.head, days: differs.days };
            // Shown on every day, with another regrouping than the one sent: the check names the regrouping too.
            for (const t of model.teams) {
              if (t.regrouping !== undefined && shown[teamKey(t.teamId, t.head)]?.regrouping !== t.regrouping)
                return {
                  kind: 'team-on-days',
                  exchange,
                  teamId: t.teamId,
                  head: t.head,
                  days: t.days,
                  regrouping: t.regrouping,
                };
            }
            return undefined;
          });
        } else judgement = read.judgement;
      }
    }
    if (!isClean(judgement)) return judgement;
  }
  return commands > 0 ? [] : noEvidence('the sequence sent no command');
}

/** The rule's judge: the model replayed over one sequence (pure: the same function judges a recorded one). */
export function judgeSequence(log: readonly Observed[]): Judgement {
  return replaySequence(log);
}

/** The same replay told step by step: the trace of a failing sequence. */
export function explainSequence(log: readonly Observed[]): ExplainedStep[] {
  const trace = new TraceBuilder();
  replaySequence(log, trace);
  return trace.steps;
}

/**
 * After every step: what it changed is read (`rates` or `teams`; a look reads
 * both), tagged for the judge to hold it against the model. The teams are
 * read once the model holds an assignation.
 */
async function readAfter(
  reading: Reading,
  real: Real,
  after: string,
  what: 'rates' | 'teams' | 'both',
  fresh = false,
): Promise<void> {
  const { ctx, resourceId, window } = real;
  const body = { resource_id: resourceId, date_range: text(window) };
  if (what !== 'teams') await showActivityRates(ctx, body, { fresh, step: `${STEP.ratesAfter}${after}` });
  if (what !== 'rates' && reading.teams) await showTeams(ctx, body, { fresh, step: `${STEP.teamsAfter}${after}` });
}

export class AssignRate implements Step {
  constructor(
    readonly placement: Placement,
    readonly rate: number,
  ) {}
  check = (): boolean => true;
  async run(reading: Reading, real: Real): Promise<void> {
    const span = placeStep(reading, this.placement, 'assigned');
    const step = this.toString();
    await real.ctx.client.post(
      'resources.assign-activity-rate',
      {
        resource_id: real.resourceId,
        date_range: text(datesOf(real.window, span)),
        average_rate: this.rate,
        work_regime_id: real.ctx.workRegimeIds[0],
        indemnity_enabled: true,
        compensation_enabled: false,
        trainee: false,
        apprentice: false,
        paid_hourly: false,
      },
      { step },
    );
    await readAfter(reading, real, step, 'rates');
  }
  toString = (): string => `assignRate(${this.rate}, ${describePlacement(this.placement)})`;
}

export class UnassignRate implements Step {
  constructor(readonly placement: Placement) {}
  check = (): boolean => true;
  async run(reading: Reading, real: Real): Promise<void> {
    const span = placeStep(reading, this.placement, 'unassigned');
    const step = this.toString();
    await real.ctx.client.post(
      'resources.unassign-activity-rate',
      { resource_id: real.resourceId, date_range: text(datesOf(real.window, span)) },
      { step },
    );
    await readAfter(reading, real, step, 'rates');
  }
  toString = (): string => `unassignRate(${describePlacement(this.placement)})`;
}

/** The team assigned over the earlier range a team step's placement stands to (none for a rate's range). */
function teamOfEarlier(used: readonly Used[], placement: Placement): number | undefined {
  const pool = ofKind(used, 'teams', placement.relation);
  return pool.length > 0 ? pool[earlierIndex(placement.ref, pool.length)]?.team : undefined;
}

/**
 * Head assignations only, inside a head assignation the resource had: the
 * restoration re-assigns that one and so removes them; a side assignation to
 * a new team could not be taken back with the documented operations. With
 * `sameTeam`, the team of the earlier assignment its range stands to (its own
 * when that range was a rate's): the same team assigned again in one period.
 * Each assignment sends a regrouping of its own, so a second one that keeps
 * the first's shows.
 */
export class AssignTeam implements Step {
  readonly head = true;
  constructor(
    readonly team: number,
    readonly placement: Placement,
    readonly warningAware: boolean,
    readonly sameTeam: boolean,
  ) {}
  check = (): boolean => true;
  async run(reading: Reading, real: Real): Promise<void> {
    const team = (this.sameTeam ? teamOfEarlier(reading.used, this.placement) : undefined) ?? this.team;
    const span = placeStep(reading, this.placement, 'teams', team);
    const teamId = real.teamIds[team % real.teamIds.length]!;
    const step = this.toString();
    const body = {
      resource_id: real.resourceId,
      team_id: teamId,
      head: this.head,
      date_range: text(datesOf(real.window, span)),
      // Text beyond ASCII (accents, ß, CJK, an emoji outside the BMP): it must come back byte for byte.
      regrouping: `conformance ${reading.used.length} Zürich Straße 東京 🚀`,
      contract_number: 'DC-CONFORMANCE',
      external_id: `dc-conformance-${real.resourceId}`,
      warning_aware: this.warningAware,
    };
    const whole = { resource_id: real.resourceId, date_range: WIDE_RANGE };
    // Without warning_aware the answer may be a warning, which must change nothing: the teams are read around it.
    if (!this.warningAware) await showTeams(real.ctx, whole, { step: STEP.teamsBefore(step) });
    const res = await real.ctx.client.post('resources.assign-team', body, { step });
    if (!isWarning(res.json)) {
      reading.teams = this.warningAware;
    } else if (!this.warningAware) {
      await showTeams(real.ctx, whole, { step: STEP.teamsAfterWarning(step) });
    }
    await readAfter(reading, real, step, 'teams');
  }
  toString = (): string =>
    `assignHeadTeam(${this.sameTeam ? 'same team or ' : ''}team ${this.team}, warning_aware ${this.warningAware}, ` +
    `${describePlacement(this.placement)})`;
}

export class Look implements Step {
  check = (): boolean => true;
  async run(reading: Reading, real: Real): Promise<void> {
    // A second look, sent even though nothing changed since: an answer that does not hold still shows.
    await readAfter(reading, real, STEP.look, 'both', true);
  }
  toString = (): string => 'look()';
}

function canonical(list: ReadonlyArray<{ team: { id: string }; head: boolean; date_range: string }>): string[] {
  return list.map((a) => `${a.team.id}/${String(a.head)}/${a.date_range}`).sort();
}

function longestSpan(ranges: readonly string[]): DateSpan | undefined {
  const length = (s: DateSpan): number => Date.parse(s.end) - Date.parse(s.start);
  const spans = ranges.map(splitRange).filter((s) => s !== undefined);
  return spans.sort((a, b) => length(b) - length(a))[0];
}

/** Forty days inside both spans, a day in from their start. */
function commonWindow(a: DateSpan | undefined, b: DateSpan | undefined): DateSpan | undefined {
  if (!a || !b) return undefined;
  const start = addDays(a.start > b.start ? a.start : b.start, 1);
  const end = addDays(start, 40);
  return end < a.end && end < b.end ? { start, end } : undefined;
}

/** Longest sequence unless `--max-commands` says otherwise: few, long sequences catch more per request. */
const MAX_COMMANDS = 12;

/**
 * The sequences: up to `maxCommands` steps of each kind, each range placed
 * in a 40-day window relative to those the earlier steps used (inside,
 * overlapping, adjacent, spanning two, the same), so second and third steps
 * land on the data of the first.
 */
function sequences(maxCommands: number, replayPath?: string): fc.Arbitrary<Iterable<Step>> {
  // Each kind weighs what its second steps are about: an assignment beside or across the last one, an
  // unassignment inside one, the same team again over the same days.
  const placement = (weights: Partial<Record<Placement['relation'], number>>): fc.Arbitrary<Placement> =>
    relativeRange({ windowDays: WINDOW_DAYS, weights });
  const mostly = fc.oneof({ weight: 2, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });
  const assignRate = fc
    .tuple(placement({ adjacent: 8, inside: 2 }), fc.integer({ min: 0, max: 100 }))
    .map(([p, r]) => new AssignRate(p, r));
  // An unassignment inside an assigned range as often as one reaching past a range's end (overlapping it,
  // or spanning two): the one splits a period, the other trims two.
  const unassignRate = placement({ inside: 5, overlapping: 6, spanning: 5, adjacent: 1 }).map(
    (p) => new UnassignRate(p),
  );
  const assignTeam = fc
    .tuple(fc.nat(7), placement({ same: 3, inside: 4, adjacent: 1 }), mostly, mostly)
    .map(([t, p, aware, same]) => new AssignTeam(t, p, aware, same));
  // By weight (an arbitrary listed twice is drawn twice as often): rates 5, teams 2, a look 1.
  return fc.commands(
    [assignRate, assignRate, assignRate, unassignRate, unassignRate, assignTeam, assignTeam, fc.constant(new Look())],
    // Lengths drawn evenly up to maxCommands (fast-check's default size stops at ten): a step can only
    // interact with those before it, so the longer sequences carry most of the pairs.
    { maxCommands, size: 'max', ...(replayPath ? { replayPath } : {}) },
  );
}

/**
 * How many of a sequence's steps with a range touch (share a day with, or
 * meet end to end) a range an earlier step of the sequence used. Pure: the
 * ranges are placed as the driver places them.
 */
export function interactionOf(steps: Iterable<unknown>): StepInteraction {
  const reading: Reading = { teams: false, used: [] };
  let touching = 0;
  for (const s of drawnCommands(steps)) {
    if (!(s instanceof AssignRate || s instanceof UnassignRate || s instanceof AssignTeam)) continue;
    const earlier = reading.used.map((u) => u.span);
    const kind = s instanceof AssignTeam ? 'teams' : s instanceof AssignRate ? 'assigned' : 'unassigned';
    const span = placeStep(reading, s.placement, kind);
    if (earlier.some((u) => touches(u, span))) touching++;
  }
  return { steps: reading.used.length, touching };
}

/** The share over the sequences the seed draws (a hundred of them): what `rules --coverage` shows. */
export function drawnInteraction(seed: number, sequencesDrawn = 100): StepInteraction {
  const drawn = fc.sample(sequences(MAX_COMMANDS), { seed, numRuns: sequencesDrawn });
  return drawn.map(interactionOf).reduce((a, b) => ({ steps: a.steps + b.steps, touching: a.touching + b.touching }), {
    steps: 0,
    touching: 0,
  });
}

/** A range at `at` days from the window's start, `length` days long: a fixed example's. */
const fixed = (at: number, length: number, relation: Placement['relation'] = 'fresh'): Placement => ({
  relation,
  ref: 0,
  other: 0,
  at,
  length,
  before: false,
});

export default defineRuleGroup({
  section: '§4.2',
  title: 'Model-based sequences',
  rules: [
    property({
      id: 'activity-rates.prop.model-sequences',
      traffic: TRAFFIC.writeEffects,
      clause: '§4.2 rule 1; §4.3 warning_aware; §4.4; §4.5; §4.7',
      quote: [
        'Assigns an activity rate to a resource for a date range.',
        'Unassigns an activity rate from a resource for a date range.',
        '| warning_aware | boolean | the assignment is done only when this is true; example value is false |',
        'Retrieves activity rate periods of a resource',
        'Retrieves team assignations of a resource.',
      ],
      level: 'MUST',
      runs: 4,
      mutates: 'reversible',
      needs: ['roleKindResource', 'workRegime'],
      async drive(ctx) {
        const resourceId = await claimRoleResource(ctx);
        const teamIds = ctx.profile.teams.filter((t) => t.enabled).map((t) => t.id);
        precondition(teamIds.length > 0, 'the target profile names no enabled team');
        // Inside the resource's longest rate period and longest head assignation: dates a server
        // already accepts for this resource, and a head assignation the restoration can put back.
        const periods = await showActivityRates(ctx, { resource_id: resourceId, date_range: WIDE_RANGE });
        const assignations = await showTeams(ctx, { resource_id: resourceId, date_range: WIDE_RANGE });
        const heads = assignations.filter((a) => a.head);
        const window = commonWindow(
          longestSpan(periods.map((p) => p.date_range)),
          longestSpan(heads.map((a) => a.date_range)),
        );
        precondition(window, 'the resource has no rate period and head assignation sharing 42 days');
        const real: Real = { ctx, resourceId, window, teamIds };
        // What was just read is the snapshot; each sequence is put back to it and verified.
        const guard = guardResource(ctx, resourceId, ['rates', 'teams'], {
          known: { resourceId, rates: periods, teams: assignations },
        });
        await checkProperty(
          ctx,
          sequences(ctx.options.maxCommands ?? MAX_COMMANDS, ctx.options.replayPath),
          (steps) =>
            ctx.judged(() =>
              guard.around(() => fc.asyncModelRun(() => ({ model: { teams: false, used: [] }, real }), steps)),
            ),
          {
            // First one sequence: a rate inside the period, another from the day after it ends, an
            // unassignment across the period and the first rate (§4.7 over two periods), then a conflicting
            // head assignment without and with warning_aware (§4.3), and the same team again inside it.
            examples: [
              [
                new AssignRate(fixed(10, 10), 30),
                new AssignRate(fixed(1, 5, 'adjacent'), 60),
                new UnassignRate(fixed(5, 10)),
                new AssignTeam(1, fixed(10, 10), false, false),
                new AssignTeam(1, fixed(10, 10, 'same'), true, true),
                new AssignTeam(1, fixed(2, 4, 'inside'), true, true),
              ],
            ],
          },
        );
      },
      judge: judgeSequence,
      explain: explainSequence,
      interaction: (_, seed) => drawnInteraction(seed),
    }),
  ],
});
