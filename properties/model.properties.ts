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
import fc from 'fast-check';
import { defineRuleGroup, property } from '../src/rules/define.ts';
import { checkProperty } from '../src/rules/check-property.ts';
import { precondition } from '../src/rules/assertions.ts';
import type { Violation } from '../src/core/types.ts';
import { matchesSchema, type ActivityRatePeriod, type SchemaType, type TeamAssignation } from '../src/schemas/index.ts';
import { claimRoleResource } from '../src/rules/steps/claims.ts';
import { WIDE_RANGE, showActivityRates, showTeams } from '../src/rules/steps/assignations.ts';
import { guardResource } from '../src/rules/state-guard.ts';
import { addDays, splitRange, type DateSpan } from '../src/rules/dates.ts';
import type { CheckContext } from '../src/rules/types.ts';
import { accepted, isClean, isNoVerdict, noEvidence, type Judgement } from '../src/rules/judges/judgement.ts';
import { field, type Observed } from '../src/rules/judges/observed.ts';
import { TraceBuilder, type ExplainedStep } from '../src/rules/judges/trace.ts';

/** What the spec says the show operations must answer, day by day inside the window. */
export interface Model {
  /**
   * The rate a period must show on the day, or null when no period may cover
   * it; a day not in the map is open (§4.2 rule 1: assigning a rate may modify
   * other periods).
   */
  rates: Map<string, number | null>;
  /** Assignations that must be shown on each of their days; others are open (§4.3: others may be extended or shortened). */
  teams: Array<{ teamId: string; head: boolean; days: string[] }>;
}

interface Real {
  ctx: CheckContext<'workRegime'>;
  resourceId: string;
  window: DateSpan;
  teamIds: readonly string[];
}

/**
 * What the driver keeps between commands to decide what to read: show-teams
 * is read after each step once an assignment made with warning_aware was
 * answered without a warning (before that the model holds no assignation).
 */
