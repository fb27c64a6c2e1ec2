/**
 * The catalogue as vitest tests, one per rule, named by rule id, against the
 * embedded reference server: the oracle must pass every rule, with no FAIL
 * and no ERROR (SKIP only where the embedded profile cannot serve a need).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CATALOGUE } from '../src/rules/catalogue.ts';
import type { RuleResult, RunResult } from '../src/rules/types.ts';
import { runAgainstReference } from '../src/mutation/run-mutations.ts';

let run: RunResult;
let byId: Map<string, RuleResult>;

beforeAll(async () => {
  run = await runAgainstReference([]);
  byId = new Map(run.results.map((r) => [r.ruleId, r]));
}, 120_000);

afterAll(() => {
  byId.clear();
});

for (const group of CATALOGUE) {
  describe(`${group.section} ${group.title}`, () => {
    for (const rule of group.rules) {
      test(`${rule.id} (${rule.clause})`, () => {
        const result = byId.get(rule.id);
        expect(result, 'the rule ran').toBeDefined();
        const detail = JSON.stringify({ verdict: result!.verdict, reason: result!.reason, violations: result!.violations }, null, 2);
        expect(result!.verdict, detail).toBe(rule.level === 'OBSERVED' ? 'OBSERVED' : 'PASS');
      });
    }
  });
}

test('the reference run is conformant with full coverage', () => {
  expect(run.summary.byVerdict.FAIL).toBe(0);
  expect(run.summary.byVerdict.ERROR).toBe(0);
  expect(run.summary.conformant).toBe(true);
  expect(run.summary.coverage).toBe(1);
});
