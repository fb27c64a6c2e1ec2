/**
 * What the suite itself sent to change a resource's activity rates and team
 * assignations, so that restoration can tell its own changes from another
 * party's. A difference found at restore time is the suite's own where it
 * lies on days the suite wrote and shows a value the suite set there (or an
 * unchanged fragment of what the resource held before); anything else was
 * made by someone else: the rule ends in ERROR (DC_ERR_FOREIGN_CHANGE) naming
 * it, and restoration never overwrites it.
 *
 * Whatever the log cannot read (a malformed body, a date range that is not
 * two dates) counts as a change of every date, and a change whose outcome is
 * unknown (no answer, a refusal a faulty server may have applied anyway)
 * explains whatever happened on its days: when in doubt a difference is the
 * suite's own, which is what restoration did before this existed.
 */
import { canonicalJson } from '../core/canonical-json.ts';
import type { Exchange } from '../core/exchange.ts';
import type { ActivityRatePeriod, TeamAssignation } from '../schemas/index.ts';
import { addDays, type DateSpan } from './dates.ts';
import { isRecord } from './json-values.ts';
import type { ResourceState } from './resource-state.ts';

export type ChangedPart = 'rates' | 'teams';

/**
 * What a change set on every day of its range, as far as another party's
 * change is told from it: the rate and work regime of an assignment (a rate
 * shown as an integer may come back rounded), the team and role of a team
 * assignment, nothing for an unassignment. The flags, patterns and contract
 * fields are left out on purpose: a server that drops a flag the suite sent
 * departs from the spec, which the rule that sent it reports, and restoring
 * over that is right; another party's change is told by its rate or team.
 */
export type Setting =
  | { kind: 'rate'; averageRate: number; workRegimeId?: string }
  | { kind: 'cleared' }
  | { kind: 'team'; teamId: string; head?: boolean };

/** One change the suite sent. */
export interface OwnMutation {
  part: ChangedPart;
  /** Undefined: the log could not read which resource, so it counts for every one. */
  resourceId: string | undefined;
  /** Undefined: the log could not read the dates, so it counts for every date. */
  span: DateSpan | undefined;
  /** What it set over `span`; undefined when the body does not say, so it may have set anything. */
  sets: Setting | undefined;
  /** The server answered 2xx: the change was made (a refused or unanswered one may or may not have been). */
  accepted: boolean;
}

const PART_OF: Readonly<Record<string, ChangedPart>> = {
  'resources.assign-activity-rate': 'rates',
  'resources.unassign-activity-rate': 'rates',
  'resources.assign-team': 'teams',
};

/**
 * The changes one rule sent, in order, fed from the rule's recorded exchanges
 * (every client a check gets records into it). A guard takes a mark before
 * its change and reads what was sent since, for its resource.
 */
export class MutationLog {
  private readonly entries: OwnMutation[] = [];

  /** Records the exchange when it was a change of rates or teams, answered or not (it may have taken effect). */
  add(exchange: Exchange): void {
    const part = PART_OF[exchange.operation];
    if (!part) return;
    let body: Record<string, unknown> | undefined;
    try {
      const parsed: unknown = JSON.parse(exchange.request.body);
      if (isRecord(parsed)) body = parsed;
    } catch {
      // Unreadable: it counts for every resource and every date.
    }
    this.entries.push({
      part,
      resourceId: typeof body?.resource_id === 'string' ? body.resource_id : undefined,
      span: typeof body?.date_range === 'string' ? dateSpan(body.date_range) : undefined,
      sets: body ? settingOf(exchange.operation, body) : undefined,
      accepted: exchange.response !== undefined && exchange.response.status >= 200 && exchange.response.status < 300,
    });
  }

  mark(): number {
    return this.entries.length;
  }

  /** What was sent since `mark` that may have changed `resourceId`. */
  since(mark: number, resourceId: string): OwnMutation[] {
    return this.entries.slice(mark).filter((e) => e.resourceId === undefined || e.resourceId === resourceId);
  }
}

/** What a change's request body sets over its range; undefined when the body does not say. */
export function settingOf(operation: string, body: Record<string, unknown>): Setting | undefined {
  switch (operation) {
    case 'resources.unassign-activity-rate':
      return { kind: 'cleared' };
    case 'resources.assign-activity-rate':
      if (typeof body.average_rate !== 'number') return undefined;
      return {
        kind: 'rate',
        averageRate: body.average_rate,
        ...(typeof body.work_regime_id === 'string' ? { workRegimeId: body.work_regime_id } : {}),
      };
    case 'resources.assign-team':
      if (typeof body.team_id !== 'string') return undefined;
      return { kind: 'team', teamId: body.team_id, ...(typeof body.head === 'boolean' ? { head: body.head } : {}) };
    default:
      return undefined;
  }
}

