/**
 * What a property's drawn runs find alone: for each fault a property owns,
 * that property runs by itself against the faulty server with the fixed
 * examples of every property left out (`drawnOnly`), once per seed. A fault
 * the property finds at fewer than 19 of 20 seeds rests on a fixed example:
 * the examples make every user's run find it, but the property's own draw
 * would miss it. `npm run drawn-runs` measures every such fault (a measure,
 * not a timed test) and can write the table into docs/coverage-and-proof.md.
 */
import type { Verdict } from '../core/types.ts';
import type { FaultName } from '../reference-server/faults.ts';
import { allRules, selectRules } from '../runner/catalogue.ts';
import type { RuleGroup } from '../rules/types.ts';
import { CATCHES } from './fault-catches.ts';
import { FAULT_NAMES, MUTATION_OPTIONS, MUTATION_RESOURCES, runAgainstReference } from './run-mutations.ts';

/** Seeds each fault is tried at, and how many of them its property must find it at. */
export const DRAWN_SEEDS = 20;
export const DRAWN_FOUND_AT_LEAST = 19;

/** The faults whose owning rule is a property (fast-check runs, or a seeded covering array). */
export function propertyFaults(catalogue: readonly RuleGroup[]): FaultName[] {
  const properties = new Set(
    allRules(catalogue)
      .filter((r) => r.kind === 'property')
      .map((r) => r.id),
  );
  return FAULT_NAMES.filter((f) => properties.has(CATCHES[f].rule));
}

/** One seed: the fault's own property alone, its runs all drawn. */
export async function drawnRun(
  fault: FaultName,
  seed: number,
  catalogue: readonly RuleGroup[],
): Promise<{ found: boolean; verdict: Verdict | 'not run' }> {
  const expected = CATCHES[fault];
  const run = await runAgainstReference(
    [fault],
    selectRules(catalogue, { rules: [expected.rule] }),
    { ...MUTATION_OPTIONS, seed, drawnOnly: true },
    expected.resources ?? MUTATION_RESOURCES,
  );
  const verdict = run.results.find((r) => r.ruleId === expected.rule)?.verdict ?? 'not run';
  return { found: verdict === 'FAIL', verdict };
}

export interface DrawnTally {
  fault: FaultName;
  rule: string;
  seeds: number;
  found: number;
}

/** The table of the measure in docs/coverage-and-proof.md. */
export function drawnRunsTable(tallies: readonly DrawnTally[]): string {
  return [
    '| fault | property | found by drawn runs alone (seeds) | rests on a fixed example |',
    '|---|---|---|---|',
    ...tallies.map(
      (t) =>
        `| \`${t.fault}\` | \`${t.rule}\` | ${t.found} of ${t.seeds} | ${t.found * DRAWN_SEEDS >= DRAWN_FOUND_AT_LEAST * t.seeds ? 'no' : '**yes**'} |`,
    ),
  ].join('\n');
}
