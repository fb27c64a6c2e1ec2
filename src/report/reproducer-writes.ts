/**
 * A write's effect read right after it, in a reproducer: an assignment of an
 * activity rate must show a period over its range with what it sent, no two
 * periods may overlap after it, and an unassignment must leave no period
 * inside its range. The script sends the write again, then the read, and
 * judges the live read; a write refused (not 2xx) says nothing of its effect
 * (exit 3), and an unassignment is judged only where the read before it
 * shows a period inside its range (on a target without one, a server that
 * still ignores unassignments would read as fixed). The write changes the
 * target; nothing is put back (the script says so).
 */
import type { Exchange } from '../core/exchange.ts';
import { parseJsonText } from '../core/json-text.ts';
import type { RuleResult, Violation } from '../core/types.ts';

/** What an assignment sent, which the period over its range must carry. */
export interface Assigned {
  date_range: string;
  average_rate?: number;
  work_regime_id?: string | null;
  trainee?: boolean;
  paid_hourly?: boolean;
  apprentice?: boolean;
  /** The weeks sent, each day's rate: shown week by week, each day within rounding. */
  activity_rate_patterns?: Array<Record<string, number>>;
}

/** The read (request `at`) shows a period covering the assigned range with what the assignment sent. */
export interface PeriodAssignedCheck {
  at: number;
  kind: 'period-assigned';
  assigned: Assigned;
}

/** The read (request `at`) holds no two periods sharing more than a boundary day. */
export interface NoOverlapCheck {
  at: number;
  kind: 'no-overlap';
}

/** The read (request `at`) holds a period sharing more than a boundary day with `range` (else exit 3), or none (`none`). */
export interface PeriodInsideCheck {
  at: number;
  kind: 'period-inside';
  range: string;
  none: boolean;
}

/** The write (request `at`) was done: 2xx, or the script cannot tell. */
export interface WrittenCheck {
  at: number;
  kind: 'accepted';
}

/** The read (request `at`) shows a head or side assignation of the team covering the range. */
export interface TeamAssignedCheck {
  at: number;
  kind: 'team-assigned';
  teamId: string;
  head: boolean;
  range: string;
}

/**
 * The period the read (request `at`) shows over the range spreads the rate
 * evenly (§4.2, no pattern sent): each week as many non-zero days as its
 * work regime works, all equal.
 */
export interface SpreadEvenlyCheck {
  at: number;
  kind: 'spread-evenly';
  range: string;
}

/** The read (request `at`) shows no assignation of the team sharing more than a boundary day with the range. */
export interface TeamAbsentCheck {
  at: number;
  kind: 'team-absent';
  teamId: string;
  range: string;
}

/** The answer (request `at`) is a §4.3 warning (it has a warning_type), or the script cannot tell. */
export interface WarnedCheck {
  at: number;
  kind: 'warned';
}

/**
 * Every assignation of the team the read (request `at`) shows over the
 * range's certain days carries `field` as sent, byte for byte (where it
 * carries one); none at all: the script cannot tell.
 */
export interface TeamTextCheck {
  at: number;
  kind: 'team-text';
  teamId: string;
  range: string;
  field: string;
  value: string;
}

/** The read (request `at`) shows the same entries as read `reference`, whatever their order. */
export interface ListSameCheck {
  at: number;
  kind: 'list-same';
  reference: number;
}

export type WriteCheck =
  | PeriodAssignedCheck
  | NoOverlapCheck
  | PeriodInsideCheck
  | TeamAssignedCheck
  | TeamAbsentCheck
  | SpreadEvenlyCheck
  | WarnedCheck
  | TeamTextCheck
  | ListSameCheck;

type WritePlan = {
  requests: Array<{ label: string; exchange: Exchange }>;
  checks: Array<WriteCheck | WrittenCheck>;
};

export interface Span {
  start: string;
  end: string;
}

export function spanOf(range: unknown): Span | undefined {
  const m = typeof range === 'string' ? /^(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})$/.exec(range) : null;
  return m?.[1] && m[2] ? { start: m[1], end: m[2] } : undefined;
}

/** Share more than a boundary day (as the rules judge periods: an end day may be read as included or not). */
function overlapsStrictly(a: Span, b: Span): boolean {
  return a.start < b.end && b.start < a.end;
}

export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export function recordOf(x: unknown): Map<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x) ? new Map(Object.entries(x)) : new Map();
}