/** A DateRange of two well-formed dates in order; undefined otherwise. */
export function dateSpan(range: string): DateSpan | undefined {
  const [, start, end] = /^(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})$/.exec(range) ?? [];
  if (start === undefined || end === undefined || start > end) return undefined;
  return { start, end };
}

/**
 * Spans that share a day or touch end to start: whether a range's end is
 * inclusive is "not shown", so a change beside another may be on its last day.
 */
function meet(a: DateSpan, b: DateSpan): boolean {
  return a.start <= addDays(b.end, 1) && b.start <= addDays(a.end, 1);
}

/** Spans that share a day. */
function overlap(a: DateSpan, b: DateSpan): boolean {
  return a.start <= b.end && b.start <= a.end;
}

/** Every day of `span` lies in one of `pieces`. */
function coveredBy(span: DateSpan, pieces: readonly DateSpan[]): boolean {
  // The first day of `span` not yet known to be covered, walking the pieces by their start.
  let next = span.start;
  for (const piece of [...pieces].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0))) {
    if (piece.start > next) break;
    if (piece.end >= next) next = addDays(piece.end, 1);
    if (next > span.end) return true;
  }
  return next > span.end;
}

/** Differences of one part made by another party: what `before` held that is gone, what is new. */
export interface ForeignPart<T> {
  missing: T[];
  unexpected: T[];
}

export interface ForeignChange {
  rates?: ForeignPart<ActivityRatePeriod>;
  teams?: ForeignPart<TeamAssignation>;
  /**
   * The change lies on or beside days the suite changed (its own writes, or
   * the periods its differences span): putting back the suite's own change
   * there would overwrite it, so nothing of the resource is put back.
   */
  onOwnDates: boolean;
}

/** How the items of one part are compared: as a value a change set, and with each other. */
interface PartRules<T> {
  /** `item` shows values the suite's own changes set (each value may be another change's). */
  shows(item: T, settings: readonly Setting[]): boolean;
  /** Two items hold the same value on the days they share (one may be a fragment of the other). */
  same(a: T, b: T): boolean;
}

const RATES: PartRules<ActivityRatePeriod> = {
  // The rate and the work regime each set by one of the suite's writes, not always the same one: a server that
  // took a write over an existing period for an update of some of its fields mixes two writes of the suite's,
  // which the rule that sent them reports; another party's change is told by a rate or regime none of them set.
  shows: (p, settings) => {
    const rates = settings.flatMap((s) => (s.kind === 'rate' ? [s] : []));
    return (
      // "Shown as an integer": rounded either way, the rate shown is within one of the rate sent.
      rates.some((s) => Math.abs(p.average_rate - s.averageRate) <= 1) &&
      rates.some((s) => s.workRegimeId === undefined || p.work_regime.id === s.workRegimeId)
    );
  },
  // A period cut by a change keeps every field of the period it was part of.
  same: (a, b) => canonicalJson({ ...a, date_range: '' }) === canonicalJson({ ...b, date_range: '' }),
};

const TEAMS: PartRules<TeamAssignation> = {
  shows: (a, settings) =>
    settings.some((s) => s.kind === 'team' && a.team.id === s.teamId && (s.head === undefined || a.head === s.head)),
  // An assignation merged with one beside it takes the new one's contract fields over the whole range (§4.3:
  // "update an existing one by extending"): only the team and the role tell it apart.
  same: (a, b) => a.team.id === b.team.id && a.head === b.head,
};

/**
 * The differences between `before` and `now` that none of the suite's own
 * changes explains (undefined when there is none). An item that is new is
 * the suite's when on each of its days it is what the resource held there
 * before (a fragment of a period cut), or the day is one a change of the
 * suite's wrote and the item shows a value one of them set (the suite's own
 * writes may interleave: a value of one of them anywhere on their days is
 * the suite's), or a change of unknown outcome may have touched the day. An
 * item that is gone is the suite's when it shares a day with a change of the
 * suite's, or meets one of unknown outcome, or its value is still shown on
 * every one of its days (merged into a longer item). No difference widens the
 * days the suite changed: a difference is the suite's only where the suite
 * wrote.
 */
export function foreignChanges(
  before: ResourceState,
  now: ResourceState,
  own: readonly OwnMutation[],
): ForeignChange | undefined {
  const rates = foreignPart(before.rates, now.rates, own, 'rates', RATES);
  const teams = foreignPart(before.teams, now.teams, own, 'teams', TEAMS);
  if (!rates && !teams) return undefined;
  const change: ForeignChange = { onOwnDates: Boolean(rates?.onOwnDates || teams?.onOwnDates) };
  if (rates) change.rates = { missing: rates.missing, unexpected: rates.unexpected };
  if (teams) change.teams = { missing: teams.missing, unexpected: teams.unexpected };
  return change;
}

