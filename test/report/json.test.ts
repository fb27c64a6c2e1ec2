import { describe, expect, test } from 'vitest';
import { renderJson, RESULTS_SCHEMA_VERSION } from '../../src/report/json.ts';
import type { RunResult } from '../../src/core/types.ts';
import { fixtureRun } from '../fixtures/run-result/fixture-run.ts';

interface ResultsFile extends Omit<RunResult, 'results'> {
  schemaVersion: number;
  requestsPerRule: Record<string, number>;
  results: RunResult['results'];
}

const run = fixtureRun();
const text = renderJson(run);
const file = JSON.parse(text) as ResultsFile;

describe('results.json', () => {
  test('carries a schema version that readers check', () => {
    expect(file.schemaVersion).toBe(RESULTS_SCHEMA_VERSION);
    expect(Object.keys(file)[0]).toBe('schemaVersion');
  });

  test('results are sorted by rule id, code-unit order', () => {
    const ids = file.results.map((r) => r.ruleId);
    expect(ids).toEqual(run.results.map((r) => r.ruleId).sort());
    // The fixture is in catalogue order, so sorting did something.
    expect(run.results.map((r) => r.ruleId)).not.toEqual(ids);
  });

  test('everything of the run survives, hostile text included', () => {
    const { schemaVersion: _v, requestsPerRule: _c, results, ...rest } = file;
    const { results: original, ...originalRest } = run;
    expect(rest).toEqual(originalRest);
    expect(results).toEqual([...original].sort((a, b) => (a.ruleId < b.ruleId ? -1 : 1)));
  });

  test('request counts per rule', () => {
    expect(file.requestsPerRule).toEqual(Object.fromEntries(run.results.map((r) => [r.ruleId, r.requestCount])));
  });

  test('the same run gives the same text whatever order its results came in', () => {
    const shuffled: RunResult = { ...fixtureRun(), results: [...fixtureRun().results].reverse() };
    expect(renderJson(shuffled)).toBe(text);
  });

  test('matches the committed snapshot', async () => {
    await expect(text).toMatchFileSnapshot('./__snapshots__/results.json');
  });
});
