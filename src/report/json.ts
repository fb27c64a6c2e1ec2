import type { RunResult } from '../rules/types.ts';

export const RESULTS_SCHEMA_VERSION = 1;

/** results.json: stable ids, results sorted by rule id, for tooling and for comparing runs. */
export function renderJson(run: RunResult): string {
  const results = [...run.results].sort((a, b) => a.ruleId.localeCompare(b.ruleId));
  const requestsPerRule = Object.fromEntries(results.map((r) => [r.ruleId, r.requestCount]));
  return `${JSON.stringify({ schemaVersion: RESULTS_SCHEMA_VERSION, ...run, results, requestsPerRule }, null, 2)}\n`;
}
