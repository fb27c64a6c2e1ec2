import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { summarise, VERDICTS } from '../../src/core/summarise.ts';
import type { RuleResult, Verdict } from '../../src/core/types.ts';
import { fixtureRun } from '../fixtures/run-result/fixture-run.ts';

function rule(verdict: Verdict, level: RuleResult['level'] = 'MUST'): RuleResult {
  return { ...fixtureRun().results[0]!, verdict, level };
}

describe('summarise', () => {
  test('counts every verdict of the fixture', () => {
    const s = summarise(fixtureRun().results);
    expect(s.byVerdict).toEqual({ PASS: 1, FAIL: 2, ERROR: 1, SKIP: 2, OBSERVED: 1, 'NOT-TESTED': 1 });
    expect(s.total).toBe(8);
    // Score: 1 PASS over 1 PASS + 2 FAIL; the ERROR reached no verdict on the server.
    expect(s.score).toBeCloseTo(1 / 3);
    // Coverage: all but 2 SKIP and 1 NOT-TESTED ran.
    expect(s.coverage).toBeCloseTo(5 / 8);
    expect(s.conformant).toBe(false);
  });

  test('an empty run: all six verdicts present at zero, score and coverage 1, conformant', () => {
    expect(summarise([])).toEqual({
      total: 0,
      byVerdict: { PASS: 0, FAIL: 0, ERROR: 0, SKIP: 0, OBSERVED: 0, 'NOT-TESTED': 0 },
      score: 1,
      coverage: 1,
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

  test('a harness ERROR of a MUST rule makes a run not conformant without lowering the score', () => {
    const s = summarise([rule('PASS'), rule('ERROR')]);
    expect(s.score).toBe(1);
    expect(s.conformant).toBe(false);
  });

  test('only MUST rules count toward score and conformance', () => {
    const s = summarise([
      rule('PASS'),
      rule('FAIL', 'OBSERVED'),
      rule('ERROR', 'OBSERVED'),
      rule('OBSERVED', 'OBSERVED'),
    ]);
    expect(s.score).toBe(1);
    expect(s.conformant).toBe(true);
  });

  test('nothing judged: score 1; nothing ran: coverage 0', () => {
    const s = summarise([rule('SKIP'), rule('NOT-TESTED')]);
    expect(s.score).toBe(1);
    expect(s.coverage).toBe(0);
  });

  test('for any results: counts add up, shares stay in [0, 1], conformant exactly when no MUST rule failed or errored', () => {
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
        expect(s.conformant).toBe(
          !specs.some((x) => x.level === 'MUST' && (x.verdict === 'FAIL' || x.verdict === 'ERROR')),
        );
      }),
    );
  });
});
