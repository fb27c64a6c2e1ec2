import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { describeCounts, honestCounts, summarise, VERDICTS } from '../../src/core/summarise.ts';
import { renderBadge } from '../../src/session/bundle.ts';
import type { RuleResult, Verdict } from '../../src/core/types.ts';
import { fixtureRun } from '../fixtures/run-result/fixture-run.ts';

function rule(verdict: Verdict, level: RuleResult['level'] = 'MUST', extra: Partial<RuleResult> = {}): RuleResult {
  return { ...fixtureRun().results[0]!, verdict, level, ...extra };
}

describe('summarise', () => {
  test('counts every verdict of the fixture', () => {
    const s = summarise(fixtureRun().results);
    expect(s.byVerdict).toEqual({ PASS: 1, FAIL: 2, ERROR: 1, SKIP: 2, OBSERVED: 1, 'NOT-TESTED': 1, FLAKY: 0 });
    expect(s.total).toBe(8);
    // Score: 1 PASS over 1 PASS + 2 FAIL; the ERROR reached no verdict on the server.
    expect(s.score).toBeCloseTo(1 / 3);
    // Coverage: PASS, 2 FAIL and OBSERVED reached a verdict; the ERROR, 2 SKIP and NOT-TESTED did not.
    expect(s.coverage).toBeCloseTo(4 / 8);
    // The SKIP for a missing restricted key is outside what the target can serve; the blocked one is not.
    expect(s.servable).toBe(7);
    expect(s.servableCoverage).toBeCloseTo(4 / 7);
    expect(s.conformant).toBe(false);
    expect(s.outcome).toBe('not-conformant');
  });

  test('an empty run: all seven verdicts present at zero, score and coverage 1, conformant', () => {
    expect(summarise([])).toEqual({
      total: 0,
      byVerdict: { PASS: 0, FAIL: 0, ERROR: 0, SKIP: 0, OBSERVED: 0, 'NOT-TESTED': 0, FLAKY: 0 },
      score: 1,
      coverage: 1,
      ran: 0,
      servable: 0,
      servableCoverage: 1,
      requiredCoverage: 1,
      outcome: 'conformant',
      inconclusive: [],
      unusable: false,
      inferred: { judged: 0, failed: 0 },
      conformant: true,
    });
  });

  test('an INFERRED departure is counted apart and fails the run only when strict', () => {
    const results = [rule('PASS'), rule('FAIL', 'INFERRED'), rule('PASS', 'INFERRED')];
    const lenient = summarise(results);
    expect(lenient).toMatchObject({ score: 1, conformant: true, inferred: { judged: 2, failed: 1 } });
    expect(summarise(results, { strict: true }).conformant).toBe(false);
  });

  test('a harness ERROR makes a run inconclusive, not non-conformant, without lowering the score', () => {
    const s = summarise([rule('PASS'), rule('ERROR')]);
    expect(s.score).toBe(1);
    expect(s.conformant).toBe(false);
    expect(s.outcome).toBe('inconclusive');
    expect(s.inconclusive.join('\n')).toMatch(/1 rule\(s\) ended in a harness ERROR/);
  });

  test('only MUST rules count toward score and conformance', () => {
    const s = summarise([rule('PASS'), rule('FAIL', 'OBSERVED'), rule('OBSERVED', 'OBSERVED')]);
    expect(s.score).toBe(1);
    expect(s.conformant).toBe(true);
  });

  test('a FAIL outweighs an inconclusive run: the server broke a rule', () => {
    const s = summarise([rule('FAIL'), rule('ERROR'), rule('NOT-TESTED'), rule('PASS'), rule('PASS')]);
    expect(s.outcome).toBe('not-conformant');
  });

  test('rules left NOT-TESTED by the budget make a run inconclusive, whatever the score', () => {
    // The reported bug: 14 rules ran and passed, 34 were NOT-TESTED, and the run said CONFORMANT.
    const results = [
      ...Array.from({ length: 14 }, () => rule('PASS')),
      ...Array.from({ length: 34 }, () => rule('NOT-TESTED')),
    ];
    const s = summarise(results);
    expect(s.score).toBe(1);
    expect(s.outcome).toBe('inconclusive');
    expect(s.inconclusive.join('\n')).toMatch(
      /coverage 29\.2% of the 48 rules .* below the required 100\.0% \(34 NOT-TESTED\)/,
    );
  });

  test('--min-coverage: the threshold is held to the rules the target can serve', () => {
    const results = [
      ...Array.from({ length: 8 }, () => rule('PASS')),
      rule('NOT-TESTED'),
      rule('SKIP', 'MUST', { skipCause: 'profile', reason: 'no restricted key' }),
      rule('SKIP', 'MUST', { skipCause: 'options', reason: 'read-only run' }),
    ];
    // 8 of the 9 servable rules ran: 88.9%.
    expect(summarise(results, { minCoverage: 0.85 }).outcome).toBe('conformant');
    expect(summarise(results, { minCoverage: 0.9 }).outcome).toBe('inconclusive');
    expect(summarise(results).outcome).toBe('inconclusive');
    expect(summarise(results, { minCoverage: 0.85 }).coverage).toBeCloseTo(8 / 11);
  });

  test('SKIPs for the profile or the options are outside the target; blocked rules and --fail-on-skip are not', () => {
    const profileSkip = rule('SKIP', 'MUST', { skipCause: 'profile' });
    expect(summarise([rule('PASS'), profileSkip]).outcome).toBe('conformant');
    expect(summarise([rule('PASS'), profileSkip], { failOnSkip: true }).inconclusive).toEqual([
      '1 rule(s) SKIPped and --fail-on-skip is set',
    ]);
    const blocked = rule('SKIP', 'MUST', { skipCause: 'blocked', blockedBy: 'x.owner' });
    expect(summarise([rule('PASS'), blocked]).outcome).toBe('inconclusive');
    // A results file written before skipCause existed: blockedBy still tells.
    expect(summarise([rule('PASS'), rule('SKIP', 'MUST', { blockedBy: 'x.owner' })]).outcome).toBe('inconclusive');
  });

  test('an unusable target (most rules tried ended in ERROR) is inconclusive even with FAILs, and says so', () => {
    const s = summarise([rule('FAIL'), rule('PASS'), rule('ERROR'), rule('ERROR'), rule('ERROR')]);
    expect(s.unusable).toBe(true);
    expect(s.outcome).toBe('inconclusive');
    expect(s.inconclusive[0]).toMatch(/the target is unusable: 3 of the 5 rules tried/);
    expect(summarise([rule('FAIL'), rule('PASS'), rule('PASS'), rule('ERROR')]).unusable).toBe(false);
  });

  test('gate mode: excused failures and errors neither fail the run nor make it inconclusive', () => {
    const results = [
      rule('PASS'),
      rule('FAIL', 'MUST', { ruleId: 'x.known' }),
      rule('ERROR', 'MUST', { ruleId: 'x.flaky' }),
    ];
    expect(summarise(results).outcome).toBe('not-conformant');
    expect(summarise(results, { excused: new Set(['x.known', 'x.flaky']) }).outcome).toBe('conformant');
    expect(summarise(results, { excused: new Set(['x.known']) }).outcome).toBe('inconclusive');
  });

  test('a FLAKY rule makes the run inconclusive, and not conformant with --strict', () => {
    const results = [rule('PASS'), rule('FLAKY')];
    expect(summarise(results).outcome).toBe('inconclusive');
    expect(summarise(results).inconclusive).toEqual([expect.stringMatching(/^1 rule\(s\) FLAKY/)]);
    expect(summarise(results, { strict: true }).outcome).toBe('not-conformant');
  });

  test('nothing judged: score 1; nothing ran: coverage 0', () => {
    const s = summarise([rule('SKIP'), rule('NOT-TESTED')]);
    expect(s.score).toBe(1);
    expect(s.coverage).toBe(0);
  });

  test('for any results: counts add up, shares stay in [0, 1], conformant exactly when no MUST rule failed, nothing errored and every servable rule ran', () => {
    const result = fc.record({
      verdict: fc.constantFrom(...VERDICTS),
      level: fc.constantFrom<RuleResult['level']>('MUST', 'INFERRED', 'OBSERVED'),
    });
    fc.assert(
      fc.property(fc.array(result, { maxLength: 30 }), (specs) => {
        const s = summarise(specs.map((x) => rule(x.verdict, x.level)));
        expect(Object.keys(s.byVerdict).sort()).toEqual([...VERDICTS].sort());
        expect(VERDICTS.reduce((n, v) => n + s.byVerdict[v], 0)).toBe(specs.length);
        expect(s.score).toBeGreaterThanOrEqual(0);
        expect(s.score).toBeLessThanOrEqual(1);
        expect(s.coverage).toBeGreaterThanOrEqual(0);
        expect(s.coverage).toBeLessThanOrEqual(1);
        expect(s.servableCoverage).toBeLessThanOrEqual(1);
        const nothingCouldRun = specs.length > 0 && s.ran === 0 && s.servable === 0;
        expect(s.conformant).toBe(
          !nothingCouldRun &&
            !specs.some(
              (x) =>
                (x.level === 'MUST' && x.verdict === 'FAIL') ||
                x.verdict === 'ERROR' ||
                x.verdict === 'NOT-TESTED' ||
                x.verdict === 'FLAKY',
            ),
        );
        expect(s.outcome === 'not-conformant').toBe(
          !s.unusable && specs.some((x) => x.level === 'MUST' && x.verdict === 'FAIL'),
        );
      }),
    );
  });
});

