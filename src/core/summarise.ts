import type { RuleResult, RunSummary, Verdict } from './types.ts';

export const VERDICTS: readonly Verdict[] = ['PASS', 'FAIL', 'ERROR', 'SKIP', 'OBSERVED', 'NOT-TESTED'];

/**
 * Score: passed MUST rules over MUST rules that reached a verdict (PASS or FAIL).
 * Coverage: rules that ran (anything but SKIP and NOT-TESTED) over the catalogue run.
 * Conformant: no MUST rule failed or errored.
 */
export function summarise(results: readonly RuleResult[]): RunSummary {
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
    conformant: !results.some((r) => r.level === 'MUST' && (r.verdict === 'FAIL' || r.verdict === 'ERROR')),
  };
}
