import type { RuleResult, RunOutcome, RunSummary, Verdict } from './types.ts';

export const VERDICTS: readonly Verdict[] = ['PASS', 'FAIL', 'ERROR', 'SKIP', 'OBSERVED', 'NOT-TESTED', 'FLAKY'];

/** A count of 0 for every verdict (the type makes a verdict left out a compile error). */
export function noVerdicts(): Record<Verdict, number> {
  return { PASS: 0, FAIL: 0, ERROR: 0, SKIP: 0, OBSERVED: 0, 'NOT-TESTED': 0, FLAKY: 0 };
}

/** Whether a FAIL of this rule makes the run not conformant. */
export function failsTheRun(r: Pick<RuleResult, 'level'>, options: { strict?: boolean } = {}): boolean {
  return r.level === 'MUST' || (r.level === 'INFERRED' && options.strict === true);
}

/** A verdict on the server: the rule was exercised. */
export function reachedVerdict(r: Pick<RuleResult, 'verdict'>): boolean {
  return r.verdict === 'PASS' || r.verdict === 'FAIL' || r.verdict === 'OBSERVED' || r.verdict === 'FLAKY';
}

/**
 * A SKIP the target or the user chose (the profile lacks what the rule needs,
 * the run is read-only or without --allow-mutations, the data lacks it): the
 * rule is outside what this target can serve. A rule blocked by another
 * rule's failure, or left without a mutable resource, could have run: it
 * counts against coverage. Results written before the cause was recorded
 * count as the target's choice unless they were blocked.
 */
export function outsideTarget(r: Pick<RuleResult, 'verdict' | 'skipCause' | 'blockedBy'>): boolean {
  if (r.verdict !== 'SKIP') return false;
  const cause = r.skipCause ?? (r.blockedBy ? 'blocked' : 'profile');
  return cause === 'profile' || cause === 'options' || cause === 'precondition';
}

/**
 * The counts a score is told with, everywhere it is told (the run's summary
 * line, summary.md, verify, the badge): MUST rules that passed over MUST rules
 * decided (PASS or FAIL; OBSERVED is a record, never a pass), and the rules
 * skipped beside them, so a run that skipped half its rules cannot pass for
 * a full one.
 */
export interface HonestCounts {
  mustPassed: number;
  mustDecided: number;
  skipped: number;
  total: number;
  /** More than a quarter of the rules were skipped: said first wherever the outcome is. */
  mostlySkipped: boolean;
}

export function honestCounts(results: readonly Pick<RuleResult, 'level' | 'verdict'>[]): HonestCounts {
  const decided = results.filter((r) => r.level === 'MUST' && (r.verdict === 'PASS' || r.verdict === 'FAIL'));
  const skipped = results.filter((r) => r.verdict === 'SKIP').length;
  return {
    mustPassed: decided.filter((r) => r.verdict === 'PASS').length,
    mustDecided: decided.length,
    skipped,
    total: results.length,
    mostlySkipped: skipped * 4 > results.length,
  };
}

/** "41 of 45 MUST rules passed, 45 of 90 rules skipped", as every report says it. */
export function describeCounts(c: HonestCounts): string {
  return `${c.mustPassed} of ${c.mustDecided} MUST rules passed, ${c.skipped} of ${c.total} rules skipped`;
}

export interface SummaryOptions {
  /** INFERRED departures fail the run too. */
  strict?: boolean;
  /** Share (0..1) of the rules the target can serve that must reach a verdict; default 1. */
  minCoverage?: number;
  /** Every SKIP makes the run inconclusive. */
  failOnSkip?: boolean;
  /** Rules whose FAIL or ERROR an expectations file excuses (gate mode): they neither fail the run nor count against it. */
  excused?: ReadonlySet<string>;
}

function share(part: number, whole: number): number {
  return whole === 0 ? 1 : part / whole;
}

