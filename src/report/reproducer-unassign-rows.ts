/**
 * A pairwise row of unassign-activity-rate, in a reproducer. The rule lays
 * periods of its own over two years of a held resource, reads them, then
 * unassigns each row's range after the rows before it and reads back; a row
 * departs when its read shows a period over a day some row unassigned, or
 * another rate on a day no row named, whichever way the server reads a
 * range's end day (activity-rates.prop.unassign-pairwise-combinations). The
 * script lays the same periods, reads them, sends again the rows before the
 * departing one that were done, the row, and the read after it, and judges
 * that read the same way (`unassign-rows` in reproducer-judge.ts). The writes
 * change the target; nothing is put back (the script says so).
 */
import type { Exchange } from '../core/exchange.ts';
import { parseJsonText } from '../core/json-text.ts';
import type { RuleResult } from '../core/types.ts';
import { addDays, spanOf } from './reproducer-writes.ts';
import { UNASSIGN_ROWS_AROUND_DAYS } from '../core/unassign-rows.ts';

/**
 * Each row's read (request `read`) judged against read `before` with the
 * ranges of the rows up to it unassigned; `at` is the last read.
 */
export interface UnassignRowsCheck {
  at: number;
  kind: 'unassign-rows';
  before: number;
  rows: Array<{ range: string; read: number }>;
  /** How many days on each side of a row's range are judged. */
  around: number;
}

type Plan = {
  requests: Array<{ label: string; exchange: Exchange }>;
  checks: Array<UnassignRowsCheck | { at: number; kind: 'accepted' }>;
};

const RULE = 'activity-rates.prop.unassign-pairwise-combinations';
/** `…: show-activity-rates after unassign-activity-rate pairwise row 2 (inside one, a year's end): average_rate on …`. */
const ROW_READ =
  /show-activity-rates after (unassign-activity-rate pairwise row \d+ \(.*\)): (?:date_range|average_rate) on \d{4}-\d{2}-\d{2}$/;
const LAYOUT = /^assign-activity-rate unassign layout \d+$/;
const BEFORE = 'show-activity-rates before the unassign rows';
const ROW_PREFIX = 'unassign-activity-rate pairwise row ';

const isDone = (e: Exchange | undefined): boolean =>
  e?.response !== undefined && e.response.status >= 200 && e.response.status < 300;

/** The periods a recorded read showed, when it answered 200 with a whole list. */
function periodsOf(e: Exchange): Array<{ date_range: string; average_rate: unknown }> | undefined {
  if (e.response?.status !== 200 || e.response.truncated) return undefined;
  const body = parseJsonText(e.response.body);
  if (!Array.isArray(body)) return undefined;
  return body.flatMap((p: unknown) =>
    typeof p === 'object' && p !== null && 'date_range' in p && typeof p.date_range === 'string'
      ? [{ date_range: p.date_range, average_rate: 'average_rate' in p ? p.average_rate : undefined }]
      : [],
  );
}

type Periods = ReadonlyArray<{ date_range: string; average_rate: unknown }>;

/**
 * The first departure of the rows' reads, each against `before` with the
 * ranges of the rows up to it unassigned, read with every range's end day
 * `included` or not: a day after the row's read, or undefined. The rule's
 * judgement, and the script's (`unassign-rows` in reproducer-judge.ts).
 */
export function unassignDeparture(
  before: Periods,
  rows: ReadonlyArray<{ range: { start: string; end: string }; after: Periods }>,
  included: boolean,
): string | undefined {
  const within = (s: { start: string; end: string }, d: string) => s.start <= d && (included ? d <= s.end : d < s.end);
  const rateOn = (ps: Periods, d: string): unknown => {
    const p = ps.find((q) => {
      const s = spanOf(q.date_range);
      return s !== undefined && within(s, d);
    });
    return p === undefined ? null : p.average_rate;
  };
  for (const [i, { range, after }] of rows.entries()) {
    const ranges = rows.slice(0, i + 1).map((r) => r.range);
    const to = addDays(range.end, UNASSIGN_ROWS_AROUND_DAYS);
    for (let d = addDays(range.start, -UNASSIGN_ROWS_AROUND_DAYS); d <= to; d = addDays(d, 1)) {
      const named = ranges.some((s) => within(s, d));
      if (named ? rateOn(after, d) !== null : rateOn(before, d) !== rateOn(after, d)) return `${d} after row ${i + 1}`;
    }
  }
  return undefined;
}

