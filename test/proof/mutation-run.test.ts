/**
 * The mutation run: for every fault of the reference server, the suite runs
 * against a server with that fault alone and must FAIL the rule that owns it
 * with a violation at the declared place, FAIL every rule named beside it and
 * no other, SKIP exactly the rules it declares for the reasons it gives, and
 * end no rule in ERROR. Each case runs on its own server. The fault ×
 * rule matrix is written to reports/mutation-matrix.{md,json}.
 *
 * The cases run a few at a time (the config's maxConcurrency): a run spends
 * most of its time waiting (reads after writes, paced requests, pauses before
 * a confirmation), and each has its own server, seed and engine, so running
 * side by side changes no verdict; it takes the file from ten minutes to a few.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { CATCHES } from '../../src/mutation/fault-catches.ts';
import {
  FAULT_NAMES,
  mutationFigures,
  runMutation,
  writeMatrix,
  type MutationOutcome,
} from '../../src/mutation/run-mutations.ts';
import { allRules, loadCatalogue } from '../../src/runner/catalogue.ts';
import { allDocsText } from '../helpers/docs-text.ts';
import { expectCaughtCleanly } from '../helpers/caught-cleanly.ts';

const outcomes: MutationOutcome[] = [];
const catalogue = await loadCatalogue();

describe.concurrent('every fault is caught by the rule it breaks, at the place it breaks', () => {
  for (const fault of FAULT_NAMES) {
    const { rule, where } = CATCHES[fault];
    test(`${fault} is caught by ${rule} at "${String(where)}"`, async ({ expect }) => {
      const outcome = await runMutation(fault, catalogue);
      outcomes.push(outcome);
      expectCaughtCleanly(expect, outcome);
      // A guard against a hang, not a measure: a revocation fault's run confirms its departures by driving
      // rules again on other resources, which a loaded machine makes slow.
    }, 180_000);
  }
});

describe('the fault catalogue', () => {
  test('every fault names a rule of the catalogue that can FAIL', () => {
    const failing = new Map(allRules(catalogue).map((r) => [r.id, r.level]));
    for (const fault of FAULT_NAMES) {
      const { rule, alsoFails = [] } = CATCHES[fault];
      for (const id of [rule, ...alsoFails]) expect(failing.get(id), `${fault} names ${id}`).not.toBe('OBSERVED');
    }
  });

  test('every rule that can FAIL is the owner of at least one fault: its check can fail', () => {
    const owners = new Set<string>(FAULT_NAMES.map((f) => CATCHES[f].rule));
    const unproven = allRules(catalogue)
      .filter((r) => r.level !== 'OBSERVED' && !owners.has(r.id))
      .map((r) => r.id);
    expect(unproven).toEqual([]);
  });
});

describe("the README's figures of the mutation run are this run's", () => {
  // Last in the file: every fault's case has run (skipped when a filter ran only some of them).
  test('faults caught by their own rule, by that rule alone, and revocation faults the model-based sequences catch', ({
    skip,
  }) => {
    if (outcomes.length < FAULT_NAMES.length) skip('only some faults ran');
    const figures = mutationFigures(outcomes);
    const readme = allDocsText();
    const stated = (pattern: RegExp): number[] => [...(pattern.exec(readme) ?? [])].slice(1).map(Number);
    expect(stated(/(\d+) of (\d+) faults caught by their own rule, (\d+) of them by that rule alone/)).toEqual([
      figures.caught,
      figures.faults,
      figures.alone,
    ]);
    expect(stated(/the model-based sequences catch (\d+) of the (\d+) revocation faults/)).toEqual([
      figures.revocationByModel,
      figures.revocationFaults,
    ]);
  });
});

afterAll(async () => {
  if (outcomes.length === 0) return;
  // In the catalogue's order, whichever case ended first.
  await writeMatrix(FAULT_NAMES.flatMap((f) => outcomes.filter((o) => o.fault === f)));
});