/** The periods a read answered, or undefined where it answered no list. */
export function periodsOf(e: Exchange | undefined): Array<Map<string, unknown>> | undefined {
  if (!e?.response || e.response.truncated || e.response.status !== 200) return undefined;
  const body = parseJsonText(e.response.body);
  return Array.isArray(body) ? body.map(recordOf) : undefined;
}

/** As activity-rates.assigned-rate-shown judges a period: over the range, the rate within rounding, the flags and regime sent. */
export function carries(p: Map<string, unknown>, assigned: Assigned): boolean {
  const span = spanOf(p.get('date_range'));
  const range = spanOf(assigned.date_range);
  const rate = p.get('average_rate');
  const regime = recordOf(p.get('work_regime')).get('id');
  return (
    span !== undefined &&
    range !== undefined &&
    span.start <= range.start &&
    range.end <= span.end &&
    typeof rate === 'number' &&
    Math.abs(rate - (assigned.average_rate ?? rate)) <= 0.5 &&
    (assigned.trainee === undefined || p.get('trainee') === assigned.trainee) &&
    (assigned.paid_hourly === undefined || p.get('paid_hourly') === assigned.paid_hourly) &&
    (assigned.apprentice === undefined || p.get('apprentice') === assigned.apprentice) &&
    (assigned.work_regime_id === null || assigned.work_regime_id === undefined || regime === assigned.work_regime_id) &&
    weeksShown(p.get('activity_rate_patterns'), assigned.activity_rate_patterns)
  );
}

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Every week sent shown at its place, each day within rounding, and no other (nothing sent: anything). */
function weeksShown(shown: unknown, sent: Assigned['activity_rate_patterns']): boolean {
  if (sent === undefined) return true;
  if (!Array.isArray(shown) || shown.length !== sent.length) return false;
  return sent.every((week, k) => {
    const day = recordOf(shown[k]);
    return WEEKDAYS.every((d) => {
      const [a, b] = [week[d], day.get(d)];
      return typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) <= 0.5;
    });
  });
}

/** The weeks of a pattern as sent, each a day → rate record; undefined where it is not one. */
function weeksOf(x: unknown): Array<Record<string, number>> | undefined {
  if (!Array.isArray(x)) return undefined;
  const weeks: Array<Record<string, number>> = [];
  for (const w of x) {
    const week = recordOf(w);
    const days: Record<string, number> = {};
    for (const d of WEEKDAYS) {
      const rate = week.get(d);
      if (typeof rate !== 'number') return undefined;
      days[d] = rate;
    }
    weeks.push(days);
  }
  return weeks;
}

/** What an assignment's request sent, as the check reads it. */
function assignedBy(e: Exchange): Assigned | undefined {
  const body = recordOf(parseJsonText(e.request.body));
  const range = body.get('date_range');
  if (typeof range !== 'string') return undefined;
  const pick = <T>(name: string, is: (x: unknown) => x is T): Record<string, T> => {
    const value = body.get(name);
    return is(value) ? { [name]: value } : {};
  };
  const isNumber = (x: unknown): x is number => typeof x === 'number';
  const isBoolean = (x: unknown): x is boolean => typeof x === 'boolean';
  const isRegime = (x: unknown): x is string | null => typeof x === 'string' || x === null;
  const weeks = weeksOf(body.get('activity_rate_patterns'));
  return {
    date_range: range,
    ...(weeks ? { activity_rate_patterns: weeks } : {}),
    ...pick('average_rate', isNumber),
    ...pick('work_regime_id', isRegime),
    ...pick('trainee', isBoolean),
    ...pick('paid_hourly', isBoolean),
    ...pick('apprentice', isBoolean),
  };
}

/** Each write of `write`'s step with the read of `read`'s step right after it (nothing of the rule's between). */
function writesRead(log: readonly Exchange[], write: string, read: string): Array<[Exchange, Exchange]> {
  return log.flatMap((e, i): Array<[Exchange, Exchange]> => {
    const next = log[i + 1];
    return e.step === write && next?.step === read ? [[e, next]] : [];
  });
}

function planOf(write: Exchange, read: Exchange, check: WriteCheck): WritePlan {
  return {
    requests: [write, read].map((e) => ({ label: e.step ?? e.operation, exchange: e })),
    checks: [{ at: 1, kind: 'accepted' }, check],
  };
}

