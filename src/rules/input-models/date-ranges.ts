/**
 * The classes of a DateRange a read is sent with, drawn around the target's
 * own data (the periods or assignations a wide read showed): where the range
 * lies against them (inside one, exactly one, across a start or an end,
 * right next to one, over two) and where its ends fall on the calendar (ordinary days, a
 * month's first and last day, a year's end, 29 February, a day clocks change
 * (clock-changes.ts), the day after a 32-bit count of seconds since 1970
 * overflows, 2038-01-19). A range is found
 * among candidate days near the data, so a class the data cannot give is
 * said to be missing, never faked. `relationOf` says how a record lies
 * against a range, which the pairwise judges compare across reads.
 */
import { addDays, type DateSpan } from '../dates.ts';
import { clockChangeDays } from '../../core/clock-changes.ts';

export const RANGE_POSITIONS = [
  'inside one',
  'exactly one',
  'across a start',
  'across an end',
  'adjacent',
  'over two',
] as const;
export type RangePosition = (typeof RANGE_POSITIONS)[number];

export const RANGE_ENDS = [
  'ordinary days',
  "a month's first and last day",
  "a year's end",
  '29 February',
  'a day clocks change',
  'past 2038-01-19',
] as const;

/** The first day a signed 32-bit count of seconds since 1970 cannot reach (it ends 2038-01-19T03:14:07Z). */
const PAST_32_BIT_SECONDS = '2038-01-20';
export type RangeEnds = (typeof RANGE_ENDS)[number];

const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const yearOf = (day: string): number => Number(day.slice(0, 4));
const firstOfMonth = (day: string): string => `${day.slice(0, 8)}01`;
const lastOfMonth = (day: string): string => addDays(firstOfMonth(addDays(firstOfMonth(day), 32)), -1);
const isMonthEnd = (day: string): boolean => lastOfMonth(day) === day;

/** A span of the data shares at least one day with [start, end] (ends inclusive). */
const meets = (p: DateSpan, start: string, end: string): boolean => p.start <= end && start <= p.end;

/** A span of the data with the days either side of it, worked out once for a draw. */
interface Placed extends DateSpan {
  readonly dayBefore: string;
  readonly dayAfter: string;
}

const POSITION: Record<RangePosition, (spans: readonly Placed[], s: string, e: string) => boolean> = {
  'inside one': (spans, s, e) => spans.some((p) => p.start < s && e < p.end),
  'exactly one': (spans, s, e) => spans.some((p) => p.start === s && p.end === e),
  'across a start': (spans, s, e) => spans.some((p) => s < p.start && p.start <= e && e < p.end),
  'across an end': (spans, s, e) => spans.some((p) => p.start < s && s <= p.end && p.end < e),
  adjacent: (spans, s, e) => spans.some((p) => s === p.dayAfter || e === p.dayBefore),
  'over two': (spans, s, e) => spans.filter((p) => meets(p, s, e)).length >= 2,
};

/** What the ends' classes read of the candidate days, worked out once for a draw. */
interface Calendar {
  readonly changes: ReadonlySet<string>;
  readonly monthEnds: ReadonlySet<string>;
}

const ENDS: Record<RangeEnds, (s: string, e: string, calendar: Calendar) => boolean> = {
  // The end on an ordinary day (a range right after a period starts where the period's month does).
  'ordinary days': (s, e, { changes, monthEnds }) =>
    !monthEnds.has(e) && !s.endsWith('-02-29') && !e.endsWith('-02-29') && !changes.has(e) && e < PAST_32_BIT_SECONDS,
  "a month's first and last day": (s, e, { monthEnds }) => s.endsWith('-01') && monthEnds.has(e),
  "a year's end": (_s, e) => e.endsWith('-12-31') && e < PAST_32_BIT_SECONDS,
  '29 February': (s, e) => s.endsWith('-02-29') || e.endsWith('-02-29'),
  'a day clocks change': (s, e, { changes }) => changes.has(s) || changes.has(e),
  'past 2038-01-19': (_s, e) => e >= PAST_32_BIT_SECONDS,
};

/** The years of the data, with the one before and the one after. */
function yearsAround(spans: readonly DateSpan[]): number[] {
  const years = spans.flatMap((p) => [yearOf(p.start), yearOf(p.end)]);
  const around: number[] = [];
  for (let y = Math.min(...years) - 1; y <= Math.max(...years) + 1; y++) around.push(y);
  return around;
}

