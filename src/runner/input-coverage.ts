/**
 * The input coverage a run's pairwise rules recorded, one entry per
 * operation: each rule observes what it exercised under the subject
 * `pairwise coverage of <operation>`, and the observation is read back
 * validated (ajv), never cast.
 */
import type { InputCoverage, RuleResult } from '../core/types.ts';
import { matchesFileSchema } from '../schemas/files.ts';

export const COVERAGE_SUBJECT = 'pairwise coverage of ';

export function inputCoverageOf(results: readonly RuleResult[]): InputCoverage[] {
  return results.flatMap((r) =>
    r.observations.flatMap((o) => {
      if (!o.subject.startsWith(COVERAGE_SUBJECT)) return [];
      const value: unknown = o.value;
      const candidate = typeof value === 'object' && value !== null ? { ...value, rule: r.ruleId } : undefined;
      return matchesFileSchema('InputCoverage', candidate) ? [candidate] : [];
    }),
  );
}
