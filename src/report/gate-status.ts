import type { GateRecord, RuleResult, RunResult } from '../core/types.ts';

/** The expectation that excuses this rule's FAIL or ERROR in gate mode, if one does. */
export function knownFailureOf(
  run: Pick<RunResult, 'gate'>,
  r: Pick<RuleResult, 'ruleId' | 'verdict'>,
): GateRecord['knownFailures'][number] | undefined {
  if (r.verdict !== 'FAIL' && r.verdict !== 'ERROR') return undefined;
  return run.gate?.knownFailures.find((k) => k.rule === r.ruleId);
}

/**
 * A blocked rule's reason split into the blocking rule and why, so a report
 * says "blocked by X: why" once, whether or not the reason already starts
 * with it (results written by older versions do not).
 */
export function blockedText(r: Pick<RuleResult, 'blockedBy' | 'reason'>): { owner: string; why: string } {
  const owner = r.blockedBy ?? '';
  const reason = r.reason ?? '';
  const prefix = `blocked by ${owner}`;
  const why = reason.startsWith(prefix) ? reason.slice(prefix.length).replace(/^:\s*/, '') : reason;
  return { owner, why };
}
