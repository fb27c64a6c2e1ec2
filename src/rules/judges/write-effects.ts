/**
 * The effects of assign-activity-rate, unassign-activity-rate and
 * assign-team on what show-activity-rates and show-teams answer (§4.2,
 * §4.3, §4.4, §4.5, §4.7), judged over any traffic: per resource, the
 * model of the model-based sequences (effects-model.ts) started from the
 * resource's first read, every write after it applied as its answer says,
 * and every later read held to the model over the days the first read
 * covered. Whoever sent the writes: another client's HAR holds no step
 * names, so the evidence is found by what each request asked for.
 *
 * What the spec leaves open is never a departure:
 * - whether a range's end day is included: every range, sent and shown, is
 *   read with its end day included and again excluded (a conformant server
 *   reads them all one way), a departure being one under both readings;
 * - how a rate is spread over the week without a pattern, and rounding: the
 *   model holds the average rate only, within half a unit (`judgeRates`);
 * - other periods after an assignment (§4.2 rule 1), other assignations
 *   after a team assignment (§4.3), one made without warning_aware: open;
 * - a refusal: another client's request may be invalid, which its traffic
 *   does not say; a refused write changes nothing, nor does one answered
 *   with a §4.3 warning without warning_aware (with it true, it is done);
 * - days outside the first read's range, and days far from every write.
 * Two writes of one part of a resource in flight at once (their times
 * overlap, Observed's `at`) leave its state unknown: the resource is judged
 * again from its next read that no write overlaps. Pure.
 */
import type { Violation } from '../../core/types.ts';
import { matchesSchema, type ActivityRatePeriod, type TeamAssignation } from '../../schemas/index.ts';
import { parseDateRange } from '../../schemas/formats.ts';
import { OPERATION_REQUESTS } from '../../schemas/operations.ts';
import { addDays, type DateSpan } from '../dates.ts';
import { isWarning } from './assign-team-warning.ts';
import { applyWrite, judgeRates, judgeTeams, type Model } from './effects-model.ts';
import { Flights } from './in-flight.ts';
import { isClean, noEvidence, violationsOf, type Judgement } from './judgement.ts';
import { field, noVerdict, type Observed } from './observed.ts';

/** How a server reads a range's end day; which it is, is not shown. */
type EndDay = 'included' | 'excluded';

/** What a write changes and a read shows: a resource's activity rates, or its team assignations. */
type Part = 'rates' | 'teams';

const WRITES: Readonly<Record<string, Part>> = {
  'resources.assign-activity-rate': 'rates',
  'resources.unassign-activity-rate': 'rates',
  'resources.assign-team': 'teams',
};

const READS: Readonly<Record<string, Part>> = {
  'resources.show-activity-rates': 'rates',
  'resources.show-teams': 'teams',
};

/** How far around a write's range its effects are judged: what it may have done wrong lies there. */
const AROUND_DAYS = 45;

/** A range longer than this many days is judged around its two ends only (a century read day by day is slow). */
const WHOLE_DAYS = 120;

/** Whether `day` lies in `span` as `end` reads its end day. */
function within(span: DateSpan, day: string, end: EndDay): boolean {
  return span.start <= day && (end === 'included' ? day <= span.end : day < span.end);
}

/** The days from `start` to `end`, both included. */
function daysFrom(start: string, end: string): string[] {
  const days: string[] = [];
  for (let d = start; d <= end; d = addDays(d, 1)) days.push(d);
  return days;
}

/**
 * Dates a write's days are kept between: far enough inside the four-digit
 * years that a day around them is one too (a range a client sends may run to
 * 9999-12-31).
 */
const FIRST_KEPT = '1000-03-01';
const LAST_KEPT = '9000-12-31';

const clamped = (day: string): string => (day < FIRST_KEPT ? FIRST_KEPT : day > LAST_KEPT ? LAST_KEPT : day);

/** The days around a write's range that its effects are judged on, whatever the reading. */
function aroundDays(span: DateSpan): string[] {
  const start = clamped(span.start);
  const end = clamped(span.end);
  const from = addDays(start, -AROUND_DAYS);
  const to = addDays(end, AROUND_DAYS);
  if (end <= addDays(start, WHOLE_DAYS)) return daysFrom(from, to);
  return [...daysFrom(from, addDays(start, AROUND_DAYS)), ...daysFrom(addDays(end, -AROUND_DAYS), to)];
}

/** The range a request names, when it is two real dates. */
function rangeOf(request: unknown): DateSpan | undefined {
  const range = field(request, 'date_range');
  return typeof range === 'string' ? parseDateRange(range) : undefined;
}

/** Where a part of one resource is kept: its part and id. */
const keyOf = (part: Part, resourceId: string): string => `${part} ${resourceId}`;

/** A write of one part of one resource, or undefined for any other exchange. */
function writeOf(o: Observed): { part: Part; key: string | undefined; span: DateSpan | undefined } | undefined {
  const part = WRITES[o.operation];
  if (part === undefined) return undefined;
  const id = field(o.request, 'resource_id');
  return { part, key: typeof id === 'string' ? keyOf(part, id) : undefined, span: rangeOf(o.request) };
}

