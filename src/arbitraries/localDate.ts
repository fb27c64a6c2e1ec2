import fc from 'fast-check';

export interface LocalDateConstraints {
  /** Earliest date, YYYY-MM-DD (default 2000-01-01). */
  min?: string;
  /** Latest date, YYYY-MM-DD (default 2099-12-31). */
  max?: string;
}

const DAY = 86_400_000;

export function dayOf(date: string): number {
  return Math.round(Date.parse(`${date}T00:00:00Z`) / DAY);
}

export function dateOf(day: number): string {
  return new Date(day * DAY).toISOString().slice(0, 10);
}

/** A LocalDate (spec §2.1) that exists in the calendar; leap days come up often. */
export function localDate(constraints: LocalDateConstraints = {}): fc.Arbitrary<string> {
  const min = dayOf(constraints.min ?? '2000-01-01');
  const max = dayOf(constraints.max ?? '2099-12-31');
  const leapDays = [];
  for (let y = 2000; y <= 2099; y += 4) {
    const d = dayOf(`${y}-02-29`);
    if (d >= min && d <= max) leapDays.push(d);
  }
  const any = fc.integer({ min, max });
  return (
    leapDays.length > 0
      ? fc.oneof({ arbitrary: any, weight: 4 }, { arbitrary: fc.constantFrom(...leapDays), weight: 1 })
      : any
  ).map(dateOf);
}