interface Reading {
  teams: boolean;
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

/** The days of a range the spec leaves no doubt about: whether its end day is included is not shown. */
function certainDays(span: DateSpan): string[] {
  const days: string[] = [];
  for (let d = span.start; d < span.end; d = addDays(d, 1)) days.push(d);
  return days;
}

function rangeIn(window: DateSpan, offset: number, length: number): DateSpan {
  const start = addDays(window.start, offset);
  const end = addDays(start, length);
  return { start, end: end > window.end ? window.end : end };
}

const text = (s: DateSpan): string => `${s.start}/${s.end}`;

/** Inclusive of both ends, so a server whose ends are exclusive is not failed for it. */
const mayCover = (range: string, day: string): boolean => {
  const s = splitRange(range);
  return s !== undefined && s.start <= day && day <= s.end;
};
/** Certainly covers: a day strictly before the end. */
const surelyCovers = (range: string, day: string): boolean => {
  const s = splitRange(range);
  return s !== undefined && s.start <= day && day < s.end;
};

function isWarning(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'warning_type' in body;
}

/**
 * The judge of one step: what show-activity-rates answered (`periods`) must
 * agree with the model. Pure: it is tested on recorded answers, no network.
 */
export function judgeRates(
  model: Pick<Model, 'rates'>,
  periods: readonly ActivityRatePeriod[],
  after: string,
): Violation[] {
  const violations: Violation[] = [];
  for (const [day, rate] of model.rates) {
    if (rate === null) {
      const covering = periods.filter((p) => surelyCovers(p.date_range, day));
      if (covering.length > 0) {
        violations.push({
          where: `show-activity-rates after ${after}, day ${day}`,
          message: 'must show no period on a day whose rate was unassigned since',
          expected: '(no period)',
          actual: covering,
        });
      }
      // "Shown as an integer" is another rule's business: a rounded rate matches.
    } else if (!periods.some((p) => mayCover(p.date_range, day) && Math.abs(p.average_rate - rate) <= 0.5)) {
      violations.push({
        where: `show-activity-rates after ${after}, day ${day}`,
        message: 'must show a period with the rate assigned last over the day',
        expected: { average_rate: rate },
        actual: periods.filter((p) => mayCover(p.date_range, day)),
      });
    }
    // The first day that departs says it: the days after it usually repeat the same cause.
    if (violations.length > 0) return violations;
  }
  return violations;
}

/** The judge of one step for show-teams: every assignation the model holds is shown on each of its days. */
export function judgeTeams(
  model: Pick<Model, 'teams'>,
  assignations: readonly TeamAssignation[],
  after: string,
): Violation[] {
  for (const { teamId, head, days } of model.teams) {
    const missing = days.filter(
      (day) => !assignations.some((a) => a.team.id === teamId && a.head === head && mayCover(a.date_range, day)),
    );
    if (missing.length > 0) {
      return [
        {
          where: `show-teams after ${after}`,
          message: 'must show the assignation made last on each of its days',
          expected: { team: teamId, head, days: `${missing[0]} … ${missing.at(-1)}` },
          actual: assignations.filter((a) => a.team.id === teamId),
        },
      ];
    }
  }
  return [];
}

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
  const days = span ? certainDays(span) : [];
  if (o.operation === 'resources.assign-activity-rate') {
    // Other periods may change (§4.2 rule 1): only the assigned days are known now.
    const rate = field(o.request, 'average_rate');
    model.rates.clear();
    if (typeof rate === 'number') for (const day of days) model.rates.set(day, rate);
  } else if (o.operation === 'resources.unassign-activity-rate') {
    // §4.7 unassigns for the date range: its days lose their rate, the days around keep theirs.
    if (!span) model.rates.clear();
    for (const day of days) model.rates.set(day, null);
    if (span) model.rates.delete(span.end);
  } else if (o.operation === 'resources.assign-team') {
    // Other assignations may be extended or shortened (§4.3); without warning_aware the assignment
    // may or may not be done: what the model knows is only this one, when it must be.
    const teamId = field(o.request, 'team_id');
    const head = field(o.request, 'head');
    model.teams =
      field(o.request, 'warning_aware') === true && typeof teamId === 'string' && typeof head === 'boolean'
        ? [{ teamId, head, days }]
        : [];
  }
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

/**
 * What show-activity-rates shows over each day the model knows, in the
 * model's terms and with the judge's tolerance: the expected rate where a
 * period that may cover the day shows it, else the rate shown there (null: none).
 */
export function ratesShown(
  model: Pick<Model, 'rates'>,
  periods: readonly ActivityRatePeriod[],
): Record<string, number | null> {
  const shown: Record<string, number | null> = {};
  for (const [day, rate] of model.rates) {
    if (rate === null) shown[day] = periods.find((p) => surelyCovers(p.date_range, day))?.average_rate ?? null;
    else {
      const covering = periods.filter((p) => mayCover(p.date_range, day));
      shown[day] = covering.some((p) => Math.abs(p.average_rate - rate) <= 0.5)
        ? rate
        : (covering[0]?.average_rate ?? null);
    }
  }
  return shown;
}

const teamKey = (teamId: string, head: boolean): string => `${teamId}/${head ? 'head' : 'side'}`;

/** The days of each assignation the model holds on which show-teams shows it. */
function teamsShown(model: Pick<Model, 'teams'>, assignations: readonly TeamAssignation[]): Record<string, string[]> {
  return Object.fromEntries(
    model.teams.map(({ teamId, head, days }) => [
      teamKey(teamId, head),
      days.filter((day) =>
        assignations.some((a) => a.team.id === teamId && a.head === head && mayCover(a.date_range, day)),
      ),
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
          const expected = Object.fromEntries(model.teams.map((t) => [teamKey(t.teamId, t.head), t.days]));
          trace?.judged(at, { teams: expected }, { teams: shown }, (exchange) => {
            const differs = model.teams.find((t) => (shown[teamKey(t.teamId, t.head)] ?? []).length !== t.days.length);
            return (
              differs && {
                kind: 'team-on-days',
                exchange,
                teamId: differs.teamId,
                head: differs.head,
                days: differs.days,
              }
            );
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

/** After every step: the show operations are read, tagged for the judge to hold them against the model. */
async function readAfter(reading: Reading, real: Real, after: string, fresh = false): Promise<void> {
  const { ctx, resourceId, window } = real;
  const body = { resource_id: resourceId, date_range: text(window) };
  await showActivityRates(ctx, body, { fresh, step: `${STEP.ratesAfter}${after}` });
  if (reading.teams) await showTeams(ctx, body, { fresh, step: `${STEP.teamsAfter}${after}` });
}

class AssignRate implements Step {
  constructor(
    readonly offset: number,
    readonly length: number,
    readonly rate: number,
  ) {}
  check = (): boolean => true;
  async run(reading: Reading, real: Real): Promise<void> {
    const span = rangeIn(real.window, this.offset, this.length);
    await real.ctx.client.post(
      'resources.assign-activity-rate',
      {
        resource_id: real.resourceId,
        date_range: text(span),
        average_rate: this.rate,
        work_regime_id: real.ctx.workRegimeIds[0],
        indemnity_enabled: true,
        compensation_enabled: false,
        trainee: false,
        apprentice: false,
        paid_hourly: false,
      },
      { step: this.toString() },
    );
    await readAfter(reading, real, this.toString());
  }
  toString = (): string => `assignRate(+${this.offset}, ${this.length} days, ${this.rate})`;
}

class UnassignRate implements Step {
  constructor(
    readonly offset: number,
    readonly length: number,
  ) {}
  check = (): boolean => true;
  async run(reading: Reading, real: Real): Promise<void> {
    const span = rangeIn(real.window, this.offset, this.length);
    await real.ctx.client.post(
      'resources.unassign-activity-rate',
      { resource_id: real.resourceId, date_range: text(span) },
      { step: this.toString() },
    );
    await readAfter(reading, real, this.toString());
  }
  toString = (): string => `unassignRate(+${this.offset}, ${this.length} days)`;
}

/**
 * Head assignations only, inside a head assignation the resource had: the
 * restoration re-assigns that one and so removes them; a side assignation to
 * a new team could not be taken back with the documented operations.
 */
class AssignTeam implements Step {
  readonly head = true;
  constructor(
    readonly team: number,
    readonly offset: number,
    readonly length: number,
    readonly warningAware: boolean,
  ) {}
  check = (): boolean => true;
  async run(reading: Reading, real: Real): Promise<void> {
    const span = rangeIn(real.window, this.offset, this.length);
    const teamId = real.teamIds[this.team % real.teamIds.length]!;
    const body = {
      resource_id: real.resourceId,
      team_id: teamId,
      head: this.head,
      date_range: text(span),
      regrouping: 'conformance',
      contract_number: 'DC-CONFORMANCE',
      external_id: `dc-conformance-${real.resourceId}`,
      warning_aware: this.warningAware,
    };
    const whole = { resource_id: real.resourceId, date_range: WIDE_RANGE };
    // Without warning_aware the answer may be a warning, which must change nothing: the teams are read around it.
    if (!this.warningAware) await showTeams(real.ctx, whole, { step: STEP.teamsBefore(this.toString()) });
    const res = await real.ctx.client.post('resources.assign-team', body, { step: this.toString() });
    if (!isWarning(res.json)) {
      reading.teams = this.warningAware;
    } else if (!this.warningAware) {
      await showTeams(real.ctx, whole, { step: STEP.teamsAfterWarning(this.toString()) });
    }
    await readAfter(reading, real, this.toString());
  }
  toString = (): string =>
    `assignHeadTeam(team ${this.team}, +${this.offset}, ${this.length} days, warning_aware ${this.warningAware})`;
}

class Look implements Step {
  check = (): boolean => true;
  async run(reading: Reading, real: Real): Promise<void> {
    // A second look, sent even though nothing changed since: an answer that does not hold still shows.
    await readAfter(reading, real, STEP.look, true);
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
const MAX_COMMANDS = 8;

/** The sequences: up to `maxCommands` steps of each kind, offsets and lengths inside a 40-day window. */
function sequences(maxCommands: number, replayPath: string | undefined): fc.Arbitrary<Iterable<Step>> {
  const offset = fc.integer({ min: 0, max: 35 });
  const length = fc.integer({ min: 2, max: 20 });
  return fc.commands(
    [
      fc.tuple(offset, length, fc.integer({ min: 0, max: 100 })).map(([o, l, r]) => new AssignRate(o, l, r)),
      fc.tuple(offset, length).map(([o, l]) => new UnassignRate(o, l)),
      fc.tuple(fc.nat(7), offset, length, fc.boolean()).map(([t, o, l, w]) => new AssignTeam(t, o, l, w)),
      fc.constant(new Look()),
    ],
    { maxCommands, ...(replayPath ? { replayPath } : {}) },
  );
}

export default defineRuleGroup({
  section: '§4.2',
  title: 'Model-based sequences',
  rules: [
    property({
      id: 'activity-rates.prop.model-sequences',
      clause: '§4.2 rule 1; §4.3 warning_aware; §4.4; §4.5; §4.7',
      quote: [
        'Assigns an activity rate to a resource for a date range.',
        'Unassigns an activity rate from a resource for a date range.',
        '| warning_aware | boolean | the assignment is done only when this is true; example value is false |',
        'Retrieves activity rate periods of a resource',
        'Retrieves team assignations of a resource.',
      ],
      level: 'MUST',
      runs: 5,
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
            ctx.judged(() => guard.around(() => fc.asyncModelRun(() => ({ model: { teams: false }, real }), steps))),
          {
            // First a rate inside the period and an unassignment across both (§4.7 over two periods),
            // then a conflicting head assignment without and with warning_aware (§4.3).
            examples: [
              [new AssignRate(10, 10, 30), new UnassignRate(5, 10)],
              [new AssignTeam(1, 10, 10, false), new AssignTeam(1, 10, 10, true), new Look()],
            ],
          },
        );
      },
      judge: judgeSequence,
      explain: explainSequence,
    }),
  ],
});