/**
 * A read of one part of one resource over a range: show-activity-rates, or
 * show-teams with no team or head filter (a filtered read shows part of the
 * assignations, which its own rules judge).
 */
function readOf(o: Observed): { part: Part; key: string; span: DateSpan } | undefined {
  const part = READS[o.operation];
  const id = field(o.request, 'resource_id');
  const span = rangeOf(o.request);
  if (part === undefined || typeof id !== 'string' || span === undefined) return undefined;
  if (part === 'teams' && (field(o.request, 'team_ids') !== undefined || field(o.request, 'head') !== undefined)) {
    return undefined;
  }
  return { part, key: keyOf(part, id), span };
}

/** What the traffic says of each part of each resource before it is judged: its writes, and the days they concern. */
interface Scan {
  /** The days around every write of a part of a resource: the only days its model keeps. */
  readonly days: Map<string, Set<string>>;
  /** The writes of each part of each resource, for the reads and writes in flight with them. */
  readonly flights: Map<string, Flights>;
}

function scan(log: readonly Observed[]): Scan {
  const days = new Map<string, Set<string>>();
  const writes = new Map<string, Observed[]>();
  for (const o of log) {
    const write = writeOf(o);
    if (write?.key === undefined) continue;
    const of = writes.get(write.key) ?? [];
    of.push(o);
    writes.set(write.key, of);
    if (write.span === undefined) continue;
    const kept = days.get(write.key) ?? new Set<string>();
    for (const day of aroundDays(write.span)) kept.add(day);
    days.set(write.key, kept);
  }
  return { days, flights: new Map([...writes].map(([key, of]) => [key, new Flights(of)])) };
}

/** One part of one resource as judged: the model from its first read, with the writes since applied. */
interface Track {
  /** The days the model keeps: those around a write, inside the first read's range. */
  readonly days: readonly string[];
  readonly model: Model;
  /**
   * The assignations shown on each day, while no assignment answered as
   * done can have changed them: a refused or warned one changes nothing.
   */
  exact: Map<string, string[]> | undefined;
  /** Days a write since the first read concerns that no read judged since. */
  readonly pending: Set<string>;
  /** The last write applied, for what a departure says; undefined while none was. */
  lastWrite: string | undefined;
}

/** Each assignation shown over `day`, as the reading reads its range: its team and whether it is head. */
function assignationsOn(list: readonly TeamAssignation[], day: string, end: EndDay): string[] {
  return list
    .filter((a) => {
      const span = parseDateRange(a.date_range);
      return span !== undefined && within(span, day, end);
    })
    .map((a) => `team ${a.team.id} ${a.head ? 'head' : 'side'}`)
    .sort();
}

/** The rate the periods show over `day` as the reading reads them: null for none, undefined for several. */
function rateOn(periods: readonly ActivityRatePeriod[], day: string, end: EndDay): number | null | undefined {
  const covering = periods.filter((p) => {
    const span = parseDateRange(p.date_range);
    return span !== undefined && within(span, day, end);
  });
  if (covering.length > 1) return undefined;
  return covering[0]?.average_rate ?? null;
}

/** What a read of a part showed. */
type Shown =
  | { readonly part: 'rates'; readonly periods: ActivityRatePeriod[] }
  | { readonly part: 'teams'; readonly list: TeamAssignation[] };

/** What a read showed, when it answered 200 with a list: any other answer says nothing of these effects. */
function shownBy(o: Observed, part: Part): Shown | undefined {
  if (o.status !== 200) return undefined;
  if (part === 'rates') return matchesSchema('ActivityRatePeriodList', o.body) ? { part, periods: o.body } : undefined;
  return matchesSchema('TeamAssignationList', o.body) ? { part, list: o.body } : undefined;
}

/** The model of a part, started from its first read over the days the writes concern. */
function started(shown: Shown, days: readonly string[], end: EndDay): Track {
  const model: Model = { rates: new Map(), teams: [] };
  let exact: Map<string, string[]> | undefined;
  if (shown.part === 'rates') {
    for (const day of days) {
      const rate = rateOn(shown.periods, day, end);
      if (rate !== undefined) model.rates.set(day, rate);
    }
  } else {
    exact = new Map(days.map((day) => [day, assignationsOn(shown.list, day, end)]));
  }
  return { days, model, exact, pending: new Set(), lastWrite: undefined };
}

/**
 * A write applied to its part's model as its answer says: refused, or
 * answered with a warning without warning_aware, it changes nothing; done,
 * the model takes what it asked for. Either way the days around it are
 * judged at the next read. False when its answer says nothing of whether it
 * was done (401, 429, 5xx, or no answer of a kind the spec has).
 */
