import fc from 'fast-check';
import { dateRange } from './dateRange.ts';
import { impossibleLocalDate } from './impossibleLocalDate.ts';
import { localDate } from './localDate.ts';
import { malformedLocalDate } from './malformedLocalDate.ts';

/** Strings that are not "two dates separated by `/`" (spec §2.1). */
export function malformedDateRange(): fc.Arbitrary<string> {
  return fc.oneof(
    localDate(),
    dateRange().map((r) => r.replace('/', ' - ')),
    dateRange().map((r) => `${r}/${r.slice(0, 10)}`),
    fc.tuple(impossibleLocalDate(), localDate()).map(([a, b]) => `${a}/${b}`),
    fc.tuple(localDate(), impossibleLocalDate()).map(([a, b]) => `${a}/${b}`),
    fc.tuple(malformedLocalDate(), localDate()).map(([a, b]) => `${a}/${b}`),
    localDate().map((d) => `${d}/`),
    localDate().map((d) => `/${d}`),
    fc.constantFrom('', '/', 'always', '2026-01-01..2026-02-01'),
  );
}