describe('honest counts', () => {
  test('passed MUST rules over decided MUST rules; OBSERVED and INFERRED are never passes; skips counted beside', () => {
    const results = [
      rule('PASS'),
      rule('PASS'),
      rule('FAIL'),
      rule('OBSERVED', 'OBSERVED'),
      rule('PASS', 'INFERRED'),
      rule('SKIP'),
      rule('ERROR'),
    ];
    const counts = honestCounts(results);
    expect(counts).toEqual({ mustPassed: 2, mustDecided: 3, skipped: 1, total: 7, mostlySkipped: false });
    expect(describeCounts(counts)).toBe('2 of 3 MUST rules passed, 1 of 7 rules skipped');
    const badge = renderBadge('26.06.25', counts, false);
    expect(badge).toContain('2/3 MUST · 1 skipped');
  });

  test('more than a quarter of the rules skipped is said; a quarter is not', () => {
    const run = (skips: number) => [
      ...Array.from({ length: 8 - skips }, () => rule('PASS')),
      ...Array.from({ length: skips }, () => rule('SKIP')),
    ];
    expect(honestCounts(run(2)).mostlySkipped).toBe(false);
    expect(honestCounts(run(3)).mostlySkipped).toBe(true);
    expect(renderBadge('26.06.25', honestCounts(run(0)), true)).toContain('8/8 MUST<');
  });
});
