/**
 * Whose departure is it: Wald's test of its rate over the confirming
 * attempts, its arithmetic, and its error rates over simulated attempts
 * (seeded draws) at the rates it tells apart and between them.
 */
import { seeded } from '../../src/hostile-server/corrupting-proxy.ts';
import { describe, expect, test } from 'vitest';
import {
  attemptEvidence,
  bounds,
  DepartureRateTest,
  RATE_HYPOTHESES,
  type RateDecision,
} from '../../src/rules/departure-rate.ts';

describe('the arithmetic', () => {
  test("Wald's bounds: ln((1-β)/α) to FAIL, ln(β/(1-α)) to FLAKY", () => {
    const { server, glitch } = bounds();
    expect(server).toBeCloseTo(Math.log(0.99 / 0.001), 10);
    expect(server).toBeCloseTo(6.8977, 4);
    expect(glitch).toBeCloseTo(-4.6042, 4);
  });

  test('one judged request: a departure weighs ln 9 towards the server, a clean answer ln(81/89) towards a glitch', () => {
    expect(attemptEvidence(1, true)).toBeCloseTo(Math.log(9), 10);
    expect(attemptEvidence(1, false)).toBeCloseTo(Math.log(81 / 89), 10);
  });

  test('an attempt of several judged requests weighs what it shows: at least one departure, or none', () => {
    const p1 = 1 - 0.9 ** 5;
    const p0 = 1 - (89 / 90) ** 5;
    expect(attemptEvidence(5, true)).toBeCloseTo(Math.log(p1 / p0), 10);
    expect(attemptEvidence(5, false)).toBeCloseTo(Math.log((1 - p1) / (1 - p0)), 10);
    // Five clean answers in one attempt weigh what five clean attempts of one do.
    expect(attemptEvidence(5, false)).toBeCloseTo(5 * attemptEvidence(1, false), 10);
  });

  test('four departures in four judged requests are the server’s; three are not yet', () => {
    const three = new DepartureRateTest();
    for (let i = 0; i < 3; i++) three.observe(1, true);
    expect(three.canAttempt()).toBe(true);
    expect(three.observe(1, true)).toBe('server');
    expect(three.canAttempt()).toBe(false);
  });

  test('49 clean judged requests say a glitch; 48 do not yet', () => {
    const test = new DepartureRateTest();
    for (let i = 0; i < 48; i++) expect(test.observe(1, false)).toBe('undecided');
    expect(test.observe(1, false)).toBe('glitch');
    expect(test.judged).toBe(49);
  });

  test('a test the budget ends undecided is spent, never the server’s', () => {
    const small = new DepartureRateTest({ ...RATE_HYPOTHESES, budget: 10 });
    // One departure, then clean answers: undecided when the budget is reached.
    small.observe(5, true);
    small.observe(5, false);
    expect(small.canAttempt()).toBe(false);
    expect(small.end()).toBe('spent');
  });
});

/** One confirmation: attempts of `judged` requests, each departing with chance `rate`, until the test decides. */
function confirmation(rate: number, judged: number, next: () => number): RateDecision {
  const test = new DepartureRateTest();
  while (test.canAttempt()) {
    let departed = false;
    for (let i = 0; i < judged; i++) if (next() < rate) departed = true;
    test.observe(judged, departed);
  }
  return test.end();
}

/** The share of `n` simulated confirmations that end in each decision. */
function shares(rate: number, judged: number, n: number, seed: number): Record<RateDecision, number> {
  const next = seeded(seed);
  const counts: Record<RateDecision, number> = { server: 0, glitch: 0, spent: 0, undecided: 0 };
  for (let i = 0; i < n; i++) counts[confirmation(rate, judged, next)] += 1;
  return {
    server: counts.server / n,
    glitch: counts.glitch / n,
    spent: counts.spent / n,
    undecided: counts.undecided / n,
  };
}

describe('error rates over simulated confirmations (20,000 each, five judged requests an attempt)', () => {
  const N = 20_000;
  const JUDGED = 5;

  test('the server departing one time in ten is confirmed at least 98% of the time', () => {
    const { server, spent } = shares(0.1, JUDGED, N, 1);
    expect(server).toBeGreaterThanOrEqual(0.98);
    expect(spent).toBeLessThan(0.005);
  });

  test('one time in five: always', () => {
    expect(shares(0.2, JUDGED, N, 2).server).toBeGreaterThanOrEqual(0.999);
  });

  test('a glitch of one time in 90 is confirmed at most one time in a thousand', () => {
    const { server, glitch } = shares(1 / 90, JUDGED, N, 3);
    expect(server).toBeLessThanOrEqual(RATE_HYPOTHESES.falseFail);
    expect(glitch).toBeGreaterThan(0.99);
  });

  test('between the two, one time in 30, neither describes it: mostly FLAKY, a FAIL about one time in eight', () => {
    const { server, glitch, spent } = shares(1 / 30, JUDGED, N, 4);
    expect(server).toBeGreaterThan(0.05);
    expect(server).toBeLessThan(0.2);
    expect(glitch + spent).toBeGreaterThan(0.8);
  });

  test('the same with one judged request an attempt: the size of an attempt changes nothing of the error rates', () => {
    expect(shares(0.1, 1, N, 5).server).toBeGreaterThanOrEqual(0.98);
    expect(shares(1 / 90, 1, N, 6).server).toBeLessThanOrEqual(RATE_HYPOTHESES.falseFail);
  });
});

describe('the built-in faults of one time in N', () => {
  test('every tenth judged request departing is the server’s, from whichever request the count starts', () => {
    for (let offset = 0; offset < 10; offset++) {
      const test = new DepartureRateTest();
      let sent = offset;
      while (test.canAttempt()) {
        let departed = false;
        for (let i = 0; i < 5; i++) if (++sent % 10 === 0) departed = true;
        test.observe(5, departed);
      }
      expect(test.end(), `count starting at ${offset}`).toBe('server');
    }
  });

  test('every fifth, six an attempt: the server’s', () => {
    const test = new DepartureRateTest();
    let sent = 0;
    while (test.canAttempt()) {
      let departed = false;
      for (let i = 0; i < 6; i++) if (++sent % 5 === 0) departed = true;
      test.observe(6, departed);
    }
    expect(test.end()).toBe('server');
  });
});