/** The steps the rules of rates tag their write and the read right after it with. */
const ASSIGNED_SHOWN: Record<string, { write: string; read: string }> = {
  'activity-rates.assigned-rate-shown': { write: 'the assignment', read: 'read right after the assignment' },
  'activity-rates.prop.assign-then-show': { write: 'the assignment', read: 'show-activity-rates after the assignment' },
};

/** `…: show-activity-rates after assign-activity-rate pairwise row 1: activity_rate_patterns[1]`: a row's read. */
const RATE_ROW = /: show-activity-rates after (assign-activity-rate pairwise row \d+(?: \(complete\))?): /;

/**
 * The last write whose read right after departs in the recording as the
 * script will judge it (a property's passing runs share the steps' names).
 */
export function writePlan(r: RuleResult): WritePlan | undefined {
  const log = r.exchanges;
  // A transcript keeps its first and last exchanges only: a row whose exchanges it kept, the first violation's if it can.
  const row =
    r.ruleId === 'activity-rates.prop.pairwise-combinations'
      ? r.violations.flatMap((x) => RATE_ROW.exec(x.where)?.[1] ?? []).find((step) => log.some((e) => e.step === step))
      : undefined;
  if (r.ruleId === 'activity-rates.default-pattern-even')
    return spreadPlan(writesRead(log, 'the assignment', 'read right after the assignment'));
  const spread = r.violations.find((x) => x.message.startsWith('must spread the rate evenly'));
  if (row !== undefined && spread && RATE_ROW.exec(spread.where)?.[1] === row)
    return spreadPlan(writesRead(log, row, `show-activity-rates after ${row}`));
  const shown = row !== undefined ? { write: row, read: `show-activity-rates after ${row}` } : ASSIGNED_SHOWN[r.ruleId];
  if (shown) {
    const found = writesRead(log, shown.write, shown.read).findLast(([write, read]) => {
      const assigned = assignedBy(write);
      return assigned !== undefined && periodsOf(read)?.some((p) => carries(p, assigned)) === false;
    });
    const assigned = found && assignedBy(found[0]);
    if (!found || !assigned) return undefined;
    // A row over exactly the range of a period an earlier row made needs that period first.
    const made = log
      .slice(0, log.indexOf(found[0]))
      .findLast((e) => e.operation === found[0].operation && assignedBy(e)?.date_range === assigned.date_range);
    if (!made) return planOf(found[0], found[1], { at: 2, kind: 'period-assigned', assigned });
    return {
      requests: [made, ...found].map((e) => ({ label: e.step ?? e.operation, exchange: e })),
      checks: [
        { at: 1, kind: 'accepted' },
        { at: 2, kind: 'accepted' },
        { at: 3, kind: 'period-assigned', assigned },
      ],
    };
  }
  if (r.ruleId === 'activity-rates.no-overlap') {
    const found = writesRead(log, 'the assignment', 'read right after the assignment').findLast(([, read]) => {
      const spans = (periodsOf(read) ?? []).flatMap((p) => spanOf(p.get('date_range')) ?? []);
      return spans.some((a, i) => spans.slice(i + 1).some((b) => overlapsStrictly(a, b)));
    });
    return found && planOf(found[0], found[1], { at: 2, kind: 'no-overlap' });
  }
  if (r.ruleId === 'activity-rates.unassign-removes-coverage') return unassignPlan(log);
  if (r.ruleId === 'assign-team.warning-aware-applies') return teamAssignedPlan(log);
  if (r.ruleId === 'assign-team.warning-changes-nothing') return warningPlan(log);
  if (r.ruleId === 'assign-team.prop.pairwise-combinations')
    return r.violations.reduce<WritePlan | undefined>(
      (plan, x) => plan ?? warnedRowPlan(log, x) ?? textRowPlan(log, x),
      undefined,
    );
  return undefined;
}

/** `…: show-teams after assign-team pairwise row 1: team`, a row warned of whose team is shown after all. */
const WARNED_ROW = /: show-teams after (assign-team pairwise row \d+(?: \(complete\))?): team$/;
const NOT_ASSIGNED = /^no assignation of team (\S+) over (\S+)$/;

/**
 * A pairwise row warned of (warning_aware false or left out) must not be
 * done: the row sent again, which must answer a warning live (else exit 3),
 * and the read of its range right after, which must not show its team there.
 */
