/**
 * What the suite itself sent to change a resource's activity rates and team
 * assignations, so that restoration can tell its own changes from another
 * party's. A difference found at restore time whose dates meet none of the
 * suite's own changes (directly, or through the periods those changed) was
 * made by someone else: the rule ends in ERROR (DC_ERR_FOREIGN_CHANGE) naming
 * it, and restoration leaves it in place instead of overwriting it.
 *
 * Whatever the log cannot read (a malformed body, a date range that is not
 * two dates) counts as a change of every date: when in doubt a difference is
 * the suite's own, which is what restoration did before this existed.
 */
import { canonicalJson } from '../core/canonical-json.ts';
import type { Exchange } from '../core/exchange.ts';
import type { ActivityRatePeriod, TeamAssignation } from '../schemas/index.ts';
import { addDays, type DateSpan } from './dates.ts';
import { isRecord } from './json-values.ts';
import type { ResourceState } from './resource-state.ts';

export type ChangedPart = 'rates' | 'teams';

/** One change the suite sent. */
export interface OwnMutation {
  part: ChangedPart;
  /** Undefined: the log could not read which resource, so it counts for every one. */
  resourceId: string | undefined;
  /** Undefined: the log could not read the dates, so it counts for every date. */
  span: DateSpan | undefined;
  /** The team of an assign-team, for messages. */
  teamId?: string;
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
      ...(typeof body?.team_id === 'string' ? { teamId: body.team_id } : {}),
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

/** A DateRange of two well-formed dates in order; undefined otherwise. */
export function dateSpan(range: string): DateSpan | undefined {
  const [, start, end] = /^(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})$/.exec(range) ?? [];
  if (start === undefined || end === undefined || start > end) return undefined;
  return { start, end };
}

/**
 * Spans that share a day or touch end to start: a server may merge or extend
 * a period next to the one it was asked to change (whether a range's end is
 * inclusive is "not shown"), so touching counts as meeting.
 */
function meet(a: DateSpan, b: DateSpan): boolean {
  return a.start <= addDays(b.end, 1) && b.start <= addDays(a.end, 1);
}

/** Differences of one part made by another party: what `before` held that is gone, what is new. */
export interface ForeignPart<T> {
  missing: T[];
  unexpected: T[];
}

export interface ForeignChange {
  rates?: ForeignPart<ActivityRatePeriod>;
  teams?: ForeignPart<TeamAssignation>;
}

/**
 * The differences between `before` and `now` that none of the suite's own
 * changes explains: a difference is the suite's when its dates meet a range
 * the suite sent for that part, or a difference already counted as the
 * suite's (the fragments of a period it cut, a period it extended); whatever
 * is left is foreign. Undefined when there is none.
 */
export function foreignChanges(
  before: ResourceState,
  now: ResourceState,
  own: readonly OwnMutation[],
): ForeignChange | undefined {
  const change: ForeignChange = {};
  const rates = foreignPart(before.rates, now.rates, own, 'rates');
  if (rates) change.rates = rates;
  const teams = foreignPart(before.teams, now.teams, own, 'teams');
  if (teams) change.teams = teams;
  return change.rates || change.teams ? change : undefined;
}

function foreignPart<T extends { date_range: string }>(
  before: readonly T[] | undefined,
  now: readonly T[] | undefined,
  own: readonly OwnMutation[],
  part: ChangedPart,
): ForeignPart<T> | undefined {
  if (before === undefined) return undefined;
  const mine = own.filter((m) => m.part === part);
  // A change of the suite's whose dates are unknown may explain any difference.
  if (mine.some((m) => m.span === undefined)) return undefined;
  const missing = without(before, now ?? []);
  const unexpected = without(now ?? [], before);
  const touched: DateSpan[] = mine.flatMap((m) => (m.span ? [m.span] : []));
  const unexplained = new Set<T>([...missing, ...unexpected]);
  for (let grew = true; grew;) {
    grew = false;
    for (const item of unexplained) {
      const span = dateSpan(item.date_range);
      if (span && !touched.some((t) => meet(t, span))) continue;
      unexplained.delete(item);
      if (span) touched.push(span);
      grew = true;
    }
  }
  if (unexplained.size === 0) return undefined;
  return {
    missing: missing.filter((i) => unexplained.has(i)),
    unexpected: unexpected.filter((i) => unexplained.has(i)),
  };
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

/** The suite's own changes in a few words, for the message: "rates 2020-01-31/2020-02-29, teams 7 2021-…". */
export function describeOwn(own: readonly OwnMutation[]): string {
  const words = own.map(
    (m) => `${m.part}${m.teamId ? ` (team ${m.teamId})` : ''} ${m.span ? `${m.span.start}/${m.span.end}` : 'any date'}`,
  );
  return words.length > 0 ? [...new Set(words)].join(', ') : 'none';
}
