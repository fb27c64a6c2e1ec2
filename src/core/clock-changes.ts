/**
 * The days clocks change, read from the time-zone database the runtime
 * carries (through `Intl`), never typed from memory: date code that turns a
 * day into local midnight and adds 24 hours loses or repeats a day there.
 * The zones are those where most directories' users live; each year's days
 * are found once.
 */

/** Zones whose clock changes a run's date ranges end on: Europe's and North America's rules differ. */
export const CLOCK_ZONES = ['Europe/Paris', 'America/New_York'] as const;

const DAY_MS = 86_400_000;
const known = new Map<string, readonly string[]>();

/** The offset from UTC a zone's clocks show at an instant, as `Intl` writes it ("GMT+01:00"). */
function offsetAt(format: Intl.DateTimeFormat, instant: number): string {
  return format.formatToParts(instant).find((p) => p.type === 'timeZoneName')?.value ?? '';
}

/** The days of `year` on which `zone`'s offset at noon differs from the day before's (YYYY-MM-DD). */
function changesIn(zone: string, year: number): readonly string[] {
  const key = `${zone} ${year}`;
  const cached = known.get(key);
  if (cached) return cached;
  const format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
  const days: string[] = [];
  // Month by month first, then day by day in the months whose offset at their end differs from their start
  // (a zone's clocks change at most once in a month in the database's rules; reading every day costs ten
  // times as much).
  for (let month = 0; month < 12; month++) {
    const start = Date.UTC(year, month, 1, 12);
    const end = Date.UTC(year, month + 1, 1, 12);
    let before = offsetAt(format, start - DAY_MS);
    if (before === offsetAt(format, end - DAY_MS)) continue;
    for (let t = start; t < end; t += DAY_MS) {
      const offset = offsetAt(format, t);
      if (offset !== before) days.push(new Date(t).toISOString().slice(0, 10));
      before = offset;
    }
  }
  known.set(key, days);
  return days;
}

/** Every day of the given years on which a clock of `zones` changes, sorted. */
export function clockChangeDays(years: Iterable<number>, zones: readonly string[] = CLOCK_ZONES): string[] {
  const days = new Set<string>();
  for (const year of years) for (const zone of zones) for (const day of changesIn(zone, year)) days.add(day);
  return [...days].sort();
}