/**
 * Days near the data: each span's ends and their neighbours, month and year
 * ends around them, leap days, the days clocks change (`changes`) and their
 * neighbours, and the first day past a 32-bit count of seconds.
 */
function candidateDays(spans: readonly DateSpan[], changes: ReadonlySet<string>): string[] {
  const days = new Set<string>();
  for (const p of spans) {
    for (const anchor of [p.start, p.end]) {
      for (const offset of [-40, -10, -1, 0, 1, 10, 40]) days.add(addDays(anchor, offset));
      for (const month of [-35, 0, 35]) {
        const day = addDays(anchor, month);
        days.add(firstOfMonth(day));
        days.add(lastOfMonth(day));
      }
      for (const year of [yearOf(anchor) - 1, yearOf(anchor)]) {
        days.add(`${year}-12-31`);
        days.add(`${year + 1}-01-01`);
      }
    }
  }
  for (const y of yearsAround(spans)) if (isLeap(y)) days.add(`${y}-02-29`);
  for (const day of changes) for (const offset of [-1, 0, 1]) days.add(addDays(day, offset));
  days.add(PAST_32_BIT_SECONDS);
  return [...days].filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)).sort();
}

/**
 * The shortest range (then the earliest) whose position against `spans` and
 * whose ends are the classes asked for, as `start/end`; undefined when the
 * data gives none. The same classes give the same range, so reads with the
 * same range can be compared.
 */
export function drawRange(
  spans: readonly DateSpan[],
  position: RangePosition,
  ends: RangeEnds,
  options: { endOpen?: boolean; zones?: readonly string[] } = {},
): string | undefined {
  if (spans.length === 0) return undefined;
  // The same data and classes give the same range: a run draws the same few many times (a row, its read).
  const key = JSON.stringify([
    spans.map((p) => [p.start, p.end]),
    position,
    ends,
    options.endOpen === true,
    options.zones ?? null,
  ]);
  if (drawn.has(key)) return drawn.get(key);
  const changes = new Set(clockChangeDays(yearsAround(spans), options.zones));
  const days = candidateDays(spans, changes);
  const calendar: Calendar = { changes, monthEnds: new Set(days.filter(isMonthEnd)) };
  const time = days.map((d) => Date.parse(d));
  const placed = spans.map((p) => ({ ...p, dayBefore: addDays(p.start, -1), dayAfter: addDays(p.end, 1) }));
  let best: { s: string; e: string; length: number } | undefined;
  for (const [i, s] of days.entries()) {
    for (let j = i + 1; j < days.length; j++) {
      const e = days[j] ?? s;
      // With `endOpen` (a write, whose end day may or may not be included: not shown), the position holds on
      // the days the range certainly covers, so that what it shows does not rest on its end day alone.
      if (!ENDS[ends](s, e, calendar)) continue;
      // A range that is exactly a record's, as the server shows it, holds the record's days whichever way the
      // end day is read: it is sent as shown.
      const last = options.endOpen && position !== 'exactly one' ? addDays(e, -1) : e;
      if (last < s || !POSITION[position](placed, s, last)) continue;
      const length = (time[j] ?? 0) - (time[i] ?? 0);
      if (best === undefined || length < best.length) best = { s, e, length };
      // The days are sorted: any later end from this start is longer.
      break;
    }
  }
  const range = best && `${best.s}/${best.e}`;
  if (drawn.size >= DRAWN_KEPT) drawn.delete(drawn.keys().next().value ?? '');
  drawn.set(key, range);
  return range;
}

/** Ranges drawn, by their data and classes (the oldest dropped past DRAWN_KEPT). */
const drawn = new Map<string, string | undefined>();
const DRAWN_KEPT = 2000;

/**
 * How a record's span lies against a range (ends compared as inclusive; a
 * server that reads them as exclusive answers each relation alike too).
 * Whether a record that is not inside the range is shown is the server's
 * choice; that it makes the same choice for every record lying the same way
 * is not.
 */
export type Relation =
  | 'disjoint'
  | 'inside'
  | 'touching the start'
  | 'touching the end'
  | 'covering it'
  | 'across its start'
  | 'across its end';

export function relationOf(item: DateSpan, range: DateSpan): Relation {
  if (item.end < range.start || item.start > range.end) return 'disjoint';
  if (range.start <= item.start && item.end <= range.end) return 'inside';
  if (item.end === range.start) return 'touching the start';
  if (item.start === range.end) return 'touching the end';
  if (item.start < range.start && item.end > range.end) return 'covering it';
  return item.start < range.start ? 'across its start' : 'across its end';
}
