import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, test } from 'vitest';
import { renderJson, RESULTS_SCHEMA_VERSION } from '../../src/report/json.ts';
import { RESULTS_SCHEMA_PATH, renderResultsSchema } from '../../src/schemas/results-schema.ts';
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

describe('fixtures/results.schema.json', () => {
  test('is the schema the writer checks with (`npm run manifest` writes it)', async () => {
    expect(await readFile(RESULTS_SCHEMA_PATH, 'utf8')).toBe(renderResultsSchema());
  });

  test('a plain draft-07 validator, with nothing of ours, accepts what the writer wrote', async () => {
    const schema: unknown = JSON.parse(await readFile(RESULTS_SCHEMA_PATH, 'utf8'));
    if (typeof schema !== 'object' || schema === null) throw new Error('the schema is not an object');
    const validate = new Ajv({ allErrors: true }).compile(schema);
    expect(validate(JSON.parse(text)), JSON.stringify(validate.errors)).toBe(true);
    // Closed: a field it does not name, or a verdict it does not know, is refused.
    expect(validate({ ...file, extra: 1 })).toBe(false);
    const [first, ...others] = file.results;
    expect(validate({ ...file, results: [{ ...first, verdict: 'MAYBE' }, ...others] })).toBe(false);
  });

  test('the writer refuses a run its schema does not describe, naming the field', () => {
    const drifted = { ...fixtureRun(), undescribed: true };
    expect(() => renderJson(drifted)).toThrow(
      /^results\.json does not match fixtures\/results\.schema\.json: \/ must not have "undescribed"/,
    );
    const { summary, ...noSummary } = fixtureRun();
    expect(summary.total).toBeGreaterThan(0);
    expect(() => renderJson({ ...noSummary, summary: { ...summary, score: Number.NaN } })).toThrow(
      /\/summary\/score must be number/,
    );
  });

  test('docs/reading-results.md links it', async () => {
    const page = await readFile(join(import.meta.dirname, '..', '..', 'docs', 'reading-results.md'), 'utf8');
    expect(page).toContain('](../fixtures/results.schema.json)');
  });
});
