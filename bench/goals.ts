/** One measure of the bench, its goal and whether the run met it. */
export interface Row {
  measure: string;
  value: string;
  goal: string;
  met: boolean;
}

/** The measures `npm run bench -- <name> …` may name. */
export const MEASURES = ['big-paging', 'proxy', 'ratios', 'full-run', 'startup', 'staging', 'paging'] as const;

/** Names given on the command line that are no measure: `npm run bench -- stagin` is a mistake, not an empty run. */
export function unknownMeasures(names: readonly string[]): string[] {
  return names.filter((n) => !MEASURES.some((m) => m === n));
}

/**
 * How the bench ends: 0 when every goal measured was met, 1 with one line per
 * goal that was not, so a run that misses a goal fails where it runs (CI).
 */
export function verdictOf(rows: readonly Row[]): { code: 0 | 1; lines: string[] } {
  const unmet = rows.filter((r) => !r.met);
  return {
    code: unmet.length > 0 ? 1 : 0,
    lines: unmet.map((r) => `goal not met: ${r.measure}: ${r.value} (goal: ${r.goal})`),
  };
}
