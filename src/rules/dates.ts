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

export function addDays(date: string, days: number): string {
  const t = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
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
