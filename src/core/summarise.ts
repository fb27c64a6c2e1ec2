import type { RuleResult, RunSummary, Verdict } from './types.ts';

export const VERDICTS: readonly Verdict[] = ['PASS', 'FAIL', 'ERROR', 'SKIP', 'OBSERVED', 'NOT-TESTED'];

/** Whether a FAIL of this rule makes the run not conformant. */
export function failsTheRun(r: Pick<RuleResult, 'level'>, options: { strict?: boolean } = {}): boolean {
  return r.level === 'MUST' || (r.level === 'INFERRED' && options.strict === true);
}

/**
 * Score: passed MUST rules over MUST rules that reached a verdict (PASS or FAIL).
 * Coverage: rules that ran (anything but SKIP and NOT-TESTED) over the catalogue run.
 * INFERRED rules are counted apart. Conformant: no MUST rule failed or errored
 * (and, with `strict`, no INFERRED one).
 */
export function summarise(results: readonly RuleResult[], options: { strict?: boolean } = {}): RunSummary {
  const byVerdict = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const r of results) byVerdict[r.verdict] += 1;
  const judged = results.filter((r) => r.level === 'MUST' && (r.verdict === 'PASS' || r.verdict === 'FAIL'));
  const passed = judged.filter((r) => r.verdict === 'PASS').length;
  const ran = results.filter((r) => r.verdict !== 'SKIP' && r.verdict !== 'NOT-TESTED').length;
  return {
    total: results.length,
    byVerdict,
    score: judged.length === 0 ? 1 : passed / judged.length,
    coverage: results.length === 0 ? 1 : ran / results.length,
    inferred: {
      judged: results.filter((r) => r.level === 'INFERRED' && (r.verdict === 'PASS' || r.verdict === 'FAIL')).length,
      failed: results.filter((r) => r.level === 'INFERRED' && r.verdict === 'FAIL').length,
    },
    conformant: !results.some((r) => failsTheRun(r, options) && (r.verdict === 'FAIL' || r.verdict === 'ERROR')),
  };
}