function warnedRowPlan(log: readonly Exchange[], v: Violation): WritePlan | undefined {
  const step = WARNED_ROW.exec(v.where)?.[1];
  const expected = typeof v.expected === 'string' ? NOT_ASSIGNED.exec(v.expected) : null;
  const [teamId, range] = [expected?.[1], expected?.[2]];
  const span = spanOf(range);
  if (step === undefined || teamId === undefined || range === undefined || !span) return undefined;
  const found = writesRead(log, step, `show-teams after ${step}`).at(-1);
  if (!found) return undefined;
  const [write, read] = found;
  // The recording must depart as the script will judge it: the team shown over the range.
  const shown = (periodsOf(read) ?? []).some((a) => {
    const s = spanOf(a.get('date_range'));
    return recordOf(a.get('team')).get('id') === teamId && s !== undefined && overlapsStrictly(s, span);
  });
  if (!shown) return undefined;
  return {
    requests: [write, read].map((e) => ({ label: e.step ?? e.operation, exchange: e })),
    checks: [
      { at: 1, kind: 'warned' },
      { at: 2, kind: 'team-absent', teamId, range },
    ],
  };
}

/** `…: show-teams after assign-team pairwise row 3 resent with warning_aware true: external_id`: a row's text. */
const TEXT_ROW =
  /: show-teams after (assign-team pairwise row \d+(?: \(complete\))?(?: resent with warning_aware true)?): (regrouping|contract_number|external_id)$/;

/**
 * A pairwise row done must show the text it sent byte for byte: the row (as
 * sent, or resent with warning_aware true) sent again, and the read of its
 * week right after, judged on the field the violation names.
 */
function textRowPlan(log: readonly Exchange[], v: Violation): WritePlan | undefined {
  const m = TEXT_ROW.exec(v.where);
  const [step, field] = [m?.[1], m?.[2]];
  if (step === undefined || field === undefined || typeof v.expected !== 'string') return undefined;
  const found = writesRead(log, step, `show-teams after ${step}`).findLast(([write]) => {
    return recordOf(parseJsonText(write.request.body)).get(field) === v.expected;
  });
  if (!found) return undefined;
  const [write, read] = found;
  const body = recordOf(parseJsonText(write.request.body));
  const [teamId, range] = [body.get('team_id'), body.get('date_range')];
  const span = spanOf(range);
  if (typeof teamId !== 'string' || typeof range !== 'string' || !span) return undefined;
  // The recording must depart as the script will judge it: the team shown there with other text.
  const departs = (periodsOf(read) ?? []).some((a) => {
    const s = spanOf(a.get('date_range'));
    const shown = a.get(field);
    return (
      recordOf(a.get('team')).get('id') === teamId &&
      s !== undefined &&
      s.start < span.end &&
      span.start <= s.end &&
      typeof shown === 'string' &&
      shown !== v.expected
    );
  });
  if (!departs) return undefined;
  return planOf(write, read, { at: 2, kind: 'team-text', teamId, range, field, value: v.expected });
}

/** The period over the range, and whether it spreads its rate evenly as activity-rates.default-pattern-even judges it. */
function spreadsEvenly(read: Exchange, range: Span): boolean | undefined {
  const period = (periodsOf(read) ?? []).find((p) => {
    const span = spanOf(p.get('date_range'));
    return span !== undefined && span.start <= range.start && range.end <= span.end;
  });
  const days = period && recordOf(period.get('work_regime')).get('weekly_worked_days');
  const weeks = period?.get('activity_rate_patterns');
  if (typeof days !== 'number' || !Array.isArray(weeks)) return undefined;
  return (
    weeks.length > 0 &&
    weeks.every((w: unknown) => {
      const week = recordOf(w);
      const worked = WEEKDAYS.map((d) => week.get(d)).filter((x): x is number => typeof x === 'number' && x > 0);
      return worked.length === days && new Set(worked).size <= 1;
    })
  );
}

/** The last assignment whose read right after shows its period with the rate not spread evenly. */
function spreadPlan(pairs: Array<[Exchange, Exchange]>): WritePlan | undefined {
  const found = pairs.findLast(([write, read]) => {
    const range = spanOf(recordOf(parseJsonText(write.request.body)).get('date_range'));
    return range !== undefined && spreadsEvenly(read, range) === false;
  });
  const range = found && recordOf(parseJsonText(found[0].request.body)).get('date_range');
  return found && typeof range === 'string'
    ? planOf(found[0], found[1], { at: 2, kind: 'spread-evenly', range })
    : undefined;
}