function percent(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/**
 * Figures over the selected rules (the results given), never the catalogue.
 *
 * Score: passed MUST rules over MUST rules that reached a verdict (PASS or FAIL).
 * Coverage: rules that reached a verdict on the server (PASS, FAIL, OBSERVED)
 * over the selection; servable coverage: the same over the rules this target
 * and these options can serve, which is what `minCoverage` is held to.
 *
 * Outcome: an unusable target (most rules tried ended in a harness ERROR) is
 * inconclusive whatever else happened, since its FAILs may be the breakdown's
 * doing; otherwise a FAIL of a rule that fails the run is not-conformant; then
 * harness ERRORs, coverage below the threshold (rules NOT-TESTED, blocked or
 * left without a resource) and, with failOnSkip, any SKIP are inconclusive.
 */
export function summarise(results: readonly RuleResult[], options: SummaryOptions = {}): RunSummary {
  const byVerdict = noVerdicts();
  for (const r of results) byVerdict[r.verdict] += 1;
  const excused = (r: RuleResult): boolean =>
    options.excused?.has(r.ruleId) === true && (r.verdict === 'FAIL' || r.verdict === 'ERROR' || r.verdict === 'FLAKY');
  const judged = results.filter((r) => r.level === 'MUST' && (r.verdict === 'PASS' || r.verdict === 'FAIL'));
  const passed = judged.filter((r) => r.verdict === 'PASS').length;
  const ran = results.filter(reachedVerdict).length;
  // A known ERROR (gate mode) is outside what the gate asks this target to serve.
  const servable = results.filter((r) => !outsideTarget(r) && !(r.verdict === 'ERROR' && excused(r))).length;
  const servableCoverage = share(ran, servable);
  const requiredCoverage = options.minCoverage ?? 1;

  const errors = results.filter((r) => r.verdict === 'ERROR' && !excused(r)).length;
  const tried = ran + byVerdict.ERROR;
  // "Most" needs a few rules to mean anything: one ERROR in a one-rule run is just an ERROR.
  const unusable = tried >= 4 && byVerdict.ERROR * 2 > tried;
  const failed = results.some(
    (r) =>
      (r.verdict === 'FAIL' || (r.verdict === 'FLAKY' && options.strict === true)) &&
      failsTheRun(r, options) &&
      !excused(r),
  );
  const flaky = results.filter((r) => r.verdict === 'FLAKY' && !excused(r)).length;

  const inconclusive: string[] = [];
  if (unusable)
    inconclusive.push(
      `the target is unusable: ${byVerdict.ERROR} of the ${tried} rules tried ended in a harness ERROR (network, timeouts, 5xx, 429)`,
    );
  else if (errors > 0) inconclusive.push(`${errors} rule(s) ended in a harness ERROR: no verdict on the server`);
  if (flaky > 0) inconclusive.push(`${flaky} rule(s) FLAKY: a departure seen once did not repeat when driven again`);
  // A small tolerance: 1/3 of rules must compare equal to a threshold of 33.3%.
  if (servableCoverage + 1e-9 < requiredCoverage) {
    const missing = [
      byVerdict['NOT-TESTED'] > 0 ? `${byVerdict['NOT-TESTED']} NOT-TESTED` : '',
      ...['blocked', 'resource'].map((cause) => {
        const n = results.filter(
          (r) => r.verdict === 'SKIP' && (r.skipCause ?? (r.blockedBy ? 'blocked' : '')) === cause,
        ).length;
        return n > 0
          ? `${n} SKIP (${cause === 'blocked' ? 'blocked by another rule' : 'no mutable resource left'})`
          : '';
      }),
      errors > 0 ? `${errors} ERROR` : '',
    ].filter((x) => x !== '');
    inconclusive.push(
      `coverage ${percent(servableCoverage)} of the ${servable} rules this target can serve is below the required ${percent(requiredCoverage)}${missing.length > 0 ? ` (${missing.join(', ')})` : ''}`,
    );
  }
  // Nothing exercised says nothing about the server, whatever the threshold.
  if (results.length > 0 && ran === 0 && servable === 0)
    inconclusive.push('no selected rule could run against this target with these options');
  if (options.failOnSkip && byVerdict.SKIP > 0)
    inconclusive.push(`${byVerdict.SKIP} rule(s) SKIPped and --fail-on-skip is set`);

  const outcome: RunOutcome = unusable
    ? 'inconclusive'
    : failed
      ? 'not-conformant'
      : inconclusive.length > 0
        ? 'inconclusive'
        : 'conformant';
  return {
    total: results.length,
    byVerdict,
    score: share(passed, judged.length),
    coverage: share(ran, results.length),
    ran,
    servable,
    servableCoverage,
    requiredCoverage,
    outcome,
    inconclusive,
    unusable,
    inferred: {
      judged: results.filter((r) => r.level === 'INFERRED' && (r.verdict === 'PASS' || r.verdict === 'FAIL')).length,
      failed: results.filter((r) => r.level === 'INFERRED' && r.verdict === 'FAIL').length,
    },
    conformant: outcome === 'conformant',
  };
}
