import type { RunResult } from '../core/types.ts';
import { checkedResultsText } from '../gate/results-file.ts';
import { compareText } from './sections.ts';

/** Bumped when a field changes meaning or goes away; readers check it (src/gate/results-file.ts). */
export const RESULTS_SCHEMA_VERSION = 1;

/**
 * results.json: everything of the run, results sorted by rule id (code-unit
 * order, the same on every machine) so two runs diff cleanly, and the requests
 * each rule made. The long results list comes last, after the figures a
 * reader looks for first. The text is checked against the published schema
 * (fixtures/results.schema.json) as a reader will parse it: a field the
 * schema does not describe is the tool's own bug, said before any reader
 * meets it.
 */
export function renderJson(run: RunResult): string {
  const { results: unsorted, ...rest } = run;
  const results = [...unsorted].sort((a, b) => compareText(a.ruleId, b.ruleId));
  const requestsPerRule = Object.fromEntries(results.map((r) => [r.ruleId, r.requestCount]));
  return checkedResultsText(
    `${JSON.stringify({ schemaVersion: RESULTS_SCHEMA_VERSION, ...rest, requestsPerRule, results }, null, 2)}\n`,
  );
}