/** As assign-team.warning-aware-applies judges a read: an assignation of the team, with the head, covering the range. */
export function showsTeam(read: Exchange, teamId: unknown, head: unknown, range: Span): boolean {
  return (periodsOf(read) ?? []).some((a) => {
    const span = spanOf(a.get('date_range'));
    return (
      recordOf(a.get('team')).get('id') === teamId &&
      a.get('head') === head &&
      span !== undefined &&
      span.start <= range.start &&
      range.end <= span.end
    );
  });
}

/** An assignment done (warning_aware true) and the read right after it, which must show it. */
function teamAssignedPlan(log: readonly Exchange[]): WritePlan | undefined {
  const found = writesRead(log, 'the conflicting assignment', 'show-teams after the assignment').at(-1);
  if (!found) return undefined;
  const [write, read] = found;
  const body = recordOf(parseJsonText(write.request.body));
  const [teamId, head, range] = [body.get('team_id'), body.get('head') ?? true, body.get('date_range')];
  const span = spanOf(range);
  if (typeof teamId !== 'string' || typeof head !== 'boolean' || typeof range !== 'string' || !span) return undefined;
  // The recording must depart as the script will judge it: otherwise the script would judge another condition.
  if (showsTeam(read, teamId, head, span)) return undefined;
  return planOf(write, read, { at: 2, kind: 'team-assigned', teamId, head, range });
}

/** The entries of a read as a multiset of canonical texts. */
function entriesOf(e: Exchange | undefined): string[] | undefined {
  if (!e?.response || e.response.truncated || e.response.status !== 200) return undefined;
  const body = parseJsonText(e.response.body);
  const canonical = (x: unknown): unknown =>
    Array.isArray(x)
      ? x.map(canonical)
      : typeof x === 'object' && x !== null
        ? Object.fromEntries(
            Object.entries(x)
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([k, v]) => [k, canonical(v)]),
          )
        : x;
  return Array.isArray(body) ? body.map((x: unknown) => JSON.stringify(canonical(x))).sort() : undefined;
}

/**
 * An assignment warned of (warning_aware false) must change nothing: the
 * teams read before it, the assignment, the teams read after the warning;
 * a live answer that is no warning says nothing of the clause (exit 3).
 */
function warningPlan(log: readonly Exchange[]): WritePlan | undefined {
  const at = log.findLastIndex((e) => e.step === 'the conflicting assignment');
  const write = log[at];
  const before = log.slice(0, at).findLast((e) => e.step === 'show-teams before: teams');
  const after = log.slice(at + 1).find((e) => e.step === 'show-teams after the warning: teams');
  const [was, is] = [entriesOf(before), entriesOf(after)];
  if (!write || !before || !after || !was || !is || JSON.stringify(was) === JSON.stringify(is)) return undefined;
  return {
    requests: [before, write, after].map((e) => ({ label: e.step ?? e.operation, exchange: e })),
    checks: [
      { at: 2, kind: 'warned' },
      { at: 3, kind: 'list-same', reference: 1 },
    ],
  };
}

/**
 * The unassignment and the read right after it, after the snapshot read
 * before it: that read must show a period inside the range (what there is
 * to unassign), the read after none. Days strictly inside the range, as the
 * rule judges them: whether its end days are included is not shown.
 */
function unassignPlan(log: readonly Exchange[]): WritePlan | undefined {
  const found = writesRead(log, 'the unassignment', 'read right after the unassignment').at(-1);
  if (!found) return undefined;
  const [write, read] = found;
  const cut = spanOf(recordOf(parseJsonText(write.request.body)).get('date_range'));
  const before = log
    .slice(0, log.indexOf(write))
    .findLast((e) => e.operation === read.operation && e.step !== undefined);
  if (!cut || !before) return undefined;
  const inner = { start: addDays(cut.start, 1), end: addDays(cut.end, -1) };
  const inside = (e: Exchange) =>
    (periodsOf(e) ?? []).some((p) => {
      const span = spanOf(p.get('date_range'));
      return span !== undefined && overlapsStrictly(span, inner);
    });
  // The recording must depart as the script will judge it: a period there before, and still after.
  if (!inside(before) || !inside(read)) return undefined;
  const range = `${inner.start}/${inner.end}`;
  return {
    requests: [before, write, read].map((e) => ({ label: e.step ?? e.operation, exchange: e })),
    checks: [
      { at: 1, kind: 'period-inside', range, none: false },
      { at: 2, kind: 'accepted' },
      { at: 3, kind: 'period-inside', range, none: true },
    ],
  };
}
