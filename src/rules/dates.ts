/**
 * LocalDate arithmetic on `YYYY-MM-DD` strings, in UTC so no time zone shifts a day.
 * Checks compare date ranges leniently at their ends: whether a DateRange's end
 * is inclusive is "not shown" in the spec, so two periods that merely touch
 * never count as overlapping.
 */
export interface DateSpan {
  start: string;
  end: string;
}

/**
 * `date` moved by `days`. Judges walk ranges day by day, so this is a hot
 * path: a plain date in the years 0001-9999 is counted in whole days (the
 * proleptic Gregorian calendar, as Date counts), anything else goes through
 * Date as before (an invalid day still throws its RangeError).
 */
export function addDays(date: string, days: number): string {
  const y = digits(date, 0, 4);
  const m = digits(date, 5, 2);
  const d = digits(date, 8, 2);
  if (
    date.length === 10 &&
    date.charCodeAt(4) === DASH &&
    date.charCodeAt(7) === DASH &&
    y >= 1 &&
    m >= 1 &&
    m <= 12 &&
    d >= 1 &&
    d <= daysInMonth(y, m) &&
    Number.isInteger(days)
  ) {
    const moved = civilOf(dayNumberOf(y, m, d) + days);
    if (moved !== undefined) return moved;
  }
  const t = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

const DASH = 45;
const ZERO = 48;

/** The number the `count` digits at `at` write, or -1 when one is not a digit. */
function digits(text: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const c = text.charCodeAt(i) - ZERO;
    if (!(c >= 0 && c <= 9)) return -1;
    n = n * 10 + c;
  }
  return n;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

const TWO_DIGITS = Array.from({ length: 32 }, (_, i) => String(i).padStart(2, '0'));

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function dayNumberOf(y: number, m: number, d: number): number {
  const year = m <= 2 ? y - 1 : y;
  const era = Math.floor(year / 400);
  const yoe = year - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The date of a day number, or undefined outside the years 0001-9999 (which Date writes otherwise). */
function civilOf(z: number): string | undefined {
  const shifted = z + 719468;
  const era = Math.floor(shifted / 146097);
  const doe = shifted - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  if (y < 1 || y > 9999) return undefined;
  return `${y < 1000 ? String(y).padStart(4, '0') : y}-${TWO_DIGITS[m]}-${TWO_DIGITS[d]}`;
}

export function splitRange(range: string): DateSpan | undefined {
  const parts = range.split('/');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { start: parts[0], end: parts[1] };
}

/** True when the two spans share more than a boundary day. */
export function overlapsStrictly(a: DateSpan, b: DateSpan): boolean {
  return a.start < b.end && b.start < a.end;
}

/** True when `outer` covers every day of `inner`. */
export function covers(outer: DateSpan, inner: DateSpan): boolean {
  return outer.start <= inner.start && outer.end >= inner.end;
}