/**
 * The plan of the rule's first violation that names a row whose exchanges the
 * transcript kept, with the layout, the read before the rows and the rows
 * done up to that one and on until the recording departs under both readings
 * of an end day; undefined otherwise, or where it never does.
 */
export function unassignRowsPlan(r: RuleResult): Plan | undefined {
  if (r.ruleId !== RULE) return undefined;
  const log = r.exchanges;
  const step = r.violations.flatMap((v) => ROW_READ.exec(v.where)?.[1] ?? [])[0];
  if (step === undefined) return undefined;
  const readAt = log.findLastIndex((e) => e.step === `show-activity-rates after ${step}`);
  const rowAt = log.findLastIndex((e, i) => i < readAt && e.step === step);
  const beforeAt = log.findLastIndex((e, i) => i < rowAt && e.step === BEFORE);
  let layoutAt = beforeAt;
  while (layoutAt > 0 && LAYOUT.test(log[layoutAt - 1]?.step ?? '')) layoutAt -= 1;
  const before = log[beforeAt];
  if (!before || layoutAt === beforeAt || !isDone(log[rowAt])) return undefined;
  const layout = log.slice(layoutAt, beforeAt);
  // Each row done, with the read right after it; a row refused changed nothing and is not sent again.
  const done = log.slice(beforeAt + 1).flatMap((e) => {
    if (!e.step?.startsWith(ROW_PREFIX) || !isDone(e)) return [];
    const read = log.find((x) => x.step === `show-activity-rates after ${e.step ?? ''}`);
    const body = parseJsonText(e.request.body);
    const range = typeof body === 'object' && body !== null && 'date_range' in body ? body.date_range : undefined;
    const span = spanOf(range);
    const after = read && periodsOf(read);
    return read && after && span && typeof range === 'string' ? [{ row: e, read, range, span, after }] : [];
  });
  const was = periodsOf(before);
  const named = done.findIndex((x) => x.row === log[rowAt]);
  if (!was || named < 0 || !layout.every(isDone)) return undefined;
  // The rows up to the violation's, and on until the recording departs as the script will judge it, whichever
  // way the end day is read (the rule fails a run that departs under both readings, not always at one row).
  const through = (k: number) => done.slice(0, k + 1).map((x) => ({ range: x.span, after: x.after }));
  const last = done.findIndex(
    (_, k) =>
      k >= named &&
      unassignDeparture(was, through(k), true) !== undefined &&
      unassignDeparture(was, through(k), false) !== undefined,
  );
  if (last < 0) return undefined;
  const rows = done.slice(0, last + 1);
  const requests = [...layout, before, ...rows.flatMap((x) => [x.row, x.read])].map((e) => ({
    label: e.step ?? e.operation,
    exchange: e,
  }));
  const beforeNumber = layout.length + 1;
  const rowNumber = (i: number) => beforeNumber + 1 + 2 * i;
  return {
    requests,
    checks: [
      ...layout.map((_, i) => ({ at: i + 1, kind: 'accepted' as const })),
      ...rows.map((_, i) => ({ at: rowNumber(i), kind: 'accepted' as const })),
      {
        at: requests.length,
        kind: 'unassign-rows',
        before: beforeNumber,
        rows: rows.map((x, i) => ({ range: x.range, read: rowNumber(i) + 1 })),
        around: UNASSIGN_ROWS_AROUND_DAYS,
      },
    ],
  };
}