function applied(track: Track, o: Observed, span: DateSpan | undefined, end: EndDay): boolean {
  const warned = o.operation === 'resources.assign-team' && isWarning(o.body);
  const aware = field(o.request, 'warning_aware') === true;
  const done = (o.status >= 200 && o.status < 300 && !warned) || (warned && aware);
  const unchanged = (o.status >= 400 && o.status < 500 && !noVerdict(o)) || (warned && !aware);
  if (!done && !unchanged) return false;
  if (done) {
    applyWrite(track.model, o, span ? track.days.filter((d) => within(span, d, end)) : undefined);
    if (o.operation === 'resources.assign-team') track.exact = undefined;
  }
  const kept = new Set(track.days);
  for (const day of span ? aroundDays(span) : track.days) if (kept.has(day)) track.pending.add(day);
  track.lastWrite = o.step;
  return true;
}

/** The assignations a read shows over the days judged that differ from those the model keeps. */
function teamsChanged(
  track: Track,
  list: readonly TeamAssignation[],
  days: readonly string[],
  end: EndDay,
  after: string,
): Violation[] {
  if (!track.exact) return [];
  for (const day of days) {
    const expected = track.exact.get(day);
    const actual = assignationsOn(list, day, end);
    if (expected === undefined || JSON.stringify(expected) === JSON.stringify(actual)) continue;
    return [
      {
        where: `show-teams after ${after}: assignations on ${day}`,
        message:
          'must show the assignations the resource had while no assignment was done since: a refused one, or one ' +
          'answered with the §4.3 warning without warning_aware, changes nothing',
        expected,
        actual,
      },
    ];
  }
  return [];
}

/** A later read held to its part's model over the days writes concern that it covers; how many days it judged. */
function judgeRead(
  track: Track,
  shown: Shown,
  step: string,
  span: DateSpan,
  end: EndDay,
): { violations: Violation[]; judged: number } {
  const days = [...track.pending].filter((d) => within(span, d, end)).sort();
  if (days.length === 0 || track.lastWrite === undefined) return { violations: [], judged: 0 };
  for (const day of days) track.pending.delete(day);
  const after = `${track.lastWrite}, read by ${step}`;
  const judged = new Set(days);
  if (shown.part === 'rates') {
    const rates = new Map([...track.model.rates].filter(([day]) => judged.has(day)));
    return { violations: judgeRates({ rates }, shown.periods, after), judged: days.length };
  }
  const changed = teamsChanged(track, shown.list, days, end, after);
  if (changed.length > 0) return { violations: changed, judged: days.length };
  const teams = track.model.teams
    .map((t) => ({ ...t, days: t.days.filter((d) => judged.has(d)) }))
    .filter((t) => t.days.length > 0);
  return { violations: judgeTeams({ teams }, shown.list, after), judged: days.length };
}

/** The traffic judged with every range read as `end` says. */
function judgeAs(log: readonly Observed[], end: EndDay): Judgement {
  const { days, flights } = scan(log);
  const tracks = new Map<string, Track>();
  let judged = 0;
  for (const o of log) {
    const write = writeOf(o);
    if (write) {
      // A write to a resource the request does not name may have changed any of that part.
      if (write.key === undefined) {
        for (const key of [...tracks.keys()]) if (key.startsWith(`${write.part} `)) tracks.delete(key);
        continue;
      }
      const track = tracks.get(write.key);
      if (!track) continue;
      if (flights.get(write.key)?.withAnother(o) === true || !applied(track, o, write.span, end)) {
        tracks.delete(write.key);
      }
      continue;
    }
    // An operation the spec does not describe may change anything (§4: "other Directory operations: not shown").
    if (!(o.operation in OPERATION_REQUESTS)) {
      if (o.status < 400 || o.status >= 500) tracks.clear();
      continue;
    }
    const read = readOf(o);
    if (!read || flights.get(read.key)?.during(o) === true) continue;
    const shown = shownBy(o, read.part);
    if (shown === undefined) continue;
    const track = tracks.get(read.key);
    if (!track) {
      const kept = [...(days.get(read.key) ?? [])].filter((d) => within(read.span, d, end)).sort();
      if (kept.length > 0) tracks.set(read.key, started(shown, kept, end));
      continue;
    }
    const { violations, judged: n } = judgeRead(track, shown, o.step, read.span, end);
    if (violations.length > 0) return violations;
    judged += n > 0 ? 1 : 0;
  }
  return judged === 0
    ? noEvidence("no read of a resource's activity rates or teams both before and after a write of them")
    : [];
}

/**
 * The writes' effects in any traffic: a departure only where the ranges read
 * with their end day excluded depart too (either reading is a conformant
 * server's, and one that departs whichever it chose departs).
 */
export function judgeWriteEffects(log: readonly Observed[]): Judgement {
  const included = judgeAs(log, 'included');
  if (violationsOf(included).length === 0) return included;
  const excluded = judgeAs(log, 'excluded');
  return violationsOf(excluded).length === 0 ? (isClean(excluded) ? [] : excluded) : included;
}