function foreignPart<T extends { date_range: string }>(
  before: readonly T[] | undefined,
  now: readonly T[] | undefined,
  own: readonly OwnMutation[],
  part: ChangedPart,
  rules: PartRules<T>,
): (ForeignPart<T> & { onOwnDates: boolean }) | undefined {
  if (before === undefined) return undefined;
  const mine = own.filter((m) => m.part === part);
  const after = now ?? [];
  const missing = without(before, after);
  const unexpected = without(after, before);
  // Days a change of the suite's was made, with what it set there.
  const written: Array<{ span: DateSpan; sets: Setting }> = [];
  // Days a change of unknown outcome may have touched, and the day on each side (a range's end may be exclusive).
  const doubtful: DateSpan[] = [];
  for (const m of mine) {
    // A change of the suite's whose dates are unknown may explain any difference.
    if (m.span === undefined) return undefined;
    if (m.accepted && m.sets) written.push({ span: m.span, sets: m.sets });
    else doubtful.push({ start: addDays(m.span.start, -1), end: addDays(m.span.end, 1) });
  }
  const ownDays = written.map((w) => w.span);
  const spansOf = (items: readonly T[]): DateSpan[] => items.flatMap((i) => dateSpan(i.date_range) ?? []);
  const isNewOwn = (item: T, span: DateSpan): boolean =>
    coveredBy(span, [
      ...doubtful,
      ...spansOf(before.filter((b) => rules.same(b, item))),
      ...(rules.shows(
        item,
        written.map((w) => w.sets),
      )
        ? ownDays
        : []),
    ]);
  const isGoneOwn = (item: T, span: DateSpan): boolean =>
    ownDays.some((d) => overlap(d, span)) ||
    doubtful.some((d) => overlap(d, span)) ||
    coveredBy(span, spansOf(after.filter((a) => rules.same(a, item))));
  // An item whose range cannot be read is counted as the suite's, as a change whose dates cannot be read is.
  const foreignNew = unexpected.filter((i) => {
    const span = dateSpan(i.date_range);
    return span !== undefined && !isNewOwn(i, span);
  });
  const foreignGone = missing.filter((i) => {
    const span = dateSpan(i.date_range);
    return span !== undefined && !isGoneOwn(i, span);
  });
  if (foreignNew.length + foreignGone.length === 0) return undefined;
  // Where restoring the suite's own differences writes: its changes' days and the items that differ.
  const foreign = new Set([...foreignNew, ...foreignGone]);
  const restoring = [...ownDays, ...doubtful, ...spansOf([...missing, ...unexpected].filter((i) => !foreign.has(i)))];
  const onOwnDates = spansOf([...foreign]).some((s) => restoring.some((r) => meet(r, s)));
  return { missing: foreignGone, unexpected: foreignNew, onOwnDates };
}

/** Items of `from` that `other` does not hold (compared as canonical JSON). */
function without<T>(from: readonly T[], other: readonly T[]): T[] {
  const held = new Set(other.map(canonicalJson));
  return from.filter((item) => !held.has(canonicalJson(item)));
}

/** `before` with the foreign change kept: what restoration puts back instead of `before`. */
export function keepingForeign(before: ResourceState, foreign: ForeignChange): ResourceState {
  const goal: ResourceState = { ...before };
  if (before.rates && foreign.rates) goal.rates = applied(before.rates, foreign.rates);
  if (before.teams && foreign.teams) goal.teams = applied(before.teams, foreign.teams);
  return goal;
}

function applied<T>(items: readonly T[], change: ForeignPart<T>): T[] {
  const gone = new Set(change.missing.map(canonicalJson));
  return [...items.filter((i) => !gone.has(canonicalJson(i))), ...change.unexpected];
}

/** The foreign change in one line: each part's new and vanished items, as canonical JSON. */
export function describeForeign(foreign: ForeignChange): string {
  const parts: string[] = [];
  for (const part of ['rates', 'teams'] as const) {
    const change = foreign[part];
    if (!change) continue;
    if (change.unexpected.length > 0)
      parts.push(`new ${part}: ${change.unexpected.map((x) => canonicalJson(x)).join(' ')}`);
    if (change.missing.length > 0)
      parts.push(`vanished ${part}: ${change.missing.map((x) => canonicalJson(x)).join(' ')}`);
  }
  return parts.join('; ');
}

/** The suite's own changes in a few words, for the message: "rates (rate 40) 2020-03-01/2020-03-31, teams (team 7) 2021-…". */
export function describeOwn(own: readonly OwnMutation[]): string {
  const words = own.map((m) => `${m.part}${setWords(m.sets)} ${m.span ? `${m.span.start}/${m.span.end}` : 'any date'}`);
  return words.length > 0 ? [...new Set(words)].join(', ') : 'none';
}

function setWords(sets: Setting | undefined): string {
  switch (sets?.kind) {
    case 'rate':
      return ` (rate ${sets.averageRate})`;
    case 'team':
      return ` (team ${sets.teamId})`;
    case 'cleared':
      return ' (unassigned)';
    default:
      return '';
  }
}
