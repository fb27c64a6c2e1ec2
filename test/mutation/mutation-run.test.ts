/**
 * The mutation run: for every fault of the catalogue, the suite runs against
 * the reference server with that fault and must (a) FAIL the rule the fault
 * targets, (b) FAIL no other MUST rule. The reference itself must pass with
 * no FAIL and no ERROR (test/conformance.test.ts). The fault × rule
 * matrix is written to reports/mutation-matrix.{md,json}.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { afterAll, describe, expect, test } from 'vitest';
import { FAULTS } from '../../src/reference-server/faults.ts';
import { allRules, loadCatalogue } from '../../src/rules/catalogue.ts';
import {
  renderMatrixJson,
  renderMatrixMarkdown,
  runMutation,
  type MutationOutcome,
} from '../../src/mutation/run-mutations.ts';

const outcomes: MutationOutcome[] = [];
const catalogue = await loadCatalogue();

describe('every fault is caught by the rule it breaks', () => {
  test('every fault names a MUST rule of the catalogue', () => {
    const must = new Set(
      allRules(catalogue)
        .filter((r) => r.level === 'MUST')
        .map((r) => r.id),
    );
    for (const [name, fault] of Object.entries(FAULTS))
      expect(must.has(fault.rule), `${name} → ${fault.rule}`).toBe(true);
  });

  for (const [name, fault] of Object.entries(FAULTS)) {
    test(`${name} is caught by ${fault.rule}`, async () => {
      const outcome = await runMutation({ name, ...fault });
      outcomes.push(outcome);
      expect(outcome.verdicts[fault.rule], `${fault.rule} must FAIL against ${name}`).toBe('FAIL');
      expect(outcome.collateral, 'no other MUST rule may fail').toEqual([]);
    });
  }
});

test('every MUST rule of the catalogue fails against at least one fault: its check can fail', () => {
  expect(outcomes.length, 'the mutation tests ran first').toBe(Object.keys(FAULTS).length);
  const failedSomewhere = new Set(
    outcomes.flatMap((o) =>
      Object.entries(o.verdicts)
        .filter(([, v]) => v === 'FAIL')
        .map(([id]) => id),
    ),
  );
  const unproven = allRules(catalogue)
    .filter((r) => r.level === 'MUST' && !failedSomewhere.has(r.id))
    .map((r) => r.id);
  expect(unproven).toEqual([]);
  expect(Object.keys(FAULTS).length).toBeGreaterThanOrEqual(40);
});

afterAll(async () => {
  if (outcomes.length === 0) return;
  await mkdir('reports', { recursive: true });
  await writeFile('reports/mutation-matrix.md', renderMatrixMarkdown(outcomes));
  await writeFile('reports/mutation-matrix.json', renderMatrixJson(outcomes));
});
